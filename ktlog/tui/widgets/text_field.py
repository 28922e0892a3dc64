"""A one-line text field whose editing keys keep their place among the characters typed.

Textual's `Input` inserts a printable character as its key arrives but lets an editing key
(Backspace, the arrows, Delete ...) bubble up to the app, which runs the field's binding for it
later: a fast "abx<Backspace>yz" could store "abxy" (Textual issue #6605). This field runs its
own bindings for a key as the key arrives, so every key is applied in the order typed.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from ..compat import bindings_for_key


class TextField(Input):
    """`Input`, with its own editing keys applied in the order they were typed."""

    async def on_key(self, event: events.Key) -> None:
        if event.is_printable:
            return  # Input inserts it as it arrives
        binding = next((b for b in bindings_for_key(self, event.key) if not b.priority), None)
        if binding is None:
            return  # not the field's key: it bubbles on, to the screen's bindings
        event.prevent_default()
        event.stop()
        await self.run_action(binding.action)

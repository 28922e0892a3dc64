"""The base of the small dialogs: a centred box, Esc cancels, and keys typed ahead are taken.

A fast typist at the table presses the next keys before the next dialog is on screen. The
record screen keeps those keys (`KtlogApp.typeahead`); each dialog takes them in order as it
opens, as if they were typed into it, and hands back whatever is left once it closes, for the
dialog after it. So "a 1 e" activates the first operative with Engage however fast it is typed.
"""

from __future__ import annotations

from textual import events, on
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.strip import Strip

from ..compat import LayoutOnlyOnResize, bindings_for_key, screen_strips


class Modal(LayoutOnlyOnResize, ModalScreen):
    DEFAULT_CSS = """
    Modal { align: center middle; background: transparent; }
    Modal > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%; border: thick $accent; background: $surface; padding: 0 1; }
    Modal Label { width: 100%; }
    Modal .hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    closed = False
    _under: list[Strip] | None = None

    def render_line(self, y: int) -> Strip:
        """The screen under the dialog, as last drawn, its clicks taken out. (Textual's own way
        passes that whole screen through Rich again: over 100 ms for each dialog opened.)"""
        if self._under is None or len(self._under) != self.size.height:
            stack = self.app.screen_stack
            if self not in stack[1:]:  # closing: nothing under it to show
                return Strip.blank(self.size.width)
            below = stack[stack.index(self) - 1]
            self._under = [strip.discard_meta() for strip in screen_strips(below, self.size)]
        return self._under[y] if y < len(self._under) else Strip.blank(self.size.width)

    @on(events.Mount)
    async def take_typeahead(self) -> None:
        """Take the keys typed before the dialog opened (after a subclass's own `on_mount`)."""
        keys = self.app.take_typeahead() if hasattr(self.app, "take_typeahead") else []
        while keys and not self.closed:
            await self.feed(*keys.pop(0))
        if keys:
            self.app.typeahead[:0] = keys

    async def feed(self, key: str, character: str | None) -> None:
        """Take one key typed ahead (by default: run the dialog's binding for it, if any)."""
        for binding in bindings_for_key(self, key):
            await self.run_action(binding.action)
            return

    def dismiss(self, result=None):
        self.closed = True
        return super().dismiss(result)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The footer: every key binding active now, with its action; a click runs it too.

Textual's own Footer rebuilds a widget per key whenever the bindings change; this one is text,
redrawn in place, on a second line when the keys do not fit in one (never cut off).
"""

from __future__ import annotations

from textual import events

from ..markup import escape
from .text_line import TextBlock, lines_of


class KeyFooter(TextBlock):
    DEFAULT_CSS = """
    KeyFooter { dock: bottom; height: auto; background: $footer-background; color: $footer-foreground; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda screen: self.show(), immediate=True)  # drawn in the same frame as the change
        self.call_after_refresh(self.show)

    def show(self) -> None:
        if not self.is_attached or self.app.screen is not self.screen:
            return
        parts = []
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not binding.show or not active.enabled:
                continue
            label = escape(self.app.get_key_display(binding))
            if active.node is self.app or active.node is self.screen:
                target = "app" if active.node is self.app else "screen"
                action = binding.action if "." in binding.action.split("(")[0] else f"{target}.{binding.action}"
            else:  # an open dialog's key: a click presses it
                action = f"app.simulate_key({binding.key!r})"
            markup = f'[@click="{action}"][b $footer-key-foreground] {label} [/]{escape(binding.description)}[/]'
            parts.append((markup, len(label) + 2 + len(binding.description)))
        self.set(lines_of(parts, self.content_size.width or self.app.size.width, gap=" "))

    def on_resize(self, event: events.Resize) -> None:
        self.show()

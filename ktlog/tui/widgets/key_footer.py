"""The footer: every key binding active now, with its action; a click runs it too.

Textual's own Footer rebuilds a widget per key whenever the bindings change, which on the
record screen is every step; this one is a single line of text, redrawn in place.
"""

from __future__ import annotations

from ..markup import escape
from .text_line import TextLine


class KeyFooter(TextLine):
    DEFAULT_CSS = """
    KeyFooter { dock: bottom; height: 1; background: $footer-background; color: $footer-foreground; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda screen: self.call_later(self.show))
        self.call_after_refresh(self.show)

    def show(self) -> None:
        if not self.is_attached or self.app.screen is not self.screen:
            return
        parts = []
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not binding.show or not active.enabled:
                continue
            target = "app" if active.node is self.app else "screen"
            if target == "screen" and active.node is not self.screen:
                continue
            label = escape(self.app.get_key_display(binding))
            action = binding.action if "." in binding.action.split("(")[0] else f"{target}.{binding.action}"
            parts.append(f'[@click="{action}"][b $footer-key-foreground] {label} [/]{escape(binding.description)}[/]')
        self.set(" ".join(parts))

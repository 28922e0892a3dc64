"""The legal next steps, each with its key; clicking a step takes it too. The keys that are not
steps (undo, note, more, back ...) are in the footer."""

from __future__ import annotations

from textual import events

from ktlog.rules.questions import Kind

from .text_line import TextLine, lines_of


def key_label(key: str) -> str:
    return {"full_stop": ".", "exclamation_mark": "!"}.get(key, key.replace("ctrl+", "^"))


class ActionBar(TextLine):
    DEFAULT_CSS = """
    ActionBar { height: 3; padding: 0 1; border-top: solid $primary-darken-2; }
    """

    kinds: list[Kind] = []

    def show(self, kinds: list[Kind]) -> None:
        self.kinds = kinds
        parts = [
            (f"""[@click="screen.step('{k.name}')"][b reverse] {key_label(k.key)} [/] {k.label}[/]""", len(key_label(k.key)) + 3 + len(k.label)) for k in kinds
        ]
        self.set(lines_of(parts, self.content_size.width or 78) if parts else "[dim]nothing to record: the battle is over[/]")

    def on_resize(self, event: events.Resize) -> None:
        self.show(self.kinds)

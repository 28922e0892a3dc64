"""The legal next steps, each with its key; clicking a step takes it too."""

from __future__ import annotations

from ..steps import StepKind
from .text_line import TextLine

ALWAYS = (("ctrl+z", "undo", "Undo"), ("n", "note", "Note"), ("full_stop", "more", "More"))


def key_label(key: str) -> str:
    return {"full_stop": ".", "exclamation_mark": "!"}.get(key, key.replace("ctrl+", "^"))


class ActionBar(TextLine):
    DEFAULT_CSS = """
    ActionBar { height: 3; padding: 0 1; border-top: solid $primary-darken-2; }
    """

    def show(self, kinds: list[StepKind], extra: tuple[tuple[str, str, str], ...] = ALWAYS) -> None:
        steps = [(k.key, k.action, k.label) for k in kinds]
        parts = [f"""[@click="screen.step('{action}')"][b reverse] {key_label(key)} [/] {label}[/]""" for key, action, label in steps]
        if not parts:
            parts.append("[dim]nothing to record: the battle is over[/]")
        tail = [f'[@click="screen.{action}"][b] {key_label(key)} [/]{label}[/]' for key, action, label in extra]
        self.set("  ".join(parts) + "\n[dim]" + "  ".join(tail) + "[/]")

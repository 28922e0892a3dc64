"""A modal list to pick from: each choice has a key, so a pick is one keystroke.

A pick may ask a follow-up question in the same dialog (an operative, then its order), which
saves closing one dialog and opening the next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ktlog.state import OperativeState

from ..widgets.key_footer import KeyFooter
from .dice_dialog import wounds_text
from .modal import Modal

KEYS = "123456789abcdefghijklmnopqrstuvwxyz"
HINT = "press a choice's key, or ↑↓ and Enter; Esc cancels"


@dataclass(frozen=True)
class Choice:
    label: str
    value: Any
    key: str | None = None
    """The key that picks it; by default 1, 2 ... 9, then a, b ..."""


@dataclass(frozen=True)
class Question:
    title: str
    choices: list[Choice]
    hint: str = ""


FollowUp = Callable[[Any], Question | None]
"""Given the answer so far, the next question (or None: done)."""


def operative_label(op: OperativeState) -> str:
    """An operative as a choice: id, datacard, wounds, order."""
    return f"{op.id} · {op.datacard.name} · {wounds_text(op)} · {op.order}"


def distinct(values) -> list:
    """The values in order, each once (the choices several candidate events share)."""
    return list(dict.fromkeys(values))


class PickScreen(Modal):
    DEFAULT_CSS = """
    PickScreen OptionList { height: auto; max-height: 20; border: none; }
    """

    def __init__(self, title: str, choices: list[Choice], hint: str = "", then: FollowUp | None = None):
        """Dismissed with the chosen value; with `then`, with the tuple of every answer."""
        super().__init__()
        self.then = then
        self.answers: list[Any] = []
        self._ask(Question(title, choices, hint))

    def _ask(self, question: Question) -> None:
        spare = iter(k for k in KEYS if k not in {c.key for c in question.choices})
        self.question = question
        self.choices = [c if c.key else Choice(c.label, c.value, next(spare, None)) for c in question.choices]
        self.by_key = {c.key: c for c in self.choices if c.key}

    def _options(self) -> list[Option]:
        return [Option(f"[b]{c.key or ' '}[/] {c.label}") for c in self.choices]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"[b]{self.question.title}[/]", id="title")
            yield OptionList(*self._options())
            yield Label(self.question.hint or HINT, classes="hint", id="hint")
        yield KeyFooter()

    def on_key(self, event: events.Key) -> None:
        if self.choose(event.character):
            event.stop()

    def choose(self, key: str | None) -> bool:
        choice = self.by_key.get(key or "")
        if choice is not None:
            self.answer(choice.value)
        return choice is not None

    def answer(self, value: Any) -> None:
        if self.closed:
            return
        self.answers.append(value)
        follow_up = self.then(tuple(self.answers)) if self.then else None
        if follow_up is None:
            self.dismiss(tuple(self.answers) if self.then else value)
            return
        self._ask(follow_up)
        self.query_one("#title", Label).update(f"[b]{follow_up.title}[/]")
        self.query_one("#hint", Label).update(follow_up.hint or HINT)
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options())
        options.highlighted = 0

    async def feed(self, key: str, character: str | None) -> None:
        if not self.choose(character):
            await super().feed(key, character)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.answer(self.choices[event.option_index].value)

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
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ktlog.state import GameState, OperativeState

from ..markup import escape
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


def operative_choice(op: OperativeState, value: Any, state: GameState, suffix: str = "") -> Choice:
    """An operative as a choice whose key stays the same all game: its place in its kill team
    (1 for the first ...), not in today's list, so a remembered key never picks someone else."""
    place = [o.id for o in state.operatives_of(op.player)].index(op.id)
    return Choice(operative_label(op) + suffix, value, KEYS[place] if place < len(KEYS) else None)


def distinct(values) -> list:
    """The values in order, each once (the choices several candidate events share)."""
    return list(dict.fromkeys(values))


ROWS = 20
"""The most choices a pick list shows at once (its max-height in dialogs.tcss); ↑↓ scroll to the others."""


class PickScreen(Modal):
    """A list of choices (its list has no scrollbar: see dialogs.tcss)."""

    def __init__(self, title: str, choices: list[Choice], hint: str = "", then: FollowUp | None = None):
        """Dismissed with the chosen value; with `then`, with the tuple of every answer."""
        super().__init__()
        self.then = then
        self.answers: list[Any] = []
        self._ask(Question(title, choices, hint))

    def _ask(self, question: Question) -> None:
        """Each choice keeps its own key; the others (and a second choice with a key already
        taken: two sides' operatives) get the next free one."""
        taken: set[str] = set()
        own: list[str | None] = []
        for c in question.choices:
            own.append(c.key if c.key not in taken else None)
            if c.key:
                taken.add(c.key)
        spare = iter(k for k in KEYS if k not in taken)
        self.question = question
        self.choices = [Choice(c.label, c.value, key or next(spare, None)) for c, key in zip(question.choices, own)]
        self.by_key = {c.key: c for c in self.choices if c.key}

    def _options(self) -> list[Option]:
        return [Option(f"[b]{c.key or ' '}[/] {escape(c.label)}") for c in self.choices]

    def compose(self) -> ComposeResult:
        yield Label(f"[b]{escape(self.question.title)}[/]", id="title")
        yield OptionList(*self._options())
        yield Label(self._hint(), classes="hint", id="hint")

    def _hint(self) -> str:
        more = f"{len(self.choices)} choices, ↑↓ scroll to those below; " if len(self.choices) > ROWS else ""
        return escape(more + (self.question.hint or HINT))

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
        self.query_one("#title", Label).update(f"[b]{escape(follow_up.title)}[/]")
        self.query_one("#hint", Label).update(self._hint())
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options())
        options.highlighted = 0

    async def feed(self, key: str, character: str | None) -> None:
        if not self.choose(character):
            await super().feed(key, character)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.answer(self.choices[event.option_index].value)

"""A move's questions as data: what a face asks a person before an event can be recorded (which
operative, which target, which dice, which option) with their legal values, and the event line
(`TYPE field=value ...`, the syntax of `ktlog event`) the answers make.

A `Move` is one kind of move a player may make now; its `questions` are asked in order, each
answer a value written as `ktlog event` takes it. A choice may be legal only with some earlier
answers (a weapon that reaches some targets only): its `when`. The structs are msgspec Structs,
so a face can send them as JSON (the seat page) or render them (the TUI, `ktlog event --types`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

QuestionKind = Literal["player", "operative", "target", "operatives", "option", "dice", "number", "text"]
"""How a question is answered: a player, an operative (of the player's own side), a target (an
enemy operative), several operatives, one of the choices, dice typed as digits, a whole number,
free text."""


class Choice(msgspec.Struct, frozen=True, omit_defaults=True):
    value: str
    """The value as `ktlog event` takes it."""
    label: str
    when: dict[str, tuple[str, ...]] = {}
    """Legal only when each named earlier answer is one of these (a weapon: the targets it reaches;
    an answer of several values, `many`: when one of them is)."""


class DiceGroup(msgspec.Struct, frozen=True, omit_defaults=True):
    """How many dice one group of a dice question takes, given some earlier answers."""

    label: str
    count: int | None = None
    """Exactly this many (a weapon's attacks); None: as many as rolled, up to `most`."""
    most: int | None = None
    """At most this many (the defence dice collected)."""
    when: dict[str, str] = {}
    """The earlier answers this count is for (operative, weapon, target; an answer of several
    values, `many`: when it holds this one, a further target's dice)."""
    hint: str = ""
    """How many, in words, when a count alone cannot say it (fewer once a critical hit is retained)."""


class Question(msgspec.Struct, frozen=True, omit_defaults=True):
    field: str
    """The event's field it answers (or the shorthand `ktlog event` takes: a Shot's target=, dice=)."""
    kind: QuestionKind
    label: str
    shape: str = "TEXT"
    """How the answer is written (`ktlog event --help`: DICE, N, A,B, NAME:N,NAME:N, a|b ...)."""
    choices: tuple[Choice, ...] = ()
    """The legal values; empty: any value of the shape. A question whose choices the earlier
    answers all rule out (`when`) is not asked: it does not apply (a second NPO after a Heavy one)."""
    other: bool = False
    """The choices are suggestions (the roster's ploys): another value may be typed."""
    many: bool = False
    """Several values, joined by commas."""
    most: int | None = None
    """With `many`: at most this many values."""
    default: str | None = None
    optional: bool = False
    """May be left unanswered even when it has legal choices: the field is then left out (its default)."""
    dice: tuple[DiceGroup, ...] = ()
    """For dice: how many dice, by the earlier answers."""
    hint: str = ""

    def legal(self, answers: Mapping[str, str]) -> tuple[Choice, ...]:
        """The choices legal with the answers given so far."""
        return tuple(c for c in self.choices if all(any(_holds(answers.get(f), v) for v in values) for f, values in c.when.items()))

    def dice_for(self, answers: Mapping[str, str]) -> tuple[DiceGroup, ...]:
        """The dice groups of this question that fit the answers given so far."""
        return tuple(g for g in self.dice if all(_holds(answers.get(f), v) for f, v in g.when.items()))


def _holds(answer: str | None, value: str) -> bool:
    """Whether an earlier answer is `value`, or holds it among several (`many`: A,B)."""
    return answer == value or (answer is not None and "," in answer and value in answer.split(","))


class Move(msgspec.Struct, frozen=True, omit_defaults=True):
    """One kind of move a player may make now, and what must be asked to record it."""

    kind: str
    """The kind of move (ktlog.play.moves: "shoot", "activate", a ruleset's own "tac_op" ...)."""
    label: str
    event: str
    """The event type recorded (`ktlog event TYPE`)."""
    player: str | None = None
    """Whose move it is (None: any player's, or nobody's: the start of a turning point)."""
    fixed: dict[str, str] = {}
    """Fields already decided (the active operative ...)."""
    questions: tuple[Question, ...] = ()


class Table(msgspec.Struct, frozen=True, omit_defaults=True):
    """The players at the table as a face shows them: in player order, with their side."""

    ruleset: str
    players: tuple[str, ...]
    """In player order (initiative first), or as they joined before it is settled."""
    npo_side: str | None = None
    """The non-player operatives' side (Joint Ops), played by the players' side."""


@dataclass(frozen=True)
class Kind:
    """A kind of move, as the faces offer it: its label, the key the record screen gives it,
    and how its questions are found from its legal events."""

    name: str
    label: str
    key: str
    asked: tuple[str, ...] = ()
    """The fields whose legal values are read from the legal events, in the order asked."""
    free: Callable[[Any, Any], tuple[Question, ...]] | None = None
    """(state, a legal event) -> the questions whose answers the rules take as given (a reason,
    an amount, a ploy's name), asked after `asked`."""
    describe: Callable[[Any], list[Move]] | None = None
    """(the legal moves) -> the moves, for a kind whose questions are worked out otherwise (dice)."""
    more: bool = False
    """A rare step: offered from the record screen's "more" menu rather than its action bar."""
    exact: bool = False
    """The legal event is the very event entered (no questions), so a refused one can be
    recorded with an override."""
    after: str | None = None
    """A ruleset's kind: the shared kind it is offered after (in the sequence of the game)."""
    first: tuple[str, ...] = ()
    """Fields asked before the others, in this order (VP and why, then from which card)."""


def value_text(value: Any) -> str | None:
    """A field's value as `ktlog event` takes it (None: leave the field out)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return ",".join(f"{k}:{'' if v is None else v}" for k, v in value.items())
    return str(value)

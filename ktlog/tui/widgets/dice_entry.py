"""Dice typed as digits ("65432"), shown split into the groups an entry needs.

Fixed-length groups (a weapon's attack dice, one die per player in a roll-off) fill in turn;
a group of open length (the defence dice, whose number the rules work out) takes the rest, up
to its `most` when it has one, and a fixed group after it (a Hot roll) what follows; without a
`most`, that group is taken from the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


@dataclass(frozen=True)
class Group:
    label: str
    length: int | None = None
    """How many dice; None: as many as typed."""
    most: int | None = None
    """For a group of open length: the most dice that can be rolled (the defence dice)."""


def split(digits: str, groups: list[Group]) -> list[str]:
    """The digits of each group, in order."""
    out = [""] * len(groups)
    open_at = next((i for i, g in enumerate(groups) if g.length is None), len(groups))
    rest = digits
    for i in range(open_at):
        out[i], rest = rest[: groups[i].length], rest[groups[i].length :]
    if open_at == len(groups):
        return out
    tail = sum(g.length or 0 for g in groups[open_at + 1 :])  # one group is open; those after it have a length
    most = groups[open_at].most
    cut = max(0, len(rest) - tail) if most is None else min(most, len(rest))
    out[open_at], rest = rest[:cut], rest[cut:]
    for i in range(open_at + 1, len(groups)):
        out[i], rest = rest[: groups[i].length], rest[groups[i].length :]
    return out


class DiceEntry(Widget, can_focus=True):
    """Typed dice (or, with `numbers`, whole numbers separated by spaces, for quick mode)."""

    DEFAULT_CSS = """
    DiceEntry { height: 1; padding: 0 1; background: $boost; }
    DiceEntry:focus { background: $accent 30%; }
    """

    @dataclass
    class Changed(Message):
        entry: DiceEntry

    @dataclass
    class Refused(Message):
        """A key that is not a die was typed."""

        entry: DiceEntry
        text: str

    digits: reactive[str] = reactive("")

    def __init__(self, groups: list[Group], *, numbers: bool = False, id: str | None = None):
        super().__init__(id=id)
        self.groups = groups
        self.numbers = numbers

    def parts(self) -> list[str]:
        if self.numbers:
            values = self.digits.split(" ")
            return (values + [""] * len(self.groups))[: len(self.groups)]
        return split(self.digits, self.groups)

    @property
    def complete(self) -> bool:
        """Every fixed group is full (in numbers mode: every number is given)."""
        parts = self.parts()
        if self.numbers:
            return all(parts)
        return all(len(p) == g.length for p, g in zip(parts, self.groups) if g.length)

    @property
    def full(self) -> bool:
        """Every group holds all the dice it can: a further die belongs to the next entry."""
        if self.numbers:
            return False
        limits = [g.length if g.length is not None else g.most for g in self.groups]
        return None not in limits and len(self.digits) >= sum(n or 0 for n in limits)

    def render(self) -> str:
        shown = []
        for group, part in zip(self.groups, self.parts()):
            if self.numbers:
                shown.append(f"{group.label}: [b]{part or '_'}[/]")
                continue
            slots = list(part) + (["·"] * (group.length - len(part)) if group.length else [])
            count = f" ({group.length})" if group.length else (f" (up to {group.most})" if group.most else "")
            shown.append(f"{group.label}{count}: [b]{' '.join(slots) or '_'}[/]")
        return " │ ".join(shown)

    def watch_digits(self) -> None:
        self.post_message(self.Changed(self))

    def on_key(self, event: events.Key) -> None:
        if self.type(event.key, event.character):
            event.stop()
            event.prevent_default()

    def type(self, key: str, character: str | None) -> bool:
        """Take a typed key if it is a die (or a digit or space in numbers mode)."""
        char = character or ""
        if key == "backspace":
            self.digits = self.digits[:-1]
        elif self.numbers and char.isdigit():
            self.digits += char
        elif self.numbers and char == " " and self.digits and not self.digits.endswith(" ") and self.digits.count(" ") < len(self.groups) - 1:
            self.digits += " "
        elif not self.numbers and char and char in "123456":
            if self.full:
                return False  # the dialog hands it to the next entry
            self.digits += char
        elif not self.numbers and char and char in "0789":
            self.post_message(self.Refused(self, f"{char} is not a D6 result: dice are 1 to 6"))
        else:
            return False
        return True

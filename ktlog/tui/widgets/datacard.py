"""The datacards of the operatives selected from a roster, shown on the new-game form before the
game is created: each datacard once (with the ids of the operatives that have it), what the
import noted about it, the roster's source file and revision, and what the import left out.
Every value comes from a file: it is shown as plain text (never read as markup), control
characters escaped."""

from __future__ import annotations

from pathlib import Path

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ktlog.events import Datacard
from ktlog.files.bsdata.toml_out import ImportFlags, import_flags
from ktlog.files.rosters import Roster
from ktlog.text.datacards import other_lines, stats_line, weapon_cells
from ktlog.text.safe import visible


def flags_of(roster: Roster) -> ImportFlags:
    """What the import wrote into the roster file's comments (nothing for a hand-written file)."""
    try:
        return import_flags(Path(roster.path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return ImportFlags()


def _text(text: str, style: str = "") -> Text:
    return Text(visible(text), style=style)


def card_view(card: Datacard, title: str, flags: list[str]) -> RenderableType:
    """One datacard: its stats, then indented its weapons in columns (their rules wrap in their
    own column), keywords, unique actions, rules and the import's flags."""
    weapons = Table.grid(padding=(0, 2))
    weapons.add_column(no_wrap=True)
    weapons.add_column(min_width=8)  # the name wraps before the numbers do
    for _ in range(3):
        weapons.add_column(no_wrap=True)
    weapons.add_column(min_width=12)
    for weapon in card.weapons:
        weapons.add_row(*map(_text, weapon_cells(weapon)))
    lines = [_text(line) for line in other_lines(card)] + [_text(f"flag: {note}", "italic") for note in flags]
    return Group(_text(stats_line(card, title), "bold"), Padding(Group(weapons, *lines), (0, 0, 0, 4)))


def datacards_view(roster: Roster, selected: list[str], flags: ImportFlags) -> RenderableType:
    """The roster's heading, then each selected operative's datacard once."""
    origin = f", from {roster.source}" + (f" revision {roster.revision}" if roster.revision else "") if roster.source else ""
    heading = f"Datacards of {roster.name}{origin}: {len(selected)} operatives selected" if selected else f"{roster.name}{origin}: no operative selected"
    parts: list[RenderableType] = [_text(heading, "underline")]
    parts += [_text(f"warning: {w}", "italic") for w in roster.warnings]
    parts += [_text(f"left out by the import: {text}", "italic") for text in flags.left_out]
    cards: dict[Datacard, list[str]] = {}
    by_id = {o.id: o.datacard for o in roster.operatives}
    for op_id in selected:
        if op_id in by_id:
            cards.setdefault(by_id[op_id], []).append(op_id)
    parts += [card_view(card, f"{card.name} ({', '.join(ids)})", flags.notes.get(card.name, [])) for card, ids in cards.items()]
    return Group(*parts)


class DatacardPanel(VerticalScroll):
    """The selected operatives' datacards; it scrolls (Tab to it, then the arrow keys) when they
    are longer than half the screen."""

    DEFAULT_CSS = """
    DatacardPanel { height: auto; max-height: 50vh; margin-top: 1; }
    DatacardPanel > Static { height: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Static()

    def show(self, roster: Roster, selected: list[str], flags: ImportFlags) -> None:
        self.query_one(Static).update(datacards_view(roster, selected, flags))

"""The sides of a new game: a player with a kill team from a roster file and the operatives
selected for this battle, with their datacards shown before the game is created; in Joint Ops,
the NPO side with its operatives counted out."""

from __future__ import annotations

from pathlib import Path

from rich.segment import Segment
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.strip import Strip
from textual.widgets import Checkbox, Input, Label, Select, SelectionList

from ktlog.data import SAMPLE_ROSTERS
from ktlog.errors import KtlogError
from ktlog.files.rosters import Roster, find_roster, load_roster
from ktlog.play.creation import Side

from ..markup import escape
from ..widgets.datacard import DatacardPanel, flags_of
from ..widgets.text_field import TextField

NPO_ROSTER = SAMPLE_ROSTERS / "npo.toml"
NPO_SELECTION = "heavy-brawler, tough-brawler, trooper-marksman, trooper-marksman, trooper-marksman"
"""The NPOs offered: those of the README's Joint Ops example (45 Wounds)."""


def sample_rosters(folder: Path = SAMPLE_ROSTERS) -> dict[str, Roster]:
    """The sample rosters, by path (the NPO datacards are the Joint Ops NPO side's)."""
    return {str(path): load_roster(path) for path in sorted(folder.glob("*.toml")) if path.stem != NPO_ROSTER.stem}


class OperativeSelection(SelectionList):
    """The operatives to field: a selected one's box shows X, a dropped one's is empty (Textual
    draws an X in both, told apart only by colour). Relies on `SelectionList.render_line`
    drawing the box as its first three segments, the middle one Textual's toggle mark (a
    Checkbox's); tests/test_tui_at_the_table.py checks the screen."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        index = self.scroll_offset.y + y
        if index < self.option_count and len(segments) > 2 and segments[1].text == Checkbox.BUTTON_INNER:
            if self.get_option_at_index(index).value not in self.selected:
                segments[1] = Segment(" " * len(Checkbox.BUTTON_INNER), segments[1].style)
                return Strip(segments, strip.cell_length)
        return strip


class SideForm(Vertical):
    """One side of the game: its name, a roster file (Enter loads it) and where its errors show."""

    DEFAULT_CSS = """
    SideForm { height: auto; border: round $primary-darken-2; padding: 0 1; margin-bottom: 1; }
    SideForm Horizontal { height: 1; margin-bottom: 1; }
    SideForm Input, SideForm Select { width: 1fr; height: 1; }
    SideForm Horizontal > Label { width: auto; padding: 0 1 0 0; }
    SideForm SelectionList { height: auto; max-height: 8; }
    SideForm .error { color: $error; height: auto; }
    SideForm #npo-wounds { width: 1fr; }
    """

    FIX = "Fix the file and press Enter in the path again"

    def __init__(self, key: str, title: str, name: str):
        super().__init__(id=f"player-{key}")
        self.key, self.default_name = key, name
        self.border_title = title
        self.roster: Roster | None = None
        self.loaded_from: str | None = None
        """The path or name typed that the roster shown was loaded from (None: a sample picked)."""

    def name_field(self) -> ComposeResult:
        yield Label("Name")
        yield TextField(self.default_name, placeholder="name", compact=True, id=f"name-{self.key}")

    def file_field(self, value: str = "") -> ComposeResult:
        with Horizontal():
            yield Label("or a roster file" if not value else "Roster file")
            yield TextField(value, placeholder="a roster's name (ktlog roster list) or a file's path, then Enter", compact=True, id=f"file-{self.key}")
        yield Label("", classes="error", id=f"error-{self.key}")

    def use(self, roster: Roster, loaded_from: str | None = None) -> None:
        self.roster, self.loaded_from = roster, loaded_from
        self.error("")

    def error(self, text: str) -> None:
        label = self.query_one(".error", Label)
        label.update(text)
        label.display = bool(text)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == f"file-{self.key}" and event.value.strip():
            event.stop()
            self.load_file(event.value.strip())

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == f"file-{self.key}" and not event.value.strip():
            self.path_cleared()

    def path_cleared(self) -> None:
        """The path emptied: its error goes (the kill team shown stays)."""
        self.error("")

    def load_file(self, path: str) -> bool:
        """Load a roster, by a file's path or by its name in the user's roster folder or the
        samples (`find_roster`); if it cannot be read, say why and keep the kill team shown (a
        game is not created from it: `roster_for_game` tries the path again)."""
        try:
            self.use(load_roster(find_roster(str(Path(path).expanduser()))), path)
        except KtlogError as exc:
            self.error(f"{exc}. {self.FIX}")
            return False
        return True

    @property
    def player(self) -> str:
        return self.query_one(f"#name-{self.key}", Input).value.strip()

    def roster_for_game(self) -> Roster:
        """The roster as the form stands (a path or name typed but not yet loaded is loaded now;
        one loaded already keeps the operatives selected from it)."""
        path = self.query_one(f"#file-{self.key}", Input).value.strip()
        if path and path != self.loaded_from and not self.load_file(path):
            raise KtlogError(f"{self.border_title}: the roster file has an error (shown above)")
        if self.roster is None:
            raise KtlogError(f"{self.border_title}: choose a kill team")
        return self.roster


class PlayerForm(SideForm):
    """A player: name, kill team (a sample roster or a file), the operatives selected and their
    datacards."""

    FIX = "Fix the file and press Enter in the path again, or pick a sample kill team"
    BINDINGS = [Binding("plus", "another", "Another of this operative")]

    def __init__(self, number: int, name: str, samples: dict[str, Roster], default: str):
        super().__init__(str(number), f"Player {number}", name)
        self.samples, self.default = samples, default

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield from self.name_field()
            yield Label(" Kill team")
            yield Select(self.choices(), value=self.default, allow_blank=False, compact=True, id=f"team-{self.key}")
        yield from self.file_field()
        yield OperativeSelection(id=f"ops-{self.key}")
        yield DatacardPanel(id=f"cards-{self.key}")

    def choices(self) -> list[tuple[str, str]]:
        return [(r.name, path) for path, r in self.samples.items()]

    def on_mount(self) -> None:
        self.use(self.samples[self.default])

    def offer(self, samples: dict[str, Roster], default: str) -> None:
        """Offer these sample kill teams instead (another edition's datacards)."""
        self.samples, self.default = samples, default
        self.query_one(Select).set_options(self.choices())
        self.query_one(Select).value = default

    def use(self, roster: Roster, loaded_from: str | None = None) -> None:
        super().use(roster, loaded_from)
        ops = self.query_one(SelectionList)
        ops.clear_options()
        ops.add_options([(f"{o.id} · {o.datacard.name}", o.id, True) for o in roster.operatives])
        ops.border_title = f"{roster.name}: the operatives selected (Space toggles, + adds another of one)"
        self.flags = flags_of(roster)
        self.show_datacards()

    def fielded(self) -> list[str]:
        """The roster ids of the operatives selected, in the list's order, an id once per copy
        selected (a copy's value is "ID#2", "ID#3" ...)."""
        ops = self.query_one(SelectionList)
        chosen = set(ops.selected)
        values = [ops.get_option_at_index(i).value for i in range(ops.option_count)]
        return [str(v).partition("#")[0] for v in values if v in chosen]

    def action_another(self) -> None:
        """Another operative of the highlighted one's type (three Kommando Boys from a roster
        that lists the type once), fielded as ID-1, ID-2 ... like `ktlog new`'s repeated ids."""
        ops = self.query_one(SelectionList)
        if self.roster is None or ops.highlighted is None:
            return
        base = str(ops.get_option_at_index(ops.highlighted).value).partition("#")[0]
        copies = sum(1 for i in range(ops.option_count) if str(ops.get_option_at_index(i).value).partition("#")[0] == base)
        card = next(o.datacard for o in self.roster.operatives if o.id == base)
        ops.add_option((f"{base} (another, #{copies + 1}) · {card.name}", f"{base}#{copies + 1}", True))
        self.show_datacards()

    def show_datacards(self) -> None:
        assert self.roster is not None
        self.query_one(DatacardPanel).show(self.roster, self.fielded(), self.flags)

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        event.stop()
        if self.roster is not None:
            self.show_datacards()

    def on_select_changed(self, event: Select.Changed) -> None:
        chosen = self.query_one(Select).value  # as it stands now: options set again post changes on the way
        if chosen in self.samples and (self.roster is None or self.roster.path != chosen):
            self.query_one(f"#file-{self.key}", Input).value = ""
            self.use(self.samples[chosen])

    def path_cleared(self) -> None:
        """The path emptied: back to the sample kill team chosen, without the file's entry."""
        super().path_cleared()
        team = self.query_one(Select)
        team.set_options(self.choices())
        team.value = team.value if team.value in self.samples else self.default
        self.use(self.samples[team.value])

    def load_file(self, path: str) -> bool:
        """As the side's; the selector then names the file's kill team."""
        if not super().load_file(path):
            return False
        assert self.roster is not None
        team = self.query_one(Select)
        team.set_options([*self.choices(), (f"{self.roster.name} (file)", self.roster.path)])
        team.value = self.roster.path
        return True

    def side(self) -> Side:
        """This player, their roster and the operatives selected."""
        roster = self.roster_for_game()
        selected = self.fielded()
        if not selected:
            raise KtlogError(f"player {self.key}: select at least one operative")
        return Side(self.player, roster, list(selected))


class NpoForm(SideForm):
    """Joint Ops' non-player operatives: an NPO roster and the operatives selected, each named as
    often as it is selected (pg 89), against the mission's combined Wounds (pg 90-94)."""

    def __init__(self):
        super().__init__("npo", "The NPOs (non-player operatives, pg 89)", "NPOs")

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield from self.name_field()
        yield from self.file_field(str(NPO_ROSTER))
        with Horizontal():
            yield Label("Selected")
            yield TextField(NPO_SELECTION, placeholder="operative ids, comma separated; repeat an id to select it again", compact=True, id="ops-npo")
        yield Label(id="npo-wounds")

    def on_mount(self) -> None:
        self.load_file(str(NPO_ROSTER))

    def selection(self) -> list[str]:
        return [i.strip() for i in self.query_one("#ops-npo", Input).value.split(",") if i.strip()]

    def tally(self, budget: tuple[str, int] | None) -> None:
        """The combined Wounds selected, against the mission's budget (title, Wounds), and the
        ids the roster has."""
        cards = {o.id: o.datacard for o in self.roster.operatives} if self.roster else {}
        wounds = sum(cards[i].wounds for i in self.selection() if i in cards)
        most = f" of {budget[0]}'s {budget[1]}" if budget else ""
        self.query_one("#npo-wounds", Label).update(f"combined Wounds {wounds}{most}; the roster has: {escape(', '.join(cards))}")

    def side(self) -> Side:
        if not self.selection():
            raise KtlogError("the NPOs: select at least one operative")
        return Side(self.player, self.roster_for_game(), self.selection(), npo=True)

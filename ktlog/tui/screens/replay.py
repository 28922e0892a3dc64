"""The replay screen: step through a battle moment by moment, read-only.

The state panel is the record screen's; the evaluation bar beside it shows each player's chance
to win at the moment shown (`ktlog.analytics.key_moments`, read once when the screen opens, by the
model of the game's ruleset stored beside the database, or its default; a ruleset with neither
shows no bar and the moment line says why), and the scrubber marks the key moments (◆), `k` and
`K` jumping to the next and the previous; `b` hides the bar and every chance the screen shows
(and shows them again); the replay cursor (`ktlog.play.replay.Replay`) gives the
state at any seq from its snapshots, so a jump costs about as much as a step. A spectator sees
each secret choice (Approved Ops) only from the moment it is revealed: in the state panel, the
moment line and the event log.
"""

from __future__ import annotations

import bisect

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical

from ktlog.analytics.key_moments import Analysis, analyse
from ktlog.analytics.winprob import model_for
from ktlog.play.battle import board_view
from ktlog.play.database import Store
from ktlog.play.replay import Replay
from ktlog.play.timeline import Timeline
from ktlog.rulesets import get_ruleset
from ktlog.text.describe import describe

from ..markup import escape
from ..widgets.board_panel import BoardPanel
from ..widgets.eval_bar import EvalBar
from ..widgets.event_log import EventLog
from ..widgets.key_footer import KeyFooter
from ..widgets.scrubber import Scrubber
from ..widgets.state_panel import StatePanel
from ..widgets.text_line import TextBlock
from ..widgets.vp_curve import VPCurve
from .modal import DialogHost
from .pick import Choice, PickScreen
from .prompt import TextPrompt


class ReplayScreen(DialogHost):
    DEFAULT_CSS = """
    ReplayScreen #main { height: 1fr; }
    ReplayScreen #board { height: 1fr; }
    ReplayScreen #side { height: 9; }
    ReplayScreen #side > * { width: 1fr; }
    ReplayScreen #moment { height: auto; min-height: 2; max-height: 4; padding: 0 1; }
    ReplayScreen.-short.-narrow #side { height: 6; }
    ReplayScreen.-short.-narrow VPCurve { display: none; }
    ReplayScreen.-wide #main { layout: horizontal; }
    ReplayScreen.-wide #side { layout: vertical; width: 40%; height: 1fr; }
    ReplayScreen.-wide #side > * { width: 1fr; height: 1fr; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    """Under 30 lines (80x24) the log gives its room to the operatives, and the VP curve (no
    chart in four rows; the score board has the VP) its width to the log."""
    BINDINGS = [
        Binding("right", "step(1)", "Step", priority=True),
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("right_square_bracket", "activation(1)", "Next activation", priority=True),
        Binding("left_square_bracket", "activation(-1)", "Prev activation", priority=True),
        Binding("pagedown", "turning_point(1)", "Next TP", priority=True),
        Binding("pageup", "turning_point(-1)", "Prev TP", priority=True),
        Binding("home", "seek(0)", "Start", priority=True),
        Binding("end", "seek(-1)", "End", priority=True),
        Binding("k", "key_moment(1)", "Key moment", priority=True),
        Binding("K", "key_moment(-1)", "Prev key moment", show=False, priority=True),
        Binding("b", "toggle_bar", "Bar"),
        Binding("m", "toggle_map", "Map"),
        Binding("g", "go_to_event", "Go to event"),
        Binding("t", "go_to_turning_point", "Go to TP"),
        Binding("escape", "app.pop_screen", "Back"),
        Binding("q", "app.quit", "Quit", show=False),  # the footer shows ^q Quit, the app's
    ]

    def __init__(self, store: Store, game_id: str, *, spectator: bool = False):
        super().__init__()
        self.game_id = game_id
        self.spectator = spectator
        """Hide secret choices until they are revealed."""
        self.replay = Replay.open(store, game_id)
        final = self.replay.final
        self.ruleset = get_ruleset(final.ruleset)
        self.secrets = any(self.ruleset.secrets(final, p) for p in final.players)
        """Whether the ruleset has secret choices at all."""
        self.timeline = self.replay.timeline
        self.tp_starts = {seq: f"TP{tp}" for seq, tp in self.timeline.turning_points.items()}
        self.top_vp = max((p.total_vp for p in final.players.values()), default=0) + 1
        self.analysis = evaluate(store, final.ruleset, self.timeline, spectator)
        """The win probability at every moment and the key moments (`fitted` False: no model, and why)."""
        self.key_seqs = sorted({m.seq for m in self.analysis.moments}) if self.analysis.curve else []
        self.chances_shown = True
        """Whether the bar, and every chance the screen words, is shown (`b`)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            with Horizontal(id="board"):
                if self.analysis.curve:
                    yield EvalBar(self.analysis.players)
                yield StatePanel(len(self.replay.final.players), spectator=self.spectator)
                if self.replay.final.layout is not None:  # a game with positions: its map, shown with m
                    panel = BoardPanel(id="map")
                    panel.display = False
                    yield panel
            with Horizontal(id="side"):
                if self.ruleset.ops:  # Joint Ops scores no VP
                    yield VPCurve(self.replay.head, self.top_vp, self.tp_starts)
                yield EventLog(spectator=self.spectator)
        yield TextBlock(id="moment")  # a long event wraps: its note stays under it
        yield Scrubber(self.replay.head, {seq: "┼" for seq in self.tp_starts} | dict.fromkeys(self.key_seqs, "◆"))
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(EventLog).load(self.timeline, self.replay.final)
        mode = ""
        if self.spectator:
            mode = " · spectator mode: secret choices hidden until revealed" if self.secrets else " · spectator mode (no secret choices in this ruleset)"
        self.sub_title = f"replay {self.game_id[:8]}{mode}"
        self.replay.seek(min(self.tp_starts, default=0))  # from the start of the battle
        self.show()

    # --- showing ----------------------------------------------------------------------------

    def show(self) -> None:
        r = self.replay
        state = r.state
        self.query_one(StatePanel).show(state)
        for curve in self.query(VPCurve):
            curve.show(state)
        self.query_one(Scrubber).position = r.seq
        self.show_bar()
        log = self.query_one(EventLog)
        log.show_moment(state)
        log.show_seq(r.seq)
        self.query_one("#moment", TextBlock).set(self.moment_text(r.seq))
        for panel in self.query(BoardPanel):
            if panel.display:
                panel.show(board_view(r, r.seq))  # leaves the cursor at the seq shown

    def show_bar(self) -> None:
        """The evaluation bar at the moment shown (a hidden bar is left as it is)."""
        for bar in self.query(EvalBar):
            if bar.display:
                chances, decided = chances_at(self.analysis, self.replay.seq)
                bar.show(chances, decided, self.analysis.model)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_bar" and not self.analysis.curve:  # no model for this ruleset: nothing to hide
            return False
        if action == "toggle_map" and self.replay.final.layout is None:  # a game without positions has no map
            return False
        return super().check_action(action, parameters)

    def action_toggle_bar(self) -> None:
        """Hide the evaluation bar and every chance the screen words (to replay a game without being
        told who is ahead), or show them again."""
        self.chances_shown = not self.chances_shown
        for bar in self.query(EvalBar):
            bar.display = self.chances_shown
        self.show_bar()
        self.query_one("#moment", TextBlock).set(self.moment_text(self.replay.seq))

    def action_toggle_map(self) -> None:
        """The battle's map in place of the operatives' table, or the table again."""
        panel = self.query_one(BoardPanel)
        panel.display = not panel.display
        self.query_one(StatePanel).display = not panel.display
        self.show()

    def moment_text(self, seq: int) -> str:
        if not self.analysis.curve and seq == self.replay.seq and seq in (0, min(self.tp_starts, default=0)):
            start = "[dim]before the first event · → steps forward, ] next activation, PgDn next turning point[/]\n" if seq == 0 else ""
            return start + f"[dim]no win probability: {escape(self.analysis.model)}[/]"
        if seq == 0:
            return "[dim]before the first event · → steps forward, ] next activation, PgDn next turning point[/]"
        event = self.timeline.event(seq)
        text = f"[b]seq {seq}[/] {escape(describe(event, self.spectator, self.replay.state))}"
        if seq in self.timeline.undone_by and not event.meta:
            text += f" [magenta](undone at seq {self.timeline.undone_by[seq]})[/]"
        if seq in self.timeline.corrected_by and not event.meta:
            text += f" [yellow](corrected at seq {self.timeline.corrected_by[seq]}: what counts is shown from there)[/]"
        moment = next((m for m in self.analysis.moments if m.seq == seq), None)
        if moment and self.chances_shown:
            text += f" [b yellow]◆ key moment: {escape(moment.player)} {moment.change:+.0%}[/] [yellow]{escape(moment.description)}[/]"
        elif moment:
            text += " [b yellow]◆ key moment[/]"  # the bar hidden: not who gained, nor how much
        for note in self.timeline.notes.get(seq, []):
            text += f"\n[i cyan]✎ {escape(note)}[/]"
        return text

    # --- moving -----------------------------------------------------------------------------

    def action_seek(self, seq: int) -> None:
        self.replay.seek(self.replay.head if seq < 0 else seq)
        self.show()

    def action_step(self, n: int) -> None:
        self.action_seek(max(0, self.replay.seq + n))

    def action_activation(self, direction: int) -> None:
        if direction > 0:
            self.replay.next_activation()
        else:
            self.replay.previous_activation()
        self.show()

    def action_key_moment(self, direction: int) -> None:
        """To the next (or previous) key moment; the moment line says how it moved the bar."""
        at = self.replay.seq
        seqs = [s for s in self.key_seqs if s > at] if direction > 0 else [s for s in self.key_seqs if s < at][::-1]
        if not seqs:
            self.notify("no key moment " + ("after" if direction > 0 else "before") + " this one", timeout=3)
            return
        self.action_seek(seqs[0])

    def action_turning_point(self, direction: int) -> None:
        seqs = sorted(self.tp_starts)
        at = self.replay.seq
        later = [s for s in seqs if s > at]
        earlier = [s for s in seqs if s < at]
        if direction > 0:
            self.action_seek(later[0] if later else self.replay.head)
        else:
            self.action_seek(earlier[-1] if earlier else 0)

    @work(exclusive=True)
    async def action_go_to_event(self) -> None:
        text = await self.ask(TextPrompt(f"Go to event (seq 0 to {self.replay.head})", str(self.replay.seq)))
        if text is None:
            return
        if not text.strip().isdigit():
            self.query_one("#moment", TextBlock).set(f"[red]{escape(text)!r} is not a seq: type a number from 0 to {self.replay.head}[/]")
            return
        self.action_seek(int(text))

    @work(exclusive=True)
    async def action_go_to_turning_point(self) -> None:
        choices = [Choice("the set-up (before turning point 1)", 0, "0")]
        choices += [Choice(f"start of {label} (seq {seq})", seq, label[2:]) for seq, label in sorted(self.tp_starts.items())]
        choices.append(Choice(f"the end (seq {self.replay.head})", self.replay.head, "e"))
        seq = await self.ask(PickScreen("Go to turning point", choices))
        if seq is not None:
            self.action_seek(seq)

    def on_scrubber_seek(self, message: Scrubber.Seek) -> None:
        self.action_seek(message.seq)

    def on_event_log_chosen(self, message: EventLog.Chosen) -> None:
        self.action_seek(message.seq)


def evaluate(store: Store, ruleset: str, timeline: Timeline, spectator: bool) -> Analysis:
    """The replay's evaluation: its game through the model of its ruleset (or why there is none)."""
    return analyse(timeline.records, model_for(store.path, ruleset), spectator=spectator)[0]


def chances_at(analysis: Analysis, seq: int) -> tuple[list[float], bool]:
    """Each player's chance after `seq` (the curve's last moment at or before it; level before
    the battle), and whether the game is decided there."""
    at = bisect.bisect_right(analysis.curve, seq, key=lambda point: point[0]) - 1
    if at < 0:
        return [1 / len(analysis.players)] * len(analysis.players), False
    return analysis.curve[at][1], analysis.decided is not None and seq >= analysis.decided

"""A result reported rather than recorded (`ResultReported`): a tournament table's score from a
results slip, the organiser's command line or a player's seat.

- A game whose battle was not recorded (no turning point started, not ended) ends with the
  report: the player with the most VP wins, equal VP is a draw (`Result.ended_by` "report").
  Its VP count by op when the report gives them, else under the op REPORTED.
- The same figures reported again (the other player's seat, say) add their reporter to those
  standing behind them (`Report.reported_by`); other figures for a game a report ended are
  refused: the report is corrected (`EventCorrected`) or undone, as any event.
- Beside a battle recorded event by event (under way or ended) the report is kept, and the
  battle's own result stands: `play.tournament` flags a report that differs from it.
"""

from __future__ import annotations

from ..events import ResultReported
from ..state import Report, Result
from .context import Ctx, handles

REPORTED = "reported"
"""The op a reported VP counts under when the report gives no VP by op."""
TABLE = "table"
"""Who reported, for the table seat (the terminal, the command line, the organiser)."""


@handles(ResultReported)
def result_reported(ctx: Ctx, e: ResultReported) -> None:
    s = ctx.state
    players = [name for name, p in s.players.items() if not p.npo]
    _check_figures(ctx, e, players)
    behind = {e.seat or TABLE, *e.confirmed_by}
    same = s.report is not None and s.report.vp == e.vp and (not e.vp_by_op or e.vp_by_op == s.report.vp_by_op)
    ended_by_report = s.result is not None and s.result.ended_by == "report"
    if ended_by_report and not same:
        assert s.report is not None
        shown = ", ".join(f"{p} {s.report.vp[p]}" for p in players)
        ctx.invalid(f"the game ended with the result reported at seq {s.report.seq} ({shown}); correct that event or undo it to report another", "vp")
    if same and s.report is not None:
        s.report.reported_by = sorted({*s.report.reported_by, *behind})
        return
    s.report = Report(seq=ctx.seq, vp=dict(e.vp), vp_by_op={p: dict(ops) for p, ops in e.vp_by_op.items()}, reported_by=sorted(behind))
    if s.turning_point == 0 and s.phase != "over":
        _end(ctx, s.report)


def _check_figures(ctx: Ctx, e: ResultReported, players: list[str]) -> None:
    """Each player's VP and only theirs, none below 0; by op, the ruleset's ops adding up to them;
    the confirming players among the game's."""
    if sorted(e.vp) != sorted(players):
        ctx.invalid(f"give each player's VP, and only theirs: {', '.join(players) or 'the game has no players yet'} (vp=NAME:N,NAME:N)", "vp")
    if any(v < 0 for v in e.vp.values()):
        ctx.invalid("VP are 0 or more", "vp")
    for player, ops in e.vp_by_op.items():
        if player not in e.vp:
            ctx.invalid(f"vp_by_op names {player!r}, who is not a player of this game", "vp_by_op")
        unknown = [op for op in ops if op not in ctx.ruleset.ops]
        if unknown:
            ctx.invalid(f"{player}'s VP by op name {', '.join(unknown)}: the ops of {ctx.ruleset.title} are {', '.join(ctx.ruleset.ops) or 'none'}", "vp_by_op")
        if any(v < 0 for v in ops.values()) or sum(ops.values()) != e.vp[player]:
            ctx.invalid(f"{player}'s VP by op add up to {sum(ops.values())}, not the {e.vp[player]} reported", "vp_by_op")
    strangers = [p for p in e.confirmed_by if p not in e.vp]
    if strangers:
        ctx.invalid(f"confirmed_by names {', '.join(strangers)}: only the game's players confirm its result", "confirmed_by")


def _end(ctx: Ctx, report: Report) -> None:
    """The game ends with the report: its VP are the players', the most VP wins."""
    s = ctx.state
    for player, vp in report.vp.items():
        s.players[player].vp = {**dict.fromkeys(ctx.ruleset.ops, 0), **(report.vp_by_op.get(player) or {REPORTED: vp})}
    best = max(report.vp.values())
    leaders = [p for p, v in report.vp.items() if v == best]
    s.activation = None
    s.phase = "over"
    s.result = Result(winner=leaders[0] if len(leaders) == 1 else None, draw=len(leaders) > 1, ended_by="report", seq=ctx.seq, winners=leaders)

"""Swiss rounds and standings of a tournament, as pure functions of its tables: who plays whom
next, and the standings with the event's tie-breakers. No database: `play.tournament` reads
and writes the tables, the faces show what this returns.

Points: a win 1, a draw 1/2, a loss 0 (as the league's standings, docs/statistics.md); a bye
is a win with no VP; a no-show loses, its opponent wins with no VP. Strength of schedule (`sos`)
is the sum of the points of every opponent a player was paired with (a bye has none).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import KtlogError

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
TIE_BREAKERS = {
    "sos": "strength of schedule: the sum of the points of the player's opponents",
    "vp_diff": "VP scored less VP conceded, over the player's games",
    "vp_for": "VP scored, over the player's games",
}
"""The tie-breakers an event may choose, in its order, after points."""
DEFAULT_TIE_BREAKERS = ("sos", "vp_diff")


class PairingError(KtlogError):
    """A round that cannot be paired under the Swiss rules (too many rounds for the players)."""


@dataclass(frozen=True)
class Outcome:
    """How a table ended: each seated player's points and VP, and how (`battle`,
    `concession`, `no-show`, `bye`); `by` the player who conceded or did not show."""

    points: dict[str, float]
    vp: dict[str, int]
    ended_by: str
    by: str | None = None


@dataclass(frozen=True)
class Table:
    """One pairing of a round: `b` is None for a bye; `outcome` None while it is being played."""

    round: int
    table: int
    a: str
    b: str | None
    outcome: Outcome | None = None
    game_id: str | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    def opponent(self, player: str) -> str | None:
        return self.b if player == self.a else self.a


@dataclass
class Standing:
    """A player's line in the standings (every column is documented in docs/running-a-league.md)."""

    player: str
    rank: int = 0
    points: float = 0.0
    sos: float = 0.0
    vp_for: int = 0
    vp_against: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against

    @property
    def played(self) -> int:
        return self.wins + self.draws + self.losses


def bye(round_: int, table: int, player: str) -> Table:
    """A bye: a win with no VP."""
    return Table(round_, table, player, None, Outcome({player: WIN}, {player: 0}, "bye"))


def no_show(table: Table, absent: str) -> Outcome:
    """The outcome of a table where `absent` did not come: their opponent wins, no VP."""
    present = table.opponent(absent)
    assert present is not None, "a bye has no opponent to be absent"
    return Outcome({present: WIN, absent: LOSS}, {present: 0, absent: 0}, "no-show", absent)


def standings(players: Iterable[str], tables: Iterable[Table], tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS) -> list[Standing]:
    """Every player ranked by points, then the tie-breakers in the event's order, then name;
    only tables with an outcome count (a game still being played counts for nobody)."""
    lines = {p: Standing(p) for p in players}
    ended = [t for t in tables if t.outcome is not None]
    for t in ended:
        assert t.outcome is not None
        for player in t.players:
            line = lines.setdefault(player, Standing(player))
            points = t.outcome.points.get(player, LOSS)
            line.points += points
            line.vp_for += t.outcome.vp.get(player, 0)
            opponent = t.opponent(player)
            if opponent is None:
                line.byes += 1
                continue
            line.opponents.append(opponent)
            line.vp_against += t.outcome.vp.get(opponent, 0)
            line.wins += points == WIN
            line.draws += points == DRAW
            line.losses += points == LOSS
    for line in lines.values():
        line.sos = sum(lines[o].points for o in line.opponents)
    ranked = sorted(lines.values(), key=lambda s: (-s.points, *(-_tie_break(s, name) for name in tie_breakers), s.player))
    for rank, line in enumerate(ranked, 1):
        line.rank = rank
    return ranked


def _tie_break(line: Standing, name: str) -> float:
    if name not in TIE_BREAKERS:
        raise KtlogError(f"unknown tie-breaker {name!r}: choose from {', '.join(TIE_BREAKERS)}")
    return float(getattr(line, name))


def pair_round(players: Sequence[str], tables: Sequence[Table], round_: int, seed: int, tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS) -> list[Table]:
    """The tables of round `round_`. The first round is random (`seed` makes it again); later
    rounds pair in standings order, each player with the highest-placed player they have not
    played (so players on equal points meet whenever the rematches allow), backtracking when a
    choice leaves someone with no new opponent. With an odd count the lowest-placed player who
    has had no bye gets one. Raises PairingError when no pairing avoids a rematch."""
    if len(players) < 2:
        raise PairingError(f"a round needs at least 2 players; the event has {len(players)} (`ktlog tournament add` registers them)")
    if round_ == 1:
        order = list(players)
        random.Random(seed).shuffle(order)
    else:
        order = [s.player for s in standings(players, tables, tie_breakers) if s.player in set(players)]
    met: dict[str, set[str]] = {p: set() for p in order}
    had_bye: set[str] = set()
    for t in tables:
        if t.b is None:
            had_bye.add(t.a)
        else:
            met.setdefault(t.a, set()).add(t.b)
            met.setdefault(t.b, set()).add(t.a)
    bye_candidates: list[str | None] = [p for p in reversed(order) if p not in had_bye] if len(order) % 2 else [None]
    if not bye_candidates:
        raise PairingError(f"every one of the {len(order)} players has had a bye: the event has more rounds than its players allow")
    for resting in bye_candidates:
        pairs = _pairs([p for p in order if p != resting], met)
        if pairs is not None:
            made = [Table(round_, n, a, b) for n, (a, b) in enumerate(pairs, 1)]
            return made + ([bye(round_, len(made) + 1, resting)] if resting else [])
    raise PairingError(
        f"round {round_} cannot be paired without a rematch: {len(order)} players have met too many of each other; an event of "
        f"{len(order)} players has at most {len(order) - 1 + len(order) % 2} rounds with no rematch, often fewer"
    )


def _pairs(order: list[str], met: dict[str, set[str]]) -> list[tuple[str, str]] | None:
    """Pairs of the players in `order`, the first with the earliest they have not met, or None.
    Iterative depth-first search (hundreds of players do not reach Python's recursion limit)."""
    pairs: list[tuple[str, str]] = []
    free = list(order)
    choices: list[tuple[list[str], int]] = []  # per pair made: the free list before it and the opponent's index tried
    start = 1
    while free:
        first = free[0]
        index = next((i for i in range(start, len(free)) if free[i] not in met.get(first, ())), None)
        if index is None:
            if not choices:
                return None
            free, tried = choices.pop()
            pairs.pop()
            start = tried + 1
            continue
        choices.append((free, index))
        pairs.append((first, free[index]))
        free = free[1:index] + free[index + 1 :]
        start = 1
    return pairs

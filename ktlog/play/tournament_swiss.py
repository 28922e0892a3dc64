"""Swiss rounds and standings of a tournament, as pure functions of its tables: who plays whom
next, and the standings with the event's tie-breakers. No database: `play.tournament` reads
and writes the tables, the faces show what this returns.

Points: a win 1, a draw 1/2, a loss 0 (as the league's standings, docs/statistics.md); a bye
is a win with no VP; a no-show loses, its opponent wins with no VP.

Ranking (`Ranking`): points, then the event's tie-breakers in its order (TIE_BREAKERS), then a
draw seeded by the event's seed, never the name. Head-to-head compares the players still tied
at that point: the points each scored in their games against the others of the tie.

Pairing (`pair_round`) is one maximum-weight matching of every pair that has not met
(`tournament_matching`), its weights ordered so that, in this order of importance, the round
1. seats every player (the bye, with an odd count, to a player who has had none): no rematch,
   no second bye, ever;
2. gives the bye to a player on as few points as possible;
3. pairs as few players as possible outside their score group (players on equal points);
4. keeps the point gaps of those pairs as small as possible (their sum);
5. gives the bye to the lowest-placed player it can;
6. pairs players as close in the standings as possible (the sum of their places' distances:
   1 v 2, 3 v 4 ... where nothing else decides).
Kill Team has no colours, so no colour is balanced. Round 1, everyone on 0 points, is the seeded
draw's order paired 1 v 2, 3 v 4 ...
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import KtlogError
from .tournament_matching import Edge, match

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
TIE_BREAKERS = {
    "opp_avg": "opponents' average points: the mean of the points of the player's opponents (a bye as the event counts it: --bye-counts)",
    "sos": "strength of schedule: the sum of the points of the player's opponents",
    "vp_diff": "VP scored less VP conceded, over the player's games",
    "vp_for": "VP scored, over the player's games",
    "h2h": "head-to-head: among the players still tied, the points each scored in their games against the others",
}
"""The tie-breakers an event may choose, in its order, after points (a seeded draw comes last)."""
DEFAULT_TIE_BREAKERS = ("opp_avg", "vp_diff", "vp_for", "h2h")
CANDIDATES = 5
"""Each player's nearest possible opponents below them in the standings that the matching starts
from (`tournament_matching.match` adds any other pair that would improve it)."""


class PairingError(KtlogError):
    """A round that cannot be paired under the Swiss rules (too many rounds for the players)."""


@dataclass(frozen=True)
class Ranking:
    """How an event ranks its players after points: its tie-breakers in order, the seed of the
    final draw, and what a bye counts for in `opp_avg` (None: nothing, the mean is of the
    opponents met; a number: an opponent with that many points)."""

    tie_breakers: tuple[str, ...] = DEFAULT_TIE_BREAKERS
    seed: int = 0
    bye_points: float | None = None


@dataclass(frozen=True)
class Outcome:
    """How a table ended: each seated player's points and VP, and how (`battle`, `concession`,
    `report`, `no-show`, `bye`); `by` the player who conceded or did not show."""

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
    opp_avg: float = 0.0
    vp_for: int = 0
    vp_against: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)
    against: dict[str, float] = field(default_factory=dict)
    """The points the player scored against each opponent (head-to-head)."""

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


def standings(players: Iterable[str], tables: Iterable[Table], ranking: Ranking = Ranking()) -> list[Standing]:
    """Every player ranked by points, then the tie-breakers in the event's order, then the
    seeded draw; only tables with an outcome count (a game still being played counts for nobody)."""
    unknown = [b for b in ranking.tie_breakers if b not in TIE_BREAKERS]
    if unknown:
        raise KtlogError(f"unknown tie-breaker {unknown[0]!r}: choose from {', '.join(TIE_BREAKERS)}")
    lines = {p: Standing(p) for p in players}
    for t in tables:
        if t.outcome is None:
            continue
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
            line.against[opponent] = line.against.get(opponent, 0.0) + points
            line.vp_against += t.outcome.vp.get(opponent, 0)
            line.wins += points == WIN
            line.draws += points == DRAW
            line.losses += points == LOSS
    averages = {}
    for line in lines.values():
        line.sos = sum(lines[o].points for o in line.opponents)
        counted = [Fraction(lines[o].points) for o in line.opponents]
        if ranking.bye_points is not None:
            counted += [Fraction(ranking.bye_points)] * line.byes
        averages[line.player] = sum(counted, Fraction(0)) / len(counted) if counted else Fraction(0)
        line.opp_avg = round(float(averages[line.player]), 4)
    ranked = _ranked(list(lines.values()), ranking, averages)
    for rank, line in enumerate(ranked, 1):
        line.rank = rank
    return ranked


def draw_key(seed: int, player: str) -> bytes:
    """A player's place in the event's seeded draw (the last tie-breaker, and round 1's order)."""
    return hashlib.blake2b(f"{seed}\x00{player}".encode(), digest_size=8).digest()


def _ranked(lines: list[Standing], ranking: Ranking, averages: dict[str, Fraction]) -> list[Standing]:
    """The lines in order: points, then each tie-breaker splitting the groups still tied, then the draw."""
    groups = _split([lines], lambda group: {s.player: s.points for s in group})
    for name in ranking.tie_breakers:
        groups = _split(groups, lambda group, name=name: _tie_break(group, name, averages))  # type: ignore[misc]
    return [s for group in groups for s in sorted(group, key=lambda s: (draw_key(ranking.seed, s.player), s.player))]


def _split(groups: list[list[Standing]], keys) -> list[list[Standing]]:
    """Each group of tied players split by a key (highest first), in order."""
    out = []
    for group in groups:
        if len(group) == 1:
            out.append(group)
            continue
        key = keys(group)
        values = sorted(set(key.values()), reverse=True)
        out += [[s for s in group if key[s.player] == v] for v in values]
    return out


def _tie_break(group: list[Standing], name: str, averages: dict[str, Fraction]) -> dict[str, object]:
    if name == "h2h":
        tied = {s.player for s in group}
        return {s.player: sum(p for o, p in s.against.items() if o in tied) for s in group}
    if name == "opp_avg":
        return {s.player: averages[s.player] for s in group}
    return {s.player: getattr(s, name) for s in group}


def pair_round(players: Sequence[str], tables: Sequence[Table], round_: int, ranking: Ranking = Ranking()) -> list[Table]:
    """The tables of round `round_` for `players` (those taking part in it), after `tables` (the
    rounds before), by the order of importance in the module's docstring. Tables are numbered
    by their better-placed player's place, the bye last. Raises PairingError when no pairing
    avoids a rematch or a second bye."""
    if len(players) < 2:
        raise PairingError(f"a round needs at least 2 players; the event has {len(players)} taking part (`ktlog tournament add` registers them)")
    taking_part = set(players)
    ranked = standings(players, tables, ranking)
    order = [s.player for s in ranked if s.player in taking_part]
    points = {s.player: s.points for s in ranked}
    met: dict[str, set[str]] = {p: set() for p in order}
    had_bye: set[str] = set()
    for t in tables:
        if t.b is None:
            had_bye.add(t.a)
        else:
            met.setdefault(t.a, set()).add(t.b)
            met.setdefault(t.b, set()).add(t.a)
    weights = RoundGraph(order, points, met, had_bye)
    mate = match(weights.vertices, weights.candidates(), weights.every_pair)
    unpaired = [order[v] for v in range(len(order)) if mate[v] == -1]
    if unpaired:
        if len(order) % 2 and all(p in had_bye for p in order):
            raise PairingError(f"every one of the {len(order)} players has had a bye: the event has more rounds than its players allow")
        raise PairingError(
            f"round {round_} cannot be paired without a rematch or a second bye ({', '.join(unpaired)} would have no opponent): "
            f"{len(order)} players have met too many of each other; an event of {len(order)} players has at most "
            f"{len(order) - 1 + len(order) % 2} rounds with no rematch, often fewer"
        )
    pairs = sorted((v, mate[v]) for v in range(len(order)) if v < mate[v] < len(order))
    made = [Table(round_, n, order[a], order[b]) for n, (a, b) in enumerate(pairs, 1)]
    resting = [order[v] for v in range(len(order)) if mate[v] == len(order)]
    return made + [bye(round_, len(made) + 1, p) for p in resting]


class RoundGraph:
    """The matching's graph for a round: the players in standings order (vertices 0..n-1), and
    with an odd count a bye (vertex n). Each pair's weight is BIG less its cost, the cost a sum of
    the criteria's measures, each criterion's unit larger than the most every criterion after it
    can add up to over a whole round, so the matching meets them in order; BIG larger than any
    round's whole cost, so a matching that seats more players always weighs more."""

    def __init__(self, order: list[str], points: dict[str, float], met: dict[str, set[str]], had_bye: set[str]):
        n = len(order)
        self.n, self.order = n, order
        self.halves = [round(points.get(p, 0.0) * 2) for p in order]
        place = {p: i for i, p in enumerate(order)}
        self.met = [{place[o] for o in met.get(p, ()) if o in place} for p in order]
        self.bye = n if n % 2 else None
        self.vertices = n + (1 if self.bye is not None else 0)
        self.may_rest = [p not in had_bye for p in order]
        pairs = self.vertices // 2 + 1
        gap = max(self.halves, default=0) - min(self.halves, default=0)
        close_total = pairs * n  # 6. the distance between two places is less than n
        self.bye_place_unit = close_total + 1  # 5.
        bye_place_total = close_total + self.bye_place_unit * n
        self.gap_unit = bye_place_total + 1  # 4.
        gap_total = bye_place_total + self.gap_unit * gap * pairs
        self.float_unit = gap_total + 1  # 3.
        float_total = gap_total + self.float_unit * pairs
        self.bye_points_unit = float_total + 1  # 2.
        self.big = float_total + self.bye_points_unit * (max(self.halves, default=0) + 1) + 1  # 1.

    def weight(self, i: int, j: int) -> int:
        """The weight of the pair of vertices i < j (j may be the bye)."""
        if j == self.bye:
            return self.big - self.bye_points_unit * self.halves[i] - self.bye_place_unit * (self.n - 1 - i)
        gap = abs(self.halves[i] - self.halves[j])
        return self.big - (self.float_unit if gap else 0) - self.gap_unit * gap - (j - i)

    def allowed(self, i: int, j: int) -> bool:
        return self.may_rest[i] if j == self.bye else j not in self.met[i]

    def candidates(self) -> Iterator[Edge]:
        """Each player with the CANDIDATES nearest below them they may meet, and the bye with the
        CANDIDATES lowest-placed who may rest."""
        for i in range(self.n):
            found = 0
            for j in range(i + 1, self.n):
                if self.allowed(i, j):
                    yield i, j, self.weight(i, j)
                    found += 1
                    if found == CANDIDATES:
                        break
        if self.bye is not None:
            resting = [i for i in reversed(range(self.n)) if self.may_rest[i]][:CANDIDATES]
            yield from ((i, self.bye, self.weight(i, self.bye)) for i in resting)

    def every_pair(self) -> Iterator[Edge]:
        for i in range(self.n):
            for j in range(i + 1, self.vertices):
                if self.allowed(i, j):
                    yield i, j, self.weight(i, j)

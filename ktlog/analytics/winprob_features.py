"""What the win-probability model reads of a game at a moment: the board as a viewer of the game
sees it, from the reducer's state (VP, markers held, operatives and wounds left, operatives still
to activate, their firepower, CP, tac ops revealed, the turning point and initiative), never a
secret choice.

Each ruleset names the features it is read by (`Ruleset.win_features`, data: names of `CATALOGUE`
and `vp:OP`, `room:OP` for its ops), so a plug-in ruleset gives its own list. A feature is a
number per player (their own: their VP, their operatives left ...); the model reads each
player's less the mean of their opponents' (`relative`), each as it is, divided by the square
root of the battle left and multiplied by it (`TERMS`): a VP lead counts for more as the battle
runs out, operatives left for less.

This module imports no Polars, and of the rules only their tables and dice sums: a game's every
moment is read in the time it takes to fold it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, lru_cache
from operator import attrgetter, mul

import msgspec

from ..errors import KtlogError
from ..events import Datacard, Event
from ..reducer import apply_in_place, corrected, effective
from ..rules import rulings
from ..rules.killop import KILL_GRADE_TABLE, MAX_KILL_GRADE
from ..rules.ruleset import Ruleset
from ..rules.shooting import expected_damages
from ..rules.weapons import weapon_profile
from ..rulesets import RULESETS
from ..state import PLAYER_SET_UP, PLAYER_STATUS, GameState, Operatives, OperativeState
from .winprob_board import BOARD_FEATURES, Positions, board_figures, positions_key

LOOT_VP_PER_TP = 2
"""Loot scores at most 2VP a player a turning point (pg 85)."""

SHARED = ("vp", "room", "cp", "initiative", "operatives", "operatives_share", "wounds_share", "to_activate", "kill_grade", "markers", "tac_op_revealed")
"""The features of a ruleset that names none (`Ruleset.win_features` None), with `vp:OP` for each of its ops."""

TERMS = ("", "/sqrt_left", "*left")
"""How each feature enters the model: as it is, over the square root of the battle left (a
turning point and a quarter added, so the last moments stay finite), times the battle left."""


class Side(msgspec.Struct, kw_only=True, gc=False):
    """One player's figures at a moment, the ones the features are made of. Left out of Python's
    cyclic garbage collector, as a state's structs are (`gc=False`: it refers to nothing that
    refers back to it): an analysis makes two a moment, a thousand moments a game."""

    vp: dict[str, int]
    total_vp: int
    cp: int
    initiative: bool
    operatives: int
    starting: int
    wounds: int
    starting_wounds: int
    to_activate: int
    escaped: int
    injured: int
    eliminations: int
    firepower: float
    kill_grade: int
    enemies_incapacitated: int
    starting_enemies: int
    markers: int
    most_markers: bool
    top_kill_grade: bool
    loot_left: int
    crit_op: str | None
    tac_op_revealed: bool
    room: dict[str, int]
    total_room: int
    board: Positions
    """Where its operatives stand (a game with positions; else all 0)."""
    name: str
    summed: Bodies
    """Every player's operatives summed (`Bodies`), for the figures read only when a feature asks."""

    @property
    def kill_pace(self) -> float:
        """Kill grades one attack of each of its operatives is worth (`kill_pace`)."""
        return kill_pace(self.name, self.summed)

    @property
    def to_next_grade(self) -> int:
        """Enemy operatives still to incapacitate for the next kill grade (`to_next_grade`)."""
        return to_next_grade(self.starting_enemies, self.enemies_incapacitated, self.kill_grade)


Feature = Callable[[Side], float]

CATALOGUE: dict[str, tuple[Feature, str]] = {
    "vp": (attrgetter("total_vp"), "VP scored"),
    "room": (attrgetter("total_room"), "VP still to be scored: the score's maximum less the VP scored, each op within its cap"),
    "cp": (attrgetter("cp"), "CP in hand"),
    "initiative": (lambda s: float(s.initiative), "1 for the player with initiative this turning point (first in player order)"),
    "operatives": (attrgetter("operatives"), "operatives in the killzone (neither incapacitated nor escaped)"),
    "operatives_share": (lambda s: s.operatives / s.starting if s.starting else 0.0, "operatives in the killzone over those the kill team started with"),
    "wounds_share": (lambda s: s.wounds / s.starting_wounds if s.starting_wounds else 0.0, "wounds left over the kill team's starting wounds"),
    "to_activate": (attrgetter("to_activate"), "operatives still to activate this turning point"),
    "escaped": (attrgetter("escaped"), "operatives escaped (Joint Ops 03)"),
    "eliminations": (
        attrgetter("eliminations"),
        "enemy operatives the player's operatives incapacitated this turning point, as the elimination op counts them (Multiplayer Ops, pg 102)",
    ),
    "injured": (attrgetter("injured"), "operatives in the killzone injured: fewer than half their starting wounds left (pg 47)"),
    "firepower": (
        attrgetter("firepower"),
        "the operatives in the killzone's damage: each one's mean over its weapons of one attack's average damage against a 4+ save, summed",
    ),
    "kill_pace": (
        attrgetter("kill_pace"),
        "kill grades one attack of each operative in the killzone is worth: its firepower against the enemies' mean save, over their mean wounds left an operative, times 5 grades over their starting operatives",
    ),
    "kill_grade": (attrgetter("kill_grade"), "kill grade reached (kill op)"),
    "to_next_grade": (attrgetter("to_next_grade"), "enemy operatives still to incapacitate for the next kill grade (0 at grade 5)"),
    "top_kill_grade": (
        lambda s: float(s.top_kill_grade),
        "1 for the player whose kill grade is above every opponent's (the kill op's end-of-battle VP, pg 84)",
    ),
    "loot_left": (attrgetter("loot_left"), "VP the player may still loot this turning point (Loot: 2 a turning point, pg 85)"),
    "markers": (attrgetter("markers"), "objective markers held: secured by the kill team, transmitting and controlled, or sabotaged by it"),
    "holds_marker": (lambda s: float(s.markers > 0), "1 for a player holding a marker (Secure and Transmission score it, pg 85)"),
    "most_markers": (lambda s: float(s.most_markers), "1 for the player holding more markers than every opponent (pg 85)"),
    "tac_op_revealed": (lambda s: float(s.tac_op_revealed), "1 once the player's tac op is revealed"),
    "on_markers": (attrgetter("board.on_markers"), "operatives within control range of an objective marker (a game with positions, pg 52)"),
    "marker_distance": (attrgetter("board.marker_distance"), "the operatives' mean distance in inches to the nearest objective marker (a game with positions)"),
    "in_cover": (attrgetter("board.in_cover"), "operatives in cover from the nearest enemy operative (a game with positions, pg 47)"),
}
"""Every feature a ruleset may name, with what it is (docs/statistics.md lists them); besides
these, `vp:OP` (VP scored in op OP) and `room:OP` (VP still to be scored in it)."""


def feature(name: str) -> Feature:
    """The feature named (`CATALOGUE`, `vp:OP`, `room:OP`, and any of them `@CRITOP`: itself in
    games of that crit op, else 0); an unknown name is refused, named."""
    plain, at, crit_op = name.partition("@")
    if at and crit_op:
        read = feature(plain)
        return lambda s: read(s) if s.crit_op == crit_op else 0.0
    if name in CATALOGUE:
        return CATALOGUE[name][0]
    kind, _, op = name.partition(":")
    if op and kind == "vp":
        return lambda s: s.vp.get(op, 0)
    if op and kind == "room":
        return lambda s: s.room.get(op, 0)
    raise KtlogError(f"the win-probability model has no feature {name!r}; features: {', '.join(CATALOGUE)}, vp:OP, room:OP, and any of them @CRITOP")


def features_of(ruleset: Ruleset, *, board: bool = False) -> tuple[str, ...]:
    """The features a ruleset's games are read by: its own list, else `SHARED` with VP by op;
    `board`: and its board features after them (`Ruleset.win_board_features`, games with positions)."""
    own = tuple(ruleset.win_features) if ruleset.win_features is not None else (*SHARED, *(f"vp:{op}" for op in ruleset.ops))
    return (*own, *ruleset.win_board_features) if board else own


def terms(features: tuple[str, ...] | list[str]) -> list[str]:
    """The model's columns: each feature in each of `TERMS`."""
    return [f + t for f in features for t in TERMS]


class Moment(msgspec.Struct, gc=False):
    """A game at a moment as the model reads it: who plays, how much battle is left, and each
    player's features relative to their opponents (in `features` order). Out of the cyclic
    collector, as `Side`."""

    seq: int
    turning_point: int
    left: float
    players: list[str]
    relative: list[list[float]]
    """Per player (in `players` order): each feature, theirs less their opponents' mean."""

    def scores(self, coefficients: list[float]) -> list[float]:
        """Each player's sum of their terms (`terms`: each feature as it is, over sqrt(left + 1/4),
        times left) times the coefficients: each feature's weight at this moment, then one sum a player."""
        weight = weights(coefficients, self.left)
        relative = self.relative
        if len(relative) == 2:  # the second row is the first turned round, and so is its sum
            first = sum(map(mul, weight, relative[0]))
            return [first, -first]
        return [sum(map(mul, weight, row)) for row in relative]


_WEIGHTS: dict[tuple[int, float], tuple[list[float], list[float]]] = {}


def weights(coefficients: list[float], left: float) -> list[float]:
    """Each feature's weight at a moment with `left` of the battle left: its `TERMS`' coefficients
    times 1, over sqrt(left + 1/4) and times left, summed. Kept by the list's identity and `left`:
    a game's moments ask the same two lists at a few dozen values of `left`."""
    key = (id(coefficients), left)
    known = _WEIGHTS.get(key)
    if known is None or known[0] is not coefficients:
        if len(_WEIGHTS) > 4096:
            _WEIGHTS.clear()
        root = 1.0 / math.sqrt(left + 0.25)
        weight = [a + b * root + c * left for a, b, c in zip(coefficients[::3], coefficients[1::3], coefficients[2::3])]
        known = _WEIGHTS[key] = (coefficients, weight)
    return known[1]


def battle_left(state: GameState, ruleset: Ruleset, ready: int, in_killzone: int) -> float:
    """Turning points still to play, the one under way counted by its operatives still to
    activate: the whole battle before it, 0 once it is over (a battle of no set length counts 4)."""
    total = ruleset.turning_points or 4
    tp = state.turning_point
    if state.phase == "over":
        return 0.0
    if state.phase == "setup" or tp == 0:
        return float(total)
    if state.phase == "between":
        return float(max(0, total - tp))
    share = ready / in_killzone if state.phase == "firefight" and in_killzone else (1.0 if state.phase == "strategy" else 0.0)
    return max(0.0, total - tp + share)


Bodies = dict[str, list[int]]
"""Per player, what only a look at every operative gives: operatives in the killzone, starting,
wounds left, starting wounds, escaped, injured, and of those in the killzone their saves summed
and their firepower against a 2+, 3+ ... 6+ save (`figures`)."""
SAVES_READ = (2, 3, 4, 5, 6)
"""The saves each operative's firepower is worked out against."""
SAVES, FIREPOWER = 6, 7
"""Where the saves summed and the firepower against a 2+ save are in a player's `Bodies`."""
MILLI = 1000
"""Firepower is summed in thousandths of a wound, whole numbers: summed again in part (`bodies_beside`) it is the same to the last digit."""
_FIGURES: dict[int, tuple[Datacard, tuple[int, ...]]] = {}


def figures(datacard: Datacard) -> tuple[int, ...]:
    """An operative's save, then its firepower against a 2+, 3+ ... 6+ save in thousandths of a
    wound (the mean over its weapons of one attack's average, `expected_damage`, in the open), as
    a player's `Bodies` sums them from `SAVES` on. Kept
    by the datacard's identity (its hash walks every weapon, and the same few are asked at every
    moment), and worked out once for each datacard's content (each operative has its own copy)."""
    known = _FIGURES.get(id(datacard))
    if known is not None and known[0] is datacard:
        return known[1]
    made = _figures(datacard)
    if len(_FIGURES) > 4096:
        _FIGURES.clear()
    _FIGURES[id(datacard)] = (datacard, made)
    return made


@lru_cache(maxsize=1024)
def _figures(datacard: Datacard) -> tuple[int, ...]:
    """`figures` worked out, once for each datacard's content."""
    if not datacard.weapons:
        return (datacard.save, *(0 for _ in SAVES_READ))
    by_weapon = [expected_damages(w, weapon_profile(w.rules), w.hit, SAVES_READ, 0, False, False) for w in datacard.weapons]
    return (datacard.save, *(round(MILLI * sum(damages) / len(by_weapon)) for damages in zip(*by_weapon)))


def bodies(state: GameState, fielded_as: Bodies | None = None) -> Bodies:
    """Each player's operatives summed (`Bodies`); `fielded_as`: the sums of a moment with the
    same operatives in the killzone, whose saves and firepower stand."""
    return summed_over(state.players, state.scan(), fielded_as)


def summed_over(players: Iterable[str], operatives: Iterable[OperativeState], fielded_as: Bodies | None = None) -> Bodies:
    """These operatives summed by player (`Bodies`; a player named by none of them: all 0);
    `fielded_as`: their saves and firepower are these sums' (the same operatives in the killzone)."""
    counts: Bodies = {name: [0] * (FIREPOWER + 5) for name in players}
    fielded: dict[str, list[tuple[int, ...]]] = {name: [] for name in counts}
    op: OperativeState
    for op in operatives:
        c = counts.get(op.player)
        if c is None:
            continue
        card = op.datacard
        most = card.wounds
        c[1] += 1
        c[3] += most
        status = op.status
        if status == "escaped":
            c[4] += 1
        elif status != "incapacitated" and op.set_up:
            wounds = op.wounds
            c[0] += 1
            c[2] += wounds
            c[5] += 2 * wounds < most  # injured (pg 47): in the killzone, so not incapacitated
            if fielded_as is None:
                fielded[op.player].append(figures(card))
    if fielded_as is not None:
        for name, c in counts.items():
            c[SAVES:] = fielded_as[name][SAVES:]
        return counts
    for name, cards in fielded.items():
        if cards:
            counts[name][SAVES:] = map(sum, zip(*cards))
    return counts


def bodies_beside(state: GameState, known: dict[str, OperativeState], summed: Bodies) -> Bodies:
    """`bodies(state)` from `summed`, the sum of the operatives `known`, for a state that holds
    them but for a few: `state` and `known` both hold a `Checkpoint`'s operatives, the last
    taken of either (`state` a trial restored from it, or the state it was taken of; `known`
    the checkpoint's, or the state it was taken of). Only the operatives the rules looked up
    since (`Operatives.looked_up`) that are not the very same objects are summed again.
    `known` must not have changed since they were `summed`."""
    mine = state.operatives
    if not isinstance(mine, Operatives) or len(mine) != len(known) or state.players.keys() != summed.keys():
        return bodies(state)
    looked_up = mine.looked_up() | known.looked_up() if isinstance(known, Operatives) else mine.looked_up()
    changed = []
    for op_id in looked_up:
        was = dict.get(known, op_id)  # read, not looked up: not copied
        if was is None:  # an operative the checkpoint did not hold
            return bodies(state)
        op = dict.__getitem__(mine, op_id)
        if op is not was:
            changed.append((op, was))
    if not changed:
        return summed
    now, then = [a for a, _ in changed], [b for _, b in changed]
    fielded_as = summed if all(a.in_killzone == b.in_killzone for a, b in changed) else None  # none came or went: saves and firepower stand
    gained, lost = summed_over(summed, now, fielded_as), summed_over(summed, then, fielded_as)
    return {name: [x + more - less for x, more, less in zip(c, gained[name], lost[name])] for name, c in summed.items()}


def sides(state: GameState, ruleset: Ruleset, summed: Bodies, positions: dict[str, Positions] | None = None) -> dict[str, Side]:
    """Each player's figures at `state` (only what a spectator is shown), their operatives
    `summed`, and where they stand (`positions`, when the features read it)."""
    players = state.players
    caps, total_cap = ruleset.vp_caps(state) if players else ({}, 0)
    ready = state.count(PLAYER_STATUS)
    crit_op = state.crit_op
    secure = crit_op == "Secure"
    held = dict.fromkeys(players, 0)
    for m in state.markers.values():
        for who in {m.secured_by if secure else None, m.controlled_by if m.transmitting else None, m.placed_by if m.sabotaged else None}:
            if who in held:
                held[who] += 1
    first = state.initiative
    counts = list(held.values())
    top = max(counts, default=0)
    most = top > 0 and counts.count(top) == 1  # one player holds the most markers
    grades = [p.kill_grade for p in players.values()]
    best = max(grades, default=0)
    graded_best = grades.count(best) == 1  # one player's kill grade is above every other's
    starting = sum([c[1] for c in summed.values()])
    loot = crit_op == "Loot"
    out = {}
    for name, p in players.items():
        c = summed[name]
        vp = p.vp
        room = {o: max(0, cap - vp.get(o, 0)) for o, cap in caps.items()}
        total = p.total_vp
        grade = p.kill_grade
        out[name] = Side(
            vp=vp,
            total_vp=total,
            cp=p.cp,
            initiative=first == name,
            operatives=c[0],
            starting=c[1],
            wounds=c[2],
            starting_wounds=c[3],
            to_activate=ready.get((name, "ready"), 0),
            escaped=c[4],
            injured=c[5],
            eliminations=p.eliminations_this_tp,
            firepower=c[FIREPOWER + 2] / MILLI,
            kill_grade=grade,
            enemies_incapacitated=p.enemies_incapacitated,
            starting_enemies=starting - c[1],
            markers=held[name],
            most_markers=most and held[name] == top,
            top_kill_grade=graded_best and grade == best,
            loot_left=max(0, LOOT_VP_PER_TP - p.loot_vp_this_tp) if loot else 0,
            crit_op=crit_op,
            tac_op_revealed=p.tac_op_revealed,
            room=room,
            total_room=max(0, min(total_cap - total, sum(room.values()))) if caps else 0,
            board=positions[name] if positions else NOWHERE,
            name=name,
            summed=summed,
        )
    return out


def kill_pace(name: str, summed: Bodies) -> float:
    """Kill grades one attack of each of a player's operatives in the killzone is worth (their
    `Bodies` among `summed`): against each enemy, their firepower against its mean save (between
    the whole saves), over its mean wounds left an operative, times 5 grades over its starting
    operatives as the kill grade table reads them (its grades a kill on average, pg 84; ruling 1
    outside it); the mean over the enemies with operatives left."""
    mine = summed[name]
    total, enemies = 0.0, 0
    for enemy, c in summed.items():
        if enemy == name or not c[0] or not c[2]:
            continue
        save = min(6.0, max(2.0, c[SAVES] / c[0]))
        low = int(save)
        share = save - low
        power = mine[FIREPOWER + low - 2] * (1.0 - share) + (mine[FIREPOWER + low - 1] * share if share else 0.0)
        total += power * c[0] / c[2] * grades_a_kill(c[1]) / MILLI
        enemies += 1
    return total / enemies if enemies else 0.0


@cache
def grades_a_kill(starting_enemies: int) -> float:
    """Kill grades a kill is worth on average: 5 over the kill grade table's row (`kill_pace`)."""
    return MAX_KILL_GRADE / rulings.kill_grade_row(starting_enemies)[0]


NOWHERE = Positions()
"""A player's board features when none is read (no feature asks, or no positions)."""


def to_next_grade(starting_enemies: int, incapacitated: int, grade: int) -> int:
    """Enemy operatives still to incapacitate for the next kill grade (pg 84; 0 at the last)."""
    if grade >= MAX_KILL_GRADE or starting_enemies == 0:
        return 0
    row, _ = rulings.kill_grade_row(starting_enemies)
    return max(0, KILL_GRADE_TABLE[row][grade] - incapacitated)


SPARES_BODIES = frozenset(
    {
        "ActivationEnded",
        "TurningPointStarted",
        "TurningPointEnded",
        "InitiativeDecided",
        "RolledOff",
        "StrategicGambitUsed",
        "FirefightPloyUsed",
        "MarkerSecured",
        "MarkerLooted",
        "TransmissionInitiated",
        "ObjectivesControlled",
        "TacOpRevealed",
        "TacOpScored",
        "MissionVPScored",
        "PrimaryOpRevealed",
    }
)
"""The events (by name: a ruleset's own events live in its package) that change no operative's
wounds and take none in or out of the killzone (they may ready or expend one): after one, the
operatives summed before stand, unless the counts of operatives incapacitated, escaped or set up
say otherwise."""


class Reader:
    """Reads a ruleset's games: the features it names, worked out at any moment."""

    def __init__(self, ruleset: Ruleset, features: tuple[str, ...] | list[str] | None = None):
        self.ruleset = ruleset
        self.features = tuple(features) if features is not None else features_of(ruleset)
        self._read: dict[str | None, list[Feature | None]] = {}
        """The features' readers in games of each crit op (`read_in`)."""
        self._last: tuple[GameState, int, list[int], Bodies] | None = None
        """The state last read, its seq then, how many of its operatives were out or set up, and them summed."""
        self.reads_board = any(f.partition("@")[0] in BOARD_FEATURES for f in self.features)
        self._positions: tuple[tuple, dict[str, Positions]] | None = None
        """Where the operatives stood when last read, and the board features there (they change only when one moves)."""

    def moment(
        self, state: GameState, after: Event | None = None, *, trial_of: GameState | None = None, since: dict[str, OperativeState] | None = None
    ) -> Moment:
        """The game at `state` as the model reads it (`after`: the event that led to it from the
        state last read, whose operatives need not be summed again if it `SPARES_BODIES`;
        `since`: the operatives of a `Checkpoint` of `state` taken just before `after`, only
        `NEUTRAL` events having come between the state last read and it; `trial_of`: the state
        last read, not changed since, of which `state` is a trial. With either, only the
        operatives that changed are summed again, `bodies_beside`)."""
        summed = self._summed(state, after, trial_of, since)
        by_player = sides(state, self.ruleset, summed, self.positions(state) if self.reads_board and state.layout is not None else None)
        each = list(by_player.values())
        left = battle_left(state, self.ruleset, sum([s.to_activate for s in each]), sum([s.operatives for s in each]))
        return Moment(state.seq, state.turning_point, left, list(by_player), relative(self.read_in(state.crit_op), each))

    def read_in(self, crit_op: str | None) -> list[Feature | None]:
        """The features' readers in a game of `crit_op`: None for one of another crit op
        (`NAME@CRITOP`), 0 at every moment of the game."""
        known = self._read.get(crit_op)
        if known is None:
            known = self._read[crit_op] = [
                None if at and other != crit_op else feature(plain) for plain, at, other in (f.partition("@") for f in self.features)
            ]
        return known

    def _summed(self, state: GameState, after: Event | None, trial_of: GameState | None, since: dict[str, OperativeState] | None) -> Bodies:
        """The operatives of `state` summed, again only as far as they changed since the state last read (`moment`)."""
        last = self._last
        if trial_of is not None and last is not None and last[0] is trial_of and last[1] == trial_of.seq:
            return bodies_beside(state, trial_of.operatives, last[3])
        counted, placed = state.count(PLAYER_STATUS), state.count(PLAYER_SET_UP)
        out = [counted.get((p, s), 0) for p in state.players for s in ("incapacitated", "escaped", "selected")]
        out += [placed.get((p, True), 0) for p in state.players]
        fielded = last is not None and last[0] is state and last[2] == out  # no operative came or went
        if fielded and type(after).__name__ in SPARES_BODIES:
            summed = last[3]
        elif since is not None and last is not None and last[0] is state:
            summed = bodies_beside(state, since, last[3])
        else:
            summed = bodies(state, last[3] if fielded else None)
        if after is not None:  # a state walked through event by event (not a trial's)
            self._last = (state, state.seq, out, summed)
        return summed

    def positions(self, state: GameState) -> dict[str, Positions]:
        """The board features at `state`, worked out again only when an operative has moved, come or gone."""
        key = positions_key(state)
        if self._positions is None or self._positions[0] != key:
            self._positions = (key, board_figures(state))
        return self._positions[1]


def relative(read: Sequence[Feature | None], by_player: list[Side]) -> list[list[float]]:
    """Each player's features (`read` of their side; None: 0) less the mean of their opponents';
    for two players each the other's turned round, to the last digit."""
    n = len(by_player)
    if n == 2:
        first, second = by_player
        mine = [f(first) - f(second) if f is not None else 0.0 for f in read]
        return [mine, [-x for x in mine]]
    if n < 2:
        return [[0.0] * len(read) for _ in by_player]
    own = [[f(side) if f is not None else 0.0 for f in read] for side in by_player]
    totals = list(map(sum, zip(*own)))
    others = n - 1
    return [[x - (t - x) / others for x, t in zip(row, totals)] for row in own]


def reader_for(state: GameState) -> Reader:
    """The reader of a game's ruleset (its own features)."""
    if state.ruleset not in RULESETS:
        raise KtlogError(f"ruleset {state.ruleset!r} is not installed, so its games cannot be read for the win probability")
    return Reader(RULESETS[state.ruleset])


def states(records: Sequence[tuple[int, Event]]) -> Iterator[tuple[int, Event, GameState]]:
    """The game's events that count (undone ones left out, corrections applied), each with the
    state after it: one state, changed in place (copy it to keep it)."""
    state = GameState()
    for seq, event in corrected(effective(list(records))):
        apply_in_place(state, event, seq)
        yield seq, event, state


NEUTRAL = frozenset(
    {"OperativeActivated", "CounteractStarted", "GambitPassed", "AplModified", "Repositioned", "Dashed", "FellBack", "Charged", "NormalMoved", "Passed"}
)
"""The events (by name, as `SPARES_BODIES`) that change nothing the model reads (an activation
begun, a move, a pass): no moment."""


def moves_the_board(event: Event) -> bool:
    """Whether the model reads the game again after `event`: not after a note, an undo or a
    `NEUTRAL` event (the moment before stands)."""
    return not event.meta and type(event).__name__ not in NEUTRAL


def in_battle(state: GameState) -> bool:
    """Whether the model reads this moment: the players are all there and the set-up is done
    (before, everyone is level and nothing is known), or the battle is over."""
    return state.phase != "setup" and len(state.players) >= 2

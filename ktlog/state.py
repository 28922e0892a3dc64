"""The state of one game at one moment, as the reducer derives it from the event log.

States are msgspec structs so that a snapshot is one `encode` and a copy one round trip.
The reducer never changes a state it was given; it works on a copy (see `reducer.apply`).
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator
from operator import attrgetter
from typing import Any, Literal

import msgspec

from .board.layout import Layout
from .events import Datacard, Equipment, Order, Ploy

Phase = Literal["setup", "strategy", "firefight", "between", "over"]
"""between: a turning point has ended and the next has not started; over: the battle is over."""
Status = Literal["selected", "ready", "expended", "incapacitated", "escaped"]
Op = Literal["kill", "crit"]
CPKind = Literal["income", "ploy", "gambit", "reroll", "adjustment"]
AttackKind = Literal["shoot", "fight"]
AttackMode = Literal["dice", "quick"]


class S(msgspec.Struct, kw_only=True, omit_defaults=True, gc=False):
    """Base of the state structs (mutable, but only ever mutated on a private copy). A state is
    a tree (no struct refers back to one holding it), so its structs are left out of Python's
    cyclic garbage collector (`gc=False`): a big team's state is hundreds of structs, which
    every collection would otherwise walk (issue 26)."""


class AplChange(S):
    delta: int
    reason: str
    started: bool = False
    """True once an activation of the operative has begun since the change: it ends with it."""


OUT_OF_KILLZONE = ("incapacitated", "escaped")
"""The statuses of an operative no longer in the killzone (Joint Ops 03: escaped)."""


class OperativeState(S):
    id: str
    player: str
    datacard: Datacard
    wounds: int
    order: Order = "conceal"
    status: Status = "selected"
    set_up: bool = False
    carrying: str | None = None
    engaged_with: list[str] = []
    """Enemy operatives within control range, as Charge and Fall Back have left them."""
    apl_changes: list[AplChange] = []
    weapon_uses: dict[str, int] = {}
    counteracted_tp: int = 0
    incapacitated_by: str | None = None
    on_guard: bool = False
    """Gone on guard with the Guard action (Gallowdark, pg 70), until it performs an action, an
    enemy ends an action within its control range and its player does not interrupt that
    activation, or the next turning point starts."""
    x: float | None = None
    y: float | None = None
    z: float | None = None
    """Where its base's centre stands, in a game with a layout (None: not set up, or no positions)."""

    @property
    def injured(self) -> bool:
        """Fewer than half its starting wounds remaining (pg 47)."""
        return 2 * self.wounds < self.datacard.wounds and not self.incapacitated

    @property
    def wounded(self) -> bool:
        return self.wounds < self.datacard.wounds

    @property
    def incapacitated(self) -> bool:
        return self.status == "incapacitated"

    @property
    def in_killzone(self) -> bool:
        """Set up, and neither incapacitated nor escaped (Joint Ops 03)."""
        return self.set_up and self.status not in OUT_OF_KILLZONE

    @property
    def apl(self) -> int:
        """APL with its changes, never more than 1 above or below the datacard (pg 48)."""
        if not self.apl_changes:
            return self.datacard.apl
        change = sum(c.delta for c in self.apl_changes)
        return self.datacard.apl + max(-1, min(1, change))

    @property
    def move(self) -> int:
        """Move in inches: 2" less when injured, but a change never takes it below 4" (pg 47-48)."""
        base = self.datacard.move
        return max(base - 2, min(base, 4)) if self.injured else base


class PlayerState(S):
    name: str
    kill_team: str
    faction: str | None = None
    cp: int = 0
    vp: dict[str, int] = {}
    kill_grade: int = 0
    enemies_incapacitated: int = 0
    drop_zone: str | None = None
    equipment: list[str] | None = None
    used_this_tp: list[str] = []
    """Ploys and gambits used this turning point (each once, Command Re-roll excepted, pg 54)."""
    loot_vp_this_tp: int = 0
    npo: bool = False
    """The non-player operatives' side (Joint Ops)."""
    eliminations_this_tp: int = 0
    """Multiplayer elimination op: enemies this player's operatives incapacitated this TP (pg 102)."""
    archetypes: list[str] = []
    """The kill team's archetypes (Approved Ops tac ops are chosen from them)."""
    tac_op: str | None = None
    tac_op_archetype: str | None = None
    tac_op_revealed: bool = False
    scouting: str | None = None
    scouting_revealed: bool = False
    scouting_used: str | None = None
    """What the Equip or Ploy scouting option was spent on (each once)."""
    primary_op: str | None = None
    primary_op_revealed: bool = False
    ploys: list[Ploy] = []
    """The kill team's ploys, as its roster gave them when the player joined."""
    equipment_options: list[Equipment] = []
    """The kill team's equipment options, as its roster gave them (`equipment`: those selected)."""
    resources: dict[str, int] = {}
    """The kill team's resources by name, and their current count."""

    @property
    def total_vp(self) -> int:
        return sum(self.vp.values())


class MarkerState(S):
    id: str
    placed_by: str
    secured_by: str | None = None
    looted_tp: int = 0
    transmitting: bool = False
    sabotaged: bool = False
    carried_by: str | None = None
    controlled_by: str | None = None
    """As last recorded by ObjectivesControlled."""


class Activation(S):
    """The activation (or counteract) under way."""

    operative: str
    counteract: bool = False
    ap_spent: int = 0
    actions: list[str] = []
    moved: bool = False
    used_heavy: bool = False
    heavy_only: str | None = None
    interrupted_by: list[str] = []
    """Players who interrupted this activation with an operative on guard (once each, pg 70)."""
    near_guards: list[str] = []
    """Enemy operatives on guard an action of this operative ended within control range of."""
    cannot_retaliate: list[str] = []
    """Operatives that made a point-blank shot during this activation: they cannot retaliate
    until it ends (pg 70)."""


class VPScored(S):
    seq: int
    turning_point: int
    player: str
    op: str
    vp: int
    reason: str


class CPChanged(S):
    seq: int
    turning_point: int
    player: str
    delta: int
    kind: CPKind
    source: str


class AttackRecord(S):
    """One attack sequence as the rules resolved it (one per shooting target, two per fight)."""

    seq: int
    turning_point: int
    kind: AttackKind
    retaliation: bool
    mode: AttackMode
    player: str
    operative: str
    weapon: str
    target_player: str
    target: str
    attack_dice: int = 0
    """Attack dice rolled (not counting those retained by Accurate)."""
    hit: int = 0
    """The Hit stat as modified (injured, assists)."""
    crit_on: int = 6
    """The lowest result that is critical (Lethal x+), when it succeeds at all."""
    rolled_successes: int = 0
    rolled_criticals: int = 0
    """What the attack dice showed, before weapon rules and obscuring."""
    normal_hits: int = 0
    critical_hits: int = 0
    """What was retained, after weapon rules and obscuring."""
    defence_dice: int = 0
    """Defence dice rolled (not counting a cover save)."""
    save: int = 0
    rolled_saves: int = 0
    rolled_critical_saves: int = 0
    """What the defence dice showed."""
    normal_saves: int = 0
    critical_saves: int = 0
    """The saves the defender had, the cover save included."""
    damage: int = 0
    expected_damage: float | None = None
    """The average damage of such dice (shooting with dice only), for the luck index."""
    incapacitated: bool = False


class Incapacitation(S):
    seq: int
    turning_point: int
    player: str
    operative: str
    by_player: str | None
    by_operative: str | None
    source: str


class RuleWarning(S):
    seq: int
    rule: str
    message: str
    reason: str


class Note(S):
    seq: int
    target: int
    text: str


class Dispute(S):
    """A dispute of the event at `target`, raised at `seq` by a seat (None: the table seat)."""

    seq: int
    target: int
    reason: str
    raised_by: str | None = None
    outcome: str | None = None
    """None while it is open; then "accepted" or "withdrawn"."""


class Report(S):
    """The latest result reported for a game (`ResultReported`), and who stands behind it."""

    seq: int
    vp: dict[str, int]
    vp_by_op: dict[str, dict[str, int]] = {}
    reported_by: list[str] = []
    """Who reported or confirmed these very figures: players, and `table` for the table seat."""


class TurningPointRecord(S):
    """Who had initiative in a turning point (and when it was decided)."""

    seq: int
    turning_point: int
    initiative: str


class Result(S):
    winner: str | None
    """The winner, or None for a draw or a shared win."""
    draw: bool
    """Several players share the most VP (two players: a draw)."""
    ended_by: Literal["battle", "concession", "report"]
    conceded_by: str | None = None
    seq: int = 0
    """The event that ended the battle."""
    winners: list[str] = []
    """Every player sharing the win (the winner alone, or the tied leaders)."""


LOGS: dict[str, type[S]] = {
    "vp_log": VPScored,
    "cp_log": CPChanged,
    "attacks": AttackRecord,
    "incapacitations": Incapacitation,
    "turning_points": TurningPointRecord,
    "warnings": RuleWarning,
    "notes": Note,
}
"""The state's logs: fields the rules only append to (never change an entry in place), each
with its entry struct; every entry carries the seq of the event that added it."""
UNREAD_LOGS = tuple(name for name in LOGS if name != "turning_points")
"""The logs the rules never read back (`turning_points` they do: who had initiative when), so a
trial copy of a state may leave them out."""


class GameState(S):
    seq: int = 0
    ruleset: str = ""
    killzone: str = ""
    date: str = ""
    labels: dict[str, str] = {}
    simulated: bool = False
    """Played by `ktlog simulate` (GameCreated.simulated): kept out of the statistics unless asked."""
    layout: Layout | None = None
    """The killzone's board and terrain in a game that records positions (GameCreated.layout)."""
    players: dict[str, PlayerState] = {}
    operatives: dict[str, OperativeState] = {}
    markers: dict[str, MarkerState] = {}
    phase: Phase = "setup"
    turning_point: int = 0
    setup_initiative: str | None = None
    initiative: str | None = None
    order: list[str] = []
    """Player order: who acts first, second ... (the initiative player first; pg 37, pg 99)."""
    activations_in_a_row: int = 0
    """KT21: consecutive activations by the same player (at most two, Balance Dataslate Q1 2023)."""
    group_left: int = 0
    """KT21 group activation: operatives of the active group still to activate."""
    group_type: str | None = None
    """KT21 group activation: the operative type (datacard name) the active group is of."""
    turning_points: list[TurningPointRecord] = []
    decider: str | None = None
    """Who decides initiative after the latest roll-off (None: nobody yet, or a re-roll is due)."""
    rolloff: str | None = None
    """The purpose of the roll-off awaiting its decision."""
    order_ties: list[list[str]] = []
    """Multiplayer Ops player order being established (pg 99): the players in rank order, grouped
    where still tied; empty once the order is established."""
    crit_op: str | None = None
    cp_setup_given: bool = False
    gambit_turn: str | None = None
    passes_in_a_row: int = 0
    next_player: str | None = None
    """Whose turn it is to activate (or counteract) in the Firefight phase."""
    activation: Activation | None = None
    control_recorded_tp: int = 0
    result: Result | None = None
    vp_log: list[VPScored] = []
    cp_log: list[CPChanged] = []
    attacks: list[AttackRecord] = []
    incapacitations: list[Incapacitation] = []
    warnings: list[RuleWarning] = []
    notes: list[Note] = []
    disputes: list[Dispute] = []
    """Every dispute raised (`EventDisputed`), open or closed."""
    report: Report | None = None
    """The result reported for the game (`ResultReported`), if any."""

    # --- convenient views -------------------------------------------------------------------

    def initiative_in(self, turning_point: int) -> str | None:
        for record in self.turning_points:
            if record.turning_point == turning_point:
                return record.initiative
        return None

    @property
    def open_disputes(self) -> list[Dispute]:
        """The disputes not yet closed: while there is one, the result is provisional."""
        return [d for d in self.disputes if d.outcome is None]

    def opponent(self, player: str) -> str:
        """The other player of a two-player game."""
        return next(p for p in self.players if p != player)

    def next_in_order(self, player: str) -> str:
        """The player after `player` in player order (round again after the last)."""
        order = self.order or list(self.players)
        return order[(order.index(player) + 1) % len(order)]

    def scan(self) -> Iterable[OperativeState]:
        """Every operative, to read only: not copied from the checkpoints that share them
        (`Operatives`), so a rule that changes an operative looks it up instead."""
        return dict.values(self.operatives)

    def enemies_of(self, player: str) -> list[OperativeState]:
        """The other players' operatives in the killzone, to read only (`scan`: not copied; a
        simulator asks at every action)."""
        return [o for o in self.scan() if o.player != player and o.set_up and o.status not in OUT_OF_KILLZONE]

    def peek(self, op_id: str) -> OperativeState:
        """An operative, to read only (`scan`: not copied)."""
        return dict.__getitem__(self.operatives, op_id)

    def operatives_of(self, player: str) -> list[OperativeState]:
        return [o for o in self.operatives.values() if o.player == player]

    def ready_operatives(self, player: str) -> list[OperativeState]:
        """The player's ready operatives, to read only (`scan`: not copied; a rollout asks at every activation)."""
        return [o for o in self.scan() if o.player == player and o.status == "ready"]

    def has_ready(self, player: str) -> bool:
        """Whether the player has a ready operative (pg 38): from the kept count (this runs at
        every activation, and a kill team may be hundreds strong)."""
        return self.count(PLAYER_STATUS).get((player, "ready"), 0) > 0

    def any_ready(self) -> bool:
        """Whether any operative is ready, from the kept count (`has_ready`)."""
        return any(n for (_, status), n in self.count(PLAYER_STATUS).items() if status == "ready")

    def count(self, by: Callable[[OperativeState], Hashable]) -> dict[Any, int]:
        """The operatives counted by `by` (`PLAYER_STATUS`, `PLAYER_SET_UP`), a value counted by
        none missing or 0 (read them with `.get(value, 0)`): counted once, then
        kept on the state's `Operatives` and kept true by `change` and `add`, the only ways the
        rules add an operative or change what is counted (issue 26: an event of a team of hundreds
        costs no count of the team). Operatives held as a plain dict become the state's own
        `Operatives` here."""
        ops = self.operatives
        if not isinstance(ops, Operatives):
            self.operatives = ops = Operatives(ops, owned=True)
        counted = ops.counts.get(by)
        if counted is None:
            counted = ops.counts[by] = dict(Counter(map(by, self.scan())))
        return counted

    def change(self, op: OperativeState, *, status: Status | None = None, set_up: bool | None = None) -> None:
        """Change an operative of this state (one the rules looked up) and the counts kept of them."""
        kept = self.operatives.counts.items() if isinstance(self.operatives, Operatives) else ()
        for by, counted in kept:
            counted[by(op)] -= 1
        if status is not None:
            op.status = status
        if set_up is not None:
            op.set_up = set_up
        for by, counted in kept:
            value = by(op)
            counted[value] = counted.get(value, 0) + 1

    def add(self, op: OperativeState) -> None:
        """Add an operative to the state and to the counts kept of them."""
        self.operatives[op.id] = op
        if isinstance(self.operatives, Operatives):
            for by, counted in self.operatives.counts.items():
                value = by(op)
                counted[value] = counted.get(value, 0) + 1

    def due_to_activate(self) -> str | None:
        """The player who activates next: the one whose turn it is, or, when they have no ready
        operatives (they may only counteract or pass), the next in player order who has (pg 38);
        None when nobody has a ready operative."""
        player = self.next_player
        if player is None:
            return None
        for _ in self.players:
            if self.has_ready(player):
                return player
            player = self.next_in_order(player)
        return None

    def starting_operatives(self, player: str) -> int:
        """How many operatives the player's kill team has, whatever their status (the kill op's grade row, pg 84)."""
        return sum(n for (who, _), n in self.count(PLAYER_STATUS).items() if who == player)


PLAYER_STATUS: Callable[[OperativeState], tuple[str, str]] = attrgetter("player", "status")
PLAYER_SET_UP: Callable[[OperativeState], tuple[str, bool]] = attrgetter("player", "set_up")


class Operatives(dict[str, OperativeState]):
    """A state's operatives, shared with the `Checkpoint`s taken of the state: the first time
    the rules look an operative up after a checkpoint (`[id]`, `get`, `values`, `items`), it is
    copied and the copy takes its place (`own` holds those copied since the last checkpoint),
    so the rules only ever change an operative no checkpoint holds. A checkpoint then costs
    no copy of every operative, only of those an event looks up (issue 26). To read every
    operative without copying them, `GameState.scan()`."""

    __slots__ = ("own", "counts")

    def __init__(self, operatives: dict[str, OperativeState] | None = None, *, owned: bool = False):
        """`owned`: the operatives are this state's alone (a plain dict the rules changed in
        place), so none is copied before a change."""
        super().__init__(operatives or {})
        self.own: set[str] = set(self) if owned else set()
        self.counts: dict[Callable[[OperativeState], Hashable], dict[Any, int]] = {}
        """The counts of the operatives kept (`GameState.count`), by what they are counted by:
        none in a new `Operatives`, those of the state a `Checkpoint` restores."""

    def __getitem__(self, op_id: str) -> OperativeState:
        op = dict.__getitem__(self, op_id)
        if op_id in self.own:
            return op
        op = _copy_operative(op)
        dict.__setitem__(self, op_id, op)
        self.own.add(op_id)
        return op

    def __setitem__(self, op_id: str, op: OperativeState) -> None:
        dict.__setitem__(self, op_id, op)
        self.own.add(op_id)

    def get(self, op_id: str, default: OperativeState | None = None) -> OperativeState | None:  # type: ignore[override]
        if op_id in self.own:  # copied already (the rules look the same few up again and again)
            return dict.__getitem__(self, op_id)
        return self[op_id] if op_id in self else default

    def values(self) -> list[OperativeState]:  # type: ignore[override]
        return [self[op_id] for op_id in self]

    def items(self) -> list[tuple[str, OperativeState]]:  # type: ignore[override]
        return [(op_id, self[op_id]) for op_id in self]

    def __reduce__(self) -> tuple[type[Operatives], tuple[dict[str, OperativeState]]]:
        """Pickled and deep-copied as the operatives they are now."""
        return Operatives, (dict.copy(self),)

    def looked_up(self) -> set[str]:
        """The operatives looked up (so copied) or added since the last checkpoint: the only
        ones that may not be the checkpoint's (all of them, if none was taken)."""
        return self.own

    def share(self) -> dict[str, OperativeState]:
        """The operatives as they are now, for a checkpoint: from here on each is copied before
        the rules change it."""
        self.own.clear()
        return dict.copy(self)


def _copy_operative(op: OperativeState) -> OperativeState:
    """A copy of an operative that shares nothing the rules change in place (its datacard is
    frozen, so shared)."""
    return msgspec.structs.replace(
        op,
        engaged_with=list(op.engaged_with),
        apl_changes=[msgspec.structs.replace(change) for change in op.apl_changes],
        weapon_uses=dict(op.weapon_uses),
    )


class Checkpoint:
    """A state kept to go back to (the state before an event an undo may void, a trial's
    start), whose cost grows with neither the game nor the teams: the operatives are shared
    with the state until the rules look one up (`Operatives`), the logs the rules only append
    to (`UNREAD_LOGS`) are kept as each list and its length (the entries before that length
    are never changed), and the rest, a few players and markers, is encoded."""

    __slots__ = ("counts", "lean", "operatives", "logs")

    def __init__(self, state: GameState, *, own_logs: bool = False):
        """Keep `state`; `own_logs`: its logs' lists copied (their entries shared), for a state
        handed on to a caller who may change its lists."""
        if not isinstance(state.operatives, Operatives):
            state.operatives = Operatives(state.operatives)
        self.operatives = state.operatives.share()
        self.counts = {by: counted.copy() for by, counted in state.operatives.counts.items()}
        self.logs = {name: (list(entries) if own_logs else entries, len(entries)) for name in UNREAD_LOGS for entries in [getattr(state, name)]}
        self.lean = _encoder.encode(msgspec.structs.replace(state, operatives={}, **{name: [] for name in UNREAD_LOGS}))

    def restore(self, logs: bool = True) -> GameState:
        """A new state as the one kept was (`logs` False: its `UNREAD_LOGS` empty, so they hold
        only what is applied to it next)."""
        new = _decoder.decode(self.lean)
        new.operatives = Operatives(self.operatives)
        new.operatives.counts = {by: counted.copy() for by, counted in self.counts.items()}
        if logs:
            for name, (entries, length) in self.logs.items():
                setattr(new, name, entries[:length])
        return new

    def trials(self, first: GameState) -> Iterator[GameState]:
        """States to try a move on, one each: `first` (a restore not yet changed), then a new
        restore each time (`logs` False)."""
        yield first
        while True:
            yield self.restore(logs=False)


def copy_state(state: GameState) -> GameState:
    """A deep copy (frozen datacards included) by one msgpack round trip."""
    return _decoder.decode(_encoder.encode(state))


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(GameState)


_STUB = Datacard(name="", apl=1, move=1, save=6, wounds=1)
"""What a stored state holds in place of each datacard (`_Stored.cards` holds them)."""

LOG_CHUNK = 1000
"""A stored state keeps its logs' entries (`UNREAD_LOGS`) apart from the rest, in chunks of
the entries added by this many seqs, each compressed on its own: the chunks of a game's
snapshots are the same bytes up to the last, so a reader who decoded one keeps it
(`decode_state`'s `known`) and a seek late in a long game decodes only the last (issue 26)."""
INFLATED_LIMIT = 64 * 2**20
"""Bytes at most a stored state, and all the chunks of its logs together, unpack to (a state of a very long
game is a few hundred KB): a forged one cannot make a reader allocate without bound."""


class _Stored(msgspec.Struct, array_like=True):
    """A state as `encode_state` encodes it: each distinct datacard once (`cards`), each
    operative's as its place there (`card_of`, in the order of `state.operatives`), the
    state with `_STUB` for every datacard and, since schema 22, its `UNREAD_LOGS` empty and
    their entries in `log_chunks` (`LogChunk`s, each compressed). A team of many operatives
    of few datacards encodes and decodes about as fast as its operatives' own fields."""

    cards: list[Datacard]
    card_of: list[int]
    state: GameState
    log_chunks: list[bytes] = []


LogChunk = msgspec.defstruct("LogChunk", [(name, list[LOGS[name]], []) for name in UNREAD_LOGS], array_like=True)  # type: ignore[valid-type]
"""The entries of each of the `UNREAD_LOGS` added by one LOG_CHUNK of seqs, in their order."""

_stored_decoder = msgspec.msgpack.Decoder(_Stored)
_chunk_decoder = msgspec.msgpack.Decoder(LogChunk)


def inflate(packed: bytes, limit: int | None = None) -> bytes:
    """The bytes `zlib.compress` packed; ValueError if they are not zlib's or unpack to more than
    `limit` bytes (default: INFLATED_LIMIT)."""
    limit = INFLATED_LIMIT if limit is None else limit
    try:
        inflater = zlib.decompressobj()
        blob = inflater.decompress(packed, max(limit, 1))
    except zlib.error as exc:
        raise ValueError(f"not packed by zlib ({exc})") from exc
    if inflater.unconsumed_tail or not inflater.eof or len(blob) > limit:
        raise ValueError("packed bytes cut short or larger than INFLATED_LIMIT")
    return blob


def _log_chunks(state: GameState) -> list[bytes]:
    """The state's `UNREAD_LOGS` entries cut into `LogChunk`s by the seqs that added them (each
    log in its order), each encoded and compressed."""
    chunks: dict[int, dict[str, list[S]]] = {}
    for name in UNREAD_LOGS:
        chunk = 0
        for entry in getattr(state, name):
            chunk = max(chunk, entry.seq // LOG_CHUNK)  # type: ignore[attr-defined]  # every log entry carries its seq
            chunks.setdefault(chunk, {}).setdefault(name, []).append(entry)
    return [zlib.compress(_encoder.encode(LogChunk(**chunks[chunk])), 1) for chunk in sorted(chunks)]


def encode_state(state: GameState) -> bytes:
    """A state as a snapshot stores it (`decode_state` reads it back). Its datacards are looked
    up by identity first, by value only once an object: a state shares its operatives' datacards."""
    cards: list[Datacard] = []
    by_value: dict[Datacard, int] = {}
    by_id: dict[int, int] = {}
    card_of = []
    operatives = {}
    for op_id, op in dict.items(state.operatives):  # as they are: no copy of an `Operatives`' operative
        index = by_id.get(id(op.datacard))
        if index is None:
            index = by_id[id(op.datacard)] = by_value.setdefault(op.datacard, len(cards))
            if index == len(cards):
                cards.append(op.datacard)
        card_of.append(index)
        operatives[op_id] = msgspec.structs.replace(op, datacard=_STUB)
    lean = msgspec.structs.replace(state, operatives=operatives, **{name: [] for name in UNREAD_LOGS})
    return _encoder.encode(_Stored(cards, card_of, lean, _log_chunks(state)))


def decode_state(data: bytes, known: dict[bytes, Any] | None = None) -> GameState:
    """A state `encode_state` encoded, one encoded before schema 22 (its logs in the state) or
    before schema 21 (a msgpack map: each datacard in full). `known`: the `LogChunk`s decoded
    before, by their bytes; each chunk but the last (the one a later snapshot may extend) is
    added to it."""
    if not (data[:1] and 0x90 <= data[0] <= 0x9F):  # not a msgpack array: the state whole
        return _decoder.decode(data)
    stored = _stored_decoder.decode(data)
    state = stored.state
    if len(stored.card_of) != len(state.operatives) or (stored.card_of and not 0 <= min(stored.card_of) <= max(stored.card_of) < len(stored.cards)):
        raise msgspec.ValidationError("a stored state names one of its datacards for each of its operatives")
    for op, index in zip(state.operatives.values(), stored.card_of, strict=True):
        op.datacard = stored.cards[index]
    if stored.log_chunks and any(getattr(state, name) for name in UNREAD_LOGS):
        raise msgspec.ValidationError("a stored state keeps its logs' entries in its log chunks only")
    budget = INFLATED_LIMIT  # for all the chunks of a state together: many forged ones cannot add up past it
    for i, packed in enumerate(stored.log_chunks):
        chunk = known.get(packed) if known is not None else None
        if chunk is None:
            raw = inflate(packed, budget)
            budget -= len(raw)
            chunk = _chunk_decoder.decode(raw)
            if known is not None and i < len(stored.log_chunks) - 1:
                known[packed] = chunk
        for name in UNREAD_LOGS:
            getattr(state, name).extend(getattr(chunk, name))
    return state


def game_status(state: GameState) -> str:
    """How a game is listed: "setup", "in progress" or "finished"."""
    return {"setup": "setup", "over": "finished"}.get(state.phase, "in progress")

"""Write a whole game in a few lines of Python: for tests, sample games and the simulator.

    g = GameBuilder(killzone="volkus", date="2026-10-04")
    g.player("Alice", load_roster("kasrkin.toml"))
    g.player("Bob", load_roster("legionaries.toml"))
    g.setup(rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1)
    g.turning_point(1, rolls={"Alice": 3, "Bob": 4}, initiative="Bob")
    g.activate("sergeant", "engage", reposition(), shoot("Bolt pistol", "gunner", "6542", "531"))

Every event is checked by the reducer as it is added, so a mistake fails at its line.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..board.layout import Layout
from ..envelopes import GENESIS, event_uuid, seal
from ..errors import RuleViolation
from ..events import (
    ActivationEnded,
    Annotation,
    Charged,
    CounteractStarted,
    CritOpRolled,
    Dashed,
    Dice,
    DropZoneChosen,
    Envelope,
    EquipmentSelected,
    Event,
    EventVoided,
    FellBack,
    FightAction,
    Fought,
    GambitPassed,
    GameConceded,
    GameCreated,
    InitiativeDecided,
    KillzoneAction,
    KillzoneActionPerformed,
    MarkerLooted,
    MarkerPickedUp,
    MarkerPlaced,
    MarkerSecured,
    ObjectiveMarkerSetUp,
    ObjectivesControlled,
    OperativeActivated,
    OperativeSetUp,
    Order,
    Repositioned,
    RolledOff,
    RollOffPurpose,
    ShootingAttack,
    Shot,
    StrategicGambitUsed,
    TransmissionInitiated,
    TurningPointEnded,
    TurningPointStarted,
    UniqueActionPerformed,
)
from ..files.rosters import Roster, joining
from ..reducer import apply_in_place, effective, fold, resume
from ..rules.setup import next_to_set_up
from ..state import GameState, decode_state, encode_state
from ..text.notation import parse_dice, parse_rerolls, parse_steps

ActionMaker = Callable[[str], Event]
"""An action (or another event of the operative's) as a function of the operative performing it."""


class GameBuilder:
    """Collects a game's events, applying each to `state` as it comes.

    >>> from ktlog.data import SAMPLE_ROSTERS
    >>> from ktlog.files.rosters import load_roster
    >>> g = GameBuilder(killzone="volkus", date="2026-10-04")
    >>> g = g.player("Alice", load_roster(SAMPLE_ROSTERS / "kasrkin.toml"), ["sergeant", "gunner-plasma"])
    >>> g = g.player("Bob", load_roster(SAMPLE_ROSTERS / "legionaries.toml"), ["legionary-1", "heavy-gunner"])
    >>> g = g.setup(rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1)
    >>> g = g.turning_point(1, rolls={"Alice": 3, "Bob": 4}, initiative="Bob")
    >>> g = g.activate("legionary-1", "engage", reposition(), shoot("Boltgun", "sergeant", "6542", "531"))
    >>> g.state.operatives["sergeant"].wounds, g.state.next_player
    (1, 'Alice')
    >>> g.activate("sergeant", "engage", fall_back())
    Traceback (most recent call last):
    ktlog.errors.RuleViolation: operative 'sergeant' has no enemy within its control range to Fall Back from (pg 40). If a kill team rule allows it, record the event again with an override and its reason
    """

    SNAPSHOT_EVERY = 50

    def __init__(self, ruleset: str = "kt24-preliminary", killzone: str = "volkus", date: str = "2026-11-21", **labels: str | Layout):
        self.events: list[Event] = []
        self.state = fold([])
        self._snapshots: dict[int, bytes] = {}
        self._voids: list[tuple[int, int]] = []
        self.add(GameCreated(ruleset=ruleset, killzone=killzone, date=date, **labels))  # type: ignore[arg-type]  # labels: GameCreated's str fields (LABELS) and its layout

    # --- any event --------------------------------------------------------------------------

    def add(self, *events: Event) -> GameBuilder:
        """Apply and keep events; an illegal one raises and is not kept."""
        for event in events:
            seq = len(self.events) + 1
            if isinstance(event, EventVoided):
                self.state = self._rewound(seq, event)
                self._voids.append((seq, event.target))
            else:
                try:
                    apply_in_place(self.state, event, seq)
                except RuleViolation:
                    self.state = self._rewound(seq - 1)  # the failed event may have half-changed it
                    raise
            self.events.append(event)
            if seq % self.SNAPSHOT_EVERY == 0:
                self._snapshots[seq] = encode_state(self.state)
        return self

    def _rewound(self, seq: int, void: EventVoided | None = None) -> GameState:
        """The state after seq (with an undo at seq not yet kept), from the builder's snapshots."""
        records = list(enumerate(self.events, 1))[: seq - (1 if void else 0)] + ([(seq, void)] if void else [])
        voids = self._voids + ([(seq, void.target)] if void else [])
        return resume(seq, self._snapshots, voids, lambda s: decode_state(self._snapshots[s]), lambda start: records[start:])[0]

    @property
    def seq(self) -> int:
        return len(self.events)

    def undo(self) -> GameBuilder:
        latest = effective(list(enumerate(self.events, 1)))[-1][0]
        return self.add(EventVoided(target=latest))

    def annotate(self, text: str, target: int | None = None) -> GameBuilder:
        return self.add(Annotation(target=target or self.seq, text=text))

    # --- set-up -----------------------------------------------------------------------------

    def player(self, name: str, roster: Roster, select: list[str] | None = None) -> GameBuilder:
        """A player joins with the operatives `select`ed from `roster` (all of them when None),
        as the recorder adds them (`rosters.joining`)."""
        return self.add(*joining(name, roster, select, set(self.state.operatives)))

    def setup(
        self,
        rolloff: dict[str, int] | list[dict[str, int]],
        initiative: str,
        crit_op: int | None = None,
        markers: Iterable[tuple[str, str]] | None = None,
        drop_zones: dict[str, str] | None = None,
        equipment: dict[str, Iterable[str]] | None = None,
        before_set_up: Iterable[Event] = (),
        positions: Mapping[str, tuple[float, float]] | None = None,
    ) -> GameBuilder:
        """The whole set-up in the rulebook's order; operatives are set up in alternating thirds.
        `before_set_up`: events between equipment and operatives (Approved Ops: tac ops);
        `positions`: where each operative is set up, in a game with a layout."""
        for rolls in rolloff if isinstance(rolloff, list) else [rolloff]:
            self.add(RolledOff(purpose="setup", rolls=rolls))
        self.add(InitiativeDecided(player=initiative))
        players = list(self.state.players)
        other = next(p for p in players if p != initiative)
        for marker, placer in markers or [("centre", other), (f"{initiative}-marker", initiative), (f"{other}-marker", other)]:
            self.add(ObjectiveMarkerSetUp(marker=marker, player=placer))
        if crit_op is not None:  # KT21 and Joint Ops roll no crit op
            self.add(CritOpRolled(roll=crit_op))
        zones = drop_zones or {initiative: "A", other: "B"}
        for p in (initiative, other):
            self.add(DropZoneChosen(player=p, drop_zone=zones[p]))
        return self.equipment_and_operatives(equipment, before_set_up, positions)

    def setup_multiplayer(
        self,
        rolloff: dict[str, int] | list[dict[str, int]],
        crit_op: int,
        markers: Iterable[tuple[str, str]] | int | None = None,
        drop_zones: dict[str, str] | None = None,
        equipment: dict[str, Iterable[str]] | None = None,
    ) -> GameBuilder:
        """Multiplayer Ops set-up (pg 99, pg 110): roll-offs until player order is established,
        objective markers (by default one each, "<player>-marker"; a number: "marker-1" ...,
        set up round player order: ruling 9), the crit op, drop zones in player order (by
        default A, B, C, D), equipment, operatives."""
        self.player_order("setup", rolloff)
        order = self.state.order
        if markers is None:
            markers = [(f"{p}-marker", p) for p in order]
        elif isinstance(markers, int):
            markers = [(f"marker-{i + 1}", order[i % len(order)]) for i in range(markers)]
        for marker, placer in markers:
            self.add(ObjectiveMarkerSetUp(marker=marker, player=placer))
        self.add(CritOpRolled(roll=crit_op))
        for i, p in enumerate(order):
            self.add(DropZoneChosen(player=p, drop_zone=(drop_zones or {}).get(p, "ABCD"[i])))
        return self.equipment_and_operatives(equipment)

    def equipment_and_operatives(
        self, equipment: dict[str, Iterable[str]] | None, before_set_up: Iterable[Event] = (), positions: Mapping[str, tuple[float, float]] | None = None
    ) -> GameBuilder:
        """Equipment selected by each player, then the operatives set up in thirds (pg 110)."""
        for p in self.state.players:
            self.add(EquipmentSelected(player=p, equipment=tuple((equipment or {}).get(p, ()))))
        self.add(*before_set_up)
        while (who := next_to_set_up(self.state)) is not None:
            first = next(o for o in self.state.operatives_of(who) if not o.set_up)
            x, y = (positions or {}).get(first.id, (None, None))
            self.add(OperativeSetUp(operative=first.id, x=x, y=y))
        return self

    def player_order(self, purpose: RollOffPurpose, rolls: dict[str, int] | list[dict[str, int]]) -> GameBuilder:
        """Multiplayer Ops player order (pg 99): every player's D6, then a roll-off of each group
        still tied, with only their rolls."""
        for round_ in rolls if isinstance(rolls, list) else [rolls]:
            self.add(RolledOff(purpose=purpose, rolls=round_))
        return self

    # --- battle -----------------------------------------------------------------------------

    def turning_point(
        self, tp: int, rolls: dict[str, int] | None, initiative: str, gambits: Iterable[tuple[str, str, int] | tuple[str, str] | Event] = ()
    ) -> GameBuilder:
        """Start a turning point: roll-off (None: no roll-off, as in Approved Ops TP1), initiative,
        gambits in turn (a strategy ploy as (player, ploy[, cp]; without cp its roster CP, else 1CP), or any event with a `player` that
        takes a gambit turn), then passes until all pass."""
        self.add(TurningPointStarted(turning_point=tp))
        if rolls is not None:
            self.add(RolledOff(purpose="initiative", rolls=rolls))
        self.add(InitiativeDecided(player=initiative))
        return self.gambit_step(gambits)

    def turning_point_order(
        self, tp: int, rolls: dict[str, int] | list[dict[str, int]], gambits: Iterable[tuple[str, str, int] | tuple[str, str] | Event] = ()
    ) -> GameBuilder:
        """Multiplayer Ops: start a turning point, establish player order by roll-offs (pg 99),
        then the gambit step as in `turning_point`."""
        self.add(TurningPointStarted(turning_point=tp))
        return self.player_order("initiative", rolls).gambit_step(gambits)

    def _pass_gambit(self) -> None:
        turn = self.state.gambit_turn
        assert turn is not None, "in the strategy phase a gambit turn is always someone's"
        self.add(GambitPassed(player=turn))

    def gambit_step(self, gambits: Iterable[tuple[str, str, int] | tuple[str, str] | Event] = ()) -> GameBuilder:
        """Gambits in turn (a strategy ploy as (player, ploy[, cp]; without cp its roster CP, else 1CP), or any event with a `player`
        that takes a gambit turn), passing for the players in between, then passes until all pass."""
        for gambit in gambits:
            if isinstance(gambit, Event):
                player, event = gambit.player, gambit  # type: ignore[attr-defined]  # an event that takes a gambit turn names its player
            else:
                player, name, *cp = gambit
                event = StrategicGambitUsed(player=player, gambit=name, cp=cp[0] if cp else None)
            while self.state.gambit_turn != player:
                self._pass_gambit()
            self.add(event)
        while self.state.phase == "strategy":
            self._pass_gambit()
        return self

    def activate(self, operative: str, order: Order, *actions: ActionMaker, end: bool = True) -> GameBuilder:
        self.add(OperativeActivated(operative=operative, order=order))
        for make in actions:
            self.add(make(operative))
        if end and self.state.activation is not None:
            self.add(ActivationEnded(operative=operative))
        return self

    def counteract(self, operative: str, action: ActionMaker | None = None) -> GameBuilder:
        self.add(CounteractStarted(operative=operative))
        if action is None:
            return self.add(ActivationEnded(operative=operative))
        return self.add(action(operative))

    def perform(self, operative: str, *actions: ActionMaker) -> GameBuilder:
        """Actions outside an activation: KT21's Overwatch, say (`shoot(..., as_=OverwatchFired)`)."""
        for make in actions:
            self.add(make(operative))
        return self

    def end_turning_point(self, control: dict[str, str | None] | None = None) -> GameBuilder:
        if control is not None:
            self.add(ObjectivesControlled(control=control))
        return self.add(TurningPointEnded(turning_point=self.state.turning_point))

    def concede(self, player: str) -> GameBuilder:
        return self.add(GameConceded(player=player))

    # --- sealing, for files -----------------------------------------------------------------

    def sealed(self, game_id: str, start: str) -> list[tuple[Envelope, bytes]]:
        """Envelopes with ids and times derived from the game id and seq, so files are reproducible."""
        return seal_reproducibly(game_id, start, self.events)


def seal_reproducibly(game_id: str, start: str, events: Sequence[Event], first: int = 1, prev: str = GENESIS) -> list[tuple[Envelope, bytes]]:
    """Events sealed from seq `first` on (chained to `prev`), each recorded 20 s after `start`
    times its seq and its id made from the game id and seq: the same events give the same file."""
    t0 = dt.datetime.fromisoformat(start)
    out = []
    for seq, event in enumerate(events, first):
        recorded_at = (t0 + dt.timedelta(seconds=20 * seq)).isoformat()
        event_id = event_uuid(recorded_at, uuid.uuid5(uuid.UUID(game_id), str(seq)).int)
        envelope, payload = seal(game_id, seq, event, prev, event_id=event_id, recorded_at=recorded_at)
        out.append((envelope, payload))
        prev = envelope.hash
    return out


# --- actions: each returns a function of the operative performing it -------------------------


def _dice(text: str | None, rerolls: str = "") -> Dice | None:
    if text is None:
        return None
    return Dice(rolls=parse_dice(text), rerolls=parse_rerolls(rerolls))


def act(kind: Callable[..., Event], **kw) -> ActionMaker:
    """An action (or an event of an operative's) of any type, a ruleset's own among them:
    act(NormalMoved), act(MarkerSabotaged, marker="north")."""
    return lambda op: kind(operative=op, **kw)


def reposition(**kw) -> ActionMaker:
    return lambda op: Repositioned(operative=op, **kw)


def dash(**kw) -> ActionMaker:
    return lambda op: Dashed(operative=op, **kw)


def fall_back(**kw) -> ActionMaker:
    return lambda op: FellBack(operative=op, **kw)


def charge(*targets: str, **kw) -> ActionMaker:
    return lambda op: Charged(operative=op, targets=targets, **kw)


def pick_up(marker: str, **kw) -> ActionMaker:
    return lambda op: MarkerPickedUp(operative=op, marker=marker, **kw)


def place(marker: str, **kw) -> ActionMaker:
    return lambda op: MarkerPlaced(operative=op, marker=marker, **kw)


def secure(marker: str, **kw) -> ActionMaker:
    return lambda op: MarkerSecured(operative=op, marker=marker, **kw)


def loot(marker: str, **kw) -> ActionMaker:
    return lambda op: MarkerLooted(operative=op, marker=marker, **kw)


def transmit(marker: str, **kw) -> ActionMaker:
    return lambda op: TransmissionInitiated(operative=op, marker=marker, **kw)


def unique(name: str, **kw) -> ActionMaker:
    return lambda op: UniqueActionPerformed(operative=op, action=name, **kw)


def killzone_action(name: KillzoneAction, **kw) -> ActionMaker:
    return lambda op: KillzoneActionPerformed(operative=op, action=name, **kw)


def attack(
    target: str,
    dice: str | None = None,
    saves: str | None = None,
    *,
    rerolls: str = "",
    save_rerolls: str = "",
    cover: bool = False,
    obscured: bool = False,
    invulnerable: bool = False,
    accurate: int = 0,
    damage: int | None = None,
    splashed: tuple[str, ...] = (),
) -> ShootingAttack:
    """One shooting sequence: dice as digits ('6542'), or `damage` alone in quick mode;
    `splashed`: the other operatives an x" Devastating weapon reaches."""
    return ShootingAttack(
        target=target,
        attack_dice=_dice(dice, rerolls),
        defence_dice=_dice(saves, save_rerolls) if dice is not None else None,
        accurate=accurate,
        cover=cover,
        obscured=obscured,
        invulnerable=invulnerable,
        damage=damage,
        splashed=splashed,
    )


def shoot(
    weapon: str,
    target: str | ShootingAttack,
    dice: str | None = None,
    saves: str | None = None,
    *,
    hot: int | None = None,
    extra: Iterable[ShootingAttack] = (),
    override: str | None = None,
    guard: bool = False,
    as_: Callable[..., Shot] = Shot,
    **attack_kw,
) -> ActionMaker:
    """A Shoot action (or another shooting action, `as_`: KT21's OverwatchFired); its sequence
    made when the action is (a simulator makes many it does not choose)."""

    def made(op: str) -> Shot:
        first = target if isinstance(target, ShootingAttack) else attack(target, dice, saves, **attack_kw)
        return as_(operative=op, weapon=weapon, attacks=(first, *extra), hot_roll=hot, override=override, guard=guard)

    return made


def fight(
    weapon: str,
    target: str,
    target_weapon: str | None = None,
    dice: str | None = None,
    target_dice: str | None = None,
    *,
    steps: str | None = None,
    rerolls: str = "",
    target_rerolls: str = "",
    assists: int = 0,
    target_assists: int = 0,
    damage: int | None = None,
    damage_taken: int | None = None,
    action: FightAction = "Fight",
    override: str | None = None,
    guard: bool = False,
) -> ActionMaker:
    return lambda op: Fought(
        operative=op,
        target=target,
        weapon=weapon,
        target_weapon=target_weapon,
        attack_dice=_dice(dice, rerolls),
        target_dice=_dice(target_dice, target_rerolls),
        steps=parse_steps(steps) if steps is not None else None,
        assists=assists,
        target_assists=target_assists,
        damage=damage,
        damage_taken=damage_taken,
        action=action,
        override=override,
        guard=guard,
    )

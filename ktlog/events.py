"""The event vocabulary: one frozen, typed class per fact a person at the table sees happen.

Every event is a msgspec `Struct` tagged with its class name (the `type` key in JSON), carries
a schema `version`, and may carry an `override`: the reason a rule check is set aside
(precedence, pg 55). Payloads hold facts only; scores, CP income, kill grades, injured state
and results are derived by the reducer.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Union, cast, get_args

import msgspec
from typing_extensions import TypeVar

from .board.layout import Layout
from .errors import InvalidEvent, RegistryError
from .wording import fields_from_wording

Order = Literal["engage", "conceal"]
RerollSource = Literal["balanced", "ceaseless", "relentless", "command", "other"]
WeaponKind = Literal["ranged", "melee"]
RollOffPurpose = Literal["setup", "initiative"]
FightAction = Literal["Fight", "Door Fight", "Hatchway Fight"]
KillzoneAction = Literal["Operate Hatch", "Guard"]
DamageSource = Literal["mine", "devastating", "hot", "other"]


if TYPE_CHECKING:
    from typing import dataclass_transform

    @dataclass_transform(frozen_default=True, field_specifiers=(msgspec.field,))
    class FrozenStruct(msgspec.Struct, frozen=True):
        """What a type checker is told of `Event` and `Part`: msgspec passes `frozen=True` on to every
        subclass, but msgspec's stub declares `Struct` with a dataclass_transform whose default is
        not frozen, so mypy read each event class as a non-frozen dataclass inheriting from a frozen
        one (66 false "[misc]" errors). This base says frozen is the default; at run time it is `Struct`."""

else:
    FrozenStruct = msgspec.Struct


class Event(FrozenStruct, frozen=True, kw_only=True, tag=True, forbid_unknown_fields=True, omit_defaults=True):
    """Base of every event. `override` is the reason a failed rule check is accepted anyway."""

    version: ClassVar[int] = 1
    meta: ClassVar[bool] = False
    """Meta events (undo, annotation) talk about other events rather than the game."""
    secret: ClassVar[bool] = False
    """A secret choice: a spectator does not see it until its reveal event."""
    shared: ClassVar[bool] = False
    """A step both players share (a roll-off, a turning point's start ...): either player's seat may
    record it (`ktlog serve --seats`); any other event is the decision of the player it names."""

    override: str | None = None
    seat: str | None = None
    """The seat that recorded the event: a player's name for that player's own seat (`ktlog serve
    --seats`), None for the table seat (the terminal or command line at the table, which may
    record for everyone, as every event before seats was). Inside the payload, so the hash chain
    and the signatures cover it, and left out when None, so older events keep their bytes."""


E = TypeVar("E", bound=Event, default=Event)
"""An event of any type: a correction's, an envelope's payload (`decodable` says which types)."""


class Part(FrozenStruct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Base of the value objects events are made of."""


# --- datacards -------------------------------------------------------------------------------


class Weapon(Part):
    name: str
    kind: WeaponKind
    atk: int
    hit: int
    normal_dmg: int
    crit_dmg: int
    rules: tuple[str, ...] = ()
    """Weapon rules as printed, e.g. "Lethal 5+", "Piercing 1", "Range 8\"" (pg 111); KT21
    special rules, e.g. "AP1", "Balanced"."""
    critical_rules: tuple[str, ...] = ()
    """KT21 critical hit rules (!), e.g. "MW3", "P1"."""
    one_in: int | None = None
    """Only 1 in this many of a player's operatives with this weapon on their datacard can have
    it (rounded down): the NPO special weapon, 1 in 3 (pg 89)."""


class Ploy(Part):
    """One of a kill team's ploys (pg 54) as its roster gives it: a strategy ploy is used as a
    STRATEGIC GAMBIT, a firefight ploy in the Firefight phase; `reminder` is the player's own words."""

    name: str
    kind: Literal["strategy", "firefight"]
    cp: int
    reminder: str | None = None


class Equipment(Part):
    """One of a kill team's equipment options (Equipment, pg 50), with the weapons it gives, if
    any: one option may give several (explosive grenades: frag and krak), and counts once among
    the four a player selects (pg 110)."""

    name: str
    reminder: str | None = None
    weapons: tuple[Weapon, ...] = ()
    """Weapons any of the player's operatives can use once the option is selected."""


class Resource(Part):
    """A named resource a kill team counts up and down during the battle (faith, say), and its
    value at the start of the battle."""

    name: str
    start: int = 0
    reminder: str | None = None


class UniqueAction(Part):
    name: str
    ap: int


class Datacard(Part):
    """A snapshot of an operative's datacard (pg 48), copied into the log when it is added."""

    name: str
    apl: int
    move: int
    save: int
    wounds: int
    weapons: tuple[Weapon, ...] = ()
    keywords: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    unique_actions: tuple[UniqueAction, ...] = ()
    base_mm: int | None = None
    group_activation: int = 1
    """KT21 GA: operatives of this type activated one after another as a group."""
    defence: int = 3
    """KT21 DF: defence dice (KT24 operatives always collect three)."""
    invulnerable_save: int | None = None
    """KT21 Invulnerable Save x+ (004): used instead of Save when the defender chooses, never
    modified and not affected by APx."""
    heavy: bool = False
    """A Heavy NPO (pg 89): reinforcements bring back one Heavy NPO or two that are not (pg 92, 94)."""
    double_action: tuple[str, ...] = ()
    """Actions this operative can perform twice during its activation, e.g. ("Shoot",): a datacard
    rule that takes precedence over the action restrictions (pg 39; the Heavy NPOs, pg 89)."""


# --- dice ------------------------------------------------------------------------------------


class Reroll(Part):
    """One re-rolled die: its place in `rolls` counting from 1, and the new result (pg 50: never twice)."""

    die: int
    result: int
    source: RerollSource


class Dice(Part):
    """Dice as rolled, then the re-rolls, in order."""

    rolls: tuple[int, ...]
    rerolls: tuple[Reroll, ...] = ()


class FightStep(Part):
    """One resolved fight die (pg 45): strike, or block one opposing success.

    The player resolving it is implied: attacker first, then alternating, and a player whose
    opponent has no dice left resolves the rest.
    """

    action: Literal["strike", "block"]
    die: Literal["critical", "normal"]
    blocks: Literal["critical", "normal"] | None = None


class ShootingAttack(Part):
    """One shooting sequence against one target (Blast and Torrent make several per action).

    With dice: the attack and defence dice and the conditions; the rules resolve the rest.
    Quick mode: `damage` only.
    """

    target: str
    attack_dice: Dice | None = None
    defence_dice: Dice | None = None
    accurate: int = 0
    """Attack dice retained as normal successes without rolling (Accurate x)."""
    cover: bool = False
    obscured: bool = False
    invulnerable: bool = False
    """The defender used the target's invulnerable save instead of its Save (KT21, 004)."""
    damage: int | None = None
    splashed: tuple[str, ...] = ()
    """The other operatives an x" Devastating weapon's retained criticals reach: visible to and
    within x of the target, friend or foe (pg 111). Left out when empty, so older events keep
    their bytes."""


# --- set-up ----------------------------------------------------------------------------------


class GameCreated(Event):
    """Version 2 added `dataslate`: the balance dataslate or errata the game is played under.
    `simulated`: played by `ktlog simulate`, not by people (the statistics leave it out unless
    asked); False is not written, so earlier events keep their bytes and hashes. `layout`: the
    killzone's board and terrain (docs/the-board.md), in a game that records its operatives'
    positions; None is not written, so a game without positions keeps its bytes."""

    version = 2
    ruleset: str
    killzone: str
    date: str
    dataslate: str | None = None
    mission: str | None = None
    league: str | None = None
    season: str | None = None
    round: str | None = None
    table: str | None = None
    simulated: bool = False
    layout: Layout | None = None


class PlayerJoined(Event):
    """Version 2 added `npo`: the non-player operatives' side of a Joint Ops game. Version 3 the
    kill team's own ploys, equipment options and resources, frozen from its roster so a later
    roster edit never changes a recorded game. Version 4: an equipment option's `weapons` (a
    list: one option may give several) instead of its one `weapon`."""

    version = 4
    player: str
    kill_team: str
    faction: str | None = None
    archetypes: tuple[str, ...] = ()
    npo: bool = False
    ploys: tuple[Ploy, ...] = ()
    equipment_options: tuple[Equipment, ...] = ()
    resources: tuple[Resource, ...] = ()


class OperativeAdded(Event):
    """An operative selected for the battle, with its datacard. Version 2 datacards may carry
    KT21's GA and DF and weapons' critical hit rules; version 3 the special rules ktlog applies
    as fields (heavy, double_action, a weapon's one_in) instead of reading them from the wording."""

    version = 3

    player: str
    operative: str
    datacard: Datacard


class RolledOff(Event):
    """A roll-off (pg 55). `purpose`: set-up initiative, or the turning point's initiative.
    In Multiplayer Ops it establishes player order instead (pg 99): the tied players roll
    again in a further RolledOff of the same purpose, with only their rolls."""

    shared = True
    purpose: RollOffPurpose
    rolls: dict[str, int]


class InitiativeDecided(Event):
    """The player who decides (the roll-off winner, or the tie rule) gives initiative to `player`."""

    player: str


class ObjectiveMarkerSetUp(Event):
    shared = True
    marker: str
    player: str


class CritOpRolled(Event):
    """The initiative player's D3 (pg 84): 1 Secure, 2 Loot, 3 Transmission."""

    shared = True
    roll: int


class DropZoneChosen(Event):
    player: str
    drop_zone: str


class EquipmentSelected(Event):
    """Version 2: checked against the set-up order (selected once the battle is set up, pg 110);
    version 1 events were not, and are read with an override saying so."""

    version = 2
    player: str
    equipment: tuple[str, ...] = ()


class OperativeSetUp(Event):
    """An operative set up (pg 110); in a game with a layout, where its base is placed (x, y, z:
    as `Moved`'s)."""

    operative: str
    x: float | None = None
    y: float | None = None
    z: float | None = None

    def __post_init__(self) -> None:
        _positions_as_floats(self)


def _positions_as_floats(event: Event) -> None:
    """A position given as whole numbers (x=12) is kept as the floats a log reads back (12.0),
    so the bytes hashed when it is recorded are those every reader encodes again."""
    for name in ("x", "y", "z"):
        value = getattr(event, name)
        if type(value) is int:
            msgspec.structs.force_setattr(event, name, float(value))


# --- strategy phase --------------------------------------------------------------------------


class TurningPointStarted(Event):
    shared = True
    turning_point: int


class StrategicGambitUsed(Event):
    """A STRATEGIC GAMBIT in the gambit step: usually a strategy ploy, costing `cp`. Without
    `cp`, a strategy ploy of the player's roster (PlayerJoined) costs its CP, anything else 1CP,
    so a log from before rosters had ploys means what it meant."""

    player: str
    gambit: str
    cp: int | None = None


class GambitPassed(Event):
    player: str


class FirefightPloyUsed(Event):
    """A firefight ploy other than Command Re-roll (those are recorded with the dice). Without
    `cp`, a firefight ploy of the player's roster costs its CP, anything else 1CP."""

    player: str
    ploy: str
    cp: int | None = None
    operative: str | None = None


class ResourceAdjusted(Event):
    """One of the kill team's resources (its roster names them) counted up or down by `delta`."""

    player: str
    resource: str
    delta: int
    reason: str = ""


class CommandPointsAdjusted(Event):
    """CP gained or lost by a rule outside the core book; the reason is kept."""

    player: str
    delta: int
    reason: str


# --- firefight phase -------------------------------------------------------------------------


class OperativeActivated(Event):
    operative: str
    order: Order


class ActivationEnded(Event):
    """The active operative is expended (or a counteract ends without its action)."""

    operative: str


class CounteractStarted(Event):
    """An expended Engage operative performs one 1AP action for free (pg 39)."""

    operative: str


class AplModified(Event):
    """An APL change until the end of the operative's next activation (e.g. a SUPPORT action)."""

    operative: str
    delta: int
    reason: str


class Action(Event, kw_only=True):
    """Base of the actions (pg 40-45). `ap` is given only when a rule changes the usual cost."""

    name: ClassVar[str]
    cost: ClassVar[int] = 1
    moves: ClassVar[bool] = False
    mission: ClassVar[bool] = False

    operative: str
    ap: int | None = None

    @property
    def counts_as(self) -> str:
        """The action's name for action restrictions (pg 39): Door Fight counts as Fight."""
        return self.name


class Moved(Action, kw_only=True):
    """An action that moves the operative (pg 40-41). In a game with a layout (docs/the-board.md),
    where it ends: its base's centre in inches from the board's left edge (x) and down from its
    top edge (y), and its level (z: a Vantage part's height on it; left out, the killzone floor);
    the rules check the distance and where it ends. Left out
    (a game without positions), nothing is written, so an event keeps its bytes and hash."""

    moves = True
    x: float | None = None
    y: float | None = None
    z: float | None = None

    def __post_init__(self) -> None:
        _positions_as_floats(self)


class Repositioned(Moved):
    name = "Reposition"
    moves = True


class Dashed(Moved):
    name = "Dash"
    moves = True


class FellBack(Moved):
    name = "Fall Back"
    cost = 2
    moves = True


class Charged(Moved):
    """`targets`: the enemy operatives it finished within control range of."""

    name = "Charge"
    moves = True
    targets: tuple[str, ...]


class MarkerPickedUp(Action):
    name = "Pick Up Marker"
    marker: str


class MarkerPlaced(Action):
    name = "Place Marker"
    marker: str


class Shot(Action):
    """The Shoot action (pg 42): one weapon, one or more sequences, one Hot roll if any.

    Version 2 added `guard`. Blast secondary targets are checked against the primary's cover and
    obscured since version 2 (pg 111): a version 1 shot that differs is read with an override
    saying so."""

    version = 2
    name = "Shoot"
    weapon: str
    attacks: tuple[ShootingAttack, ...]
    hot_roll: int | None = None
    guard: bool = False
    """Performed for free by an operative on guard, interrupting an enemy operative's activation
    after one of its actions (Guard, Killzone: Gallowdark, pg 70)."""


class Fought(Action, kw_only=True):
    """The Fight action (pg 44). Door Fight (Volkus) and Hatchway Fight (Gallowdark) count as Fight.

    With dice: both sides' attack dice, assists, and optionally the order of strikes and blocks.
    Quick mode: `damage` to the target and `damage_taken` by the active operative.

    Version 2 added `guard`. Assists are checked against control range since version 2 (pg 45):
    a version 1 fight with assists is read with an override saying so.
    """

    version = 2
    name = "Fight"
    action: FightAction = "Fight"
    target: str
    weapon: str
    target_weapon: str | None = None
    attack_dice: Dice | None = None
    target_dice: Dice | None = None
    assists: int = 0
    target_assists: int = 0
    steps: tuple[FightStep, ...] | None = None
    damage: int | None = None
    damage_taken: int | None = None
    guard: bool = False
    """Performed for free by an operative on guard, interrupting an enemy operative's activation
    (Guard, Killzone: Gallowdark, pg 70)."""


class MarkerSecured(Action):
    name = "Secure"
    mission = True
    marker: str


class MarkerLooted(Action):
    name = "Loot"
    mission = True
    marker: str


class TransmissionInitiated(Action):
    name = "Initiate Transmission"
    mission = True
    marker: str


class KillzoneActionPerformed(Action):
    """Operate Hatch or Guard (Gallowdark); Guard counts as Shoot for action restrictions."""

    name = "Killzone action"
    action: KillzoneAction

    @property
    def counts_as(self) -> str:
        return "Shoot" if self.action == "Guard" else self.action


class UniqueActionPerformed(Action):
    """A unique action from the operative's datacard, by name, at its printed cost."""

    name = "Unique action"
    action: str

    @property
    def counts_as(self) -> str:
        return self.action


class DamageInflicted(Event):
    """Damage from outside an attack sequence: a mine, a Devastating splash, a rule."""

    operative: str
    damage: int
    source: DamageSource
    by: str | None = None
    reason: str | None = None


class WoundsRegained(Event):
    """Lost wounds regained by a rule outside the core book (a medic's action, say), with the reason."""

    operative: str
    wounds: int
    reason: str


class ObjectivesControlled(Event):
    """Who controls each objective marker at the end of the turning point (None: nobody)."""

    shared = True
    control: dict[str, str | None]


class TurningPointEnded(Event):
    shared = True
    turning_point: int


class GameConceded(Event):
    player: str


# --- meta ------------------------------------------------------------------------------------


class EventVoided(Event):
    """Undo: voids the latest effective event, which must be `target`."""

    meta = True
    target: int


class EventCorrected(Event, Generic[E]):  # generic, so that `event` decodes as any type registered (`decodable`)
    """A correction: the event at seq `target` (a wrong die, target, damage ...) counts as
    `event` instead. The later events are checked again against the corrected history; with an
    override reason, those it makes illegal are kept with that reason. Undo takes it back."""

    meta = True
    target: int
    event: E


class Annotation(Event):
    """A comment on the event at seq `target`, like a PGN comment."""

    meta = True
    target: int
    text: str


class EventDisputed(Event):
    """A seat disputes the event at seq `target` (a wrong die, an operative that was not in
    range ...), saying why. While it is open the game's result is provisional and the game
    cannot be signed; `DisputeResolved` closes it."""

    meta = True
    target: int
    reason: str


class DisputeResolved(Event):
    """The dispute recorded at seq `dispute` is closed by the seat that raised it: `accepted`
    (the disputed event was corrected, and the correction is accepted) or `withdrawn`."""

    meta = True
    dispute: int
    outcome: Literal["accepted", "withdrawn"]


class ResultReported(Event):
    """A game's result as reported rather than recorded event by event (a tournament table's
    score: `ktlog tournament result`, a results file, a player's seat): each player's VP,
    optionally by op, and the players who confirmed it besides the seat that recorded it
    (`seat`; the table seat when None). A game whose battle was not recorded ends with it; the
    same figures reported again add their reporter as confirming. Beside a battle recorded event
    by event, the battle's result stands and a report that differs is flagged (`play.tournament`)."""

    meta = True
    vp: dict[str, int]
    vp_by_op: dict[str, dict[str, int]] = {}
    confirmed_by: tuple[str, ...] = ()


CORE_EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    PlayerJoined,
    OperativeAdded,
    RolledOff,
    InitiativeDecided,
    ObjectiveMarkerSetUp,
    CritOpRolled,
    DropZoneChosen,
    EquipmentSelected,
    OperativeSetUp,
    TurningPointStarted,
    StrategicGambitUsed,
    GambitPassed,
    FirefightPloyUsed,
    CommandPointsAdjusted,
    ResourceAdjusted,
    OperativeActivated,
    ActivationEnded,
    CounteractStarted,
    AplModified,
    Repositioned,
    Dashed,
    FellBack,
    Charged,
    MarkerPickedUp,
    MarkerPlaced,
    Shot,
    Fought,
    MarkerSecured,
    MarkerLooted,
    TransmissionInitiated,
    KillzoneActionPerformed,
    UniqueActionPerformed,
    DamageInflicted,
    WoundsRegained,
    ObjectivesControlled,
    TurningPointEnded,
    GameConceded,
    EventVoided,
    EventCorrected,
    Annotation,
    EventDisputed,
    DisputeResolved,
    ResultReported,
)
"""The core vocabulary: the events of every KT24 mission pack, and the meta events."""

EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in CORE_EVENTS}
"""Every event type known, by name (its tag in every log): the core's, then each ruleset's own as
its package registers them (`register_events`; the registry in ktlog.rulesets loads them all)."""


def register_events(*types: type[Event], upcasters: Mapping[tuple[str, int], Upcaster] | None = None) -> None:
    """Add a ruleset's own event types to the vocabulary, with the upcasters of their older
    versions ((type name, from version) -> function, as UPCASTERS): done once, when the module
    declaring them is imported, as rule handlers register. A type registered again is left as it
    is; another type of a name taken, a type that is not an event, or a version without its
    upcaster is a RegistryError naming it."""
    global _version
    for cls in types:
        if not (isinstance(cls, type) and issubclass(cls, Event)) or cls is Event:
            raise RegistryError(f"{cls!r} is not an event type: declare it as a subclass of ktlog.events.Event")
        name = cls.__name__
        known = EVENT_TYPES.get(name)
        if known is not None and known is not cls:
            raise RegistryError(
                f"two event types are called {name!r} ({known.__module__} and {cls.__module__}); a type's name is its tag in every log: rename one"
            )
        if cls.__struct_config__.tag != name:
            raise RegistryError(f"event type {name} is tagged {cls.__struct_config__.tag!r}: an event's tag is its class name (leave out tag=)")
    UPCASTERS.update(upcasters or {})
    for cls in types:
        missing = [v for v in range(1, cls.version) if (cls.__name__, v) not in UPCASTERS]
        if missing:
            raise RegistryError(f"event type {cls.__name__} is version {cls.version} with no upcaster from version {missing[0]}: give one (upcasters=)")
        if cls.__name__ not in EVENT_TYPES:
            EVENT_TYPES[cls.__name__] = cls
            _version += 1


_version = 0


def vocabulary_version() -> int:
    """How many event types were registered after the core's: a decoder made for one version
    decodes every type registered by then (a cache key for `decodable`'s decoders)."""
    return _version


def decoded_as(cls: type[Event]) -> Any:
    """The type msgspec makes an event of this type with: the class, or for a correction
    EventCorrected of `decodable`'s types (the bare class would make its event an Event)."""
    return get_args(decodable())[-1] if cls is EventCorrected else cls


def decodable() -> Any:
    """The tagged union msgspec decodes an event of any type registered by now with (a
    correction's event being of any type but a correction)."""
    return _union(_version)


@functools.cache
def _union(version: int) -> Any:
    return union_of(tuple(EVENT_TYPES.values()))


def union_of(types: tuple[type[Event], ...]) -> Any:
    """The tagged union msgspec decodes an event of one of `types` with (a correction's event being
    of any of them but a correction)."""
    plain = tuple(cls for cls in types if cls is not EventCorrected)
    union, corrected = cast(Any, Union), cast(Any, EventCorrected)  # subscripted with types made at run time
    return union[(*plain, corrected[union[plain]])]


def event_type(name: str) -> type[Event]:
    """The event class for a type name; accepts `OperativeActivated` or `operative_activated`."""
    if name in EVENT_TYPES:
        return EVENT_TYPES[name]
    folded = name.replace("_", "").replace("-", "").lower()
    for key, cls in EVENT_TYPES.items():
        if key.lower() == folded:
            return cls
    raise KeyError(name)


# --- envelope --------------------------------------------------------------------------------


class Envelope(msgspec.Struct, Generic[E], frozen=True, kw_only=True, forbid_unknown_fields=True):  # a line decodes as Envelope[decodable()]
    """A stored event: its place in the game's log and the tamper-evident hash chain."""

    game_id: str
    seq: int
    event_id: str
    version: int
    recorded_at: str
    payload: E
    prev_hash: str
    hash: str

    @property
    def type(self) -> str:
        return type(self.payload).__name__


# --- upcasting -------------------------------------------------------------------------------

Upcaster = Any  # Callable[[dict], dict]: one version step of one event type's payload


def _game_created_v1_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 1 had no dataslate field: those games named none (a version 1 payload that holds
    one was not written by ktlog, and is refused rather than silently losing it)."""
    if "dataslate" in payload:
        raise InvalidEvent("GameCreated version 1 has no dataslate field (it came with version 2); give the event version 2", "dataslate")
    return {**payload, "dataslate": None}


def unchanged(payload: dict[str, Any]) -> dict[str, Any]:
    """A version that only added fields with defaults: the old payload reads as it is."""
    return payload


UNCHECKED = "recorded before ktlog checked {rule}"
"""The override an older event is read with when a rule checked since may refuse it: the game
still folds, and the game's warnings say which rule it breaks, if it does."""


def _unchecked(payload: dict[str, Any], rule: str) -> dict[str, Any]:
    return payload if payload.get("override") else {**payload, "override": UNCHECKED.format(rule=rule)}


def _shot_v1_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """A further target without the first target's cover or obscured may be a Blast secondary
    target, checked since version 2 (pg 111)."""
    first, *more = payload.get("attacks") or [{}]
    if any(first.get(flag) and not other.get(flag) for other in more for flag in ("cover", "obscured")):
        return _unchecked(payload, "Blast secondary targets (pg 111)")
    return payload


def _fought_v1_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """Assists are checked against control range since version 2 (pg 45)."""
    if payload.get("assists") or payload.get("target_assists"):
        return _unchecked(payload, "fight assists (pg 45)")
    return payload


def _equipment_selected_v1_v2(payload: dict[str, Any]) -> dict[str, Any]:
    """Equipment is selected after the battle is set up since version 2 (pg 110)."""
    return _unchecked(payload, "the set-up order (pg 110)")


def _player_joined_v3_v4(payload: dict[str, Any]) -> dict[str, Any]:
    """An equipment option's one `weapon` became its list of `weapons`."""
    options = [_weapons_listed(o) for o in payload.get("equipment_options", ())]
    return {**payload, "equipment_options": options} if options else payload


def _weapons_listed(option: Any) -> Any:
    if not isinstance(option, dict) or "weapon" not in option:
        return option
    rest = {k: v for k, v in option.items() if k != "weapon"}
    return {**rest, "weapons": [option["weapon"]]} if option["weapon"] is not None else rest


def _operative_added_v2_v3(payload: dict[str, Any]) -> dict[str, Any]:
    """Version 2 datacards had their special rules read from the wording: the same wording is
    read into the fields once, so an older game keeps the rules it was recorded under."""
    return {**payload, "datacard": fields_from_wording(payload["datacard"])}


UPCASTERS: dict[tuple[str, int], Upcaster] = {
    ("GameCreated", 1): _game_created_v1_v2,
    ("PlayerJoined", 1): unchanged,
    ("PlayerJoined", 2): unchanged,
    ("PlayerJoined", 3): _player_joined_v3_v4,
    ("OperativeAdded", 1): unchanged,
    ("OperativeAdded", 2): _operative_added_v2_v3,
    ("Shot", 1): _shot_v1_v2,
    ("Fought", 1): _fought_v1_v2,
    ("EquipmentSelected", 1): _equipment_selected_v1_v2,
}
"""(type name, from version) -> function turning that payload dict into the next version's."""


def upcast(type_name: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """Bring an old payload up to the current version of its type, one small step at a time."""
    current = EVENT_TYPES[type_name].version
    while version < current:
        payload = UPCASTERS[(type_name, version)](payload)
        version += 1
    return payload

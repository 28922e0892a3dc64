"""The kill team's own ploys, equipment and resources, as its roster gave them when the player
joined (PlayerJoined freezes them into the log): ploys charged by name (pg 54), equipment
weapons used once selected (Equipment, pg 50), resources counted by events."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import Equipment, FirefightPloyUsed, Ploy, Resource, ResourceAdjusted, StrategicGambitUsed, Weapon
from ..state import GameState, OperativeState, PlayerState
from .context import Ctx, handles

MAX_PLOY_CP = 3
MAX_RESOURCE = 99
RESOURCE_RULE = "kill team resources"
"""A kill team's resources are its own rules, not the core book's: the refusals cite this."""
PLOY_CP = 1
"""A ploy or gambit the roster does not list costs 1CP unless the event says otherwise (pg 54)."""
COMMAND_REROLL = "Command Re-roll"
"""The core firefight ploy every kill team has (pg 54), recorded with the dice it re-rolls."""


def same(a: str, b: str) -> bool:
    """Names match whatever their case and spacing: the table types them as it reads them."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def check_team(ploys: Sequence[Ploy], equipment: Sequence[Equipment], resources: Sequence[Resource]) -> list[str]:
    """What is impossible about a kill team's ploys, equipment and resources, naming the field."""
    problems = []
    for table, names in (("ploys", [p.name for p in ploys]), ("equipment", [e.name for e in equipment]), ("resources", [r.name for r in resources])):
        for i, name in enumerate(names):
            if not name.strip():
                problems.append(f"{table}: a name is empty")
            elif any(same(name, other) for other in names[:i]):
                problems.append(f"{table}: two are named {name!r}; give each its own name")
    problems += [f"ploy {p.name!r}: cp {p.cp} is not 0 to {MAX_PLOY_CP}" for p in ploys if not 0 <= p.cp <= MAX_PLOY_CP]
    problems += [f"resource {r.name!r}: start {r.start} is not 0 to {MAX_RESOURCE}" for r in resources if not 0 <= r.start <= MAX_RESOURCE]
    problems += [f"equipment {e.name!r}: weapon {problem}" for e in equipment for w in e.weapons if (problem := weapon_problem(w))]
    problems += [
        f"equipment {e.name!r}: two weapons are named {w.name!r}"
        for e in equipment
        for i, w in enumerate(e.weapons)
        if any(same(w.name, o.name) for o in e.weapons[:i])
    ]
    return problems


def weapon_problem(w: Weapon) -> str | None:
    """What makes a weapon line impossible (pg 48), if anything."""
    if w.atk < 1 or not 2 <= w.hit <= 6 or w.normal_dmg < 0 or w.crit_dmg < 0:
        return f"Atk {w.atk}, Hit {w.hit}+, Dmg {w.normal_dmg}/{w.crit_dmg} is not a weapon profile"
    return None


# --- ploys -----------------------------------------------------------------------------------


def roster_ploy(player: PlayerState, name: str) -> Ploy | None:
    """The player's ploy of that name, if their roster lists it."""
    return next((p for p in player.ploys if same(p.name, name)), None)


def listed_cp(player: PlayerState, name: str) -> int:
    """What a ploy of that name costs the player without a `cp` of its own: its roster cost, else 1."""
    ploy = roster_ploy(player, name)
    return ploy.cp if ploy else PLOY_CP


def ploy_cost(ctx: Ctx, event: StrategicGambitUsed | FirefightPloyUsed) -> int:
    """The CP a gambit or ploy costs: the event's `cp`, else the roster's cost, else 1 (pg 54).
    A roster ploy used as the other kind, or at another cost, breaks a rule (a kill team rule
    may change a cost: override with it, precedence pg 55)."""
    kind, name = ("strategy", event.gambit) if isinstance(event, StrategicGambitUsed) else ("firefight", event.ploy)
    ploy = roster_ploy(ctx.player(event.player), name)
    if ploy is None:
        return PLOY_CP if event.cp is None else event.cp
    if ploy.kind != kind:
        used = "a STRATEGIC GAMBIT" if kind == "strategy" else "in the Firefight phase"
        ctx.broke(f"{ploy.name} is a {ploy.kind} ploy of {event.player}'s kill team and cannot be used {used}", "pg 37, pg 54")
    if event.cp is None or event.cp == ploy.cp or ctx.ruleset.free_ploy(ctx.state, event.player, name, event.cp):
        return ploy.cp if event.cp is None else event.cp
    ctx.broke(f"{ploy.name} costs {ploy.cp}CP on {event.player}'s roster, not {event.cp}CP (leave cp out to charge {ploy.cp}CP)", "pg 54")
    return event.cp


def unlisted(state: GameState, event: object) -> str | None:
    """A warning for a ploy, gambit or resource the player's roster does not list: recorded as
    free text (a ploy at 1CP unless cp says otherwise), as the table may still mean it."""
    match event:
        case StrategicGambitUsed(player=player, gambit=name) | FirefightPloyUsed(player=player, ploy=name):
            what = "strategic gambit" if isinstance(event, StrategicGambitUsed) else "firefight ploy"
            listed = [p.name for p in state.players[player].ploys] if player in state.players else []
            if not listed or roster_ploy(state.players[player], name) or same(name, COMMAND_REROLL):
                return None
            return f"{name!r} is not one of {player}'s ploys ({', '.join(listed)}): recorded as a {what} by that name"
    return None


# --- equipment -------------------------------------------------------------------------------


def selected(player: PlayerState, option: Equipment) -> bool:
    return any(same(option.name, name) for name in player.equipment or ())


def weapons_of(state: GameState, op: OperativeState) -> list[Weapon]:
    """The operative's weapons: its datacard's, then those of its player's selected equipment
    (any operative of the kill team can use them, Equipment pg 50)."""
    player = state.players.get(op.player)
    extra = [w for e in player.equipment_options if selected(player, e) for w in e.weapons] if player else []
    return [*op.datacard.weapons, *(w for w in extra if not any(same(w.name, d.name) for d in op.datacard.weapons))]


def equipment_weapon(ctx: Ctx, op: OperativeState, name: str) -> Weapon | None:
    """The weapon of one of the player's equipment options by its name; an option the player has
    not selected breaks the rule that equipment is selected before the battle (pg 50, pg 110)."""
    player = ctx.state.players[op.player]
    for option in player.equipment_options:
        for weapon in option.weapons:
            if same(weapon.name, name):
                if not selected(player, option):
                    chosen = ", ".join(player.equipment or ()) or "none"
                    ctx.broke(
                        f"{weapon.name} comes with the equipment option {option.name!r}, which {op.player} did not select (selected: {chosen})",
                        "Equipment, pg 50",
                    )
                return weapon
    return None


def limited_uses(state: GameState, op: OperativeState, weapon: Weapon) -> int:
    """How many times a Limited weapon was used: by this operative for a datacard weapon, by the
    whole kill team for an equipment weapon (its uses are the kill team's, 003 Equipment)."""
    if any(w.name == weapon.name for w in op.datacard.weapons):
        return op.weapon_uses.get(weapon.name, 0)
    return sum(o.weapon_uses.get(weapon.name, 0) for o in state.scan() if o.player == op.player)


# --- resources -------------------------------------------------------------------------------


@handles(ResourceAdjusted)
def resource_adjusted(ctx: Ctx, e: ResourceAdjusted) -> None:
    """A resource counted up or down: one the roster names, never below 0 (an override records
    what a kill team rule allows)."""
    player = ctx.player(e.player)
    if e.delta == 0:
        ctx.invalid("a resource counted by 0 does not change; give delta, e.g. delta=1 or delta=-1", "delta")
    if not e.resource.strip():
        ctx.invalid("the resource's name is empty; name one of the roster's resources", "resource")
    name = next((n for n in player.resources if same(n, e.resource)), None)
    if name is None:
        listed = ", ".join(player.resources) or "none"
        ctx.broke(f"{e.player}'s roster has no resource {e.resource!r} (its resources: {listed})", RESOURCE_RULE)
        name = " ".join(e.resource.split())
    have = player.resources.get(name, 0)
    if have + e.delta < 0:
        ctx.broke(f"{e.player} has {have} {name} and cannot spend {-e.delta}: a resource never goes below 0", RESOURCE_RULE)
    player.resources[name] = have + e.delta

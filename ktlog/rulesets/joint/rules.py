"""KT24 Joint Ops (core book pg 87-95): one players' side against non-player operatives (NPOs).

There are no VP: the mission's victory or defeat ends the battle the moment it happens, and there
is no turning point limit. The players run the NPOs by their behaviours (pg 88); ktlog records what
they did and checks what the sources make checkable:

- one players' side (solo or co-op: still one player, pg 87) and one NPO side (PlayerJoined.npo);
- the NPO budget of the mission: their combined Wounds stat (pg 90, 92, 94);
- the NPOs take initiative whenever they decide it (pg 87) and always pass in the gambit step
  (pg 88), except for reinforcements, their STRATEGIC GAMBIT in Sabotage and Escape (pg 92, 94);
- only 1 in 3 Trooper (Marksman) has the special weapon (pg 89); Heavy NPOs Fight or Shoot twice
  (the datacard fields one_in, heavy and double_action: never names or wording);
- the Sabotage action (pg 92) and escapes over the NPOs' killzone edge (pg 94).

Rulings (where the sources are silent):
- The mission is GameCreated.mission: breach, sabotage or escape, or the D3 result (1-3, pg 87).
- The objective markers are where the mission map puts them (the maps are not in the text): the
  players' side sets up as many as the map shows; Sabotage needs at least one.
- NPOs gain no CP: they use no ploys (pg 88-89 give them none, and they pass in the gambit step).
- When a tie lets the NPOs decide initiative (pg 37, pg 110), they take it, as when they win (pg 87).
- "1 in 3" Trooper (Marksman): at most a third of them, rounding down, use the special weapon;
  the ones that first shoot it are the ones carrying it. "Them" are the player's operatives with
  that weapon (one_in) on their datacard.
- "Half the NPOs": at least half of the NPOs selected. When fewer than two NPOs that are not Heavy
  are incapacitated (and no Heavy one), the one there is returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ... import events as ev
from ...rules.actions import begin_action, disengage, finish_action, not_engaged
from ...rules.battle import check_gambit_turn, end_activation
from ...rules.context import Ctx, handles
from ...state import GameState, OperativeState, Result
from ..kt24.rules import KT24_EVENTS, Kt24TwoPlayer
from .events import MarkerSabotaged, OperativeEscaped, ReinforcementsArrived


@dataclass(frozen=True)
class Mission:
    number: str
    name: str
    page: str
    npo_wounds: int
    """The NPOs' combined Wounds stat at most (it may be changed for difficulty, pg 87)."""
    reinforcements: bool = False
    sabotage: bool = False
    escape: bool = False

    @property
    def title(self) -> str:
        return f"{self.number} {self.name}"


MISSIONS = {
    "breach": Mission("01", "Breach", "pg 90", 90),
    "sabotage": Mission("02", "Sabotage", "pg 92", 90, reinforcements=True, sabotage=True),
    "escape": Mission("03", "Escape", "pg 94", 77, reinforcements=True, escape=True),
}
"""The three missions (pg 90-95); the D3 of pg 87 picks them in this order."""

REINFORCEMENTS = "Reinforcements"


def mission_of(label: str | None) -> Mission | None:
    """The mission a GameCreated.mission label names: its name, or its number / D3 result."""
    key = (label or "").strip().casefold()
    if key in MISSIONS:
        return MISSIONS[key]
    numbered = list(MISSIONS.values())
    return numbered[int(key) - 1] if key.isdigit() and 1 <= int(key) <= 3 else None


def mission(state: GameState) -> Mission:
    found = mission_of(state.labels.get("mission"))
    assert found is not None, "GameCreated checks the mission"
    return found


def npo_side(state: GameState) -> str | None:
    return next((n for n, p in state.players.items() if p.npo), None)


def players_side(state: GameState) -> str | None:
    return next((n for n, p in state.players.items() if not p.npo), None)


def is_heavy(op: OperativeState) -> bool:
    """A Heavy NPO (pg 89): its datacard's `heavy` field."""
    return op.datacard.heavy


def limited_weapon(op: OperativeState, name: str) -> ev.Weapon | None:
    """The operative's weapon of that name if only 1 in x can have it (`one_in`, pg 89)."""
    return next((w for w in op.datacard.weapons if w.one_in and w.name.casefold() == name.casefold()), None)


def carriers(state: GameState, op: OperativeState, weapon: ev.Weapon) -> tuple[int, list[str]]:
    """A weapon only 1 in x can have (pg 89): how many of the player's operatives have it on their
    datacard, and the ones carrying it (ruling: those that shot it)."""
    holders = {o.id for o in state.operatives_of(op.player) if weapon in o.datacard.weapons}
    shot = sorted({a.operative for a in state.attacks if a.operative in holders and a.weapon.casefold() == weapon.name.casefold()})
    return len(holders), shot


def may_carry(state: GameState, op: OperativeState, weapon: ev.Weapon) -> bool:
    """Whether the operative carries the weapon, or may (1 in x of them, rounded down, pg 89)."""
    holders, carrying = carriers(state, op, weapon)
    return op.id in carrying or len(carrying) < holders // (weapon.one_in or 1)


def objective_achieved(state: GameState, m: Mission, npo: str) -> bool:
    """Breach: every NPO incapacitated (pg 90); Sabotage: every objective marker sabotaged (pg 92)."""
    if m.sabotage:
        return bool(state.markers) and all(marker.sabotaged for marker in state.markers.values())
    return all(o.incapacitated for o in state.operatives_of(npo))


def half_incapacitated(state: GameState, npo: str) -> bool:
    npos = state.operatives_of(npo)
    return bool(npos) and 2 * sum(o.incapacitated for o in npos) >= len(npos)


def reinforcements_due(state: GameState, npo: str) -> bool:
    """Sabotage and Escape: each strategy phase, once half the NPOs are incapacitated (pg 92, 94)."""
    return mission(state).reinforcements and REINFORCEMENTS.casefold() not in state.players[npo].used_this_tp and half_incapacitated(state, npo)


class JointOps(Kt24TwoPlayer):
    name = "kt24-joint"
    title = "KT24 Joint Ops"
    source = "pg 87-95"
    simulator = "ktlog.ruleset_play.joint.simulator"
    moves = "ktlog.ruleset_play.joint.moves"
    pve = True
    npos = True
    missions = tuple(MISSIONS)
    events = (KT24_EVENTS - {ev.CritOpRolled, ev.MarkerSecured, ev.MarkerLooted, ev.TransmissionInitiated}) | {
        ReinforcementsArrived,
        MarkerSabotaged,
        OperativeEscaped,
    }
    turning_points = None
    ops = ()
    win_features = ("cp", "initiative", "operatives", "operatives_share", "wounds_share", "to_activate", "escaped", "markers")

    def check_event(self, ctx: Ctx, event: ev.Event) -> None:
        check = CHECKS.get(type(event))
        if check is not None:
            check(ctx, event)

    def npo_budget(self, mission: str | None) -> tuple[str, int] | None:
        found = mission_of(mission)
        return (found.title, found.npo_wounds) if found else None

    # --- set-up and CP ----------------------------------------------------------------------

    def marker_count(self, state: GameState) -> tuple[int, int | None]:
        """Ruling: as many as the mission map shows; Sabotage needs one to sabotage (pg 92)."""
        return (1 if mission(state).sabotage else 0), None

    def marker_placer(self, state: GameState, index: int) -> str | None:
        """Ruling: the players' side sets up the markers where the mission map shows them."""
        return players_side(state)

    def gains_cp(self, state: GameState, player: str) -> bool:
        """Ruling: NPOs gain no CP (they use no ploys, pg 88-89)."""
        return not state.players[player].npo

    def ready_cp(self, state: GameState, player: str) -> int:
        return super().ready_cp(state, player) if self.gains_cp(state, player) else 0

    # --- the missions -----------------------------------------------------------------------

    def on_incapacitated(self, ctx: Ctx, victim: OperativeState, by_player: str | None) -> None:
        self.end_if_decided(ctx)

    def mission_action(self, ctx: Ctx, event: ev.Action, operative: OperativeState) -> None:
        """Sabotage (pg 92): one objective marker the active operative controls is sabotaged."""
        s = ctx.state
        m = mission(s)
        if not m.sabotage:
            ctx.broke(f"Sabotage is the mission action of 02 Sabotage (pg 92); this game's mission is {m.title}", m.page)
        if s.players[operative.player].npo:
            ctx.broke("NPOs do not sabotage: the Sabotage action is the players' (pg 92), and no NPO behaviour performs it (pg 88)", "pg 88, pg 92")
        if s.turning_point <= 1:
            ctx.broke("Sabotage cannot be performed during the first turning point", "Sabotage, pg 92")
        name: str = event.marker  # type: ignore[attr-defined]  # Sabotage, the one mission action of Joint Ops, names its marker
        marker = s.markers.get(name)
        if marker is None:
            ctx.invalid(f"no objective marker {name!r} (markers: {', '.join(s.markers) or 'none'})", "marker")
        if marker.sabotaged:
            ctx.broke(f"objective marker {marker.id!r} has already been sabotaged; sabotage another one", "Sabotage, pg 92")
        marker.sabotaged = True
        self.end_if_decided(ctx)

    def end_if_decided(self, ctx: Ctx) -> None:
        """End the battle the moment the mission's victory or defeat condition is met (pg 90-95)."""
        s = ctx.state
        players, npo = players_side(s), npo_side(s)
        if s.result is not None or players is None or npo is None:
            return
        m = mission(s)
        operatives = s.operatives_of(players)
        if m.escape:
            if any(o.in_killzone for o in operatives):
                return
            escaped = sum(o.status == "escaped" for o in operatives)
            winner = players if 2 * escaped > len(operatives) else npo  # more than 50% escaped (pg 94)
        elif all(o.incapacitated for o in operatives):
            winner = npo
        elif objective_achieved(s, m, npo):
            winner = players
        else:
            return
        s.result = Result(winner=winner, draw=False, ended_by="battle", seq=ctx.seq, winners=[winner])
        s.phase = "over"
        s.activation = None
        s.gambit_turn = None

    def progress(self, state: GameState) -> dict[str, str | int]:
        """The mission and how far it has come: NPOs and operatives left, markers, escapes."""
        found = mission_of(state.labels.get("mission"))
        if found is None:
            return {}
        view: dict[str, str | int] = {"mission": found.title}
        for key, side in (("npos", npo_side(state)), ("operatives", players_side(state))):
            if side is not None:
                ops = state.operatives_of(side)
                view[f"{key}_in_killzone"] = sum(o.in_killzone for o in ops)
                view[f"{key}_incapacitated"] = sum(o.incapacitated for o in ops)
        if found.escape:
            view["operatives_escaped"] = sum(o.status == "escaped" for o in state.scan())
        if found.sabotage:
            view["markers_sabotaged"] = sum(m.sabotaged for m in state.markers.values())
            view["markers"] = len(state.markers)
        return view


RULESET = JointOps()


# --- checks made before the shared handlers (JointOps.check_event) ---------------------------


def _game_created(ctx: Ctx, e: ev.GameCreated) -> None:
    if mission_of(e.mission) is None:
        given = "no mission is given" if e.mission is None else f"{e.mission!r} is not one of its missions"
        ctx.invalid(
            f"a Joint Ops game names its mission and {given}: give breach, sabotage or escape, or the D3 result 1-3 "
            "(GameCreated.mission; `ktlog new --mission breach`)",
            "pg 87",
        )


def _player_joined(ctx: Ctx, e: ev.PlayerJoined) -> None:
    s = ctx.state
    if e.npo and npo_side(s) is not None:
        ctx.invalid(f"the NPOs are already {npo_side(s)!r}; a Joint Ops game has one NPO side", "pg 87")
    if not e.npo and players_side(s) is not None:
        ctx.invalid(
            f"{players_side(s)!r} is already the players' side; co-op players are still one player with one CP pool and one "
            "equipment selection (pg 87): name them in PlayerJoined.faction or an annotation, or join the NPOs with npo=true",
            "pg 87",
        )


def _operative_added(ctx: Ctx, e: ev.OperativeAdded) -> None:
    s = ctx.state
    player = s.players.get(e.player)
    if player is None or not player.npo:
        return
    m = mission(s)
    total = sum(o.datacard.wounds for o in s.operatives_of(e.player)) + e.datacard.wounds
    if total > m.npo_wounds:
        ctx.broke(
            f"{e.operative!r} would bring the NPOs' combined Wounds to {total}, over {m.title}'s {m.npo_wounds}; select fewer "
            "NPOs, or record it with an override naming the difficulty you chose (pg 87)",
            m.page,
        )


def _initiative_decided(ctx: Ctx, e: ev.InitiativeDecided) -> None:
    s = ctx.state
    npo = npo_side(s)
    if s.rolloff is not None and s.decider is not None and s.decider == npo and e.player != npo:
        ctx.broke(f"the NPOs decide initiative, and they always take it: record InitiativeDecided player={npo}", "pg 87")


def _gambit_used(ctx: Ctx, e: ev.StrategicGambitUsed) -> None:
    if e.player in ctx.state.players and ctx.state.players[e.player].npo:
        ctx.broke(
            f"in the gambit step the NPOs always pass (record GambitPassed player={e.player}); their reinforcements are recorded as ReinforcementsArrived",
            "pg 88",
        )


def _gambit_passed(ctx: Ctx, e: ev.GambitPassed) -> None:
    s = ctx.state
    if s.phase == "strategy" and s.gambit_turn == e.player and s.players[e.player].npo and reinforcements_due(s, e.player):
        m = mission(s)
        ctx.broke(
            "half the NPOs are incapacitated, so they call in reinforcements as their STRATEGIC GAMBIT: record "
            "ReinforcementsArrived with the two NPOs (not Heavy) or the Heavy NPO that return",
            m.page,
        )


def _ploy_used(ctx: Ctx, e: ev.FirefightPloyUsed) -> None:
    if e.player in ctx.state.players and ctx.state.players[e.player].npo:
        ctx.broke("NPOs use no ploys: their behaviours and datacards give them none", "pg 88-89")


def _shot(ctx: Ctx, e: ev.Shot) -> None:
    """Only 1 in 3 Trooper (Marksman) can have the special weapon (pg 89): a weapon's one_in."""
    s = ctx.state
    op = s.operatives.get(e.operative)
    weapon = limited_weapon(op, e.weapon) if op is not None else None
    if op is None or weapon is None or may_carry(s, op, weapon):
        return
    holders, carrying = carriers(s, op, weapon)
    have = f"{', '.join(carrying)} already {'has' if len(carrying) == 1 else 'have'} it" if carrying else "so none may"
    ctx.broke(
        f"only 1 in {weapon.one_in} of the operatives with {weapon.name!r} can have it: {holders} allow "
        f"{holders // (weapon.one_in or 1)}, and {have}; {op.id!r} shoots another weapon",
        "pg 89",
    )


CHECKS: dict[type[ev.Event], Callable[[Ctx, ev.Event], None]] = {
    ev.GameCreated: _game_created,
    ev.PlayerJoined: _player_joined,
    ev.OperativeAdded: _operative_added,
    ev.InitiativeDecided: _initiative_decided,
    ev.StrategicGambitUsed: _gambit_used,
    ev.GambitPassed: _gambit_passed,
    ev.FirefightPloyUsed: _ploy_used,
    ev.Shot: _shot,
}


# --- the events only Joint Ops accepts --------------------------------------------------------


@handles(ReinforcementsArrived)
def reinforcements_arrived(ctx: Ctx, e: ReinforcementsArrived) -> None:
    """The NPOs' STRATEGIC GAMBIT (pg 92, 94): two incapacitated NPOs that are not Heavy, or one
    Heavy NPO, are set up again with a Conceal order, their wounds restored."""
    s = ctx.state
    npo = npo_side(s)
    assert npo is not None, "Joint Ops always has the NPO side"
    m = mission(s)
    if not m.reinforcements:
        ctx.broke(f"{m.title} has no reinforcements; only 02 Sabotage (pg 92) and 03 Escape (pg 94) do", m.page)
    check_gambit_turn(ctx, npo)
    used = s.players[npo].used_this_tp
    if REINFORCEMENTS.casefold() in used:
        ctx.broke("the NPOs already called in reinforcements this strategy phase; they do once per strategy phase", m.page)
    npos = s.operatives_of(npo)
    down = [o for o in npos if o.incapacitated]
    if 2 * len(down) < len(npos):
        ctx.broke(f"only {len(down)} of the {len(npos)} NPOs are incapacitated; reinforcements come when half of them are", m.page)
    if not e.operatives:
        ctx.invalid("name the incapacitated NPOs that return (operatives)", "operatives")
    if len(set(e.operatives)) != len(e.operatives):
        ctx.invalid("each NPO returns once", "operatives")
    returning = [ctx.operative(i) for i in e.operatives]
    for op in returning:
        if op.player != npo:
            ctx.invalid(f"{op.id!r} is not an NPO; reinforcements are NPOs", m.page)
        if not op.incapacitated:
            ctx.invalid(f"{op.id!r} is not incapacitated; reinforcements are incapacitated NPOs set up again", m.page)
    wanted = 1 if any(is_heavy(o) for o in returning) else min(2, sum(not is_heavy(o) for o in down))
    if len(returning) != wanted:
        ctx.broke(f"reinforcements are two incapacitated NPOs that are not Heavy, or one Heavy NPO; not {', '.join(e.operatives)}", m.page)
    used.append(REINFORCEMENTS.casefold())
    ctx.change_cp(npo, 0, "gambit", REINFORCEMENTS)
    for op in returning:
        op.wounds = op.datacard.wounds
        s.change(op, status="ready")
        op.order = "conceal"
        op.incapacitated_by = None
        op.apl_changes = []
    s.passes_in_a_row = 0
    s.gambit_turn = s.next_in_order(npo)


@handles(MarkerSabotaged)
def marker_sabotaged(ctx: Ctx, e: MarkerSabotaged) -> None:
    op = begin_action(ctx, e)
    not_engaged(ctx, op, "perform Sabotage", "Sabotage, pg 92")
    ctx.ruleset.mission_action(ctx, e, op)
    finish_action(ctx, e, op)


@handles(OperativeEscaped)
def operative_escaped(ctx: Ctx, e: OperativeEscaped) -> None:
    """Escape (pg 94): a player's operative moved wholly over the NPOs' killzone edge is removed."""
    s = ctx.state
    if s.phase != "firefight":
        ctx.invalid("operatives escape by moving, in the Firefight phase", "Escape, pg 94")
    op = ctx.living(e.operative)
    m = mission(s)
    if not m.escape:
        ctx.broke(
            f"operatives leave the killzone only in 03 Escape (pg 94); this game's mission is {m.title}, where an operative "
            "cannot move over a killzone edge (pg 46)",
            m.page,
        )
    if s.players[op.player].npo:
        ctx.broke("NPOs do not escape; the players' operatives do", "Escape, pg 94")
    act = s.activation
    if act is None or act.operative != op.id or not act.moved:
        ctx.broke(
            f"{op.id!r} escapes by moving wholly over the NPOs' killzone edge: record the escape while it is active, after its move action", "Escape, pg 94"
        )
    if op.carrying:
        s.markers[op.carrying].carried_by = None  # it leaves the marker where it crossed the edge
        op.carrying = None
    disengage(s, op)
    if act is not None and act.operative == op.id:
        end_activation(ctx)
    s.change(op, status="escaped")
    assert isinstance(ctx.ruleset, JointOps), "Escape is an event of Joint Ops only"
    ctx.ruleset.end_if_decided(ctx)

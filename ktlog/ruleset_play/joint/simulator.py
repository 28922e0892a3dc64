"""Random legal KT24 Joint Ops games (pg 87-95): one kill team against NPOs, a random mission.

The players' side and the NPOs act like the Preliminary Ops simulator's players (kt24.py); on top
of that the NPOs pass in the gambit step or call in reinforcements when they are due, the players
sabotage markers (02 Sabotage) or escape after a move (03 Escape, more often as the battle goes
on). The rules have no turning point limit; the simulator has one: a battle still undecided after
MAX_TURNING_POINTS ends with the players' side conceding.
"""

from __future__ import annotations

import random

import msgspec

from ...data import SAMPLE_ROSTERS
from ...events import (
    Datacard,
    DropZoneChosen,
    EquipmentSelected,
    GambitPassed,
    GameConceded,
    InitiativeDecided,
    ObjectiveMarkerSetUp,
    OperativeAdded,
    OperativeSetUp,
    PlayerJoined,
    RolledOff,
    TurningPointEnded,
    TurningPointStarted,
)
from ...files.rosters import Roster, load_roster, slug
from ...play.builder import GameBuilder, act
from ...rules.ruleset import Ruleset
from ...rules.setup import next_to_set_up
from ...rulesets.joint.events import MarkerSabotaged, OperativeEscaped, ReinforcementsArrived
from ...rulesets.joint.rules import (
    MISSIONS,
    is_heavy,
    may_carry,
    mission,
    reinforcements_due,
)
from ...state import GameState, OperativeState
from ..kt24 import simulator as kt24
from ..kt24.simulator import PLAYERS, STRATEGY_PLOYS, ploy_or_pass

MAX_TURNING_POINTS = 8
NPO_SIDE = "NPOs"
EQUIPMENT = ["Frag grenades", "Ladders", "Portable barricade", "Ammo cache", "Comms device"]


def npo_force(cards: list[Datacard], budget: int, rng: random.Random) -> list[tuple[str, Datacard]]:
    """NPOs picked at random until the next would pass the mission's combined Wounds (pg 90-94),
    with ids like trooper-marksman-2."""
    force: list[tuple[str, Datacard]] = []
    total = 0
    while True:
        fits = [c for c in cards if total + c.wounds <= budget]
        if not fits:
            return force
        card = rng.choice(fits)
        total += card.wounds
        force.append((f"{slug(card.name)}-{sum(c.name == card.name for _, c in force) + 1}", card))


class Simulator(kt24.Simulator):
    positional = False  # no layout yet has its drop zones and reinforcements

    def __init__(self, rng: random.Random, rosters: list[Roster], ruleset: Ruleset):
        super().__init__(rng, rosters, ruleset)
        self.npo_cards = [o.datacard for o in load_roster(SAMPLE_ROSTERS / "npo.toml").operatives]

    def play(self, date: str, **labels: str) -> GameBuilder:
        rng = self.rng
        name = rng.choice(PLAYERS)
        key = rng.choice(list(MISSIONS))
        g = GameBuilder(ruleset=self.ruleset, killzone=rng.choice(["volkus", "gallowdark", "bheta-decima"]), date=date, mission=key, **labels)
        g.player(name, rng.choice(self.rosters))
        g.add(PlayerJoined(player=NPO_SIDE, kill_team="Non-player operatives", faction="NPO", npo=True))
        for op_id, card in npo_force(self.npo_cards, MISSIONS[key].npo_wounds, rng):
            g.add(OperativeAdded(player=NPO_SIDE, operative=op_id, datacard=card))
        self.set_up(g, name, markers=rng.randint(1, 3) if key == "sabotage" else rng.randint(0, 2))
        return self.battle(g, 1)

    def battle(self, g: GameBuilder, first: int) -> GameBuilder:
        """Turning points from `first` on until the mission ends the battle; the players' side
        concedes one still undecided after MAX_TURNING_POINTS."""
        for tp in range(first, MAX_TURNING_POINTS + 1):
            self.turning_point(g, tp)
            if g.state.phase == "over":
                return g
        return g.add(GameConceded(player=next(p.name for p in g.state.players.values() if not p.npo)))

    def decide_initiative(self, g: GameBuilder) -> None:
        """Roll-offs until one has a winner, then as `initiative` decides."""
        s = g.state
        while s.decider is None:
            g.add(RolledOff(purpose="initiative", rolls=self.rolls(g)))
        winner = s.decider
        g.add(InitiativeDecided(player=winner if winner == NPO_SIDE or self.rng.random() < 0.8 else NPO_SIDE))

    def set_up(self, g: GameBuilder, name: str, markers: int) -> None:
        """pg 110 with the Joint Ops rulings: the players set up the map's markers."""
        rng = self.rng
        rolls = self.rolls(g)
        g.add(RolledOff(purpose="setup", rolls=rolls))
        g.add(InitiativeDecided(player=self.initiative(g, rolls)))
        for i in range(1, markers + 1):
            g.add(ObjectiveMarkerSetUp(marker=f"objective-{i}", player=name))
        for player in g.state.order:
            g.add(DropZoneChosen(player=player, drop_zone="NPO drop zone" if player == NPO_SIDE else "players' drop zone"))
        g.add(EquipmentSelected(player=name, equipment=tuple(rng.sample(EQUIPMENT, rng.randint(0, 4)))))
        g.add(EquipmentSelected(player=NPO_SIDE, equipment=()))
        while (who := next_to_set_up(g.state)) is not None:
            g.add(OperativeSetUp(operative=next(o for o in g.state.operatives_of(who) if not o.set_up).id))

    def rolls(self, g: GameBuilder) -> dict[str, int]:
        """A roll-off with a winner (the tie rules are tested by hand, not simulated)."""
        rng = self.rng
        while True:
            rolls = {n: rng.randint(1, 6) for n in g.state.players}
            if len(set(rolls.values())) == 2:
                return rolls

    def initiative(self, g: GameBuilder, rolls: dict[str, int]) -> str:
        """The NPOs always take initiative when they win the roll-off (pg 87); the players choose."""
        winner = max(rolls, key=rolls.__getitem__)
        if winner == NPO_SIDE or self.rng.random() < 0.8:
            return winner
        return NPO_SIDE

    def turning_point(self, g: GameBuilder, tp: int) -> None:
        rolls = self.rolls(g)
        g.add(TurningPointStarted(turning_point=tp), RolledOff(purpose="initiative", rolls=rolls), InitiativeDecided(player=self.initiative(g, rolls)))
        self.gambits(g)
        self.firefight_phase(g)
        self.end_turning_point(g, tp)

    def end_turning_point(self, g: GameBuilder, tp: int) -> None:
        if g.state.phase == "firefight":  # not ended by the mission's victory or defeat
            g.add(TurningPointEnded(turning_point=tp))

    def gambits(self, g: GameBuilder) -> None:
        """The NPOs pass, or call in reinforcements when they are due (pg 88, 92, 94)."""
        s = g.state
        while s.phase == "strategy":
            player = s.players[s.gambit_turn]
            if player.npo:
                if reinforcements_due(s, player.name):
                    g.add(ReinforcementsArrived(operatives=self.reinforcements(s, player.name)))
                else:
                    g.add(GambitPassed(player=player.name))
                continue
            ploy_or_pass(g, self.rng, player, STRATEGY_PLOYS, 0.35)

    def reinforcements(self, s: GameState, npo: str) -> tuple[str, ...]:
        """Chosen at random: one incapacitated Heavy NPO, or two that are not Heavy (pg 92)."""
        down = [o for o in s.operatives_of(npo) if o.incapacitated]
        heavy = [o.id for o in down if is_heavy(o)]
        others = [o.id for o in down if not is_heavy(o)]
        if heavy and (not others or self.rng.random() < 0.3):
            return (self.rng.choice(heavy),)
        return tuple(self.rng.sample(others, min(2, len(others))))

    # --- what a Joint Ops operative may do besides the Preliminary Ops actions ----------------

    def choose(self, g: GameBuilder, op: OperativeState, done: list[str], left: int, counteract: bool = False):
        s = g.state
        moved = any(a in ("Reposition", "Dash", "Fall Back", "Charge") for a in done)
        if mission(s).escape and moved and not s.players[op.player].npo and self.rng.random() < 0.15 * s.turning_point:
            return act(OperativeEscaped)
        return super().choose(g, op, done, left, counteract)

    def shoot_action(self, s: GameState, op: OperativeState, enemies: list[OperativeState], moved: bool):
        """A weapon only 1 in x can have (pg 89: the special weapon) is shot by those carrying it."""
        weapons = tuple(w for w in op.datacard.weapons if not w.one_in or may_carry(s, op, w))
        if weapons != op.datacard.weapons:
            op = msgspec.structs.replace(op, datacard=msgspec.structs.replace(op.datacard, weapons=weapons))
        return super().shoot_action(s, op, enemies, moved)

    def mission_action(self, s: GameState, op: OperativeState, done: list[str]):
        """Sabotage (pg 92): a player's operative, after TP1, on a marker not yet sabotaged."""
        if not mission(s).sabotage or s.turning_point < 2 or s.players[op.player].npo or "Sabotage" in done:
            return None
        left = [m.id for m in s.markers.values() if not m.sabotaged]
        return act(MarkerSabotaged, marker=self.rng.choice(left)) if left and self.rng.random() < 0.5 else None

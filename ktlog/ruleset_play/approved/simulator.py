"""Random legal KT24 Approved Ops games: the Preliminary Ops player, plus secret tac ops, the
scouting step, primary ops chosen as TP1 gambits, tac op VP and the reveals (002)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import get_args

from ...events import (
    EquipmentSelected,
    GambitPassed,
    InitiativeDecided,
    RolledOff,
    StrategicGambitUsed,
    TurningPointStarted,
)
from ...play.builder import GameBuilder
from ...rulesets.approved.events import (
    PrimaryOpRevealed,
    PrimaryOpSelected,
    ScoutingOption,
    ScoutingRevealed,
    ScoutingSelected,
    TacOpRevealed,
    TacOpScored,
    TacOpSelected,
)
from ...rulesets.approved.rules import OP_CAP, PRIMARY_OPS, RULESET, scouting_winner
from ...state import GameState
from ..kt24 import simulator as kt24
from ..kt24.simulator import STRATEGY_PLOYS

UNIVERSAL_EQUIPMENT = (
    "Ammo Cache",
    "Comms Device",
    "Heavy Barricade",
    "Ladders",
    "Light Barricades",
    "Mines",
    "Portable Barricade",
    "Razor Wire",
    "Utility Grenades",
    "Explosive Grenades",
)
"""The universal equipment of 002."""
TAC_OPS = {
    "Infiltration": ("Implant", "Surveil", "Wiretap"),
    "Recon": ("Flank", "Retrieval", "Scout Enemy Movement"),
    "Security": ("Contain", "Secure Centre", "Take Ground"),
    "Seek & Destroy": ("Champion", "Overrun", "Storm Objectives"),
}
"""Tac op names as players might record them (the cards are not in the sources)."""


class Simulator(kt24.Simulator):
    def setup(self, g: GameBuilder, rolls: list[dict[str, int]], initiative: str) -> None:
        rng, players = self.rng, list(g.state.players.values())
        equipment: dict[str, Iterable[str]] = {p.name: rng.sample(UNIVERSAL_EQUIPMENT, rng.randint(0, 4)) for p in players}
        tac_ops = []
        for p in players:
            archetype = rng.choice(p.archetypes)
            tac_ops.append(TacOpSelected(player=p.name, tac_op=rng.choice(TAC_OPS[archetype]), archetype=archetype))
        g.setup(rolloff=rolls, initiative=initiative, crit_op=rng.randint(1, 3), equipment=equipment, before_set_up=tac_ops, **self.on_layout(g, initiative))
        for p in players:
            g.add(ScoutingSelected(player=p.name, option=rng.choice(get_args(ScoutingOption))))
        g.add(ScoutingRevealed())
        for p in g.state.players.values():
            if p.scouting == "equip":
                g.add(EquipmentSelected(player=p.name, equipment=(rng.choice([e for e in UNIVERSAL_EQUIPMENT if e not in (p.equipment or ())]),)))

    def resample_secrets(self, state: GameState) -> None:
        """Tac ops and primary ops not yet revealed, chosen again as `setup` and `gambits` choose
        them (the scouting options are revealed before the battle)."""
        rng = self.rng
        for p in state.players.values():
            if p.tac_op is not None and not p.tac_op_revealed:
                p.tac_op_archetype = rng.choice(p.archetypes)
                p.tac_op = rng.choice(TAC_OPS[p.tac_op_archetype])
            if p.primary_op is not None and not p.primary_op_revealed:
                p.primary_op = rng.choice(PRIMARY_OPS)

    def decide_initiative(self, g: GameBuilder) -> None:
        """TP1's as `strategy_phase` decides it; a later one's as Preliminary Ops'."""
        s = g.state
        if s.turning_point == 1:
            g.add(InitiativeDecided(player=scouting_winner(s) or self.rng.choice(list(s.players))))
        else:
            super().decide_initiative(g)

    def strategy_phase(self, g: GameBuilder, tp: int) -> None:
        """TP1: the scouting options decide initiative; later: a roll-off (002 step 5)."""
        rng, s = self.rng, g.state
        g.add(TurningPointStarted(turning_point=tp))
        if tp == 1:
            initiative = scouting_winner(s) or rng.choice(list(s.players))
        else:
            rolls = {n: rng.randint(1, 6) for n in s.players}
            g.add(RolledOff(purpose="initiative", rolls=rolls))
            initiative = rng.choice(list(rolls)) if rng.random() < 0.3 else max(rolls, key=rolls.__getitem__)
        g.add(InitiativeDecided(player=initiative))
        self.gambits(g)

    def gambits(self, g: GameBuilder) -> None:
        """Strategy ploys at random; in TP1 each player's primary op, and the Ploy scouting
        option's free ploy."""
        rng, s = self.rng, g.state
        while s.phase == "strategy":
            player = s.players[s.gambit_turn]
            unused = [x for x in STRATEGY_PLOYS if x.casefold() not in player.used_this_tp]
            free = s.turning_point == 1 and player.scouting == "ploy" and player.scouting_used is None
            if unused and (free or player.cp >= 1) and rng.random() < 0.35:
                g.add(StrategicGambitUsed(player=player.name, gambit=rng.choice(unused), cp=0 if free else 1))
            elif s.turning_point == 1 and player.primary_op is None:
                g.add(PrimaryOpSelected(player=player.name, op=rng.choice(PRIMARY_OPS)))
            else:
                g.add(GambitPassed(player=player.name))
            s = g.state

    def end_turning_point(self, g: GameBuilder, tp: int) -> None:
        """Tac op VP and reveals as the players record them; the primary ops at the end (002 step 7)."""
        rng = self.rng
        scored = {v.player for v in g.state.vp_log if v.op == "tac" and v.turning_point == tp}  # a rollout from the middle of this end
        for p in [p for p in g.state.players.values() if p.name not in scored]:
            if not p.tac_op_revealed and rng.random() < 0.4:
                g.add(TacOpRevealed(player=p.name))
            room = OP_CAP - g.state.players[p.name].vp["tac"]
            vp = min(room, rng.choice([0, 0, 1, 1, 2]))
            if vp:
                g.add(TacOpScored(player=p.name, vp=vp, reason=f"{p.tac_op}: condition met in turning point {tp}"))
        if tp == RULESET.turning_points:
            for p in list(g.state.players.values()):
                if not p.primary_op_revealed:
                    g.add(PrimaryOpRevealed(player=p.name))
        super().end_turning_point(g, tp)

"""A game one shot decides, and a hand-set model, for the analyser's tests (issue 28)."""

from __future__ import annotations

import math

from conftest import blade, card, expend_all, gun
from league import Played, tp

from ktlog.analytics.winprob import WinModel
from ktlog.events import OperativeAdded, PlayerJoined
from ktlog.play.builder import GameBuilder, shoot

ONE_SHOT_GAME = "01000000-0000-4000-8000-000000000000"

MELTA = gun("Melta", 2, 4, (3, 4), "Piercing 3")
"""Atk 2, Hit 4+, Dmg 3/4, Piercing 3: no defence dice; expected damage 2 * (2/6 * 3 + 1/6 * 4) = 10/3."""
FRAGILE = card("Fragile", wounds=3, weapons=(MELTA, blade()))


def fragile_teams() -> tuple[GameBuilder, Played]:
    """Alice and Bob, five 3-wound operatives each, set up for Loot (crit op 2, pg 84)."""
    g = GameBuilder(date="2026-11-21")
    for player in ("Alice", "Bob"):
        g.add(PlayerJoined(player=player, kill_team="Troopers"))
        for i in range(1, 6):
            g.add(OperativeAdded(player=player, operative=f"{player.lower()}{i}", datacard=FRAGILE))
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=2, markers=[("centre", "Bob"), ("north", "Alice"), ("south", "Bob")])
    return g, Played(g, "2026-11-21T19:00:00+00:00")


def one_shot_game() -> GameBuilder:
    """Alice and Bob, five 3-wound operatives each; nothing happens until turning point 4, when
    alice1's Melta rolls a critical (4 damage) and incapacitates bob1: kill grade 1 and the only
    VP of the battle but the kill op's end-of-battle point. Alice wins."""
    g, played = fragile_teams()
    for _ in range(4):
        tp(played, "Alice")
    g.activate("alice1", "engage", shoot("Melta", "bob1", "36"))
    expend_all(g).end_turning_point()
    return g


VP_MODEL = WinModel(ruleset="kt24-preliminary", features=["vp"], win=[0.0, 1.25, 0.0], margin=[0.0, 0.0, 0.0])
"""A hand-set model of VP alone: a player's score is 1.25 times their VP lead over sqrt(battle left
+ 1/4), so for two players (leads of +d and -d) the log-odds are 2.5 d / sqrt(left + 1/4). At the
shot of `one_shot_game` Alice leads by 1 with turning point 4's every operative still to activate
(alice1 is active, not yet expended): left 1, log-odds 2.5 / sqrt(1.25) = 2.236, 90.3%. Its
expected VP margin is the margin now (nothing to come)."""
SHOT_CHANCE = 1 / (1 + math.exp(-2.5 / math.sqrt(1.25)))

"""Example Skirmish: KT24 Preliminary Ops (pg 81-85) on a smaller board: three turning points,
one objective marker (the centre one, placed by the player without initiative) and Secure as
the crit op whatever the D3; and a supply cache, its own event: a player who has secured the
centre marker claims it once a turning point, for 1VP (2VP at most in the battle) or 1CP
(illustrative house rules, not a published mission pack)."""

from __future__ import annotations

from ktlog.rules.context import Ctx, handles
from ktlog.rulesets.preliminary.rules import PreliminaryOps

from .events import SupplyCacheClaimed

CACHE = "Example Skirmish: the supply cache"
CACHE_VP = 2
"""The most VP the supply cache scores a player in the battle."""


class ExampleSkirmish(PreliminaryOps):
    name = "example-skirmish"
    title = "Example Skirmish"
    source = "ktlog-example-ruleset, after pg 81-85"
    simulator = "ktlog_example_ruleset.simulator"
    moves = "ktlog_example_ruleset.moves"
    events = PreliminaryOps.events | {SupplyCacheClaimed}
    turning_points = 3
    objective_markers = 1
    marker_rule = "Example Skirmish: the centre marker only"
    crit_ops = {1: "Secure", 2: "Secure", 3: "Secure"}
    ops = ("crit", "kill", "cache")
    max_vp = {**PreliminaryOps.max_vp, "cache": CACHE_VP}


RULESET = ExampleSkirmish()


@handles(SupplyCacheClaimed)
def supply_cache_claimed(ctx: Ctx, e: SupplyCacheClaimed) -> None:
    """Once a turning point, by the player who secured the centre marker: 1VP or 1CP."""
    s = ctx.state
    player = ctx.player(e.player)
    if s.phase not in ("strategy", "firefight"):
        ctx.invalid("the supply cache is claimed during the battle", CACHE)
    if "supply cache" in player.used_this_tp:
        ctx.invalid(f"{e.player} already claimed the supply cache this turning point; it is claimed once a turning point", CACHE)
    holder = next((m.secured_by for m in s.markers.values()), None)
    if holder != e.player:
        ctx.broke(f"the supply cache is claimed by the player who secured the centre marker ({holder or 'nobody has'}), not {e.player}", CACHE)
    have = player.vp.get("cache", 0)
    if e.reward == "vp" and have >= CACHE_VP:
        ctx.invalid(f"{e.player} has {have}VP from the supply cache, its most; claim 1CP instead (reward=cp)", CACHE)
    player.used_this_tp.append("supply cache")
    if e.reward == "cp":
        ctx.change_cp(e.player, 1, "adjustment", "the supply cache")
    else:
        ctx.score(e.player, "cache", 1, "the supply cache")

"""Example Skirmish: KT24 Preliminary Ops (pg 81-85) on a smaller board: three turning points,
one objective marker (the centre one, placed by the player without initiative) and Secure as
the crit op whatever the D3 (illustrative house rules, not a published mission pack)."""

from __future__ import annotations

from ktlog.rulesets.preliminary.rules import PreliminaryOps


class ExampleSkirmish(PreliminaryOps):
    name = "example-skirmish"
    title = "Example Skirmish"
    source = "ktlog-example-ruleset, after pg 81-85"
    simulator = "ktlog_example_ruleset.simulator"
    turning_points = 3
    objective_markers = 1
    marker_rule = "Example Skirmish: the centre marker only"
    crit_ops = {1: "Secure", 2: "Secure", 3: "Secure"}


RULESET = ExampleSkirmish()

"""The simulator the KT24 rulesets share (`ktlog.ruleset_play`): Preliminary Ops plays with it as it is, the others build on it."""

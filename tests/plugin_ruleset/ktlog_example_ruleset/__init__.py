"""Example Skirmish: a ruleset offered to ktlog by another package (entry point group `ktlog.rulesets`)."""

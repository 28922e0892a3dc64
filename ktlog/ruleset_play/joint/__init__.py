"""Joint Ops' simulator and its own kinds of move: reinforcements, escapes (`ktlog.ruleset_play`)."""

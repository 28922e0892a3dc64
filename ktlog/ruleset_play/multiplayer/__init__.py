"""Multiplayer Ops' simulator (`ktlog.ruleset_play`)."""

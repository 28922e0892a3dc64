"""Approved Ops' simulator and its own kinds of move: tac ops, scouting, primary op (`ktlog.ruleset_play`)."""

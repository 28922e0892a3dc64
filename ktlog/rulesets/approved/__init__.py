"""Approved Ops (KT24): tac ops, scouting, primary op."""

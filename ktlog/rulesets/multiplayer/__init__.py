"""Multiplayer Ops (KT24, 3-4 players)."""

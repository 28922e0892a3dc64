"""Joint Ops (KT24, against non-player operatives)."""

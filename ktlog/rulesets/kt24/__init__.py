"""KT24's shared parts: the two-player turn structure, most-VP result and the base simulator."""

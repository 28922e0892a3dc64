"""Screens of the ktlog terminal UI, one per module."""

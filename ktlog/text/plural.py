"""A count and its noun in the right number: "1 operative", "3 operatives"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, made plural with an s (or `plural`) unless `n` is 1."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"

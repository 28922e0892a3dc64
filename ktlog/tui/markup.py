"""Text put into Textual markup: every square bracket escaped (a lone "[" too)."""

from __future__ import annotations


def escape(text: str) -> str:
    return text.replace("[", r"\[")

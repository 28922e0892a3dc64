"""Game rules: the shared KT24 machinery and one small module per ruleset."""

from __future__ import annotations

from ..errors import InvalidEvent
from .preliminary import PreliminaryOps
from .ruleset import Ruleset

RULESETS: dict[str, Ruleset] = {r.name: r() for r in (PreliminaryOps,)}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise InvalidEvent(f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}", "ruleset") from None

"""Game rules: the shared KT24 machinery and one small module per ruleset.

A ruleset module defines a `Ruleset` subclass and names its instance `RULESET`; listing the
module in RULESET_MODULES is all it takes to offer it.
"""

from __future__ import annotations

import importlib

from ..errors import InvalidEvent
from .ruleset import Ruleset

RULESET_MODULES = {
    "kt24-preliminary": "preliminary",
    "kt24-approved": "approved",
    "kt24-multiplayer": "multiplayer",
    "kt24-joint": "joint",
    "kt21": "kt21",
}
"""Ruleset name -> its module in ktlog/rules/."""


def _load() -> dict[str, Ruleset]:
    found = {}
    for name, module in RULESET_MODULES.items():
        try:
            found[name] = importlib.import_module(f"{__name__}.{module}").RULESET
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}":
                raise
    return found


RULESETS: dict[str, Ruleset] = _load()


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise InvalidEvent(f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}", "ruleset") from None

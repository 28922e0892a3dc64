"""The rulesets: one package each (its rules, its simulator), and the registry.

A ruleset package's `rules` module defines a `Ruleset` subclass and names its instance
`RULESET`; listing the package in RULESET_MODULES is all it takes to offer it.
"""

from __future__ import annotations

import importlib

from ..errors import InvalidEvent
from ..rules.ruleset import Ruleset

RULESET_MODULES = {
    "kt24-preliminary": "preliminary",
    "kt24-approved": "approved",
    "kt24-multiplayer": "multiplayer",
    "kt24-joint": "joint",
    "kt21": "kt21",
}
"""Ruleset name -> its package in ktlog/rulesets/."""


def _load() -> dict[str, Ruleset]:
    found = {}
    for name, module in RULESET_MODULES.items():
        try:
            found[name] = importlib.import_module(f"{__name__}.{module}.rules").RULESET
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}.rules":
                raise
    return found


RULESETS: dict[str, Ruleset] = _load()


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise InvalidEvent(f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}", "ruleset") from None

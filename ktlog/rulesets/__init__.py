"""The rulesets: one package each, and the registry.

A ruleset package holds its `rules` module (a `Ruleset` subclass, its instance named `RULESET`),
its `simulator` and its `moves`. Listing the package in PACKAGES is all it takes to offer it; a
package that cannot be loaded is an error at import, never a ruleset silently missing.
"""

from __future__ import annotations

import importlib

from ..errors import InvalidEvent
from ..rules.ruleset import Ruleset

PACKAGES = ("preliminary", "approved", "multiplayer", "joint", "kt21")
"""The packages in ktlog/rulesets/ that offer a ruleset, in the order they are offered."""


class RegistryError(RuntimeError):
    """A ruleset the registry was given cannot be offered (a programming error, not a user's)."""


RULESETS: dict[str, Ruleset] = {}
"""Every ruleset offered, by name."""


def load(module: str) -> Ruleset:
    """The `RULESET` of a rules module (e.g. "ktlog.rulesets.kt21.rules")."""
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise RegistryError(f"ruleset module {module!r} cannot be imported: {exc}") from exc
    ruleset = getattr(found, "RULESET", None)
    if not isinstance(ruleset, Ruleset):
        raise RegistryError(f"ruleset module {module!r} names no Ruleset instance RULESET")
    return ruleset


def register(ruleset: Ruleset) -> Ruleset:
    """Offer a ruleset under its name (once)."""
    if not isinstance(ruleset, Ruleset):
        raise RegistryError(f"{ruleset!r} is not a Ruleset")
    if ruleset.name in RULESETS:
        raise RegistryError(f"two rulesets are called {ruleset.name!r}")
    RULESETS[ruleset.name] = ruleset
    return ruleset


for _package in PACKAGES:
    register(load(f"{__name__}.{_package}.rules"))


def of_datacards(edition: str) -> Ruleset:
    """The first ruleset offered whose kill teams use that edition's datacards (how a weapon of
    a KT21 roster is played, for instance)."""
    try:
        return next(r for r in RULESETS.values() if r.datacards == edition)
    except StopIteration:
        raise RegistryError(f"no ruleset plays {edition!r} datacards; rulesets: {', '.join(RULESETS)}") from None


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise InvalidEvent(f"unknown ruleset {name!r}; known rulesets: {', '.join(RULESETS)}", "ruleset") from None

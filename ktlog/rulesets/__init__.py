"""The rulesets: one package each, and the registry.

A ruleset package holds its `rules` module (a `Ruleset` subclass, its instance named `RULESET`),
its `simulator` and its `moves`. Listing the package in PACKAGES is all it takes to offer one of
ktlog's own; another installed package offers one through an entry point in the group
ENTRY_POINT_GROUP naming its Ruleset instance (`example = "their_package.rules:RULESET"`). A
package or entry point that cannot be loaded is an error at import, never a ruleset silently
missing.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from typing import TYPE_CHECKING

from ..errors import InvalidEvent, RegistryError
from ..events import CORE_EVENTS, EVENT_TYPES, Action, GameCreated
from ..rules.context import HANDLERS
from ..rules.ruleset import Ruleset
from ..rules.words import WORDS

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

PACKAGES = ("preliminary", "approved", "multiplayer", "joint", "kt21")
"""The packages in ktlog/rulesets/ that offer a ruleset, in the order they are offered."""
ENTRY_POINT_GROUP = "ktlog.rulesets"
"""The entry point group through which other installed packages offer rulesets (after ktlog's)."""


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


NAME = re.compile(r"[a-z0-9][a-z0-9.-]{0,39}")
"""A ruleset's name: what GameCreated.ruleset stores and `--ruleset` takes."""


def register(ruleset: Ruleset) -> Ruleset:
    """Offer a ruleset under its name (once)."""
    if not isinstance(ruleset, Ruleset):
        raise RegistryError(f"{ruleset!r} is not a Ruleset")
    name = getattr(ruleset, "name", None)
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise RegistryError(f"a ruleset's name is 1 to 40 lower-case letters, digits, '-' and '.' (not {name!r}): {type(ruleset).__name__}.name")
    if not all(isinstance(getattr(ruleset, field, None), str) and getattr(ruleset, field) for field in ("title", "source")):
        raise RegistryError(f"ruleset {name!r} needs a title and a source (where its rules are written): {type(ruleset).__name__}.title, .source")
    if unknown := set(ruleset.labels) - set(GameCreated.__struct_fields__):
        raise RegistryError(f"ruleset {name!r} asks for labels a game does not have: {', '.join(sorted(unknown))} (GameCreated's fields)")
    if ruleset.name in RULESETS:
        raise RegistryError(f"two rulesets are called {ruleset.name!r}")
    for cls in sorted(ruleset.events - set(CORE_EVENTS), key=lambda c: c.__name__):
        if problem := _own_event_problem(cls):
            raise RegistryError(f"ruleset {name!r} accepts {problem}")
    RULESETS[ruleset.name] = ruleset
    return ruleset


def _own_event_problem(cls: type) -> str | None:
    """What a ruleset's own event type lacks: its place in the vocabulary, a rule handler, words."""
    name = getattr(cls, "__name__", repr(cls))
    if EVENT_TYPES.get(name) is not cls:
        return f"{name}, which is not a registered event type: declare it with ktlog.events.register_events"
    if cls not in HANDLERS:
        return f"{name}, which has no rule handler: give it one with @ktlog.rules.context.handles({name})"
    if cls not in WORDS and not any(base in CORE_EVENTS or base is Action for base in cls.__mro__[1:]):  # else said as its base is
        return f"{name}, which has no words: give it them with @ktlog.rules.words.words({name})"
    return None


def load_entry_point(entry: EntryPoint) -> Ruleset:
    """The Ruleset instance an entry point names, registered; any failure names the entry point
    and the package that installed it."""
    dist = entry.dist
    package = f"{dist.name} {dist.version}" if dist is not None else "an unnamed package"
    where = f"the ruleset entry point {entry.name!r} = {entry.value!r} (group {ENTRY_POINT_GROUP!r}) of the package {package}"
    todo = f"fix the package or uninstall it (pip uninstall {dist.name if dist is not None else '...'})"
    try:
        ruleset = entry.load()
    except Exception as exc:  # any error of another package's code, named with it
        raise RegistryError(f"{where} cannot be loaded ({type(exc).__name__}: {exc}); {todo}") from exc
    if not isinstance(ruleset, Ruleset):
        raise RegistryError(f'{where} names {ruleset!r}, not a Ruleset instance ("module:RULESET"); {todo}')
    try:
        return register(ruleset)
    except RegistryError as exc:
        raise RegistryError(f"{where}: {exc}; {todo}") from None


def load_entry_points() -> list[Ruleset]:
    """Register the rulesets the installed packages offer (done once, at import). importlib.metadata
    (30-50 ms of CPU: its imports, then every installed package's metadata read) is loaded only
    when some package on the path may offer one (`group_on_path`)."""
    if not group_on_path():
        return []
    from importlib.metadata import entry_points

    return [load_entry_point(entry) for entry in entry_points(group=ENTRY_POINT_GROUP)]


def group_on_path() -> bool:
    """Whether an installed package may offer a ruleset: the group's name is in the entry_points.txt
    of a package's metadata (`*.dist-info`, `*.egg-info`) in a folder of sys.path, where
    importlib.metadata finds them. An egg or a zip on the path is left to importlib.metadata to
    read (True), so no package that offers a ruleset is missed. A few ms of CPU where
    importlib.metadata takes 30-50."""
    for entry in sys.path:
        folder = str(entry) or "."  # a Path put on sys.path is searched too
        if folder.lower().endswith(".egg"):
            return True
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return True
        except OSError:
            continue
        metadata = (name for name in names if name.lower().endswith((".dist-info", ".egg-info")))
        if any(_names_group(os.path.join(folder, name, "entry_points.txt")) for name in metadata):
            return True
    return False


def _names_group(entry_points_txt: str) -> bool:
    try:
        with open(entry_points_txt, "rb") as f:
            return ENTRY_POINT_GROUP.encode() in f.read()
    except OSError:
        return False


for _package in PACKAGES:
    register(load(f"{__name__}.{_package}.rules"))
load_entry_points()


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

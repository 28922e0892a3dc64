"""The ruleset registry (ktlog/rulesets/__init__.py) and the ruleset protocol: a new ruleset is
one package that registers, plays through its simulator and the reducer, and offers its own
kinds of move; a bad entry fails loudly; KT21 re-cites KT24 pages by its citation table."""

from __future__ import annotations

import sys
import textwrap

import pytest

from ktlog import events as ev
from ktlog.errors import RuleViolation
from ktlog.play.moves import Moves
from ktlog.play.simulate import simulate_games
from ktlog.reducer import fold
from ktlog.rules.ruleset import Ruleset
from ktlog.rulesets import RULESETS, RegistryError, get_ruleset, load, register

RULES = """
from ktlog import events as ev
from ktlog.rulesets.preliminary.rules import PreliminaryOps


class DummyOps(PreliminaryOps):
    name = "dummy-ops"
    title = "Dummy Ops"
    simulator = "dummy_ruleset.simulator"
    moves = "dummy_ruleset.moves"
    events = PreliminaryOps.events - {ev.KillzoneActionPerformed}


RULESET = DummyOps()
"""
SIMULATOR = """
from ktlog.ruleset_play.kt24 import simulator


class Simulator(simulator.Simulator):
    ruleset = "dummy-ops"
"""
MOVES = """
from ktlog import events as ev
from ktlog.rules.candidates import each_player, in_strategy

MOVES = {"concede_early": in_strategy(each_player(lambda p: ev.GameConceded(player=p)))}
"""


@pytest.fixture
def dummy(tmp_path, monkeypatch):
    """A ruleset in a package of its own, outside ktlog, registered for the test."""
    package = tmp_path / "dummy_ruleset"
    package.mkdir()
    for name, text in (("__init__", ""), ("rules", RULES), ("simulator", SIMULATOR), ("moves", MOVES)):
        (package / f"{name}.py").write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    ruleset = register(load("dummy_ruleset.rules"))
    yield ruleset
    del RULESETS[ruleset.name]
    for module in [m for m in sys.modules if m.startswith("dummy_ruleset")]:
        del sys.modules[module]


def test_a_ruleset_package_registers_and_plays_through_the_simulator_and_the_reducer(dummy):
    assert get_ruleset("dummy-ops") is dummy
    games = list(simulate_games(3, 5, ruleset="dummy-ops"))
    for _, g in games:
        state = fold(g.events)
        assert state.ruleset == "dummy-ops" and state.phase == "over" and state.result is not None
    with pytest.raises(RuleViolation, match="KillzoneActionPerformed is not part of Dummy Ops"):
        fold([*games[0][1].events[:1], ev.KillzoneActionPerformed(operative="x", action="Guard")])


def test_a_ruleset_offers_its_own_kinds_of_move(dummy):
    _, g = next(simulate_games(1, 5, ruleset="dummy-ops"))
    strategy = next(i for i, e in enumerate(g.events) if isinstance(e, ev.TurningPointStarted))
    state = fold(g.events[: strategy + 3])
    assert Moves(state).part_of("concede_early")
    assert Moves(state).options("concede_early")


def test_a_bad_registry_entry_fails_loudly(tmp_path, monkeypatch, dummy):
    with pytest.raises(RegistryError, match="'ktlog.rulesets.preliminery.rules' cannot be imported"):
        load("ktlog.rulesets.preliminery.rules")
    (tmp_path / "dummy_ruleset" / "empty.py").write_text("")
    with pytest.raises(RegistryError, match="names no Ruleset instance RULESET"):
        load("dummy_ruleset.empty")
    with pytest.raises(RegistryError, match="two rulesets are called 'dummy-ops'"):
        register(dummy)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "Dummy Ops"}, "a ruleset's name is 1 to 40 lower-case letters"),
        ({"name": "x" * 41}, "a ruleset's name is 1 to 40"),
        ({"title": ""}, "needs a title and a source"),
        ({"labels": ("weather",)}, "asks for labels a game does not have: weather"),
    ],
)
def test_a_ruleset_the_faces_could_not_show_or_store_is_refused(dummy, fields, message):
    odd = type("OddOps", (type(dummy),), fields)()
    with pytest.raises(RegistryError, match=message):
        register(odd)


def test_a_ruleset_that_misses_a_hook_cannot_be_made():
    class Unfinished(Ruleset):
        name, title, source = "unfinished", "Unfinished", "none"

    with pytest.raises(TypeError, match="abstract"):
        Unfinished()


@pytest.mark.parametrize(
    ("rule", "cited"),
    [
        ("pg 38", "001 Firefight phase"),
        ("Fight, pg 45", "Fight, 001 Fight"),
        ("pg 37, pg 54", "001 Initiative and Strategy phases, 001 Command Points"),
        ("pg 84-85", "KT24 pg 84-85"),
        ("001 Overwatch", "001 Overwatch"),
    ],
)
def test_kt21_cites_the_shared_rules_in_its_own_sections(rule, cited):
    assert get_ruleset("kt21").cite(rule) == cited
    assert get_ruleset("kt24-preliminary").cite(rule) == rule

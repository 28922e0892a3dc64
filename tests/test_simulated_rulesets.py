"""One property test over every registered ruleset's simulator (ktlog/play/simulate.py): each
random game is stored under the ruleset asked for, no event of it is refused, no op passes its
cap and no player the score's maximum, and the battle ends as the ruleset says.

It is parametrised over the registry, so a ruleset registered later (a package of ktlog's, one
from an entry point, or the copy of Preliminary Ops below, which names only the shared
simulator) is covered without a line here."""

from __future__ import annotations

import pytest
from folding import states_after_each_event
from hypothesis import given, settings
from hypothesis import strategies as st

from ktlog.play.simulate import load_sim_rosters, simulate_into
from ktlog.reducer import fold
from ktlog.rulesets import RULESETS, register
from ktlog.rulesets.preliminary.rules import PreliminaryOps
from ktlog.storage.store import Store

ROSTERS = load_sim_rosters()


class CopiedOps(PreliminaryOps):
    """Preliminary Ops under another name: its simulator is the one Preliminary Ops names."""

    name = "copied-preliminary"
    title = "Copied Preliminary Ops"


@pytest.fixture(scope="module", autouse=True)
def copied():
    register(CopiedOps())
    yield
    del RULESETS[CopiedOps.name]


SIMULATED = [*(name for name, r in RULESETS.items() if r.simulator), CopiedOps.name]


def test_every_ruleset_of_ktlog_has_a_simulator():
    assert [name for name, r in RULESETS.items() if not r.simulator and name != CopiedOps.name] == []


@pytest.mark.parametrize("name", SIMULATED)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_simulated_game_keeps_its_rulesets_rules_and_is_stored_under_it(name, seed):
    ruleset = RULESETS[name]
    with Store(":memory:") as store:
        (game_id,) = simulate_into(store, 1, seed, ruleset=name)
        assert store.game(game_id).ruleset == name
        events = [envelope.payload for envelope in store.events(game_id)]
        stored = store.state(game_id)
    assert stored.ruleset == name
    assert not [e for e in events if getattr(e, "override", None)]  # no event was refused and passed with a reason
    for state in states_after_each_event(events):
        caps, most = ruleset.vp_caps(state)
        for p in state.players.values():
            assert p.cp >= 0
            assert set(p.vp) <= set(ruleset.ops)
            assert all(vp <= caps[op] for op, vp in p.vp.items()), (p.name, p.vp, caps)
            assert p.total_vp <= most
            assert 0 <= p.kill_grade <= 5  # pg 84's table
        for op in state.operatives.values():
            assert op.incapacitated == (op.wounds <= 0)
    assert fold(events) == state == stored
    assert state.phase == "over" and state.result is not None
    if state.result.ended_by == "battle" and ruleset.turning_points:
        assert state.turning_point == ruleset.turning_points
    if state.result.ended_by == "battle" and ruleset.ops:
        totals = {n: p.total_vp for n, p in state.players.items()}
        assert state.result.winners == [n for n, vp in totals.items() if vp == max(totals.values())]
        assert state.result.draw == (len(state.result.winners) > 1)

"""The record screen asks a ruleset's own kinds of move from their description
(ktlog.play.questions), with no flow of their own: each question a dialog with its label and its
legal values, whole at 80x24 and 120x40."""

from __future__ import annotations

import pytest
from conftest import expend_all
from test_tui_rulesets import approved_selected, joint, kt21_overwatch_next, recorded, stored
from tui_support import answer, cut_texts, message, press, screen_strips, tui_test

from ktlog import events as ev
from ktlog.rulesets.approved.events import TacOpSelected
from ktlog.rulesets.joint.events import ReinforcementsArrived
from ktlog.rulesets.kt21.events import MissionVPScored
from ktlog.tui.app import make_app
from ktlog.tui.flows import FLOWS

SIZES = [(80, 24), (120, 40)]


def shown(app) -> str:
    return "\n".join(strip.text for strip in screen_strips(app.screen))


def test_no_ruleset_kind_has_a_flow_of_its_own():
    assert not {
        "tac_op",
        "scouting",
        "reveal",
        "primary_op",
        "tac_op_vp",
        "reinforcements",
        "escape",
        "normal_move",
        "pass_action",
        "mission_vp",
        "overwatch",
    } & set(FLOWS)


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_a_tac_op_is_asked_from_its_questions(store, size):
    gid = stored(store, approved_selected())
    app = make_app(store, screen="record", game_id=gid)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "T")
        assert "Tac op: Alice" in shown(app) and "Tac op: Bob" in shown(app)  # whose: one move each
        await press(pilot, "1")
        assert "Alice's tac op: its archetype" in shown(app) and "Security" in shown(app) and "Recon" in shown(app)
        assert not cut_texts(app.screen)
        await press(pilot, "2")
        assert "Alice's tac op: its name" in shown(app) and "as on the card" in shown(app)
        assert not cut_texts(app.screen)
        await answer(pilot, "Flank")
        assert "Alice selects a tac op (hidden)" in message(app)
    assert recorded(store, gid, 1) == [TacOpSelected(player="Alice", tac_op="Flank", archetype="Recon")]


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_a_number_and_its_reason_on_one_line_then_a_pick(store, size):
    """KT21 VP: the VP and what scored them typed together, then which card (001)."""
    gid = stored(store, kt21_overwatch_next())
    app = make_app(store, screen="record", game_id=gid)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "V")
        assert "1 VP: Alice" in shown(app) and "2 VP: Bob" in shown(app)  # Alice's turn: hers first
        await press(pilot, "1")
        assert "VP, then what scored them" in shown(app)
        await answer(pilot, "x controls two markers")
        assert "does not start with a number" in message(app)  # said, nothing recorded
        await press(pilot, "V", "1")
        await answer(pilot, "3 controls two markers")
        assert "m mission" in shown(app) and "t tac" in shown(app)  # picked by its first letter
        await press(pilot, "t")
        assert "Alice scores 3VP" in message(app)
    assert recorded(store, gid, 1) == [MissionVPScored(player="Alice", vp=3, category="tac", reason="controls two markers")]


@pytest.mark.parametrize("size", SIZES)
@tui_test
async def test_a_second_answer_legal_only_with_the_first(store, size):
    """Joint Ops reinforcements (pg 92, 94): two NPOs that are not Heavy return; once the first
    is picked the other is the only legal second, taken without asking."""
    g = joint("sabotage")
    g.add(*(ev.DamageInflicted(operative=n, damage=7, source="other") for n in ("n1", "n2")))
    expend_all(g).end_turning_point().add(ev.TurningPointStarted(turning_point=2))
    g.add(ev.RolledOff(purpose="initiative", rolls={"Alice": 5, "NPOs": 2}), ev.InitiativeDecided(player="Alice"))
    gid = stored(store, g)
    app = make_app(store, screen="record", game_id=gid)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "p", "G")
        assert "Reinforcements: the NPOs that return" in shown(app) and not cut_texts(app.screen)
        await press(pilot, "2")
        assert "reinforcements: n2, n1 return" in message(app)
    assert recorded(store, gid, 1) == [ReinforcementsArrived(operatives=("n2", "n1"))]

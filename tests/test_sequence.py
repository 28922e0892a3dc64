"""The game sequence (pg 36-39, pg 110): set-up, initiative and its ties, CP, gambits, activations."""

from __future__ import annotations

import pytest
from conftest import card, expend_all, game, next_turning_point, play_out

from ktlog.errors import InvalidEvent, RuleViolation
from ktlog.events import (
    ActivationEnded,
    CounteractStarted,
    CritOpRolled,
    DropZoneChosen,
    EquipmentSelected,
    FirefightPloyUsed,
    GambitPassed,
    InitiativeDecided,
    ObjectiveMarkerSetUp,
    OperativeActivated,
    OperativeAdded,
    OperativeSetUp,
    PlayerJoined,
    RolledOff,
    StrategicGambitUsed,
    TurningPointEnded,
    TurningPointStarted,
)
from ktlog.play.builder import dash
from ktlog.reducer import apply, apply_in_place, fold
from ktlog.rules.setup import next_to_set_up
from ktlog.state import Checkpoint


def test_a_game_starts_with_game_created():
    from ktlog.reducer import fold

    with pytest.raises(InvalidEvent, match="starts with GameCreated"):
        fold([PlayerJoined(player="Alice", kill_team="x")])


def test_a_third_player_is_refused_in_a_two_player_ruleset():
    g = game(to="setup")
    with pytest.raises(InvalidEvent, match="is for 2 players"):
        g.add(PlayerJoined(player="Carol", kill_team="x"))


def test_setup_rolloff_tie_is_rerolled_pg55():
    g = game(to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Alice": 3, "Bob": 3}))
    with pytest.raises(InvalidEvent, match="roll off again"):
        g.add(InitiativeDecided(player="Alice"))
    g.add(RolledOff(purpose="setup", rolls={"Alice": 2, "Bob": 5}), InitiativeDecided(player="Alice"))
    assert g.state.decider == "Bob" and g.state.setup_initiative == "Alice"


def test_a_decided_rolloff_is_not_rolled_again_for_the_same_purpose_pg55():
    """Roll off again only after a tie (pg 55): a second decisive roll-off is a double entry
    (a phone's double tap), refused until an override names the rule that calls for it."""
    g = game(to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Alice": 6, "Bob": 1}))
    with pytest.raises(RuleViolation, match="the setup roll-off is decided already: Alice decides") as refused:
        g.add(RolledOff(purpose="setup", rolls={"Alice": 6, "Bob": 1}))
    assert refused.value.rule == "roll-off, pg 55"
    g.add(RolledOff(purpose="setup", rolls={"Alice": 1, "Bob": 2}, override="a rule lets Bob re-roll"))
    g.add(InitiativeDecided(player="Bob"))
    g = game(5, 5, to="battle")
    g.add(TurningPointStarted(turning_point=1), RolledOff(purpose="initiative", rolls={"Alice": 4, "Bob": 4}))  # a tie the rules settle (pg 110)
    with pytest.raises(RuleViolation, match="the initiative roll-off is decided already: Bob decides"):
        g.add(RolledOff(purpose="initiative", rolls={"Alice": 4, "Bob": 4}))


def test_markers_drop_zones_and_setup_order_pg81_pg110():
    g = game(to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Alice": 6, "Bob": 1}), InitiativeDecided(player="Alice"))
    # The player without initiative places the centreline marker first (pg 81).
    with pytest.raises(RuleViolation, match="Bob places objective marker 1"):
        g.add(ObjectiveMarkerSetUp(marker="m1", player="Alice"))
    g.add(ObjectiveMarkerSetUp(marker="m1", player="Bob"), ObjectiveMarkerSetUp(marker="m2", player="Alice"), ObjectiveMarkerSetUp(marker="m3", player="Bob"))
    with pytest.raises(RuleViolation, match="Alice chooses a drop zone first \\(drop zones are chosen in player order, initiative first\\)"):
        g.add(DropZoneChosen(player="Bob", drop_zone="south"))
    g.add(DropZoneChosen(player="Alice", drop_zone="north"))
    with pytest.raises(RuleViolation, match="taken"):
        g.add(DropZoneChosen(player="Bob", drop_zone="north"))
    with pytest.raises(InvalidEvent, match="operatives are set up after .*equipment selection"):
        g.add(OperativeSetUp(operative="a1"))


def test_equipment_is_selected_after_the_battle_is_set_up_pg110():
    # 000 pg 110: "1. Set up the battle" (roll-off, objective markers, drop zones) comes before
    # "2. Select operatives" (operatives, up to four equipment options, then each player gains 2CP).
    g = game(to="setup")
    with pytest.raises(RuleViolation, match=r"equipment is selected after set-up initiative, objective markers, the crit op, drop zones .*\(pg 110\)"):
        g.add(EquipmentSelected(player="Alice", equipment=("Ammo cache",)))
    g.add(RolledOff(purpose="setup", rolls={"Alice": 6, "Bob": 1}), InitiativeDecided(player="Alice"))
    g.add(ObjectiveMarkerSetUp(marker="m1", player="Bob"), ObjectiveMarkerSetUp(marker="m2", player="Alice"), ObjectiveMarkerSetUp(marker="m3", player="Bob"))
    g.add(CritOpRolled(roll=1), DropZoneChosen(player="Alice", drop_zone="north"))
    with pytest.raises(RuleViolation, match=r"equipment is selected after drop zones"):
        g.add(EquipmentSelected(player="Bob", equipment=()))
    g.add(DropZoneChosen(player="Bob", drop_zone="south"))
    g.add(EquipmentSelected(player="Alice", equipment=("Ammo cache",)), EquipmentSelected(player="Bob", equipment=()))
    assert [g.state.players[p].cp for p in ("Alice", "Bob")] == [2, 2]  # the set-up CP, once both have selected


def test_operatives_set_up_in_alternating_thirds_with_conceal_orders():
    g = game(5, 5, to="battle")
    # Thirds of 5 rounding up is 2: Alice 2, Bob 2, Alice 2, Bob 2, Alice 1, Bob 1.
    assert all(o.set_up and o.order == "conceal" for o in g.state.operatives.values())
    from ktlog.events import OperativeSetUp as SetUp

    order = [g.state.operatives[e.operative].player for e in g.events if isinstance(e, SetUp)]
    assert order == ["Alice"] * 2 + ["Bob"] * 2 + ["Alice"] * 2 + ["Bob"] * 2 + ["Alice", "Bob"]


@pytest.mark.parametrize("kept", [False, True], ids=["its own operatives", "operatives shared with a checkpoint"])
def test_a_player_who_has_begun_setting_up_adds_no_operative_and_one_added_late_counts_in_the_thirds_pg110(kept):
    """Operatives are selected (pg 110, step 2) before they are set up (step 3): Alice, who has
    set up two, may add none; Bob, who has set up none, adds a sixth, and his thirds are then of
    6 (2 each). On a state folded from the start (its operatives its own) and on one restored
    from a checkpoint (operatives shared with it, counted again), the count then kept by the
    rules (`GameState.count`)."""
    events = game(5, 5, to="battle").events
    first = next(i for i, e in enumerate(events) if isinstance(e, OperativeSetUp))
    before = events[: first + 2]  # Alice's a1 and a2 set up

    def begun():
        state = fold(before)
        return Checkpoint(state).restore() if kept else state

    with pytest.raises(InvalidEvent, match=r"Alice has begun setting up operatives; operatives are selected before .*pg 110"):
        apply_in_place(begun(), OperativeAdded(player="Alice", operative="a6", datacard=card()), len(before) + 1)
    state = begun()
    apply_in_place(state, OperativeAdded(player="Bob", operative="b6", datacard=card()), len(before) + 1)
    order = []
    while (who := next_to_set_up(state)) is not None:
        order.append(who)
        op = next(o for o in state.operatives_of(who) if not o.set_up)
        apply_in_place(state, OperativeSetUp(operative=op.id), state.seq + 1)
    assert order == ["Bob"] * 2 + ["Alice"] * 2 + ["Bob"] * 2 + ["Alice"] + ["Bob"] * 2
    assert not state.warnings  # every one in its turn
    assert all(o.set_up for o in state.scan())


def test_cp_income_2_in_setup_1_per_tp_and_2_without_initiative_from_tp2():
    g = game(5, 5, to="battle")
    assert [g.state.players[p].cp for p in ("Alice", "Bob")] == [2, 2]
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    assert [g.state.players[p].cp for p in ("Alice", "Bob")] == [3, 3]  # TP1: 1 each, even without initiative
    next_turning_point(g, initiative="Alice")
    assert [g.state.players[p].cp for p in ("Alice", "Bob")] == [4, 5]  # TP2: Bob without initiative gains 2


def test_tp1_tie_decided_by_the_player_without_setup_initiative_pg110():
    g = game(5, 5, to="battle")
    g.add(TurningPointStarted(turning_point=1), RolledOff(purpose="initiative", rolls={"Alice": 4, "Bob": 4}))
    assert g.state.decider == "Bob"  # Alice had set-up initiative


def test_later_tie_decided_by_the_player_without_initiative_last_tp_pg37():
    g = game(5, 5)  # Alice has initiative in TP1
    expend_all(g)
    g.end_turning_point()
    g.add(TurningPointStarted(turning_point=2), RolledOff(purpose="initiative", rolls={"Alice": 2, "Bob": 2}))
    assert g.state.decider == "Bob"
    g.add(InitiativeDecided(player="Bob"))
    g.add(GambitPassed(player="Bob"), GambitPassed(player="Alice"))
    expend_all(g)
    g.end_turning_point()
    g.add(TurningPointStarted(turning_point=3), RolledOff(purpose="initiative", rolls={"Alice": 6, "Bob": 6}))
    assert g.state.decider == "Alice"


def test_gambits_alternate_from_initiative_each_once_per_tp_until_both_pass():
    g = game(5, 5, to="battle")
    g.add(TurningPointStarted(turning_point=1), RolledOff(purpose="initiative", rolls={"Alice": 2, "Bob": 5}), InitiativeDecided(player="Bob"))
    with pytest.raises(RuleViolation, match="Bob's turn in the gambit step"):
        g.add(GambitPassed(player="Alice"))
    g.add(StrategicGambitUsed(player="Bob", gambit="Seize Ground"), GambitPassed(player="Alice"))
    with pytest.raises(RuleViolation, match="already used the gambit 'seize ground'"):
        g.add(StrategicGambitUsed(player="Bob", gambit="seize ground"))
    g.add(StrategicGambitUsed(player="Bob", gambit="Bolster"), GambitPassed(player="Alice"))
    assert g.state.phase == "strategy"  # Alice's pass after a gambit: not yet both in succession
    g.add(GambitPassed(player="Bob"))
    assert g.state.phase == "firefight" and g.state.next_player == "Bob"
    assert g.state.players["Bob"].cp == 1  # 2 + 1 - 2 gambits


def test_cp_never_goes_negative_and_command_reroll_is_not_once_per_tp():
    g = game(5, 5)
    assert g.state.players["Alice"].cp == 3
    for _ in range(3):
        g.add(FirefightPloyUsed(player="Alice", ploy="Command Re-roll"))
    assert g.state.players["Alice"].cp == 0
    with pytest.raises(RuleViolation, match="CP never goes below 0") as err:
        g.add(FirefightPloyUsed(player="Alice", ploy="Command Re-roll"))
    assert not err.value.overridable
    g.add(FirefightPloyUsed(player="Bob", ploy="Heroic Stand"))
    with pytest.raises(RuleViolation, match="already used the ploy"):
        g.add(FirefightPloyUsed(player="Bob", ploy="Heroic Stand"))


def test_activations_alternate_and_the_other_side_finishes_alone():
    g = game(2, 4)
    with pytest.raises(RuleViolation, match="Alice's turn"):
        g.add(OperativeActivated(operative="b1", order="engage"))
    g.activate("a1", "engage")
    with pytest.raises(RuleViolation, match="expended and cannot be activated"):
        g.add(OperativeActivated(operative="a1", order="engage"))
    with pytest.raises(RuleViolation, match="Bob's turn"):
        g.add(OperativeActivated(operative="a2", order="engage"))
    g.activate("b1", "engage").activate("a2", "engage").activate("b2", "engage")
    # Alice has no ready operatives: Bob activates the rest in a row.
    g.activate("b3", "engage").activate("b4", "engage")
    g.end_turning_point()
    assert g.state.phase == "between"


def test_turning_point_ends_only_when_every_operative_is_expended():
    g = game(2, 2)
    g.activate("a1", "engage")
    with pytest.raises(RuleViolation, match="still ready: a2, b1, b2"):
        g.add(TurningPointEnded(turning_point=1))


def test_counteract_conditions_pg39():
    g = game(1, 3)
    g.activate("a1", "engage")
    with pytest.raises(RuleViolation, match="still has ready operatives"):
        g.add(CounteractStarted(operative="b1"))
    g.activate("b1", "engage")
    # Alice's only operative is expended with an Engage order and Bob still has ready ones.
    g.counteract("a1", dash())
    assert g.state.activation is None and g.state.next_player == "Bob"
    assert g.state.operatives["a1"].counteracted_tp == 1
    g.activate("b2", "engage")
    with pytest.raises(RuleViolation, match="already counteracted this turning point"):
        g.add(CounteractStarted(operative="a1"))


def test_a_conceal_operative_cannot_counteract():
    g = game(1, 2)
    g.activate("a1", "conceal").activate("b1", "engage")
    with pytest.raises(RuleViolation, match="Conceal order and cannot counteract"):
        g.add(CounteractStarted(operative="a1"))


def test_counteract_is_one_1ap_action_for_free():
    from ktlog.play.builder import fall_back

    g = game(1, 2)
    g.activate("a1", "engage").activate("b1", "engage")
    g.add(CounteractStarted(operative="a1"))
    with pytest.raises(RuleViolation, match="counteract performs a 1AP action"):
        g.add(fall_back()("a1"))
    g.add(ActivationEnded(operative="a1"))  # a counteract may end without its action
    assert g.state.next_player == "Bob"


def test_the_battle_ends_after_four_turning_points():
    g = game(1, 1)
    play_out(g)
    assert g.state.phase == "over" and g.state.result is not None
    with pytest.raises(RuleViolation, match="the game is over"):
        g.add(TurningPointStarted(turning_point=5))


def test_apply_is_pure():
    g = game(2, 2)
    before = g.state
    snapshot = repr(before)
    after = apply(before, OperativeActivated(operative="a1", order="engage"))
    assert repr(before) == snapshot
    assert after.activation is not None and before.activation is None


def test_undo_rewinds_one_event_at_a_time():
    g = game(2, 2)
    g.activate("a1", "engage", dash())
    wounds_before = g.state.operatives["a1"].status
    g.undo()  # voids ActivationEnded
    assert g.state.activation is not None and g.state.activation.actions == ["Dash"]
    g.undo()  # voids the Dash
    assert g.state.activation.actions == []
    g.add(ActivationEnded(operative="a1"))
    assert g.state.operatives["a1"].status == wounds_before == "expended"


def test_an_event_of_another_ruleset_is_refused():
    from ktlog.rulesets.approved.events import TacOpSelected

    g = game(2, 2, to="setup")
    with pytest.raises(InvalidEvent, match="TacOpSelected is not part of KT24 Preliminary Ops"):
        g.add(TacOpSelected(player="Alice", tac_op="Recon Sweep", archetype="Recon"))

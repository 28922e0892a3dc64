"""KT24 Joint Ops (core book, file 000, pg 87-95): one players' side against NPOs, the missions'
budgets, initiative and gambit step, reinforcements, Sabotage, Escape, and the end of the battle.
Property tests play random games with the Joint Ops simulator."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial

import pytest
from click.testing import CliRunner
from conftest import ROSTERS, card
from folding import states_after_each_event

from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES
from ktlog.errors import InvalidEvent, RuleViolation
from ktlog.events import (
    ActivationEnded,
    DamageInflicted,
    DropZoneChosen,
    EquipmentSelected,
    FirefightPloyUsed,
    GambitPassed,
    GameCreated,
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
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, act, charge, dash, fight, reposition, shoot
from ktlog.play.importer import import_file
from ktlog.play.simulate import simulate_games
from ktlog.reducer import fold
from ktlog.rules.setup import next_to_set_up
from ktlog.rulesets.joint.events import MarkerSabotaged, OperativeEscaped, ReinforcementsArrived
from ktlog.rulesets.joint.rules import MISSIONS, mission_of
from ktlog.state import PLAYER_STATUS, GameState
from ktlog.storage.store import Store
from ktlog.text.json_views import score_view
from ktlog.text.render import render_score

NPO = {o.id: o.datacard for o in load_roster(ROSTERS / "npo.toml").operatives}
FOUR_NPOS = ("trooper-marksman", "trooper-marksman", "trooper-marksman", "heavy-brawler")


def joined(mission: str = "breach", npos: tuple[str, ...] = FOUR_NPOS, players: int = 3) -> GameBuilder:
    """Alice (a1, a2 ... with 10 wounds each) and the NPOs (trooper-marksman-1 ...), selected."""
    g = GameBuilder(ruleset="kt24-joint", killzone="volkus", date="2026-11-21", mission=mission)
    g.add(PlayerJoined(player="Alice", kill_team="Alice's team"))
    for i in range(1, players + 1):
        g.add(OperativeAdded(player="Alice", operative=f"a{i}", datacard=card()))
    g.add(PlayerJoined(player="NPOs", kill_team="NPOs", npo=True))
    for name in dict.fromkeys(npos):
        for i in range(1, npos.count(name) + 1):
            g.add(OperativeAdded(player="NPOs", operative=f"{name}-{i}", datacard=NPO[name]))
    return g


def joint(mission: str = "breach", npos: tuple[str, ...] = FOUR_NPOS, players: int = 3, markers: int = 2, to: str = "firefight") -> GameBuilder:
    """Set up (Alice wins the roll-off and takes initiative, places the markers); `to`
    "battle": before TP1; "firefight": TP1 with Alice to activate."""
    g = joined(mission, npos, players)
    g.add(RolledOff(purpose="setup", rolls={"Alice": 6, "NPOs": 1}), InitiativeDecided(player="Alice"))
    for i in range(1, markers + 1):
        g.add(ObjectiveMarkerSetUp(marker=f"m{i}", player="Alice"))
    g.add(DropZoneChosen(player="Alice", drop_zone="south"), DropZoneChosen(player="NPOs", drop_zone="north"))
    g.add(EquipmentSelected(player="Alice"), EquipmentSelected(player="NPOs"))
    while (who := next_to_set_up(g.state)) is not None:
        g.add(OperativeSetUp(operative=next(o for o in g.state.operatives_of(who) if not o.set_up).id))
    if to == "firefight":
        g.turning_point(1, {"Alice": 5, "NPOs": 2}, "Alice")
    return g


def kill(g: GameBuilder, *operatives: str) -> GameBuilder:
    for op in operatives:
        g.add(DamageInflicted(operative=op, damage=99, source="other"))
    return g


def expend_all(g: GameBuilder) -> GameBuilder:
    while any(o.status == "ready" for o in g.state.operatives.values()):
        s = g.state
        player = s.next_player if s.ready_operatives(s.next_player) else s.opponent(s.next_player)
        g.activate(s.ready_operatives(player)[0].id, "conceal")
    return g


def start_tp(g: GameBuilder, initiative: str = "Alice") -> GameBuilder:
    """End the turning point and start the next; the gambit step is left to the test."""
    expend_all(g).add(TurningPointEnded(turning_point=g.state.turning_point))
    rolls = {"Alice": 5, "NPOs": 2} if initiative == "Alice" else {"Alice": 2, "NPOs": 5}
    return g.add(
        TurningPointStarted(turning_point=g.state.turning_point + 1), RolledOff(purpose="initiative", rolls=rolls), InitiativeDecided(player=initiative)
    )


def pass_all(g: GameBuilder) -> GameBuilder:
    while g.state.phase == "strategy":
        g.add(GambitPassed(player=g.state.gambit_turn))
    return g


# --- missions and sides (pg 87) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "name"), [("breach", "Breach"), ("Sabotage", "Sabotage"), ("escape", "Escape"), ("1", "Breach"), ("02", "Sabotage"), ("3", "Escape")]
)
def test_the_mission_by_name_or_by_the_d3_pg87(label, name):
    assert mission_of(label).name == name


def test_the_missions_budgets_pg90_pg92_pg94():
    assert {k: m.npo_wounds for k, m in MISSIONS.items()} == {"breach": 90, "sabotage": 90, "escape": 77}
    assert [k for k, m in MISSIONS.items() if m.reinforcements] == ["sabotage", "escape"]


@pytest.mark.parametrize("label", [None, "4", "assassinate"])
def test_a_game_without_a_mission_is_refused_pg87(label):
    with pytest.raises(InvalidEvent, match="a Joint Ops game names its mission and .*: give breach, sabotage or escape"):
        fold([GameCreated(ruleset="kt24-joint", killzone="volkus", date="2026-11-21", mission=label)])


def test_a_replay_seeks_a_joint_ops_game_as_a_fold():
    from ktlog.files.gamelog import read_game_log
    from ktlog.play.replay import Replay

    _, sealed = read_game_log(SAMPLE_GAMES / "13_joint_ops_escape_kasrkin_coop.jsonl")
    envelopes = [e for e, _ in sealed]
    replay = Replay(envelopes, every=25)
    for seq in (1, 60, 157, 158, 170, len(envelopes)):
        expected = fold(envelopes[:seq])
        assert replay.seek(seq) == expected
    assert replay.seek(len(envelopes)).result.winner == "NPOs"


def test_co_op_players_are_one_player_pg87():
    g = joined()
    with pytest.raises(InvalidEvent, match="'Alice' is already the players' side; co-op players are still one player"):
        g.add(PlayerJoined(player="Bob", kill_team="Bob's half"))
    with pytest.raises(InvalidEvent, match="the NPOs are already 'NPOs'"):
        g.add(PlayerJoined(player="More NPOs", kill_team="x", npo=True))


def test_npos_need_no_kill_team_rules_and_vp_are_not_kept():
    g = joint(to="battle")
    assert g.state.players["NPOs"].npo and not g.state.players["Alice"].npo
    assert all(p.vp == {} for p in g.state.players.values())


def test_crit_op_and_other_mission_actions_are_not_part_of_joint_ops():
    g = joint(to="battle")
    from ktlog.events import CritOpRolled

    with pytest.raises(InvalidEvent, match="CritOpRolled is not part of KT24 Joint Ops"):
        g.add(CritOpRolled(roll=1))


# --- NPO budget (pg 90, 92, 94) and the special weapon (pg 89) ---------------------------------


@pytest.mark.parametrize(("mission", "budget"), [("breach", 90), ("sabotage", 90), ("escape", 77)])
def test_the_npo_budget_is_their_combined_wounds(mission, budget):
    # Heavy (Brawler) 14 each: 6 x 14 = 84 fits 90 but not 77; a seventh is 98.
    heavies = 6 if budget == 90 else 5
    g = joined(mission, npos=("heavy-brawler",) * heavies)
    assert sum(o.datacard.wounds for o in g.state.operatives_of("NPOs")) == 14 * heavies
    over = 14 * (heavies + 1)
    extra = OperativeAdded(player="NPOs", operative="one-more", datacard=NPO["heavy-brawler"])
    with pytest.raises(RuleViolation, match=f"'one-more' would bring the NPOs' combined Wounds to {over}, over .*'s {budget}.*pg 87"):
        g.add(extra)
    # The sources let players raise the number for difficulty (pg 87): an override sets it aside.
    g.add(OperativeAdded(player="NPOs", operative="one-more", datacard=NPO["heavy-brawler"], override="harder game"))
    assert g.state.warnings[-1].reason == "harder game"


def test_a_budget_reached_exactly_is_accepted():
    g = joined("escape", npos=("heavy-marksman",) * 5 + ("trooper-brawler",))  # 70 + 7 = 77
    assert sum(o.datacard.wounds for o in g.state.operatives_of("NPOs")) == 77


def test_only_one_in_three_trooper_marksmen_shoots_the_special_weapon_pg89():
    g = joint()
    g.activate("a1", "engage")
    g.activate("trooper-marksman-1", "engage", shoot("Special weapon", "a1", damage=0))
    g.activate("a2", "engage")
    with pytest.raises(
        RuleViolation, match="only 1 in 3 of the operatives with .Special weapon. can have it: 3 allow 1, and trooper-marksman-1 already has it.*pg 89"
    ):
        g.activate("trooper-marksman-2", "engage", shoot("Special weapon", "a1", damage=0))
    g.add(shoot("Firearm", "a1", damage=0)("trooper-marksman-2"), ActivationEnded(operative="trooper-marksman-2"))
    g = start_tp(g)
    pass_all(g).activate("a1", "engage")
    g.activate("trooper-marksman-1", "engage", shoot("Special weapon", "a1", damage=0))  # the carrier again


def test_fewer_than_three_trooper_marksmen_have_no_special_weapon():
    g = joint(npos=("trooper-marksman", "trooper-marksman", "heavy-brawler"))
    g.activate("a1", "engage")
    with pytest.raises(RuleViolation, match="2 allow 0, and so none may"):
        g.activate("trooper-marksman-1", "engage", shoot("Special weapon", "a1", damage=0))


# --- set-up, CP, initiative, gambit step (pg 87-88, pg 110) ------------------------------------


def test_npos_gain_no_cp_and_the_players_one_cp_pool():
    g = joint()
    assert g.state.players["NPOs"].cp == 0
    assert g.state.players["Alice"].cp == 2 + 1  # set-up 2CP, TP1 1CP (pg 110, pg 37)
    g = start_tp(g, initiative="NPOs")
    assert g.state.players["Alice"].cp == 3 + 2 and g.state.players["NPOs"].cp == 0  # no initiative from TP2: 2CP


def test_the_npos_always_take_initiative_when_they_win_the_rolloff_pg87():
    g = joined()
    g.add(RolledOff(purpose="setup", rolls={"Alice": 2, "NPOs": 5}))
    with pytest.raises(RuleViolation, match="the NPOs decide initiative, and they always take it.*pg 87"):
        g.add(InitiativeDecided(player="Alice"))
    g.add(InitiativeDecided(player="NPOs"))
    g = joint()
    g = start_tp(g, initiative="NPOs")  # the NPOs won TP2's roll-off
    assert g.state.initiative == "NPOs"


def test_a_tie_the_npos_decide_is_also_taken():
    g = joint()  # Alice had initiative in set-up and TP1
    expend_all(g).add(TurningPointEnded(turning_point=1), TurningPointStarted(turning_point=2), RolledOff(purpose="initiative", rolls={"Alice": 4, "NPOs": 4}))
    assert g.state.decider == "NPOs"  # the player without initiative in TP1 decides (pg 37)
    with pytest.raises(RuleViolation, match="always take it"):
        g.add(InitiativeDecided(player="Alice"))


def test_the_players_decide_freely_when_they_win():
    g = joined()
    g.add(RolledOff(purpose="setup", rolls={"Alice": 6, "NPOs": 1}), InitiativeDecided(player="NPOs"))
    assert g.state.setup_initiative == "NPOs"


def test_the_npos_always_pass_in_the_gambit_step_pg88():
    g = joint(to="battle")
    g.add(TurningPointStarted(turning_point=1), RolledOff(purpose="initiative", rolls={"Alice": 1, "NPOs": 6}), InitiativeDecided(player="NPOs"))
    with pytest.raises(RuleViolation, match="in the gambit step the NPOs always pass.*ReinforcementsArrived.*pg 88"):
        g.add(StrategicGambitUsed(player="NPOs", gambit="Ambush", cp=0))
    g.add(GambitPassed(player="NPOs"), StrategicGambitUsed(player="Alice", gambit="Seize Ground"), GambitPassed(player="NPOs"), GambitPassed(player="Alice"))
    assert g.state.phase == "firefight"


def test_npos_use_no_ploys():
    g = joint()
    with pytest.raises(RuleViolation, match="NPOs use no ploys"):
        g.add(FirefightPloyUsed(player="NPOs", ploy="Heroic Stand", cp=0))


def test_the_players_set_up_the_markers_of_the_map():
    g = joined("sabotage")
    g.add(RolledOff(purpose="setup", rolls={"Alice": 1, "NPOs": 6}), InitiativeDecided(player="NPOs"))
    with pytest.raises(RuleViolation, match="Alice places objective marker 1, not NPOs"):
        g.add(ObjectiveMarkerSetUp(marker="m1", player="NPOs"))
    for i in range(1, 6):  # as many as the map shows
        g.add(ObjectiveMarkerSetUp(marker=f"m{i}", player="Alice"))
    assert len(g.state.markers) == 5


def test_sabotage_needs_an_objective_marker_before_operatives_are_set_up_pg92():
    g = joined("sabotage")
    g.add(
        RolledOff(purpose="setup", rolls={"Alice": 6, "NPOs": 1}),
        InitiativeDecided(player="Alice"),
        DropZoneChosen(player="Alice", drop_zone="south"),
        DropZoneChosen(player="NPOs", drop_zone="north"),
    )
    # The markers belong to setting up the battle (pg 110 step 1, the sequence of pg 108-110):
    # equipment, and so the operatives, come after them.
    with pytest.raises(RuleViolation, match="equipment is selected after objective markers"):
        g.add(EquipmentSelected(player="Alice"))
    with pytest.raises(InvalidEvent, match="operatives are set up after objective markers"):
        g.add(OperativeSetUp(operative="a1"))
    joint("breach", markers=0)  # Breach and Escape need none


def test_npos_are_set_up_with_a_conceal_order_pg90():
    g = joint(to="battle")
    assert {o.order for o in g.state.operatives_of("NPOs")} == {"conceal"}


# --- Heavy NPOs (pg 89) ------------------------------------------------------------------------


def test_a_heavy_brawler_fights_twice_and_no_more():
    g = joint()
    g.activate("a1", "engage", charge("heavy-brawler-1"))
    blow = fight("Blades", "a1", "Blade", damage=1, damage_taken=0)
    g.activate("heavy-brawler-1", "engage", blow, blow, end=False)
    assert g.state.operatives["a1"].wounds == 8 and g.state.activation.ap_spent == 2
    with pytest.raises(RuleViolation, match="already performed Fight this activation"):
        g.add(blow("heavy-brawler-1"))


def test_a_heavy_marksman_shoots_twice_others_once():
    g = joint(npos=("heavy-marksman", "trooper-brawler"))
    g.activate("a1", "engage")
    g.activate("heavy-marksman-1", "engage", shoot("Firearm", "a1", damage=3), shoot("Firearm", "a1", damage=3))
    assert g.state.operatives["a1"].wounds == 4
    with pytest.raises(RuleViolation, match="already performed Shoot this activation"):
        g.activate("a2", "engage", shoot("Gun", "heavy-marksman-1", damage=0), shoot("Gun", "heavy-marksman-1", damage=0))


# --- 01 Breach (pg 90) -------------------------------------------------------------------------


def test_breach_all_npos_incapacitated_the_players_win_at_once():
    g = joint()
    g.activate("a1", "engage", shoot("Gun", "trooper-marksman-1", damage=7))
    kill(g, "trooper-marksman-2", "trooper-marksman-3")
    g.activate("heavy-brawler-1", "engage")
    g.add(OperativeActivated(operative="a2", order="engage"), shoot("Gun", "heavy-brawler-1", damage=14)("a2"))
    s = g.state
    assert s.phase == "over" and s.turning_point == 1 and s.activation is None
    assert (s.result.winner, s.result.draw, s.result.ended_by, s.result.seq) == ("Alice", False, "battle", g.seq)
    with pytest.raises(InvalidEvent, match="the game is over \\(Alice won\\)"):
        g.add(ActivationEnded(operative="a2"))


def test_breach_all_player_operatives_incapacitated_the_players_lose():
    g = joint()
    kill(g, "a1", "a2")
    assert g.state.phase == "firefight"
    kill(g, "a3")
    assert g.state.result.winner == "NPOs" and g.state.phase == "over"


def test_there_is_no_turning_point_limit():
    g = joint()
    for tp in range(2, 7):
        pass_all(start_tp(g))
        assert g.state.turning_point == tp
    assert g.state.phase == "firefight"


def test_an_escape_in_breach_is_refused_pg94():
    g = joint()
    g.activate("a1", "engage", dash())
    with pytest.raises(RuleViolation, match="operatives leave the killzone only in 03 Escape.*mission is 01 Breach.*pg 46"):
        g.add(OperativeEscaped(operative="a1"))


def test_sabotage_in_breach_is_refused_pg92():
    g = pass_all(start_tp(joint()))
    with pytest.raises(RuleViolation, match="Sabotage is the mission action of 02 Sabotage.*mission is 01 Breach"):
        g.activate("a1", "engage", act(MarkerSabotaged, marker="m1"))


# --- 02 Sabotage (pg 92) -----------------------------------------------------------------------


def test_sabotage_not_in_tp1_not_twice_and_every_marker_wins():
    g = joint("sabotage", markers=2)
    with pytest.raises(RuleViolation, match="Sabotage cannot be performed during the first turning point"):
        g.activate("a1", "engage", act(MarkerSabotaged, marker="m1"))
    g.add(ActivationEnded(operative="a1"))
    g = pass_all(start_tp(g))
    g.activate("a1", "engage", act(MarkerSabotaged, marker="m1"))
    assert g.state.markers["m1"].sabotaged
    g.activate("trooper-marksman-1", "conceal")
    with pytest.raises(RuleViolation, match="objective marker 'm1' has already been sabotaged; sabotage another one.*pg 92"):
        g.activate("a2", "engage", act(MarkerSabotaged, marker="m1"))
    g.add(act(MarkerSabotaged, marker="m2")("a2"))
    assert g.state.result.winner == "Alice" and g.state.phase == "over"
    assert score_view("x", g.state)["progress"] == {
        "mission": "02 Sabotage",
        "npos_in_killzone": 4,
        "npos_incapacitated": 0,
        "operatives_in_killzone": 3,
        "operatives_incapacitated": 0,
        "markers_sabotaged": 2,
        "markers": 2,
    }


def test_npos_do_not_sabotage():
    g = pass_all(start_tp(joint("sabotage")))
    g.activate("a1", "engage")
    with pytest.raises(RuleViolation, match="NPOs do not sabotage"):
        g.activate("trooper-marksman-1", "engage", act(MarkerSabotaged, marker="m1"))


def test_sabotage_refused_within_enemy_control_range():
    g = pass_all(start_tp(joint("sabotage"), initiative="NPOs"))
    g.activate("heavy-brawler-1", "engage", charge("a1"))
    with pytest.raises(RuleViolation, match="'a1' is within control range of heavy-brawler-1 and cannot perform Sabotage.*pg 92"):
        g.activate("a1", "engage", act(MarkerSabotaged, marker="m1"))


def test_sabotage_the_players_lose_when_all_their_operatives_fall():
    g = joint("sabotage", players=2)
    kill(g, "a1", "a2")
    assert g.state.result.winner == "NPOs"


# --- reinforcements (pg 92, 94) ----------------------------------------------------------------


SIX_NPOS = ("trooper-brawler",) * 4 + ("heavy-marksman", "tough-brawler")


def test_reinforcements_only_in_sabotage_and_escape():
    g = joint("breach", npos=SIX_NPOS)
    kill(g, "trooper-brawler-1", "trooper-brawler-2", "trooper-brawler-3")
    g = start_tp(g, initiative="NPOs")
    with pytest.raises(RuleViolation, match="01 Breach has no reinforcements; only 02 Sabotage \\(pg 92\\) and 03 Escape"):
        g.add(ReinforcementsArrived(operatives=("trooper-brawler-1", "trooper-brawler-2")))
    g.add(GambitPassed(player="NPOs"))  # nothing due in Breach


def test_reinforcements_need_half_the_npos_incapacitated():
    g = joint("sabotage", npos=SIX_NPOS)
    kill(g, "trooper-brawler-1", "trooper-brawler-2")
    g = start_tp(g, initiative="NPOs")
    with pytest.raises(RuleViolation, match="only 2 of the 6 NPOs are incapacitated; reinforcements come when half of them are.*pg 92"):
        g.add(ReinforcementsArrived(operatives=("trooper-brawler-1", "trooper-brawler-2")))
    g.add(GambitPassed(player="NPOs"))


def test_reinforcements_two_not_heavy_or_one_heavy_once_per_strategy_phase():
    g = joint("escape", npos=SIX_NPOS)
    kill(g, "trooper-brawler-1", "trooper-brawler-2", "heavy-marksman-1")
    g.activate("a1", "engage", shoot("Gun", "trooper-brawler-3", damage=2))
    g = start_tp(g, initiative="NPOs")
    # Half (3 of 6) are incapacitated: the NPOs may not pass, they call in reinforcements.
    with pytest.raises(RuleViolation, match="half the NPOs are incapacitated, so they call in reinforcements.*pg 94"):
        g.add(GambitPassed(player="NPOs"))
    with pytest.raises(RuleViolation, match="two incapacitated NPOs that are not Heavy, or one Heavy NPO"):
        g.add(ReinforcementsArrived(operatives=("trooper-brawler-1", "heavy-marksman-1")))
    with pytest.raises(RuleViolation, match="two incapacitated NPOs that are not Heavy"):
        g.add(ReinforcementsArrived(operatives=("trooper-brawler-1",)))
    with pytest.raises(InvalidEvent, match="'trooper-brawler-3' is not incapacitated"):
        g.add(ReinforcementsArrived(operatives=("trooper-brawler-1", "trooper-brawler-3")))
    g.add(ReinforcementsArrived(operatives=("heavy-marksman-1",)))
    heavy = g.state.operatives["heavy-marksman-1"]
    assert (heavy.wounds, heavy.status, heavy.order) == (14, "ready", "conceal")
    assert g.state.gambit_turn == "Alice" and g.state.cp_log[-1].source == "Reinforcements"
    g.add(GambitPassed(player="Alice"))
    with pytest.raises(RuleViolation, match="the NPOs already called in reinforcements this strategy phase"):
        g.add(ReinforcementsArrived(operatives=("trooper-brawler-1", "trooper-brawler-2")))
    g.add(GambitPassed(player="NPOs"))  # used once: now they pass
    assert g.state.phase == "firefight"
    g.activate("heavy-marksman-1", "engage", shoot("Firearm", "a1", damage=3))  # back in the battle
    # The next strategy phase: still half down (2 of 6) is not half any more.
    g = start_tp(g, initiative="NPOs")
    g.add(GambitPassed(player="NPOs"))


def test_reinforcements_refused_when_it_is_not_the_npos_gambit_turn():
    g = joint("sabotage", npos=SIX_NPOS)
    kill(g, "trooper-brawler-1", "trooper-brawler-2", "trooper-brawler-3")
    g = start_tp(g, initiative="Alice")
    with pytest.raises(RuleViolation, match="it is Alice's turn in the gambit step"):
        g.add(ReinforcementsArrived(operatives=("trooper-brawler-1", "trooper-brawler-2")))


# --- 03 Escape (pg 94) -------------------------------------------------------------------------


def test_an_escape_follows_a_move_and_removes_the_operative():
    g = joint("escape", players=3)
    g.add(OperativeActivated(operative="a1", order="engage"))
    with pytest.raises(RuleViolation, match="'a1' escapes by moving wholly over the NPOs' killzone edge.*after its move action"):
        g.add(OperativeEscaped(operative="a1"))
    g.add(reposition()("a1"), act(OperativeEscaped)("a1"))
    s = g.state
    assert s.operatives["a1"].status == "escaped" and not s.operatives["a1"].in_killzone and s.activation is None
    assert Counter(s.count(PLAYER_STATUS)) == Counter(map(PLAYER_STATUS, s.scan()))  # the ready count the activation took, kept
    assert s.next_player == "NPOs"
    with pytest.raises(InvalidEvent, match="target 'a1' has escaped the killzone.*pg 94"):
        g.activate("trooper-marksman-1", "engage", shoot("Firearm", "a1", damage=2))
    g.add(ActivationEnded(operative="trooper-marksman-1"))
    g.activate("a2", "engage")
    with pytest.raises(RuleViolation, match="NPOs do not escape"):
        g.activate("heavy-brawler-1", "engage", dash(), act(OperativeEscaped))
    g.add(ActivationEnded(operative="heavy-brawler-1"))
    g = start_tp(g)
    assert g.state.operatives["a1"].status == "escaped"  # not readied again


def test_escape_more_than_half_escaped_wins():
    g = joint("escape", players=3)
    g.activate("a1", "engage", reposition(), act(OperativeEscaped))
    g.activate("trooper-marksman-1", "conceal")
    g.activate("a2", "engage", dash(), act(OperativeEscaped))
    g.activate("trooper-marksman-2", "conceal")
    assert g.state.phase == "firefight"  # a3 is still in the killzone
    kill(g, "a3")
    assert g.state.result.winner == "Alice"  # 2 of 3 escaped: more than 50%
    assert "operatives escaped 2" in render_score("x" * 8, g.state)


def test_escape_half_is_not_more_than_half():
    g = joint("escape", players=2)
    g.activate("a1", "engage", reposition(), act(OperativeEscaped))
    g.activate("trooper-marksman-1", "conceal")
    kill(g, "a2")
    assert g.state.result.winner == "NPOs"  # 1 of 2: not more than 50%


# --- what ktlog shows ---------------------------------------------------------------------------


def test_score_shows_the_mission_and_progress_not_vp():
    g = joint("breach")
    kill(g, "trooper-marksman-1")
    text = render_score("abcdef12" * 4, g.state)
    assert "mission 01 Breach, npos in killzone 3, npos incapacitated 1, operatives in killzone 3" in text
    assert "VP" not in text and "kill grade" not in text
    view = score_view("x", g.state)
    assert [p["vp"] for p in view["players"]] == [{"total": 0}, {"total": 0}]


def test_ktlog_new_with_an_npo_side_and_a_budget_refused(tmp_path):
    db = tmp_path / "joint.db"
    run = partial(ktlog, db)
    npo = ROSTERS / "npo.toml"
    ok = run(
        "new",
        "--ruleset",
        "kt24-joint",
        "--mission",
        "breach",
        "--killzone",
        "volkus",
        "--json",
        "--player",
        f"Alice={ROSTERS / 'kasrkin.toml'}:sergeant,medic",
        "--npo",
        f"NPOs={npo}:trooper-marksman,trooper-marksman,trooper-marksman,heavy-brawler",
    )
    assert ok.exit_code == 0, ok.output
    game = json.loads(ok.stdout)["id"]
    shown = json.loads(run("show", game, "--json").stdout)
    assert [o["id"] for o in shown["operatives"] if o["player"] == "NPOs"] == [
        "trooper-marksman-1",
        "trooper-marksman-2",
        "trooper-marksman-3",
        "heavy-brawler",
    ]
    over = run(
        "new",
        "--ruleset",
        "kt24-joint",
        "--mission",
        "escape",
        "--killzone",
        "volkus",
        "--player",
        f"Alice={ROSTERS / 'kasrkin.toml'}",
        "--npo",
        f"NPOs={npo}:" + ",".join(["heavy-brawler"] * 6),
    )
    assert over.exit_code == 1 and "would bring the NPOs' combined Wounds to 84, over 03 Escape's 77" in over.output
    assert "Traceback" not in over.output


def test_the_league_leaves_joint_ops_out_unless_asked(tmp_path):
    db = tmp_path / "mixed.db"
    with Store(db) as store:
        for path in sorted(SAMPLE_GAMES.glob("1[23]_joint_ops_*.jsonl")) + sorted(SAMPLE_GAMES.glob("01_*.jsonl")):
            import_file(store, path)
    run = partial(ktlog, db)
    standings = json.loads(run("stats", "standings", "--format", "json").stdout)
    assert {r["player"] for r in standings} == {"Alice", "Bob"}
    joint_only = json.loads(run("stats", "standings", "--ruleset", "kt24-joint", "--format", "json").stdout)
    assert {r["player"] for r in joint_only} == {"Hugo", "NPOs", "Grace & Ivan"}


def test_a_league_of_joint_ops_games_only_says_why_it_is_empty(tmp_path):
    db = tmp_path / "pve.db"
    run = partial(ktlog, db)
    assert "simulated 2 games" in run("simulate", "--ruleset", "kt24-joint", "--games", "2", "--seed", "3").output
    refused = run("stats", "standings")
    assert refused.exit_code == 1
    assert (
        "the database has only games of kt24-joint and simulated games (2, from `ktlog simulate`), which the league leaves out "
        "(--ruleset asks for them, --simulated takes in the simulated ones)"
    ) in refused.output


# --- properties of random games (the Joint Ops simulator) --------------------------------------


def ktlog(db, *args):
    return CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])


def simulated(seed: int, count: int = 1):
    return [g for _, g in simulate_games(count, seed, ruleset="kt24-joint")]


@pytest.mark.parametrize("seed", range(8))
def test_random_games_give_the_npos_no_cp_and_keep_the_missions_budget(seed):
    (g,) = simulated(seed)
    budget = MISSIONS[g.state.labels["mission"]].npo_wounds
    for state in states_after_each_event(g.events):
        assert all(not p.npo or p.cp == 0 for p in state.players.values())
    assert sum(o.datacard.wounds for o in state.operatives_of("NPOs")) <= budget
    ended_as_the_mission_says(state)


def ended_as_the_mission_says(state: GameState) -> None:
    assert state.phase == "over" and state.result is not None
    r = state.result
    players = next(n for n, p in state.players.items() if not p.npo)
    ours = state.operatives_of(players)
    if r.ended_by == "concession":
        assert r.conceded_by == players and r.winner == "NPOs"
        return
    mission = MISSIONS[state.labels["mission"]]
    if mission.escape:
        assert not any(o.in_killzone for o in ours)
        assert (r.winner == players) == (2 * sum(o.status == "escaped" for o in ours) > len(ours))
    elif r.winner == "NPOs":
        assert all(o.incapacitated for o in ours)
    elif mission.sabotage:
        assert all(m.sabotaged for m in state.markers.values())
    else:
        assert all(o.incapacitated for o in state.operatives_of("NPOs"))


def test_random_games_end_as_their_mission_says_and_go_past_four_turning_points():
    games = simulated(2026, count=30)
    for g in games:
        ended_as_the_mission_says(g.state)
    assert {g.state.labels["mission"] for g in games} == set(MISSIONS)
    assert any(g.state.turning_point > 4 for g in games)  # no turning point limit in the rules
    assert any(any(type(e).__name__ == "ReinforcementsArrived" for e in g.events) for g in games)

"""KT24 Multiplayer Ops (000 pg 98-103; RULES.md sections 2, 6 and rulings 2, 5, 9): three or
four players, player order, elimination op, crit op, shared wins."""

from __future__ import annotations

import pytest
from conftest import blade, card, gun
from hypothesis import given, settings
from hypothesis import strategies as st

from ktlog.errors import InvalidEvent, RuleViolation
from ktlog.events import (
    ActivationEnded,
    CounteractStarted,
    CritOpRolled,
    DamageInflicted,
    DropZoneChosen,
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
from ktlog.play.builder import (
    GameBuilder,
    charge,
    dash,
    fight,
    loot,
    secure,
    shoot,
    transmit,
)
from ktlog.play.simulate import load_sim_rosters, simulate_games
from ktlog.rulesets.multiplayer.rules import ranks
from ktlog.storage.projections import results_rows
from ktlog.text.results import describe_result

PLAYERS = ("Ana", "Ben", "Cleo", "Dev")
BIG = card("Legionary", apl=3, save=3, wounds=14)
"""Wounds 14: counts as two for the elimination op (pg 102)."""


def mp_game(players: int = 3, ops: int | dict[str, int] = 2, *, cards: dict[str, object] | None = None, crit_op: int = 1, to: str = "firefight") -> GameBuilder:
    """A Multiplayer Ops game of Ana, Ben, Cleo (and Dev), operatives a1, a2 ..., b1 ...; player
    order Ana, Ben, Cleo, Dev in set-up and TP1. `to`: "setup" (players only), "battle" (set up),
    "firefight" (TP1, gambit step passed)."""
    g = GameBuilder(ruleset="kt24-multiplayer")
    names = PLAYERS[:players]
    for name in names:
        g.add(PlayerJoined(player=name, kill_team=f"{name}'s team"))
        for i in range(1, (ops if isinstance(ops, int) else ops[name]) + 1):
            op = f"{name[0].lower()}{i}"
            g.add(OperativeAdded(player=name, operative=op, datacard=(cards or {}).get(op, card())))
    if to == "setup":
        return g
    g.setup_multiplayer({n: 6 - i for i, n in enumerate(names)}, crit_op=crit_op)
    if to == "battle":
        return g
    return g.turning_point_order(1, {n: 6 - i for i, n in enumerate(names)})


def expend_all(g: GameBuilder) -> GameBuilder:
    """Activate every ready operative with no action, whoever is due (pg 38)."""
    while any(o.status == "ready" for o in g.state.operatives.values()):
        g.activate(g.state.ready_operatives(g.state.due_to_activate())[0].id, "conceal")
    return g


def next_tp(g: GameBuilder, rolls: dict[str, int] | list[dict[str, int]] | None = None, control=None) -> GameBuilder:
    """End the turning point (unless it has ended) and start the next; player order by `rolls`
    (default: the order players joined in)."""
    if g.state.phase != "between":
        expend_all(g).end_turning_point(control)
    names = list(g.state.players)
    return g.turning_point_order(g.state.turning_point + 1, rolls or {n: 6 - i for i, n in enumerate(names)})


# --- players (pg 98) -----------------------------------------------------------------------


def test_three_or_four_players_a_fifth_is_refused_pg98():
    g = mp_game(4, to="setup")
    with pytest.raises(InvalidEvent, match="KT24 Multiplayer Ops is for 4 players; 'Eve' would be one more"):
        g.add(PlayerJoined(player="Eve", kill_team="Eve's team"))


def test_nobody_joins_once_player_order_is_being_established_pg99():
    g = mp_game(3, to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Ana": 4, "Ben": 4, "Cleo": 1}))
    with pytest.raises(InvalidEvent, match="'Dev' joins too late: every player joins before the roll-off for player order"):
        g.add(PlayerJoined(player="Dev", kill_team="Dev's team"))


def test_two_players_cannot_start_pg98():
    g = GameBuilder(ruleset="kt24-multiplayer")
    for name in ("Ana", "Ben"):
        g.add(PlayerJoined(player=name, kill_team="team"), OperativeAdded(player=name, operative=name, datacard=card()))
    with pytest.raises(InvalidEvent, match="at least 3 players join before the roll-off"):
        g.add(RolledOff(purpose="setup", rolls={"Ana": 3, "Ben": 4}))


# --- player order (pg 99) ------------------------------------------------------------------


def test_player_order_highest_first_ties_roll_again_among_themselves_pg99():
    g = mp_game(4, to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Ana": 3, "Ben": 6, "Cleo": 3, "Dev": 6}))
    # Ben and Dev tied for 1st-2nd, Ana and Cleo for 3rd-4th: nothing settled yet.
    assert g.state.setup_initiative is None and g.state.order_ties == [["Ben", "Dev"], ["Ana", "Cleo"]]
    with pytest.raises(InvalidEvent, match="Ana and Ben are not tied with each other: each group of tied players rolls on its own"):
        g.add(RolledOff(purpose="setup", rolls={"Ana": 5, "Ben": 2}))
    with pytest.raises(InvalidEvent, match=r"Ben and Dev are tied: all of them roll again, and only them \(still tied: Ben and Dev; Ana and Cleo\)"):
        g.add(RolledOff(purpose="setup", rolls={"Ben": 2}))
    # Either tied group may roll first; a tie again keeps them rolling.
    g.add(RolledOff(purpose="setup", rolls={"Ana": 4, "Cleo": 4}))
    g.add(RolledOff(purpose="setup", rolls={"Ana": 1, "Cleo": 5}))
    assert g.state.order_ties == [["Ben", "Dev"], ["Cleo"], ["Ana"]]
    g.add(RolledOff(purpose="setup", rolls={"Ben": 2, "Dev": 5}))
    assert g.state.order == ["Dev", "Ben", "Cleo", "Ana"]
    assert g.state.setup_initiative == "Dev" and g.state.order_ties == [] and g.state.rolloff is None


def test_only_tied_players_roll_again_pg99():
    g = mp_game(3, to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Ana": 6, "Ben": 6, "Cleo": 3}))  # Cleo is 3rd
    with pytest.raises(InvalidEvent, match=r"Cleo is not tied: only the players tied on a roll keep rolling \(still tied: Ana and Ben\)"):
        g.add(RolledOff(purpose="setup", rolls={"Ana": 2, "Ben": 5, "Cleo": 1}))
    g.add(RolledOff(purpose="setup", rolls={"Ana": 2, "Ben": 5}))
    assert g.state.order == ["Ben", "Ana", "Cleo"]


def test_a_roll_off_missing_a_player_is_refused_pg99():
    g = mp_game(3, to="setup")
    with pytest.raises(InvalidEvent, match="every player rolls one D6 to establish player order; no roll for Cleo"):
        g.add(RolledOff(purpose="setup", rolls={"Ana": 3, "Ben": 4}))


def test_no_initiative_decided_in_multiplayer_pg99():
    g = mp_game(3, to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Ana": 3, "Ben": 4, "Cleo": 1}))
    with pytest.raises(InvalidEvent, match="InitiativeDecided is not part of KT24 Multiplayer Ops"):
        g.add(InitiativeDecided(player="Ana"))


def test_each_turning_point_establishes_player_order_then_the_ready_step_pg99_ruling2():
    g = mp_game(3, to="battle")
    assert {n: p.cp for n, p in g.state.players.items()} == {"Ana": 2, "Ben": 2, "Cleo": 2}  # set-up 2CP (pg 110)
    g.add(TurningPointStarted(turning_point=1), RolledOff(purpose="initiative", rolls={"Ana": 2, "Ben": 2, "Cleo": 2}))
    assert g.state.initiative is None and g.state.gambit_turn is None
    with pytest.raises(RuleViolation, match="gambit step, after initiative is decided"):
        g.add(GambitPassed(player="Ana"))
    g.add(RolledOff(purpose="initiative", rolls={"Ana": 1, "Ben": 3, "Cleo": 2}))
    s = g.state
    assert s.order == ["Ben", "Cleo", "Ana"] and s.initiative == "Ben" and s.gambit_turn == "Ben"
    assert {n: p.cp for n, p in s.players.items()} == {"Ana": 3, "Ben": 3, "Cleo": 3}  # TP1: 1CP each
    assert [(r.turning_point, r.initiative) for r in s.turning_points] == [(1, "Ben")]
    g.gambit_step()
    g = next_tp(g, {"Ana": 6, "Ben": 1, "Cleo": 4})
    # Ruling 2: from TP2 every player but the first gains 2CP.
    assert g.state.order == ["Ana", "Cleo", "Ben"]
    assert {n: p.cp for n, p in g.state.players.items()} == {"Ana": 4, "Ben": 5, "Cleo": 5}


# --- set-up in player order (pg 99, ruling 9) ----------------------------------------------


def test_markers_drop_zones_and_thirds_in_player_order_pg99_ruling9():
    g = mp_game(3, {"Ana": 3, "Ben": 6, "Cleo": 4}, to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Ana": 2, "Ben": 5, "Cleo": 4}))  # Ben, Cleo, Ana
    with pytest.raises(RuleViolation, match="Ben places objective marker 1, not Ana") as err:
        g.add(ObjectiveMarkerSetUp(marker="m1", player="Ana"))
    assert err.value.rule == "ruling 9, pg 99"
    g.add(ObjectiveMarkerSetUp(marker="m1", player="Ben"), ObjectiveMarkerSetUp(marker="m2", player="Cleo"))
    with pytest.raises(InvalidEvent, match="operatives are set up after objective markers, the crit op, drop zones"):
        g.add(OperativeSetUp(operative="b1"))
    g.add(ObjectiveMarkerSetUp(marker="m3", player="Ana"))
    g.add(ObjectiveMarkerSetUp(marker="m4", player="Ben"))  # the map shows four: round the order again
    g.add(CritOpRolled(roll=2))
    with pytest.raises(RuleViolation, match="Ben chooses a drop zone first"):
        g.add(DropZoneChosen(player="Cleo", drop_zone="B"))
    for p, z in (("Ben", "A"), ("Cleo", "B"), ("Ana", "C")):
        g.add(DropZoneChosen(player=p, drop_zone=z))
    g.equipment_and_operatives(None)
    set_up = [e.operative for e in g.events if type(e).__name__ == "OperativeSetUp"]
    # Thirds rounding up (pg 110), round player order: Ben 2 at a time, Cleo 2, Ana 1.
    assert set_up == ["b1", "b2", "c1", "c2", "a1", "b3", "b4", "c3", "c4", "a2", "b5", "b6", "a3"]
    assert g.state.crit_op == "Loot" and len(g.state.markers) == 4


def test_fewer_markers_than_players_holds_up_the_set_up_ruling9():
    g = mp_game(3, to="setup")
    g.add(RolledOff(purpose="setup", rolls={"Ana": 6, "Ben": 5, "Cleo": 4}))
    g.add(ObjectiveMarkerSetUp(marker="m1", player="Ana"), ObjectiveMarkerSetUp(marker="m2", player="Ben"), CritOpRolled(roll=1))
    for p, z in (("Ana", "A"), ("Ben", "B"), ("Cleo", "C")):
        g.add(DropZoneChosen(player=p, drop_zone=z))
    with pytest.raises(RuleViolation, match="equipment is selected after objective markers"):
        g.equipment_and_operatives(None)


# --- gambits and activations in player order (pg 37-39, pg 99) -----------------------------


def test_gambits_go_round_player_order_until_all_pass_in_succession():
    g = mp_game(3, to="battle")
    g.add(TurningPointStarted(turning_point=1), RolledOff(purpose="initiative", rolls={"Ana": 1, "Ben": 6, "Cleo": 4}))
    with pytest.raises(RuleViolation, match="it is Ben's turn in the gambit step"):
        g.add(GambitPassed(player="Cleo"))
    g.add(GambitPassed(player="Ben"), StrategicGambitUsed(player="Cleo", gambit="Seize Ground"), GambitPassed(player="Ana"))
    g.add(GambitPassed(player="Ben"))
    assert g.state.phase == "strategy"  # Cleo has not passed since her gambit
    g.add(GambitPassed(player="Cleo"))
    assert g.state.phase == "firefight" and g.state.next_player == "Ben"


def test_activations_go_round_player_order_and_skip_a_player_with_none_ready_pg99():
    g = mp_game(3, {"Ana": 1, "Ben": 2, "Cleo": 3})
    with pytest.raises(RuleViolation, match="it is Ana's turn to activate"):
        g.add(OperativeActivated(operative="b1", order="engage"))
    g.activate("a1", "engage")
    with pytest.raises(RuleViolation, match="it is Ben's turn to activate"):
        g.add(OperativeActivated(operative="c1", order="engage"))
    g.activate("b1", "engage").activate("c1", "engage")
    # Ana's operatives are all expended: Ben, then Cleo, then Ben again.
    with pytest.raises(RuleViolation, match="it is Ben's turn"):
        g.add(OperativeActivated(operative="c2", order="engage"))
    g.activate("b2", "engage").activate("c2", "engage").activate("c3", "engage")
    g.end_turning_point()
    assert g.state.phase == "between"


def test_counteracts_come_in_player_order_with_three_players_pg39():
    g = mp_game(3, {"Ana": 1, "Ben": 2, "Cleo": 2})
    g.activate("a1", "engage").activate("b1", "engage")
    with pytest.raises(RuleViolation, match="it is not Ana's turn to counteract"):
        g.add(CounteractStarted(operative="a1"))
    g.activate("c1", "engage")
    g.counteract("a1", dash())  # Ana's turn: her only operative counteracts
    assert g.state.next_player == "Ben"
    g.activate("b2", "conceal")
    # Cleo is due; Ana may not counteract in Cleo's turn, nor again this turning point.
    with pytest.raises(RuleViolation, match="not Ana's turn"):
        g.add(CounteractStarted(operative="a1"))
    g.activate("c2", "engage")
    g.end_turning_point()


def test_a_wiped_out_player_is_skipped_and_the_others_play_on_pg110():
    g = mp_game(3, {"Ana": 1, "Ben": 1, "Cleo": 2})
    g.add(DamageInflicted(operative="a1", damage=10, source="other", by="c1"))
    g.activate("b1", "engage").activate("c1", "engage").activate("c2", "engage")
    g = next_tp(g)
    assert g.state.order == ["Ana", "Ben", "Cleo"] and g.state.next_player == "Ana"
    g.activate("b1", "engage")  # Ana has nobody left: Ben goes first
    assert g.state.players["Cleo"].vp["elimination"] == 0


# --- elimination op (pg 102) ---------------------------------------------------------------


def test_ranks_share_the_higher_rank_pg102():
    # pg 102's example: four players scored, two tied for second: 1st, 2nd, 2nd, 4th.
    assert ranks({"Ana": 5, "Ben": 3, "Cleo": 3, "Dev": 1}) == {"Ana": 1, "Ben": 2, "Cleo": 2, "Dev": 4}
    assert ranks({"Ana": 2, "Ben": 2, "Cleo": 0}) == {"Ana": 1, "Ben": 1}  # Cleo incapacitated nobody: unranked
    assert ranks({"Ana": 0, "Ben": 0, "Cleo": 0}) == {}


def test_elimination_op_counts_enemies_each_player_incapacitated_pg102():
    cards = {"c1": BIG, "c2": BIG, "a1": card(weapons=(gun("Plasma", 4, 4, (4, 5), "Hot"), blade()))}
    g = mp_game(3, {"Ana": 2, "Ben": 3, "Cleo": 2}, cards=cards)
    g = next_tp(g)  # TP1: nothing, and TP1 scores nothing anyway
    # TP2. Ana incapacitates b1 (1) and c1 (Wounds 14: counts two) = 3; Ben incapacitates c2 (2);
    # Cleo only kills b2 by a mine (ignored) and Hot takes Ana's a1 (ignored).
    g.add(DamageInflicted(operative="b2", damage=10, source="mine", by="c2"))
    g.add(DamageInflicted(operative="b1", damage=10, source="devastating", by="a2"))
    g.add(DamageInflicted(operative="c1", damage=14, source="other", by="a2"))
    g.add(DamageInflicted(operative="c2", damage=14, source="other", by="b3"))
    g.activate("a1", "engage", shoot("Plasma", "b3", damage=0, hot=1))  # Hot: 2 damage to a1, not enough
    assert [p.eliminations_this_tp for p in g.state.players.values()] == [3, 2, 0]
    expend_all(g).end_turning_point()
    vp = {n: p.vp["elimination"] for n, p in g.state.players.items()}
    assert vp == {"Ana": 2, "Ben": 1, "Cleo": 0}
    assert [(v.player, v.vp, v.reason) for v in g.state.vp_log] == [
        ("Ana", 2, "ranked 1st with 3 enemy operative(s) incapacitated in TP2"),
        ("Ben", 1, "ranked 2nd with 2 enemy operative(s) incapacitated in TP2"),
    ]
    assert all(p.eliminations_this_tp == 0 for p in g.state.players.values())


def test_hot_and_friendly_fire_count_for_nobody_pg102():
    cards = {"a1": card(weapons=(gun("Plasma", 4, 4, (4, 5), "Hot"), blade()), wounds=4)}
    g = mp_game(3, cards=cards)
    g.activate("a1", "engage", shoot("Plasma", "b1", damage=0, hot=2))  # Hot: 4 damage, a1 down
    g.add(DamageInflicted(operative="b2", damage=10, source="other", by="b1"))  # friendly
    assert g.state.operatives["a1"].incapacitated and g.state.operatives["b2"].incapacitated
    assert all(p.eliminations_this_tp == 0 for p in g.state.players.values())


def test_tp1_eliminations_are_not_ranked_pg102():
    g = mp_game(3)
    g.add(DamageInflicted(operative="b1", damage=10, source="other", by="a1"))
    expend_all(g).end_turning_point()
    assert g.state.vp_log == [] and g.state.players["Ana"].eliminations_this_tp == 0


def test_a_fight_counts_for_whoever_incapacitates_attacker_or_defender_pg102():
    g = mp_game(3, cards={"b1": card(wounds=3)})
    g = next_tp(g)
    g.activate("a1", "engage", charge("b1"), fight("Blade", "b1", "Blade", damage=3, damage_taken=0))
    g.activate("b2", "engage")
    g.activate("c1", "engage", shoot("Gun", "a1", damage=10))
    expend_all(g).end_turning_point()
    # Ana 1, Cleo 1: both 1st (2VP); nobody 2nd.
    assert {n: p.vp["elimination"] for n, p in g.state.players.items()} == {"Ana": 2, "Ben": 0, "Cleo": 2}


# --- crit op (pg 103) ----------------------------------------------------------------------


def test_secure_scores_a_vp_per_marker_held_until_an_enemy_secures_it_max_3_pg103():
    g = mp_game(3, 4, crit_op=1)
    g = next_tp(g)
    g.activate("a1", "engage", secure("Ana-marker"))
    g.activate("b1", "engage", secure("Ana-marker"))  # Ben takes it over
    g.activate("c1", "engage", secure("Cleo-marker"))
    g.activate("a2", "engage", secure("Ben-marker"))
    expend_all(g).end_turning_point()
    assert {n: p.vp["crit"] for n, p in g.state.players.items()} == {"Ana": 1, "Ben": 1, "Cleo": 1}
    # TP3: nothing new is secured; markers stay secured and score again.
    g = next_tp(g)
    expend_all(g).end_turning_point()
    assert {n: p.vp["crit"] for n, p in g.state.players.items()} == {"Ana": 2, "Ben": 2, "Cleo": 2}


def test_secure_is_capped_at_3vp_per_turning_point_with_a_flag_pg103():
    g = mp_game(3, 4, crit_op=1, to="setup")
    g.setup_multiplayer({"Ana": 6, "Ben": 5, "Cleo": 4}, crit_op=1, markers=4)
    g.turning_point_order(1, {"Ana": 6, "Ben": 5, "Cleo": 4})
    g = next_tp(g, {"Ana": 6, "Ben": 2, "Cleo": 1})
    for i in range(1, 5):
        g.activate(f"a{i}", "engage", secure(f"marker-{i}"))
        g.activate(f"b{i}", "conceal").activate(f"c{i}", "conceal")
    g.end_turning_point()
    assert g.state.players["Ana"].vp["crit"] == 3
    assert g.state.warnings[-1].message == "Ana has 4 markers secured; Secure scores at most 3VP"
    assert g.state.warnings[-1].rule == "pg 103"


def test_loot_scores_when_performed_at_most_3vp_per_turning_point_pg103():
    g = mp_game(3, 4, crit_op=2, to="setup")
    g.setup_multiplayer({"Ana": 6, "Ben": 5, "Cleo": 4}, crit_op=2, markers=5)
    g.turning_point_order(1, {"Ana": 6, "Ben": 5, "Cleo": 4})
    with pytest.raises(RuleViolation, match="cannot be performed during the first turning point"):
        g.activate("a1", "engage", loot("marker-1"))
    g.add(ActivationEnded(operative="a1"))
    g = next_tp(g, {"Ana": 6, "Ben": 2, "Cleo": 1})
    g.activate("a1", "engage", loot("marker-1")).activate("b1", "engage")
    with pytest.raises(RuleViolation, match="already looted this turning point"):
        g.activate("c1", "engage", loot("marker-1"))
    g.add(ActivationEnded(operative="c1"))
    for i, marker in ((2, "marker-2"), (3, "marker-3"), (4, "marker-4")):
        g.activate(f"a{i}", "engage", loot(marker)).activate(f"b{i}", "conceal").activate(f"c{i}", "conceal")
    # The fourth Loot is legal (it denies the marker) but scores nothing: flagged.
    assert g.state.players["Ana"].vp["crit"] == 3
    assert g.state.markers["marker-4"].looted_tp == 2
    assert "scores nothing more" in g.state.warnings[-1].message
    g.end_turning_point()
    g = next_tp(g, {"Ana": 6, "Ben": 2, "Cleo": 1})
    g.activate("a1", "engage", loot("marker-4"))  # a new turning point: marker and cap start again
    assert g.state.players["Ana"].vp["crit"] == 4


def test_transmission_scores_transmitting_markers_each_player_controls_pg103():
    g = mp_game(3, 3, crit_op=3)
    with pytest.raises(RuleViolation, match="Secure is not an action of this game's crit op"):
        g.activate("a1", "engage", secure("Ana-marker"))
    g.add(ActivationEnded(operative="a1"))
    g = next_tp(g)
    g.activate("a1", "engage", transmit("Ana-marker")).activate("b1", "engage", transmit("Ben-marker"))
    g.activate("c1", "engage", transmit("Cleo-marker"))
    expend_all(g)
    with pytest.raises(InvalidEvent, match="record who controls each objective marker"):
        g.add(TurningPointEnded(turning_point=2))
    # Ana's operatives hold two transmitting markers, Cleo's one, Ben's none.
    g.end_turning_point({"Ana-marker": "Ana", "Ben-marker": "Ana", "Cleo-marker": "Cleo"})
    assert {n: p.vp["crit"] for n, p in g.state.players.items()} == {"Ana": 2, "Ben": 0, "Cleo": 1}
    g = next_tp(g)
    expend_all(g).end_turning_point()  # transmitting ended at the start of TP3
    assert {n: p.vp["crit"] for n, p in g.state.players.items()} == {"Ana": 2, "Ben": 0, "Cleo": 1}


# --- the result (pg 102, ruling 5) ---------------------------------------------------------


def finish(g: GameBuilder) -> GameBuilder:
    while g.state.turning_point < 4:
        g = next_tp(g)
    return expend_all(g).end_turning_point()


def test_most_vp_wins_pg102():
    g = mp_game(3, crit_op=2)
    g = next_tp(g)
    g.activate("a1", "engage", loot("Ana-marker"))
    r = finish(g).state.result
    assert (r.winner, r.draw, r.winners) == ("Ana", False, ["Ana"])
    rows = {row["player"]: row["result"] for row in results_rows("g", g.state)}
    assert rows == {"Ana": "win", "Ben": "loss", "Cleo": "loss"}


def test_tied_leaders_share_the_win_ruling5():
    g = mp_game(4, crit_op=2)
    g = next_tp(g)
    g.activate("a1", "engage", loot("Ana-marker")).activate("b1", "engage", loot("Ben-marker"))
    finish(g)
    r = g.state.result
    assert (r.winner, r.draw, r.winners) == (None, True, ["Ana", "Ben"])
    assert describe_result(g.state) == "Ana and Ben share the win"
    rows = {row["player"]: row["result"] for row in results_rows("g", g.state)}
    assert rows == {"Ana": "draw", "Ben": "draw", "Cleo": "loss", "Dev": "loss"}


def test_all_tied_is_a_draw_pg110():
    g = finish(mp_game(3))
    assert g.state.result.winners == ["Ana", "Ben", "Cleo"] and describe_result(g.state) == "a draw"
    assert {row["result"] for row in results_rows("g", g.state)} == {"draw"}


def test_the_battle_ends_after_four_turning_points():
    g = finish(mp_game(3))
    with pytest.raises(InvalidEvent, match="the game is over"):
        g.add(TurningPointStarted(turning_point=5))


# --- the simulator: random legal games -----------------------------------------------------

ROSTERS = load_sim_rosters()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_score_at_most_3vp_a_turning_point_and_elimination_by_rank(seed):
    """pg 102-103; the caps, the stored ruleset and the winners: tests/test_simulated_rulesets.py."""
    ((_, g),) = simulate_games(1, seed, rosters=ROSTERS, ruleset="kt24-multiplayer")
    state = g.state
    by_tp: dict[tuple[str, int], dict[str, int]] = {}
    assert 3 <= len(state.players) <= 4
    for v in state.vp_log:
        assert v.turning_point >= 2
        tally = by_tp.setdefault((v.player, v.turning_point), {"crit": 0, "elimination": 0})
        tally[v.op] += v.vp
        assert tally["crit"] <= 3 and tally["elimination"] <= 2
    # The elimination op VP again from the incapacitations as recorded (pg 102).
    for tp in (2, 3, 4):
        counts = dict.fromkeys(state.players, 0)
        for i in state.incapacitations:
            if i.turning_point == tp and i.by_player not in (None, i.player) and i.source not in ("hot", "mine"):
                counts[i.by_player] += 2 if state.operatives[i.operative].datacard.wounds >= 12 else 1
        expected = {p: {1: 2, 2: 1}.get(r, 0) for p, r in ranks(counts).items()}
        scored = {v.player: v.vp for v in state.vp_log if v.turning_point == tp and v.op == "elimination"}
        assert scored == {p: vp for p, vp in expected.items() if vp}


def test_a_concession_ends_the_battle_the_most_vp_among_the_others_wins_ruling8():
    g = mp_game(3, crit_op=2)
    g = next_tp(g)
    g.activate("a1", "conceal").activate("b1", "engage", loot("Ben-marker")).activate("c1", "engage", loot("Cleo-marker"))
    g.concede("Ana")
    r = g.state.result
    assert (r.winner, r.draw, r.winners, r.conceded_by) == (None, True, ["Ben", "Cleo"], "Ana")
    assert {row["player"]: row["result"] for row in results_rows("g", g.state)} == {"Ana": "loss", "Ben": "draw", "Cleo": "draw"}


# --- league statistics with three or four players --------------------------------------------


def test_standings_count_a_multiplayer_game_once_per_player_vp_against_the_opponents_mean(store):
    from ktlog.analytics.league import League
    from ktlog.analytics.standings import standings

    # Game 1 (three players): Ana 1VP (one Loot) wins; Ben and Cleo 0.
    g1 = mp_game(3, crit_op=2)
    g1 = next_tp(g1)
    g1.activate("a1", "engage", loot("Ana-marker"))
    finish(g1)
    # Game 2 (four players): Ana and Ben 1VP each share the win; Cleo and Dev 0.
    g2 = mp_game(4, crit_op=2)
    g2 = next_tp(g2)
    g2.activate("a1", "engage", loot("Ana-marker")).activate("b1", "engage", loot("Ben-marker"))
    finish(g2)
    for i, g in enumerate((g1, g2), 1):
        game_id = f"00000000-0000-4000-8000-00000000000{i}"
        store.import_envelopes(game_id, g.sealed(game_id, f"2026-12-0{i}T10:00:00+00:00"))
    league = League(store.path)
    assert league.with_opponents.height == 7  # one row per player per game
    rows = {r["player"]: r for r in standings(league).iter_rows(named=True)}
    # Ana: a win and a shared win (a draw); VP against: mean(0, 0) + mean(1, 0, 0) = 1/3.
    assert (rows["Ana"]["games"], rows["Ana"]["wins"], rows["Ana"]["draws"], rows["Ana"]["losses"]) == (2, 1, 1, 0)
    assert rows["Ana"]["vp_for"] == 2 and rows["Ana"]["vp_against"] == pytest.approx(1 / 3, abs=1e-3)
    # Ben: a loss (against Ana 1, Cleo 0: 1/2) and a shared win (against 1, 0, 0: 1/3).
    assert (rows["Ben"]["wins"], rows["Ben"]["draws"], rows["Ben"]["losses"]) == (0, 1, 1)
    assert rows["Ben"]["vp_against"] == pytest.approx(1 / 2 + 1 / 3, abs=1e-3)
    # Dev: one game, lost; against mean(1, 1, 0) = 2/3.
    assert (rows["Dev"]["games"], rows["Dev"]["losses"]) == (1, 1)
    assert rows["Dev"]["vp_against"] == pytest.approx(2 / 3, abs=1e-3)

"""KT24 Approved Ops (002, the Approved Ops PvP sequence; the core book for the rest): tac ops,
the scouting step, primary ops, the 6VP caps, and the spectator views that hide secrets.

"002 step N" is the numbered part of 002's game sequence: 2 select operatives (tac op),
4 scouting, 5 battle (TP1 initiative, primary op gambit, max 6VP an op), 7 battle end."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import ROSTERS as ROSTER_FILES
from conftest import card, expend_all, next_turning_point
from hypothesis import given, settings
from hypothesis import strategies as st

from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES
from ktlog.errors import RuleViolation
from ktlog.events import (
    CritOpRolled,
    DropZoneChosen,
    EquipmentSelected,
    GambitPassed,
    InitiativeDecided,
    ObjectiveMarkerSetUp,
    OperativeAdded,
    OperativeSetUp,
    PlayerJoined,
    RolledOff,
    StrategicGambitUsed,
    TurningPointEnded,
    TurningPointStarted,
)
from ktlog.play.builder import GameBuilder
from ktlog.play.simulate import load_sim_rosters, simulate_games
from ktlog.rules.setup import next_to_set_up
from ktlog.rulesets import get_ruleset
from ktlog.rulesets.approved.events import PrimaryOpRevealed, PrimaryOpSelected, ScoutingRevealed, ScoutingSelected, TacOpRevealed, TacOpScored, TacOpSelected
from ktlog.storage.store import Store
from ktlog.text.describe import describe
from ktlog.text.json_views import state_view
from ktlog.text.render import render_state

GAME = "0a0a0a0a-0000-4000-8000-000000000003"
ARCHETYPES = {"Alice": ("Security", "Recon"), "Bob": ("Seek & Destroy", "Security")}
TAC_OPS = [
    TacOpSelected(player="Alice", tac_op="Secure Centre", archetype="Security"),
    TacOpSelected(player="Bob", tac_op="Overrun", archetype="Seek & Destroy"),
]


def approved(to: str = "battle", scouting: tuple[str, str] = ("equip", "ploy"), tac_ops=TAC_OPS, primary=("kill", "crit")) -> GameBuilder:
    """An Approved Ops game between Alice (a1-a3) and Bob (b1-b3), Alice with set-up initiative.
    `to`: "selected" (operatives and equipment chosen, before tac ops), "set-up" (operatives set
    up), "scouted" (scouting revealed) or "battle" (TP1 gambit step over, primary ops selected)."""
    g = GameBuilder(ruleset="kt24-approved")
    for player, prefix in (("Alice", "a"), ("Bob", "b")):
        g.add(PlayerJoined(player=player, kill_team=f"{player}'s team", archetypes=ARCHETYPES[player]))
        for i in range(1, 4):
            g.add(OperativeAdded(player=player, operative=f"{prefix}{i}", datacard=card()))
    g.add(
        RolledOff(purpose="setup", rolls={"Alice": 6, "Bob": 1}),
        InitiativeDecided(player="Alice"),
        ObjectiveMarkerSetUp(marker="centre", player="Bob"),
        ObjectiveMarkerSetUp(marker="north", player="Alice"),
        ObjectiveMarkerSetUp(marker="south", player="Bob"),
        CritOpRolled(roll=1),
        DropZoneChosen(player="Alice", drop_zone="A"),
        DropZoneChosen(player="Bob", drop_zone="B"),
        EquipmentSelected(player="Alice"),
        EquipmentSelected(player="Bob"),
    )
    if to == "selected":
        return g
    g.add(*tac_ops)
    while (who := next_to_set_up(g.state)) is not None:
        g.add(OperativeSetUp(operative=next(o.id for o in g.state.operatives_of(who) if not o.set_up)))
    if to == "set-up":
        return g
    g.add(ScoutingSelected(player="Alice", option=scouting[0]), ScoutingSelected(player="Bob", option=scouting[1]), ScoutingRevealed())
    if to == "scouted":
        return g
    first = "Alice" if scouting in (("equip", "ploy"), ("ploy", "reposition"), ("reposition", "equip")) else "Bob"
    second = "Bob" if first == "Alice" else "Alice"
    ops = dict(zip(("Alice", "Bob"), primary))
    return g.turning_point(1, None, first, gambits=[PrimaryOpSelected(player=first, op=ops[first]), PrimaryOpSelected(player=second, op=ops[second])])


def refused(g: GameBuilder, event, match: str) -> RuleViolation:
    with pytest.raises(RuleViolation, match=match) as info:
        g.add(event)
    return info.value


def finish(g: GameBuilder) -> GameBuilder:
    """Play to the end of TP4 with no actions (Alice takes initiative), revealing the primary ops."""
    while g.state.turning_point < 4:
        next_turning_point(g)
    expend_all(g)
    g.add(*(PrimaryOpRevealed(player=p) for p, s in g.state.players.items() if s.primary_op))
    return g.end_turning_point()


# --- the ruleset -------------------------------------------------------------------------------


def test_ruleset_ops_and_caps_002():
    r = get_ruleset("kt24-approved")
    assert r.title == "KT24 Approved Ops"
    assert r.ops == ("crit", "kill", "tac", "primary")
    # 002 step 5: "Max 6VP from each OP"; the primary op adds half of one, rounded up: 3.
    assert sum(r.max_vp.values()) == 21


# --- tac op (002 step 2) -----------------------------------------------------------------------


def test_tac_op_comes_from_the_kill_teams_archetypes():
    g = approved(to="selected")
    error = refused(g, TacOpSelected(player="Alice", tac_op="Overrun", archetype="Seek & Destroy"), "Security, Recon, not Seek & Destroy")
    assert error.rule == "002 step 2" and error.overridable
    g.add(TacOpSelected(player="Alice", tac_op="Flank", archetype="recon"))  # archetype names ignore case
    assert (g.state.players["Alice"].tac_op, g.state.players["Alice"].tac_op_archetype) == ("Flank", "Recon")
    refused(g, TacOpSelected(player="Alice", tac_op="Contain", archetype="Security"), "already selected a tac op")


def test_an_archetype_that_does_not_exist_is_refused():
    g = approved(to="selected")
    error = refused(g, TacOpSelected(player="Bob", tac_op="Overrun", archetype="Assault"), "not an archetype")
    assert "Infiltration, Recon, Security, Seek & Destroy" in str(error) and not error.overridable


def test_tac_ops_are_selected_after_equipment_and_before_set_up():
    g = approved(to="selected")
    refused(g, OperativeSetUp(operative="a1"), "after each player has selected a tac op.*Alice, Bob")
    g.add(*TAC_OPS, OperativeSetUp(operative="a1"))
    refused(g, TacOpSelected(player="Alice", tac_op="Flank", archetype="Recon"), "before operatives are set up")


def test_tac_op_vp_are_recorded_with_a_reason_and_capped_at_6():
    g = approved()
    g.add(TacOpScored(player="Alice", vp=2, reason="Secure Centre: centre held"))
    next_turning_point(g)
    g.add(TacOpScored(player="Alice", vp=3, reason="Secure Centre: centre held twice"))
    assert g.state.players["Alice"].vp["tac"] == 5
    # 002 step 5: max 6VP from each op; 2 more would make 7.
    error = refused(
        g, TacOpScored(player="Alice", vp=2, reason="Secure Centre"), r"5VP from their tac op; 2VP more would pass its cap of 6VP \(at most 1VP more\)"
    )
    assert not error.overridable
    g.add(TacOpScored(player="Alice", vp=1, reason="Secure Centre"))
    assert g.state.players["Alice"].vp["tac"] == 6
    refused(g, TacOpScored(player="Bob", vp=0, reason="nothing"), "1VP or more")
    refused(g, TacOpScored(player="Bob", vp=1, reason=" "), "say what on the tac op card")


def test_tac_op_vp_need_a_tac_op_and_the_battle():
    g = approved(to="selected")
    refused(g, TacOpScored(player="Alice", vp=1, reason="early"), "during the battle")


def test_a_tac_op_is_revealed_once():
    g = approved()
    g.add(TacOpRevealed(player="Bob"))
    assert g.state.players["Bob"].tac_op_revealed
    refused(g, TacOpRevealed(player="Bob"), "already revealed")


# --- scouting (002 step 4, step 5) -------------------------------------------------------------


def test_scouting_comes_after_set_up_and_is_revealed_once():
    g = approved(to="selected")
    refused(g, ScoutingSelected(player="Alice", option="equip"), "after every operative is set up")
    g = approved(to="set-up")
    refused(g, ScoutingSelected(player="Alice", option="charge"), "not a scouting option")
    g.add(ScoutingSelected(player="Alice", option="equip"))
    refused(g, ScoutingSelected(player="Alice", option="ploy"), "already selected a scouting option")
    refused(g, ScoutingRevealed(), "still to select: Bob")
    refused(g, TurningPointStarted(turning_point=1), "scouting step comes before the battle")
    g.add(ScoutingSelected(player="Bob", option="ploy"), ScoutingRevealed())
    error = refused(g, ScoutingRevealed(), "already revealed")
    assert error.rule == "002 step 4"


# 002 step 5: 1 Equip beats 2 Ploy, 2 beats 3 Reposition, 3 beats 1.
@pytest.mark.parametrize(
    "alice, bob, initiative",
    [
        ("equip", "ploy", "Alice"),
        ("ploy", "equip", "Bob"),
        ("ploy", "reposition", "Alice"),
        ("reposition", "ploy", "Bob"),
        ("reposition", "equip", "Alice"),
        ("equip", "reposition", "Bob"),
    ],
)
def test_the_scouting_options_decide_tp1_initiative(alice, bob, initiative):
    g = approved(to="scouted", scouting=(alice, bob))
    g.add(TurningPointStarted(turning_point=1))
    refused(g, RolledOff(purpose="initiative", rolls={"Alice": 6, "Bob": 1}), f"without a roll-off: record InitiativeDecided for {initiative}")
    loser = "Bob" if initiative == "Alice" else "Alice"
    error = refused(g, InitiativeDecided(player=loser), f"so {initiative} has initiative in the first turning point")
    assert error.rule == "002 step 5"
    g.add(InitiativeDecided(player=initiative))
    assert g.state.initiative == initiative and g.state.order[0] == initiative
    assert [c.delta for c in g.state.cp_log if c.source == "turning point 1"] == [1, 1]  # TP1: 1CP each (pg 37)


@pytest.mark.parametrize("choice", ["Alice", "Bob"])
def test_the_same_scouting_option_the_player_without_set_up_initiative_decides(choice):
    g = approved(to="scouted", scouting=("ploy", "ploy"))
    g.add(TurningPointStarted(turning_point=1))
    assert g.state.decider == "Bob"  # Alice had set-up initiative
    g.add(InitiativeDecided(player=choice))
    assert g.state.initiative == choice


def test_equip_adds_one_more_equipment_option():
    g = approved(to="scouted", scouting=("equip", "ploy"))
    assert g.state.players["Alice"].equipment == []
    refused(g, EquipmentSelected(player="Alice", equipment=("Mines", "Ladders")), "exactly one new equipment option")
    g.add(EquipmentSelected(player="Alice", equipment=("Mines",)))
    assert g.state.players["Alice"].equipment == ["Mines"]
    refused(g, EquipmentSelected(player="Alice", equipment=("Ladders",)), r"already took the Equip scouting option's extra equipment \(Mines\)")
    error = refused(g, EquipmentSelected(player="Bob", equipment=("Ladders",)), "only the Equip scouting option")
    assert error.overridable


def test_equip_makes_five_options():
    g = GameBuilder(ruleset="kt24-approved")
    for player, prefix in (("Alice", "a"), ("Bob", "b")):
        g.add(
            PlayerJoined(player=player, kill_team="team", archetypes=ARCHETYPES[player]), OperativeAdded(player=player, operative=f"{prefix}1", datacard=card())
        )
    four = ("Ammo Cache", "Comms Device", "Ladders", "Mines")
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1, equipment={"Alice": four}, before_set_up=TAC_OPS)
    g.add(ScoutingSelected(player="Alice", option="equip"), ScoutingSelected(player="Bob", option="equip"), ScoutingRevealed())
    refused(g, EquipmentSelected(player="Alice", equipment=("Mines",)), "already has Mines")
    g.add(EquipmentSelected(player="Alice", equipment=("Razor Wire",)))
    assert len(g.state.players["Alice"].equipment) == 5


def test_ploy_makes_one_strategy_ploy_free_in_tp1():
    g = approved(to="scouted", scouting=("equip", "ploy"))
    g.add(
        TurningPointStarted(turning_point=1),
        InitiativeDecided(player="Alice"),
        PrimaryOpSelected(player="Alice", op="kill"),
        StrategicGambitUsed(player="Bob", gambit="Dark Pact", cp=0),
    )
    assert g.state.players["Bob"].cp == 3  # 2 at set-up + 1 in TP1, nothing spent
    assert g.state.players["Bob"].scouting_used == "Dark Pact"
    g.add(GambitPassed(player="Alice"))
    error = refused(g, StrategicGambitUsed(player="Bob", gambit="Malicious Volleys", cp=0), "already used the Ploy scouting option on Dark Pact")
    assert error.rule == "002 step 4" and error.overridable
    g.add(StrategicGambitUsed(player="Bob", gambit="Malicious Volleys", cp=1))
    assert g.state.players["Bob"].cp == 2


# --- primary op (002 step 5, step 7) -----------------------------------------------------------


def test_the_primary_op_is_a_tp1_gambit():
    g = approved(to="scouted")
    refused(g, PrimaryOpSelected(player="Alice", op="kill"), "first turning point's gambit step, not in the set-up")
    g.add(TurningPointStarted(turning_point=1), InitiativeDecided(player="Alice"))
    refused(g, PrimaryOpSelected(player="Bob", op="kill"), "it is Alice's turn in the gambit step")
    refused(g, PrimaryOpSelected(player="Alice", op="vp"), "'vp' is not an op; the primary op is one of crit, kill, tac")
    refused(g, GambitPassed(player="Alice"), "Alice has not selected a primary op")
    g.add(PrimaryOpSelected(player="Alice", op="tac"))
    assert g.state.gambit_turn == "Bob" and g.state.players["Alice"].cp == 3  # a gambit turn, 0CP
    g.add(PrimaryOpSelected(player="Bob", op="crit"), GambitPassed(player="Alice"), GambitPassed(player="Bob"))
    assert g.state.phase == "firefight"
    expend_all(g)
    g.end_turning_point()
    g.add(TurningPointStarted(turning_point=2), RolledOff(purpose="initiative", rolls={"Alice": 4, "Bob": 2}), InitiativeDecided(player="Alice"))
    error = refused(g, PrimaryOpSelected(player="Alice", op="kill"), "not in turning point 2")
    assert error.rule == "002 step 5" and not error.overridable


def test_primary_ops_are_revealed_at_the_end_of_the_battle():
    g = approved()
    refused(g, PrimaryOpRevealed(player="Alice"), "revealed at the end of the battle")
    while g.state.turning_point < 4:
        next_turning_point(g)
    refused(g, PrimaryOpRevealed(player="Alice"), "once every operative is expended in turning point 4")
    expend_all(g)
    g.add(PrimaryOpRevealed(player="Alice"))
    refused(g, PrimaryOpRevealed(player="Alice"), "already revealed")
    error = refused(g, TurningPointEnded(turning_point=4), "still hidden: Bob")
    assert error.rule == "002 step 7"
    g.add(PrimaryOpRevealed(player="Bob"))
    g.end_turning_point()
    assert g.state.phase == "over"


def test_the_primary_op_scores_half_its_op_rounded_up():
    # Alice: primary tac, 5 tac VP -> +3 (2.5 up). Bob: primary crit, 0 crit VP -> nothing.
    g = approved(primary=("tac", "crit"))
    g.add(TacOpScored(player="Alice", vp=2, reason="Secure Centre"))
    next_turning_point(g)
    g.add(TacOpScored(player="Alice", vp=3, reason="Secure Centre"), TacOpScored(player="Bob", vp=1, reason="Overrun"))
    finish(g)
    alice, bob = g.state.players["Alice"], g.state.players["Bob"]
    assert alice.vp == {"crit": 0, "kill": 0, "tac": 5, "primary": 3}
    assert bob.vp == {"crit": 0, "kill": 0, "tac": 1, "primary": 0}
    assert g.state.result.winner == "Alice"
    bonus = [v for v in g.state.vp_log if v.op == "primary"]
    assert [(v.player, v.vp, v.turning_point, v.reason) for v in bonus] == [("Alice", 3, 4, "primary op tac: half of its 5VP, rounded up")]


# --- what a spectator sees ---------------------------------------------------------------------


def test_describe_hides_a_secret_until_it_is_revealed():
    g = approved()
    selected, scored = TAC_OPS[1], TacOpScored(player="Bob", vp=1, reason="Overrun: two down")
    assert describe(selected) == "Bob selects a tac op: Overrun (Seek & Destroy)"  # the players' view
    assert describe(selected, spectator=True) == "Bob selects a tac op (hidden)"
    assert describe(selected, spectator=True, state=g.state) == "Bob selects a tac op (hidden)"
    g.add(scored)
    assert describe(scored, spectator=True, state=g.state) == "Bob scores 1VP on their tac op (reason hidden)"
    assert state_view("g", g.state, spectator=True)["players"][1]["scored"][0]["reason"] == "hidden"
    g.add(TacOpRevealed(player="Bob"))
    assert describe(selected, spectator=True, state=g.state) == "Bob selects a tac op: Overrun (Seek & Destroy)"
    assert describe(scored, spectator=True, state=g.state) == "Bob scores 1VP on their tac op: Overrun: two down"
    assert describe(TacOpRevealed(player="Bob"), spectator=True, state=g.state) == "Bob reveals their tac op: Overrun (Seek & Destroy)"
    primary = PrimaryOpSelected(player="Alice", op="kill")
    assert describe(primary, spectator=True, state=g.state) == "Alice selects a primary op (hidden)"
    assert describe(ScoutingSelected(player="Alice", option="equip"), spectator=True, state=g.state) == "Alice picks a scouting option: equip"
    assert describe(ScoutingRevealed(), state=g.state) == "scouting options revealed: Alice equip, Bob ploy"


def test_state_view_and_render_state_hide_unrevealed_choices():
    g = approved()
    g.add(TacOpRevealed(player="Alice"))
    players = {p["name"]: p["secrets"] for p in state_view("g", g.state)["players"]}
    assert players["Bob"] == {
        "tac_op": {"choice": "Overrun (Seek & Destroy)", "revealed": False},
        "scouting": {"choice": "ploy", "revealed": True},
        "primary_op": {"choice": "crit", "revealed": False},
    }
    seen = {p["name"]: p["secrets"] for p in state_view("g", g.state, spectator=True)["players"]}
    assert seen["Bob"]["tac_op"]["choice"] == seen["Bob"]["primary_op"]["choice"] == "hidden"
    assert seen["Alice"]["tac_op"]["choice"] == "Secure Centre (Security)"  # revealed
    assert seen["Bob"]["scouting"]["choice"] == "ploy"
    text = render_state("g", g.state, spectator=True)
    assert "tac op Secure Centre (Security); scouting equip; primary op hidden" in text
    assert "tac op hidden; scouting ploy; primary op hidden" in text
    assert "Overrun" not in text and "crit (secret)" in render_state("g", g.state)


def test_before_the_scouting_reveal_a_spectator_sees_no_scouting_option():
    g = approved(to="set-up")
    g.add(ScoutingSelected(player="Alice", option="reposition"))
    assert describe(g.events[-1], spectator=True, state=g.state) == "Alice picks a scouting option (hidden)"
    assert "scouting hidden; primary op not chosen" in render_state("g", g.state, spectator=True)


def test_cli_show_and_log_with_spectator(tmp_path):
    db = tmp_path / "spectator.db"
    sample = SAMPLE_GAMES / "08_approved_ops_kasrkin_vs_legionaries.jsonl"

    def run(*args):
        result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    new = run(
        "new",
        "--ruleset",
        "kt24-approved",
        "--killzone",
        "volkus",
        "--player",
        f"Ana={ROSTER_FILES / 'kasrkin.toml'}",
        "--player",
        f"Ben={ROSTER_FILES / 'legionaries.toml'}",
    )
    assert "[crit 0, kill 0, tac 0, primary 0]" in run("score", new.split()[0][:8])
    run("import", sample)
    game = "5d0c2a52"
    log = run("log", game).splitlines()
    at = int(next(line for line in log if "Ivo selects a primary op" in line).split()[0])
    # At that moment (TP1) nothing but the scouting is revealed.
    shown = run("show", game, "--at", at, "--spectator")
    assert "tac op hidden; scouting reposition; primary op hidden" in shown and "Flank" not in shown
    seen = json.loads(run("show", game, "--at", at, "--spectator", "--json"))
    assert seen["players"][1]["secrets"]["primary_op"] == {"choice": "hidden", "revealed": False}
    assert "primary op crit (secret)" in run("show", game, "--at", at)
    # The log shows the game as it stands: by the end of the battle everything is revealed.
    spectator_log = run("log", game, "--spectator")
    assert "Hana selects a primary op: crit" in spectator_log and "(hidden)" not in spectator_log


def test_cli_log_with_spectator_during_the_battle(tmp_path):
    g = approved()
    with Store(tmp_path / "live.db") as store:
        store.import_envelopes(GAME, g.sealed(GAME, "2026-11-21T18:00:00+00:00"))
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "live.db"), "log", GAME[:8], "--spectator"], catch_exceptions=False)
    assert "Alice selects a tac op (hidden)" in result.output and "Secure Centre" not in result.output
    assert "Bob selects a primary op (hidden)" in result.output
    assert "scouting options revealed: Alice equip, Bob ploy" in result.output
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "live.db"), "log", GAME[:8], "--spectator", "--json"], catch_exceptions=False)
    hidden = [e for e in json.loads(result.output) if e["payload"].get("hidden")]
    assert [(e["payload"]["type"], e["payload"]["player"]) for e in hidden] == [
        ("TacOpSelected", "Alice"),
        ("TacOpSelected", "Bob"),
        ("PrimaryOpSelected", "Alice"),
        ("PrimaryOpSelected", "Bob"),
    ]
    assert "Overrun" not in result.output


# --- properties over random legal games --------------------------------------------------------

ROSTERS = load_sim_rosters()


def play(seed: int) -> GameBuilder:
    ((_, g),) = simulate_games(1, seed, rosters=ROSTERS, ruleset="kt24-approved")
    return g


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_score_half_the_primary_ops_vp_rounded_up(seed):
    """002 step 5; the caps, the stored ruleset and the end of the battle: tests/test_simulated_rulesets.py."""
    state = play(seed).state
    if state.result.ended_by == "battle":
        for p in state.players.values():
            assert p.primary_op_revealed
            assert p.vp["primary"] == -(-p.vp[p.primary_op] // 2)  # half, rounded up


def test_the_simulator_plays_every_approved_ops_rule():
    games = [g for _, g in simulate_games(30, 3, rosters=ROSTERS, ruleset="kt24-approved")]
    events = [type(e).__name__ for g in games for e in g.events]
    assert {"TacOpSelected", "TacOpRevealed", "TacOpScored", "ScoutingSelected", "ScoutingRevealed", "PrimaryOpSelected", "PrimaryOpRevealed"} <= set(events)
    players = [p for g in games for p in g.state.players.values()]
    assert {p.scouting for p in players} == {"equip", "ploy", "reposition"}
    equipped = [p for p in players if p.scouting == "equip"]
    assert equipped and all(p.scouting_used in p.equipment for p in equipped)  # the extra option
    assert any(p.scouting == "ploy" and p.scouting_used for p in players)  # the free ploy
    for g in games:  # no roll-off for TP1's initiative
        started = sum(isinstance(e, TurningPointStarted) for e in g.events)
        assert sum(isinstance(e, RolledOff) and e.purpose == "initiative" for e in g.events) == started - 1

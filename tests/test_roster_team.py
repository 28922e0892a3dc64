"""Issue 13: a kill team's own ploys, equipment and resources, from its roster into the log and the rules."""

from __future__ import annotations

import json

import msgspec
import pytest
from click.testing import CliRunner
from conftest import ROOT

from ktlog import events as ev
from ktlog.cli import cli
from ktlog.envelopes import decode_payload
from ktlog.errors import InvalidEvent, RosterError, RuleViolation
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder
from ktlog.play.moves import next_step
from ktlog.rules.team import unlisted
from ktlog.rulesets.approved.events import PrimaryOpSelected
from ktlog.storage.store import Store
from ktlog.text.describe import describe

KIT = ROOT / "tests" / "fixtures" / "kit_team.toml"
QUICK_MISS = (ev.ShootingAttack(target="bob-trooper-1", damage=0),)


def kit_game(equipment: tuple[str, ...] = ("Grenades",), to: str = "firefight") -> GameBuilder:
    """Alice and Bob, both with the kit team (Bob's operatives bob-trooper-N); Alice selected
    `equipment`, Bob none. "gambit": TP1's gambit step, Alice's turn; "firefight": Alice to activate."""
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    roster = load_roster(KIT)
    g.player("Alice", roster).player("Bob", roster)
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1, equipment={"Alice": equipment})
    if to == "gambit":
        g.add(ev.TurningPointStarted(turning_point=1), ev.RolledOff(purpose="initiative", rolls={"Alice": 5, "Bob": 2}), ev.InitiativeDecided(player="Alice"))
        return g
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    return g


def write(tmp_path, text: str):
    path = tmp_path / "team.toml"
    path.write_text(KIT.read_text() + text)
    return path


# --- the roster file ---------------------------------------------------------------------------


def test_the_roster_gives_its_ploys_equipment_and_resources():
    roster = load_roster(KIT)
    assert [(p.name, p.kind, p.cp) for p in roster.ploys] == [("Rally", "strategy", 2), ("Brace", "firefight", 1), ("Quick Step", "firefight", 0)]
    (grenade,) = roster.equipment[0].weapons
    assert (grenade.name, grenade.atk, grenade.hit, grenade.normal_dmg, grenade.crit_dmg) == ("Grenade", 4, 4, 2, 3)
    assert roster.equipment[1].weapons == ()
    assert [(r.name, r.start) for r in roster.resources] == [("Faith", 2)]


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ('[[ploys]]\nname = "Dear"\nkind = "strategy"\ncp = 4\n', "ploys[3].cp"),
        ('[[ploys]]\nname = "Negative"\nkind = "firefight"\ncp = -1\n', "ploys[3].cp"),
        ('[[ploys]]\nname = "Odd"\nkind = "tactical"\ncp = 1\n', "Invalid enum value 'tactical'"),
        ('[[ploys]]\nname = "rally"\nkind = "strategy"\ncp = 1\n', "ploys: two are named 'rally'"),
        ('[[ploys]]\nname = "X"\nkind = "strategy"\ncp = 1\neffect = "long"\n', "unknown field `effect`"),
        ('[[resources]]\nname = "Hope"\nstart = 100\n', "resources[1].start"),
        ('[[resources]]\nname = "Faith"\n', "resources: two are named 'Faith'"),
        ('[[equipment]]\nname = "Bad"\nweapon = { name = "B", kind = "ranged", atk = 4, hit = "4+", dmg = "-" }\n', "equipment 'Bad': weapon 'B': dmg '-'"),
        ('[[equipment]]\nname = "Worse"\nweapon = { name = "W", kind = "ranged", atk = 0, hit = "4+", dmg = "1/2" }\n', "equipment 'Worse': weapon Atk 0"),
    ],
)
def test_a_bad_table_is_refused_naming_the_field(tmp_path, extra, words):
    with pytest.raises(RosterError) as refused:
        load_roster(write(tmp_path, "\n" + extra))
    assert words in str(refused.value)


def test_the_kill_team_is_frozen_into_player_joined():
    g = kit_game()
    joined = g.events[1]
    assert isinstance(joined, ev.PlayerJoined) and type(joined).version == 4
    assert [p.name for p in joined.ploys] == ["Rally", "Brace", "Quick Step"]
    assert joined.equipment_options[0].weapons[0].name == "Grenade"
    assert g.state.players["Alice"].resources == {"Faith": 2}


def test_a_version_3_player_joined_reads_its_equipment_weapon_as_a_list_of_one():
    payload = b'{"type":"PlayerJoined","player":"Ann","kill_team":"Old","equipment_options":[{"name":"Frag","weapon":{"name":"Frag","kind":"ranged","atk":4,"hit":4,"normal_dmg":2,"crit_dmg":4}},{"name":"Ladder","weapon":null},{"name":"Rope"}]}'
    joined = decode_payload("PlayerJoined", 3, payload)
    assert [(o.name, [w.name for w in o.weapons]) for o in joined.equipment_options] == [("Frag", ["Frag"]), ("Ladder", []), ("Rope", [])]


def test_a_version_2_player_joined_reads_with_no_ploys():
    joined = decode_payload("PlayerJoined", 2, b'{"type":"PlayerJoined","player":"Ann","kill_team":"Old"}')
    assert joined.ploys == () and joined.equipment_options == () and joined.resources == ()


# --- ploys by name (pg 54) ---------------------------------------------------------------------


def test_a_roster_ploy_without_cp_costs_its_roster_cp():
    g = kit_game(to="gambit")
    assert g.state.players["Alice"].cp == 3  # 2CP at set-up, 1CP in TP1's ready step (pg 110, pg 37)
    g.add(ev.StrategicGambitUsed(player="Alice", gambit="rally"))
    assert g.state.players["Alice"].cp == 1
    assert describe(g.events[-1], state=g.state) == "Alice uses rally (2CP)"


def test_another_cp_is_refused_naming_both_unless_overridden():
    g = kit_game(to="gambit")
    with pytest.raises(RuleViolation, match=r"Rally costs 2CP on Alice's roster, not 1CP") as refused:
        g.add(ev.StrategicGambitUsed(player="Alice", gambit="Rally", cp=1))
    assert refused.value.rule == "pg 54"
    g.add(ev.StrategicGambitUsed(player="Alice", gambit="Rally", cp=1, override="a rule makes it cheaper"))
    assert g.state.players["Alice"].cp == 2
    assert g.state.warnings[-1].reason == "a rule makes it cheaper"


def test_a_ploy_of_the_other_kind_is_refused():
    g = kit_game(to="gambit")
    with pytest.raises(RuleViolation, match="Brace is a firefight ploy of Alice's kill team and cannot be used a STRATEGIC GAMBIT"):
        g.add(ev.StrategicGambitUsed(player="Alice", gambit="Brace"))
    g = kit_game()
    with pytest.raises(RuleViolation, match="Rally is a strategy ploy .* cannot be used in the Firefight phase"):
        g.add(ev.FirefightPloyUsed(player="Alice", ploy="Rally"))


def test_firefight_ploys_by_name_and_free_text_with_a_warning():
    g = kit_game()
    g.add(ev.FirefightPloyUsed(player="Bob", ploy="Brace"))
    assert g.state.players["Bob"].cp == 2  # 2CP at set-up, 1CP in TP1, 1CP spent
    g.add(ev.FirefightPloyUsed(player="Bob", ploy="Quick Step"))
    assert g.state.players["Bob"].cp == 2  # a 0CP ploy is still logged as used
    assert [c.delta for c in g.state.cp_log if c.kind == "ploy"] == [-1, 0]
    made_up = ev.FirefightPloyUsed(player="Bob", ploy="Lucky Break")
    assert unlisted(g.state, made_up) == "'Lucky Break' is not one of Bob's ploys (Rally, Brace, Quick Step): recorded as a firefight ploy by that name"
    g.add(made_up)
    assert g.state.players["Bob"].cp == 1  # free text costs 1CP, as before
    assert unlisted(g.state, ev.FirefightPloyUsed(player="Bob", ploy="Command Re-roll")) is None
    assert unlisted(g.state, ev.FirefightPloyUsed(player="Bob", ploy="brace")) is None


# --- resources ---------------------------------------------------------------------------------


def test_a_resource_is_counted_up_and_down_never_below_zero():
    g = kit_game()
    g.add(ev.ResourceAdjusted(player="Alice", resource="faith", delta=-2, reason="a prayer"))
    assert g.state.players["Alice"].resources == {"Faith": 0}
    with pytest.raises(RuleViolation, match="Alice has 0 Faith and cannot spend 1: a resource never goes below 0"):
        g.add(ev.ResourceAdjusted(player="Alice", resource="Faith", delta=-1))
    g.add(ev.ResourceAdjusted(player="Alice", resource="Faith", delta=3))
    assert g.state.players["Alice"].resources == {"Faith": 3}
    assert describe(g.events[-1]) == "Alice Faith +3"


def test_a_resource_the_roster_does_not_have_is_refused_unless_overridden():
    g = kit_game()
    with pytest.raises(RuleViolation, match=r"Alice's roster has no resource 'Hope' \(its resources: Faith\)"):
        g.add(ev.ResourceAdjusted(player="Alice", resource="Hope", delta=1))
    g.add(ev.ResourceAdjusted(player="Alice", resource="Hope", delta=1, override="a mission card gives it"))
    assert g.state.players["Alice"].resources == {"Faith": 2, "Hope": 1}
    with pytest.raises(InvalidEvent, match="counted by 0"):
        g.add(ev.ResourceAdjusted(player="Alice", resource="Faith", delta=0))


# --- equipment weapons (pg 50, pg 111) ---------------------------------------------------------


def test_a_selected_equipment_weapon_shoots_like_a_datacard_weapon_and_limited_counts_for_the_team():
    g = kit_game()
    g.add(ev.OperativeActivated(operative="trooper-1", order="engage"))
    dice = ev.Dice(rolls=(6, 4, 1, 1))
    g.add(
        ev.Shot(
            operative="trooper-1",
            weapon="Grenade",
            attacks=(ev.ShootingAttack(target="bob-trooper-1", attack_dice=dice, defence_dice=ev.Dice(rolls=(1, 1, 1))),),
        )
    )
    assert g.state.attacks[-1].weapon == "Grenade"
    assert g.state.operatives["bob-trooper-1"].wounds == 6 - 3 - 2  # Hit 4+: a critical (3) and a normal (2), no saves
    g.add(ev.ActivationEnded(operative="trooper-1"))
    g.add(ev.OperativeActivated(operative="bob-trooper-1", order="engage"), ev.ActivationEnded(operative="bob-trooper-1"))
    g.add(ev.OperativeActivated(operative="trooper-2", order="engage"))
    g.add(ev.Shot(operative="trooper-2", weapon="grenade", attacks=(ev.ShootingAttack(target="bob-trooper-2", damage=0),)))
    g.add(ev.ActivationEnded(operative="trooper-2"))
    assert g.state.operatives["trooper-1"].weapon_uses == {"Grenade": 1} and g.state.operatives["trooper-2"].weapon_uses == {"Grenade": 1}
    g.add(ev.OperativeActivated(operative="bob-trooper-2", order="engage"), ev.ActivationEnded(operative="bob-trooper-2"))
    g.add(ev.TurningPointEnded(turning_point=1))
    g.turning_point(2, {"Alice": 5, "Bob": 2}, "Alice")
    g.add(ev.OperativeActivated(operative="trooper-1", order="engage"))
    with pytest.raises(RuleViolation, match="Limited 2") as refused:  # two uses for the whole kill team
        g.add(ev.Shot(operative="trooper-1", weapon="Grenade", attacks=(ev.ShootingAttack(target="bob-trooper-2", damage=0),)))
    assert refused.value.rule == "Limited, pg 111"


def test_an_equipment_weapon_not_selected_is_refused_naming_the_rule():
    g = kit_game(equipment=("Ladder",))
    g.add(ev.OperativeActivated(operative="trooper-1", order="engage"))
    with pytest.raises(RuleViolation, match="Grenade comes with the equipment option 'Grenades', which Alice did not select") as refused:
        g.add(ev.Shot(operative="trooper-1", weapon="Grenade", attacks=(ev.ShootingAttack(target="bob-trooper-1", damage=0),)))
    assert refused.value.rule == "Equipment, pg 50"
    with pytest.raises(InvalidEvent, match=r"no ranged weapon 'Bomb' \(its ranged weapons: Rifle\)"):
        g.add(ev.Shot(operative="trooper-1", weapon="Bomb", attacks=(ev.ShootingAttack(target="bob-trooper-1", damage=0),)))


# --- ktlog event -------------------------------------------------------------------------------


def test_ktlog_event_charges_a_ploy_by_name_warns_on_free_text_and_counts_a_resource(tmp_path):
    db = tmp_path / "kit.db"
    g = kit_game()
    with Store(db) as store:
        game_id = store.new_game(g.events[0], g.events[1:])

    def event(*args: str) -> str:
        result = CliRunner().invoke(cli, ["--db", str(db), "event", game_id[:8], *args])
        assert result.exit_code == 0, result.output
        return result.output

    out = event("FirefightPloyUsed", "player=Alice", "ploy=Brace")
    assert "Alice uses Brace (1CP)" in out and "Alice CP -1 (Brace) -> 2CP" in out and "warning" not in out
    out = event("FirefightPloyUsed", "player=Alice", "ploy=Lucky Break")
    assert "warning: 'Lucky Break' is not one of Alice's ploys" in out
    out = event("ResourceAdjusted", "player=Alice", "resource=Faith", "delta=-1", "reason=a prayer")
    assert "Alice Faith -1: a prayer" in out and "Alice Faith -1 -> 1" in out
    refused = CliRunner().invoke(cli, ["--db", str(db), "event", game_id[:8], "FirefightPloyUsed", "player=Alice", "ploy=Brace", "cp=2"])
    assert refused.exit_code != 0 and "Brace costs 1CP on Alice's roster, not 2CP" in refused.output
    shown = CliRunner().invoke(cli, ["--db", str(db), "show", game_id[:8], "--json"])
    assert json.loads(shown.output)["players"][0]["resources"] == {"Faith": 1}
    assert "Faith 1" in CliRunner().invoke(cli, ["--db", str(db), "show", game_id[:8]]).output


def test_approved_ops_ploy_scouting_makes_a_roster_ploy_free_in_tp1():
    from test_rules_approved import approved

    rally = ev.Ploy(name="Rally", kind="strategy", cp=2)
    g = GameBuilder(ruleset="kt24-approved")
    g.add(
        *(
            msgspec.structs.replace(e, ploys=(rally,)) if isinstance(e, ev.PlayerJoined) else e
            for e in approved(to="scouted", scouting=("equip", "ploy")).events[1:]
        )
    )
    g.add(ev.TurningPointStarted(turning_point=1), ev.InitiativeDecided(player="Alice"), PrimaryOpSelected(player="Alice", op="kill"))
    g.add(ev.StrategicGambitUsed(player="Bob", gambit="Rally", cp=0))  # the Ploy scouting option (002 step 4)
    assert g.state.players["Bob"].cp == 3
    with pytest.raises(RuleViolation, match="Rally costs 2CP on Alice's roster, not 0CP"):  # Alice's scouting option was Equip
        g.add(ev.StrategicGambitUsed(player="Alice", gambit="Rally", cp=0))


def test_the_next_step_names_the_players_strategy_ploys():
    g = kit_game(to="gambit")
    assert next_step(g.state) == (
        "Alice's strategic gambit: StrategicGambitUsed player=Alice gambit=NAME (their strategy ploys: Rally 2CP), or GambitPassed player=Alice"
    )


def test_a_melee_equipment_weapon_fights_once_selected(tmp_path):
    extra = '[[equipment]]\nname = "Blades"\nweapon = { name = "Blade", kind = "melee", atk = 4, hit = "3+", dmg = "3/4" }\n'
    roster = load_roster(write(tmp_path, "\n" + extra))
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    g.player("Alice", roster).player("Bob", roster)
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1, equipment={"Alice": ("Blades",)})
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    g.add(ev.OperativeActivated(operative="trooper-1", order="engage"), ev.Charged(operative="trooper-1", targets=("bob-trooper-1",)))
    g.add(ev.Fought(operative="trooper-1", target="bob-trooper-1", weapon="Blade", target_weapon="Knife", damage=3, damage_taken=0))
    assert [(a.weapon, a.damage) for a in g.state.attacks] == [("Blade", 3), ("Knife", 0)]
    g.add(ev.ActivationEnded(operative="trooper-1"), ev.OperativeActivated(operative="bob-trooper-1", order="engage"))
    with pytest.raises(RuleViolation, match="Blade comes with the equipment option 'Blades', which Bob did not select"):
        g.add(ev.Fought(operative="bob-trooper-1", target="trooper-1", weapon="Blade", target_weapon="Knife", damage=0, damage_taken=0))


def test_roster_show_lists_the_kill_teams_ploys_equipment_and_resources():
    result = CliRunner().invoke(cli, ["roster", "show", str(KIT)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "strategy ploy: Rally (2CP): Stand firm this turning point" in lines
    assert "firefight ploy: Brace (1CP)" in lines and "firefight ploy: Quick Step (0CP)" in lines
    assert 'equipment: Grenades [ranged  Grenade  ATK 4  HIT 4+  DMG 2/3  Range 6", Blast 2", Limited 2]' in lines
    assert "equipment: Ladder" in lines
    assert any(line.startswith("resource: Faith (starts at 2)") for line in lines)

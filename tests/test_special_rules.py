"""Issue 18: the special rules ktlog applies are datacard fields (heavy, double_action, a weapon's
one_in), never names or wording; older wording is read once (rosters at load with a warning, game
logs when upcast); text that reads like a rule ktlog does not apply is reported ("not applied")."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import msgspec
import pytest
from click.testing import CliRunner
from conftest import ROOT, ROSTERS
from textual.widgets import Input
from tui_support import TINY, press, tui_test

from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES, SCHEMAS
from ktlog.errors import RosterError, RuleViolation
from ktlog.events import Event, OperativeAdded, PlayerJoined, decodable
from ktlog.files.gamelog import header_result, read_game_log
from ktlog.files.rosters import load_roster
from ktlog.reducer import fold
from ktlog.rules.not_applied import not_applied, not_applied_in_setup
from ktlog.rulesets import RULESETS
from ktlog.text.json_views import state_view
from ktlog.tui.app import make_app

FIXTURES = ROOT / "tests" / "fixtures"
JOINT_OPS = sorted(SAMPLE_GAMES.glob("1[23]_joint_ops_*.jsonl"))
PRELIMINARY = RULESETS["kt24-preliminary"]
FIELDS = ("heavy", "double_action", "one_in")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def sample_events(path) -> tuple[Any, list[Event]]:
    header, sealed = read_game_log(path)
    return header, [envelope.payload for envelope, _ in sealed]


# --- renamed NPOs: the rules read fields, never names -------------------------------------------


def renamed(events: list[Event], *, strip: bool = False) -> list[Event]:
    """The events with every NPO operative id, datacard name, keyword, weapon name and rule text
    replaced by meaningless words (wherever the events name them); `strip` also drops the fields."""
    npos = {e.player for e in events if isinstance(e, PlayerJoined) and e.npo}
    words: dict[str, str] = {}
    for e in events:
        if isinstance(e, OperativeAdded) and e.player in npos:
            card = e.datacard
            for text in (e.operative, card.name, *card.keywords, *card.rules, *(w.name for w in card.weapons)):
                words.setdefault(text, f"zork-{len(words)}")

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return words.get(value, value)
        if isinstance(value, (list, tuple)):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items() if not (strip and k in FIELDS)}
        return value

    return [msgspec.convert(walk(msgspec.to_builtins(e)), decodable()) for e in events]


@pytest.mark.parametrize("path", JOINT_OPS, ids=lambda p: p.stem)
def test_renamed_npos_give_the_same_events_accepted_and_the_same_result(path):
    header, events = sample_events(path)
    npo_cards = [e.datacard for e in renamed(events) if isinstance(e, OperativeAdded) and e.datacard.name.startswith("zork")]
    assert len(npo_cards) >= 8
    text = " ".join(t for c in npo_cards for t in (c.name, *c.keywords, *c.rules, *(w.name for w in c.weapons))).casefold()
    for word in ("heavy", "trooper", "marksman", "brawler", "special", "two", "1 in 3", "firearm", "blades"):
        assert word not in text
    assert any(c.heavy for c in npo_cards) and any(c.double_action for c in npo_cards)
    assert any(w.one_in == 3 for c in npo_cards for w in c.weapons)
    original, state = fold(events), fold(renamed(events))  # fold raises on the first event the rules refuse
    assert header_result(state) == header_result(original) == header.result
    assert state.warnings == original.warnings == []
    assert sorted((o.player, o.status, o.wounds) for o in state.operatives.values()) == sorted(
        (o.player, o.status, o.wounds) for o in original.operatives.values()
    )


def test_without_the_fields_the_renamed_heavy_npo_may_not_shoot_twice():
    """The control: renamed and without the fields, nothing marks the Heavy (Marksman) of sample 12
    any more, and its second Shoot in one activation is refused (pg 39)."""
    _, events = sample_events(JOINT_OPS[0])
    with pytest.raises(RuleViolation, match="already performed Shoot this activation"):
        fold(renamed(events, strip=True))


# --- older game logs: upcast from the wording ---------------------------------------------------


@pytest.mark.parametrize("name", ["12_joint_ops_breach_legionaries_solo", "13_joint_ops_escape_kasrkin_coop"])
def test_an_older_joint_ops_log_reads_its_rules_from_the_wording(name):
    """The samples as recorded before the fields (OperativeAdded version 2): the hash chain holds on
    the payloads as recorded; the upcast reads the wording into the fields; the result is the same."""
    header, sealed = read_game_log(FIXTURES / f"{name}_v2.jsonl")
    added = [(envelope, payload) for envelope, payload in sealed if isinstance(envelope.payload, OperativeAdded)]
    assert {envelope.version for envelope, _ in added} == {2}
    assert not any(f'"{field}"' in payload.decode() for _, payload in added for field in FIELDS)
    cards = {e.payload.datacard.name: e.payload.datacard for e, _ in added}
    twice = {"Heavy (Brawler)": ("Fight",), "Heavy (Marksman)": ("Shoot",)}
    npo_cards = {n: c for n, c in cards.items() if "NPO" in c.keywords}
    assert any(c.heavy for c in npo_cards.values()) and "Trooper (Marksman)" in npo_cards
    for title, card in cards.items():
        assert card.heavy == title.startswith("Heavy") and card.double_action == twice.get(title, ())
        assert [w.one_in for w in card.weapons] == [3 if (title, w.name) == ("Trooper (Marksman)", "Special weapon") else None for w in card.weapons]
    state = fold([envelope.payload for envelope, _ in sealed])
    assert header_result(state) == header.result == sample_events(SAMPLE_GAMES / f"{name}.jsonl")[0].result


# --- rosters: fields, older wording, checks -----------------------------------------------------

NPO_CARD = """
name = "Garnison"
faction = "NPO"

[[operatives]]
name = "{name}"
apl = 3
move = 6
save = "3+"
wounds = 14
keywords = {keywords}
rules = {rules}
{fields}
weapons = [{{ name = "{weapon}", kind = "ranged", atk = 4, hit = "3+", dmg = "3/4"{weapon_fields} }}]
"""


def npo_roster(tmp_path, *, name="Schwerer Schütze", keywords='["NPO"]', rules="[]", fields="", weapon="Gewehr", weapon_fields="", faction="NPO"):
    path = tmp_path / "npo.toml"
    text = NPO_CARD.format(name=name, keywords=keywords, rules=rules, fields=fields, weapon=weapon, weapon_fields=weapon_fields)
    path.write_text(text.replace('faction = "NPO"', f'faction = "{faction}"'), encoding="utf-8")
    return path


def test_the_shipped_npo_roster_states_its_rules_as_fields_and_needs_no_wording():
    roster = load_roster(ROSTERS / "npo.toml")
    assert roster.warnings == ()
    cards = {o.datacard.name: o.datacard for o in roster.operatives}
    assert {n for n, c in cards.items() if c.heavy} == {"Heavy (Brawler)", "Heavy (Marksman)"}
    assert {n: c.double_action for n, c in cards.items() if c.double_action} == {"Heavy (Brawler)": ("Fight",), "Heavy (Marksman)": ("Shoot",)}
    assert [(w.name, w.one_in) for c in cards.values() for w in c.weapons if w.one_in] == [("Special weapon", 3)]


def test_a_translated_npo_roster_with_the_fields_loads_without_warnings(tmp_path):
    card = load_roster(npo_roster(tmp_path, fields='heavy = true\ndouble_action = ["shoot"]', weapon_fields=", one_in = 3")).operatives[0].datacard
    assert card.heavy and card.double_action == ("Shoot",) and card.weapons[0].one_in == 3  # the action as printed


@pytest.mark.parametrize(
    "fields, read, field",
    [
        ({"name": "Heavy (Marksman)"}, "name", 'heavy = true (read from the name "Heavy (Marksman)")'),
        ({"keywords": '["NPO", "HEAVY"]'}, "keyword", "heavy = true (read from the keyword HEAVY)"),
        ({"rules": '["This operative can perform two Shoot actions during its activation."]'}, "rule", 'double_action = ["Shoot"]'),
        ({"name": "Trooper (Marksman)", "weapon": "Special weapon"}, "names", 'one_in = 3 on the weapon "Special weapon"'),
    ],
)
def test_an_older_roster_relying_on_wording_loads_with_a_warning_naming_the_field(tmp_path, fields, read, field):
    roster = load_roster(npo_roster(tmp_path, **fields))
    (warning,) = roster.warnings
    assert field in warning and "write that field in the roster file" in warning and str(tmp_path) in warning
    card = roster.operatives[0].datacard
    assert (card.heavy, card.double_action, card.weapons[0].one_in) == (
        field.startswith("heavy"),
        ("Shoot",) if "double" in field else (),
        3 if "one_in" in field else None,
    )


def test_heavy_wording_is_read_only_on_npo_datacards(tmp_path):
    """A kill team's "Heavy Gunner" is no Heavy NPO: no field, no warning."""
    roster = load_roster(npo_roster(tmp_path, name="Heavy Gunner", keywords='["LEGIONARY", "HEAVY"]', faction="Chaos"))
    assert roster.warnings == () and not roster.operatives[0].datacard.heavy


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"fields": 'double_action = ["Shot"]'}, "double_action 'Shot': not an action; name actions as printed, e.g. double_action = [\"Shoot\"]"),
        ({"weapon_fields": ", one_in = 1"}, "weapon 'Gewehr': one_in 1 is below 2"),
        ({"fields": "heavy = 1"}, "heavy: Expected `bool`, got `int`"),
    ],
)
def test_bad_fields_are_refused_naming_the_field(tmp_path, fields, message):
    with pytest.raises(RosterError) as caught:
        load_roster(npo_roster(tmp_path, **fields))
    assert message in str(caught.value)
    result = run("roster", "check", str(tmp_path / "npo.toml"))
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_a_unique_action_can_be_performed_twice_when_the_card_says_so(tmp_path):
    path = npo_roster(tmp_path, fields='double_action = ["Scan"]\nunique_actions = [{ name = "Scan", ap = 1 }]')
    assert load_roster(path).operatives[0].datacard.double_action == ("Scan",)


def test_roster_json_schema_accepts_the_shipped_rosters_and_documents_the_fields(tmp_path):
    import tomllib

    schema = json.loads((SCHEMAS / "roster.json").read_text())
    for path in sorted(ROSTERS.glob("*.toml")):
        jsonschema.validate(tomllib.loads(path.read_text()), schema)
    operative, weapon = schema["$defs"]["OperativeEntry"]["properties"], schema["$defs"]["WeaponEntry"]["properties"]
    assert "pg 89" in operative["heavy"]["description"] and "pg 39" in operative["double_action"]["description"]
    assert "1 in 3" in weapon["one_in"]["description"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(tomllib.loads(npo_roster(tmp_path, fields="heavy = 1").read_text()), schema)


# --- not applied: reported by roster check and at game creation ---------------------------------


def test_not_applied_names_the_datacard_the_text_and_the_field_to_write(tmp_path):
    """Wording ktlog cannot read (German) is not guessed at; English that reads like a rule is named."""
    rules = '["Kann zwei Shoot-Aktionen ausführen", "Only one in three may carry the launcher"]'
    card = load_roster(npo_roster(tmp_path, rules=rules, weapon_fields=', rules = ["Piercing 1", "Frobnicate 2"]')).operatives[0].datacard
    assert not_applied(card, PRELIMINARY) == [
        (
            "Schwerer Schütze: 'Only one in three may carry the launcher' reads like a weapon only 1 in x operatives can have, and no "
            "weapon has one_in: write one_in = x on that weapon (pg 89)"
        ),
        (
            "Schwerer Schütze: weapon 'Gewehr': 'Frobnicate 2' is not a weapon rule ktlog knows (pg 111): its attacks are checked "
            "without it; note its effect when it is used"
        ),
    ]


def test_not_applied_finds_each_kind_of_unrecognised_rule(tmp_path):
    rules = '["This operative may perform 2 Fight actions per activation", "Only 1 in 3 can have this weapon"]'
    card = (
        load_roster(
            npo_roster(
                tmp_path,
                name="Brute",
                keywords='["NPO", "HEAVY"]',
                rules=rules,
                fields="heavy = false",
                weapon_fields=', rules = ["Frobnicate 2"]',
                faction="Foes",
            )
        )
        .operatives[0]
        .datacard
    )
    found = not_applied(card, PRELIMINARY, npo=True)
    assert len(found) == 4
    assert "reads like an action performed twice in an activation" in found[0] and 'write double_action = ["Fight"]' in found[0]
    assert "'Only 1 in 3 can have this weapon' reads like a weapon only 1 in x operatives can have" in found[1]
    assert "the keyword HEAVY reads like a Heavy NPO, and the datacard has no heavy = true" in found[2]
    assert "weapon 'Gewehr': 'Frobnicate 2' is not a weapon rule ktlog knows (pg 111)" in found[3]
    assert len(not_applied(card, PRELIMINARY)) == 3  # Heavy-looking matters on the NPOs' side only


def test_recognised_rules_and_kt21_rules_under_kt21_are_not_reported():
    for path in sorted(ROSTERS.glob("*.toml")):
        ruleset = RULESETS["kt21" if path.stem.startswith("kt21_") else "kt24-joint"]
        roster = load_roster(path)
        assert [t for o in roster.operatives for t in not_applied(o.datacard, ruleset, npo=roster.faction == "NPO")] == [], path.stem


def test_roster_check_reports_what_is_not_applied_and_the_older_wording(tmp_path):
    path = npo_roster(tmp_path, name="Heavy Brute", rules='["Can perform two Shoot actions"]', weapon_fields=', rules = ["Frobnicate 2"]')
    result = run("roster", "check", str(path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"warning: {path}: operative 'Heavy Brute': heavy = true (read from the name \"Heavy Brute\")")
    assert lines[1].startswith("not applied: Heavy Brute: the rule 'Can perform two Shoot actions' reads like an action performed twice")
    assert lines[2].startswith("not applied: Heavy Brute: weapon 'Gewehr': 'Frobnicate 2' is not a weapon rule ktlog knows")
    assert (
        lines[3] == f"{path}: usable, with 1 warning and 2 not applied (above): Garnison, 1 operative; no archetypes (add "
        "archetypes = [...] for the game's records)"
    )
    fine = run("roster", "check", str(ROSTERS / "kt21_veteran_guardsmen.toml"), "--ruleset", "kt21")
    assert fine.exit_code == 0 and "fine: " in fine.output and "not applied" not in fine.output
    assert "not applied: " in run("roster", "check", str(ROSTERS / "kt21_veteran_guardsmen.toml")).output  # AP1 is KT21's


def new_joint_ops(db: str, npo: str, *more: str):
    """`ktlog new` of a Joint Ops Breach: Ann's Kasrkin against the NPOs of `npo` (ROSTER[:OP,OP])."""
    return run("--db", db, "new", "--ruleset", "kt24-joint", "--mission", "breach", "--killzone", "volkus",
               "--player", f"Ann={ROSTERS / 'kasrkin.toml'}", "--npo", f"NPOs={npo}", *more)  # fmt: skip


def test_ktlog_new_reports_what_is_not_applied_at_game_creation(tmp_path):
    """A hand-written NPO roster (no NPO faction or keyword, so its HEAVY keyword is not read as
    the field) joined as the NPOs: the game is created, and what is not applied is said."""
    path = npo_roster(tmp_path, name="Brute", keywords='["HEAVY"]', faction="Foes", weapon_fields=', rules = ["Frobnicate 2"]')
    db = str(tmp_path / "games.db")
    result = new_joint_ops(db, str(path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == (
        "not applied: Brute: the keyword HEAVY reads like a Heavy NPO, and the datacard has no heavy = true: "
        "reinforcements count it as not Heavy (pg 92, 94); write heavy = true if it is one"
    )
    assert lines[2].startswith("not applied: Brute: weapon 'Gewehr': 'Frobnicate 2' is not a weapon rule ktlog knows")
    assert len(json.loads(new_joint_ops(db, str(path), "--json").stdout)["not_applied"]) == 2
    clean = new_joint_ops(db, f"{ROSTERS / 'npo.toml'}:heavy-brawler")
    assert clean.exit_code == 0 and "not applied" not in clean.output and "warning" not in clean.output


def test_each_datacard_is_reported_once_at_game_creation(tmp_path):
    card = load_roster(npo_roster(tmp_path, weapon_fields=', rules = ["Frobnicate 2"]')).operatives[0].datacard
    setup: list[Event] = [PlayerJoined(player="NPOs", kill_team="Garnison", npo=True)]
    setup += [OperativeAdded(player="NPOs", operative=f"n{i}", datacard=card) for i in range(3)]
    assert len(not_applied_in_setup(setup, PRELIMINARY)) == 1


# --- ktlog show --json: the whole player order --------------------------------------------------


def test_show_json_of_a_multiplayer_game_gives_the_whole_player_order():
    _, events = sample_events(next(SAMPLE_GAMES.glob("10_multiplayer_*.jsonl")))
    state = fold(events[: next(i for i, e in enumerate(events) if type(e).__name__ == "OperativeActivated")])
    view = state_view("g", state)
    assert len(view["order"]) == 3 and set(view["order"]) == set(state.players) and view["order"][0] == view["initiative"]


# --- the terminal UI's new game ---------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_new_game_form_reports_what_is_not_applied(tmp_path, store, size):
    path = npo_roster(tmp_path, name="Gunner [red]", faction="Foes", weapon_fields=', rules = ["Frobnicate [b]2"]')

    @tui_test
    async def create() -> list[str]:
        async with make_app(store, screen="new").run_test(size=size) as pilot:
            for key, roster in (("1", TINY), ("2", path)):
                field = pilot.app.screen.query_one(f"#file-{key}", Input)
                field.focus()
                field.value = str(roster)
                await press(pilot, "enter")
            await press(pilot, "ctrl+s")
            assert type(pilot.app.screen).__name__ == "SetUpScreen"
            return [n.message for n in pilot.app._notifications]

    (message,) = create()
    assert message == (
        "not applied: Gunner [red]: weapon 'Gewehr': 'Frobnicate [b]2' is not a weapon rule ktlog knows (pg 111): "
        "its attacks are checked without it; note its effect when it is used"
    )  # shown as text, not markup
    assert len(store.games()) == 1


# --- docs/file-formats.md, the roster file: its examples run -------------------------------------

DOC = (ROOT / "docs" / "file-formats.md").read_text(encoding="utf-8")
DOC_FILES = {
    "old-npo.toml": 'name = "Old NPOs"\nfaction = "NPO"\narchetypes = ["Security"]\n\n[[operatives]]\nname = "Heavy (Marksman)"\n'
    'apl = 3\nmove = 6\nsave = "3+"\nwounds = 14\nkeywords = ["HEAVY"]\nweapons = []\n',
    "brute.toml": 'name = "Brutes"\narchetypes = ["Security"]\n\n[[operatives]]\nname = "Brute"\napl = 2\nmove = 6\nsave = "4+"\n'
    'wounds = 10\nrules = ["May perform 2 Fight actions"]\nweapons = [{ name = "Club", kind = "melee", atk = 4, hit = "4+", '
    'dmg = "3/4", rules = ["Frobnicate 2"] }]\n',
}


def test_the_roster_format_pages_example_roster_loads_with_its_fields(tmp_path):
    block = next(b.split("```", 1)[0] for b in DOC.split("```toml\n")[1:] if "Schwerer Schütze" in b)
    (tmp_path / "example.toml").write_text(block, encoding="utf-8")
    roster = load_roster(tmp_path / "example.toml")
    card = roster.operatives[0].datacard
    assert roster.warnings == () and card.heavy and card.double_action == ("Shoot",)
    assert [w.one_in for w in card.weapons] == [None, 3, None]
    assert not_applied(card, RULESETS["kt24-joint"], npo=True) == []


@pytest.mark.parametrize("name", sorted(DOC_FILES))
def test_the_roster_format_pages_roster_check_examples_print_what_they_show(name, tmp_path, monkeypatch):
    shown = DOC.split(f"    $ ktlog roster check {name}\n", 1)[1].split("\n\n", 1)[0]
    expected = [line.removeprefix("    ") for line in shown.splitlines()]
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(DOC_FILES[name], encoding="utf-8")
    result = run("roster", "check", name)
    assert result.exit_code == 0 and result.output.splitlines()[: len(expected)] == expected


def test_an_imported_ability_that_says_two_shoot_actions_becomes_double_action(tmp_path):
    ros = (FIXTURES / "bsdata" / "test-troopers.ros").read_text(encoding="utf-8")
    ability = '<characteristic name="Ability" typeId="3467">Illustrative text.'
    assert ros.count(ability) == 1
    source = tmp_path / "team.ros"
    source.write_text(
        ros.replace(ability, ability.replace("Illustrative text.", "This operative can perform two Shoot actions during its activation.")), encoding="utf-8"
    )
    result = run("roster", "import", str(source), "--out", str(tmp_path / "team.toml"))
    assert result.exit_code == 0, result.output
    assert "double_action = [\"Shoot\"]: read from the ability 'Steady Hands'" in result.output
    roster = load_roster(tmp_path / "team.toml")
    assert [o.datacard.double_action for o in roster.operatives if "Steady Hands" in o.datacard.rules] == [("Shoot",)]
    assert {o.datacard.double_action for o in roster.operatives if "Steady Hands" not in o.datacard.rules} == {()}

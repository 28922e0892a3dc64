"""The shooting sequence (pg 42-43) and weapon rules (pg 111), from hand-worked dice."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from conftest import gun

from ktlog.cli import cli
from ktlog.data import SAMPLE_ROSTERS
from ktlog.envelopes import canonical
from ktlog.errors import InvalidEvent, RuleViolation
from ktlog.events import DamageInflicted, OperativeActivated, Shot
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, attack
from ktlog.play.builder import shoot as shoot_action
from ktlog.rules.rulings import allocate_saves
from ktlog.rules.shooting import hot_damage, resolve_shooting, splash_damage
from ktlog.rules.weapons import weapon_profile
from ktlog.storage.store import Store
from ktlog.text.describe import describe
from ktlog.text.event_text import event_line, parse_event


def shoot(weapon, dice, saves, save=4, **kw):
    return resolve_shooting(weapon, attack("t", dice, saves, **kw), hit=weapon.hit, save=save)


def test_sequence_pg42_sixes_are_critical_ones_fail_saves_block():
    # 6 critical, 5 normal, 3 and 1 fail (Hit 4+). Saves 6 (critical) and 4 (normal) block both.
    r = shoot(gun(), "6531", "642")
    assert (r.critical_hits, r.normal_hits) == (1, 1)
    assert (r.critical_saves, r.normal_saves) == (1, 1)
    assert r.damage == 0


def test_two_normal_saves_block_a_critical_pg43():
    r = shoot(gun(), "6222", "541")
    assert (r.critical_hits, r.normal_hits, r.normal_saves) == (1, 0, 2)
    assert r.damage == 0


def test_one_normal_save_cannot_block_a_critical():
    # 1 critical (4) and 1 normal (3); one normal save blocks the normal: 4 damage.
    assert shoot(gun(), "6411", "411").damage == 4


def test_critical_save_blocks_a_critical():
    assert shoot(gun(), "6111", "611").damage == 0


def test_allocation_minimises_damage_ruling_4():
    # Two normal saves against 1 critical (4) and 2 normals (3 each): blocking the normals
    # leaves 4, pairing them on the critical leaves 6.
    assert allocate_saves(2, 1, 2, 0, 3, 4) == (0, 1)
    # A weapon whose critical damage is lower (meltagun 6/3): the critical save blocks the normal.
    melta = gun("Melta", 4, 4, (6, 3))
    assert shoot(melta, "6511", "611").damage == 3


def test_cover_save_retains_one_normal_save_and_rolls_two():
    r = shoot(gun(), "5521", "41", cover=True)
    assert r.normal_saves == 2
    assert r.damage == 0
    with pytest.raises(RuleViolation, match="rolls 2 defence dice"):
        shoot(gun(), "5521", "411", cover=True)


def test_saturate_denies_the_cover_save():
    r = shoot(gun("Flamer", 4, 4, (3, 3), "Saturate"), "5521", "411", cover=True)
    assert r.normal_saves == 1
    assert r.damage == 3


def test_piercing_removes_defence_dice():
    assert shoot(gun("P", 4, 4, (3, 4), "Piercing 1"), "5511", "44").damage == 0
    with pytest.raises(RuleViolation, match="rolls 2 defence dice"):
        shoot(gun("P", 4, 4, (3, 4), "Piercing 1"), "5511", "441")


def test_piercing_crits_only_when_a_critical_is_retained():
    pc = gun("PC", 4, 4, (3, 4), "Piercing Crits 1")
    assert shoot(pc, "5511", "441").defence_dice == 3  # no critical: three dice
    r = shoot(pc, "6511", "44")  # a critical: two dice
    assert r.defence_dice == 2
    assert r.damage == 3  # the two normal saves together block the critical; the normal gets through


def test_obscured_discards_a_success_and_criticals_become_normal():
    # 6, 5, 4 are three successes; obscured: one discarded, the 6 retained as normal.
    r = shoot(gun(), "6541", "111", obscured=True)
    assert (r.critical_hits, r.normal_hits) == (0, 2)
    assert r.damage == 6
    assert not r.critical_retained


def test_obscured_overrides_lethal_and_rending():
    w = gun("L", 4, 4, (3, 4), "Lethal 5+", "Rending")
    r = shoot(w, "6541", "111", obscured=True)
    assert (r.critical_hits, r.normal_hits) == (0, 2)


def test_accurate_retains_normal_successes_without_rolling():
    w = gun("A", 4, 4, (3, 4), "Accurate 1")
    r = shoot(w, "211", "111", accurate=1)
    assert (r.normal_hits, r.critical_hits, r.attack_dice) == (1, 0, 4)
    with pytest.raises(RuleViolation, match="Accurate 1"):
        shoot(w, "21", "111", accurate=2)


def test_lethal_makes_criticals():
    r = shoot(gun("L", 4, 4, (3, 5), "Lethal 5+"), "5541", "111")
    assert (r.critical_hits, r.normal_hits) == (2, 1)
    assert r.damage == 13


def test_rending_punishing_severe():
    rending = shoot(gun("R", 4, 4, (3, 4), "Rending"), "6411", "111")
    assert (rending.critical_hits, rending.normal_hits) == (2, 0)
    punishing = shoot(gun("P", 4, 4, (3, 4), "Punishing"), "6211", "111")
    assert (punishing.critical_hits, punishing.normal_hits) == (1, 1)
    severe = shoot(gun("S", 4, 4, (3, 4), "Severe", "Piercing Crits 1"), "5411", "11")
    # Severe turns a normal into a critical, and that critical counts for Piercing Crits (pg 111).
    assert (severe.critical_hits, severe.normal_hits, severe.defence_dice) == (1, 1, 2)
    no_severe_needed = shoot(gun("S", 4, 4, (3, 4), "Severe"), "6411", "111")
    assert (no_severe_needed.critical_hits, no_severe_needed.normal_hits) == (1, 1)


def test_devastating_damage_is_inflicted_even_when_the_critical_is_blocked():
    w = gun("D", 4, 4, (3, 4), "Devastating 3")
    r = shoot(w, "6111", "611")
    assert r.damage == 3


def test_hot_pg111():
    assert hot_damage(2, 4) == 4
    assert hot_damage(3, 4) == 6
    assert hot_damage(4, 4) == 0


def test_wrong_number_of_attack_dice_is_refused():
    with pytest.raises(RuleViolation, match="rolls 4 attack dice .* but 3 were entered"):
        shoot(gun(), "654", "111")


@pytest.mark.parametrize(
    ("rules", "rerolls", "message"),
    [
        ((), "1=5/balanced", "needs a weapon with Balanced"),
        (("Balanced",), "1=5/balanced 2=5/balanced", "one attack die only"),
        (("Ceaseless",), "1=5/ceaseless 2=5/ceaseless", "one result only"),
        (("Relentless",), "1=5/relentless 1=6/command", "re-rolled twice"),
    ],
)
def test_reroll_rules_pg50_and_pg111(rules, rerolls, message):
    w = gun("W", 4, 4, (3, 4), *rules)
    with pytest.raises(RuleViolation, match=message):
        shoot(w, "1211", "111", rerolls=rerolls)


def test_rerolls_apply_before_retention():
    ceaseless = gun("C", 4, 4, (3, 4), "Ceaseless")
    r = shoot(ceaseless, "1121", "111", rerolls="1=6/ceaseless 2=4/ceaseless 4=5/ceaseless")
    assert (r.critical_hits, r.normal_hits) == (1, 2)
    cmd = shoot(gun(), "1111", "111", rerolls="3=6/command", save_rerolls="1=4/command")
    assert cmd.command_rerolls_attacker == 1 and cmd.command_rerolls_defender == 1
    assert cmd.damage == 4  # the re-rolled 6 is a critical; one normal save cannot block it


def test_defence_dice_take_only_command_rerolls():
    with pytest.raises(RuleViolation, match="only be re-rolled with Command Re-roll"):
        shoot(gun("B", 4, 4, (3, 4), "Balanced"), "1111", "111", save_rerolls="1=6/balanced")


def test_weapon_rule_text_is_parsed():
    p = weapon_profile(('Range 8"', "Lethal 5+", "Piercing Crits 1", '1" Devastating 2', "Heavy (Dash only)", "Accurate 1", "Accurate 1", "Mystery"))
    assert (p.range, p.lethal, p.piercing_crits, p.devastating, p.devastating_splash) == (8, 5, 1, 2, 1)
    assert p.heavy and p.heavy_only == "Dash"
    assert p.accurate == 2  # two Accurate 1 count as Accurate 2 (pg 111)
    assert p.other == ("Mystery",)


@pytest.mark.parametrize(
    ("rules", "cover", "obscured"),
    [
        ((), False, False),
        (("Lethal 5+", "Piercing 1"), True, False),
        (("Rending", "Devastating 2"), False, True),
        (("Severe", "Piercing Crits 1", "Punishing"), True, False),
        (("Saturate",), True, False),
    ],
)
def test_expected_damage_is_the_mean_over_every_way_the_dice_fall(rules, cover, obscured):
    from itertools import product

    from ktlog.rules.dice import attack_successes
    from ktlog.rules.shooting import defence_dice_collected, expected_damage, expected_damages

    weapon = gun("W", 3, 4, (3, 5), *rules)
    profile = weapon_profile(weapon.rules)
    means = []
    for dice in product(range(1, 7), repeat=3):
        crit = attack_successes(dice, 4, profile, obscured=obscured).critical_retained
        saves_rolled = defence_dice_collected(profile, crit) - (1 if cover and not profile.saturate else 0)
        damages = []
        for saves in product(range(1, 7), repeat=saves_rolled):
            a = attack("t", "".join(map(str, dice)), "".join(map(str, saves)), cover=cover, obscured=obscured)
            damages.append(resolve_shooting(weapon, a, hit=4, save=4).damage)
        means.append(sum(damages) / len(damages))
    # Every roll of the attack dice is equally likely, and so is every roll of the defence dice
    # that follows it: the expectation is the mean over attack rolls of the mean over defence rolls.
    assert expected_damage(weapon, profile, 4, 4, 0, cover, obscured) == pytest.approx(sum(means) / len(means))
    # against several saves at once, each to the last digit as against it alone
    assert expected_damages(weapon, profile, 4, (2, 3, 4, 5, 6), 0, cover, obscured) == tuple(
        expected_damage(weapon, profile, 4, save, 0, cover, obscured) for save in (2, 3, 4, 5, 6)
    )


# --- x" Devastating's other operatives (pg 111), in a game -------------------------------------

RAIL = "Magna-rail rifle"
"""The Hearthkyn gunner's: Atk 4, Hit 4+, Dmg 5/5, 1" Devastating 2, Piercing 1 (sample roster)."""


def _rail_game() -> GameBuilder:
    """Turning point 1, Alice's Hearthkyn first: her gunner is about to shoot Bob's Legionaries."""
    g = GameBuilder(killzone="volkus")
    g.player("Alice", load_roster(SAMPLE_ROSTERS / "hearthkyn.toml"), ["hearthkyn-gunner", "theyn"])
    g.player("Bob", load_roster(SAMPLE_ROSTERS / "legionaries.toml"), ["legionary-1", "legionary-2", "heavy-gunner"])
    g.setup(rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1, markers=[("centre", "Bob"), ("west", "Alice"), ("east", "Bob")])
    g.turning_point(1, rolls={"Alice": 4, "Bob": 3}, initiative="Alice")
    return g.add(OperativeActivated(operative="hearthkyn-gunner", order="engage"))


def _rail(dice: str = "6651", saves: str = "66", **kw) -> Shot:
    return shoot_action(RAIL, "legionary-1", dice, saves, **kw)("hearthkyn-gunner")


def test_each_splashed_operative_takes_x_for_each_retained_critical():
    """Two criticals (6, 6) with 1" Devastating 2: 4 damage to the target before its saves (two
    6s block both criticals, the 5 gets through: 4 + 5 = 9), and 4 to each splashed operative,
    friend or foe, whatever their saves."""
    g = _rail_game().add(_rail(splashed=("legionary-2", "theyn")))
    wounds = {o: g.state.operatives[o].wounds for o in ("legionary-1", "legionary-2", "theyn", "heavy-gunner")}
    assert wounds == {"legionary-1": 14 - 9, "legionary-2": 14 - 4, "theyn": 11 - 4, "heavy-gunner": 14}
    assert not [w for w in g.state.warnings if w.seq == g.seq]


def test_an_operative_splashed_to_0_wounds_is_incapacitated_by_the_shooter():
    g = _rail_game().add(DamageInflicted(operative="legionary-2", damage=10, source="other"))
    g.add(_rail(splashed=("legionary-2",)))
    assert g.state.operatives["legionary-2"].incapacitated
    (last,) = [i for i in g.state.incapacitations if i.operative == "legionary-2"]
    assert (last.by_player, last.by_operative, last.source) == ("Alice", "hearthkyn-gunner", "devastating")


def test_with_no_critical_retained_the_splashed_operatives_take_nothing():
    g = _rail_game().add(_rail("5541", "11", splashed=("legionary-2",)))
    assert g.state.operatives["legionary-2"].wounds == 14
    assert not [w for w in g.state.warnings if w.seq == g.seq]


def test_ktlog_event_warns_when_a_critical_retained_names_nobody_splashed_and_records_the_splash(tmp_path):
    """Without positions nobody can say who is within 1": the shot is recorded and the table is
    told who may take the damage and how to name them; naming them applies it."""
    g = _rail_game()
    with Store(tmp_path / "rail.db") as store:
        game_id = store.new_game(g.events[0], g.events[1:])

    def event(*args: str) -> str:
        result = CliRunner().invoke(
            cli, ["--db", str(tmp_path / "rail.db"), "event", game_id[:8], "Shot", "operative=hearthkyn-gunner", f"weapon={RAIL}", *args]
        )
        assert result.exit_code == 0, result.output
        return result.output

    out = event("target=legionary-1", "dice=6651", "saves=66")
    assert 'warning: Magna-rail rifle is 1" Devastating: each other operative visible to and within 1" of legionary-1 takes 4 damage (pg 111)' in out
    assert "splashed=ID,ID" in out
    CliRunner().invoke(cli, ["--db", str(tmp_path / "rail.db"), "undo", game_id[:8]])
    out = event("target=legionary-1", "dice=6651", "saves=66", "splashed=legionary-2,theyn")
    assert '4 damage to legionary-2 and theyn within 1" (Devastating)' in out and "warning" not in out
    assert "legionary-2: 10/14 wounds" in out and "theyn: 7/11 wounds" in out
    assert "splashed=ID,ID" not in event("target=heavy-gunner", "dice=5541", "saves=11", "--override", "Shoot twice")  # no critical: nothing to splash


@pytest.mark.parametrize(
    ("shot", "error", "message"),
    [
        (shoot_action("HYLas beam cannon", "legionary-1", "6651", "66", splashed=("legionary-2",)), RuleViolation, 'no x" Devastating rule'),
        (_rail(splashed=("legionary-1",)), InvalidEvent, "is the target"),
        (_rail(splashed=("legionary-2", "legionary-2")), InvalidEvent, "named once"),
        (_rail(splashed=("nobody",)), InvalidEvent, "no operative 'nobody'"),
        (shoot_action(RAIL, "legionary-1", damage=9, splashed=("legionary-2",)), InvalidEvent, "quick mode"),
    ],
)
def test_splashed_operatives_that_cannot_be_are_refused_naming_the_rule(shot, error, message):
    g = _rail_game()
    made = shot if isinstance(shot, Shot) else shot("hearthkyn-gunner")
    with pytest.raises(error) as caught:
        g.add(made)
    assert message in str(caught.value)
    assert caught.value.rule == "Devastating, pg 111" or "no operative" in message


def test_an_incapacitated_operative_cannot_be_splashed():
    g = _rail_game().add(DamageInflicted(operative="legionary-2", damage=14, source="other"))
    with pytest.raises(InvalidEvent, match="incapacitated"):
        g.add(_rail(splashed=("legionary-2",)))


def test_the_log_says_who_the_splash_reached_and_the_event_line_reads_back():
    g = _rail_game()
    shot = _rail(splashed=("legionary-2", "theyn"))
    g.add(shot)
    said = describe(shot, state=g.state)
    assert said == 'hearthkyn-gunner shoots Magna-rail rifle at legionary-1 (6651 vs 66); 4 damage to legionary-2 and theyn within 1" (Devastating)'
    assert describe(shot) == "hearthkyn-gunner shoots Magna-rail rifle at legionary-1 (6651 vs 66); Devastating damage to legionary-2 and theyn"
    line = event_line(shot)
    assert line.endswith("splashed=legionary-2,theyn") and parse_event(line) == shot
    assert "splashed" not in canonical(_rail()).decode()  # left out when empty: older events keep their bytes


def test_splash_damage_is_x_per_retained_critical_lethal_and_obscured_included():
    profile = weapon_profile(('1" Devastating 2', "Lethal 5+"))
    assert splash_damage(profile, attack("t", "6551", "66")) == 3 * 2
    assert splash_damage(profile, attack("t", "6551", "66", obscured=True)) == 0  # criticals retained as normal (pg 53)
    assert splash_damage(profile, attack("t", "1111", "66", rerolls="1=6/command")) == 2
    assert splash_damage(weapon_profile(('1" Devastating 2', "Severe")), attack("t", "5541", "66")) is None  # needs the Hit stat
    assert splash_damage(profile, attack("t", damage=4)) is None

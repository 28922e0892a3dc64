"""Positions as events (issue 44): a game created with a layout records where each operative is
set up and where each move ends, and the rules check them by the board, each refusal naming the
rule and its page; a game without positions keeps its bytes."""

from __future__ import annotations

import msgspec
import pytest

from ktlog.board.layout import Layout, Objective
from ktlog.data import SAMPLE_GAMES, SAMPLE_ROSTERS
from ktlog.envelopes import canonical
from ktlog.errors import InvalidEvent, RuleViolation
from ktlog.events import ActivationEnded, Charged, Dashed, GameCreated, ObjectivesControlled, OperativeActivated, Repositioned, ShootingAttack, Shot, decodable
from ktlog.files.gamelog import read_game_log
from ktlog.files.layouts import load_layout, shipped
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, charge, dash, fall_back, reposition, shoot
from ktlog.reducer import fold
from ktlog.text.event_text import parse_event

VOLKUS = load_layout(shipped()["volkus-like"])
START = {"sergeant": (8, 19), "gunner-plasma": (23, 19), "legionary-1": (9, 2), "heavy-gunner": (21, 2)}
"""Alice's Kasrkin in drop zone A (y 17-22), Bob's Legionaries in B (y 0-5), clear of terrain."""
MARKERS = [("centre", "Bob"), ("west", "Alice"), ("east", "Bob")]


def game(
    positions: dict[str, tuple[float, float]] | None = START, layout: Layout | None = VOLKUS, alice: tuple[str, str] = ("sergeant", "gunner-plasma")
) -> GameBuilder:
    g = GameBuilder(killzone="volkus", layout=layout)
    g.player("Alice", load_roster(SAMPLE_ROSTERS / "kasrkin.toml"), list(alice))
    g.player("Bob", load_roster(SAMPLE_ROSTERS / "legionaries.toml"), ["legionary-1", "heavy-gunner"])
    g.setup(rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1, markers=MARKERS, positions=positions)
    return g.turning_point(1, rolls={"Alice": 3, "Bob": 4}, initiative="Bob")


def refused(g: GameBuilder, *events) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        g.add(*events)
    return caught.value


# --- a game without positions is unchanged -------------------------------------------------------


@pytest.mark.parametrize("path", sorted(SAMPLE_GAMES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_sample_event_encodes_to_its_stored_bytes(path):
    """The new fields (x, y, z, layout) are left out when None: each stored payload, decoded and
    encoded again, is the same bytes, so every sample game's hash chain holds."""
    decoder = msgspec.json.Decoder(decodable())
    _, sealed = read_game_log(path)
    for envelope, payload in sealed:
        assert canonical(decoder.decode(payload)) == payload, envelope.seq


def test_events_without_positions_have_no_position_fields():
    assert b'"x"' not in canonical(Repositioned(operative="a"))
    assert b"layout" not in canonical(GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21"))


def test_a_whole_number_position_is_stored_as_a_reader_encodes_it_again():
    typed = Dashed(operative="a", x=12, y=3)
    again = msgspec.json.decode(canonical(typed), type=decodable())
    assert canonical(again) == canonical(typed) == b'{"operative":"a","type":"Dashed","x":12.0,"y":3.0}'


def test_the_event_line_takes_x_y_z():
    event = parse_event("Repositioned operative=sergeant x=8.5 y=15 z=3")
    assert isinstance(event, Repositioned) and (event.x, event.y, event.z) == (8.5, 15.0, 3.0)


def test_the_layout_is_in_the_game_and_its_state():
    g = game()
    created = g.events[0]
    assert isinstance(created, GameCreated) and created.layout == VOLKUS
    assert g.state.layout == VOLKUS
    assert {o.id: (o.x, o.y) for o in g.state.operatives.values()} == {k: (float(x), float(y)) for k, (x, y) in START.items()}


def test_a_position_in_a_game_without_a_layout_is_refused():
    g = game(positions=None, layout=None)
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    error = refused(g, Repositioned(operative="legionary-1", x=9, y=5))
    assert isinstance(error, InvalidEvent) and "no layout" in str(error) and "--layout" in str(error)


def test_x_without_y_is_refused_naming_the_field():
    g = game()
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    error = refused(g, Repositioned(operative="legionary-1", x=9))
    assert error.rule == "y" and "both x and y" in str(error)


def test_an_imported_game_with_an_impossible_layout_is_refused():
    bad = msgspec.structs.replace(VOLKUS, width=0.0)
    with pytest.raises(InvalidEvent, match="field width"):
        fold([(1, GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21", layout=bad))])
    other = msgspec.structs.replace(VOLKUS, killzone="gallowdark")
    with pytest.raises(InvalidEvent, match="gallowdark killzone"):
        fold([(1, GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-21", layout=other))])


# --- set-up --------------------------------------------------------------------------------------


def test_set_up_outside_the_drop_zone_is_refused():
    with pytest.raises(RuleViolation) as caught:
        game(positions={**START, "sergeant": (8, 12)})
    assert caught.value.rule == "Set Up Operatives, pg 110" and "drop zone 'A'" in str(caught.value)


def test_set_up_on_terrain_is_refused():
    with pytest.raises(RuleViolation) as caught:
        game(positions={**START, "gunner-plasma": (20, 19)})  # the south ruin's east wall
    assert caught.value.rule == "Terrain and Movement, pg 56"


# --- moves ---------------------------------------------------------------------------------------


def test_dash_moves_at_most_3_inches():
    g = game()
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    error = refused(g, Dashed(operative="legionary-1", x=9, y=6))  # 4" down the board
    assert error.rule == "Dash, pg 40" and '4"' in str(error) and 'allows 3"' in str(error)
    g.add(Dashed(operative="legionary-1", x=9, y=5))
    assert (g.state.operatives["legionary-1"].x, g.state.operatives["legionary-1"].y) == (9.0, 5.0)


def test_reposition_moves_at_most_move_and_counts_increments_rounded_up():
    g = game()
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    error = refused(g, Repositioned(operative="legionary-1", x=9, y=8.2))  # 6.2" rounds up to 7"
    assert error.rule == "Reposition, pg 40" and '7"' in str(error) and 'allows 6"' in str(error)
    g.add(Repositioned(operative="legionary-1", x=9, y=8))


def test_an_override_accepts_a_longer_move_and_is_stored():
    g = game()
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    g.add(Repositioned(operative="legionary-1", x=9, y=9, override="Angel of Death ploy"))
    assert [(w.seq, w.rule, w.reason) for w in g.state.warnings if w.seq == g.seq] == [(g.seq, "Reposition, pg 40", "Angel of Death ploy")]
    assert g.state.operatives["legionary-1"].y == 9.0


EAST_EDGE = {**START, "legionary-1": (29, 3), "sergeant": (29, 19)}
"""Two operatives on the clear strip along the board's east edge (x 28.4-30)."""


def _close(g: GameBuilder) -> GameBuilder:
    """Turning point 1: Bob's legionary walks up to Alice's sergeant (1.5" between their bases);
    turning point 2 begins, Bob first."""
    g.activate("legionary-1", "engage", reposition(x=29, y=9), dash(x=29, y=11))
    g.activate("sergeant", "engage", reposition(x=29, y=13.5))
    g.activate("heavy-gunner", "conceal")
    g.activate("gunner-plasma", "conceal")
    g.end_turning_point()
    return g.turning_point(2, rolls={"Alice": 1, "Bob": 6}, initiative="Bob")


def test_charge_must_end_within_control_range_of_its_target():
    g = _close(game(positions=EAST_EDGE))
    g.activate("legionary-1", "engage", end=False)
    error = refused(g, Charged(operative="legionary-1", targets=("sergeant",), x=29, y=11.2))  # 1.18" between the bases
    assert error.rule == "Charge, pg 41" and "not within control range of sergeant" in str(error)
    g.add(Charged(operative="legionary-1", targets=("sergeant",), x=29, y=12.3))  # 0.08" between them
    assert g.state.operatives["legionary-1"].engaged_with == ["sergeant"]


def test_reposition_cannot_end_within_an_enemys_control_range():
    g = _close(game(positions=EAST_EDGE))
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    error = refused(g, Repositioned(operative="legionary-1", x=29, y=12.3))
    assert error.rule == "Reposition, pg 40" and "within control range of sergeant" in str(error)


def test_fall_back_cannot_end_within_control_range():
    g = _close(game(positions=EAST_EDGE))
    g.activate("legionary-1", "engage", charge("sergeant", x=29, y=12.3))
    g.add(OperativeActivated(operative="sergeant", order="engage"))
    error = refused(g, fall_back(x=29, y=13.8)("sergeant"))
    assert error.rule == "Fall Back, pg 40" and "within control range of legionary-1" in str(error)
    g.add(fall_back(x=29, y=17)("sergeant"))


# --- shooting ------------------------------------------------------------------------------------


def test_declared_cover_that_the_terrain_contradicts_is_refused_with_both_values():
    g = game(positions={**START, "legionary-1": (9, 4)})
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    # from (9, 4) to the sergeant at (8, 19): nothing within 1" of the sergeant, so no cover
    error = refused(g, Shot(operative="legionary-1", weapon="Boltgun", attacks=(ShootingAttack(target="sergeant", damage=0, cover=True),)))
    assert error.rule == "Cover, pg 47" and "declared cover=True, the board gives cover=False" in str(error)


def test_a_target_beyond_the_weapons_range_is_refused():
    g = game(positions={**START, "legionary-1": (9, 4)})
    g.activate("heavy-gunner", "conceal")
    g.add(OperativeActivated(operative="sergeant", order="engage"))
    error = refused(g, Shot(operative="sergeant", weapon="Hot-shot laspistol", attacks=(ShootingAttack(target="legionary-1", damage=0),)))
    assert error.rule == "Range, pg 111" and '13.9" from sergeant' in str(error)  # 15.03" between centres less both radii and 'Range 8"' in str(error)


def test_a_target_hidden_by_terrain_is_not_a_valid_target():
    g = game(positions={**START, "legionary-1": (4.5, 4), "sergeant": (4.5, 17.6)})
    g.activate("heavy-gunner", "conceal")
    g.activate("sergeant", "conceal", reposition(x=4.5, y=12.5))  # south of the west stronghold, behind its walls
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    error = refused(g, Shot(operative="legionary-1", weapon="Boltgun", attacks=(ShootingAttack(target="sergeant", damage=0, obscured=True),)))
    assert error.rule == "Valid target, pg 55" and "not visible" in str(error)


# --- objective control ---------------------------------------------------------------------------


def test_objective_control_declared_against_the_board_is_refused():
    g = game(positions={**START, "legionary-1": (8, 4)})
    g.activate("legionary-1", "engage", reposition(x=8, y=10), dash(x=7.5, y=12))  # its base 0.16" from the west marker (7, 13.5)
    for op in ("sergeant", "heavy-gunner", "gunner-plasma"):
        g.add(OperativeActivated(operative=op, order="conceal"), ActivationEnded(operative=op))
    error = refused(g, ObjectivesControlled(control={"west": None, "centre": None, "east": None}))
    assert error.rule == "Markers, pg 52" and "declared controlled by nobody, the board gives Bob" in str(error)
    g.add(ObjectivesControlled(control={"west": "Bob", "centre": None, "east": None}))
    assert g.state.markers["west"].controlled_by == "Bob"


def test_objective_control_is_on_the_players_word_while_an_operative_has_no_position():
    g = game(positions={k: v for k, v in START.items() if k != "sergeant"})
    assert g.state.operatives["sergeant"].x is None
    for op in ("legionary-1", "sergeant", "heavy-gunner", "gunner-plasma"):
        g.add(OperativeActivated(operative=op, order="conceal"), ActivationEnded(operative=op))
    g.add(ObjectivesControlled(control={"west": "Alice"}))


def test_the_layouts_markers_are_where_the_rules_look():
    assert {m.name for m in VOLKUS.objectives} == {m for m, _ in MARKERS}
    assert Objective("west", 7, 13.5) in VOLKUS.objectives


def test_the_log_says_where_an_operative_is_placed_and_nothing_more_without_a_position():
    from ktlog.text.describe import describe

    assert describe(Dashed(operative="legionary-1", x=9, y=5)) == "legionary-1: Dash to (9, 5)"
    assert describe(Charged(operative="legionary-1", targets=("sergeant",), x=8, y=11.7, z=3)) == 'legionary-1 charges sergeant, ending at (8, 11.7), 3" up'
    assert describe(Dashed(operative="legionary-1")) == "legionary-1: Dash"
    assert describe(Charged(operative="legionary-1", targets=("sergeant",))) == "legionary-1 charges sergeant"


def test_blast_attacks_every_operative_near_the_primary_target_and_no_other():
    g = game(positions={"sergeant": (8, 19), "gunner-grenade": (29, 19), "legionary-1": (27, 3), "heavy-gunner": (29, 3)}, alice=("sergeant", "gunner-grenade"))
    g.activate("legionary-1", "conceal")
    g.add(OperativeActivated(operative="gunner-grenade", order="engage"))

    def frag(*targets: str) -> Shot:
        return Shot(operative="gunner-grenade", weapon="Grenade launcher (frag)", attacks=tuple(ShootingAttack(target=t, damage=0) for t in targets))

    error = refused(g, frag("heavy-gunner"))  # the legionary, 0.74" from it and visible, is left out
    assert error.rule == "Blast, pg 111" and 'legionary-1 is within 2" of heavy-gunner and visible to it: Blast attacks them too' in str(error)
    error = refused(g, frag("heavy-gunner", "legionary-1", "sergeant"))
    assert error.rule == "Blast, pg 111" and 'sergeant is not within 2" of heavy-gunner' in str(error)
    g.add(frag("heavy-gunner", "legionary-1"))


def test_a_torrent_weapons_other_targets_are_within_x_of_the_primary_target():
    g = game(positions={"sergeant": (8, 19), "gunner-flamer": (29, 19), "legionary-1": (27, 3), "heavy-gunner": (21, 2)}, alice=("sergeant", "gunner-flamer"))
    g.activate("legionary-1", "conceal")
    g.add(OperativeActivated(operative="gunner-flamer", order="engage"))
    flamer = g.state.operatives["gunner-flamer"]
    flamer.x, flamer.y = 27.0, 9.0  # placed by hand within the flamer's 8" of both (a test of the Torrent check alone)
    legionary = g.state.operatives["heavy-gunner"]
    legionary.x, legionary.y = 23.5, 3.0  # 2.24" from legionary-1's base
    shot = Shot(
        operative="gunner-flamer", weapon="Flamer", attacks=(ShootingAttack(target="legionary-1", damage=0), ShootingAttack(target="heavy-gunner", damage=0))
    )
    error = refused(g, shot)
    assert error.rule == "Torrent, pg 111" and 'heavy-gunner is not within 2" of legionary-1' in str(error)


def test_from_vantage_terrain_a_weapon_has_accurate_1_against_an_engage_target_2_inches_lower():
    g = game(positions={**START, "legionary-1": (9, 4), "sergeant": (12.4, 18.5)})
    g.activate("legionary-1", "conceal")
    g.activate("sergeant", "engage", reposition(x=12.4, y=13))  # on the floor
    g.add(OperativeActivated(operative="heavy-gunner", order="engage"))
    error = refused(g, shoot("Heavy bolter (focused)", "sergeant", "5555", "444", accurate=1)("heavy-gunner"))  # Atk 5: one retained, four rolled
    assert error.rule == "Accurate, pg 111"  # on the floor: no Accurate
    gunner = g.state.operatives["heavy-gunner"]
    gunner.x, gunner.y, gunner.z = 12.4, 4.9, 3.0  # placed by hand on the north ruin's upper level, 3" up
    g.add(shoot("Heavy bolter (focused)", "sergeant", "5555", "44", accurate=1, cover=True)("heavy-gunner"))  # in cover from the platform's edge
    assert g.state.operatives["sergeant"].wounds < 8


@pytest.mark.parametrize(("fields", "field"), [({"x": 31, "y": 5}, "x"), ({"x": 9, "y": -1}, "y"), ({"x": 9, "y": 5, "z": 25}, "z")])
def test_a_position_off_the_board_is_refused_whatever_the_override(fields, field):
    g = game()
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    error = refused(g, Repositioned(operative="legionary-1", override="a ploy", **fields))
    assert isinstance(error, InvalidEvent) and error.rule == field and "off the 30 x 22 board" in str(error)


def test_an_operative_without_a_position_is_given_one_by_its_next_move():
    g = game(positions={k: v for k, v in START.items() if k != "legionary-1"})
    g.add(OperativeActivated(operative="legionary-1", order="engage"))
    g.add(Dashed(operative="legionary-1", x=9, y=5.5))  # no distance to check: where it was is unknown
    assert (g.state.operatives["legionary-1"].x, g.state.operatives["legionary-1"].y) == (9.0, 5.5)
    error = refused(g, Repositioned(operative="legionary-1", x=8, y=11.6))  # 6.2" rounds up to 7": from there on, it is checked
    assert error.rule == "Reposition, pg 40"


def test_devastating_reaches_every_operative_near_the_target_and_no_other():
    """1" Devastating 2 (pg 111): the board names who the criticals reach (the legionary 0.74"
    from the heavy gunner and visible); a declared list that differs is refused with both lists,
    or accepted with an override that is stored."""
    from ktlog.play.builder import attack

    g = GameBuilder(killzone="volkus", layout=VOLKUS)
    g.player("Alice", load_roster(SAMPLE_ROSTERS / "hearthkyn.toml"), ["hearthkyn-gunner", "theyn"])
    g.player("Bob", load_roster(SAMPLE_ROSTERS / "legionaries.toml"), ["legionary-1", "heavy-gunner"])
    positions = {"theyn": (8, 19), "hearthkyn-gunner": (29, 19), "legionary-1": (27, 3), "heavy-gunner": (29, 3)}
    g.setup(rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1, markers=MARKERS, positions=positions)
    g.turning_point(1, rolls={"Alice": 3, "Bob": 4}, initiative="Bob")
    g.activate("legionary-1", "conceal")
    g.add(OperativeActivated(operative="hearthkyn-gunner", order="engage"))

    def rail(*splashed: str, override: str | None = None) -> Shot:
        hit = attack("heavy-gunner", "6651", "66", splashed=splashed)
        return Shot(operative="hearthkyn-gunner", weapon="Magna-rail rifle", attacks=(hit,), override=override)

    error = refused(g, rail())
    assert error.rule == "Devastating, pg 111" and "declared splashed=nobody, the board gives legionary-1" in str(error)
    error = refused(g, rail("legionary-1", "theyn"))
    assert "declared splashed=legionary-1,theyn, the board gives legionary-1" in str(error)
    g.add(rail("legionary-1", "theyn", override="a kill team rule"))
    assert [(w.rule, w.reason) for w in g.state.warnings if w.seq == g.seq] == [("Devastating, pg 111", "a kill team rule")]
    assert (g.state.operatives["legionary-1"].wounds, g.state.operatives["theyn"].wounds) == (14 - 4, 11 - 4)
    g.undo()
    g.add(rail("legionary-1"))
    assert g.state.operatives["legionary-1"].wounds == 14 - 4

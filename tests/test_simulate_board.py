"""The simulator plays games with positions on a layout (issue 44 item 5): set-ups in the drop
zones, moves, charges and shots where the board allows, cover and obscured from the terrain, the
board's objective control; every such game passes `ktlog verify` (the rules judge its
positions). Games without a layout are played byte for byte as before."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from click.testing import CliRunner

from ktlog.board.geometry import control_range, marker_control, target_problem
from ktlog.cli import cli
from ktlog.events import Charged, Dashed, FellBack, ObjectivesControlled, OperativeSetUp, Repositioned, Shot
from ktlog.files.layouts import find_layout, shipped
from ktlog.play.simulate import Continuation, load_sim_rosters, simulate_games, simulate_into, simulator_for
from ktlog.play.verify import verify
from ktlog.reducer import apply_in_place, corrected, effective, fold
from ktlog.rules.positions import board, on_board, placed, wholly_within
from ktlog.storage.store import Store

POSITIONAL = ("kt24-preliminary", "kt24-approved")
GAMES = 3

MAIN_HASHES = {
    "kt24-preliminary": "7f22a12080d1f268fc09756590437d71e581d1ad5632c3b9291ce7b0137a633f",
    "kt24-approved": "d682a56c50736fb7cd56d9f5063fb7f32680d3298e1c0c874160f48889736c12",
    "kt24-multiplayer": "1e223b2120ab59ba97f1321595cdd4cf291b4f47c4fe135777489ea93735405a",
    "kt24-joint": "34193a96caafe3dda05816352d08d55dd9b382508b657cc41cc2fa043036cf38",
    "kt21": "a3000ec291d6b69feb3a4703426171186a8655b43c0b0a8041d0bd89907cfdf7",
}
"""The SHA-256 of the sealed envelopes of 3 games, seed 11, as main played them before positions
(computed with main's code at 3407bc6)."""


def sealed_hash(games) -> str:
    h = hashlib.sha256()
    for game_id, g in games:
        for _, raw in g.sealed(game_id, g.state.date + "T18:00:00+00:00"):
            h.update(raw)
    return h.hexdigest()


@pytest.mark.parametrize("ruleset", sorted(MAIN_HASHES))
def test_games_without_a_layout_are_played_byte_for_byte_as_before(ruleset):
    assert sealed_hash(simulate_games(3, 11, ruleset=ruleset)) == MAIN_HASHES[ruleset]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """GAMES positional games per shipped layout and ruleset that plays them, stored and verified."""
    db = tmp_path_factory.mktemp("posim") / "posim.db"
    games = {}
    with Store(db) as store:
        for i, (name, ruleset) in enumerate((n, r) for n in sorted(shipped()) for r in POSITIONAL):
            layout = find_layout(name)
            for game_id, g in simulate_games(GAMES, 100 + i, ruleset=ruleset, layout=layout):
                store.import_envelopes(game_id, g.sealed(game_id, g.state.date + "T18:00:00+00:00"))
                games[game_id] = (name, ruleset, g)
        verdicts = verify(store)
    return games, verdicts


def walk(g):
    """Each event that counts (undone ones left out) with the state before it (one state, changed in place)."""
    state = fold([])
    for seq, event in corrected(effective(list(enumerate(g.events, 1)))):
        yield seq, event, state
        apply_in_place(state, event, seq)


def test_every_positional_game_passes_verify(played):
    games, verdicts = played
    assert len(verdicts) == len(games) == GAMES * len(shipped()) * len(POSITIONAL)
    assert [v.describe() for v in verdicts if not v.ok] == []
    assert all(g.state.phase == "over" and g.state.layout is not None for _, _, g in games.values())


def test_each_operative_is_set_up_in_its_drop_zone_and_every_move_says_where_it_ends(played):
    games, _ = played
    for _, _, g in games.values():
        zones = board(g.state.layout).drop_zones
        for _, e, s in walk(g):
            if isinstance(e, OperativeSetUp):
                here = placed(s.operatives[e.operative], e.x, e.y, 0.0)
                assert wholly_within(here, zones[s.players[here.player].drop_zone])
            if isinstance(e, (Repositioned, Dashed, FellBack, Charged)):
                assert e.x is not None and e.y is not None and e.z is None  # on the killzone floor


def test_charges_end_within_control_range_of_every_target_and_only_those(played):
    games, _ = played
    charges = 0
    for _, _, g in games.values():
        for _, e, s in walk(g):
            if isinstance(e, Charged):
                b = board(s.layout)
                end = placed(s.operatives[e.operative], e.x, e.y, 0.0)
                near = {o.id for o in on_board(s, but=e.operative) if o.player != end.player and control_range(b, end, o)}
                assert set(e.targets) == near and near
                charges += 1
    assert charges >= 5


def test_shots_are_at_valid_targets_with_cover_and_obscured_from_the_terrain(played):
    """Verify checks each declared value against the board; here: every primary target was a
    valid one where it stood, and the board gave both values in these games (not all False)."""
    games, _ = played
    cover = obscured = shots = 0
    for _, _, g in games.values():
        for _, e, s in walk(g):
            if isinstance(e, Shot):
                b = board(s.layout)
                shooter, target = placed(s.operatives[e.operative]), placed(s.operatives[e.attacks[0].target])
                assert target_problem(b, shooter, target, on_board(s)) is None or e.attacks[0].cover is False  # Seek: no bar
                cover += sum(a.cover for a in e.attacks)
                obscured += sum(a.obscured for a in e.attacks)
                shots += 1
    assert shots > 50 and cover > 0 and obscured > 0


def test_objective_control_each_turning_point_is_the_boards(played):
    games, _ = played
    for _, _, g in games.values():
        recorded = 0
        for _, e, s in walk(g):
            if isinstance(e, ObjectivesControlled):
                b = board(s.layout)
                assert e.control == {m.name: marker_control(b, m, on_board(s)) for m in s.layout.objectives if m.name in s.markers}
                recorded += 1
        assert recorded == g.state.turning_point or g.state.result.ended_by != "battle"


def test_the_same_seed_plays_the_same_positional_games():
    layout = find_layout("gallowdark-like")
    first = sealed_hash(simulate_games(2, 5, layout=layout))
    assert sealed_hash(simulate_games(2, 5, layout=layout)) == first != sealed_hash(simulate_games(2, 6, layout=layout))


def test_a_rollout_of_a_positional_game_plays_on_by_the_board():
    """A simulator made without a layout (as a rollout's is) plays a positional game on by its
    state's layout: the reducer accepts every move."""
    ((_, g),) = simulate_games(1, 21, layout=find_layout("volkus-like"))
    middle = next(i for i, e in enumerate(g.events) if type(e).__name__ == "TurningPointStarted" and e.turning_point == 2)
    sim = simulator_for("kt24-preliminary")(random.Random(4), load_sim_rosters())
    sim.mistakes = 0.0
    game = Continuation(fold(g.events[:middle]))
    sim.play_on(game)
    assert game.state.phase == "over" and game.state.result is not None
    assert all(o.x is not None for o in game.state.scan() if o.in_killzone)  # a move without a position would have cleared it


def test_ktlog_simulate_with_a_layout_and_its_refusals(tmp_path):
    db = tmp_path / "trial.db"
    run = CliRunner().invoke(cli, ["--db", str(db), "simulate", "--games", "2", "--layout", "volkus-like", "--json"])
    assert run.exit_code == 0, run.output
    shown = json.loads(run.stdout)
    assert shown["games"] == 2 and shown["layout"] == "Volkus-like ruins (illustrative)"
    checked = CliRunner().invoke(cli, ["--db", str(db), "verify"])
    assert checked.exit_code == 0 and "all 2 games verified" in checked.output
    for args, said in (
        (
            ["--layout", "volkus-like", "--ruleset", "kt21"],
            "the kt21 simulator plays no games with positions; --layout plays with: kt24-preliminary, kt24-approved",
        ),
        (["--layout", "nowhere"], "no layout 'nowhere': give a layout file or one of gallowdark-like, volkus-like"),
    ):
        refused = CliRunner().invoke(cli, ["--db", str(tmp_path / "other.db"), "simulate", *args])
        assert refused.exit_code == 1 and said in refused.output and "Traceback" not in refused.output
    assert not (tmp_path / "other.db").exists()


def test_a_layout_with_one_drop_zone_is_refused(tmp_path):
    one = tmp_path / "one.toml"
    one.write_text('name = "One zone"\n[[drop_zones]]\nname = "A"\nrect = { x = 0, y = 17, width = 30, depth = 5 }\n', encoding="utf-8")
    refused = CliRunner().invoke(cli, ["--db", str(tmp_path / "t.db"), "simulate", "--layout", str(one)])
    assert refused.exit_code == 1 and "has 1 drop zone(s): a simulated game needs two" in refused.output


def test_simulate_into_stores_positional_games(tmp_path):
    with Store(tmp_path / "s.db") as store:
        ids = simulate_into(store, 2, 3, layout=find_layout("gallowdark-like"))
        assert len(ids) == 2 and all(v.ok for v in verify(store))

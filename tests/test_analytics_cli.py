"""`ktlog stats`, `ktlog chart` and `ktlog report` through the command line: output formats,
bad input, agreement with `ktlog score` on the sample games, charts and the HTML report."""

from __future__ import annotations

import html
import json
import re
from collections import defaultdict

import polars as pl
import pytest
from click.testing import CliRunner
from league import IN_PROGRESS, g13, game_id, league_fixture  # noqa: F401 (the `league` fixture)
from polars.testing import assert_frame_equal

from ktlog.analytics.league import League
from ktlog.analytics.performance import entity_stats
from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES
from ktlog.events import Annotation
from ktlog.rulesets import get_ruleset
from ktlog.storage.catalog import OPS
from ktlog.storage.store import Store
from ktlog.text.describe import describe

SAMPLES = sorted(SAMPLE_GAMES.glob("*.jsonl"))


def ktlog(db, *args, code: int = 0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def refused(db, *args):
    """A clear one-line message on stderr, exit status 1, nothing on stdout."""
    result = ktlog(db, *args, code=1)
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


# --- formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "read"), [("csv", pl.read_csv), ("json", pl.read_json), ("parquet", pl.read_parquet)])
def test_formats_written_with_o_read_back_as_the_table(league, tmp_path, fmt, read):
    path = tmp_path / f"players.{fmt}"
    result = ktlog(league.db, "stats", "players", "--format", fmt, "-o", path)
    assert result.stdout == ""
    assert_frame_equal(read(path), entity_stats(League(league.db), "player"), check_dtypes=fmt == "parquet")


def test_parquet_needs_a_file(league):
    assert "Parquet is binary: give a file with -o FILE.parquet" in refused(league.db, "stats", "standings", "--format", "parquet")


def test_the_table_format(league):
    lines = ktlog(league.db, "stats", "standings").stdout.splitlines()
    assert re.match(r"\| rank \| player \| games \|", lines[0])  # issue 42 #5: the player_id is for --wide, CSV and JSON
    assert re.match(r"\| rank \| player \| player_id +\| games \|", ktlog(league.db, "stats", "standings", "--wide").stdout)
    assert [line.split("|")[2].strip() for line in lines[2:]] == ["Dan", "Carol", "Alice", "Bob", "Erin"]


# --- bad input -------------------------------------------------------------------------------


def test_a_game_in_progress_is_named_and_not_counted(league):
    result = ktlog(league.db, "stats", "standings", "--format", "json")
    assert result.stderr == f"note: 1 game(s) in progress are not counted ({IN_PROGRESS[:8]})\n"
    games = {r["player"]: r["games"] for r in json.loads(result.stdout)}
    assert games == {"Dan": 5, "Carol": 5, "Alice": 5, "Bob": 5, "Erin": 4}  # G13 (Erin v Alice) left out


def test_an_empty_database(tmp_path):
    Store(tmp_path / "empty.db").close()
    message = refused(tmp_path / "empty.db", "stats", "standings")
    assert "nothing to compute: the database has no games" in message


def test_a_database_with_only_a_game_in_progress(tmp_path):
    p = g13()
    with Store(tmp_path / "one.db") as store:
        store.import_envelopes(IN_PROGRESS, p.g.sealed(IN_PROGRESS, p.start))
    message = refused(tmp_path / "one.db", "stats", "players")
    assert "nothing to compute" in message and "1 game(s) still in progress" in message


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["standings", "--league", "Spring League"], "no finished game matches (league Spring League)"),
        (["teams", "--season", "2025"], "no finished game matches (season 2025)"),
        (["players", "--since", "2027-02-01"], "no finished game matches (since 2027-02-01)"),
        (["curves", "--ruleset", "kt21"], "no finished game matches (ruleset kt21)"),
        (["dice", "--league", "Winter League", "--round", "3"], "no finished game matches (league Winter League, round 3)"),
        (["standings", "--player", "Alise"], "no player called 'Alise'"),
        (["standings", "--player", "Alise"], "did you mean 'Alice'?"),
        (["teams", "--team", "Kasrkn"], "no kill team called 'Kasrkn'"),
        (["teams", "--team", "Kasrkn"], "did you mean 'Kasrkin'?"),
        (["matchups", "--team", "pathfinder"], "did you mean 'Pathfinders'?"),
    ],
)
def test_filters_that_leave_nothing(league, args, says):
    assert says in refused(league.db, "stats", *args)


def test_a_missing_database(tmp_path):
    message = refused(tmp_path / "nowhere.db", "stats", "standings")
    assert f"no database at {tmp_path / 'nowhere.db'}" in message
    assert not (tmp_path / "nowhere.db").exists()


# --- the sample games agree with `ktlog score` -----------------------------------------------


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    db = tmp_path_factory.mktemp("samples") / "samples.db"
    ktlog(db, "import", *SAMPLES)
    scores = {g["id"]: json.loads(ktlog(db, "score", g["id"], "--json").stdout) for g in json.loads(ktlog(db, "games", "--json").stdout)}
    assert len(scores) == len(SAMPLES) and all(s["status"] == "finished" for s in scores.values())
    return db, {gid: s for gid, s in scores.items() if not get_ruleset(s["ruleset"]).pve}  # no VP, not in the league


def test_results_agree_with_score(samples):
    db, scores = samples
    results = League(db).results
    for gid, score in scores.items():
        totals = {p["name"]: p["vp"]["total"] for p in score["players"]}
        assert dict(results.filter(game_id=gid).select("player", "vp_total").rows()) == totals
        by_op = {p["name"]: tuple(p["vp"].get(op, 0) for op in OPS) for p in score["players"]}
        assert {r[0]: r[1:] for r in results.filter(game_id=gid).select("player", *(f"vp_{op}" for op in OPS)).rows()} == by_op
        assert all(sum(vp) == totals[name] for name, vp in by_op.items())  # every op's VP has its column
        grades = {p["name"]: p["kill_grade"] if "kill" in p["vp"] else None for p in score["players"]}  # no kill op (KT21, Multiplayer): no grade
        assert dict(results.filter(game_id=gid).select("player", "kill_grade").rows()) == grades
        # A draw for the players sharing the most VP (all of them in a two-player draw; ruling 5), a loss for the others.
        best = max(totals.values())
        outcome = {p: "win" if p == score["result"]["winner"] else "draw" if score["result"]["draw"] and totals[p] == best else "loss" for p in totals}
        assert dict(results.filter(game_id=gid).select("player", "result").rows()) == outcome


def test_each_games_curve_ends_at_its_score(samples):
    db, scores = samples
    for gid, score in scores.items():
        rows = json.loads(ktlog(db, "stats", "curves", "--game", gid[:8], "--format", "json").stdout)
        totals = {p["name"]: p["vp"]["total"] for p in score["players"]}
        last_seq = max(s["seq"] for p in score["players"] for s in p["scored"])
        assert {r["player"]: r["vp"] for r in rows if r["seq"] == last_seq} == totals
        assert rows[-1]["seq"] == last_seq


def test_standings_vp_for_is_the_sum_of_the_scores(samples):
    db, scores = samples
    vp_for, vp_against = defaultdict(int), defaultdict(float)
    for score in scores.values():
        for me in score["players"]:
            them = [p["vp"]["total"] for p in score["players"] if p is not me]
            vp_for[me["name"]] += me["vp"]["total"]
            vp_against[me["name"]] += sum(them) / len(them)  # the opponent's VP; Multiplayer Ops: their mean
    rows = json.loads(ktlog(db, "stats", "standings", "--format", "json").stdout)
    assert {r["player"]: r["vp_for"] for r in rows} == vp_for
    assert {r["player"]: r["vp_against"] for r in rows} == pytest.approx(vp_against, abs=1e-3)


def test_comebacks_agree_with_the_scores_of_every_sample_game(samples):
    """Trailing = behind the game's leader after the turning point (with 3-4 players too); a
    comeback is an outright win. Worked out from each game's `ktlog score` VP log."""
    db, scores = samples
    expected = {2: [0, 0], 3: [0, 0]}
    for score in scores.values():
        for n in (2, 3):
            after = {p["name"]: sum(s["vp"] for s in p["scored"] if s["turning_point"] <= n) for p in score["players"]}
            for name, vp in after.items():
                if vp < max(after.values()):
                    expected[n][0] += 1
                    expected[n][1] += score["result"]["winner"] == name
    rows = json.loads(ktlog(db, "stats", "curves", "--comebacks", "--format", "json").stdout)
    assert {r["trailing_after_tp"]: [r["trailing_players"], r["came_back_to_win"]] for r in rows} == expected
    assert expected[2][0] > 0 and expected[2][1] + expected[3][1] > 0  # the samples hold trailing players and a comeback


def test_a_mirror_match_is_one_game(samples):
    db, scores = samples
    mirrors = sum(1 for s in scores.values() if s["players"][0]["kill_team"] == s["players"][1]["kill_team"] == "Kasrkin")
    rows = json.loads(ktlog(db, "stats", "matchups", "--long", "--format", "json").stdout)
    pairing = next(r for r in rows if r["kill_team"] == r["opponent_team"] == "Kasrkin")
    assert mirrors == 1
    assert (pairing["games"], pairing["wins"], pairing["losses"]) == (1, 1, 1)


# --- charts and the report -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "suffix", "start"),
    [
        (["vp", game_id(2)[:2]], "png", b"\x89PNG\r\n\x1a\n"),
        (["vp", game_id(6)[:2]], "svg", b"<svg"),
        (["teams"], "svg", b"<svg"),
        (["curves"], "png", b"\x89PNG\r\n\x1a\n"),
        (["elo"], "svg", b"<svg"),
    ],
)
def test_charts(league, tmp_path, args, suffix, start):
    path = tmp_path / f"chart.{suffix}"
    result = ktlog(league.db, "chart", *args, "-o", path)
    assert result.stderr.endswith(f"wrote {path}\n")
    data = path.read_bytes()
    assert data.startswith(start) and len(data) > 1000


def test_chart_bad_input(league, tmp_path):
    assert "charts are written as .png or .svg" in refused(league.db, "chart", "teams", "-o", tmp_path / "x.jpg")
    assert "needs a game" in refused(league.db, "chart", "vp", "-o", tmp_path / "x.png")
    assert not list(tmp_path.iterdir())


def test_the_report_of_a_game(league, tmp_path):
    gid = game_id(1)
    path = tmp_path / "g01.html"
    ktlog(league.db, "report", gid[:2], "-o", path)
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert "Alice (Kasrkin) vs Bob (Legionaries)" in page
    assert "<p class='result'>Alice won</p>" in page
    assert page.count("<svg") == 2  # the VP curve and the win-probability curve, inline
    assert "<h2>Win probability</h2>" in page and "key moment</th>" in page and "kt24-preliminary default model" in page
    assert "expected VP added</th>" in page and "luck: each shot with dice" in page
    swing = page.split("<tr><td>Alice</td><td class='n'>+", 1)[1].split("%")[0]  # Alice's swing: from her chance at the start to her win
    assert 0 < int(swing) < 100
    with Store(league.db) as store:
        envelopes = store.events(gid)
    notes = [e.payload.text for e in envelopes if isinstance(e.payload, Annotation)]
    assert notes == ["Alice spends her last CP but one on a re-roll", "bob4 falls to a <b>mine</b> & smoke"]
    for text in notes:
        assert f"<div class='note'>{html.escape(text)}</div>" in page
    assert "<b>mine</b>" not in page  # escaped, not markup
    for e in envelopes:
        if not isinstance(e.payload, Annotation):
            assert f"<td class='n'>{e.seq}</td><td>{html.escape(describe(e.payload))}" in page, e.seq
    # Offline: no script, and "http" only in the SVG's XML namespace names, which are never fetched.
    assert "<script" not in page.lower()
    assert "http" not in re.sub(r'xmlns(:\w+)?="http://www\.w3\.org/[^"]*"', "", page)


def test_the_report_of_a_conceded_game(league, tmp_path):
    path = tmp_path / "g06.html"
    ktlog(league.db, "report", game_id(6)[:2], "-o", path)
    assert "<p class='result'>Carol conceded, Alice wins</p>" in path.read_text(encoding="utf-8")


def test_a_game_the_league_leaves_out_is_named_with_why(samples):
    db, scores = samples
    joint = next(path for path in SAMPLES if "joint" in path.name)
    game = json.loads(joint.read_text().splitlines()[0])["game_id"][:8]
    left_out = ktlog(db, "chart", "vp", game, "-o", db.parent / "race.svg", code=1)
    assert f"game {game} is a kt24-joint game, which league statistics leave out" in left_out.stderr
    assert "--ruleset kt24-joint" in left_out.stderr and "Traceback" not in left_out.stderr
    first = next(iter(scores))[:8]
    filtered = ktlog(db, "stats", "curves", "--game", first, "--league", "No Such League", code=1)
    assert f"game {first} is left out by the filters (league No Such League)" in filtered.stderr


@pytest.mark.parametrize("table", ["teams", "players", "standings"])
def test_a_table_keeps_to_the_terminal_and_wide_shows_every_column(samples, monkeypatch, table):
    # Issue 24 #22: in a 120-column terminal every column of `stats teams` wrapped to three characters.
    samples_db = samples[0]
    monkeypatch.setattr("ktlog.analytics.formats.terminal_width", lambda: 120)  # a 120-column terminal (CliRunner's output is none)
    fitted = ktlog(samples_db, "stats", table)
    lines = fitted.stdout.splitlines()
    assert all(len(line) <= 120 for line in lines)
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    every = json.loads(ktlog(samples_db, "stats", table, "--format", "json").stdout)[0].keys()
    assert header == [c for c in every if c in header] and all(len(cell) > 3 or cell in every for cell in header)  # names whole, in order
    assert lines[1].startswith("|--") and len(lines) == 2 + len(json.loads(ktlog(samples_db, "stats", table, "--format", "json").stdout))  # a row a line
    left_out = [c for c in every if c not in header and c != "player_id"]
    assert "player_id" not in header  # issue 42 #5: a table for people names the player, the id is for --wide, CSV and JSON
    if left_out:  # issue 42 #5: the note said every column left out, 437 characters on one line
        note = next(line for line in fitted.stderr.splitlines() if "more column" in line)
        assert note.startswith(f"note: {len(left_out)} more column(s) with --wide or --format csv/json: {left_out[0]}") and len(note) <= 120
    wide = ktlog(samples_db, "stats", table, "--wide").stdout.splitlines()
    assert [cell.strip() for cell in wide[0].strip("|").split("|")] == list(every)


def test_a_table_shows_whole_figures_as_integers(samples):
    samples_db = samples[0]
    # Issue 24 #25: `vp_against` printed 6.000 beside integers.
    standings = ktlog(samples_db, "stats", "standings", "--wide").stdout
    kasia = next(line for line in standings.splitlines() if "| Kasia " in line)
    assert [cell.strip() for cell in kasia.strip("|").split("|")][9:12] == ["16", "6", "10"]
    assert ".000" not in standings


def test_a_rate_of_no_games_is_shown_not_a_crash(tmp_path):
    """Issue 42 (found running the league page in order): a game conceded before any initiative
    roll has no initiative rate (NaN), which the table took for a whole number and failed to cast."""
    db = tmp_path / "league.db"
    game = ktlog(db, "new", "--killzone", "volkus", "--player", "Alice=kasrkin", "--player", "Bob=legionaries").stdout.splitlines()[0]
    ktlog(db, "event", game, "GameConceded", "player=Bob")
    table = ktlog(db, "stats", "players", "--wide").stdout
    assert "| Alice " in table and "NaN" in table

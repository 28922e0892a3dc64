"""The day's operations of a tournament through the command line, each with `--json`: check-in,
a drop and a re-entry, a late registration, a removal, a no-show taken back, a re-pair, a swap,
the round timer, the list of events; results reported as scores (one table, a round's file, all
or nothing) beside games recorded in full; players as league identities; and a round that is
final once the next is paired (issue 38 #5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_tournament import Organiser, battle, new_game


def pair(run: Organiser, *more: str | int) -> dict:
    return json.loads(run("tournament", "pair", run.name, *more, "--json").stdout)


def tables_of(paired: dict) -> dict[frozenset[str], int]:
    return {frozenset(p for p in (t["player_a"], t["player_b"]) if p): t["table"] for t in paired["tables"]}


@pytest.fixture
def club(tmp_path: Path) -> Organiser:
    run = Organiser(tmp_path / "event.db", "Club Night")
    run("tournament", "new", run.name, "--rounds", 3, "--ruleset", "kt24-preliminary")
    run("tournament", "add", run.name, "Alice", "Bob", "Carol", "Dan", "Erin", "Fay")
    return run


def test_a_name_typed_twice_is_refused_whole_and_names_each_entry(club: Organiser) -> None:
    """`tournament add T Hana Hana "Hana " Bob` registered 4 players of 6 entries with no word."""
    out = club("tournament", "add", club.name, "Hana", "Hana", "Hana ", "Gus", ok=False)
    assert "'Hana' (entries 1, 2, 3) typed more than once: a player registers once" in out.stderr
    assert "nothing" not in out.stdout and "nobody was added" in out.stderr
    assert "'Alice' is Alice" in club("tournament", "add", club.name, "Alice", ok=False).stderr
    assert [e["player"] for e in club.json("tournament", "show")["entrants"]] == ["Alice", "Bob", "Carol", "Dan", "Erin", "Fay"]


def test_registered_players_are_league_identities_and_namesakes_are_told_apart(tmp_path: Path) -> None:
    """Hana of this club and Hana of North Hall (her game imported from North Hall's database) are
    two players: `add T Hana` is refused naming both, each registers as shown with their club,
    and a game North Hall's Hana plays here counts for her in the league."""
    north = Organiser(tmp_path / "north.db", "")
    north("player", "club", "North Hall")
    game = new_game(north, "Hana", "Ola").stdout.strip()
    north("export", game, "-o", tmp_path / "north-game.jsonl")
    run = Organiser(tmp_path / "home.db", "Spring Open")
    run("player", "club", "Home Club")
    new_game(run, "Hana", "Ida")
    run("import", tmp_path / "north-game.jsonl")
    run("tournament", "new", run.name, "--rounds", 1)
    both = run("tournament", "add", run.name, "Hana", ok=False).stderr
    assert "'Hana' is the name of 2 players: Hana (Home Club)" in both and "Hana (North Hall)" in both
    added = run.json("tournament", "add", "Hana (Home Club)", "Hana (North Hall)", "Ola")
    assert [(a["player"], a["club"]) for a in added] == [("Hana", "Home Club"), ("Hana (North Hall)", "North Hall"), ("Ola", "North Hall")]
    ids = {a["player"]: a["player_id"] for a in added}
    league = {p["player_id"]: p for p in json.loads(run("player", "list", "--json").stdout)}
    assert league[ids["Hana"]]["shown"] == "Hana (Home Club)" and league[ids["Hana (North Hall)"]]["shown"] == "Hana (North Hall)"
    standings = run.json("tournament", "standings")
    assert {(s["player"], s["player_id"], s["club"]) for s in standings} == {(a["player"], a["player_id"], a["club"]) for a in added}
    game = new_game(run, "Hana (North Hall)", "Ola").stdout.strip()
    (hers,) = [p for p in json.loads(run("player", "list", "--json").stdout) if p["player_id"] == ids["Hana (North Hall)"]]
    assert hers["games"] == 2 and game, "her game at the event counts for North Hall's Hana"


def test_check_in_pairs_only_those_present_and_a_late_check_in_joins_the_next_round(club: Organiser) -> None:
    run = club
    checked = run.json("tournament", "check-in", "Alice", "Bob", "Carol", "Dan")
    assert [c["player"] for c in checked] == ["Alice", "Bob", "Carol", "Dan"]
    first = pair(run, "--seed", 3)
    assert sorted(p for t in first["tables"] for p in (t["player_a"], t["player_b"])) == ["Alice", "Bob", "Carol", "Dan"]
    assert first["left_out"] == [{"player": "Erin", "why": "not checked in"}, {"player": "Fay", "why": "not checked in"}]
    late = run.json("tournament", "check-in", "Erin")
    assert late == [{"player": "Erin", "checked_in": True, "joins_round": 2}]
    assert "a check-in is kept from then on" in run("tournament", "check-in", run.name, "Erin", "--undo", ok=False).stderr
    for t in first["tables"]:
        run("tournament", "result", run.name, t["table"], "3-1")
    second = pair(run)
    assert "Erin" in {p for t in second["tables"] for p in (t["player_a"], t["player_b"])}
    assert second["left_out"] == [{"player": "Fay", "why": "not checked in"}]


def test_drop_rejoin_remove_and_a_late_registration(club: Organiser) -> None:
    run = club
    assert "take Fay's registration back with `ktlog tournament remove`" in run("tournament", "drop", run.name, "Fay", ok=False).stderr
    assert run.json("tournament", "remove", "Fay") == {"player": "Fay", "removed": True}
    first = pair(run, "--seed", 1)
    dropped = run.json("tournament", "drop", "Erin")
    assert dropped["dropped_after"] == 1 and dropped["open_table"]["round"] == 1, "their round 1 table still ends as any other"
    assert "Erin was paired in round 1" in run("tournament", "remove", run.name, "Erin", ok=False).stderr
    for t in first["tables"]:
        if t["player_b"]:
            run("tournament", "result", run.name, t["table"], "2-1")
    late = run.json("tournament", "add", "Gus")
    assert [(a["player"], a["joins_round"]) for a in late] == [("Gus", 2)]
    second = pair(run)
    seated = {p for t in second["tables"] for p in (t["player_a"], t["player_b"]) if p}
    assert seated == {"Alice", "Bob", "Carol", "Dan", "Gus"} and {"player": "Erin", "why": "dropped after round 1"} in second["left_out"]
    assert len([t for t in second["tables"] if t["player_b"] is None]) == 1, "five players: a bye"
    standings = {s["player"]: s for s in run.json("tournament", "standings")}
    assert standings["Erin"]["status"] == "dropped after round 1" and standings["Erin"]["played"] == 1
    assert standings["Gus"]["played"] == 0 and standings["Gus"]["points"] == standings["Gus"]["byes"], "nothing from round 1, which Gus missed"
    assert "Erin dropped after round 1 already" in run("tournament", "drop", run.name, "Erin", ok=False).stderr
    assert run.json("tournament", "rejoin", "Erin") == {"player": "Erin", "joins_round": 3}


def test_re_pair_before_any_result_and_swap_two_tables_players(club: Organiser) -> None:
    run = club
    first = pair(run, "--seed", 2)
    again = json.loads(run("tournament", "re-pair", run.name, "--seed", 9, "--json").stdout)
    assert again["round"] == 1 and again["seed"] == 9 and again["tables"] != first["tables"]
    (t1, t2, t3) = again["tables"]
    swapped = run.json("tournament", "swap", t1["player_b"], t2["player_a"])
    assert swapped == [
        {"round": 1, "table": 1, "player_a": t1["player_a"], "player_b": t2["player_a"]},
        {"round": 1, "table": 2, "player_a": t1["player_b"], "player_b": t2["player_b"]},
    ]
    assert "play each other at table 3" in run("tournament", "swap", run.name, t3["player_a"], t3["player_b"], ok=False).stderr
    run("tournament", "result", run.name, 3, "4-4")
    assert "table 3 has game " in run("tournament", "swap", run.name, t3["player_a"], t1["player_a"], ok=False).stderr
    refused = run("tournament", "re-pair", run.name, ok=False).stderr
    assert "round 1 has results or games already (table 3 (game " in refused and "nothing was changed" in refused
    for t in (1, 2):
        run("tournament", "result", run.name, t, "5-2")
    second = pair(run)
    met = {frozenset((t["player_a"], t["player_b"])) for t in run.json("tournament", "results")}
    a, b = second["tables"][0]["player_a"], second["tables"][1]["player_a"]
    partner = second["tables"][1]["player_b"]
    if frozenset((a, partner)) in met:
        refused = run("tournament", "swap", run.name, second["tables"][0]["player_b"], b, ok=False).stderr
        assert "have met already: no pair meets twice" in refused


def test_a_no_show_against_the_wrong_player_is_taken_back(club: Organiser) -> None:
    run = club
    first = pair(run, "--seed", 4)
    t = first["tables"][0]
    wrong = run.json("tournament", "no-show", t["player_a"])
    assert wrong["no_show"] == t["player_a"] and wrong["winner"] == t["player_b"]
    undone = run.json("tournament", "no-show", t["player_a"], "--undo")
    assert undone["undone"] == t["player_a"] and undone["no_show"] is None
    (row,) = [r for r in run.json("tournament", "results") if r["table"] == t["table"]]
    assert row["result"] == "open"
    run("tournament", "no-show", run.name, t["player_b"])
    (row,) = [r for r in run.json("tournament", "results") if r["table"] == t["table"]]
    assert (row["winner"], row["by"], row["ended_by"]) == (t["player_a"], t["player_b"], "no-show")
    assert "has no no-show recorded" in run("tournament", "no-show", run.name, first["tables"][1]["player_a"], "--undo", ok=False).stderr


def test_a_score_a_game_recorded_in_full_and_the_flag_when_they_differ(club: Organiser, tmp_path: Path) -> None:
    """Table 1 reported as a score (a game made for it); table 2 recorded in full (won 2-0 by a
    kill) and reported 3-0 by mistake: the game's result stands and the table is flagged; table 3
    reported while its game is still being recorded: the report counts until the game ends."""
    run = club
    t1, t2, t3 = pair(run, "--seed", 6)["tables"]
    scored = run.json("tournament", "result", "1", "12-9", "--confirmed", "--kill-team", f"{t1['player_a']}=Kasrkin")
    assert (scored["vp_a"], scored["vp_b"], scored["ended_by"], scored["kill_team_a"], scored["kill_team_b"]) == (12, 9, "report", "Kasrkin", None)
    assert set(scored["reported_by"].split(", ")) == {t1["player_a"], t1["player_b"], "table"} and scored["flag"] is None
    game = new_game(run, t2["player_a"], t2["player_b"], "--tournament", run.name).stdout.strip()
    lines = tmp_path / "battle.txt"
    lines.write_text(battle(t2["player_a"], t2["player_b"], t2["player_a"]), encoding="utf-8")
    run("event", game, "--file", lines)
    flagged = run.json("tournament", "result", "2", "3-0")
    assert (flagged["vp_a"], flagged["vp_b"], flagged["ended_by"], flagged["reported"]) == (2, 0, "battle", "3-0")
    assert flagged["flag"] == "reported 3-0, but the game recorded in full ended 2-0 (battle): the game's result stands"
    playing = new_game(run, t3["player_a"], t3["player_b"], "--tournament", run.name).stdout.strip()
    lines.write_text("".join(battle(t3["player_a"], t3["player_b"], None).splitlines(keepends=True)[:13]), encoding="utf-8")  # set up, turning point 1 started
    run("event", playing, "--file", lines)
    provisional = run.json("tournament", "result", "3", "0-4")
    assert provisional["winner"] == t3["player_b"] and provisional["ended_by"] == "report" and "the game's result will stand" in provisional["flag"]
    for args, message in [
        (("result", run.name, "1", "10-9"), f"the game ended with the result reported at seq 4 ({t1['player_a']} 12, {t1['player_b']} 9)"),
        (("result", run.name, "9", "1-0"), "Club Night round 1 has no table 9: it has tables 1 to 3"),
        (("result", run.name, "1", "twelve"), "score 'twelve': give player A's VP, a dash, then player B's, e.g. 12-9"),
    ]:
        assert message in run("tournament", *args, ok=False).stderr


def test_a_results_file_imports_a_round_all_or_nothing_naming_the_line(club: Organiser, tmp_path: Path) -> None:
    run = club
    tables = pair(run, "--seed", 8)["tables"]
    good = ["round,table,player_a,player_b,vp_a,vp_b,confirmed"] + [f"1,{t['table']},{t['player_b']},{t['player_a']},7,{t['table']},yes" for t in tables]
    bad = [*good[:3], f"1,{tables[2]['table']},{tables[2]['player_a']},Nobody,1,2,yes"]
    path = tmp_path / "round-1.csv"
    path.write_text("\n".join(bad) + "\n", encoding="utf-8")
    refused = run("tournament", "import-results", run.name, path, ok=False).stderr
    assert f"line 4: round 1 table 3 is {tables[2]['player_a']} v {tables[2]['player_b']}, not {tables[2]['player_a']} v Nobody" in refused
    assert "nothing was recorded" in refused
    assert {r["result"] for r in run.json("tournament", "results")} == {"open"} and json.loads(run("games", "--json").stdout) == []
    path.write_text("\n".join(good) + "\n", encoding="utf-8")
    rows = json.loads(run("tournament", "import-results", run.name, path, "--json").stdout)
    assert [(r["table"], r["vp_a"], r["vp_b"]) for r in rows] == [(t["table"], t["table"], 7) for t in tables], "the file's players in either order"
    assert all(set(r["reported_by"].split(", ")) == {r["player_a"], r["player_b"], "table"} for r in rows)
    assert json.loads(run("tournament", "import-results", run.name, path, "--json").stdout) == rows, "the same figures again: confirmed, nothing changes"


def round_1_ended_and_round_2_paired(run: Organiser) -> tuple[dict, dict, str]:
    """Round 1 of the club night ended three ways (table 1's game conceded, a no-show at table
    2, a score at table 3), then round 2 paired on it: tables 2 and 3, and table 1's game."""
    t1, t2, t3 = pair(run, "--seed", 5)["tables"]
    game = new_game(run, t1["player_a"], t1["player_b"], "--tournament", run.name).stdout.strip()
    run("event", game, "GameConceded", f"player={t1['player_b']}")
    run("tournament", "no-show", run.name, t2["player_b"])
    run("tournament", "result", run.name, t3["table"], "6-1")
    pair(run)
    return t2, t3, game


def test_a_round_is_final_once_the_next_is_paired(club: Organiser, tmp_path: Path) -> None:
    """Issue 38 #5: undoing the end of a round 1 game after round 2 was paired silently reopened its
    table and took away the win round 2 was paired on. Now it is refused naming the round; the
    organiser may reopen the round, which marks round 2 as paired on results since changed."""
    run = club
    t2, t3, game = round_1_ended_and_round_2_paired(run)
    refused = run("undo", game, ok=False).stderr
    assert f"undoing seq {json.loads(run('log', game, '--json').stdout)[-1]['seq']} changes the result" in refused
    assert "is Club Night round 1 table 1, and round 2 was paired on its result, so round 1 is final" in refused
    assert "`ktlog tournament reopen 'Club Night' 1` first" in refused
    assert json.loads(run("games", "--json").stdout)[0]["status"] == "finished"
    assert "round 1 is final, round 2 was paired on its results" in run("tournament", "no-show", run.name, t2["player_b"], "--undo", ok=False).stderr
    assert "round 1 is final" in run("tournament", "result", run.name, t3["table"], "--round", 1, "6-2", ok=False).stderr
    assert "only the round before the current one (round 2) is reopened" in run("tournament", "reopen", run.name, 2, ok=False).stderr
    reopened = run.json("tournament", "reopen", "1")
    assert reopened["reopened_round"] == 1 and "round 2 was paired on its results before they changed" in reopened["warning"]
    run("undo", game)
    assert [r["result"] for r in run.json("tournament", "results") if r["round"] == 1 and r["table"] == 1] == ["open"]
    assert "Club Night round 1 is reopened" in run("tournament", "pair", run.name, ok=False).stderr
    run.json("tournament", "reopen", "--close")
    assert run.json("tournament", "show")["reopened_round"] is None


def test_a_final_rounds_result_is_not_changed_by_importing_a_longer_copy(club: Organiser, tmp_path: Path) -> None:
    """Round finality on the import path too: a table's copy of a round 1 game, undone there after
    round 2 was paired at the event, is refused at the event's import naming the round."""
    run = club
    t2, t3, game = round_1_ended_and_round_2_paired(run)
    finished, undone = tmp_path / "finished.jsonl", tmp_path / "undone.jsonl"
    run("export", game, "-o", finished)
    table = Organiser(tmp_path / "table.db", run.name)
    table("import", finished)
    table("undo", game)  # the table's own copy: no tournament there
    table("export", game, "-o", undone)
    refused = run("import", undone, ok=False).stderr
    assert "changes the result" in refused and "round 2 was paired on its result, so round 1 is final" in refused, refused
    assert json.loads(run("games", "--json").stdout)[0]["status"] == "finished", "nothing was imported"
    run.json("tournament", "reopen", "1")
    run("import", undone)
    assert [r["result"] for r in run.json("tournament", "results") if r["round"] == 1 and r["table"] == 1] == ["open"]


def test_a_seed_out_of_range_is_refused_naming_the_option(club: Organiser) -> None:
    """Issue 38: `--seed 1000000000000000000000000000000` said "bug in ktlog" (OverflowError)."""
    for seed in ("1000000000000000000000000000000", "-1"):
        out = club("tournament", "pair", club.name, "--seed", seed, ok=False)
        assert f"--seed {seed}: give a whole number from 0 to 9,223,372,036,854,775,807" in out.stderr and "bug" not in out.stderr
        assert out.exit_code == 1


def test_the_timer_and_the_list_of_events(club: Organiser) -> None:
    run = club
    assert "the timer times the current round; pair round 1 first" in run("tournament", "timer", run.name, "--minutes", 90, ok=False).stderr
    pair(run, "--seed", 1)
    started = run.json("tournament", "timer", "--minutes", "90")["timer"]
    assert started["round"] == 1 and 89 * 60 < started["seconds_left"] <= 90 * 60
    assert run.json("tournament", "show")["timer"]["ends_at"] == started["ends_at"]
    assert run.json("tournament", "timer", "--stop") == {"timer": None}
    assert run("tournament", "timer", run.name, ok=False).exit_code == 2, "a usage error"
    run("tournament", "new", "Second Event", "--rounds", 2)
    listed = json.loads(run("tournament", "list", "--json").stdout)
    assert [(t["name"], t["players"], t["round"], t["finished"]) for t in listed] == [("Club Night", 6, 1, False), ("Second Event", 0, 0, False)]


def test_the_players_report_their_score_from_their_seats(club: Organiser) -> None:
    """Both players of a table report 12-9 from their phones (the seat page's "Report the result",
    answered as every move is): the first report ends the game not recorded in full, the second
    confirms it; the table's result is 12-9, reported by both. Nothing on the seat page changed:
    the move comes from the game's legal moves, as every other."""
    from starlette.testclient import TestClient

    from ktlog.play import seats
    from ktlog.play.database import Store
    from ktlog.web.app import make_app

    run = club
    t = pair(run, "--seed", 3)["tables"][0]
    a, b = t["player_a"], t["player_b"]
    game = new_game(run, a, b, "--tournament", run.name).stdout.strip()
    with Store(run.db) as store:
        tokens = {p: seats.issue(store, game, p) for p in (a, b)}
    answers = {"event": "ResultReported", "answers": [[f"vp.{a}", "12"], [f"vp.{b}", "9"]]}
    with TestClient(make_app(run.db, seats=True), base_url="http://127.0.0.1:8787") as client:
        view = client.get(f"/api/games/{game}/seat", headers={"authorization": f"Bearer {tokens[a]}"}).json()
        (move,) = [m for m in view["moves"] if m["kind"] == "report"]
        assert move["more"] and [q["field"] for q in move["questions"]] == [f"vp.{a}", f"vp.{b}"]
        for player in (a, b):
            r = client.post(f"/api/games/{game}/events", json=answers, headers={"authorization": f"Bearer {tokens[player]}"})
            assert r.status_code == 201, r.text
        other = client.post(
            f"/api/games/{game}/events",
            json={"event": "ResultReported", "answers": [[f"vp.{a}", "1"], [f"vp.{b}", "9"]]},
            headers={"authorization": f"Bearer {tokens[b]}"},
        )
        assert other.status_code == 422 and "correct that event or undo it" in other.json()["error"]
    (row,) = [r for r in run.json("tournament", "results") if r["table"] == t["table"]]
    assert (row["vp_a"], row["vp_b"], row["winner"], row["ended_by"]) == (12, 9, a, "report")
    assert set(row["reported_by"].split(", ")) == {a, b}


def test_the_organiser_api_answers_each_refusal_in_one_shape(club: Organiser) -> None:
    """POST /api/organiser/NAME: 401 without the link's token (or with an old one), 404 for no such
    tournament, 400 with the command line's sentence for an operation the event refuses, 200 with
    the outcome and the tournament as the page shows it; the page without --organiser says how."""
    from starlette.testclient import TestClient

    from ktlog.web.app import make_app

    run = club
    old = json.loads(run("tournament", "organiser", run.name, "--json").stdout)["link"].split("#")[1]
    link = json.loads(run("tournament", "organiser", run.name, "--url", "http://hall:8787", "--json").stdout)["link"]
    assert link.startswith("http://hall:8787/organiser/Club%20Night#")
    token = link.split("#")[1]
    with TestClient(make_app(run.db, organiser=True), base_url="http://127.0.0.1:8787") as client:

        def post(body: dict, key: str | None = token, name: str = "Club%20Night"):
            return client.post(f"/api/organiser/{name}", json=body, headers={"authorization": f"Bearer {key}"} if key else {})

        for key in (None, old, "forged"):
            r = post({"action": "pair"}, key)
            assert r.status_code == 401 and r.json()["kind"] == "no_token" and set(r.json()) == {"error", "status", "kind"}
        assert post({"action": "pair"}, name="Nope").status_code == 404
        assert post({"action": "fly"}).json()["error"].startswith("action 'fly': one of add, check-in, drop")
        refused = post({"action": "drop", "player": "Alice"})
        assert refused.status_code == 400 and "take Alice's registration back with `ktlog tournament remove`" in refused.json()["error"]
        done = post({"action": "pair", "seed": 3})
        assert done.status_code == 200 and done.json()["done"] == "round 1 paired: 3 tables" and done.json()["view"]["round"] == 1
        assert post({"action": "timer", "minutes": 100}).json()["view"]["timer"]["round"] == 1
    with TestClient(make_app(run.db), base_url="http://127.0.0.1:8787") as client:
        assert "start it with <code>ktlog serve --organiser</code>" in client.get("/organiser/Club%20Night").text
        off = client.post("/api/organiser/Club%20Night", json={"action": "pair"})
        assert off.status_code == 403 and "start it with `ktlog serve --organiser`" in off.json()["error"]
        assert [t["name"] for t in client.get("/api/tournaments/").json()] == ["Club Night"]
        assert "Club Night" in client.get("/tournaments/").text and client.get("/tournaments").status_code == 200
    revoked = run.json("tournament", "organiser", "--revoke")
    assert revoked == {"link": None}


def test_a_score_by_op_counts_each_op_and_a_wrong_sum_is_refused(club: Organiser, tmp_path: Path) -> None:
    """Issue 40 #2: a reported result gives each player's VP by op (the CLI's --by-op, a results
    file's ops_a and ops_b); the game's VP are counted under those ops, checked by the ruleset."""
    from ktlog.play.database import Store

    run = club
    t1, t2, t3 = pair(run, "--seed", 6)["tables"]
    refusals = [
        (("1", "12-9", "--by-op", "crit=4,kill=7/crit=2,kill=7"), f"{t1['player_a']}'s VP by op add up to 11, not the 12 reported"),
        (("1", "12-9", "--by-op", "crit=4,kill=8/crit=2,luck=7"), "VP by op name luck: the ops of KT24 Preliminary Ops are crit, kill"),
        (("1", "12-9", "--by-op", "crit=4,kill=8"), "player A's ops, a slash, then player B's"),
        (("1", "12-9", "--by-op", "crit=four/kill=9"), "VP by op 'crit=four': give each op and its VP"),
    ]
    for args, message in refusals:
        assert message in run("tournament", "result", run.name, *args, ok=False).stderr, args
    assert json.loads(run("games", "--json").stdout) == [], "a refusal writes nothing"
    scored = run.json("tournament", "result", "1", "12-9", "--by-op", "crit=4,kill=8/crit=2,kill=7")
    assert (scored["vp_a"], scored["vp_b"], scored["ended_by"]) == (12, 9, "report")
    path = tmp_path / "round-1.csv"
    path.write_text(
        "round,table,player_a,player_b,vp_a,vp_b,ops_a,ops_b\n"
        f"1,{t2['table']},{t2['player_b']},{t2['player_a']},6,8,crit=6,crit=4 kill=4\n"
        f"1,{t3['table']},{t3['player_a']},{t3['player_b']},5,5,,\n",
        encoding="utf-8",
    )
    run("tournament", "import-results", run.name, path)
    with Store(run.db) as store:
        vp = {p: dict(s.vp) for g in store.games() for p, s in store.state(g.id).players.items()}
    assert vp[t1["player_a"]] == {"crit": 4, "kill": 8} and vp[t1["player_b"]] == {"crit": 2, "kill": 7}
    assert vp[t2["player_b"]] == {"crit": 6, "kill": 0} and vp[t2["player_a"]] == {"crit": 4, "kill": 4}
    assert vp[t3["player_a"]] == {"crit": 0, "kill": 0, "reported": 5}, "no ops given: counted under reported"

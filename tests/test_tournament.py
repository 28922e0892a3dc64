"""A Swiss tournament run through the command line, as an organiser runs one: `ktlog tournament
new`, `add`, `pair`; each game created with `ktlog new --tournament` and ended through `ktlog
event` (a battle played to its end, or a concession) or recorded as a no-show; then the final
standings and results, and the same figures from `ktlog serve`'s tournament page."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner, Result
from starlette.testclient import TestClient

from ktlog.cli import cli
from ktlog.errors import KtlogError
from ktlog.web.app import make_app

OPERATIVE = {"a": "sergeant", "b": "aspiring-champion"}
"""One operative a side: player A plays Kasrkin's sergeant, player B the Legionaries' aspiring champion."""
ENDINGS = ["a wins", "b wins", "draw", "a concedes", "b concedes", "a wins", "no-show", "b wins"]
"""How each table ends, by table number and round (a battle won by a kill, a 0-0 battle, a concession, B's no-show)."""


class Organiser:
    def __init__(self, db: Path, name: str):
        self.db, self.name = db, name

    def __call__(self, *args: str | int, ok: bool = True) -> Result:
        result = CliRunner().invoke(cli, ["--db", str(self.db), *map(str, args)], catch_exceptions=False)
        assert (result.exit_code == 0) == ok, result.output
        return result

    def json(self, *args: str | int):
        """`ktlog tournament SUBCOMMAND NAME ARGS... --json`: its JSON (`args` is the subcommand and what follows the name)."""
        return json.loads(self(args[0], args[1], self.name, *args[2:], "--json").stdout)


def battle(a: str, b: str, winner: str | None) -> str:
    """The events of a whole battle of two single operatives, A with initiative every turning
    point: `winner` incapacitates the other's operative in TP2 (its kill op: 1VP in TP2, 1VP for
    the higher kill grade at the end, pg 84), or nobody scores (a 0-0 draw)."""
    ops = {a: OPERATIVE["a"], b: OPERATIVE["b"]}
    events: list[tuple[str, dict[str, object]]] = [
        ("RolledOff", {"purpose": "setup", "rolls": f"{a}:5,{b}:2"}),
        ("InitiativeDecided", {"player": a}),
        ("ObjectiveMarkerSetUp", {"marker": "centre", "player": b}),
        ("ObjectiveMarkerSetUp", {"marker": "a", "player": a}),
        ("ObjectiveMarkerSetUp", {"marker": "b", "player": b}),
        ("CritOpRolled", {"roll": 2}),
        ("DropZoneChosen", {"player": a, "drop_zone": "north"}),
        ("DropZoneChosen", {"player": b, "drop_zone": "south"}),
        ("EquipmentSelected", {"player": a}),
        ("EquipmentSelected", {"player": b}),
        ("OperativeSetUp", {"operative": ops[a]}),
        ("OperativeSetUp", {"operative": ops[b]}),
    ]
    alive = [a, b]
    for tp in range(1, 5):
        events += [("TurningPointStarted", {"turning_point": tp}), ("RolledOff", {"purpose": "initiative", "rolls": f"{a}:4,{b}:3"})]
        events += [("InitiativeDecided", {"player": a}), ("GambitPassed", {"player": a}), ("GambitPassed", {"player": b})]
        for player in (a, b):
            if player not in alive:
                continue
            events.append(("OperativeActivated", {"operative": ops[player], "order": "engage"}))
            if tp == 2 and player == winner:
                loser = b if winner == a else a
                events.append(("DamageInflicted", {"operative": ops[loser], "damage": 99, "source": "other", "by": ops[player]}))
                alive.remove(loser)
            events.append(("ActivationEnded", {"operative": ops[player]}))
        events.append(("TurningPointEnded", {"turning_point": tp}))
    return "".join(" ".join([kind, *(shlex.quote(f"{k}={v}") for k, v in fields.items())]) + "\n" for kind, fields in events)


def play_round(run: Organiser, tables: list[dict], tmp_path: Path) -> None:
    """Every table of a round ended as ENDINGS says."""
    for t in tables:
        if t["player_b"] is None:
            continue
        a, b = t["player_a"], t["player_b"]
        ending = ENDINGS[(t["round"] + t["table"]) % len(ENDINGS)]
        if ending == "no-show":
            run("tournament", "no-show", run.name, b)
            continue
        game = run(
            "new",
            "--tournament",
            run.name,
            "--killzone",
            "volkus",
            "--player",
            f"{a}=kasrkin:{OPERATIVE['a']}",
            "--player",
            f"{b}=legionaries:{OPERATIVE['b']}",
        ).stdout.strip()
        if ending.endswith("concedes"):
            run("event", game, "GameConceded", f"player={a if ending[0] == 'a' else b}")
        else:
            lines = tmp_path / f"{game}.txt"
            lines.write_text(battle(a, b, {"a wins": a, "b wins": b}.get(ending)), encoding="utf-8")
            run("event", game, "--file", lines)


def play_event(tmp_path: Path, count: int, name: str = "Autumn <GT>") -> tuple[Organiser, list[dict], list[dict]]:
    """A 4-round event of `count` players: every round paired, played and ended; its results and final standings."""
    run = Organiser(tmp_path / "event.db", name)
    run("tournament", "new", name, "--rounds", 4, "--ruleset", "kt24-preliminary", "--tie-breakers", "sos,vp_diff")
    run("tournament", "add", name, *(f"Player {n:02d}" for n in range(1, count + 1)))
    for round_ in range(1, 5):
        tables = json.loads(run("tournament", "pair", name, *(["--seed", "11"] if round_ == 1 else []), "--json").stdout)["tables"]
        assert [t["round"] for t in tables] == [round_] * ((count + 1) // 2)
        play_round(run, tables, tmp_path)
    run("tournament", "pair", name, ok=False)  # all four rounds are played
    return run, run.json("tournament", "results"), run.json("tournament", "standings")


def points_from(results: list[dict]) -> dict[str, float]:
    """Each player's points worked out from the results rows alone."""
    points: dict[str, float] = {}
    for r in results:
        for player in (r["player_a"], r["player_b"]):
            if player is not None:
                points[player] = points.get(player, 0) + (1 if r["winner"] == player or r["result"] == "bye" else 0.5 if r["result"] == "draw" else 0)
    return points


@pytest.fixture(scope="module")
def sixteen(tmp_path_factory) -> tuple[Organiser, list[dict], list[dict]]:
    return play_event(tmp_path_factory.mktemp("sixteen"), 16)


def test_a_16_player_event_pairs_4_rounds_with_no_rematch_and_every_table_ended(sixteen) -> None:
    _, results, standings = sixteen
    assert len(results) == 32 and {r["result"] for r in results} == {"win", "draw"}
    meetings = [frozenset((r["player_a"], r["player_b"])) for r in results]
    assert len(set(meetings)) == 32, "a rematch"
    ended_by = [r["ended_by"] for r in results]
    assert ended_by.count("no-show") == 4 and ended_by.count("concession") == 8 and ended_by.count("battle") == 20
    for r in results:
        if r["ended_by"] == "battle":  # a kill in TP2 and the higher kill grade: 2-0, or nobody scores
            assert (r["vp_a"], r["vp_b"]) == ((2, 0) if r["winner"] == r["player_a"] else (0, 2) if r["winner"] else (0, 0))
            assert (r["kill_team_a"], r["kill_team_b"]) == ("Kasrkin", "Legionaries")
        if r["ended_by"] == "no-show":
            assert r["by"] == r["player_b"] and r["winner"] == r["player_a"] and r["game_id"] is None
        if r["ended_by"] == "concession":
            assert r["by"] != r["winner"] and r["by"] in (r["player_a"], r["player_b"])
    assert [s["byes"] for s in standings] == [0] * 16


def test_strength_of_schedule_is_the_opponents_points_and_ranks_after_points(sixteen) -> None:
    _, results, standings = sixteen
    points = points_from(results)
    opponents: dict[str, list[str]] = {}
    for r in results:
        opponents.setdefault(r["player_a"], []).append(r["player_b"])
        opponents.setdefault(r["player_b"], []).append(r["player_a"])
    for s in standings:
        assert s["points"] == points[s["player"]]
        assert s["sos"] == sum(points[o] for o in opponents[s["player"]])
        assert s["played"] == 4 and s["wins"] + s["draws"] + s["losses"] == 4
    keys = [(s["points"], s["sos"], s["vp_diff"]) for s in standings]  # the event's tie-breakers: sos, then vp_diff
    assert keys == sorted(keys, reverse=True) and [s["rank"] for s in standings] == list(range(1, 17))
    assert len({s["sos"] for s in standings}) > 3, "the tie-breaker separates players"


def test_the_tournament_page_shows_the_same_standings(sixteen) -> None:
    run, results, standings = sixteen
    with TestClient(make_app(run.db), base_url="http://127.0.0.1:8787") as client:
        api = client.get("/api/tournaments/" + quote(run.name, safe=""))
        page = client.get("/tournaments/" + quote(run.name, safe=""))
        missing = client.get("/tournaments/nothing")
    assert api.status_code == 200 and api.json()["standings"] == standings and api.json()["results"] == results
    assert api.json()["finished"] is True and api.json()["round"] == 4
    assert page.status_code == 200 and "<h1>Autumn &lt;GT&gt;</h1>" in page.text and "Autumn <GT>" not in page.text
    assert missing.status_code == 404 and "no tournament named" in missing.text


@pytest.mark.slow
def test_a_15_player_event_gives_one_bye_a_round_never_twice_to_a_player(tmp_path: Path) -> None:
    _, results, standings = play_event(tmp_path, 15)
    byes = [r["player_a"] for r in results if r["result"] == "bye"]
    assert len(byes) == 4 and len(set(byes)) == 4
    assert sorted(s["byes"] for s in standings) == [0] * 11 + [1] * 4
    meetings = [frozenset((r["player_a"], r["player_b"])) for r in results if r["player_b"]]
    assert len(meetings) == len(set(meetings)) == 28
    assert all(r["vp_a"] == 0 and r["ended_by"] == "bye" for r in results if r["result"] == "bye")


@pytest.fixture
def paired(tmp_path: Path) -> Organiser:
    """Round 1 of four players paired (seed 5): Bob v Alice at table 1, Dan v Carol at table 2."""
    run = Organiser(tmp_path / "event.db", "Club Night")
    run("tournament", "new", "Club Night", "--rounds", 2, "--ruleset", "kt24-preliminary")
    run("tournament", "add", "Club Night", "Alice", "Bob", "Carol", "Dan")
    tables = json.loads(run("tournament", "pair", "Club Night", "--seed", 5, "--json").stdout)["tables"]
    assert [(t["player_a"], t["player_b"]) for t in tables] == [("Bob", "Alice"), ("Dan", "Carol")]
    return run


def new_game(run: Organiser, a: str, b: str, *more: str, ok: bool = True) -> Result:
    return run("new", "--killzone", "volkus", "--player", f"{a}=kasrkin:sergeant", "--player", f"{b}=legionaries:aspiring-champion", *more, ok=ok)


def test_a_game_created_for_the_event_carries_its_round_table_and_league(paired: Organiser) -> None:
    game = new_game(paired, "Bob", "Alice", "--tournament", "Club Night").stdout.strip()
    (row,) = json.loads(paired("games", "--json").stdout)
    assert row["id"] == game and row["labels"] == {"league": "Club Night", "round": "1", "table": "1"}
    (table, _) = paired.json("tournament", "results")
    assert table["game_id"] == game and table["result"] == "open"


def test_refusals_name_what_was_wrong_and_change_nothing(paired: Organiser) -> None:
    run = paired
    assert (
        "no table waiting for Alice and Carol; waiting: table 1: Bob v Alice; table 2: Dan v Carol"
        in new_game(run, "Alice", "Carol", "--tournament", "Club Night", ok=False).output
    )
    assert (
        "is played under kt24-preliminary, not kt24-approved"
        in new_game(run, "Alice", "Bob", "--tournament", "Club Night", "--ruleset", "kt24-approved", ok=False).output
    )
    assert (
        "--table 4: the tournament pairs these players in round 1 at table 1"
        in new_game(run, "Alice", "Bob", "--tournament", "Club Night", "--table", "4", ok=False).output
    )
    assert "no tournament named 'Club Day'; the tournaments are: Club Night" in new_game(run, "Alice", "Bob", "--tournament", "Club Day", ok=False).output
    assert json.loads(run("games", "--json").stdout) == []
    assert "round 1 is still being played: table 1 (Bob v Alice), table 2 (Dan v Carol)" in run("tournament", "pair", "Club Night", ok=False).output
    game = new_game(run, "Bob", "Alice").stdout.strip()
    run("tournament", "link", "Club Night", game[:8])
    assert f"game {game[:8]} is linked to Club Night round 1 table 1 already" in run("tournament", "link", "Club Night", game, ok=False).output
    assert "table 1 has game" in run("tournament", "no-show", "Club Night", "Bob", ok=False).output
    assert "no table waiting for Alice and Dan" in run("tournament", "link", "Club Night", new_game(run, "Alice", "Dan").stdout.strip(), ok=False).output
    assert "'Erin' is not registered for Club Night" in run("tournament", "no-show", "Club Night", "Erin", ok=False).output
    for args, message in [
        (("new", "Club Night"), "a tournament named 'Club Night' exists already"),
        (("new", "Bad\x1bName"), "holds the control character U+001B"),
        (("new", "  "), "the tournament's name is empty"),
        (("new", "Ten", "--rounds", 0), "--rounds 0: a tournament has 1 to 20 rounds"),
        (("new", "Ten", "--ruleset", "kt24-joint"), "--ruleset kt24-joint: a Swiss round pairs two players a game, against each other"),
        (("new", "Ten", "--tie-breakers", "sos,elo"), "--tie-breakers sos,elo: give each at most once, from opp_avg, sos, vp_diff, vp_for, h2h"),
        (("standings", "Nope"), "no tournament named 'Nope'"),
    ]:
        assert message in run("tournament", *args, ok=False).output


def test_a_link_refused_inside_the_transaction_leaves_no_game(paired: Organiser) -> None:
    """Another writer links table 1 between `ktlog new`'s check and its write: the game is not stored."""
    from ktlog.events import GameCreated
    from ktlog.play import tournament_rounds as tournament
    from ktlog.play.database import Store

    with Store(paired.db) as store:
        labels, link = tournament.for_new_game(store, "Club Night", ["Bob", "Alice"], "kt24-preliminary", {})
        paired("tournament", "link", "Club Night", new_game(paired, "Alice", "Bob").stdout.strip())
        with pytest.raises(KtlogError, match="Club Night round 1 table 1 has game .* recorded already"):
            store.new_game(GameCreated(ruleset="kt24-preliminary", killzone="volkus", date="2026-11-27", **labels), [], then=link)
        assert store.listing.count() == (1, 1)


def test_every_column_of_the_standings_and_results_is_documented(paired: Organiser) -> None:
    from ktlog.play.tournament import RESULT_COLUMNS, STANDING_COLUMNS

    guide = (Path(__file__).parent.parent / "docs" / "running-a-league.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Running a Swiss event") : guide.index("## Simulated games")]
    for columns, command in ((STANDING_COLUMNS, "standings"), (RESULT_COLUMNS, "results")):
        assert paired("tournament", command, "Club Night", "--format", "csv").stdout.splitlines()[0] == ",".join(columns)
        assert [c for c in columns if f"`{c}`" not in section] == []

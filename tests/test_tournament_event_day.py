"""Issue 40's event day, through the command line as an organiser runs it: 42 registered, 40
checked in (2 absentees), 6 rounds; round 1 paired again; a no-show recorded against the wrong
player and taken back; results as scores for half the tables and as games recorded event by
event (battles and concessions) for the rest; a drop after round 2; a late arrival before
round 3; an absentee who arrives before round 4 (41 players from then on: a bye a round);
round 4's scores from a results file.

An independent checker, written here from the documented rules and calling nothing of
ktlog's pairing or standings, validates every round (everyone taking part seated once, no
rematch, no second bye, the bye only with an odd count, nobody seated after dropping or before
arriving, the absentees never) and that each round keeps as many players within their score
group as possible: against networkx's maximum-weight matching here, and against a brute force
over every pairing on smaller events (also run through the command line). Then the standings:
every figure recomputed from the results, and the order by points, then the event's
tie-breakers (the opponents' average with a bye as 0 points, VP difference, VP for,
head-to-head)."""

from __future__ import annotations

import csv
import itertools
import json
from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest
from test_tournament import Organiser, battle, new_game

ROUNDS = 6


def seated(rows: list[dict], round_: int) -> list[str]:
    return [p for r in rows if r["round"] == round_ for p in (r["player_a"], r["player_b"]) if p]


def points_of(rows: list[dict], before: int) -> dict[str, float]:
    """Each player's points from the results of the rounds before `before`."""
    points: dict[str, float] = {}
    for r in rows:
        if r["round"] >= before:
            continue
        for p in (r["player_a"], r["player_b"]):
            if p is not None:
                won = r["result"] == "bye" or r["winner"] == p
                points[p] = points.get(p, 0) + (1 if won else 0.5 if r["result"] == "draw" else 0)
    return points


def breaks(rows: list[dict], round_: int, points: dict[str, float]) -> int:
    """The pairs of a round whose players were on different points."""
    return sum(points.get(r["player_a"], 0) != points.get(r["player_b"], 0) for r in rows if r["round"] == round_ and r["player_b"])


def fewest_breaks(players: list[str], points: dict[str, float], met: set[frozenset[str]], rested: set[str]) -> int:
    """The fewest pairs across score groups any pairing of the round allows (no rematch, the bye
    to a player on the fewest points who has had none), by networkx's maximum-weight matching:
    every allowed pair weighs 2 (1 across groups), so the heaviest perfect matching has the fewest
    breaks. The bye is a vertex of its own."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    lowest = min((points.get(p, 0) for p in players if p not in rested), default=None)
    for a, b in itertools.combinations(players, 2):
        if frozenset((a, b)) not in met:
            graph.add_edge(a, b, weight=2 * len(players) + (points.get(a, 0) == points.get(b, 0)))
    if len(players) % 2:
        for p in players:
            if p not in rested and points.get(p, 0) == lowest:
                graph.add_edge(p, "(bye)", weight=2 * len(players) + 1)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(matching) == len(players) + len(players) % 2, "a perfect matching exists"
    return sum(1 for a, b in matching if "(bye)" not in (a, b) and points.get(a, 0) != points.get(b, 0))


def fewest_breaks_by_brute_force(players: list[str], points: dict[str, float], met: set[frozenset[str]], rested: set[str]) -> int:
    """The same, by trying every pairing (small events only)."""
    people = [*players, *(["(bye)"] if len(players) % 2 else [])]
    lowest = min((points.get(p, 0) for p in players if p not in rested), default=None)

    def pairings(left: list[str]):
        if not left:
            yield []
            return
        for i in range(1, len(left)):
            for more in pairings(left[1:i] + left[i + 1 :]):
                yield [(left[0], left[i]), *more]

    best = None
    for pairs in pairings(people):
        if any(frozenset(p) in met for p in pairs):
            continue
        resting = [a if b == "(bye)" else b for a, b in pairs if "(bye)" in (a, b)]
        if resting and (resting[0] in rested or points.get(resting[0], 0) != lowest):
            continue
        count = sum(points.get(a, 0) != points.get(b, 0) for a, b in pairs if "(bye)" not in (a, b))
        best = count if best is None else min(best, count)
    assert best is not None
    return best


def check_rounds(rows: list[dict], taking_part: dict[int, set[str]], fewest) -> None:
    """Every round against the rules, and its score-group breaks against `fewest`."""
    met: set[frozenset[str]] = set()
    rested: set[str] = set()
    for round_ in sorted(taking_part):
        here = seated(rows, round_)
        assert sorted(here) == sorted(taking_part[round_]), f"round {round_}: {sorted(set(here) ^ taking_part[round_])}"
        pairs = [frozenset((r["player_a"], r["player_b"])) for r in rows if r["round"] == round_ and r["player_b"]]
        assert not met & set(pairs), f"round {round_}: a rematch"
        byes = [r["player_a"] for r in rows if r["round"] == round_ and r["player_b"] is None]
        assert len(byes) == len(here) % 2 and not rested & set(byes), f"round {round_}: byes {byes}"
        points = points_of(rows, round_)
        if byes:
            lowest = min(points.get(p, 0) for p in here if p not in rested)
            assert points.get(byes[0], 0) == lowest, f"round {round_}: the bye to {byes[0]}, not a player on the fewest points"
        assert breaks(rows, round_, points) == fewest(sorted(here), points, met, rested), f"round {round_}: more breaks than needed"
        met |= set(pairs)
        rested |= set(byes)


def check_standings(rows: list[dict], standings: list[dict], bye_points: float) -> None:
    """Every figure from the results alone, and the order: points, the opponents' average (a bye
    counting as an opponent with `bye_points`), VP difference, VP for, then head-to-head among
    players still tied."""
    points = points_of(rows, ROUNDS + 1)
    opponents: dict[str, list[str]] = {}
    byes: dict[str, int] = {}
    vp_for: dict[str, int] = {}
    vp_against: dict[str, int] = {}
    against: dict[tuple[str, str], float] = {}
    for r in rows:
        a, b = r["player_a"], r["player_b"]
        if b is None:
            byes[a] = byes.get(a, 0) + 1
            continue
        for me, them, mine, theirs in ((a, b, r["vp_a"], r["vp_b"]), (b, a, r["vp_b"], r["vp_a"])):
            opponents.setdefault(me, []).append(them)
            vp_for[me] = vp_for.get(me, 0) + mine
            vp_against[me] = vp_against.get(me, 0) + theirs
            against[(me, them)] = against.get((me, them), 0) + (1 if r["winner"] == me else 0.5 if r["result"] == "draw" else 0)
    average = {}
    for s in standings:
        p = s["player"]
        counted = [Fraction(points.get(o, 0)) for o in opponents.get(p, [])] + [Fraction(bye_points)] * byes.get(p, 0)
        average[p] = sum(counted, Fraction(0)) / len(counted) if counted else Fraction(0)
        assert s["points"] == points.get(p, 0) and s["opp_avg"] == round(float(average[p]), 4), p
        assert (s["vp_for"], s["vp_against"], s["vp_diff"]) == (vp_for.get(p, 0), vp_against.get(p, 0), vp_for.get(p, 0) - vp_against.get(p, 0)), p
        assert s["byes"] == byes.get(p, 0) and s["played"] == len(opponents.get(p, [])), p
    key = {s["player"]: (points.get(s["player"], 0), average[s["player"]], s["vp_diff"], s["vp_for"]) for s in standings}
    order = [s["player"] for s in standings]
    assert [key[p] for p in order] == sorted((key[p] for p in order), reverse=True), "ranked by points, then the tie-breakers"
    for _, tied in itertools.groupby(order, key=key.get):
        group = list(tied)
        h2h = [sum(against.get((p, o), 0) for o in group) for p in group]
        assert h2h == sorted(h2h, reverse=True), f"head-to-head among {group}"
    assert [s["rank"] for s in standings] == list(range(1, len(standings) + 1))


def play_round(run: Organiser, tables: list[dict], round_: int, tmp_path: Path, *, as_file: bool = False) -> None:
    """Half the tables' results as scores (odd tables; a file for them with `as_file`), the rest
    as games recorded event by event: a battle (won by a kill, or a 0-0 draw) or a concession."""
    scores = []
    for t in tables:
        a, b, n = t["player_a"], t["player_b"], t["table"]
        if b is None:
            continue
        if n % 2:
            score = ((n * 5 + round_) % 13, (n * 3 + 2 * round_) % 11)
            scores.append((n, a, b, *score))
            if not as_file:
                run("tournament", "result", run.name, n, f"{score[0]}-{score[1]}", *(["--confirmed"] if n % 3 == 1 else []))
            continue
        game = new_game(run, a, b, "--tournament", run.name).stdout.strip()
        how = (n // 2 + round_) % 4
        if how == 3:
            run("event", game, "GameConceded", f"player={a if round_ % 2 else b}")
            continue
        lines = tmp_path / f"r{round_}t{n}.txt"
        lines.write_text(battle(a, b, {0: a, 1: b, 2: None}[how]), encoding="utf-8")
        run("event", game, "--file", lines)
    if as_file:
        path = tmp_path / f"round-{round_}.csv"
        with path.open("w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(["round", "table", "player_a", "player_b", "vp_a", "vp_b", "confirmed"])
            out.writerows([round_, n, a, b, va, vb, "yes"] for n, a, b, va, vb in scores)
        done = json.loads(run("tournament", "import-results", run.name, path, "--json").stdout)
        assert sorted(r["table"] for r in done) == [s[0] for s in scores]


def test_a_40_player_6_round_event_day_through_the_command_line(tmp_path: Path) -> None:
    run = Organiser(tmp_path / "event.db", "Winter Open")
    run("tournament", "new", run.name, "--rounds", ROUNDS, "--ruleset", "kt24-preliminary", "--tie-breakers", "opp_avg,vp_diff,vp_for,h2h", "--bye-counts", "0")
    everyone = [f"Player {n:02d}" for n in range(1, 43)]
    run("tournament", "add", run.name, *everyone)
    absent = {"Player 13", "Player 29"}
    run("tournament", "check-in", run.name, *[p for p in everyone if p not in absent])
    taking_part: dict[int, set[str]] = {}
    present = set(everyone) - absent

    first = json.loads(run("tournament", "pair", run.name, "--seed", 40, "--json").stdout)
    assert {x["player"] for x in first["left_out"]} == absent
    again = json.loads(run("tournament", "re-pair", run.name, "--seed", 41, "--json").stdout)  # the organiser draws round 1 again
    assert again["tables"] != first["tables"] and len(again["tables"]) == 20
    wrong = again["tables"][0]
    run("tournament", "no-show", run.name, wrong["player_a"])  # the wrong player marked absent ...
    run("tournament", "no-show", run.name, wrong["player_a"], "--undo")  # ... and taken back: the table is played
    for round_ in range(1, ROUNDS + 1):
        if round_ == 3:  # a late arrival, registered before round 3 is paired
            assert json.loads(run("tournament", "add", run.name, "Player 43", "--json").stdout)[0]["joins_round"] == 3
            present.add("Player 43")
        if round_ == 4:  # an absentee arrives after all, before round 4: 41 players, a bye a round
            assert json.loads(run("tournament", "check-in", run.name, "Player 29", "--json").stdout)[0]["joins_round"] == 4
            present.add("Player 29")
            absent.discard("Player 29")
        tables = again["tables"] if round_ == 1 else json.loads(run("tournament", "pair", run.name, "--json").stdout)["tables"]
        taking_part[round_] = set(present)
        play_round(run, tables, round_, tmp_path, as_file=round_ == 4)
        if round_ == 2:  # a drop after round 2
            dropped = json.loads(run("tournament", "drop", run.name, "Player 07", "--json").stdout)
            assert dropped["dropped_after"] == 2 and dropped["open_table"] is None
            present.discard("Player 07")
    assert "has played all its 6 rounds" in run("tournament", "pair", run.name, ok=False).stderr

    rows = run.json("tournament", "results")
    standings = run.json("tournament", "standings")
    check_rounds(rows, taking_part, fewest_breaks)
    check_standings(rows, standings, bye_points=0)
    ended = {r["ended_by"] for r in rows}
    assert ended == {"report", "battle", "concession", "bye"}, ended
    assert sum(r["ended_by"] == "report" for r in rows) == sum(r["ended_by"] in ("battle", "concession") for r in rows), "half the tables each way"
    assert all(r["flag"] is None for r in rows)
    lines = {s["player"]: s for s in standings}
    assert lines["Player 07"]["status"] == "dropped after round 2" and lines["Player 07"]["played"] == 2
    assert lines["Player 43"]["played"] + lines["Player 43"]["byes"] == 4
    assert {lines[p]["status"] for p in absent} == {"not checked in"} and all(lines[p]["played"] == 0 for p in absent)
    assert len(json.loads(run("games", "--json").stdout)) == sum(1 for r in rows if r["player_b"]), "a game per table played: recorded or made for its score"
    verified = run("verify")
    assert verified.exit_code == 0


@pytest.mark.parametrize("count", [7, 8, 9, 10])
def test_small_events_pair_with_the_fewest_breaks_a_brute_force_finds(tmp_path: Path, count: int) -> None:
    """The same checker on events small enough for a brute force over every pairing, 5 rounds
    through the command line, results as scores (draws now and then)."""
    run = Organiser(tmp_path / "small.db", "Small")
    run("tournament", "new", run.name, "--rounds", 5, "--bye-counts", "0")
    run("tournament", "add", run.name, *[f"P{n}" for n in range(count)])
    taking_part = {}
    for round_ in range(1, 6):
        tables = json.loads(run("tournament", "pair", run.name, *(["--seed", count] if round_ == 1 else []), "--json").stdout)["tables"]
        taking_part[round_] = {f"P{n}" for n in range(count)}
        for t in tables:
            if t["player_b"]:
                score = [(t["table"] * 3 + round_) % 4, (t["table"] + 2 * round_) % 4]
                run("tournament", "result", run.name, t["table"], f"{score[0]}-{score[1]}")
    rows = run.json("tournament", "results")
    check_rounds(rows, taking_part, fewest_breaks_by_brute_force)
    check_standings(rows, run.json("tournament", "standings"), bye_points=0)

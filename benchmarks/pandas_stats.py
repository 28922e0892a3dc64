"""The standings, teams and curves figures computed with pandas (for benchmarks/analytics.py).

Run by .venv-bench/bin/python (pandas is not a ktlog dependency). Prints {"seconds": ...} for
reading the projection tables and computing the figures in one process.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time

import pandas as pd


def main(db: str) -> None:
    t = time.perf_counter()
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    results = pd.read_sql("SELECT game_id, player, kill_team, result, vp_total, vp_crit, vp_kill, vp_tac, vp_primary, kill_grade FROM game_results", conn)
    other = results[["game_id", "player", "vp_total"]].rename(columns={"player": "opponent", "vp_total": "vp_against"})
    rows = results.merge(other, on="game_id")
    rows = rows[rows.player != rows.opponent].copy()
    rows["score"] = rows.result.map({"win": 1.0, "draw": 0.5, "loss": 0.0})
    standings = rows.groupby("player").agg(
        games=("game_id", "size"),
        wins=("result", lambda r: (r == "win").sum()),
        draws=("result", lambda r: (r == "draw").sum()),
        losses=("result", lambda r: (r == "loss").sum()),
        vp_for=("vp_total", "sum"),
        vp_against=("vp_against", "sum"),
        points=("score", "sum"),
    )
    standings["vp_diff"] = standings.vp_for - standings.vp_against
    standings = standings.sort_values(["points", "vp_diff", "vp_for"], ascending=False)

    kills = pd.read_sql("SELECT game_id, player AS victim FROM incapacitations", conn)
    k = rows[["game_id", "player"]].merge(kills, on="game_id")
    k["enemy"] = k.victim != k.player
    k["own"] = k.victim == k.player
    killed = k.groupby(["game_id", "player"]).agg(enemies=("enemy", "sum"), lost=("own", "sum")).reset_index()
    cp = pd.read_sql("SELECT game_id, player, delta FROM cp_changes", conn)
    cp["gained"] = cp.delta.clip(lower=0)
    cp["spent"] = -cp.delta.clip(upper=0)
    cp = cp.groupby(["game_id", "player"])[["gained", "spent"]].sum().reset_index()
    tps = pd.read_sql("SELECT game_id, turning_point, initiative FROM turning_points", conn)
    i = rows[["game_id", "player"]].merge(tps, on="game_id")
    i["had"] = i.initiative == i.player
    initiative = i.groupby(["game_id", "player"]).had.mean().reset_index()
    per_game = (
        rows.merge(killed, on=["game_id", "player"], how="left")
        .merge(cp, on=["game_id", "player"], how="left")
        .merge(initiative, on=["game_id", "player"], how="left")
    )
    teams = per_game.groupby("kill_team").agg(
        games=("game_id", "size"),
        win_rate=("score", "mean"),
        vp_crit=("vp_crit", "mean"),
        vp_kill=("vp_kill", "mean"),
        vp_total=("vp_total", "mean"),
        kill_grade=("kill_grade", "mean"),
        enemies=("enemies", "mean"),
        lost=("lost", "mean"),
        cp_gained=("gained", "mean"),
        cp_spent=("spent", "mean"),
        initiative=("had", "mean"),
    )

    vp = pd.read_sql("SELECT game_id, turning_point, player, vp FROM vp_changes", conn)
    grid = results[["game_id", "player", "result"]].merge(pd.DataFrame({"turning_point": [1, 2, 3, 4]}), how="cross")
    scored = vp.groupby(["game_id", "player", "turning_point"]).vp.sum().reset_index()
    grid = grid.merge(scored, on=["game_id", "player", "turning_point"], how="left").fillna({"vp": 0}).sort_values(["game_id", "player", "turning_point"])
    grid["so_far"] = grid.groupby(["game_id", "player"]).vp.cumsum()
    curves = grid[grid.result != "draw"].groupby(["result", "turning_point"]).so_far.mean()
    assert len(standings) and len(teams) and len(curves)
    print(json.dumps({"seconds": time.perf_counter() - t}))


if __name__ == "__main__":
    main(sys.argv[1])

"""The analyser across a league: what swings games (`ktlog stats moments`), the expected VP each
player's moves added (`ktlog stats players --epa`) and each operative's (`ktlog stats operatives`).

Every finished game of the league is folded and read by its ruleset's model (`key_moments.Walk`),
so the league must be a database (a Parquet dataset holds no events), and a ruleset with no model
is left out, named. A move is named by what it was: `shoot: WEAPON`, `fight: WEAPON`, `ploy:
NAME` (a strategy or firefight ploy, a gambit), the mission action (`Secure` ...), `OP VP`
(VP scored outside an action: a tac op, the turning point's end), `initiative`, else its kind.
A game's deciding moment is the one that raised its winner's chance most (a draw has none; the
result's own step is no moment).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polars as pl

from .. import events as ev
from ..errors import KtlogError
from ..storage.store import Store
from .key_moments import Walk
from .league import League
from .performance import Z95, wilson
from .winprob import choose, load, model_path


def action_name(event: ev.Event) -> str:
    """A move as the league tables name it."""
    match event:
        case ev.Shot():
            return f"shoot: {event.weapon}"
        case ev.Fought():
            return f"fight: {event.weapon}"
        case ev.StrategicGambitUsed():
            return f"ploy: {event.gambit}"
        case ev.FirefightPloyUsed():
            return f"ploy: {event.ploy}"
        case ev.InitiativeDecided():
            return "initiative"
        case ev.TurningPointEnded():
            return "turning point ends"
        case ev.Action():
            return event.name
    category = getattr(event, "category", None) or ("tac" if type(event).__name__ == "TacOpScored" else None)  # VP a player records (KT21, a tac op)
    return f"{category} VP" if category else type(event).__name__


class Read:
    """Every finished game of a league read by its ruleset's model: its moves, credits and luck."""

    def __init__(self, league: League):
        if not isinstance(league.db, Path):
            raise KtlogError("the analyser reads every game's events, which a dataset does not hold: use the database (--db FILE), not --source")
        finished = league.finished_ids  # read (through ADBC) before the store opens its own connection
        teams = league.results.select("game_key", "player", "kill_team")
        stored = load(model_path(league.db))
        steps, credits, luck, unread = [], [], [], {}
        with Store(league.db, create=False) as store:
            for key, game_id in finished.iter_rows():
                ruleset = store.game(game_id).ruleset
                choice = choose(ruleset, stored)
                if choice.model is None:
                    unread[ruleset] = choice.why
                    continue
                walk = Walk(store.records(game_id), choice.model)
                steps += _steps(key, walk)
                credits += [(key, p, o, e, n) for (p, o), (e, n) in walk.credits.items()]
                luck += [(key, s.player, s.vp, s.chance) for s in walk.luck] + [(key, s.target_player, -s.vp, -s.chance) for s in walk.luck]
        self.unread = unread
        """Ruleset -> why its games were left out (no model)."""
        schema = {
            "game_key": pl.Int64,
            "seq": pl.Int64,
            "player": pl.String,
            "action": pl.String,
            "swing": pl.Float64,
            "epa": pl.Float64,
            "decided": pl.Boolean,
        }
        self.steps = league.as_shown(pl.DataFrame(steps, schema=schema, orient="row").join(teams, on=["game_key", "player"], how="left"), ["player"])
        cschema = {"game_key": pl.Int64, "player": pl.String, "operative": pl.String, "epa": pl.Float64, "events": pl.Int64}
        self.credits = league.as_shown(pl.DataFrame(credits, schema=cschema, orient="row").join(teams, on=["game_key", "player"], how="left"), ["player"])
        lschema = {"game_key": pl.Int64, "player": pl.String, "luck_vp": pl.Float64, "luck_chance": pl.Float64}
        self.luck = league.as_shown(pl.DataFrame(luck, schema=lschema, orient="row"), ["player"])
        self.games = league.as_shown(finished.join(teams, on="game_key"), ["player"])

    def notes(self) -> Iterator[str]:
        for ruleset, why in sorted(self.unread.items()):
            yield f"note: {ruleset} games left out: {why}"


def _steps(key: int, walk: Walk) -> list[tuple]:
    """A game's moves: who acted, what, how much their chance and expected VP moved, and whether it decided the game."""
    players = list(walk.state.players)
    result = walk.state.result
    winner = players.index(result.winner) if result is not None and result.winner in players else None
    deciding = max(walk.steps, key=lambda s: s[3][winner], default=None) if winner is not None else None
    rows = []
    for step in walk.steps:
        seq, _, event, change, gained, actor = step
        if actor not in players:
            continue
        i = players.index(actor)
        rows.append((key, seq, actor, action_name(event), change[i], gained[i], step is deciding))
    return rows


def moments_table(read: Read, league: League) -> pl.DataFrame:
    """Per kill team and kind of move: moves, games, mean swing of the mover's chance (in
    percentage points, with a 95% interval), mean expected VP added, and how many games it decided
    and the share of its moves that did (Wilson)."""
    n = pl.len()
    table = (
        read.steps.group_by("kill_team", "action")
        .agg(
            n.alias("moments"),
            pl.col("game_key").n_unique().alias("games"),
            (pl.col("swing").mean() * 100).alias("mean_swing"),
            (pl.col("swing").std() * 100 * Z95 / n.sqrt()).alias("half"),
            pl.col("epa").mean().alias("mean_epa"),
            pl.col("decided").sum().alias("decided"),
        )
        .with_columns(swing_low=pl.col("mean_swing") - pl.col("half"), swing_high=pl.col("mean_swing") + pl.col("half"))  # none from one move
    )
    low, high = wilson(pl.col("decided").cast(pl.Float64), pl.col("moments").cast(pl.Float64))
    table = table.with_columns(decided_rate=pl.col("decided") / pl.col("moments"), decided_low=low, decided_high=high).drop("half")
    table = league.entity_rows(table, "kill_team")
    numbers = [c for c, t in table.schema.items() if t == pl.Float64]
    return table.with_columns(pl.col(numbers).round(3)).sort("kill_team", "decided", "mean_swing", descending=[False, True, True])


def player_epa(read: Read) -> pl.DataFrame:
    """Per player: games read, expected VP their moves added per game, and their dice's luck per game (VP and chance)."""
    games = read.games.group_by("player").agg(pl.col("game_key").n_unique().alias("games_read"))
    epa = read.credits.group_by("player").agg(pl.col("epa").sum().alias("_epa"))
    luck = read.luck.group_by("player").agg(pl.col("luck_vp").sum().alias("_vp"), pl.col("luck_chance").sum().alias("_chance"))
    return (
        games.join(epa, on="player", how="left")
        .join(luck, on="player", how="left")
        .select(
            "player",
            "games_read",
            (pl.col("_epa").fill_null(0) / pl.col("games_read")).round(3).alias("epa_per_game"),
            (pl.col("_vp").fill_null(0) / pl.col("games_read")).round(3).alias("luck_vp_per_game"),
            (pl.col("_chance").fill_null(0) / pl.col("games_read")).round(4).alias("luck_chance_per_game"),
        )
    )


def operatives_table(read: Read, league: League) -> pl.DataFrame:
    """Per player and operative (the player's own moves, ploys and scoring, as `(player)`): games,
    moves, expected VP added in all and per game."""
    table = (
        read.credits.with_columns(pl.col("operative").fill_null("(player)"))
        .group_by("player", "kill_team", "operative")
        .agg(pl.col("game_key").n_unique().alias("games"), pl.col("events").sum().alias("moves"), pl.col("epa").sum().round(3).alias("epa"))
        .with_columns((pl.col("epa") / pl.col("games")).round(3).alias("epa_per_game"))
    )
    return league.entity_rows(league.entity_rows(table, "player"), "kill_team").sort("player", "epa", descending=[False, True])

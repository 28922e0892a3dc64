"""`ktlog stats ...`, `ktlog chart ...` and `ktlog report GAME`: the league read through Polars."""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import KtlogError
from .context import claim_output, database_path, echo, examples, output_options, write_output

if TYPE_CHECKING:  # Polars loads with the first statistic, not with every ktlog command
    from ..analytics.league import League


def _league(ctx: click.Context, kw: dict) -> League:
    from ..analytics.columns import METADATA, check_layout, is_dataset
    from ..analytics.league import Filters, League
    from ..analytics.place import Place

    filters = Filters(**{k: kw.pop(k) for k in FILTERS})
    source = kw.pop("source", None)
    if source is not None:
        place = Place.of(source)
        if not is_dataset(place):
            raise KtlogError(f"{source} is not a ktlog dataset (it has no {METADATA}); write one with `ktlog dataset export {source}`")
        check_layout(place)
        return League(place, filters)
    from ..play.database import is_current  # a database's league only: a dataset needs no store

    db = Path(ctx.find_root().obj["db"])
    if not is_current(db):  # a missing, wrong or newer file gets the store's clear message; an older one is migrated
        from ..play.database import Store

        Store(db, create=False).close()
    return League(db, filters)


COUNTS_RESULTS = ("standings", "results", "players", "teams", "matchups", "elo")
"""The statistics that count wins, draws and losses: they say which shared wins they count as draws."""
FILTERS = ("league", "season", "round", "since", "until", "ruleset", "player", "team", "signed_by_both", "simulated", "samples")


def filter_options(command):
    """The options narrowing the games (`analytics.league.Filters`)."""
    options = [
        click.option("--league", help="Only games of this league label."),
        click.option("--season", help="Only games of this season label."),
        click.option("--round", help="Only games of this round label."),
        click.option("--since", type=click.DateTime(["%Y-%m-%d"]), callback=_day, help="Only games on or after this day (YYYY-MM-DD)."),
        click.option("--until", type=click.DateTime(["%Y-%m-%d"]), callback=_day, help="Only games on or before this day."),
        click.option("--ruleset", help="Only games of this ruleset (e.g. kt24-preliminary)."),
        click.option("--player", help="Only games this player played (and their rows)."),
        click.option("--team", help="Only games this kill team played (and its rows)."),
        click.option(
            "--signed-by-both",
            is_flag=True,
            default=None,
            help="Only games every player signed as they stand, each with the key pinned to their name (`ktlog key trust`; each signature checked).",
        ),
        click.option("--simulated", is_flag=True, default=None, help="Take in games played by `ktlog simulate` (left out otherwise)."),
        click.option(
            "--samples", is_flag=True, default=None, help="Take in the sample games (`ktlog demo`), left out when the database holds games of your own."
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def filtered(command):
    """The filters and output options every statistic takes."""
    options = [
        click.option(
            "--source",
            metavar="DIR|s3://BUCKET/PREFIX",
            help="Compute from this Parquet dataset (`ktlog dataset export`: a folder or an s3:// address) instead of the database.",
        ),
        click.option("--json", "as_json", is_flag=True, help="Print (or write to -o) the rows as JSON: the same as --format json."),
        click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "parquet"]), default="table", show_default=True, help="Output format."),
        output_options(),
        click.option("--wide", is_flag=True, help="A table with every column (player_id too), however wide (by default, the columns that fit the terminal)."),
    ]
    for option in reversed(options):
        command = option(command)
    command = filter_options(command)

    @functools.wraps(command)
    @click.pass_context
    def run(ctx, **kw):
        as_json, fmt, output = kw.pop("as_json"), kw.pop("fmt"), kw.pop("output")
        fmt = "json" if as_json else fmt
        claim_output(ctx, output, kw.pop("force"))
        wide = kw.pop("wide")
        if _served(ctx, command.__name__, kw, fmt, output, wide):
            return
        from ..analytics.formats import write
        from ..analytics.integrity import not_counted, shared_wins

        if kw.get("game"):  # a game named is asked for, a sample too
            kw["samples"] = True
        league = _league(ctx, kw)
        with _dataset_read(league):
            answer = None
            if not isinstance(league.db, Path) and not any(
                kw.values()
            ):  # a dataset's statistic (none, or a league and season: `answers`; no option asked) may be stored
                from ..analytics.answers import stored_answer

                answer = stored_answer(league, command.__name__)
            if answer:
                frame, notes = answer
            else:
                frame, notes = command(league, **kw), not_counted(league)
                notes += shared_wins(league) if command.__name__ in COUNTS_RESULTS else []
        write(frame, fmt, output, database=database_path(ctx), wide=wide)
        for note in notes:
            echo(note, err=True)

    return run


def _served(ctx: click.Context, name: str, kw: dict, fmt: str, output: Path | None, wide: bool) -> bool:
    """Write a dataset's statistic as the text its export stored (`analytics.served`: without
    filters or with a league and season alone, in CSV, JSON or a whole table), without loading
    Polars; False when there is none to write, of the files as they are."""
    whole = fmt != "table" or wide  # a table for people keeps to its terminal and leaves player_id to --wide (formats.rendered)
    options = {k for k, v in kw.items() if v is not None and v is not False} - {*FILTERS, "source"}  # a flag left off (players --epa) asks nothing
    if kw.get("source") is None or fmt == "parquet" or not whole or options:
        return False
    from ..analytics.layout import check_layout, is_dataset
    from ..analytics.place import Place
    from ..analytics.served import scope_of, served_text
    from ..files.output_file import write_file

    place, scope = Place.of(kw["source"]), scope_of({k: kw[k] for k in FILTERS})
    if scope is None or not is_dataset(place):
        return False  # not a dataset: said when it is read
    check_layout(place)
    found = served_text(place, name, scope, fmt)
    if found is None:
        return False
    text, notes = found
    if output is None:
        sys.stdout.write(text)
    else:
        write_file(output, text, database=database_path(ctx))
    for note in notes:
        echo(note, err=True)
    return True


@contextlib.contextmanager
def _dataset_read(league: League) -> Iterator[None]:
    """A read of a dataset that fails on a file cut short or overwritten is said as such, naming
    the files and what to do; any other failure is left as it is."""
    import polars as pl

    from ..analytics.columns import damaged_files
    from ..analytics.place import Place

    try:
        yield
    except pl.exceptions.PolarsError as exc:
        damaged = damaged_files(league.db) if isinstance(league.db, Place) else []
        if not damaged:
            raise
        raise KtlogError(
            f"{league.db}: {', '.join(damaged[:5])}{' ...' if len(damaged) > 5 else ''} cannot be read as Parquet ({exc}); "
            "export the league again into an empty folder (`ktlog dataset export DIR`, from each source's database); nothing was written"
        ) from exc


def _day(ctx, param, value: dt.datetime | None) -> dt.date | None:
    return value.date() if value else None


@click.group(
    epilog=examples("ktlog stats standings", 'ktlog stats teams --league "Autumn League" --json', "ktlog stats results --format csv -o results.csv --samples")
)
def stats() -> None:
    """League statistics: standings, results, players, teams, matchups, curves, ops, dice, elo, moments, operatives."""


@stats.command(
    epilog=examples("ktlog stats standings", 'ktlog stats standings --league "Autumn League" --json', "ktlog stats standings --format csv -o standings.csv")
)
@filtered
def standings(league: League):
    """The league table: games, wins, draws, losses, win rate, VP for and against, Elo."""
    from ..analytics.standings import standings as table

    return table(league)


@stats.command(epilog=examples("ktlog stats results --format csv -o results.csv", "ktlog stats results --player Kasia --json"))
@filtered
def results(league: League):
    """One row per player per game, in league order: labels, opponents, W/D/L, VP by op and
    against, kills, tac ops and the standings' tie-breakers (the league's results file)."""
    from ..analytics.results import results as table

    return table(league)


@stats.command(epilog=examples("ktlog stats players", "ktlog stats players --since 2026-09-01 --wide", "ktlog stats players --epa"))
@click.option(
    "--epa",
    is_flag=True,
    help="Add the expected VP each player's moves added per game (EPA) and their dice's luck, by the win-probability model (every game read again: a database only).",
)
@filtered
def players(league: League, epa: bool = False):
    """Per player: win rate with a 95% interval, VP by op, kills, CP, ploys, initiative (--epa:
    expected VP added and luck per game)."""
    from ..analytics.performance import entity_stats

    table = entity_stats(league, "player")
    if not epa:
        return table
    from ..analytics.swings import Read, player_epa

    read = Read(league)
    for note in read.notes():
        echo(note, err=True)
    return table.join(player_epa(read), on="player", how="left")


@stats.command(epilog=examples("ktlog stats operatives", "ktlog stats operatives --player Kasia --json"))
@filtered
def operatives(league: League):
    """Per player and operative: the expected VP its moves added (EPA), in all and per game, by
    the win-probability model (every game read again: a database only)."""
    from ..analytics.swings import Read, operatives_table

    read = Read(league)
    for note in read.notes():
        echo(note, err=True)
    return operatives_table(read, league)


@stats.command(epilog=examples("ktlog stats teams", 'ktlog stats teams --league "Autumn League" --format csv -o teams.csv'))
@filtered
def teams(league: League):
    """Per kill team: the same figures as `players`."""
    from ..analytics.performance import entity_stats

    return entity_stats(league, "kill_team")


@stats.command(epilog=examples("ktlog stats matchups", "ktlog stats matchups --long --json"))
@click.option("--long", "long_form", is_flag=True, help="One row per pairing instead of a matrix.")
@filtered
def matchups(league: League, long_form: bool):
    """Kill team against kill team: win rate (games), as a matrix."""
    from ..analytics.matchups import matchups as pairs
    from ..analytics.matchups import matrix

    table = pairs(league)
    return table if long_form else matrix(table)


@stats.command(epilog=examples("ktlog stats curves", "ktlog stats curves --game 334f", "ktlog stats curves --comebacks"))
@click.option("--game", help="One game's VP after every event that changed it (a game id or its start).")
@click.option("--comebacks", is_flag=True, help="How often a player trailing after TP2 or TP3 came back to win.")
@filtered
def curves(league: League, game: str | None, comebacks: bool):
    """VP curves: the average VP of winners and losers after each turning point."""
    from ..analytics import curves as c

    if game:
        return c.game_curve(league, _game_id(league, game))
    return c.comebacks(league) if comebacks else c.average_curves(league)


@stats.command(epilog=examples("ktlog stats ops", "ktlog stats ops --ruleset kt24-approved --json"))
@filtered
def ops(league: League):
    """Per crit op and killzone: crit op VP distribution, total VP, margins, draws."""
    from ..analytics.ops import ops as table

    return table(league)


@stats.command(epilog=examples("ktlog stats dice", "ktlog stats dice --by weapon --format csv -o dice.csv"))
@click.option("--by", type=click.Choice(["player", "weapon"]), default="player", show_default=True, help="Group by player or by weapon.")
@filtered
def dice(league: League, by: str):
    """Dice against expectation: hit, critical and save rates, and the luck index."""
    from ..analytics.dice import dice as table

    return table(league, by)


@stats.command(epilog=examples("ktlog stats elo", "ktlog stats elo --player Kasia --json"))
@filtered
def elo(league: League):
    """Each player's Elo rating after every game (start 1500, K 32; --player shows a player's
    games with their league ratings)."""
    import polars as pl

    from ..analytics.standings import league_elo

    history = league_elo(league).join(league.player_ids, on="player", how="left")
    return league.entity_rows(history, "player").select("game_id", "date", "player", "player_id", pl.col("elo_before", "elo").round(1))


@stats.command(epilog=examples("ktlog stats moments", "ktlog stats moments --team Kasrkin --json"))
@filtered
def moments(league: League):
    """Per kill team and kind of move (shots and fights by weapon, ploys, mission actions, VP,
    initiative): the mean swing of the mover's chance with its 95% interval, the mean expected VP
    it added, and how often it decided a game (each ruleset's model: `ktlog analyse fit`, else its
    default; every game read again: a database only)."""
    from ..analytics.swings import Read, moments_table

    read = Read(league)
    for note in read.notes():
        echo(note, err=True)
    return moments_table(read, league)


def _game_id(league: League, prefix: str) -> str:
    """A finished game of the league by its id or the start of it."""
    from ..analytics.league import NothingToCompute
    from ..envelopes import game_prefix

    prefix = game_prefix(prefix)
    games = league.games.filter(league.games.get_column("game_id").str.starts_with(prefix))
    if games.height == 0:
        _left_out(league, prefix)
        raise KtlogError(f"no game id starts with {prefix!r}; `ktlog games` lists them")
    if games.height != 1:
        raise KtlogError(f"{games.height} games start with {prefix!r}; give more of the id (`ktlog games` lists them)")
    game_id, status = games.row(0, named=True)["game_id"], games.row(0, named=True)["status"]
    if status != "finished":
        raise NothingToCompute(f"game {game_id[:8]} is still in progress and statistics count finished games; `ktlog score {game_id[:8]}` shows its VP so far")
    return game_id


def _left_out(league: League, prefix: str) -> None:
    """Explain a game that is in the database but not in the league (a Joint Ops game, or one
    the filters leave out)."""
    from ..analytics.league import NothingToCompute

    every = league.read("games", ("game_id", "ruleset", "pve", "simulated"))
    matches = every.filter(every.get_column("game_id").str.starts_with(prefix))
    if matches.height == 1:
        game_id, ruleset, pve, simulated = matches.row(0)
        if match := next((m for m in league.same_matches if game_id in {r.game_id for r in m.others}), None):
            raise NothingToCompute(f"{match.describe()}; the league's figures are those of game {match.counted.game_id[:8]}")
        if simulated and not league.filters.simulated:
            raise NothingToCompute(f"game {game_id[:8]} was played by `ktlog simulate`, which league statistics leave out (--simulated takes it in)")
        if pve and league.filters.ruleset is None:
            raise NothingToCompute(
                f"game {game_id[:8]} is a {ruleset} game, which league statistics leave out (`ktlog stats ... --ruleset {ruleset}` takes them in)"
            )
        raise NothingToCompute(f"game {game_id[:8]} is left out by the filters ({league.filters.describe()}); drop a filter to include it")


CHARTS = ("vp", "curves", "teams", "elo", "board")


@click.command(
    epilog=examples(
        "ktlog chart vp 334f -o race.png", "ktlog chart teams -o teams.svg", "ktlog chart elo -o elo.png --force", "ktlog chart board 5b0a --at 40 -o board.svg"
    )
)
@click.argument("kind", type=click.Choice(CHARTS))
@click.argument("game", required=False)
@click.option("--at", "at", type=click.IntRange(min=0), help="board: the moment to draw, after this seq (default: the latest).")
@output_options(required=True, help="The chart file: .png or .svg (board: .svg).")
@click.pass_context
def chart(ctx, kind, game, at, output, force) -> None:
    """Draw a chart to PNG or SVG: vp GAME (one game's VP race), curves (winners and losers),
    teams (win rate per kill team with its interval), elo (ratings over time), board GAME (the
    battle on its killzone, --at SEQ)."""
    claim_output(ctx, output, force)
    if kind == "board":  # no Polars: the board is drawn from the game's events
        write_output(ctx, output, _board_chart(ctx, game, at, output))
        return
    from ..analytics import charts

    charts.converter()  # the charts extra, before the league is read
    league = _league(ctx, dict.fromkeys(FILTERS) | {"samples": kind == "vp" or None})  # a game named is asked for, a sample too
    if kind == "vp":
        if not game:
            raise KtlogError("`ktlog chart vp` needs a game: ktlog chart vp GAME -o race.png")
        drawing = charts.game_vp_chart(league, _game_id(league, game))
    else:
        drawing = {"curves": charts.average_curves_chart, "teams": charts.team_win_rates_chart, "elo": charts.elo_chart}[kind](league)
    write_output(ctx, output, charts.render(drawing, output))


def _board_chart(ctx: click.Context, game: str | None, at: int | None, output: Path) -> str:
    """The SVG of a game with positions on its board after seq `at`."""
    from ..play.battle import board_view
    from ..play.database import Store
    from ..play.replay import Replay

    if not game:
        raise KtlogError("`ktlog chart board` needs a game: ktlog chart board GAME --at SEQ -o board.svg")
    if output.suffix.lower() != ".svg":
        raise KtlogError(f"{output}: the board is drawn as SVG; give a file ending .svg")
    with Store(database_path(ctx), create=False) as store:
        game_id = store.resolve(game)
        replay = Replay.open(store, game_id)
    if at is not None and at > replay.head:
        raise KtlogError(f"--at {at}: game {game_id[:8]} has {replay.head} events; give a seq from 0 to {replay.head}")
    view = board_view(replay, replay.head if at is None else at)
    if view is None:
        raise KtlogError(f"game {game_id[:8]} records no positions (it was created without --layout): there is no board to draw")
    return view.svg(title=f"{view.layout.name}: game {game_id[:8]} after seq {view.seq}")


@click.command(epilog=examples("ktlog report 334f", "ktlog report 334f -o game.html"))
@click.argument("game")
@output_options(help="The HTML file (default: the game's id).html).")
@click.pass_context
def report(ctx, game, output, force) -> None:
    """Write one game as a single HTML file: result, VP curve, events and notes (opens offline)."""
    from ..analytics.league import Filters, League
    from ..analytics.report import game_report
    from ..files.output_file import default_name
    from ..play.database import Store

    db = Path(ctx.find_root().obj["db"])
    with Store(db, create=False) as store:
        game_id = store.resolve(game)
        output = output or default_name(game_id, ".html")
        claim_output(ctx, output, force)
        text = game_report(store, League(db, Filters(simulated=True, samples=True)), game_id)  # any game of the database, simulated or a sample too
    write_output(ctx, output, text)
    from ..analytics.charts import EXTRA, ChartsExtraMissing, converter

    try:
        converter()
    except ChartsExtraMissing:
        echo(f"note: the report's charts are left out: {EXTRA}", err=True)

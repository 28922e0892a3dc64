"""`ktlog verify`, `rebuild` and `simulate`: checking a database, rebuilding what derives from the log, filling one with random games."""

from __future__ import annotations

import dataclasses
import os
import sys

import click

from ..errors import KtlogError
from ..text.plural import counted
from .context import echo, echo_json, examples, json_option, open_store
from .progress import progress


@click.command("verify", epilog=examples("ktlog verify", "ktlog verify 334f", "ktlog verify --json > verdicts.json"))
@click.argument("game", required=False)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the verdicts as JSON: file_problems, games (game_id, ok, events, bad_seq, problem, signers), verified, failed.",
)
@click.pass_context
def verify_cmd(ctx, game, as_json) -> None:
    """Re-check every game (or one): hash chain, event schemas, and the rules by re-folding.
    Exits 1 when the file or a game fails, with --json too."""
    from ..play.signatures import signers
    from ..play.verify import verify, verify_file

    store = open_store(ctx)
    damage, missing = verify_file(store)
    if as_json:
        verdicts = verify(store, [store.resolve(game)] if game else None)
        games = [dataclasses.asdict(v) | {"ok": v.ok, "signers": signers(store, v.game_id).describe()} for v in verdicts]
        failed = sum(not v.ok for v in verdicts)
        echo_json({"file_problems": damage + missing, "games": games, "verified": len(verdicts) - failed, "failed": failed})
        sys.exit(1 if damage or missing or failed else 0)
    for problem in damage + missing:
        echo(f"the file  FAILED: {problem}")
    verdicts = verify(store, [store.resolve(game)] if game else None)
    for v in verdicts:
        echo(f"{v.describe()}; {signers(store, v.game_id).describe()}" if v.ok else v.describe())
    bad = [v for v in verdicts if not v.ok]
    if damage or missing:
        refusal = "; ktlog refuses to write to it until it is restored" if damage else ""
        echo(f"the database file failed its checks{refusal}. {len(bad)} of {len(verdicts)} games failed verification", err=True)
        sys.exit(1)
    if bad:
        echo(f"{len(bad)} of {len(verdicts)} games failed verification", err=True)
        sys.exit(1)
    echo(f"all {len(verdicts)} games verified" if len(verdicts) != 1 else "the 1 game verified")


@click.command(epilog=examples("ktlog rebuild", "ktlog --db league.db rebuild --json"))
@json_option("what was rebuilt: games")
@click.pass_context
def rebuild(ctx, as_json) -> None:
    """Rebuild the projection tables and snapshots from the event log."""
    count = open_store(ctx).rebuild()
    if as_json:
        return echo_json({"games": count})
    echo(f"rebuilt projections and snapshots of {counted(count, 'game')}")


@click.command(
    epilog=examples(
        "ktlog simulate --db trial.db",
        "ktlog simulate --db trial.db --games 100 --seed 7 --ruleset kt21 --json",
        "ktlog simulate --db trial.db --layout volkus-like",
    )
)
@click.option("--games", "count", type=click.IntRange(1), default=10, show_default=True, help="How many games to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed (the same seed plays the same games).")
@click.option("--league", default="Simulated League", show_default=True, help="League label of the games.")
@click.option("--ruleset", default="kt24-preliminary", show_default=True, help="The ruleset of the games (those with a simulator).")
@click.option(
    "--layout",
    "layout_spec",
    metavar="NAME|FILE",
    help="Play on this layout with positions: a shipped one (volkus-like, gallowdark-like) or a layout file (docs/the-board.md).",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was stored as JSON: database, games, game_ids, seed, league, ruleset, layout.")
@click.pass_context
def simulate(ctx, count, seed, league, ruleset, layout_spec, as_json) -> None:
    """Play random legal games through the rules and store them.

    They are marked simulated: statistics, datasets and the web's tables leave them out unless
    asked (`--simulated`). With --layout, each operative is set up, moved, charges and shoots
    where the board allows, and the board says who controls each marker."""
    from ..files.layouts import find_layout
    from ..play.database import default_db_path
    from ..play.simulate import positional_check, simulate_into

    layout = None
    if layout_spec is not None:
        layout = find_layout(layout_spec)
        positional_check(ruleset, layout)

    if not os.environ.get("KTLOG_DB") and ctx.find_root().obj["db"] == default_db_path():  # issue 16 #12
        raise KtlogError("simulated games would go into your league's database: give them one of their own with --db FILE")
    store = open_store(ctx, create=True)
    ids: list[str] = []
    try:
        with progress("simulating games") as advance:
            simulate_into(store, count, seed, league=league, ruleset=ruleset, ids=ids, simulated=True, progress=advance, layout=layout)
    except KeyboardInterrupt:
        echo(f"interrupted: {len(ids)} of {count} games were stored in {store.path}, each whole; the others were not played", err=True)
        ctx.exit(130)
    if as_json:
        shown = {"database": str(store.path or ":memory:"), "games": len(ids), "game_ids": ids, "seed": seed, "league": league, "ruleset": ruleset}
        echo_json(shown | ({"layout": layout.name} if layout is not None else {}))
    else:
        echo(f"simulated {counted(len(ids), 'game')} into {store.path or ':memory:'}")

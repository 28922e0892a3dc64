"""`ktlog record` and `replay`, and `ktlog` alone: the commands that open the terminal UI (the only ones that load Textual)."""

from __future__ import annotations

import click

from .context import examples, open_store


@click.command(epilog=examples("ktlog record", "ktlog record 334f"))
@click.argument("game", required=False)
@click.pass_context
def record(ctx, game) -> None:
    """Record a game live in the terminal UI: a new one, or resume GAME."""
    from ktlog.tui.app import make_app  # the core never imports Textual; only these commands do

    store = open_store(ctx, ui=True, create=game is None)
    make_app(store, screen="record" if game else "new", game_id=store.resolve(game) if game else None).run()


@click.command(epilog=examples("ktlog replay 334f", "ktlog replay 5d0c --spectator"))
@click.argument("game")
@click.option("--spectator", is_flag=True, help="Hide secret choices until they are revealed.")
@click.pass_context
def replay(ctx, game, spectator) -> None:
    """Replay a game step by step in the terminal UI."""
    from ktlog.tui.app import make_app

    store = open_store(ctx, ui=True)
    make_app(store, screen="replay", game_id=store.resolve(game), spectator=spectator).run()


def start(ctx: click.Context) -> None:
    """`ktlog` alone: the start screen. While the database has no games, it lists the sample
    games from the demo database (`samples.demo_db_path`), loaded the first time, so that they
    never go into the user's; a new game goes into the user's database. The importer is loaded
    only for a sample the demo database does not hold in full."""
    from ktlog.tui.app import make_app

    from ..errors import KtlogError
    from ..play.database import UI_BUSY_TIMEOUT_MS

    store = open_store(ctx, ui=True, create=True)
    samples, problems = None, list[KtlogError]()
    if store.listing.count()[0] == 0:
        from .samples import open_demo

        samples, problems = open_demo(UI_BUSY_TIMEOUT_MS)
        ctx.call_on_close(samples.close)
    make_app(store, screen="start", samples=samples).run()
    for problem in problems:
        click.echo(f"note: a sample game was not loaded: {problem}", err=True)

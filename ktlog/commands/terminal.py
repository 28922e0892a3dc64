"""`ktlog record` and `replay`, and `ktlog` alone: the commands that open the terminal UI (the only ones that load Textual)."""

from __future__ import annotations

import click

from .context import open_store


@click.command()
@click.argument("game", required=False)
@click.pass_context
def record(ctx, game) -> None:
    """Record a game live in the terminal UI: a new one, or resume GAME."""
    from ktlog.tui.app import make_app  # the core never imports Textual; only these commands do

    store = open_store(ctx, ui=True, create=game is None)
    make_app(store, screen="record" if game else "new", game_id=store.resolve(game) if game else None).run()


@click.command()
@click.argument("game")
@click.option("--spectator", is_flag=True, help="Hide secret choices until they are revealed.")
@click.pass_context
def replay(ctx, game, spectator) -> None:
    """Replay a game step by step in the terminal UI."""
    from ktlog.tui.app import make_app

    store = open_store(ctx, ui=True)
    make_app(store, screen="replay", game_id=store.resolve(game), spectator=spectator).run()


def start(ctx: click.Context) -> None:
    """`ktlog` alone: load the sample games (again: importing twice changes nothing), then open
    the start screen. The importer is loaded only for a sample the database does not hold in full."""
    from ktlog.tui.app import make_app

    from ..data import SAMPLE_GAMES
    from ..errors import KtlogError
    from .samples import sample_files, stored_already

    store = open_store(ctx, ui=True, create=True)
    samples = sample_files(SAMPLE_GAMES)
    results: list[object] = []
    if not samples or not all(stored_already(store, path) for path in samples):
        from .files import load_samples

        _, results = load_samples(store, SAMPLE_GAMES)
    make_app(store, screen="start").run()
    for problem in (r for r in results if isinstance(r, KtlogError)):
        click.echo(f"note: a sample game was not loaded: {problem}", err=True)

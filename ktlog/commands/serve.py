"""`ktlog serve`: the read-only web view of the database (tables, games, overlay, replay, league)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import KtlogError

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", type=click.IntRange(1, 65535), default=8787, show_default=True, help="The port to listen on.")
@click.option("--seats", is_flag=True, help="Let players record from their seats' links (`ktlog seat GAME PLAYER`); without it every write is refused.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, seats: bool) -> None:
    """Serve a read-only web view: every table live, a game, a stream overlay, the replay and the league."""
    from ..web.app import Server, make_app

    db = Path(ctx.find_root().obj["db"])
    if not db.exists():
        raise KtlogError(f"no database at {db}; record a game first (`ktlog new`), or give one with --db")
    shown = f"[{host}]" if ":" in host else host
    mode = "seats may record: each seat's link is its key" if seats else "read-only"
    click.echo(f"ktlog serve: reading {db} at http://{shown}:{port}/ ({mode}; Ctrl+C stops it)")
    if host not in LOCAL_HOSTS:
        click.echo(f"warning: listening on {host}: anyone on your network can read every game in {db.name}", err=True)
        if seats:
            click.echo(
                f"warning: anyone on your network who holds a seat's link can record as that player; give each link "
                f"(`ktlog seat GAME PLAYER --url http://THIS-MACHINE:{port}`) to its player only, and revoke one that was seen",
                err=True,
            )
    try:
        Server(make_app(db, seats=seats), host=host, port=port, log_level="warning", timeout_graceful_shutdown=2).run()
    except OSError as exc:
        raise KtlogError(f"cannot listen on {host}:{port}: {exc.strerror}; choose another --port") from exc

"""`ktlog serve`: the read-only web view of the database (tables, games, overlay, replay, league)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import KtlogError
from .context import examples

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


@click.command(epilog=examples("ktlog serve", "ktlog serve --host 0.0.0.0 --port 8080", "ktlog serve --seats --host 0.0.0.0"))
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", type=click.IntRange(1, 65535), default=8787, show_default=True, help="The port to listen on.")
@click.option("--allow-host", "allow", multiple=True, metavar="NAME", help="Another name the server may be reached by (repeatable).")
@click.option("--max-streams", type=click.IntRange(1, 10_000), default=32, show_default=True, help="Live streams one client address may hold open.")
@click.option("--seats", is_flag=True, help="Let players record from their seats' links (`ktlog seat GAME PLAYER`); without it every write is refused.")
@click.option("--organiser", is_flag=True, help="Let the organiser run tournaments from their page's link (`ktlog tournament organiser NAME`).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, allow: tuple[str, ...], max_streams: int, seats: bool, organiser: bool) -> None:
    """Serve a read-only web view: every table live, a game, a stream overlay, the replay and the league."""
    from ..web.app import SERVER_SETTINGS, Server, listen, make_app

    db = Path(ctx.find_root().obj["db"])
    if not db.exists():
        raise KtlogError(f"no database at {db}; record a game first (`ktlog new`), or give one with --db")
    sock = listen(host, port)
    shown = f"[{host}]" if ":" in host else host
    mode = (
        "; ".join([*(["seats may record: each seat's link is its key"] if seats else []), *(["the organiser's link runs its tournament"] if organiser else [])])
        or "read-only"
    )
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
        app = make_app(db, hosts=(host,), allow=allow, streams_per_client=max_streams, seats=seats, organiser=organiser)
        Server(app, **SERVER_SETTINGS).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops the server, then raises the Ctrl+C again
        click.echo("ktlog serve: stopped")
        ctx.exit(130)
    finally:
        sock.close()
    click.echo("ktlog serve: stopped")

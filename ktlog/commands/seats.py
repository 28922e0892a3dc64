"""`ktlog seat` (a player's link to record from their own device) and `ktlog dispute`."""

from __future__ import annotations

import click

from ..play.seats import DEFAULT_BASE
from .context import echo, echo_json, open_store


@click.command()
@click.argument("game")
@click.argument("player")
@click.option("--url", "base", default=DEFAULT_BASE, show_default=True, help="Where `ktlog serve --seats` is reached from the player's phone.")
@click.option("--revoke", is_flag=True, help="End the seat's token: its link records nothing more.")
@click.option("--json", "as_json", is_flag=True, help='Print {"player", "url", "token"} as JSON (no QR code).')
@click.pass_context
def seat(ctx, game, player, base, revoke, as_json) -> None:
    """Print a link (and its QR code) for PLAYER to record their side of GAME from a phone; the link is the key: anyone holding it records as PLAYER.

    A new link ends the seat's earlier one; `ktlog serve --seats` answers it."""
    from ..play import seats
    from ..text.qr import qr_text

    store = open_store(ctx)
    game_id = store.resolve(game)
    if revoke:
        seats.revoke(store, game_id, player)
        echo(f"revoked {player}'s seat of game {game_id[:8]}: its link records nothing more")
        return
    token = seats.issue(store, game_id, player)
    url = seats.link(base, game_id, token)
    if as_json:
        echo_json({"player": player, "url": url, "token": token})
        return
    echo(f"{player}'s seat of game {game_id[:8]} (the link is the key: give it to {player} only):")
    click.echo(url)
    click.echo(qr_text(url))


@click.command()
@click.argument("game")
@click.argument("seq", type=int)
@click.option("--reason", required=True, help="Why the event is wrong (kept in the log).")
@click.pass_context
def dispute(ctx, game, seq, reason) -> None:
    """Dispute the event at SEQ: the result is provisional, and the game cannot be signed, until the dispute is resolved.

    The seat that raised it resolves it: `ktlog event GAME DisputeResolved dispute=N
    outcome=accepted` once the event is corrected, or `outcome=withdrawn`."""
    from .. import events as ev
    from ..play.session import RecordingSession

    store = open_store(ctx)
    session = RecordingSession(store, store.resolve(game), expect_next=False)
    recorded = session.record(ev.EventDisputed(target=seq, reason=reason))
    echo(f"seq {recorded.seq}: dispute of seq {seq}: {reason.strip()}; the result is provisional until it is resolved")

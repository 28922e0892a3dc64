"""`ktlog seat` (a player's link to record from their own device) and `ktlog dispute`."""

from __future__ import annotations

import click

from ..play.seats import DEFAULT_BASE
from .context import echo, echo_json, examples, json_option, open_store


@click.command(epilog=examples("ktlog seat 334f Alice", "ktlog seat 334f Alice --json --url http://192.168.1.20:8787", "ktlog seat 334f Alice --revoke"))
@click.argument("game")
@click.argument("player")
@click.option("--url", "base", default=DEFAULT_BASE, show_default=True, help="Where `ktlog serve --seats` is reached from the player's phone.")
@click.option("--revoke", is_flag=True, help="End the seat's token: its link records nothing more.")
@json_option("the seat: player, url, token (no QR code); with --revoke: game, player, revoked")
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
        if as_json:
            echo_json({"game": game_id, "player": player, "revoked": True})
        else:
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


@click.command(
    epilog=examples(
        'ktlog dispute 334f 42 --reason "the gunner was out of range"      # prints the dispute\'s seq, say 267',
        "ktlog event 334f DisputeResolved dispute=267 outcome=withdrawn    # closing it",
    )
)
@click.argument("game")
@click.argument("seq", type=int)
@click.option("--reason", required=True, help="Why the event is wrong (kept in the log).")
@json_option("the dispute: game, seq (the dispute's own: DisputeResolved dispute=SEQ closes it), disputed, reason")
@click.pass_context
def dispute(ctx, game, seq, reason, as_json) -> None:
    """Dispute the event at SEQ: the result is provisional, and the game cannot be signed, until the dispute is resolved.

    The seat that raised it resolves it: `ktlog event GAME DisputeResolved dispute=N
    outcome=accepted` once the event is corrected, or `outcome=withdrawn`."""
    from .. import events as ev
    from ..play.session import RecordingSession

    store = open_store(ctx)
    session = RecordingSession(store, store.resolve(game), expect_next=False)
    recorded = session.record(ev.EventDisputed(target=seq, reason=reason))
    if as_json:
        return echo_json({"game": session.game_id, "seq": recorded.seq, "disputed": seq, "reason": reason.strip()})
    echo(f"seq {recorded.seq}: dispute of seq {seq}: {reason.strip()}; the result is provisional until it is resolved")
    echo(
        f"  closing it: ktlog event {session.game_id[:8]} DisputeResolved dispute={recorded.seq} outcome=withdrawn "
        f"(or outcome=accepted once seq {seq} is corrected: ktlog correct {session.game_id[:8]} {seq} ...)"
    )

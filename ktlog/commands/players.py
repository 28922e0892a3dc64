"""`ktlog player`: the league's players as identities (see `ktlog.play.players`)."""

from __future__ import annotations

import click

from .context import echo, echo_json, examples, open_store

JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


@click.group(epilog=examples("ktlog player list", "ktlog player show Kasia --json"))
def player() -> None:
    """The league's players: each is their pinned key, or their name within the database (club) that recorded them."""


@player.command("list", epilog=examples("ktlog player list", "ktlog player list --json"))
@JSON
@click.pass_context
def list_players(ctx, as_json) -> None:
    """Every player of the database's games: their name as shown, id, club or key, and games."""
    from ..play.players import players

    found = players(open_store(ctx)).players.values()
    if as_json:
        return echo_json([p.as_json() for p in found])
    if not found:
        return echo("no players yet: record or import games")
    for p in found:
        recorded = sorted({h.name for h in p.handles} - {p.name})
        also = f"  (recorded as {', '.join(recorded)})" if recorded else ""
        echo(f"{p.shown}  {p.player_id}  {p.label}  {p.games} game{'s' * (p.games != 1)}{also}")


@player.command("show", epilog=examples("ktlog player show Kasia", "ktlog player show n-c1771510b17c4e14 --json"))
@click.argument("name")
@JSON
@click.pass_context
def show_player(ctx, name, as_json) -> None:
    """One player (NAME: a name as shown or recorded, or a player id): who they are, the names
    their games recorded and where, and their games."""
    from ..play.players import players

    roster = players(open_store(ctx))
    found = roster.find(name)
    games = [(game_id, recorded) for _, game_id, recorded, pid in roster.seats if pid == found.player_id]
    if as_json:
        return echo_json({**found.as_json(), "games_played": [{"game_id": g, "recorded_as": n} for g, n in games]})
    echo(found.shown)
    echo(f"  player id: {found.player_id}")
    echo(f"  public key: {found.public_key}" if found.public_key else f"  club: {found.label} (no pinned key)")
    for h in found.handles:
        echo(f"  recorded as {h.name} in {h.label} ({h.database[:8]})")
    echo(f"  games: {len(games)}" + "".join(f"\n    {g[:8]}  {n}" for g, n in games))


@player.command("rename", epilog=examples('ktlog player rename Kasia "Kasia W."'))
@click.argument("name")
@click.argument("new_name")
@JSON
@click.pass_context
def rename_player(ctx, name, new_name, as_json) -> None:
    """Show a player as NEW_NAME from now on, in every statistic; their games keep the names they
    were recorded with (the log is never rewritten), and games recorded here as NEW_NAME are theirs."""
    from ..play.players import rename

    renamed = rename(open_store(ctx), name, new_name)
    if as_json:
        return echo_json(renamed.as_json())
    echo(f"{name} is shown as {renamed.shown} from now on ({renamed.player_id}, {renamed.games} game{'s' * (renamed.games != 1)})")


@player.command("merge", epilog=examples('ktlog player merge "Kasia W." Kim'))
@click.argument("keep")
@click.argument("other")
@JSON
@click.pass_context
def merge_players(ctx, keep, other, as_json) -> None:
    """Count OTHER as the same person as KEEP, shown under KEEP's name (a name typed two ways, a
    player who moved club); refused for two different pinned keys."""
    from ..play.players import merge

    merged = merge(open_store(ctx), keep, other)
    if as_json:
        return echo_json(merged.as_json())
    echo(f"{other} is {merged.shown} from now on ({merged.player_id}, {merged.games} game{'s' * (merged.games != 1)})")


@player.command("club", epilog=examples("ktlog player club", 'ktlog player club "North Hall" --json'))
@click.argument("name", required=False)
@JSON
@click.pass_context
def club(ctx, name, as_json) -> None:
    """This database's club name (with NAME: set it), shown beside its players' names where a
    merged league has namesakes, and carried by the game-log files it exports."""
    from ..play.players import set_club

    store = open_store(ctx, create=name is not None)
    database, label = set_club(store, name) if name is not None else store.players.home()
    if as_json:
        return echo_json({"database_id": database, "club": label})
    echo(f"{label}  {database}")

"""`ktlog key`: this recorder's signing key (see `ktlog.play.signatures` for what a signature proves)."""

from __future__ import annotations

import dataclasses
import os

import click

from .context import echo, echo_json, examples, json_option, open_store


@click.group(epilog=examples("ktlog key new Alice", "ktlog key show", "ktlog key list --json"))
def key() -> None:
    """Your signing key (`ktlog export GAME --sign` signs with it) and the league's keyring."""


@key.command("new", epilog=examples("ktlog key new Alice", "KTLOG_KEYS=alice-keys ktlog key new Alice   # a key folder of its own, for trying it out"))
@click.argument("name")
@json_option("the key made: name, public_key, file")
def new_key(name, as_json) -> None:
    """Make your key pair, named as the players' list shows you (once: a key is never replaced).
    It is kept in your user data folder's keys/ (KTLOG_KEYS names another folder), whatever
    database --db or KTLOG_DB names: a key is yours, not a database's."""
    from ..files.keys import create_key, key_file, public_hex

    name, private = create_key(name)
    if as_json:
        return echo_json({"name": name, "public_key": public_hex(private), "file": str(key_file())})
    echo(f"made the signing key of {name} in {key_file()} (keep it private)")
    echo(f"public key: {public_hex(private)}")
    if os.environ.get("KTLOG_DB") and not os.environ.get("KTLOG_KEYS"):
        echo("note: KTLOG_DB names the database, not where keys go: to try signing out, give a key folder of its own with KTLOG_KEYS", err=True)


@key.command("show", epilog=examples("ktlog key show", "ktlog key show --json"))
@json_option("your key: name, public_key")
def show_key(as_json) -> None:
    """Your name and public key: compare it with your opponents' once, in person."""
    from ..files.keys import load_key, public_hex

    name, private = load_key()
    if as_json:
        return echo_json({"name": name, "public_key": public_hex(private)})
    echo(f"{name}  {public_hex(private)}")


@key.command("trust", epilog=examples("ktlog key trust Bob 3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"))
@click.argument("name")
@click.argument("public_key")
@json_option("the key pinned: name, public_key, how, pinned_at, revoked_at")
@click.pass_context
def trust_key(ctx, name, public_key, as_json) -> None:
    """Pin PUBLIC_KEY to NAME in this database's keyring, after comparing it with its owner's
    `ktlog key show`: their signatures count as theirs, another key under NAME does not."""
    from ..play.keyring import trust

    pinned = trust(open_store(ctx, create=True), name, public_key)
    if as_json:
        return echo_json(dataclasses.asdict(pinned))
    echo(f"pinned {pinned.public_key} to {pinned.name}: games signed with it count as signed by {pinned.name}")


@key.command("list", epilog=examples("ktlog key list", "ktlog key list --json"))
@json_option("a list of the keys: name, public_key, how, pinned_at, revoked_at")
@click.pass_context
def list_keys(ctx, as_json) -> None:
    """The keyring of this database: each key, the name it is pinned to, how and when."""
    from ..play.keyring import keys

    pinned = keys(open_store(ctx))
    if as_json:
        return echo_json([dataclasses.asdict(k) for k in pinned])
    if not pinned:
        echo("no keys pinned yet: `ktlog key trust NAME PUBLIC-KEY`, or `ktlog import --trust-new` on first use")
    for k in pinned:
        state = f"revoked {k.revoked_at[:10]}" if k.revoked_at else "pinned"
        echo(f"{k.name}  {k.public_key}  {state} ({k.how}, {k.pinned_at[:10]})")


@key.command("revoke", epilog=examples("ktlog key revoke 3b6a27bc"))
@click.argument("public_key")
@json_option("the key revoked: name, public_key, how, pinned_at, revoked_at")
@click.pass_context
def revoke_key(ctx, public_key, as_json) -> None:
    """Revoke a pinned key (whole, or its first 8 or more hex digits): signatures made with it
    count as no one's from now on."""
    from ..play.keyring import revoke

    revoked = revoke(open_store(ctx), public_key)
    if as_json:
        return echo_json(dataclasses.asdict(revoked))
    echo(f"revoked {revoked.public_key} of {revoked.name}: games signed with it no longer count as signed by {revoked.name}")

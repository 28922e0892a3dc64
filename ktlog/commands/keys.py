"""`ktlog key`: this recorder's signing key (see `ktlog.play.signatures` for what a signature proves)."""

from __future__ import annotations

import click

from .context import echo, open_store


@click.group()
def key() -> None:
    """Your signing key (`ktlog export GAME --sign` signs with it) and the league's keyring."""


@key.command("new")
@click.argument("name")
def new_key(name) -> None:
    """Make your key pair, named as the players' list shows you (once: a key is never replaced)."""
    from ..files.keys import create_key, key_file, public_hex

    name, private = create_key(name)
    echo(f"made the signing key of {name} in {key_file()} (keep it private)")
    echo(f"public key: {public_hex(private)}")


@key.command("show")
def show_key() -> None:
    """Your name and public key: compare it with your opponents' once, in person."""
    from ..files.keys import load_key, public_hex

    name, private = load_key()
    echo(f"{name}  {public_hex(private)}")


@key.command("trust")
@click.argument("name")
@click.argument("public_key")
@click.pass_context
def trust_key(ctx, name, public_key) -> None:
    """Pin PUBLIC_KEY to NAME in this database's keyring, after comparing it with its owner's
    `ktlog key show`: their signatures count as theirs, another key under NAME does not."""
    from ..play.keyring import trust

    pinned = trust(open_store(ctx, create=True), name, public_key)
    echo(f"pinned {pinned.public_key} to {pinned.name}: games signed with it count as signed by {pinned.name}")


@key.command("list")
@click.pass_context
def list_keys(ctx) -> None:
    """The keyring of this database: each key, the name it is pinned to, how and when."""
    from ..play.keyring import keys

    pinned = keys(open_store(ctx))
    if not pinned:
        echo("no keys pinned yet: `ktlog key trust NAME PUBLIC-KEY`, or `ktlog import --trust-new` on first use")
    for k in pinned:
        state = f"revoked {k.revoked_at[:10]}" if k.revoked_at else "pinned"
        echo(f"{k.name}  {k.public_key}  {state} ({k.how}, {k.pinned_at[:10]})")


@key.command("revoke")
@click.argument("public_key")
@click.pass_context
def revoke_key(ctx, public_key) -> None:
    """Revoke a pinned key (whole, or its first 8 or more hex digits): signatures made with it
    count as no one's from now on."""
    from ..play.keyring import revoke

    revoked = revoke(open_store(ctx), public_key)
    echo(f"revoked {revoked.public_key} of {revoked.name}: games signed with it no longer count as signed by {revoked.name}")

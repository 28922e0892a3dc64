"""`ktlog key`: this recorder's signing key (see `ktlog.play.signatures` for what a signature proves)."""

from __future__ import annotations

import click

from .context import echo


@click.group()
def key() -> None:
    """Your signing key: `ktlog export GAME --sign` signs a game with it."""


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

"""What every command shares: the database it opens, JSON output, and the one-line failure."""

from __future__ import annotations

import json
import sys
import typing

import click

if typing.TYPE_CHECKING:
    from ..storage.store import Store


def fail(message: str) -> typing.NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


def open_store(ctx: click.Context, *, ui: bool = False, create: bool = False) -> Store:
    """The database given with --db (or KTLOG_DB, or the default), opened once per command;
    `ui`: the terminal UI's short wait for another writer's lock. Only a command that records
    games passes `create`: any other refuses a path with no database (issue 16 #11) instead of
    leaving folders and an empty database behind a mistyped --db."""
    from ..storage.dbfile import BUSY_TIMEOUT_MS, UI_BUSY_TIMEOUT_MS
    from ..storage.store import Store

    obj = ctx.find_root().obj
    if obj.get("store") is None:
        obj["store"] = Store(obj["db"], create=create, busy_timeout_ms=UI_BUSY_TIMEOUT_MS if ui else BUSY_TIMEOUT_MS)
    return obj["store"]


def echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))

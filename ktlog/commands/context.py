"""What every command shares: the database it opens, JSON output, and the one-line failure."""

from __future__ import annotations

import json
import os
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import click

if typing.TYPE_CHECKING:
    from ..play.database import Store


def echo(text: str = "", **kwargs) -> None:
    """`click.echo` of a command's text, any control character from a game shown as an escape."""
    from ..text.safe import visible_output

    click.echo(visible_output(text), **kwargs)


def fail(message: str) -> typing.NoReturn:
    from ..text.safe import clipped

    echo(f"error: {clipped(message)}", err=True)
    sys.exit(1)


def what_was_changed(ctx: click.Context) -> str:
    """After a failure: "nothing was changed" only when this command committed no write."""
    store = (ctx.find_root().obj or {}).get("store")
    if store is not None and store.commits:
        return f"what was stored before the error is kept ({store.commits} write(s)); `ktlog verify` checks it"
    return "nothing was changed"


def quiet_broken_pipe() -> typing.NoReturn:
    """The reader of standard output went away (`ktlog log G | head -1`): stop quietly with the
    status a shell gives a process killed by SIGPIPE."""
    _drop_standard_output()
    sys.exit(128 + 13)


def settle_standard_output() -> None:
    """After a failed write: if standard output cannot take what is left in its buffer (a full
    device), drop it, so Python's final flush does not fail again (it would print "Exception
    ignored" and exit 120 instead of the command's status)."""
    try:
        sys.stdout.flush()
    except OSError:
        _drop_standard_output()


def _drop_standard_output() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # what is left in the buffer goes nowhere


def open_store(ctx: click.Context, *, ui: bool = False, create: bool = False) -> Store:
    """The database given with --db (or KTLOG_DB, or the default), opened once per command and
    closed at its end;
    `ui`: the terminal UI's short wait for another writer's lock. Only a command that records
    games passes `create`: any other refuses a path with no database (issue 16 #11) instead of
    leaving folders and an empty database behind a mistyped --db."""
    from ..play.database import BUSY_TIMEOUT_MS, UI_BUSY_TIMEOUT_MS, Store

    root = ctx.find_root()
    obj = root.obj
    if obj.get("store") is None:
        obj["store"] = Store(obj["db"], create=create, busy_timeout_ms=UI_BUSY_TIMEOUT_MS if ui else BUSY_TIMEOUT_MS)
        root.call_on_close(obj["store"].close)  # closed when the command ends, not whenever it is collected
    return obj["store"]


def database_path(ctx: click.Context) -> Path:
    """The database this command opens (--db, KTLOG_DB or the default)."""
    return Path(ctx.find_root().obj["db"])


def output_options(*, required: bool = False, help: str = "Write to this file instead of standard output.") -> Callable:
    """`-o FILE` and `--force`: the one rule of every output file (issue 24 #8): an existing file
    is replaced only with --force, the open database never."""

    def add(command: Callable) -> Callable:
        command = click.option("--force", is_flag=True, help="Replace the -o file if it exists.")(command)
        return click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=required, help=help)(command)

    return add


def claim_output(ctx: click.Context, output: Path | None, force: bool) -> None:
    """Refuse, before anything is worked out, an output file that is the open database or that
    exists without --force."""
    from ..errors import KtlogError
    from ..files.output_file import refuse_database

    if output is None:
        return
    refuse_database(output, database_path(ctx))  # its own message, before "exists"
    if output.exists() and not force:
        raise KtlogError(f"{output} exists: give --force to replace it, or another file with -o; nothing was written")


def write_output(ctx: click.Context, output: Path, content: bytes | str | Callable[[BinaryIO], object]) -> None:
    """Write an `-o` file atomically, refusing the open database and its -wal/-shm; says "wrote"."""
    from ..files.output_file import write_file

    write_file(output, content, database=database_path(ctx))
    echo(f"wrote {output}", err=True)


def warn_passed_over(store: Store) -> None:
    """Say which snapshots a read passed over because their seal did not hold."""
    for game_id, seq in store.distrusted:
        echo(
            f"warning: the snapshot of game {game_id[:8]} at seq {seq} does not match its events (edited or damaged), so the state "
            "was folded from the events instead. `ktlog verify` checks the game; `ktlog rebuild` rewrites its snapshots",
            err=True,
        )


def echo_json(data) -> None:
    echo(json.dumps(data, indent=2, ensure_ascii=False))


def json_option(what: str) -> Callable:
    """`--json`: the command's result as JSON on standard output (`echo_json`), what it says for
    people on standard error; `what` names the keys."""
    return click.option("--json", "as_json", is_flag=True, help=f"Print {what} as JSON (messages for people go to standard error).")


def examples(*lines: str) -> str:
    """A command's examples, shown at the end of its --help as written (tests/test_help.py runs
    each through the command's parser)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)

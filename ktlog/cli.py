"""The `ktlog` command. Errors print one clear line and exit with status 1, never a traceback.

The subcommands live in `ktlog.commands` and `ktlog.analytics.commands`, and each is imported
only when it runs (click's lazy loading pattern), so `ktlog stats` never loads the recording
machinery and `ktlog score` never loads Polars.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
from pathlib import Path

import click

from . import __version__
from .commands.context import fail
from .errors import KtlogError
from .storage.dbfile import default_db_path

COMMANDS = {
    "new": "ktlog.commands.recording:new",
    "event": "ktlog.commands.recording:event_cmd",
    "undo": "ktlog.commands.recording:undo",
    "correct": "ktlog.commands.recording:correct",
    "annotate": "ktlog.commands.recording:annotate",
    "games": "ktlog.commands.reading:games",
    "show": "ktlog.commands.reading:show",
    "log": "ktlog.commands.reading:log",
    "score": "ktlog.commands.reading:score",
    "import": "ktlog.commands.files:import_cmd",
    "export": "ktlog.commands.files:export",
    "demo": "ktlog.commands.files:demo",
    "verify": "ktlog.commands.upkeep:verify_cmd",
    "rebuild": "ktlog.commands.upkeep:rebuild",
    "simulate": "ktlog.commands.upkeep:simulate",
    "record": "ktlog.commands.terminal:record",
    "replay": "ktlog.commands.terminal:replay",
    "stats": "ktlog.commands.stats:stats",
    "chart": "ktlog.commands.stats:chart",
    "report": "ktlog.commands.stats:report",
    "roster": "ktlog.commands.roster:roster",
}
"""Each subcommand's name -> "module:attribute" of its click command."""


class KtlogGroup(click.Group):
    """Loads each subcommand when it is asked for, and turns every ktlog error into one line on
    stderr and exit status 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, _, attribute = COMMANDS[name].partition(":")
        return getattr(importlib.import_module(module), attribute)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KtlogError as exc:
            fail(str(exc))
        except sqlite3.Error as exc:
            fail(f"database problem: {exc}. Nothing was recorded; check the file given with --db (or KTLOG_DB)")
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:  # a bug: say so plainly, keep the traceback for KTLOG_DEBUG=1
            if os.environ.get("KTLOG_DEBUG"):
                raise
            fail(f"unexpected {type(exc).__name__}: {exc}. This is a bug in ktlog; nothing was changed. Run again with KTLOG_DEBUG=1 and report it")


@click.group(cls=KtlogGroup, invoke_without_command=True)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="KTLOG_DB",
    default=None,
    help="The database file (default: KTLOG_DB, else ktlog.db in your user data folder).",
)
@click.version_option(__version__, prog_name="ktlog")
@click.pass_context
def cli(ctx: click.Context, db: Path | None) -> None:
    """Record Kill Team matches as an append-only event log; replay and score them.

    With no command, loads the sample games and opens the terminal UI (`ktlog demo` is the
    text version).
    """
    ctx.obj = {"db": db or default_db_path(), "store": None}
    if ctx.invoked_subcommand is None:
        from .commands.terminal import start

        start(ctx)


def main() -> None:
    cli(prog_name="ktlog")

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

SUMMARIES = {
    "new": "Create a game from flags and roster files; prints its id.",
    "event": "Record one event: ktlog event GAME TYPE FIELD=VALUE ...",
    "undo": "Void the latest effective event (undo).",
    "correct": "Correct the event at SEQ: it counts as TYPE FIELD=VALUE ... instead (a wrong die, target, damage).",
    "annotate": "Attach a comment to the event at SEQ.",
    "games": "List the games in the database, newest first (as the terminal UI does).",
    "show": "The state of a game at a moment (default: now).",
    "log": "The events of a game in order; undone and corrected ones are marked, notes shown under their event.",
    "score": "VP by op and in total, kill grade, and the winner or a draw.",
    "import": "Import game-log files (each whole or not at all; importing twice changes nothing).",
    "export": "Write a game's game-log file (JSON Lines: a header, then one event per line).",
    "demo": "Load the sample games into the database and summarise one's replay and score: the text version of `ktlog` alone.",
    "verify": "Re-check every game (or one): hash chain, event schemas, and the rules by re-folding.",
    "rebuild": "Rebuild the projection tables and snapshots from the event log.",
    "simulate": "Play random legal games through the rules and store them.",
    "record": "Record a game live in the terminal UI: a new one, or resume GAME.",
    "replay": "Replay a game step by step in the terminal UI.",
    "stats": "League statistics: standings, players, teams, matchups, curves, ops, dice, elo.",
    "chart": "Draw a chart to PNG or SVG: vp GAME (one game's VP race), curves (winners and losers), teams (win rate per kill team with its interval), elo (ratings over time).",
    "report": "Write one game as a single HTML file: result, VP curve, events and notes (opens offline).",
    "roster": "Rosters: import your kill team, list the rosters, show one, check a roster file.",
}
"""Each subcommand's one-line help, so that `ktlog --help` lists them without importing any
(tests/test_cli.py checks each against its command's own help)."""


class KtlogGroup(click.Group):
    """Loads each subcommand when it is asked for, and turns every ktlog error into one line on
    stderr and exit status 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their one-line help, from SUMMARIES (no command module loaded)."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, SUMMARIES[name]) for name in self.list_commands(ctx)])

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

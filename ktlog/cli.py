"""The `ktlog` command. Errors print one clear line and exit with status 1, never a traceback.

The subcommands live in `ktlog.commands` and `ktlog.analytics.commands`, and each is imported
only when it runs (click's lazy loading pattern), so `ktlog stats` never loads the recording
machinery and `ktlog score` never loads Polars.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from pathlib import Path

import click

from . import __version__
from .commands.context import echo, examples, fail, quiet_broken_pipe, settle_standard_output, what_was_changed
from .errors import DatabaseError, KtlogError

COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("ktlog.commands.recording:new", "Create a game from flags and roster files; prints its id."),
    "event": ("ktlog.commands.recording:event_cmd", "Record one event: ktlog event GAME TYPE FIELD=VALUE ..."),
    "undo": ("ktlog.commands.recording:undo", "Void the latest effective event (undo)."),
    "correct": ("ktlog.commands.recording:correct", "Correct the event at SEQ: it counts as TYPE FIELD=VALUE ... instead (a wrong die, target, damage)."),
    "annotate": ("ktlog.commands.recording:annotate", "Attach a comment to the event at SEQ."),
    "games": ("ktlog.commands.reading:games", "List the games in the database, newest first (as the terminal UI does)."),
    "show": ("ktlog.commands.reading:show", "The state of a game at a moment (default: now)."),
    "log": ("ktlog.commands.reading:log", "The events of a game in order; undone and corrected ones are marked, notes shown under their event."),
    "score": ("ktlog.commands.reading:score", "VP by op and in total, kill grade, and the winner or a draw."),
    "import": (
        "ktlog.commands.files:import_cmd",
        "Import game-log files (each whole or not at all; importing twice changes nothing), then say how many were new, extended, unchanged and refused.",
    ),
    "export": (
        "ktlog.commands.files:export",
        "Write a game's game-log file (JSON Lines: a header, then one event per line), with the signatures kept for it and, with --sign, yours.",
    ),
    "demo": ("ktlog.commands.files:demo", "Load the sample games into the database and summarise one's replay and score: the text version of `ktlog` alone."),
    "verify": ("ktlog.commands.upkeep:verify_cmd", "Re-check every game (or one): hash chain, event schemas, and the rules by re-folding."),
    "rebuild": ("ktlog.commands.upkeep:rebuild", "Rebuild the projection tables and snapshots from the event log."),
    "simulate": ("ktlog.commands.upkeep:simulate", "Play random legal games through the rules and store them."),
    "record": ("ktlog.commands.terminal:record", "Record a game live in the terminal UI: a new one, or resume GAME."),
    "replay": ("ktlog.commands.terminal:replay", "Replay a game step by step in the terminal UI."),
    "analyse": ("ktlog.commands.analyse:analyse", "Win probability: fit the models (analyse fit), or read a game (analyse GAME)."),
    "stats": ("ktlog.commands.stats:stats", "League statistics: standings, results, players, teams, matchups, curves, ops, dice, elo, moments, operatives."),
    "dataset": (
        "ktlog.commands.dataset:dataset",
        "The league as a Parquet dataset (a folder or s3://) that Polars, DuckDB, pandas, pyarrow or Spark read with their defaults.",
    ),
    "chart": (
        "ktlog.commands.stats:chart",
        "Draw a chart to PNG or SVG: vp GAME (one game's VP race), curves (winners and losers), teams (win rate per kill team with its interval), elo (ratings over time), board GAME (the battle on its killzone, --at SEQ).",
    ),
    "report": ("ktlog.commands.stats:report", "Write one game as a single HTML file: result, VP curve, events and notes (opens offline)."),
    "roster": ("ktlog.commands.roster:roster", "Rosters: import your kill team, list the rosters, show one, check a roster file."),
    "serve": ("ktlog.commands.serve:serve", "Serve a read-only web view: every table live, a game, a stream overlay, the replay and the league."),
    "tournament": (
        "ktlog.commands.tournament:tournament",
        "A Swiss tournament: registration, check-in, pairing, results as scores or games, the day's corrections, standings.",
    ),
    "key": ("ktlog.commands.keys:key", "Your signing key (`ktlog export GAME --sign` signs with it) and the league's keyring."),
    "player": (
        "ktlog.commands.players:player",
        "The league's players: each is their pinned key, or their name within the database (club) that recorded them.",
    ),
    "seat": (
        "ktlog.commands.seats:seat",
        "Print a link (and its QR code) for PLAYER to record their side of GAME from a phone; the link is the key: anyone holding it records as PLAYER.",
    ),
    "dispute": (
        "ktlog.commands.seats:dispute",
        "Dispute the event at SEQ: the result is provisional, and the game cannot be signed, until the dispute is resolved.",
    ),
}
"""Each subcommand's name -> the "module:attribute" of its click command, and its one-line help,
so that `ktlog --help` lists them without importing any (tests/test_cli.py checks each help
against its command's own)."""


def _db_given_after(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.find_root().obj["db"] = value


def _with_db(command: click.Command) -> click.Command:
    """Give every subcommand a `--db` of its own, so that `ktlog games --db league.db` opens the
    same file as `ktlog --db league.db games` (issue 24 #21)."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _with_db(sub)
    elif not any(param.name == "db" for param in command.params):
        command.params.append(
            click.Option(
                ["--db"],
                type=click.Path(dir_okay=False, path_type=Path),
                expose_value=False,
                callback=_db_given_after,
                help="The database file (as `ktlog --db FILE COMMAND`).",
            )
        )
    return command


class KtlogGroup(click.Group):
    """Loads each subcommand when it is asked for, and turns every ktlog error into one line on
    stderr and exit status 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their one-line help, from COMMANDS (no command module loaded)."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in self.list_commands(ctx)])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, _, attribute = COMMANDS[name][0].partition(":")
        return _with_db(getattr(importlib.import_module(module), attribute))

    def main(self, *args, standalone_mode: bool = True, **kwargs):  # type: ignore[override]
        """Click's standalone handling, with ktlog's words: a usage error in one line (issue 24
        #25: three), ctrl+c "interrupted" with status 130 in every command (import said
        "Aborted!" and 1)."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]  # passed through as given
        try:
            result = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]  # passed through as given
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx else "ktlog"
            message = " ".join(exc.format_message().split())
            echo(f"error: {message}{'' if message.endswith(('.', '?')) else '.'} `{where} --help` lists what it takes", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            echo(f"error: {' '.join(exc.format_message().split())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx: click.Context):
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # a write error of buffered output is this command's, said here
            return result
        except BrokenPipeError:
            quiet_broken_pipe()
        except KtlogError as exc:
            fail(str(exc))
        except DatabaseError as exc:
            fail(f"database problem: {exc}; {what_was_changed(ctx)}. Check the file given with --db (or KTLOG_DB)")
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:  # ctrl+c, and SIGTERM or SIGHUP where a command turns them into it
            echo(f"interrupted; {what_was_changed(ctx)}", err=True)
            sys.exit(130)
        except OSError as exc:  # writing standard output (a full device, a closed terminal)
            settle_standard_output()
            fail(f"cannot write {exc.filename or 'to standard output'}: {exc.strerror or exc}; {what_was_changed(ctx)}")
        except RecursionError:
            fail(f"the input is nested too deeply to be a ktlog value; {what_was_changed(ctx)}")
        except Exception as exc:  # a bug: say so plainly, keep the traceback for KTLOG_DEBUG=1
            if os.environ.get("KTLOG_DEBUG"):
                raise
            fail(f"unexpected {type(exc).__name__}: {exc}. This is a bug in ktlog; {what_was_changed(ctx)}. Run again with KTLOG_DEBUG=1 and report it")


@click.group(
    cls=KtlogGroup,
    invoke_without_command=True,
    epilog=examples(
        "ktlog                   # the terminal UI",
        "ktlog demo              # the sample games, one replayed in text",
        "ktlog games --json",
        "ktlog --db league.db stats standings",
    ),
)
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
    from .play.database import default_db_path

    ctx.obj = {"db": db or default_db_path(), "store": None}
    if ctx.invoked_subcommand is None:
        from .commands.terminal import start

        start(ctx)


COLLECTOR_THRESHOLD = 50_000
"""Container objects a `ktlog` process allocates before the garbage collector looks at the
youngest (CPython's default: 700). A state's structs are trees the collector skips (`gc=False`),
but decoding a long game's snapshot makes a few thousand lists, and at the default those set
off full collections over every state a store keeps: on issue 26's 20,942-event game they were
about half the CPU of a seek (docs/performance.md, "Seek"). ktlog makes few reference cycles,
so the collector looking less often costs little memory."""


def main() -> None:
    gc.set_threshold(COLLECTOR_THRESHOLD)
    cli(prog_name="ktlog")

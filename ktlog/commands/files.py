"""`ktlog import`, `export` and `demo`: games in and out of the database as game-log files."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import click
import msgspec

from ..data import SAMPLE_GAMES
from ..errors import GameNotFound, KtlogError
from ..files.gamelog import Header, export_lines, write_game_log
from ..play.importer import ImportReport, import_file, import_files
from ..play.replay import Replay
from ..storage.store import Store
from ..text.render import render_replay_summary, render_score
from .context import open_store


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.pass_context
def import_cmd(ctx, files) -> None:
    """Import game-log files (each whole or not at all; importing twice changes nothing)."""
    store = open_store(ctx, create=True)
    failed = 0
    with store.batch():
        for result in import_files(store, list(files)):
            if isinstance(result, KtlogError):
                failed += 1
                click.echo(f"error: {result}", err=True)
            else:
                click.echo(result.describe())
    if failed:
        sys.exit(1)


@click.command()
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write to this file instead of standard output.")
@click.pass_context
def export(ctx, game, output) -> None:
    """Write a game's game-log file (JSON Lines: a header, then one event per line)."""
    store = open_store(ctx)
    lines = export_lines(store, store.resolve(game))
    if output:
        try:
            write_game_log(output, lines)
        except OSError as exc:
            raise KtlogError(f"cannot write {output}: {exc.strerror}") from exc
        click.echo(f"wrote {output}", err=True)
    else:
        click.echo((b"\n".join(lines) + b"\n").decode(), nl=False)


@click.command()
@click.option("--samples", type=click.Path(file_okay=False, path_type=Path), default=SAMPLE_GAMES, show_default=True, help="Folder of game-log files.")
@click.pass_context
def demo(ctx, samples) -> None:
    """Load the sample games into the database and summarise one's replay and score: the text
    version of `ktlog` alone."""
    store = open_store(ctx, create=True)
    files, results = load_samples(store, samples)
    for result in results:
        if isinstance(result, KtlogError):
            raise result
        click.echo(result.describe())
    total, _ = store.count_games()
    first = _header_game_id(files[0])
    click.echo("")
    click.echo(render_replay_summary(first, Replay.open(store, first)))
    click.echo("")
    click.echo(render_score(first, store.state(first)))
    me = "ktlog" if shutil.which("ktlog") else sys.argv[0]
    click.echo(f"\nDatabase: {store.path}  ({total} games). Try: {me} games, {me} show {first[:8]} --tp 2, {me} log {first[:8]}")


def load_samples(store: Store, samples: Path):
    """Import the sample game-log files (again: importing twice changes nothing). Returns the
    files and, for each, its import report or the error that kept it out."""
    files = sorted(Path(samples).glob("*.jsonl"))
    if not files:
        raise KtlogError(f"no sample games (*.jsonl) in {samples}; pass --samples DIR")
    results = []
    with store.batch():
        for path in files:
            try:
                results.append(_stored_already(store, path) or import_file(store, path))
            except KtlogError as exc:
                results.append(exc)
    return files, results


def _stored_already(store: Store, path: Path) -> ImportReport | None:
    """The report for a sample game whose events are all in the database already, found from
    its header alone (`ktlog` opens faster for not parsing every sample again); else None."""
    try:
        header = _header(path)
        stored = store.game(header.game_id).head_seq
    except (OSError, msgspec.DecodeError, GameNotFound):
        return None  # not stored yet, or import_file says what is wrong with the file
    return ImportReport(str(path), header.game_id, "unchanged", 0) if stored >= header.events else None


def _header(path: Path) -> Header:
    with open(path, "rb") as f:
        return msgspec.json.decode(f.readline(), type=Header)


def _header_game_id(path: Path) -> str:
    return _header(path).game_id

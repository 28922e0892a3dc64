"""`ktlog import`, `export` and `demo`: games in and out of the database as game-log files."""

from __future__ import annotations

import contextlib
import functools
import shlex
import shutil
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import click

from ..data import FOLDER, SAMPLE_GAMES
from ..errors import KtlogError
from ..files.gamefile import SUFFIX as GAME_FILE_SUFFIX
from ..files.gamelog import export_lines
from ..play.database import Store
from ..play.importer import ImportReport, import_files
from ..play.replay import Replay
from ..text.plural import counted
from ..text.render import render_replay_summary, render_score
from .context import claim_output, echo, echo_json, examples, json_option, open_store, output_options, write_output
from .progress import progress
from .samples import header_of, load_samples


@click.command(
    "import",
    epilog=examples(
        "ktlog import table1.jsonl table2.jsonl",
        "ktlog import games/ --json > imported.json      # a folder: its .jsonl and .ktgame files",
        "ktlog import both.jsonl --trust-new",
    ),
)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--jobs",
    type=click.IntRange(1),
    help="Processes reading and checking the files (default: the cores ktlog may use; 1: this process alone).",
)
@click.option(
    "--trust-new",
    is_flag=True,
    help="Pin each signer's key seen for the first time to the name it signed under (trust on first use; `ktlog key list` shows the keyring).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the outcome as JSON: files (path, status, game_id, events_added, warnings, error) and summary (new, extended, unchanged, refused, not_reached).",
)
@click.pass_context
def import_cmd(ctx, files, jobs, trust_new, as_json) -> None:
    """Import game-log files (each whole or not at all; importing twice changes nothing), then
    say how many were new, extended, unchanged and refused. A FILE that is a folder stands for
    its .jsonl and .ktgame files (not its subfolders'). A FILE ending in .ktgame is a game
    file: a header of players and labels, then one `TYPE FIELD=VALUE ...` event a line
    (docs/file-formats.md). SIGTERM and SIGHUP stop it as ctrl+c does: the file being written
    is left out whole, the files before it stay imported. A signed file's signers are named,
    each with how their key stands in the league's keyring (`ktlog key`). With --json, the
    lines said of each file go to standard error and the JSON alone to standard output."""
    files = _in_folders(files)
    store = open_store(ctx, create=True)
    tally: Counter[str] = Counter()
    outcomes: list[dict] = []
    say = functools.partial(echo, err=as_json)
    try:
        with _stopped_as_by_ctrl_c(), store.batch(), progress("importing files") as advance:
            for done, result in enumerate(import_files(store, list(files), jobs), 1):
                if isinstance(result, KtlogError):
                    tally["refused"] += 1
                    echo(f"error: {result}", err=True)
                    outcomes.append({"path": str(files[done - 1]), "status": "refused", "error": str(result)})  # in the order of the files
                else:
                    tally[result.status] += 1
                    outcomes.append(
                        {
                            "path": result.path,
                            "status": result.status,
                            "game_id": result.game_id,
                            "events_added": result.events_added,
                            "warnings": result.warnings,
                        }
                    )
                    if Path(result.path).suffix == GAME_FILE_SUFFIX:
                        say(result.describe())
                    else:
                        _report_signers(store, result, trust_new, say)
                advance(done, len(files))
    except BaseException:  # ctrl+c, a database that fails, or a bug: the summary is said all the same
        echo(f"stopped: {_summary(tally, len(files))}", err=True)
        raise
    if as_json:
        counts = {"new": tally["imported"], "extended": tally["extended"], "unchanged": tally["unchanged"], "refused": tally["refused"]}
        echo_json({"files": outcomes, "summary": counts | {"not_reached": len(files) - sum(counts.values())}})
    elif len(files) > 1:
        echo(_summary(tally, len(files)), err=True)
    if tally["refused"]:
        sys.exit(1)


def _in_folders(paths: tuple[Path, ...]) -> list[Path]:
    """The paths given, a folder replaced by its game-log and game files in name order (a club's
    folder of games, as it comes in); refused, before anything is imported, if one holds none."""
    files: list[Path] = []
    for path in paths:
        if not path.is_dir():
            files.append(path)
            continue
        found = sorted(p for p in path.iterdir() if p.suffix in (".jsonl", GAME_FILE_SUFFIX) and p.is_file())
        if not found:
            raise click.UsageError(f"{path} is a folder with no game-log (.jsonl) or game (.ktgame) files in it; nothing was imported")
        files += found
    return files


def _summary(tally: Counter[str], files: int) -> str:
    """One line: how many files were new games, extended, unchanged and refused (and not reached)."""
    counts = {"new": tally["imported"], "extended": tally["extended"], "unchanged": tally["unchanged"], "refused": tally["refused"]}
    text = f"{files} file{'s' * (files != 1)}: " + ", ".join(f"{n} {what}" for what, n in counts.items())
    left = files - sum(counts.values())
    return text + (f"; {left} not reached" if left else "")


def _report_signers(store: Store, result: ImportReport, trust_new: bool, echo: Callable[[str], None] = echo) -> None:
    """Say what a game-log file brought, keep the signatures it carries, say who signed the
    game, and pin the new keys (`trust_new`) or say how to. A file of stored events that brings
    a signature is not "nothing to import" (issue 24 #25)."""
    from ..play import signatures

    header = signatures.file_header(Path(result.path))
    if header is None:
        echo(result.describe())
        return
    before = len(signatures.stored(store, header.game_id))
    found = signatures.keep_from_header(store, header)
    added = len(signatures.stored(store, header.game_id)) - before
    if result.status == "unchanged" and added:
        kept = "was kept" if added == 1 else "were kept"
        echo(
            f"{result.path}: game {header.game_id[:8]} is already in the database; its events are unchanged, and the file's {counted(added, 'new signature')} {kept}"
        )
    else:
        echo(result.describe())
    if found is None:
        return
    if trust_new and (pinned := signatures.trust_new(store, found)):
        for signer in pinned:
            echo(f"  pinned the key of {signer.name} on first use: {signer.public_key}")
        found = signatures.signers(store, header.game_id)
    echo(f"  game {header.game_id[:8]}: {found.describe()}")
    for signer in found.new_keys:
        echo(
            f"  new key of {signer.name}: compare it with theirs (`ktlog key show`), then `ktlog key trust {shlex.quote(signer.name)} {signer.public_key}` (or import with --trust-new)"
        )


@contextlib.contextmanager
def _stopped_as_by_ctrl_c() -> Iterator[None]:
    """SIGTERM and SIGHUP (a `kill`, a closed terminal) raise KeyboardInterrupt, as ctrl+c does."""

    def stop(signum, frame):
        raise KeyboardInterrupt

    before = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


@click.command(epilog=examples("ktlog export 334f -o table1.jsonl", "ktlog export 334f --sign -o alice.jsonl", "ktlog export 334f --format ktgame"))
@click.argument("game")
@output_options()
@click.option("--sign", is_flag=True, help="Sign the game as it stands with your key (`ktlog key new NAME` makes one).")
@click.option(
    "--format",
    "form",
    type=click.Choice(["jsonl", "ktgame"]),
    help="jsonl: the game-log file; ktgame: a game file to read and edit, one event a line. Default: by the -o file's suffix, else jsonl.",
)
@click.pass_context
def export(ctx, game, output, force, sign, form) -> None:
    """Write a game's game-log file (JSON Lines: a header, then one event per line), with the
    signatures kept for it and, with --sign, yours. With --format ktgame (or an -o file ending
    in .ktgame), its game file instead: a header, then one event a line; `ktlog import` takes
    either."""
    from ..play import signatures

    claim_output(ctx, output, force)
    if (form or ("ktgame" if output and output.suffix == GAME_FILE_SUFFIX else "jsonl")) == "ktgame":
        if sign:
            raise KtlogError("a game file carries no signatures (its ids and hashes are made on import): sign the jsonl export; nothing was written")
        from ..play.game_files import game_file

        store = open_store(ctx)
        return _emit(ctx, output, game_file(store, store.resolve(game)).encode())
    store = open_store(ctx)
    game_id = store.resolve(game)
    lines = export_lines(store, game_id)
    if sign:
        mine = signatures.sign(store, game_id)
        store.keys.add_signatures(game_id, [(mine.head_seq, mine.signer, mine.public_key, mine.signature)])
    kept = signatures.stored(store, game_id)
    if kept:
        lines[0] = signatures.signed_header(lines[0], kept)
    _emit(ctx, output, b"\n".join(lines) + b"\n")


def _emit(ctx, output: Path | None, data: bytes) -> None:
    """An export to its -o file, else to standard output."""
    if output:
        write_output(ctx, output, data)
    else:
        echo(data.decode(), nl=False)


@click.command(
    epilog=examples(
        "ktlog demo                          # the 15 sample games, then one replayed in text",
        "KTLOG_DB=try.db ktlog demo          # into a database of their own",
        'ls "$(ktlog demo --path)/examples"  # the example files that come with ktlog',
    )
)
@click.option("--samples", type=click.Path(file_okay=False, path_type=Path), default=SAMPLE_GAMES, show_default=True, help="Folder of game-log files.")
@click.option(
    "--path",
    "print_path",
    is_flag=True,
    help="Print the folder of the files that come with ktlog (samples/: the games, rosters/, examples/, schemas/) and load nothing.",
)
@json_option("what was loaded: database, games (path, status, game_id), first")
@click.pass_context
def demo(ctx, samples, print_path, as_json) -> None:
    """Load the sample games into the database and summarise one's replay and score: the text
    version of `ktlog` alone. The sample games are known by their ids: statistics, standings
    and Elo leave them out once the database holds a game of your own (--samples on `ktlog
    stats` takes them in)."""
    if print_path:
        return echo(str(FOLDER))
    store = open_store(ctx, create=True)
    files, results = load_samples(store, samples)
    for result in results:
        if isinstance(result, KtlogError):
            raise result
    first = header_of(files[0]).game_id
    if as_json:
        loaded = [{"path": r.path, "status": r.status, "game_id": r.game_id} for r in results]
        return echo_json({"database": str(store.path), "games": loaded, "first": first})
    for result in results:
        echo(result.describe())
    total, _ = store.listing.count()
    echo("")
    echo(render_replay_summary(first, Replay.open(store, first)))
    echo("")
    echo(render_score(first, store.state(first)))
    me = "ktlog" if shutil.which("ktlog") else sys.argv[0]
    echo(f"\nDatabase: {store.path}  ({counted(total, 'game')}). Try: {me} games, {me} show {first[:8]} --tp 2, {me} log {first[:8]}")
    if total > len(files):
        echo("The sample games are left out of statistics, standings and Elo beside your own games (`ktlog stats ... --samples` takes them in).")

"""The sample games: loading them into a database (`ktlog demo`), and the demo database of their
own that `ktlog` alone shows while the user's database has no games, so that they never go into
it unasked. Which samples a database holds in full is known from each file's header alone, so
`ktlog` opens its start screen without loading the importer once every sample is stored."""

from __future__ import annotations

from pathlib import Path

import msgspec

from ..errors import GameNotFound, KtlogError
from ..files.gamelog import Header
from ..play.database import Store


def demo_db_path() -> Path:
    """The demo database: the sample games in a file of their own, in the user's cache folder
    (made again from the package's samples whenever it is missing), never the user's league."""
    import platformdirs

    return platformdirs.user_cache_path("ktlog") / "samples.db"


def open_demo(busy_timeout_ms: int) -> tuple[Store, list[KtlogError]]:
    """The demo database, opened with every sample game stored (those it lacks imported now),
    and the problems of the samples that could not be loaded."""
    from ..data import SAMPLE_GAMES

    store = Store(demo_db_path(), busy_timeout_ms=busy_timeout_ms)
    samples = sample_files(SAMPLE_GAMES)
    if samples and all(stored_already(store, path) for path in samples):
        return store, []
    _, results = load_samples(store, SAMPLE_GAMES)
    return store, [r for r in results if isinstance(r, KtlogError)]


def load_samples(store: Store, samples: Path):
    """Import the sample game-log files (again: importing twice changes nothing). Returns the
    files and, for each, its import report or the error that kept it out."""
    from ..play.importer import ImportReport, import_file  # only for a sample not stored yet

    files = sample_files(samples)
    if not files:
        raise KtlogError(f"no sample games (*.jsonl) in {samples}; pass --samples DIR")
    results: list[ImportReport | KtlogError] = []
    with store.batch():
        for path in files:
            try:
                stored = stored_already(store, path)
                results.append(ImportReport(str(path), stored.game_id, "unchanged", 0) if stored else import_file(store, path))
            except KtlogError as exc:
                results.append(exc)
    return files, results


def sample_files(samples: Path) -> list[Path]:
    """The game-log files (`*.jsonl`) of a samples folder, in name order."""
    return sorted(Path(samples).glob("*.jsonl"))


def stored_already(store: Store, path: Path) -> Header | None:
    """The header of a sample game whose events are all in the database already, else None (also
    when the file cannot be read: the importer then says what is wrong with it)."""
    try:
        header = header_of(path)
        stored = store.game(header.game_id).head_seq
    except (OSError, msgspec.DecodeError, GameNotFound):
        return None  # not stored yet, or import_file says what is wrong with the file
    return header if stored >= header.events else None


def header_of(path: Path) -> Header:
    """A game-log file's header (its first line)."""
    with open(path, "rb") as f:
        return msgspec.json.decode(f.readline(), type=Header)

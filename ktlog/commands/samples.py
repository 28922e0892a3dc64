"""The sample games that `ktlog` alone and `ktlog demo` load: which of them the database holds in
full already, known from each file's header alone, so that `ktlog` opens its start screen
without loading the importer when every sample is stored (every start after the first)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from ..errors import GameNotFound
from ..files.gamelog import Header
from ..play.database import Store


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

"""The league's standings, players and teams as `ktlog stats` gives them without filters, stored in
a dataset at export (`answers/<statistic>.parquet`, with the notes said beside them), so that
`ktlog stats standings --source DIR` on a league of millions of games reads its answer instead of
working it out again (issue 26), and any Parquet reader finds the league table beside the games.

An answer is read only while it is of the very files it was worked out from: its Parquet metadata
`ktlog.answer_of` is the SHA-256 of the stored Elo and of every file of `TABLES` (their names,
sizes and bytes), and `ktlog.answer_seal` binds its own rows and notes to that. Otherwise (a file
edited, another source exported since, the answer itself edited, a dataset from before them) the
statistic is worked out from the files, as a database's always is; so is any statistic with a filter.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable

import polars as pl

from .figures import INPUTS, STORED
from .integrity import not_counted
from .league import Filters, League, NothingToCompute
from .performance import entity_stats
from .place import Place
from .standings import STORED_ELO, standings

ANSWERS = "answers"
"""A dataset's folder of answers: `answers/<statistic>.parquet`."""
STATISTICS: dict[str, Callable[[League], pl.DataFrame]] = {
    "standings": standings,
    "players": lambda league: entity_stats(league, "player"),
    "teams": lambda league: entity_stats(league, "kill_team"),
}
"""The statistics stored, by their `ktlog stats` names."""
TABLES = ("games", "game_results", "verifications", STORED, *INPUTS)
"""The tables the statistics and their notes read (with the stored Elo, STORED_ELO); an answer is
of their files (tests/test_dataset.py works each out with every other table gone)."""
ANSWER_OF, SEAL, NOTES = "ktlog.answer_of", "ktlog.answer_seal", "ktlog.notes"


def fingerprint(place: Place) -> str:
    """The SHA-256 of the dataset's stored Elo and every file of `TABLES` (each named, with its
    size): what an answer is of."""
    files = [STORED_ELO] + [f"{table}/{name[len(place.name(table)) + 1 :]}" for table in TABLES for name in place.glob(f"{table}/*/*/*.parquet")]
    return place.digest([(rel, rel) for rel in files])[0]


def _seal(of: str, frame: pl.DataFrame, notes: list[str]) -> str:
    """What binds an answer's rows and notes to the files it is `of`."""
    return hashlib.sha256(f"{of}\n{json.dumps(notes)}\n".encode() + frame.write_json().encode()).hexdigest()


def store_answers(place: Place) -> None:
    """Work out each of `STATISTICS` for the dataset's league without filters, with its notes, and
    store them with the fingerprint of the files they are of (a league with nothing to compute
    stores none, and any answer stored before is removed from use by its fingerprint)."""
    of = fingerprint(place)
    if all(_stored_of(place, name) == of for name in STATISTICS):
        return  # stored already: an export that changed nothing
    league = League(place, Filters())
    try:
        frames = {name: statistic(league) for name, statistic in STATISTICS.items()}
    except NothingToCompute:
        return
    notes = not_counted(league)
    for name, frame in frames.items():
        place.write_parquet(f"{ANSWERS}/{name}.parquet", frame, metadata={ANSWER_OF: of, SEAL: _seal(of, frame, notes), NOTES: json.dumps(notes)})


def _stored(place: Place, name: str) -> tuple[bytes, dict[str, str]] | None:
    """The bytes of the answer stored for `ktlog stats NAME`, and its Parquet metadata; None if
    there is none or it cannot be read (cut short, not Parquet)."""
    rel = f"{ANSWERS}/{name}.parquet"
    if not place.exists(rel):
        return None
    data = place.read(rel)
    try:
        return data, pl.read_parquet_metadata(io.BytesIO(data))
    except (pl.exceptions.PolarsError, OSError):
        return None


def _stored_of(place: Place, name: str) -> str | None:
    stored = _stored(place, name)
    return stored[1].get(ANSWER_OF) if stored else None


def stored_answer(league: League, name: str) -> tuple[pl.DataFrame, list[str]] | None:
    """The answer and notes of `ktlog stats NAME` a dataset stores for `league`, if it is the
    dataset's league without filters and the answer is of its files as they are; None otherwise."""
    place = league.db
    if name not in STATISTICS or not isinstance(place, Place) or league.filters != Filters():
        return None
    stored = _stored(place, name)
    if stored is None:
        return None
    data, meta = stored
    try:
        frame, notes = pl.read_parquet(io.BytesIO(data)), json.loads(meta.get(NOTES, "null"))
    except (pl.exceptions.PolarsError, OSError, ValueError):
        return None  # an answer edited: worked out again
    if not isinstance(notes, list) or not all(isinstance(note, str) for note in notes):
        return None
    of = meta.get(ANSWER_OF)
    if of != fingerprint(place) or meta.get(SEAL) != _seal(of, frame, notes):
        return None
    return frame, notes

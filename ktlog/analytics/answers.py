"""The league's standings, players and teams as `ktlog stats` gives them without filters, and for
each league and season (`--league L --season S`), stored in a dataset at export
(`answers/<statistic>.parquet`, `answers/<season>/<league>/<statistic>.parquet`, with the notes
said beside them), so that `ktlog stats standings --source DIR` on a league of millions of games
reads its answer instead of working it out again (issues 26 and 40), and any Parquet reader finds
the league table beside the games.

An answer is read only while it is of the very files it was worked out from: its Parquet metadata
`ktlog.answer_of` is the SHA-256 of the stored Elo and of every file of `TABLES` (their names,
sizes and bytes), and `ktlog.answer_seal` binds its own rows and notes to that. Its texts are
stored beside it, served without loading Polars (`served`). Otherwise (a file
edited, another source exported since, the answer itself edited, a dataset from before them) the
statistic is worked out from the files, as a database's always is; so is any statistic with other
filters.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable

import polars as pl

from .columns import read_dataset_table
from .figures import INPUTS, STORED
from .formats import rendered
from .integrity import not_counted
from .league import Filters, League, NothingToCompute
from .performance import entity_stats
from .place import Place
from .served import ANSWERS as ANSWERS  # a dataset's folder of answers
from .served import FORMATS, SERVED, answer_base, scope_of, write_served
from .served import fingerprint as files_of
from .standings import STORED_ELO, standings

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
    return files_of(place, STORED_ELO, TABLES)


def _seal(of: str, frame: pl.DataFrame, notes: list[str]) -> str:
    """What binds an answer's rows and notes to the files it is `of`."""
    return hashlib.sha256(f"{of}\n{json.dumps(notes)}\n".encode() + frame.write_json().encode()).hexdigest()


def answer_file(name: str, filters: Filters) -> str | None:
    """Where a dataset stores the answer of `ktlog stats NAME` with these filters: none, or a league
    and a season (`served.scope_of`; in its folder, named as the tables' are); None otherwise."""
    scope = scope_of(vars(filters))
    return None if scope is None else f"{answer_base(name, scope)}.parquet"


def scopes(place: Place) -> tuple[list[Filters], bool]:
    """The filters a dataset stores answers for: none, and each league and season of its games;
    and whether the first two take in the same games (every game of one league and season)."""
    labels = read_dataset_table(place, "games", ("season", "league")).unique()
    pairs = labels.drop_nulls().sort("season", "league").rows()
    return [Filters(), *(Filters(league=league, season=season) for season, league in pairs)], labels.rows() == pairs and len(pairs) == 1


def store_answers(place: Place) -> None:
    """Work out each of `STATISTICS` for the dataset's league without filters and for each of its
    leagues and seasons (`scopes`), with their notes, and store them with the fingerprint of the
    files they are of (a scope with nothing to compute stores none, and any answer stored before
    is removed from use by its fingerprint). A dataset of one league and season: worked out once."""
    of = fingerprint(place)
    every, one = scopes(place)
    stored = [(answer_file(name, filters), answer_base(name, (filters.league, filters.season)) + SERVED) for filters in every for name in STATISTICS]
    if all(_stored_of(place, answer) == of and place.exists(texts) for answer, texts in stored):
        return  # stored already: an export that changed nothing
    answered = None
    for filters in every:
        if answered is None or not one:
            league = League(place, filters)
            try:
                answered = {name: statistic(league) for name, statistic in STATISTICS.items()}, not_counted(league)
            except NothingToCompute:
                continue
        frames, notes = answered
        for name, frame in frames.items():
            metadata = {ANSWER_OF: of, SEAL: _seal(of, frame, notes), NOTES: json.dumps(notes)}
            place.write_parquet(str(answer_file(name, filters)), frame, metadata=metadata)
            texts = {fmt: rendered(frame, fmt, wide=True)[0] for fmt in FORMATS}  # a table whole, as --wide shows it
            write_served(place, name, (filters.league, filters.season), of, STORED_ELO, TABLES, notes, texts)


def _stored(place: Place, rel: str | None) -> tuple[bytes, dict[str, str]] | None:
    """The bytes of the answer stored at `rel` (`answer_file`), and its Parquet metadata; None if
    there is none or it cannot be read (cut short, not Parquet)."""
    data = None if rel is None else place.read_if_any(rel)
    if data is None:
        return None
    try:
        return data, pl.read_parquet_metadata(io.BytesIO(data))
    except (pl.exceptions.PolarsError, OSError):
        return None


def _stored_of(place: Place, rel: str | None) -> str | None:
    stored = _stored(place, rel)
    return stored[1].get(ANSWER_OF) if stored else None


def stored_answer(league: League, name: str) -> tuple[pl.DataFrame, list[str]] | None:
    """The answer and notes of `ktlog stats NAME` a dataset stores for `league`, if its filters
    are none or a league and a season (`answer_file`) and the answer is of its files as they are;
    None otherwise."""
    place = league.db
    if name not in STATISTICS or not isinstance(place, Place):
        return None
    stored = _stored(place, answer_file(name, league.filters))
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

"""A stored answer's text, served as it was written. Beside each answer
(`answers/[<season>/<league>/]<statistic>.parquet`, `answers.store_answers`) an export writes the
statistic's CSV, JSON and whole table with its notes (`<statistic>.served.json`), so that `ktlog
stats standings|players|teams --source DIR` in those formats, without filters or with a league
and a season alone, writes them without loading Polars (its import is most of such a process's
CPU: docs/performance.md), while they are of the very files beside them: the same fingerprint as
the answer's, and a seal over the texts and notes. Loaded without Polars."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

from .layout import folder
from .place import Place

ANSWERS = "answers"
"""A dataset's folder of answers."""
SERVED = ".served.json"
FORMATS = ("csv", "json", "table")
"""The formats served: a table whole, as it is written to a file or another program."""
Scope = tuple[str | None, str | None]
"""The league and season of an answer (both None: the league without filters)."""


def scope_of(filters: Mapping[str, object]) -> Scope | None:
    """The league and season of `filters` (a statistic's, by name) when an answer is stored for
    them (none, or a league and a season and nothing else); None otherwise."""
    league, season = filters.get("league"), filters.get("season")
    others = any(value is not None for name, value in filters.items() if name not in ("league", "season"))
    if others or (league is None) != (season is None) or not isinstance(league, str | None) or not isinstance(season, str | None):
        return None
    return league, season


def answer_base(name: str, scope: Scope) -> str:
    """An answer's name in the dataset, without its suffix."""
    league, season = scope
    return f"{ANSWERS}/{name}" if league is None else f"{ANSWERS}/{folder(season, league)}/{name}"


def fingerprint(place: Place, elo: str, tables: Sequence[str]) -> str:
    """The SHA-256 of the file `elo` and every file of `tables` (each named, with its size): what an
    answer is of."""
    files = [elo] + [f"{table}/{name[len(place.name(table)) + 1 :]}" for table in tables for name in place.glob(f"{table}/*/*/*.parquet")]
    return place.digest([(rel, rel) for rel in files])[0]


def _sealed(body: Mapping[str, object]) -> str:
    return hashlib.sha256(json.dumps({k: v for k, v in body.items() if k != "seal"}, sort_keys=True).encode()).hexdigest()


def write_served(place: Place, name: str, scope: Scope, of: str, elo: str, tables: Sequence[str], notes: list[str], texts: Mapping[str, str]) -> None:
    """Store an answer's texts in `FORMATS` and its notes, of the files `of` names (`fingerprint`)."""
    body: dict[str, object] = {"answer_of": of, "elo": elo, "tables": list(tables), "notes": notes, "texts": dict(texts)}
    body["seal"] = _sealed(body)
    place.write(answer_base(name, scope) + SERVED, json.dumps(body).encode())


def served_text(place: Place, name: str, scope: Scope, fmt: str) -> tuple[str, list[str]] | None:
    """The stored text of `ktlog stats NAME` in `fmt` for `scope`, and its notes, while it is of the
    files as they are and its seal holds; None otherwise (none stored, edited, of other files)."""
    rel = answer_base(name, scope) + SERVED
    data = place.read_if_any(rel) if fmt in FORMATS else None
    if data is None:
        return None
    try:
        body = json.loads(data)
    except ValueError:
        return None
    if not (
        isinstance(body, dict)
        and isinstance(body.get("answer_of"), str)
        and isinstance(body.get("elo"), str)
        and isinstance(body.get("tables"), list)
        and all(isinstance(t, str) for t in body["tables"])
        and isinstance(body.get("notes"), list)
        and all(isinstance(n, str) for n in body["notes"])
        and isinstance(body.get("texts"), dict)
        and isinstance(body["texts"].get(fmt), str)
        and body.get("seal") == _sealed(body)
    ):
        return None
    if fingerprint(place, body["elo"], body["tables"]) != body["answer_of"]:
        return None
    return body["texts"][fmt], body["notes"]

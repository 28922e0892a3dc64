"""A dataset's layout (docs/dataset.md): its `metadata.json` and its folders,
`<table>/<season>/<league>/part-<source>.parquet`, the labels escaped as Hive escapes them.
Loaded without Polars (`served`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..errors import KtlogError

if TYPE_CHECKING:
    from .place import Place

FORMAT = "ktlog-dataset"
LAYOUT = 2
"""The dataset's layout: 2 keeps season and league in the files only (1, ktlog before issue 27,
had them in `season=`/`league=` folder names too)."""
METADATA = "metadata.json"
"""A dataset's folder holds this file (its format, layout, schema, sources and their last positions)."""

PARTITIONS = ("season", "league")
"""A dataset's folders: `<table>/<season>/<league>/part-<source>.parquet`."""
NULL_PARTITION = "~"
"""The folder of a missing label (an escaped label is never `~`: `~` is escaped)."""
ESCAPED = set("\"#%'*/:=?\\{[]^~") | {chr(c) for c in range(0x20)} | {"\x7f"}
"""The characters written as %XX in a folder name: Hive's, and `~` (the missing label's folder)."""


def folder(season: str | None, league: str | None) -> str:
    """A season and league's folder in a dataset (`<season>/<league>`)."""
    return "/".join(NULL_PARTITION if v is None else _escape(v) for v in (season, league))


def _escape(value: str) -> str:
    """A label as a folder name: Hive's escapes, and a first `.` or `_` (hidden to pyarrow and
    Spark); an empty label is `%`."""
    text = "".join(f"%{ord(c):02X}" if c in ESCAPED else c for c in value)
    return f"%{ord(text[0]):02X}{text[1:]}" if text[:1] in (".", "_") else text or "%"


def partition_of(place: Place, table: str, file: str) -> str:
    """The `<season>/<league>` folder of one of `table`'s files (as `Place.glob` names it)."""
    return file[len(place.name(table)) + 1 :].rsplit("/", 1)[0]


def is_dataset(place: Place) -> bool:
    return place.exists(METADATA)


def part_rows(place: Place) -> dict[str, int]:
    """Each part's rows as its export wrote them (`<table>/<season>/<league>/part-<source>.parquet`
    -> rows; none for a dataset of an earlier ktlog), for a reader to check before it reads."""
    try:
        sources = json.loads(place.read(METADATA)).get("sources", {})
        return {part: n for source in sources.values() if isinstance(source, dict) for part, n in (source.get("rows") or {}).items() if isinstance(n, int)}
    except (ValueError, AttributeError):
        return {}  # `check_layout` says what is wrong with the file


def check_layout(place: Place) -> None:
    """Refuse a dataset of another layout, before reading it with the wrong types."""
    try:
        meta = json.loads(place.read(METADATA))
    except ValueError as exc:
        raise KtlogError(f"cannot read {place.name(METADATA)} ({exc}); export the dataset again into an empty folder") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("layout") != LAYOUT:
        raise KtlogError(
            f"{place} is not a ktlog dataset of this version (layout {LAYOUT}: season and league in the files only); "
            "export it again into an empty folder with `ktlog dataset export`"
        )

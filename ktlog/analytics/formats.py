"""Writing a statistics frame: a terminal table, CSV, JSON or Parquet, to a file or standard output."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import polars as pl

from ..errors import KtlogError
from ..files.output_file import write_file
from ..text.safe import visible_output

FORMATS = ("table", "csv", "json", "parquet")
FOR_MACHINES = ("player_id",)
"""Columns a table for people leaves out unless --wide: the player is named as shown (with their
club or key where two share a name); CSV, JSON and Parquet keep the id for other programs."""


def _shown(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame as a table shows it: a whole float as an integer (VP against, 6, beside VP for,
    16, not 6.000), any other to 3 places, NaN as NaN (a rate of no games: the initiative rate of a
    game conceded before any initiative roll, which Polars' NaN == NaN took for a whole number)."""
    floats = [name for name, dtype in frame.schema.items() if dtype.is_float()]
    return frame.with_columns(
        pl.when(pl.col(name).is_finite() & (pl.col(name) == pl.col(name).round(0)))
        .then(pl.col(name).cast(pl.Int64).cast(pl.String))
        .otherwise(pl.col(name).round(3).cast(pl.String))
        for name in floats
    )


def _table(frame: pl.DataFrame, width: int) -> str:
    with pl.Config(
        tbl_rows=-1,
        tbl_cols=-1,
        tbl_width_chars=width,
        fmt_str_lengths=60,
        tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True,
        tbl_formatting="ASCII_MARKDOWN",
        float_precision=3,
    ):
        return str(frame)


UNWRAPPED = 65_535
"""The widest table Polars lays out (a u16): columns at their own widths, never wrapped."""


def render_table(frame: pl.DataFrame, width: int | None = None) -> tuple[str, list[str]]:
    """The frame as a plain table, and the columns left out. Given a `width` (the terminal's), the
    columns that fit it at their own widths, in order, the first always (issue 24 #22: a table
    squeezed into a terminal wrapped every column to three characters); without, every column."""
    frame = _shown(frame)
    text = _table(frame, UNWRAPPED)
    if width is None or frame.width < 2 or len(text.partition("\n")[0]) <= width:
        return text, []
    cells = text.partition("\n")[0].strip("|").split("|")
    kept: list[str] = []
    used = 1
    for name, cell in zip(frame.columns, cells):
        if not kept or used + len(cell) + 1 <= width:
            kept.append(name)
            used += len(cell) + 1
    return _table(frame.select(kept), UNWRAPPED), [c for c in frame.columns if c not in kept]


def terminal_width() -> int | None:
    """The width a table on standard output keeps to: the terminal's (80 at least), or None when
    the output goes to a file or another program (every column)."""
    return max(80, shutil.get_terminal_size((120, 24)).columns) if sys.stdout.isatty() else None


def left_out_note(left_out: list[str], width: int) -> str:
    """One line of at most `width` characters naming the columns a table left out to fit it, as
    many as fit, and how to see them all."""
    head = f"note: {len(left_out)} more column(s) with --wide or --format csv/json: "
    named: list[str] = []
    for name in left_out:
        if named and len(head) + len(", ".join([*named, name])) + len(" ...") > width:
            return head + ", ".join(named) + " ..."
        named.append(name)
    return head + ", ".join(named)


def rendered(frame: pl.DataFrame, fmt: str, fit: int | None = None, *, wide: bool = False) -> tuple[str, list[str]]:
    """The frame as text in `fmt` (table, csv, json), control characters shown escaped, and the
    columns a table left out to `fit` a width (CSV: UTF-8 with a header row, no index column, ISO
    dates: what a spreadsheet opens as it is). A table for people leaves `FOR_MACHINES` out
    unless `wide`."""
    left_out: list[str] = []
    if fmt == "table":
        table, left_out = render_table(frame if wide else frame.drop(FOR_MACHINES, strict=False), fit)
        text = table + "\n"
    elif fmt == "csv":
        text = frame.write_csv()
    else:
        buffer = io.StringIO()
        frame.write_json(buffer)
        text = buffer.getvalue() + "\n"
    return visible_output(text), left_out


def write(frame: pl.DataFrame, fmt: str, output: Path | None, *, database: Path | None = None, wide: bool = False) -> None:
    """The frame in `fmt` (`rendered`, or Parquet) on standard output, or written atomically to
    `output`, never over the `database`. A table on standard output keeps to the terminal's width
    unless `wide`."""
    if fmt == "parquet" and output is None:
        raise KtlogError("Parquet is binary: give a file with -o FILE.parquet")
    text = None
    if fmt != "parquet":
        fit = terminal_width() if fmt == "table" and output is None and not wide else None
        text, left_out = rendered(frame, fmt, fit, wide=wide)
        if left_out:
            print(left_out_note(left_out, fit or 80), file=sys.stderr)
    if output is None:
        sys.stdout.write(text or "")
    else:
        write_file(output, text if text is not None else frame.write_parquet, database=database)

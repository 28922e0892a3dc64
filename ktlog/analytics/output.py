"""Writing a statistics frame: a terminal table, CSV, JSON or Parquet, to a file or standard output."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import polars as pl

from ..errors import KtlogError
from ..files.output import write_file
from ..text.safe import visible_output

FORMATS = ("table", "csv", "json", "parquet")


def render_table(frame: pl.DataFrame) -> str:
    """The whole frame as a plain table sized to the terminal."""
    width = max(80, shutil.get_terminal_size((120, 24)).columns)
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


def write(frame: pl.DataFrame, fmt: str, output: Path | None, *, database: Path | None = None) -> None:
    """The frame in `fmt` on standard output, or written atomically to `output`, never over the
    `database` (CSV: UTF-8 with a header row, no index column, ISO dates: what a spreadsheet
    opens as it is)."""
    if fmt == "parquet" and output is None:
        raise KtlogError("Parquet is binary: give a file with -o FILE.parquet")
    if fmt == "table":
        text = render_table(frame) + "\n"
    elif fmt == "csv":
        text = frame.write_csv()
    elif fmt == "json":
        buffer = io.StringIO()
        frame.write_json(buffer)
        text = buffer.getvalue() + "\n"
    else:
        text = None
    if text is not None:
        text = visible_output(text)
    if output is None:
        sys.stdout.write(text or "")
    else:
        write_file(output, text if text is not None else frame.write_parquet, database=database)

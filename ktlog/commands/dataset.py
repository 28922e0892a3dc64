"""`ktlog dataset export DIR`: the league as a Parquet dataset for other engines (and `ktlog
stats --source DIR`)."""

from __future__ import annotations

from pathlib import Path

import click

from .stats import FILTERS, filter_options


@click.group()
def dataset() -> None:
    """The league as a Parquet dataset (Hive layout by season and league) that Polars, DuckDB
    or Spark read without ktlog."""


@dataset.command("export")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", help="This database's name in FOLDER (default: its file name and a hash of its path); several databases export into one FOLDER.")
@filter_options
@click.pass_context
def export_cmd(ctx, folder: Path, name: str | None, **kw) -> None:
    """Export the games (games, results, VP by op and moment, attacks and dice, CP, kills) into
    FOLDER; run again, it rewrites only the partitions with new events. Other databases (each
    club's) export into the same FOLDER under their own names: the dataset holds them all."""
    from ..analytics.dataset import export
    from ..analytics.league import Filters
    from ..play.database import Store

    db = Path(ctx.find_root().obj["db"])
    Store(db, create=False).close()  # a missing, wrong or newer file gets the store's clear message; an older one is migrated
    report = export(db, folder, Filters(**{k: kw[k] for k in FILTERS}), name)
    click.echo(report.describe(folder))

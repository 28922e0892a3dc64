"""`ktlog dataset export DIR`: the league as a Parquet dataset for other engines (and `ktlog
stats --source DIR`), in a folder or in object storage (`s3://bucket/prefix`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from .context import echo, echo_json, examples
from .progress import progress
from .stats import FILTERS, filter_options


@click.group(epilog=examples("ktlog dataset export league-dataset", "ktlog stats standings --source league-dataset"))
def dataset() -> None:
    """The league as a Parquet dataset (a folder or s3://) that Polars, DuckDB, pandas, pyarrow or Spark read with their defaults."""


@dataset.command(
    "export",
    epilog=examples(
        "ktlog dataset export league-dataset",
        "ktlog dataset export s3://my-bucket/league --name north-hall --json",
        'ktlog dataset export league-dataset --league "Autumn League"',
    ),
)
@click.argument("folder", metavar="DIR|s3://BUCKET/PREFIX")
@click.option("--name", help="This database's name in FOLDER (default: its file name and a hash of its path); several databases export into one FOLDER.")
@click.option(
    "--recorded-here",
    is_flag=True,
    help="Only the games this database recorded, not those it imported from another (a club exporting into a circuit's shared dataset).",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON (dataset, partitions_written, partitions_kept, games, last_position).")
@filter_options
@click.pass_context
def export_cmd(ctx, folder: str, name: str | None, recorded_here: bool, as_json: bool, **kw) -> None:
    """Export the games (games, results, VP by op and moment, attacks and dice, CP, kills) into
    a folder or an s3:// prefix (credentials the usual way: AWS_* variables or ~/.aws); run
    again, it rewrites only the partitions with new events. Other databases (each club's)
    export into the same place under their own names: the dataset holds them all."""
    from ..analytics.dataset import export
    from ..analytics.league import Filters
    from ..analytics.place import Place
    from ..play.database import Store

    db = Path(ctx.find_root().obj["db"])
    Store(db, create=False).close()  # a missing, wrong or newer file gets the store's clear message; an older one is migrated
    with progress("exporting partitions") as advance:
        report = export(db, Place.of(folder), Filters(**{k: kw[k] for k in FILTERS}), name, advance, recorded_here)
    if as_json:
        echo_json(dataclasses.asdict(report))
    else:
        echo(report.describe())

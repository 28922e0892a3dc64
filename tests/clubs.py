"""Clubs' databases merged into one league's, as an organiser merges them: every game of each
club exported to its game-log file (`ktlog export`), the files imported (`ktlog import`)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ktlog.cli import cli
from ktlog.storage.store import Store


def merge_clubs(league: Path, *clubs: Path) -> None:
    """Import every game of each club's database into the league's, through their game-log files."""
    files = []
    for club in clubs:
        folder = club.with_suffix(".games")
        folder.mkdir(exist_ok=True)
        with Store(club, create=False) as store:
            ids = [g.id for g in store.games()]
        for game_id in ids:
            files.append(folder / f"{game_id}.jsonl")
            result = CliRunner().invoke(cli, ["--db", str(club), "export", game_id, "-o", str(files[-1]), "--force"])
            assert result.exit_code == 0, result.output
    result = CliRunner().invoke(cli, ["--db", str(league), "import", *map(str, files)])
    assert result.exit_code == 0, result.output

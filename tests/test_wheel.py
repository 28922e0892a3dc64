"""ktlog installed as a user installs it: the wheel, in a fresh virtual environment outside the
checkout, run from a folder that is not the checkout (as `pipx install .` or `uv tool install .`
leave it). Sample games, rosters and schemas must come from the wheel's package data."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, run, user_environment


@pytest.fixture(scope="module")
def ktlog(installed) -> Path:
    """The `ktlog` script of the fresh virtual environment the wheel is installed in (tests/conftest.py)."""
    return installed / "ktlog"


@pytest.fixture
def user(tmp_path, installed) -> tuple[Path, dict[str, str]]:
    """A working folder outside the checkout, and an environment whose home is there too."""
    home = tmp_path / "home"
    home.mkdir()
    return home, user_environment(home, installed)


def package_data(folder: str, pattern: str) -> list[str]:
    """The checkout's package data files in ktlog/data/FOLDER, as the wheel names them."""
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "ktlog" / "data" / folder).glob(pattern))


def test_the_wheel_carries_the_package_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    samples, rosters = package_data("samples", "*.jsonl"), package_data("rosters", "*.toml")
    assert len(samples) >= 15 and rosters
    assert set(samples + rosters) <= names
    for schema in ("envelope.json", "game-log.json", "game-log-header.json", "events/Shot.json"):
        assert f"ktlog/data/schemas/{schema}" in names
    assert "ktlog/tui/app.py" in names
    assert "ktlog/py.typed" in names  # PEP 561: a project importing ktlog gets its annotations checked
    assert not [n for n in names if n.startswith(("tests/", "tools/", "benchmarks/"))]
    for example in ("first-activations.txt", "first-activations.ktgame", "example-team.ros"):  # issue 42: the docs' examples use them
        assert f"ktlog/data/examples/{example}" in names
    metadata = next(zipfile.Path(wheel, n) for n in names if n.endswith(".dist-info/METADATA")).read_text()
    assert 'Requires-Dist: vl-convert-python>=1.6; extra == "charts"' in metadata  # issue 42: 90 MB that only chart files need
    assert "Requires-Dist: rich" in metadata and "Requires-Dist: anyio" in metadata


def test_an_installed_ktlog_loads_simulates_verifies_and_exports(ktlog, user, tmp_path):
    home, env = user
    db = home / "league.db"
    python = ktlog.parent / "python"
    data = run(python, "-c", "from ktlog.data import SAMPLE_GAMES; print(SAMPLE_GAMES)", cwd=home, env=env).stdout.strip()
    assert Path(data).is_relative_to(ktlog.parent.parent), f"ktlog's data came from {data}, not the installed wheel"
    demo = run(ktlog, "--db", db, "demo", cwd=home, env=env)
    assert "Result:" in demo.stdout

    listed = json.loads(run(ktlog, "--db", db, "games", "--json", cwd=home, env=env).stdout)
    samples = sorted((ROOT / "ktlog" / "data" / "samples").glob("*.jsonl"))
    assert len(listed) == len(samples)

    run(ktlog, "--db", db, "simulate", "--games", "3", cwd=home, env=env)
    games = json.loads(run(ktlog, "--db", db, "games", "--json", cwd=home, env=env).stdout)
    assert len(games) == len(samples) + 3
    assert all(g["status"] == "finished" for g in games)

    verified = run(ktlog, "--db", db, "verify", cwd=home, env=env)
    assert f"all {len(games)} games verified" in verified.stdout

    first = json.loads(samples[0].read_text().splitlines()[0])["game_id"]
    exported = home / "game.jsonl"
    run(ktlog, "--db", db, "export", first[:8], "-o", exported, cwd=home, env=env)
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    assert lines[0]["game_id"] == first
    assert [line["seq"] for line in lines[1:]] == list(range(1, len(lines)))

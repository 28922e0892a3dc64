"""ktlog installed as a user installs it: the wheel, in a fresh virtual environment outside the
checkout, run from a folder that is not the checkout (as `pipx install .` or `uv tool install .`
leave it). Sample games, rosters and schemas must come from the wheel's package data."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("ktlog", "pyproject.toml", "README.md", "LICENSE")
"""What the wheel is built from, copied to a clean folder so that no stale build/ output slips in."""


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{args} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, source, cwd=out)
    (built,) = out.glob("ktlog-*.whl")
    return built


@pytest.fixture(scope="module")
def ktlog(wheel, tmp_path_factory) -> Path:
    """The `ktlog` script of a fresh virtual environment with the wheel installed (not editable)."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.create(env_dir, with_pip=True)
    run(env_dir / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=env_dir)
    return env_dir / "bin" / "ktlog"


@pytest.fixture
def user(tmp_path) -> tuple[Path, dict[str, str]]:
    """A working folder outside the checkout, and an environment whose home is there too."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KTLOG_", "PYTHON", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"))
    return home, env


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

"""Every example in the docs runs as written (sqlite-utils tests its docs this way).

Each ```sh block of README.md and docs/*.md runs as one shell script, `set -eu`, against a copy of
a database loaded with the sample games (`KTLOG_DB=league.db`), in a folder that has the
checkout's `ktlog/data` where the examples look for it; only its `ktlog ...` lines run (not
`make`, `pipx` ...), and not those that open the terminal UI. Each ```python block runs in the
same kind of folder."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent
TUI = {"record", "replay"}
"""Subcommands that open the terminal UI (as does `ktlog` with no subcommand)."""
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(doc: Path, language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(doc.read_text()) if lang == language]


def commands(block: str) -> list[str]:
    """The block's lines (continuations joined) that run ktlog without opening the terminal UI."""
    return [line for line in block.replace("\\\n", " ").splitlines() if runs_ktlog(line)]


def runs_ktlog(line: str) -> bool:
    words = shlex.split(line.replace("$(", " "), comments=True)  # GAME=$(ktlog new ...) -> GAME= ktlog new ...
    while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):  # KTLOG_DB=... before the command
        words = words[1:]
    if words[:1] != ["ktlog"]:
        return False
    args = words[1:]
    while args[:1] == ["--db"]:
        args = args[2:]
    return bool(args) and args[0] not in TUI


def examples(language: str) -> list[pytest.param]:
    found = []
    for doc in DOCS:
        for i, block in enumerate(blocks(doc, language), 1):
            if language == "python" or commands(block):
                found.append(pytest.param(block, id=f"{doc.relative_to(ROOT)}-{i}"))
    return found


@pytest.fixture(scope="session")
def sample_league(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("samples") / "league.db"
    subprocess.run([BIN / "ktlog", "--db", db, "demo"], check=True, capture_output=True)
    return db


@pytest.fixture
def reader(tmp_path, sample_league) -> tuple[Path, dict[str, str]]:
    """A folder with a copy of the sample league as league.db and ktlog/data as in a checkout."""
    shutil.copy(sample_league, tmp_path / "league.db")
    (tmp_path / "ktlog").mkdir()
    (tmp_path / "ktlog" / "data").symlink_to(ROOT / "ktlog" / "data")
    env = {**os.environ, "KTLOG_DB": "league.db", "HOME": str(tmp_path), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    return tmp_path, env


@pytest.mark.parametrize("block", examples("sh"))
def test_shell_examples_run(block, reader):
    folder, env = reader
    script = "set -eux\n" + "\n".join(commands(block))
    done = subprocess.run(["sh", "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("block", examples("python"))
def test_python_examples_run(block, reader):
    folder, env = reader
    done = subprocess.run([sys.executable, "-P", "-c", block], cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_examples_are_found():
    """The extraction itself: a README quick start exists and TUI lines are left out."""
    assert commands("ktlog games\nmake run\nktlog\nktlog record 334f\nktlog --db x.db replay 334f\n") == ["ktlog games"]
    assert commands("GAME=$(ktlog new --killzone volkus \\\n  --player A=r.toml)\nKTLOG_DB=o.db ktlog import a.jsonl  # merge\n") == [
        "GAME=$(ktlog new --killzone volkus    --player A=r.toml)",
        "KTLOG_DB=o.db ktlog import a.jsonl  # merge",
    ]
    assert any(commands(block) for block in blocks(ROOT / "README.md", "sh"))


def test_readme_is_at_most_8_kb_and_its_links_resolve():
    readme = (ROOT / "README.md").read_bytes()
    assert len(readme) <= 8 * 1024
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text()):
            if not target.startswith(("http://", "https://")):
                assert (doc.parent / target).exists(), f"{doc.name} links to {target}, which does not exist"

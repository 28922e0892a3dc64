"""Every example in the docs runs as written, as a user runs it (sqlite-utils tests its docs this way).

Each page (README.md, docs/*.md) is read as a user reads it: its ```sh and ```python blocks run in
the page's order, in one folder and one database per page, with the `ktlog` of the installed
wheel (tests/conftest.py's `installed`: `pipx install .`), outside the checkout, with an empty
home folder of the page's own (the default database, the signing keys and the rosters are
there). A ```sh block runs as one shell script, `set -eu`; a ```python block that imports ktlog
with the installed wheel's Python, any other (reading a dataset with DuckDB, pandas ...) with
this run's, as in the user's own environment, its `ktlog` the installed one. Not run: the lines that open the terminal UI or serve until stopped (`ktlog`,
`ktlog record`, `ktlog replay`, `ktlog serve`), the checkout's own commands (`make ...`, `pipx`,
`uv tool`, `.venv/...`) and a line marked `# your own file` (it needs a file only the user has,
such as their own BattleScribe export). Any other failing line fails the page, naming it."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, user_environment

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TUI = {None, "record", "replay", "serve"}
"""Subcommands that open the terminal UI or serve until stopped (None: `ktlog` alone)."""
CHECKOUT = ("make", "pipx", "uv", "git")
"""Commands of a checkout or of installing ktlog, not of using it."""
YOURS = "# your own file"
"""A line ending with this comment needs a file of the user's own: the page says so, the test skips it."""
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(doc: Path, languages: tuple[str, ...] = ("sh", "python")) -> list[tuple[str, str]]:
    """The page's blocks in these languages, in order: (language, body)."""
    return [(lang, body) for lang, body in FENCE.findall(doc.read_text()) if lang in languages]


def commands(block: str) -> list[str]:
    """The lines of a shell block that run (continuations joined): not the terminal UI, not the
    checkout's commands, not a line needing the user's own file."""
    return [line for line in block.replace("\\\n", " ").splitlines() if line.strip() and not line.lstrip().startswith("#") and runs(line)]


def runs(line: str) -> bool:
    if YOURS in line:
        return False
    words = shlex.split(line.replace("$(", " "), comments=True)  # GAME=$(ktlog new ...) -> GAME= ktlog new ...
    while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):  # KTLOG_DB=... before the command
        words = words[1:]
    if not words or words[0] in CHECKOUT or words[0].startswith(".venv/"):
        return False
    if words[0] != "ktlog":
        return True
    args = words[1:]
    while args[:1] == ["--db"]:
        args = args[2:]
    return (args[0] if args else None) not in TUI


@pytest.mark.parametrize("doc", DOCS, ids=lambda doc: doc.relative_to(ROOT).as_posix())
def test_the_page_runs_as_written(doc, installed, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = user_environment(home, installed) | {"COLUMNS": "100"}
    for number, (language, body) in enumerate(blocks(doc), 1):
        where = f"{doc.name}, block {number} ({language})"
        if language == "python":
            python = installed / "python" if re.search(r"^\s*(from|import) ktlog\b", body, re.M) else Path(sys.executable)
            done = subprocess.run([python, "-P", "-c", body], cwd=home, env=env, capture_output=True, text=True, timeout=300)
        elif lines := commands(body):
            done = subprocess.run(["sh", "-c", "set -eux\n" + "\n".join(lines)], cwd=home, env=env, capture_output=True, text=True, timeout=600)
        else:
            continue
        assert done.returncode == 0, f"{where} exited {done.returncode}:\n{done.stderr[-4000:]}"


def test_the_examples_are_found():
    """The extraction itself: a README quick start exists, and the lines left out are those the
    module's docstring names."""
    assert commands("ktlog games\nmake run\nktlog\nktlog record 334f\nktlog --db x.db replay 334f\nktlog serve --seats\n") == ["ktlog games"]
    assert commands("GAME=$(ktlog new --killzone volkus \\\n  --player A=r.toml)\nKTLOG_DB=o.db ktlog import a.jsonl  # merge\n") == [
        "GAME=$(ktlog new --killzone volkus    --player A=r.toml)",
        "KTLOG_DB=o.db ktlog import a.jsonl  # merge",
    ]
    assert commands('ktlog roster import team.rosz   # your own file\nls "$(ktlog demo --path)"\n.venv/bin/python x.py\n') == ['ls "$(ktlog demo --path)"']
    assert any(commands(body) for _, body in blocks(ROOT / "README.md", ("sh",)))


def test_no_page_names_a_path_of_the_checkout_in_an_example():
    """An installed ktlog has no `ktlog/data/...` beside the user: the docs name its files
    through `ktlog demo --path`."""
    for doc in DOCS:
        for language, body in blocks(doc, ("sh", "python", "text", "")):
            lines = body.splitlines() if language in ("sh", "python") else [line for line in body.splitlines() if line.lstrip().startswith("ktlog ")]
            assert not [line for line in lines if "ktlog/data/" in line], f"{doc.name} names a checkout path in an example: {body.strip()[:300]}"


def test_readme_is_at_most_8_kb_and_its_links_resolve():
    readme = (ROOT / "README.md").read_bytes()
    assert len(readme) <= 8 * 1024
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text()):
            if not target.startswith(("http://", "https://")):
                assert (doc.parent / target).exists(), f"{doc.name} links to {target}, which does not exist"

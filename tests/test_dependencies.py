"""Issue 42 #6: every library ktlog imports is one its pyproject.toml declares (in the base install
or an extra), never one it gets only because another library requires it; and the 90 MB chart
renderer is an extra (`ktlog[charts]`) that a chart asked for without it names."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib

from click.testing import CliRunner
from conftest import ROOT, SAMPLES

from ktlog.cli import cli

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def distribution(requirement: str) -> str:
    """A requirement's distribution name, normalised (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement).group(0)).lower()


def imported_libraries() -> dict[str, set[str]]:
    """The top-level modules of every import in ktlog (those in functions too), not the standard
    library's or ktlog's own, each with the files importing it."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "ktlog").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                if top not in sys.stdlib_module_names and top != "ktlog":
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_imported_library_is_declared():
    declared = {distribution(r) for r in PYPROJECT["dependencies"]}
    declared |= {distribution(r) for extra, requirements in PYPROJECT["optional-dependencies"].items() if extra != "test" for r in requirements}
    providers = importlib.metadata.packages_distributions()
    undeclared = {
        module: sorted(files) for module, files in imported_libraries().items() if not {distribution(d) for d in providers.get(module, [module])} & declared
    }
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"


def test_the_chart_renderer_is_the_charts_extra():
    assert not any(distribution(r) == "vl-convert-python" for r in PYPROJECT["dependencies"])
    assert [distribution(r) for r in PYPROJECT["optional-dependencies"]["charts"]] == ["vl-convert-python"]


def test_a_chart_asked_for_without_the_extra_names_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # `import vl_convert` raises ImportError, as when it is not installed
    db = tmp_path / "league.db"
    assert CliRunner().invoke(cli, ["--db", str(db), "import", str(sorted(SAMPLES.glob("01*.jsonl"))[0])]).exit_code == 0
    result = CliRunner().invoke(cli, ["--db", str(db), "chart", "vp", "334f", "-o", str(tmp_path / "race.png")])
    assert result.exit_code == 1 and not (tmp_path / "race.png").exists()
    assert "PNG and SVG charts need ktlog's charts extra: pipx install 'ktlog[charts]'" in result.stderr and "nothing was written" in result.stderr
    report = CliRunner().invoke(cli, ["--db", str(db), "report", "334f", "-o", str(tmp_path / "game.html")])
    assert report.exit_code == 0, report.output
    page = (tmp_path / "game.html").read_text()
    assert "The chart is left out: PNG and SVG charts need ktlog&#x27;s charts extra" in page and "<svg" not in page and "Alice" in page

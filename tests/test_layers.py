"""The layers of docs/architecture.md: what the import contracts cannot say on their own.

`lint-imports` (run by `make check`) checks the contracts in pyproject.toml over the graph grimp
builds from every import statement. Grimp cannot see an import made by a string
(`importlib.import_module("...")`, `__import__("...")`, `sys.modules["..."]`), and no contract
says that modules must not import one another in a circle. This file finds the imports by
string (leaving out only the bodies of an exact `if TYPE_CHECKING:`), adds them to grimp's graph,
checks the same contracts over it and looks for cycles; then it shows, on a copy of the package,
that a forbidden import of each kind breaks the check.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import grimp
import pytest
from importlinter import configuration
from importlinter.adapters.building import GraphBuilder
from importlinter.application import use_cases
from importlinter.application.app_config import settings

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class StringImport:
    importer: str
    imported: str
    line: int


def type_checking_only(test: ast.expr) -> bool:
    """An `if` whose body runs only in a type checker: `if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:`
    exactly (`if not TYPE_CHECKING:` and `if TYPE_CHECKING or True:` run)."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING" and isinstance(test.value, ast.Name) and test.value.id == "typing"


def _sys_modules(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "modules" and isinstance(node.value, ast.Name) and node.value.id == "sys"


def named_module(node: ast.AST, package: str) -> str | None:
    """The module a call or subscript imports by a literal string, if it is one of those."""
    literal: ast.expr | None = None
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in ("import_module", "__import__") or (name == "get" and isinstance(func, ast.Attribute) and _sys_modules(func.value)):
            literal = node.args[0]
            if name == "import_module" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                package = node.args[1].value
    elif isinstance(node, ast.Subscript) and _sys_modules(node.value):
        literal = node.slice
    if not (isinstance(literal, ast.Constant) and isinstance(literal.value, str)):
        return None
    return importlib.util.resolve_name(literal.value, package) if literal.value.startswith(".") else literal.value


def string_imports(path: Path, module: str) -> list[StringImport]:
    """The imports by string that the file of `module` makes when it runs."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[StringImport] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and type_checking_only(child.test):
                for stmt in child.orelse:
                    visit(stmt)
                continue
            if (target := named_module(child, package)) and target.partition(".")[0] == "ktlog":
                found.append(StringImport(module, target, child.lineno))  # type: ignore[attr-defined]
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return found


def package_string_imports(root: Path) -> list[StringImport]:
    found = []
    for path in sorted((root / "ktlog").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        found += string_imports(path, ".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def check(root: Path) -> dict[str, list[str]]:
    """The contracts of `root`/pyproject.toml broken by the package's imports and imports by string,
    and the import cycles between its modules (run where `ktlog` is `root`/ktlog)."""
    extra = package_string_imports(root)
    graph = grimp.build_graph("ktlog", cache_dir=None, exclude_type_checking_imports=True, include_external_packages=True)
    for imp in extra:
        assert imp.imported in graph.modules, f"{imp.importer} (line {imp.line}) imports {imp.imported!r} by string: no such module"
        graph.add_import(importer=imp.importer, imported=imp.imported, line_number=imp.line, line_contents=f"import {imp.imported!r} by string")
    configuration.configure()
    settings.configure(GRAPH_BUILDER=_Built(graph))
    use_cases._register_built_in_contract_types()  # what `lint-imports` does before its report
    try:
        report = use_cases.create_report(use_cases.read_user_options(str(root / "pyproject.toml")), cache_dir=None)
    finally:
        configuration.configure()
    broken = [contract.name for contract, result in report.get_contracts_and_checks() if not result.kept]
    return {"broken": broken, "by string": [f"{i.importer}:{i.line} -> {i.imported}" for i in extra], "cycles": cycles(graph)}


class _Built(GraphBuilder):
    """Hands import-linter the graph with the imports by string added."""

    def __init__(self, graph: grimp.ImportGraph) -> None:
        self.graph = graph

    def build(self, *args, **kwargs) -> grimp.ImportGraph:  # type: ignore[no-untyped-def]
        return self.graph


def cycles(graph: grimp.ImportGraph) -> list[str]:
    """Import cycles between modules (a module importing its own package's `__init__` aside)."""
    done: set[str] = set()
    path: list[str] = []
    found: list[str] = []

    def walk(module: str) -> None:
        if module in path:
            found.append(" -> ".join(path[path.index(module) :] + [module]))
            return
        if module in done:
            return
        path.append(module)
        for target in sorted(graph.find_modules_directly_imported_by(module)):
            if target != module and not module.startswith(target + "."):
                walk(target)
        path.pop()
        done.add(module)

    for module in sorted(graph.modules):
        walk(module)
    return found


def test_the_contracts_hold_with_the_imports_by_string() -> None:
    assert check(ROOT) == {"broken": [], "by string": [], "cycles": []}


def test_imports_by_string_are_found_unless_under_an_exact_type_checking(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import importlib, sys, typing\nfrom typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    importlib.import_module('ktlog.tui.app')\n"
        "if typing.TYPE_CHECKING:\n    sys.modules['ktlog.tui.app']\n"
        "if not TYPE_CHECKING:\n    importlib.import_module('ktlog.web.app')\n"
        "if TYPE_CHECKING or True:\n    __import__('ktlog.storage.store')\n"
        "if TYPE_CHECKING:\n    pass\nelse:\n    sys.modules.get('ktlog.play.session')\n"
        "def f():\n    return sys.modules['ktlog.commands.context'], importlib.import_module('.store', 'ktlog.storage')\n"
        "importlib.import_module('.dice', __package__)\nimportlib.import_module(f'ktlog.{sys.argv[0]}')\n"
    )
    found = [(i.imported, i.line) for i in string_imports(probe, "ktlog.rules.probe")]
    assert found == [
        ("ktlog.web.app", 8),
        ("ktlog.storage.store", 10),
        ("ktlog.play.session", 14),
        ("ktlog.commands.context", 16),
        ("ktlog.storage.store", 16),
        ("ktlog.rules.dice", 17),
    ]


PROBES = {
    "plain": ("rules/dice.py", "from ktlog.tui import app as _probe\n", "Imports run down the layers"),
    "in a function": ("rules/dice.py", "def _probe():\n    from ktlog.storage import store\n", "Imports run down the layers"),
    "by importlib": ("rules/dice.py", "import importlib\n_probe = lambda: importlib.import_module('ktlog.web.app')\n", "Imports run down the layers"),
    "by __import__": ("tui/steps.py", "_probe = lambda: __import__('ktlog.reducer')\n", "The faces ask the application layer"),
    "by sys.modules": ("text/safe.py", "import sys\n_probe = lambda: sys.modules['ktlog.rulesets.joint.rules']\n", "Nothing outside a ruleset's package"),
    "under if not TYPE_CHECKING": (
        "rules/dice.py",
        "from typing import TYPE_CHECKING\nif not TYPE_CHECKING:\n    from ktlog.play import session\n",
        "Imports run down the layers",
    ),
    "under if TYPE_CHECKING or True": (
        "storage/catalog.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING or True:\n    from ktlog.analytics import league\n",
        "Imports run down the layers",
    ),
    "sqlite3 in a face": ("web/pages.py", "import sqlite3\n", "The faces run no SQL"),
    "a rule's machinery in a face": ("tui/screens/shoot.py", "from ktlog.rules import weapons\n", "The faces ask the application layer"),
    "a ruleset's simulator up a layer": ("ruleset_play/kt21/simulator.py", "from ktlog.web import app as _probe\n", "Imports run down the layers"),
    "a cycle": ("rules/dice.py", "def _probe():\n    from ktlog.rules import shooting\n", None),
    "type-only (allowed)": ("rules/dice.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ktlog.tui import app\n", None),
}
"""A forbidden import of each kind, added to a copy of the package: (file, code, the contract it breaks)."""

_RUN_PROBES = """
import json, sys
from pathlib import Path
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import test_layers
root = Path(sys.argv[1])
results = {}
for kind, (file, code, _) in test_layers.PROBES.items():
    path = root / "ktlog" / file
    before = path.read_text()
    path.write_text(before + code)
    results[kind] = test_layers.check(root)
    path.write_text(before)
results["unchanged"] = test_layers.check(root)
print(json.dumps(results))
"""


FACES = ("cli.py", "commands", "tui", "web")
SQL_IN_A_FACE = re.compile(r"\bexecute(many|script)?\(|\.conn\b|\bsqlite3\b|\bsqlite_utils\b")


def test_the_faces_run_no_sql() -> None:
    """Issue 43: a face asks the application layer's read models (`play/live_tables.py` ...),
    which ask the storage's rooms; a schema change then breaks a test, not a page at run time.
    The import contract `faces-no-sql` forbids importing sqlite3; this finds SQL run through
    a store's connection, which no import shows."""
    found = []
    for face in FACES:
        path = ROOT / "ktlog" / face
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for number, line in enumerate(file.read_text().splitlines(), 1):
                if SQL_IN_A_FACE.search(line):
                    found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


@pytest.mark.slow  # thirteen checks of a copy of the package: about 20 s of CPU
def test_a_forbidden_import_of_each_kind_breaks_the_check(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "ktlog", tmp_path / "ktlog", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    run = subprocess.run([sys.executable, "-c", _RUN_PROBES, str(tmp_path), str(Path(__file__).parent)], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert results["unchanged"] == {"broken": [], "by string": [], "cycles": []}
    for kind, (_, _, contract) in PROBES.items():
        broken = results[kind]["broken"]
        if contract:
            assert any(name.startswith(contract) for name in broken), f"{kind}: {results[kind]}"
    assert results["a cycle"]["cycles"] == ["ktlog.rules.dice -> ktlog.rules.shooting -> ktlog.rules.dice"]
    assert results["type-only (allowed)"] == results["unchanged"]

"""The layers of docs/architecture.md, checked against the code's own imports.

Every import a module runs (at the top or inside a function; `if TYPE_CHECKING:` blocks are
left out: they run only in a type checker) must point to its own layer or one below it, the
modules must not import one another in a circle, and the TUI must not reach into the reducer
or the rules' machinery.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ktlog"

LAYERS = [
    ("vocabulary", ("ktlog", "ktlog.errors", "ktlog.characters", "ktlog.events", "ktlog.state", "ktlog.records", "ktlog.data")),
    ("rules", ("ktlog.rules",)),
    ("rulesets", ("ktlog.rulesets",)),
    ("text", ("ktlog.text",)),
    ("reducer", ("ktlog.reducer",)),
    ("storage and files", ("ktlog.storage", "ktlog.files")),
    ("play", ("ktlog.play",)),
    ("analytics", ("ktlog.analytics",)),
    ("faces", ("ktlog.commands", "ktlog.tui", "ktlog.web", "ktlog.cli", "ktlog.__main__")),
]
"""Bottom to top, as drawn in docs/architecture.md."""

SIMULATORS_AND_MOVES = ("simulator", "moves")
"""A ruleset's simulator plays games with the builder (ktlog.play) and its moves are offered by
ktlog.play.moves: they are loaded lazily by name, so they sit at the play layer."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    if module.startswith("ktlog.rulesets.") and module.rsplit(".", 1)[-1] in SIMULATORS_AND_MOVES:
        return next(i for i, (name, _) in enumerate(LAYERS) if name == "play")
    best = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best[1]:
                best = i, len(prefix)
    assert best[0] >= 0, f"{module} is in no layer of docs/architecture.md"
    return best[0]


def runtime_imports(path: Path, me: str) -> set[str]:
    """The ktlog modules the file of module `me` imports when it runs (TYPE_CHECKING blocks left out)."""
    tree = ast.parse(path.read_text())
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for stmt in child.orelse:
                    visit(stmt)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.startswith("ktlog"))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target.startswith("ktlog"):
                    for alias in child.names:
                        sub = f"{target}.{alias.name}"
                        found.add(sub if module_file(sub) else target)
            visit(child)

    visit(tree)
    return found


def module_file(module: str) -> Path | None:
    base = PACKAGE.parent.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


GRAPH = {module_name(p): runtime_imports(p, module_name(p)) for p in sorted(PACKAGE.rglob("*.py"))}


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_run_down_the_layers(module: str) -> None:
    mine = layer_of(module)
    upward = sorted(t for t in GRAPH[module] if layer_of(t) > mine)
    assert not upward, f"{module} ({LAYERS[mine][0]}) imports from a higher layer: " + ", ".join(f"{t} ({LAYERS[layer_of(t)][0]})" for t in upward)


def test_no_import_cycle() -> None:
    done: set[str] = set()
    path: list[str] = []

    def walk(module: str) -> None:
        if module in path:
            cycle = path[path.index(module) :] + [module]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if module in done or module not in GRAPH:
            return
        path.append(module)
        for target in sorted(GRAPH[module]):
            if target != module and not (module.startswith(target + ".") and module_file(target).name == "__init__.py"):
                walk(target)
        path.pop()
        done.add(module)

    for module in sorted(GRAPH):
        walk(module)


def test_the_tui_asks_the_application_layer_not_the_rules_machinery() -> None:
    machinery = ("ktlog.reducer", "ktlog.rules.context", "ktlog.rules.actions", "ktlog.rules.setup", "ktlog.rules.battle")
    reaching = {m: sorted(t for t in targets if t.startswith(machinery)) for m, targets in GRAPH.items() if m.startswith("ktlog.tui")}
    assert {m: t for m, t in reaching.items() if t} == {}


def test_the_checker_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself: a rules module importing the storage, at the top or in a function, is
    found; one under TYPE_CHECKING is not."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\nfrom ..storage.store import Store\n"
        "if TYPE_CHECKING:\n    from ..tui import app\n"
        "def f():\n    from ..play import session\n"
    )
    found = runtime_imports(probe, "ktlog.rules.probe")
    assert found == {"ktlog.storage.store", "ktlog.play.session"}
    assert all(layer_of(t) > layer_of("ktlog.rules.probe") for t in found)

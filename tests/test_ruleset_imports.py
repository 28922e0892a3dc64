"""A ruleset is reached through the registry only: nothing outside ktlog/rulesets/ imports a
ruleset's package (`ktlog.rulesets.NAME`), whether by an import statement anywhere in a module
(inside a function or under `if TYPE_CHECKING:` too) or by a module name in a string
(`importlib.import_module`, `__import__`). The registry (`ktlog.rulesets`) is what the faces,
the text and the storage ask, by a ruleset's name; a ruleset package may build on another
(Approved Ops on Preliminary Ops, every KT24 ruleset on `kt24`), as a third-party one would.
A ruleset's play (`ktlog/ruleset_play/NAME/`: its simulator and kinds of move, a layer above
`ktlog.play`) imports its own ruleset's package and no other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ktlog"
RULESETS = PACKAGE / "rulesets"
RULESET_PLAY = PACKAGE / "ruleset_play"
PACKAGES = sorted(p.name for p in RULESETS.iterdir() if (p / "__init__.py").exists())


def module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def ruleset_imports(source: str, module: str, is_package: bool) -> list[str]:
    """Every `ktlog.rulesets.NAME...` the source imports or names in a string, with its line."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            targets = [target] + [f"{target}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            targets = [node.value]
        for target in targets:
            name = target.split(".")[2] if target.startswith("ktlog.rulesets.") and target.count(".") >= 2 else None
            if name in PACKAGES:
                found.append(f"line {node.lineno}: {target}")
    return found


def outside_rulesets() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if RULESETS not in p.parents and RULESET_PLAY not in p.parents]


@pytest.mark.parametrize("path", outside_rulesets(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_ruleset_is_imported_outside_the_rulesets(path: Path):
    found = ruleset_imports(path.read_text(), module_of(path), path.name == "__init__.py")
    assert not found, f"{path.relative_to(PACKAGE.parent)} reaches into a ruleset's package; ask the Ruleset protocol instead: {found}"


@pytest.mark.parametrize("path", sorted(RULESET_PLAY.glob("*/*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_rulesets_play_imports_its_own_ruleset_only(path: Path):
    own = path.parent.name
    found = ruleset_imports(path.read_text(), module_of(path), path.name == "__init__.py")
    assert all(f.split(": ")[1].split(".")[2] == own for f in found), f"{path.relative_to(PACKAGE.parent)} reaches into another ruleset: {found}"


@pytest.mark.parametrize(
    "source",
    [
        "from ktlog.rulesets.multiplayer.rules import listing",
        "from ..rulesets.joint.rules import npo_side",
        "def f():\n    import ktlog.rulesets.kt21.rules",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ktlog.rulesets.approved import rules",
        "import importlib\nimportlib.import_module('ktlog.rulesets.kt21.rules')",
        "__import__('ktlog.rulesets.joint')",
        "from ktlog.rulesets import approved",
    ],
)
def test_the_check_finds_each_way_of_importing_a_ruleset(source: str):
    assert ruleset_imports(source, "ktlog.text.render", False)


def test_the_registry_and_a_rulesets_own_names_pass():
    assert not ruleset_imports("from ktlog.rulesets import get_ruleset, RULESETS\nfrom ..rulesets import of_datacards", "ktlog.text.render", False)

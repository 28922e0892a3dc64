"""No function in ktlog above cyclomatic complexity 25, as radon counts it (issue 43: `describe()`
was one function of complexity 88 over every event type, `shooting_attacks` 54): a function that
grows past it is split into the steps it is made of."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Function

PACKAGE = Path(__file__).resolve().parent.parent / "ktlog"
LIMIT = 25


def too_complex(code: str) -> list[Function]:
    """The functions and methods of the code above LIMIT, the functions inside them too (radon
    counts each on its own)."""
    found: list[Function] = []
    todo = [block for block in cc_visit(code) if isinstance(block, Function)]
    while todo:
        function = todo.pop()
        found += [function] if function.complexity > LIMIT else []
        todo += function.closures
    return sorted(found, key=lambda f: f.lineno)


def test_no_function_in_ktlog_is_above_complexity_25():
    above = [
        f"{path.relative_to(PACKAGE.parent)} {f.fullname} ({f.complexity})" for path in sorted(PACKAGE.rglob("*.py")) for f in too_complex(path.read_text())
    ]
    assert not above, f"split these into the steps they are made of (radon cc, at most {LIMIT}):\n" + "\n".join(above)


def test_the_check_sees_a_method_and_a_function_inside_one():
    branches = "".join(f"        if x == {i}:\n            return {i}\n" for i in range(LIMIT))
    code = f"class C:\n    def m(self, x):\n{branches}        return 0\n\n\ndef outer():\n    def inner(x):\n{branches}        return 0\n\n    return inner\n"
    assert [(f.fullname, f.complexity) for f in too_complex(code)] == [("C.m", LIMIT + 1), ("inner", LIMIT + 1)]

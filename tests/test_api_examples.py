"""The examples in the Python API's docstrings run as written, as sqlite-utils' and python-chess's
do (issue 43): a database (`Store`), the reducer (`fold`), a whole game in a few lines
(`GameBuilder`) and an event in words (`describe`). Each module's examples are counted, so one
that loses its examples fails too."""

from __future__ import annotations

import doctest
import importlib
import io

import pytest

EXAMPLES = {"ktlog.storage.store": 8, "ktlog.reducer": 6, "ktlog.play.builder": 10, "ktlog.text.describe": 1}
"""Each module, and how many examples its docstrings hold."""


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_the_docstring_examples_run_as_written(name: str):
    module = importlib.import_module(name)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test, out=out.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, out.getvalue()
    assert result.attempted == EXAMPLES[name]

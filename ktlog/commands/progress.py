"""A progress bar on standard error for the long jobs (`import`, `simulate`, `dataset export`,
`roster import FOLDER`), drawn by rich (which Textual brings) only when standard error is a
terminal: piped or redirected, nothing is written."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Advance = Callable[[int, int], None]
"""Told (done, total) as the job goes on."""


@contextmanager
def progress(label: str) -> Iterator[Advance]:
    """A bar labelled `label` for the `with` block, cleared at its end; a no-op when standard
    error is not a terminal."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(file=sys.stderr), transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)

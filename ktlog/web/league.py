"""The league page's statistics, worked out in a process of their own.

Polars reads the file through ADBC, which carries its own copy of SQLite. Locks on a file belong
to the process (POSIX), so when that copy closed the file inside the server it dropped the
server's own locks: the next program to write thought itself alone, checkpointed and deleted the
write-ahead log the server still had open, and the server's streams went silent (issue 25 #1).
In a process of its own, ADBC opens and closes what it likes."""

from __future__ import annotations

import asyncio
import datetime as dt
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from ..errors import KtlogError, StoreError
from .source import Unavailable

FILTERS = ("league", "season", "round", "since", "until", "ruleset", "player", "team")
"""The league page's filters, as `ktlog stats` takes them."""

Tables = list[tuple[str, list[str], list[tuple]]]


class LeagueWorker:
    """One process, started at the first league page and kept for the next ones."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def tables(self, db: Path, filters: dict[str, str | None]) -> tuple[str | None, Tables, dict[str, list[str]]]:
        """`league_tables` in the worker process."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        try:
            return await asyncio.wrap_future(self._pool.submit(league_tables, db, filters))
        except BrokenProcessPool as exc:
            self._pool = None
            raise Unavailable("the league's statistics stopped before they were worked out (out of memory?); reload the page to try again") from exc

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)  # its process ended here, never left to a later terminate()
            self._pool = None


def league_tables(db: Path, filters: dict[str, str | None]) -> tuple[str | None, Tables, dict[str, list[str]]]:
    """The standings and the kill-team table of `ktlog stats`, with the filters' choices; a
    message instead of the tables when there is nothing to compute."""
    import adbc_driver_manager

    from ..analytics.league import Filters, League, filter_choices
    from ..analytics.performance import entity_stats
    from ..analytics.standings import standings

    days = {k: dt.date.fromisoformat(v) for k, v in filters.items() if k in ("since", "until") and v}
    try:
        choices = filter_choices(db)
        try:
            league = League(db, Filters(**(filters | days)))  # type: ignore[arg-type]  # a filter's text or, for since and until, its day
            frames = [("Standings", standings(league)), ("Kill teams", entity_stats(league, "kill_team"))]
        except StoreError:
            raise
        except KtlogError as exc:  # nothing to compute, an unknown player ...
            return str(exc), [], choices
    except (adbc_driver_manager.Error, StoreError) as exc:  # locked longer than the read waits, damaged ...
        reason = str(exc).splitlines()[0]
        raise Unavailable(f"the league's statistics cannot read {db} just now ({reason}); reload the page in a moment") from None
    return None, [(heading, frame.columns, frame.rows()) for heading, frame in frames], choices

"""A league: the projection tables of a ktlog database (or of its Parquet dataset, `dataset.py`)
as Polars frames, narrowed by filters.

Frames are read through ADBC (Arrow, no Python objects per row) and only when a statistic
needs them, with the columns and types of the schema catalog (`ktlog.storage.catalog`). Every statistic works on finished games; games still in progress are listed
separately so the reports can show them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import difflib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path

import polars as pl

from ..data import sample_game_ids
from ..errors import KtlogError
from ..play.matches import Match
from ..storage import catalog
from ..storage.dbfile import database_home, held_open, read_uri, store_error
from .columns import GAME_COLUMNS, GAME_LISTS, IDENTITY, POLARS_TYPE, games_query, league_games, read_dataset_table
from .layout import partition_of
from .place import Place
from .recordings import left_out, recorded_twice


class NothingToCompute(KtlogError):
    """The database or the filters leave no finished game to compute statistics from."""


@dataclass(frozen=True)
class Filters:
    league: str | None = None
    season: str | None = None
    round: str | None = None
    since: dt.date | None = None
    until: dt.date | None = None
    ruleset: str | None = None
    player: str | None = None
    team: str | None = None
    signed_by_both: bool | None = None
    """Only games every player signed as they stand with the key pinned to their name (`play.keyring`, each signature checked)."""
    simulated: bool | None = None
    """Take in games played by `ktlog simulate` (left out otherwise)."""
    samples: bool | None = None
    """Take in the sample games (`ktlog demo`), which a league holding any other game leaves out."""

    def describe(self) -> str:
        parts = [f"{k} {v}" for k, v in vars(self).items() if v is not None and k != "samples"]  # the samples taken in narrow nothing
        return ", ".join(parts) or "no filter"


READ_BUSY_TIMEOUT_MS = 5000
"""How long a read waits for a lock held by another connection (a recorder's commit, another
reader opening the WAL) before it fails."""


def read_table(db: Path, query: str, schema: dict[str, type], params: Sequence[str | int | None] = ()) -> pl.DataFrame:
    """One query's rows as a frame, cast to `schema` (column -> int, float or str): SQLite's
    columns carry no types of their own, and a column of NULLs would otherwise come back as
    integers. `params` are bound to the query's `?`s, never pasted into it. A damaged file is a
    StoreError saying so, as every command says it (`dbfile.store_error`)."""
    if held_open(db):
        frame = _rows_frame(db, query, params, schema)
    else:
        with _reading(db) as read:
            frame = read(query, params)
    if frame.width == 0:
        return pl.DataFrame(schema={c: POLARS_TYPE[t] for c, t in schema.items()})
    return frame.cast({c: POLARS_TYPE[t] for c, t in schema.items() if c in frame.columns})


@contextlib.contextmanager
def _reading(db: Path) -> Iterator[Callable[[str, Sequence[str | int | None]], pl.DataFrame]]:
    """A query's frame by the ADBC SQLite driver (Arrow, no Python object per row), in a process
    that has no connection of its own SQLite to the file: two SQLite libraries on one file undo
    each other's locks (`dbfile`'s docstring). One read transaction: every query sees the same
    moment. The driver's own handles, not its DB-API module, which imports pyarrow's datasets and
    with them pandas where they are installed (0.4 CPU-s a command, docs/performance.md)."""
    import adbc_driver_manager
    import adbc_driver_sqlite

    def frame(conn: adbc_driver_manager.AdbcConnection, query: str, params: Sequence[str | int | None] = ()) -> pl.DataFrame:
        with adbc_driver_manager.AdbcStatement(conn) as statement:
            statement.set_options(**{"adbc.sqlite.query.batch_rows": str(2**30)})  # one batch: one type per column
            statement.set_sql_query(query)
            if params:
                statement.bind_stream(_bound(params))
            stream, _ = statement.execute_query()
            return pl.DataFrame(stream)

    try:
        with adbc_driver_sqlite.connect(read_uri(db)) as database, adbc_driver_manager.AdbcConnection(database) as conn:
            frame(conn, f"PRAGMA busy_timeout = {READ_BUSY_TIMEOUT_MS}")  # readers beside a recorder or another reader wait their turn
            conn.set_autocommit(False)
            try:
                yield partial(frame, conn)
            finally:
                conn.rollback()
    except adbc_driver_manager.DatabaseError as exc:
        raise store_error(exc, db, writing=False) from exc


@contextlib.contextmanager
def _sqlite_reading(db: Path) -> Iterator[sqlite3.Connection]:
    """A read connection of the process's own SQLite, for a process that holds the file open
    already (the terminal UI, a report beside its store): slower than ADBC (2.5-5x a row), but
    it leaves the process's locks alone."""
    try:
        conn = sqlite3.connect(read_uri(db), uri=True, timeout=READ_BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
    except sqlite3.Error as exc:
        raise store_error(exc, db, writing=False) from exc
    try:
        yield conn
    except sqlite3.Error as exc:
        raise store_error(exc, db, writing=False) from exc
    finally:
        conn.close()


def _rows_frame(db: Path, query: str, params: Sequence[str | int | None], schema: dict[str, type]) -> pl.DataFrame:
    with _sqlite_reading(db) as conn:
        cursor = conn.execute(query, tuple(params))
        names = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
    return pl.DataFrame(
        rows, schema=names, schema_overrides={c: POLARS_TYPE[t] for c, t in schema.items() if c in names}, orient="row", infer_schema_length=None
    )


@contextlib.contextmanager
def _query_rows(db: Path) -> Iterator[Callable[[str], list[tuple]]]:
    """A query's rows as tuples (`dbfile.Rows`), by whichever library `read_table` would take."""
    if held_open(db):
        with _sqlite_reading(db) as conn:
            yield lambda sql: conn.execute(sql).fetchall()
        return
    with _reading(db) as read:
        yield lambda sql: read(sql, ()).rows()


def _bound(params: Sequence[str | int | None]) -> pl.DataFrame:
    """Query parameters as one row of Arrow data, each a text or a whole number (a NULL as a null text)."""
    return pl.DataFrame([pl.Series(f"p{i}", [p], dtype=pl.Int64 if isinstance(p, int) else pl.String) for i, p in enumerate(params)])


FILTER_LABELS = ("league", "season", "round", "ruleset")


def filter_choices(db: Path) -> dict[str, list[str]]:
    """The leagues, seasons, rounds and rulesets of the games in the database (simulated games
    aside, as the league leaves them out), to filter by: each in order, rounds by number where
    they are numbers."""
    query, types = catalog.select("games", FILTER_LABELS)
    games = read_table(db, query.replace("SELECT", "SELECT DISTINCT", 1) + " WHERE coalesce(simulated, 0) = 0", types)
    return {
        label: games.select(pl.col(label).filter(pl.col(label) != "").unique())
        .sort(pl.col(label).str.to_integer(strict=False), label, nulls_last=True)
        .get_column(label)
        .to_list()
        for label in FILTER_LABELS
    }


COLUMNS: dict[str, tuple[str, ...] | None] = {
    "game_results": ("game_key", "game_id", "player", "kill_team", "result", "vp_total", "kill_grade", "crit_op", "killzone", "date"),
    "vp_by_op": ("game_key", "player", "op", "vp"),
    "vp_changes": ("game_key", "seq", "turning_point", "player", "op", "vp"),
    "cp_changes": ("game_key", "player", "delta", "kind", "source"),
    "incapacitations": ("game_key", "player"),
    "turning_points": ("game_key", "turning_point", "initiative"),
    "attacks": None,
}
"""The columns of each projection table the statistics read (None: all of them)."""

NAMED: dict[str, tuple[str, ...]] = {
    "game_results": ("player",),
    "vp_by_op": ("player",),
    "vp_changes": ("player",),
    "cp_changes": ("player",),
    "incapacitations": ("player", "by_player"),
    "turning_points": ("initiative",),
    "attacks": ("player", "target_player"),
}
"""The columns naming a player as recorded: a statistic reads the player's name as shown instead
(`League.identities`), one name per person, whatever name each game recorded."""

PLOY_KINDS = ("gambit", "ploy", "reroll")
"""The `cp_changes` kinds spent on a ploy, a gambit or a re-roll (the statistics' most used ploys)."""

READ_WITH = {"game_results": ("vp_by_op",)}
"""Tables read with another: the results carry each player's VP by op."""

KEPT_AS = {"games": "_every_game", "game_results": "result_rows", "vp_by_op": "by_op", "vp_changes": "vp_changes", "cp_changes": "cp_changes"}
"""The tables a `League` keeps once read, and the property that keeps each."""


@dataclass
class League:
    """The games of a database that pass the filters."""

    db: Path | Place
    """The database, or the place of a Parquet dataset (`ktlog dataset export`)."""
    filters: Filters = field(default_factory=Filters)
    _reading: dict[str, Future] = field(default_factory=dict, repr=False)
    """Tables being read ahead (`read_ahead`), by name."""
    _signed: set[str] | None = field(default=None, init=False, repr=False)
    """The games every player signed (`--signed-by-both`), read through the store before any
    table is: the store's connection and the tables' reader never hold the file at once."""

    def __post_init__(self) -> None:
        if self.filters.signed_by_both and not isinstance(self.db, Place):
            from ..play.signatures import signed_by_every_player
            from ..storage.store import Store

            with Store(self.db, create=False) as store:
                self._signed = signed_by_every_player(store)

    def read_ahead(self, *tables: str, by_op: bool = True) -> None:
        """Start reading the games and these projection tables (the results with their VP by op
        unless `by_op` is False), two at a time on two threads, while the caller goes on. The
        reads are most of a statistic's time, and SQLite and Arrow release the GIL, so two cores
        share them (1.8x faster on a 10,000-game league)."""
        pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ktlog-read")
        for name in ("games", *tables, *(also for t in tables for also in READ_WITH.get(t, ()) if by_op)):
            if name not in self._reading and KEPT_AS.get(name) not in self.__dict__:
                self._reading[name] = pool.submit(self._query, name)
        pool.shutdown(wait=False)  # the reads go on; `_read` waits for each when it is needed

    def _read(self, name: str) -> pl.DataFrame:
        """A table as it is in the database: read ahead, or read now."""
        pending = self._reading.pop(name, None)
        return pending.result() if pending else self._query(name)

    def _query(self, name: str) -> pl.DataFrame:
        """A table's `COLUMNS` (the games: their key, id and `GAME_COLUMNS`), nothing filtered."""
        return self.read(name, ("game_key", "game_id", *GAME_COLUMNS) if name == "games" else COLUMNS[name])

    def read(self, name: str, columns: tuple[str, ...] | None = None) -> pl.DataFrame:
        """A table of the source as it is (all its columns by default): from the database, or
        from a Parquet dataset when `db` is its place (its `files`); the games' players and kill
        teams as lists from either."""
        if isinstance(self.db, Place):
            return read_dataset_table(self.db, name, columns, files=self.files(name))
        if name == "games":
            return league_games(read_table(self.db, *(games_query(columns) if columns else games_query())))
        return read_table(self.db, *catalog.select(name, columns))

    def files(self, table: str) -> list[str]:
        """A dataset's files of `table` the league reads: those of the folders holding its games
        where the filters name a league or a season (`folders`), all of them otherwise."""
        assert isinstance(self.db, Place)
        files = self.db.glob(f"{table}/*/*/*.parquet")
        return files if self.folders is None else [f for f in files if partition_of(self.db, table, f) in self.folders]

    @cached_property
    def folders(self) -> frozenset[str] | None:
        """The `<season>/<league>` folders of a dataset holding a game of the league and season
        the filters name (found by the games' own labels, Parquet's statistics skipping the other
        files' rows): a game's rows are in its games row's folder, as `ktlog dataset export`
        writes them. None when the filters name neither, or the league is a database's."""
        f = self.filters
        if not isinstance(self.db, Place) or (f.league is None and f.season is None):
            return None
        files = self.db.glob("games/*/*/*.parquet")
        if not files:
            return frozenset()
        labels = [pl.col(c) == v for c, v in (("league", f.league), ("season", f.season)) if v is not None]
        scan = pl.scan_parquet(files, hive_partitioning=False, include_file_paths="_file", storage_options=self.db.storage_options)
        found = scan.filter(*labels).select(pl.col("_file").unique()).collect().get_column("_file")
        return frozenset(partition_of(self.db, "games", file) for file in found)

    @cached_property
    def samples_left_out(self) -> int:
        """How many sample games (`ktlog demo`, known by their ids) the league leaves out: all
        it holds once it holds a finished game of its own, unless --samples takes them in."""
        return 0 if self.filters.samples or not self.own_game_finished else self.sample_games

    @cached_property
    def sample_games(self) -> int:
        """How many of the database's games are the samples (`ktlog demo`)."""
        return int(self._every_game.get_column("game_id").is_in(sorted(sample_game_ids())).sum())

    @cached_property
    def own_game_finished(self) -> bool:
        """Whether the database holds a finished game that is not a sample (nor one `ktlog
        simulate` played, unless --simulated takes those in): from then on the samples are left out."""
        games = self._every_game
        own = (pl.col("status") == "finished") & ~pl.col("game_id").is_in(sorted(sample_game_ids()))
        if not self.filters.simulated:
            own &= pl.col("simulated").fill_null(0) == 0
        return not games.filter(own).is_empty()

    @cached_property
    def _every_game(self) -> pl.DataFrame:
        """The games table as it is, nothing filtered."""
        return self._read("games")

    @cached_property
    def games(self) -> pl.DataFrame:
        """Every game passing the filters (finished or not): id, date, labels, status; a match
        recorded in two databases once, as its counted recording (`same_matches`)."""
        others = left_out(self.same_matches)
        return self.recordings.filter(~pl.col("game_id").is_in(others)) if others else self.recordings

    @cached_property
    def same_matches(self) -> list[Match]:
        """The matches recorded in two databases among the games passing the filters (`play.matches`)."""
        return recorded_twice(self, self.recordings)

    @cached_property
    def recordings(self) -> pl.DataFrame:
        """Every game passing the filters, each recording of a match recorded twice included."""
        games, f = self._every_game, self.filters
        conditions = [pl.col(c) == v for c, v in (("league", f.league), ("season", f.season), ("round", f.round), ("ruleset", f.ruleset)) if v is not None]
        if f.ruleset is None:
            conditions.append(pl.col("pve").fill_null(0) == 0)
        if not f.simulated:
            conditions.append(pl.col("simulated").fill_null(0) == 0)
        if self.samples_left_out:
            conditions.append(~pl.col("game_id").is_in(sorted(sample_game_ids())))
        if f.since:
            conditions.append(pl.col("date") >= f.since.isoformat())
        if f.until:
            conditions.append(pl.col("date") <= f.until.isoformat())
        if f.player is not None:
            conditions.append(pl.col("game_key").is_in(self.identities.filter(pl.col("player") == self.asked_player).get_column("game_key").implode()))
        if f.team is not None:
            self._check_name(self.game_lists, "kill_teams", f.team, "kill team")
            conditions.append(pl.col("game_key").is_in(self.game_lists.filter(pl.col("kill_teams").list.contains(f.team)).get_column("game_key").implode()))
        if f.signed_by_both:
            conditions.append(pl.col("game_id").is_in(sorted(self._signed_by_every_player)))
        return games.filter(*conditions) if conditions else games

    @cached_property
    def game_lists(self) -> pl.DataFrame:
        """Every game's players and kill teams as lists (`GAME_LISTS`), by `game_key`, nothing filtered."""
        return self.read("games", ("game_key", *GAME_LISTS))

    def database(self, what: str) -> Path:
        """The database, for what only it holds (`what`: the events, the signatures)."""
        if isinstance(self.db, Place):
            raise KtlogError(f"{what} are in the database only, not in a dataset ({self.db}): drop --source")
        return self.db

    @property
    def _signed_by_every_player(self) -> set[str]:
        if self._signed is None:
            self.database("--signed-by-both checks signatures, which")  # a dataset has none: said
        return self._signed or set()

    def _check_name(self, games: pl.DataFrame, column: str, name: str, what: str) -> None:
        known = games.select(pl.col(column).explode().unique().drop_nulls()).to_series().to_list()
        if name not in known:
            close = difflib.get_close_matches(name, known, n=3)
            hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else f"; known: {', '.join(sorted(known)[:8])}"
            raise NothingToCompute(f"no {what} called {name!r} in {self.db}{hint}")

    @cached_property
    def identities(self) -> pl.DataFrame:
        """Who each player of each game is (`play.players`): game_key, the name as recorded,
        `player_id` and `player`, the name as shown (the name, and their club or key where
        another player has the same name). From a dataset, as its export worked them out."""
        from ..play.players import roster, shown_names

        schema = pl.Schema({"game_key": pl.Int64, "name": pl.String, "player_id": pl.String, "player": pl.String})
        if isinstance(self.db, Place):  # every game's: a name is shown with a label where anyone in the dataset shares it
            rows = read_dataset_table(self.db, "game_results", ("game_key", "player", *IDENTITY))
            people = rows.lazy().select("player_id", "player_name", "player_label").unique().collect().rows()
            shown = shown_names(people)
            as_named = all(shown[pid] == name for pid, name, _ in people)  # nobody shares a name: each is shown by it, nothing to look up
            player = pl.col("player_name") if as_named else pl.col("player_id").replace_strict(shown, return_dtype=pl.String)
            return rows.select("game_key", pl.col("player").alias("name"), "player_id", player.alias("player"))
        with _query_rows(self.db) as query:
            found = roster(query, database_home(query, self.db))
        shown = {pid: p.shown for pid, p in found.players.items()}
        return pl.DataFrame([(key, name, pid, shown[pid]) for key, _, name, pid in found.seats], schema=schema, orient="row")

    @cached_property
    def asked_player(self) -> str | None:
        """The player --player names (an id, a name as shown or as recorded), as shown."""
        asked = self.filters.player
        if asked is None:
            return None
        from ..play.players import pick

        people = self.identities.group_by("player_id", "player").agg("name").rows()
        try:
            player_id = pick(asked, people)
        except KtlogError as exc:
            raise NothingToCompute(str(exc)) from exc
        return next(shown for pid, shown, _ in people if pid == player_id)

    @cached_property
    def player_ids(self) -> pl.DataFrame:
        """Each player's name as shown and their `player_id`, one row each (to join on `player`)."""
        return self.identities.select("player", "player_id").unique(maintain_order=True)

    def as_shown(self, frame: pl.DataFrame, columns: Sequence[str]) -> pl.DataFrame:
        """A frame with its columns naming players (with its game_key) as recorded, naming them
        as shown: unchanged where every name is shown as recorded."""
        renamed = self.identities.filter(pl.col("name") != pl.col("player")).select("game_key", "name", pl.col("player").alias("_shown"))
        if renamed.is_empty():
            return frame
        for column in (c for c in columns if c in frame.columns):
            frame = (
                frame.join(renamed.rename({"name": column}), on=["game_key", column], how="left", maintain_order="left")
                .with_columns(pl.coalesce("_shown", column).alias(column))
                .drop("_shown")
            )
        return frame

    @cached_property
    def scope(self) -> League:
        """The league without --player and --team: ratings are the league's, whoever is shown."""
        if self.filters.player is None and self.filters.team is None:
            return self
        return League(self.db, dataclasses.replace(self.filters, player=None, team=None))

    @cached_property
    def in_progress(self) -> pl.DataFrame:
        return self.games.filter(pl.col("status") != "finished")

    @cached_property
    def finished_ids(self) -> pl.DataFrame:
        ids = self.games.filter(pl.col("status") == "finished").select("game_key", "game_id")
        if ids.is_empty():
            why = self._nothing_at_all() if self.games.is_empty() and self.filters == Filters() else (f"no finished game matches ({self.filters.describe()})")
            progress = f"; {self.in_progress.height} game(s) still in progress" if self.in_progress.height else ""
            progress += f"; the {self.samples_left_out} sample games are left out beside your own (--samples takes them in)" if self.samples_left_out else ""
            raise NothingToCompute(f"nothing to compute: {why}{progress}. Record or import games, or widen the filters")
        return ids

    def _nothing_at_all(self) -> str:
        """Why an unfiltered league is empty: no games, or only PvE or simulated games, which it
        leaves out."""
        games = self.read("games")
        if games.is_empty():
            return "the database has no games"
        pve = sorted(games.filter(pl.col("pve").fill_null(0) == 1).get_column("ruleset").unique().to_list())
        simulated = games.filter(pl.col("simulated").fill_null(0) == 1).height
        kinds = [f"games of {', '.join(pve)}"] * bool(pve) + [f"simulated games ({simulated}, from `ktlog simulate`)"] * bool(simulated)
        asks = ["--ruleset asks for them"] * bool(pve) + [f"--simulated takes {'in the simulated ones' if pve else 'them in'}"] * bool(simulated)
        return f"the database has only {' and '.join(kinds)}, which the league leaves out ({', '.join(asks)})"

    def table(self, name: str) -> pl.DataFrame:
        """A projection table's rows (its `COLUMNS`) for the finished games passing the filters."""
        return self._narrowed(name, self._read(name))

    def _narrowed(self, name: str, frame: pl.DataFrame) -> pl.DataFrame:
        """A table's rows of the finished games passing the filters, players named as shown."""
        key = "game_key" if "game_key" in frame.columns else "game_id"
        return self.as_shown(frame.filter(pl.col(key).is_in(self.finished_ids.get_column(key).implode())), NAMED.get(name, ()))

    @cached_property
    def result_rows(self) -> pl.DataFrame:
        """One row per player per finished game (`COLUMNS`), without their VP by op."""
        return self.table("game_results")

    @cached_property
    def by_op(self) -> pl.DataFrame:
        """Each player's VP by op in the finished games: game, player, op, VP."""
        return self.table("vp_by_op")

    @cached_property
    def ops(self) -> list[str]:
        """The ops of the results' VP-by-op columns: `catalog.OPS`, then any other op scored
        (none where a dataset's stored figures were read: they are stored only then)."""
        if "by_op" not in self.__dict__ and self.__dict__.get("figures") is not None:
            return list(catalog.OPS)
        return [*catalog.OPS, *sorted(set(self.by_op.get_column("op").unique()) - set(catalog.OPS))]

    @property
    def vp_ops(self) -> list[str]:
        """The results' VP-by-op columns (vp_crit ...), in the order of `ops`."""
        return [f"vp_{op}" for op in self.ops]

    @cached_property
    def results(self) -> pl.DataFrame:
        """One row per player per finished game, with their VP by op (`vp_ops`) after the
        total, and the game's date and start time to order by."""
        results = self.result_rows
        wide = self.by_op.pivot(on="op", index=["game_key", "player"], values="vp", aggregate_function="sum")
        wide = wide.select("game_key", "player", *(pl.col(op) if op in wide.columns else pl.lit(None, pl.Int64).alias(op) for op in self.ops))
        columns = self.vp_ops
        at = results.columns.index("vp_total") + 1
        order = self.games.select("game_key", "created_at")
        return (
            results.join(wide.rename({op: f"vp_{op}" for op in self.ops}), on=["game_key", "player"], how="left")
            .with_columns(pl.col(columns).fill_null(0).cast(pl.Int64))
            .select(*results.columns[:at], *columns, *results.columns[at:])
            .join(order, on="game_key", how="left")
            .join(self.player_ids, on="player", how="left")
        )

    @cached_property
    def stored_figures(self) -> pl.DataFrame | None:
        """A dataset's stored figures of `result_rows` while they are of its files
        (`figures.stored_figures`), read once; None otherwise."""
        from .figures import stored_figures

        return stored_figures(self)

    @cached_property
    def figures(self) -> pl.DataFrame:
        """What each player did in each finished game (`figures.game_figures`), a row for each of
        `result_rows`, in its order: the `stored_figures` where they hold, summed from the
        projection tables otherwise."""
        from .figures import game_figures

        if self.stored_figures is not None:
            return self.stored_figures
        self.read_ahead("game_results", "cp_changes", "incapacitations", "turning_points")
        return game_figures(self.result_rows, self.by_op, self.table("incapacitations"), self.cp_changes, self.table("turning_points"), self.ops)

    @cached_property
    def vp_changes(self) -> pl.DataFrame:
        """Every VP scored in the finished games: game, seq, turning point, player, VP."""
        return self.table("vp_changes")

    @cached_property
    def cp_changes(self) -> pl.DataFrame:
        """Every CP gained or spent: game, player, delta, kind (income, ploy, gambit ...), source."""
        return self.table("cp_changes")

    @cached_property
    def ploys(self) -> pl.DataFrame:
        """Every ploy, gambit and re-roll paid for in the finished games: game, player, kind,
        source (`cp_changes` of those kinds: from a dataset, only those rows read)."""
        columns = ("game_key", "player", "kind", "source")
        if "cp_changes" in self.__dict__ or "cp_changes" in self._reading or not isinstance(self.db, Place):
            return self.cp_changes.filter(pl.col("kind").is_in(PLOY_KINDS)).select(columns)
        return self._narrowed("cp_changes", read_dataset_table(self.db, "cp_changes", columns, pl.col("kind").is_in(PLOY_KINDS), self.files("cp_changes")))

    @cached_property
    def pairings(self) -> pl.DataFrame:
        """Results with one opponent beside each row, a row for each opponent (`pairings`)."""
        return pairings(self.results)

    @cached_property
    def with_opponents(self) -> pl.DataFrame:
        """Results with the opponents beside each row (`with_opponents`)."""
        return with_opponents(self.results)

    def entity_rows(self, frame: pl.DataFrame, by: str) -> pl.DataFrame:
        """Narrow per-player rows to the --player or --team asked for (their opponents stay in the games)."""
        f = self.filters
        if by == "player" and f.player:
            return frame.filter(pl.col("player") == self.asked_player)
        if by == "kill_team" and f.team:
            return frame.filter(pl.col("kill_team") == f.team)
        return frame


OPPONENT_OF = (("player", "opponent"), ("kill_team", "opponent_team"), ("vp_total", "vp_against"))


def with_opponents(results: pl.DataFrame) -> pl.DataFrame:
    """Result rows (game, player, kill team, VP) with the opponents beside each, one row per
    player per game, in game order: in a two-player game the opponent's name, kill team and VP;
    with three or four players the opponents' names and kill teams joined with ", " (by name) and
    VP against the mean of their VP (a game with one result row: none).

    In a two-player game, nearly every game of a league, the opponent is the game's other row: the
    next row once the rows are in game order, or else the previous one (a tenth of the time of
    pairing every row with its game's rows); games of other sizes pair their rows (`pairings`)."""
    game = pl.col("game_key")
    rows = results.sort("game_key", maintain_order=True)
    size = pl.len().over(game)
    if rows.select((size == 2).all()).item():
        after = game.shift(-1) == game
        return rows.with_columns(pl.when(after).then(pl.col(column).shift(-1)).otherwise(pl.col(column).shift(1)).alias(name) for column, name in OPPONENT_OF)
    two = with_opponents(rows.filter(size == 2))
    others = rows.filter(size != 2)
    opponents = (
        pairings(others)
        .group_by("game_key", "player")
        .agg(pl.col("opponent").sort().str.join(", "), pl.col("opponent_team").sort_by("opponent").str.join(", "), pl.col("vp_against").mean())
    )
    return pl.concat([two.with_columns(pl.col("vp_against").cast(pl.Float64)), others.join(opponents, on=["game_key", "player"], how="left")]).sort(
        "game_key", maintain_order=True
    )


def pairings(results: pl.DataFrame) -> pl.DataFrame:
    """Result rows with one opponent's name, kill team and VP beside each: a row for each
    opponent (one per player in a two-player game, two or three in Multiplayer Ops)."""
    other = results.select("game_key", pl.col("player").alias("opponent"), pl.col("kill_team").alias("opponent_team"), pl.col("vp_total").alias("vp_against"))
    return results.join(other, on="game_key").filter(pl.col("player") != pl.col("opponent"))

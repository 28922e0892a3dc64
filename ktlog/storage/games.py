"""The games room: the games table, one row a game with its head (seq, hash) and the columns
derived from its state (players, result, labels), as the game lists and the tables page read it.
The rows are written with each event (`Store`); a game's figures come from the projections."""

from __future__ import annotations

import json
from typing import Any

from ..envelopes import GameRow, game_prefix
from ..errors import GameNotFound
from .catalog import LABEL_COLUMNS
from .room import Room


def listed_game(row: dict[str, Any]) -> GameRow:
    """A row of the games table as a `GameRow`."""
    return GameRow(
        id=row["id"],
        created_at=row["created_at"],
        ruleset=row["ruleset"],
        killzone=row["killzone"],
        date=row["date"],
        head_seq=row["head_seq"],
        status=row["status"],
        labels={k: row[c] for k, c in LABEL_COLUMNS.items() if row[c]},
        players=json.loads(row["players"] or "[]"),
        kill_teams=json.loads(row["kill_teams"] or "[]"),
        result=json.loads(row["result"]) if row["result"] else None,
        simulated=bool(row["simulated"]),
    )


class Games(Room):
    def listed(self, newest: int | None = None) -> list[GameRow]:
        """Every game, oldest first; or only the `newest` games, newest first."""
        if newest is None:
            return [listed_game(r) for r in self._rows("SELECT * FROM games ORDER BY date, created_at")]
        return [listed_game(r) for r in self._rows("SELECT * FROM games ORDER BY date DESC, created_at DESC LIMIT ?", [newest])]

    def count(self) -> tuple[int, int]:
        """How many games there are, and how many of them are unfinished."""
        total, unfinished = self.conn.execute("SELECT count(*), coalesce(sum(status != 'finished'), 0) FROM games").fetchone()
        return total, unfinished

    def game(self, game_id: str) -> GameRow:
        rows = self._rows("SELECT * FROM games WHERE id = ?", [game_id])
        if not rows:
            raise GameNotFound(f"no game {game_id!r} in {self.store.path or ':memory:'}; `ktlog games` lists them")
        return listed_game(rows[0])

    def resolve(self, prefix: str) -> str:
        """The id of the game whose id is `prefix` or starts with it."""
        prefix = game_prefix(prefix)
        if not prefix:
            raise GameNotFound("give a game id (or the start of one); `ktlog games` lists them")
        # The ids that start with `prefix` exactly (no LIKE wildcards), a range of the primary key.
        ids = [
            r["id"]
            for r in self._rows(
                "SELECT id FROM games WHERE id >= ? AND id < ? AND substr(id, 1, ?) = ? ORDER BY id", [prefix, prefix + "\uffff", len(prefix), prefix]
            )
        ]
        if not ids:
            raise GameNotFound(f"no game id starts with {prefix!r}; `ktlog games` lists them")
        if len(ids) > 1:
            raise GameNotFound(f"{len(ids)} games start with {prefix!r} ({', '.join(i[:12] for i in ids[:4])}...); type more of the id")
        return str(ids[0])

    def has(self, game_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is not None

    def head(self, game_id: str) -> tuple[int, str]:
        """The game's head as stored: the seq and hash of its latest event."""
        row = self.conn.execute("SELECT head_seq, head_hash FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(f"no game {game_id!r}; `ktlog games` lists them")
        return int(row[0]), str(row[1])

    def disputes(self, game_id: str) -> int:
        """How many disputes of the game's events are open."""
        row = self.conn.execute("SELECT disputes FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(f"no game {game_id!r}; `ktlog games` lists them")
        return int(row[0] or 0)

    # --- the tables page ------------------------------------------------------------------

    def labels(self, label: str) -> list[str]:
        """The values a label (`league`, `round` ...) takes among the games, in order."""
        column = LABEL_COLUMNS[label]
        return [v for (v,) in self.conn.execute(f"SELECT DISTINCT {column} FROM games WHERE coalesce({column}, '') != '' ORDER BY {column}")]

    def at_tables(self, labels: dict[str, str], ids: list[str] | None = None) -> list[GameRow]:
        """The games played at a table (not simulated), unfinished first, each newest first;
        narrowed by label values (`league`, `round`) and to some games (`ids`)."""
        where, args = ["coalesce(simulated, 0) = 0"], []
        for label, value in labels.items():
            where.append(f"{LABEL_COLUMNS[label]} = ?")
            args.append(value)
        if ids is not None:
            where.append(f"id IN ({', '.join('?' * len(ids))})")
            args.extend(ids)
        sql = f"SELECT * FROM games WHERE {' AND '.join(where)} ORDER BY status = 'finished', date DESC, created_at DESC"
        return [listed_game(r) for r in self._rows(sql, args)]

    def figures(self, ids: list[str]) -> dict[str, tuple[int, dict[str, int], dict[str, int]]]:
        """Per game of `ids`: its latest turning point and each player's VP and CP, summed from
        the projections (no game is folded); a game with none of them is left out."""
        marks = ", ".join("?" * len(ids))
        out: dict[str, tuple[int, dict[str, int], dict[str, int]]] = {}

        def entry(game_id: str) -> tuple[int, dict[str, int], dict[str, int]]:
            return out.setdefault(game_id, (0, {}, {}))

        for game_id, turning_point in self.conn.execute(
            f"SELECT game_id, max(turning_point) FROM turning_points WHERE game_id IN ({marks}) GROUP BY game_id", ids
        ):
            out[game_id] = (turning_point, *entry(game_id)[1:])
        for game_id, player, total in self.conn.execute(
            f"SELECT game_id, player, sum(vp) FROM vp_changes WHERE game_id IN ({marks}) GROUP BY game_id, player", ids
        ):
            entry(game_id)[1][player] = total
        for game_id, player, total in self.conn.execute(
            f"SELECT game_id, player, sum(delta) FROM cp_changes WHERE game_id IN ({marks}) GROUP BY game_id, player", ids
        ):
            entry(game_id)[2][player] = total
        return out

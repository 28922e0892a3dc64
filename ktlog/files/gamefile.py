"""Game files (`.ktgame`): a whole game as a person types it, what PGN's movetext is to chess.

A few header lines `key: value` (the players and their rosters, the ruleset, killzone, date and
labels), then one event a line in the syntax of `ktlog event` (`TYPE FIELD=VALUE ...`, parsed by
`text.event_text`). `#` starts a comment (a whole line, or after a space); blank lines are
skipped. Ids, times and hashes are made on import (`play.game_files`), unless the file carries
them: a game recorded live and exported keeps its events' ids and times, a `recorded:` header
line for each event the header makes (its creation, each side's joining and operatives) and
`@id=ID @at=TIME` at the end of every event line, so that it imports as the same events (issue
24 #10). This module reads and writes the text; it knows nothing of
rosters or rules.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import events as ev
from ..errors import GameLogError, KtlogError
from ..rulesets import RULESETS
from ..text.event_text import event_line, parse_event
from .gamelog import read_game_bytes
from .inputs import LINE_LIMIT

SUFFIX = ".ktgame"
"""The suffix `ktlog import` knows a game file by (any other file is a game-log file)."""
LABELS = ("dataslate", "mission", "league", "season", "round", "table")
"""Header keys copied into the game's GameCreated as they are."""
KEYS = ("game", "ruleset", "killzone", "date", *LABELS)
"""Header keys given once; `player` and `npo` are given once per side, `recorded` once per event
the header makes."""
SIDES = ("player", "npo")
DEFAULT_RULESET = "kt24-preliminary"
_HEADER_LINE = re.compile(r"([A-Za-z_]+):(?:\s+(.*))?")
_RECORDED = re.compile(r"\s@id=(\S*)\s+@at=(\S*)(?=\s*(?:#.*)?$)")
"""The end of an event line that carries its event's id and time as recorded."""


@dataclass(frozen=True)
class Recorded:
    """An event's id and the time it was recorded, as a game file carries them."""

    event_id: str
    at: str

    @classmethod
    def read(cls, event_id: str, at: str) -> Recorded:
        """Checked: a UUID, and an ISO time with its offset (ValueError names which is wrong)."""
        try:
            if str(uuid.UUID(event_id)) != event_id.lower():
                raise ValueError
        except ValueError:
            raise ValueError(f"@id={event_id!r} is not an event id (a UUID)") from None
        try:
            when = dt.datetime.fromisoformat(at)
        except ValueError:
            when = None
        if when is None or when.utcoffset() is None:
            raise ValueError(f"@at={at!r} is not a time with its offset, such as 2026-11-21T19:04:05.123456+00:00")
        return cls(event_id.lower(), at)

    def words(self) -> str:
        return f"@id={self.event_id} @at={self.at}"


@dataclass(frozen=True)
class Side:
    """A `player:` (or `npo:`) header line: NAME=ROSTER[:OP,OP], as `ktlog new --player` takes it."""

    line: int
    name: str
    roster: str
    select: list[str] | None
    npo: bool = False

    def spec(self) -> str:
        return f"{self.name}={self.roster}" + (f":{','.join(self.select)}" if self.select else "")


@dataclass
class GameFile:
    """A game file read: its header values (with the line each came from), sides and events."""

    path: str
    header: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    sides: list[Side] = field(default_factory=list)
    events: list[tuple[int, ev.Event]] = field(default_factory=list)
    """Each event with its line number."""
    recorded: dict[int, Recorded] = field(default_factory=dict)
    """The id and time of the events whose line carries them, by line."""
    header_recorded: list[tuple[int, Recorded]] = field(default_factory=list)
    """The `recorded:` lines: the ids and times of the events the header makes, in seq order."""

    @property
    def ruleset(self) -> str:
        return self.header.get("ruleset", DEFAULT_RULESET)

    def created(self) -> ev.GameCreated:
        return ev.GameCreated(ruleset=self.ruleset, killzone=self.header["killzone"], date=self.header["date"], **{k: self.header.get(k) for k in LABELS})  # type: ignore[arg-type]  # the label fields, str | None


# --- reading ---------------------------------------------------------------------------------


def read_game_file(path: Path) -> GameFile:
    """Read and parse a game file; a problem raises GameLogError naming the line."""
    where = str(path)
    data = read_game_bytes(path, "a game file")
    try:
        text = data.removeprefix(b"\xef\xbb\xbf").decode()
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GameLogError(where, line, "the line is not UTF-8 text; save the file as UTF-8") from exc
    return parse_game_file(text, where)


def parse_game_file(text: str, where: str) -> GameFile:
    """The header and events of a game file's text (see the module's docstring)."""
    game = GameFile(where)
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > LINE_LIMIT:
            raise GameLogError(where, number, f"the line is {len(line):,} characters long, more than the {LINE_LIMIT:,} a line may take")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        header = _HEADER_LINE.fullmatch(_uncommented(stripped))
        if header:
            if game.events:
                raise GameLogError(where, number, f"the header line {header[1]!r} comes after the events; move it above the first event")
            _header_line(game, number, header[1].lower(), (header[2] or "").strip())
            continue
        try:
            if found := _RECORDED.search(line):
                game.recorded[number] = Recorded.read(found[1], found[2])
                line = line[: found.start()] + line[found.end() :]
            game.events.append((number, parse_event(line)))
        except ValueError as exc:
            raise GameLogError(where, number, f"{exc}; `ktlog export --format ktgame` writes each event line's @id and @at") from None
        except KtlogError as exc:
            hint = "; a header line is `key: value`, an event `TYPE FIELD=VALUE ...`" if str(exc).startswith("unknown event type") else ""
            raise GameLogError(where, number, f"{exc}{hint}") from None
    for key in ("killzone", "date"):
        if key not in game.header:
            raise GameLogError(where, None, f"the header has no {key!r} line; add `{key}: ...` above the events ({_KEYS_TEXT})")
    if not game.sides and not any(isinstance(e, ev.PlayerJoined) for _, e in game.events):
        raise GameLogError(where, None, "the header names no player; add a line `player: NAME=ROSTER` for each (a roster file or its name)")
    return game


def _uncommented(text: str) -> str:
    """A header line without its comment (a `#` after a space)."""
    return re.split(r"\s#", text, maxsplit=1)[0].rstrip()


_KEYS_TEXT = "header keys: " + ", ".join((*KEYS, *SIDES, "recorded"))


def _header_line(game: GameFile, number: int, key: str, value: str) -> None:
    where = game.path
    if key in SIDES:
        game.sides.append(_side(where, number, value, key == "npo"))
        return
    if key == "recorded":
        event_id, _, at = value.partition(" ")
        try:
            game.header_recorded.append((number, Recorded.read(event_id, at.strip())))
        except ValueError as exc:
            raise GameLogError(where, number, f"recorded: {exc} (`recorded: ID TIME`, once for each event the header makes)") from None
        return
    if key not in KEYS:
        raise GameLogError(where, number, f"{key!r} is not a header key; the {_KEYS_TEXT}")
    if key in game.header:
        raise GameLogError(where, number, f"{key!r} is given twice (first on line {game.lines[key]}); keep one")
    if not value:
        raise GameLogError(where, number, f"{key!r} has no value; write `{key}: VALUE` or leave the line out")
    problem = _bad_value(key, value)
    if problem:
        raise GameLogError(where, number, f"{key}: {problem}")
    game.header[key] = value.lower() if key == "game" else value
    game.lines[key] = number


def _bad_value(key: str, value: str) -> str | None:
    if key == "ruleset" and value not in RULESETS:
        return f"{value!r} is not a ruleset; one of {', '.join(sorted(RULESETS))}"
    if key == "date":
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            return f"{value!r} is not a date like 2026-10-04 (YYYY-MM-DD)"
    if key == "game":
        try:
            if str(uuid.UUID(value)) != value.lower():
                raise ValueError
        except ValueError:
            return f"{value!r} is not a game id (a UUID such as 334f68f6-0dcb-4490-9503-74563ac46dc6); leave the line out to have one made"
    return None


def _side(where: str, number: int, value: str, npo: bool) -> Side:
    name, sep, rest = value.partition("=")
    roster, _, ops = rest.partition(":")
    if not sep or not name.strip() or not roster.strip():
        key = "npo" if npo else "player"
        raise GameLogError(where, number, f"{key}: {value!r} is not NAME=ROSTER or NAME=ROSTER:OP,OP (a roster file, or its name as `ktlog roster list` shows)")
    select = [o.strip() for o in ops.split(",") if o.strip()] or None
    return Side(number, name.strip(), roster.strip(), select, npo)


# --- writing ---------------------------------------------------------------------------------


def game_file_text(
    header: dict[str, str | None], sides: list[Side], events: Sequence[ev.Event], comments: list[str] = (), recorded: list[Recorded] | None = None
) -> str:
    """A game file: comment lines, the header (keys in the order of KEYS), the sides, the events.
    With `recorded` (every event's id and time, from seq 1), the header's events' as `recorded:`
    lines and the others' at the end of their lines."""
    lines = [f"# {c}" for c in comments]
    lines += [f"{key}: {header[key]}" for key in KEYS if header.get(key) is not None]
    lines += [f"{'npo' if s.npo else 'player'}: {s.spec()}" for s in sides]
    made_by_header = len(recorded) - len(events) if recorded else 0
    lines += [f"recorded: {r.event_id} {r.at}" for r in (recorded or [])[:made_by_header]]
    lines.append("")
    for i, event in enumerate(events):
        if isinstance(event, ev.TurningPointStarted):
            lines.append("")
        lines.append(event_line(event) + (f" {recorded[made_by_header + i].words()}" if recorded else ""))
    return "\n".join(lines) + "\n"

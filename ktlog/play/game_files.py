"""A typed game (`.ktgame`, `files.gamefile`) as the events `ktlog import` stores, and a stored
game written back as one.

Importing: the header's players join with their rosters as `ktlog new` adds them
(`play.creation`), each event is checked by the rules in order, and the first refusal names
its line. The game's id is the header's `game:`, or else made from the header (ruleset,
killzone, date, labels; each side's name, kill team and operatives), so the same file imported
again is the same game ("unchanged"; "extended" with lines added). Event ids and times are made
from the game id and seq (`builder.seal_reproducibly`): the same file gives the same events in
every database. Events a database holds already with the same content keep their stored ids,
so a game exported as a game file and imported back into its database is unchanged.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from pathlib import Path

from .. import events as ev
from ..data import SAMPLE_ROSTERS
from ..envelopes import GENESIS, canonical, seal
from ..errors import GameLogError, KtlogError, RuleViolation
from ..files.gamefile import LABELS, GameFile, Recorded, Side, game_file_text, read_game_file
from ..files.gamelog import Header, make_header
from ..files.rosters import Roster, find_roster, joining, load_roster, slug, user_roster_folder
from ..reducer import fold_with_snapshots
from ..storage.rows import event_rows
from ..storage.snapshots import SNAPSHOT_EVERY
from ..storage.store import Store
from ..text.event_text import event_line
from ..text.results import describe_result
from . import creation
from .builder import seal_reproducibly
from .moves import refusal_text

NAMESPACE = uuid.UUID("6b7467616d652d6b746c6f672d696473")
"""The namespace of the game ids made from a game file's header (UUID version 5)."""


def read_typed_game(path: Path, store: Store | None = None) -> tuple[Header, list[tuple[ev.Envelope, bytes]]]:
    """A game file as a game-log file's header and sealed events, every event checked by the
    rules (GameLogError names the line of the first refusal). With `store`, the events it holds
    already for this game with the same content keep their stored envelopes."""
    game = read_game_file(path)
    events, lines = _events(game)
    game_id = game.header.get("game") or str(uuid.uuid5(NAMESPACE, _identity(events)))
    start = f"{game.header['date']}T00:00:00+00:00"
    kept = _stored_prefix(store, game_id, events, game, lines) if store is not None else []
    recorded = _recorded(game, events)
    prev = kept[-1][0].hash if kept else GENESIS
    if recorded is None:
        sealed = kept + seal_reproducibly(game_id, start, events[len(kept) :], len(kept) + 1, prev)
    else:
        sealed = kept
        for seq in range(len(kept) + 1, len(events) + 1):
            sealed.append(seal(game_id, seq, events[seq - 1], prev, event_id=recorded[seq - 1].event_id, recorded_at=recorded[seq - 1].at))
            prev = sealed[-1][0].hash
    try:
        event_rows(sealed)  # the values every stored event must keep to
        state, _ = fold_with_snapshots([(e.seq, e.payload) for e, _ in sealed], SNAPSHOT_EVERY)
    except KtlogError as exc:
        seq = getattr(exc, "seq", None)
        if seq is None:
            raise GameLogError(game.path, None, str(exc)) from None
        advice = ". If a kill team rule allows it, add override=REASON to the line" if isinstance(exc, RuleViolation) and exc.overridable else ""
        raise GameLogError(game.path, lines[seq - 1], f"{type(events[seq - 1]).__name__} (seq {seq}): {refusal_text(exc)}{advice}") from None
    return make_header(game_id, state, len(sealed)), sealed


def _events(game: GameFile) -> tuple[list[ev.Event], list[int | None]]:
    """The game's events from its creation, and the line each came from (None: the header's)."""
    sides: list[creation.Side] = []
    for side in game.sides:
        try:
            beside = Path(game.path).parent / side.roster  # a roster file named relative to the game file
            roster = load_roster(beside if beside.is_file() else find_roster(side.roster))
            roster.select(side.select)  # an operative the roster does not have, refused on its line
        except KtlogError as exc:
            raise GameLogError(game.path, side.line, f"{side.name}'s roster: {exc}") from None
        sides.append(creation.Side(side.name, roster, side.select, npo=side.npo))
    try:
        later = sum(isinstance(event, ev.PlayerJoined) for _, event in game.events)
        events = creation.opening_events(game.created(), sides, joining_later=later)
    except RuleViolation as exc:  # an unknown ruleset, or one not played by that many sides
        line = game.lines.get("ruleset") if exc.rule == "ruleset" or not game.sides else game.sides[0].line
        raise GameLogError(game.path, line, str(exc)) from None
    lines: list[int | None] = [game.lines.get("killzone")]
    side_lines = iter(side.line for side in game.sides)
    for event in events[1:]:
        lines.append(next(side_lines) if isinstance(event, ev.PlayerJoined) else lines[-1])
    for number, event in game.events:
        events.append(event)
        lines.append(number)
    return events, lines


def _recorded(game: GameFile, events: list[ev.Event]) -> list[Recorded] | None:
    """Each event's id and time as the file carries them (issue 24 #10: a live game exported and
    imported elsewhere got new ids, so its game-log file was later refused there as another
    recording of the game), or None when it carries none: every event has them, or none does."""
    if not game.recorded and not game.header_recorded:
        return None
    made = len(events) - len(game.events)
    if len(game.header_recorded) != made:
        raise GameLogError(
            game.path,
            game.header_recorded[-1][0] if game.header_recorded else None,
            f"the header makes {made} events (the creation, each side's joining and operatives) but has {len(game.header_recorded)} `recorded:` lines: "
            "every event carries its id and time (as `ktlog export` writes them), or none does",
        )
    missing = next((n for n, _ in game.events if n not in game.recorded), None)
    if missing is not None:
        raise GameLogError(
            game.path,
            missing,
            "it has no @id and @at, while other lines carry them: every event carries its id and time (as `ktlog export` writes them), or none does",
        )
    return [r for _, r in game.header_recorded] + [game.recorded[n] for n, _ in game.events]


def _identity(events: list[ev.Event]) -> str:
    """What a game file's made id is made from: its creation, and each side's name, kill team
    and operatives (the PlayerJoined and OperativeAdded events that follow it)."""
    parts = [canonical(events[0]).decode()]
    for event in events[1:]:
        if isinstance(event, ev.PlayerJoined):
            parts.append(f"player {event.player} {event.kill_team} npo={event.npo}")
        elif isinstance(event, ev.OperativeAdded):
            parts.append(f"operative {event.player} {event.operative}")
        else:
            break
    return "\n".join(parts)


def _stored_prefix(store: Store, game_id: str, events: list[ev.Event], game: GameFile, lines: list[int | None]) -> list[tuple[ev.Envelope, bytes]]:
    """The stored envelopes of the game's first events, if it is stored with the file's events
    so far; a stored event that differs from the file's refuses the file, naming its line."""
    if not store.has_game(game_id):
        return []
    kept = []
    for envelope, event in zip(store.events(game_id), events):
        payload = canonical(event)
        if canonical(envelope.payload) != payload:
            db = store.path or "the database"
            raise GameLogError(
                game.path,
                lines[envelope.seq - 1],
                f"game {game_id[:8]} is already in {db} with another event at seq {envelope.seq}: {db} has `{event_line(envelope.payload)}`, "
                f"the file `{event_line(event)}`. If the file is right, correct the stored game (`ktlog correct {game_id[:8]} {envelope.seq} ...`); "
                "if it is another game, tell them apart with a `game:` line or another label (a game file's id is made from its header)",
            )
        kept.append((envelope, payload))
    return kept


# --- writing ---------------------------------------------------------------------------------


def game_file(store: Store, game_id: str) -> str:
    """A stored game as a game file that imports as the same events. The sides whose rosters
    (in the user's roster folder or the samples) give exactly their stored operatives are
    header lines, up to the first that none does; from there the PlayerJoined and
    OperativeAdded events are written out as lines."""
    envelopes = list(store.events(game_id))
    events = [e.payload for e in envelopes]
    created = events[0]
    assert isinstance(created, ev.GameCreated)
    header = {"game": game_id, "ruleset": created.ruleset, "killzone": created.killzone, "date": created.date, **{k: getattr(created, k) for k in LABELS}}
    made = seal_reproducibly(game_id, f"{created.date}T00:00:00+00:00", events)
    recorded = None
    if any((e.event_id, e.recorded_at) != (m.event_id, m.recorded_at) for e, (m, _) in zip(envelopes, made)):  # recorded live, not made from a file
        recorded = [Recorded(e.event_id, e.recorded_at) for e in envelopes]
    sides, written = _sides(events)
    state = store.state(game_id)
    comments = [f"ktlog game file: `ktlog import FILE.ktgame` (game {game_id[:8]}, {len(events)} events)"]
    if state.result is not None:
        comments.append(f"result: {describe_result(state)}")
    return game_file_text(header, sides, events[written:], comments, recorded)


def _sides(events: Sequence[ev.Event]) -> tuple[list[Side], int]:
    """The sides that join first, each as NAME=ROSTER[:OP,OP], while a roster gives exactly its
    stored events; and how many events (from the creation) they stand for."""
    sides: list[Side] = []
    taken: set[str] = set()
    rosters = _rosters()
    written = 1
    while written < len(events) and isinstance(events[written], ev.PlayerJoined):
        end = written + 1
        while end < len(events) and isinstance(events[end], ev.OperativeAdded):
            end += 1
        side = _side(events[written:end], taken, rosters)
        if side is None:
            break
        sides.append(side)
        written = end
    return sides, written


def _side(block: Sequence[ev.Event], taken: set[str], rosters: list[tuple[Path, Roster]]) -> Side | None:
    joined = block[0]
    assert isinstance(joined, ev.PlayerJoined)
    ids = [e.operative for e in block[1:] if isinstance(e, ev.OperativeAdded)]
    want = [canonical(e) for e in block]
    for path, roster in rosters:
        if roster.name != joined.kill_team:
            continue
        for select in (None, _selection(ids, joined.player, {o.id for o in roster.operatives})):
            try:
                events = joining(joined.player, roster, select, set(taken), npo=joined.npo)
            except KtlogError:
                continue
            if [canonical(e) for e in events] == want:
                taken.update(ids)
                return Side(0, joined.player, _roster_name(path), select, joined.npo)
    return None


def _rosters() -> list[tuple[Path, Roster]]:
    """The rosters a side may name (those that load), in `find_roster`'s order."""
    found = []
    for path in (p for folder in (user_roster_folder(), SAMPLE_ROSTERS) if folder.is_dir() for p in sorted(folder.glob("*.toml"))):
        try:
            found.append((path, load_roster(path)))
        except KtlogError:
            continue
    return found


def _roster_name(path: Path) -> str:
    """The shortest way to name a roster that `find_roster` finds again."""
    try:
        return path.stem if find_roster(path.stem).resolve() == path.resolve() else str(path)
    except KtlogError:
        return str(path)


def _selection(ids: list[str], player: str, roster_ids: set[str]) -> list[str]:
    """The roster ids a side's game ids came from (a mirror match puts the player's name in
    front, an operative selected twice gets -1, -2)."""
    out = []
    for op in ids:
        base = op.removeprefix(f"{slug(player)}-") if op not in roster_ids else op
        if base not in roster_ids:
            base = re.sub(r"-\d+$", "", base)
        out.append(base)
    return out

"""The game page's log kept from head to head (issue 26, web/game_log.py): after every event its
rows are the rows made from the whole game; only the rows an event is about are made again;
the page shows the log a page at a time."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_support import SAMPLE, as_older_ktlog, sample_events, store_part

from ktlog import events as ev
from ktlog.data import SAMPLE_GAMES
from ktlog.play.timeline import Timeline
from ktlog.storage.store import Store
from ktlog.web import game_log
from ktlog.web.game_log import GameLogs, page_of
from ktlog.web.views import log_rows

UNDOS_AND_NOTES = SAMPLE_GAMES / "05_undo_and_notes_hearthkyn_vs_legionaries.jsonl"
TARGET = 110
"""An event of that game's that a note and a correction (the same event again) are about."""


def whole(store: Store, game_id: str, head: int) -> list[dict]:
    """The rows as the page made them before the log was kept: from every event, at `head`."""
    return log_rows(Timeline(store.events(game_id, upto=head)), store.state(game_id, head))


@pytest.mark.parametrize("sample", [UNDOS_AND_NOTES, SAMPLE], ids=["undos and notes", "secrets revealed"])
def test_kept_rows_are_the_whole_games_rows_at_every_head(tmp_path: Path, sample: Path) -> None:
    events = sample_events({}, sample)
    db = tmp_path / "log.db"
    game_id, _ = store_part(db, len(events), {}, sample)
    logs = GameLogs()
    with Store(db) as store:
        for head in range(1, len(events) + 1):
            assert logs.at(store, game_id, head, 1).rows == whole(store, game_id, head), f"seq {head}"


def test_an_undo_a_correction_and_a_note_remake_only_the_rows_they_are_about(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "fix.db"
    game_id, events = store_part(db, 120, {}, UNDOS_AND_NOTES)
    logs = GameLogs()
    made: list[int] = []
    real = game_log.event_row
    monkeypatch.setattr(game_log, "event_row", lambda envelope, state: made.append(envelope.seq) or real(envelope, state))
    with as_older_ktlog(), Store(db) as store:
        logs.at(store, game_id, 119, 1)
        target = TARGET
        fixes = [
            ev.Annotation(target=target, text="<b>a note</b> on it"),
            ev.EventVoided(target=121),  # the note taken back
            ev.EventCorrected(target=target, event=events[target - 1]),
            ev.EventVoided(target=123),  # the correction taken back
        ]
        for fix in fixes:
            store.append(game_id, fix)
        made.clear()
        head = store.game(game_id).head_seq
        log = logs.at(store, game_id, head, 1)
        assert log.rows == whole(store, game_id, head)
        # the new rows (120, the undos 122 and 124, the correction 123; a note has no row of its
        # own) and the row the note and the correction are about: every other row is kept
        assert set(made) == {120, 122, 123, 124, target}


def test_a_page_holds_the_rows_before_its_seq_and_names_the_pages_beside_it() -> None:
    rows = [{"seq": seq} for seq in (1, 2, 3, 5, 6, 7, 8)]  # seq 4: a note, no row of its own
    seqs = lambda page: [row["seq"] for row in page.rows]  # noqa: E731
    latest = page_of(rows, None, size=3)
    assert (seqs(latest), latest.older, latest.newer) == ([6, 7, 8], 6, None)
    middle = page_of(rows, 6, size=3)
    assert (seqs(middle), middle.older, middle.newer) == ([2, 3, 5], 2, 0)  # newer: the latest page
    assert seqs(page_of(rows, 4, size=3)) == [1, 2, 3]  # a seq without a row: the rows before it
    first = page_of(rows, 2, size=3)
    assert (seqs(first), first.older, first.newer) == ([1], None, 6)  # newer: the rows 2, 3, 5

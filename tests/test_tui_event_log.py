"""The event log after a dialog records an event (issue 42 #5): at 120x40 the new row stood in
the middle of the log with half of it empty below."""

from __future__ import annotations

import pytest
from tui_support import press, sample_cut, tui_test

from ktlog.tui.app import make_app


def shown_rows(log) -> list[str]:
    """The log's rows as drawn, top to bottom (its border left out)."""
    return [log.render_line(y).text for y in range(log.content_size.height)]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@tui_test
async def test_an_event_recorded_through_a_dialog_is_the_logs_last_row_with_no_empty_half(store, size):
    game = sample_cut(store, "01", 2)
    async with make_app(store, screen="record", game_id=game).run_test(size=size) as pilot:
        await pilot.pause()
        log = pilot.app.screen.query_one("EventLog")
        head = log.last_seq
        await press(pilot, "s")
        if type(pilot.app.screen).__name__ != "RecordScreen" or pilot.app.screen.dialogs:
            await press(pilot, "1")  # more than one target: the first
        await press(pilot, "q", "3", "enter")
        await pilot.pause()
        assert log.last_seq == head + 1
        rows = shown_rows(log)
        assert rows[-1].lstrip().startswith(f"▶ {head + 1} "), rows[-3:]
        assert all(row.strip() for row in rows), "an empty row in a log longer than its window"
        await press(pilot, "up", "up")  # moving back through it still redraws only what moved
        assert shown_rows(log)[-3].lstrip().startswith("▶")

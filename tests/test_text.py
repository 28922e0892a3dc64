"""The text package: one phrasing of an objective marker for `ktlog show` and the terminal UI."""

from __future__ import annotations

import msgspec
from conftest import game

from ktlog.text.json_views import score_view
from ktlog.text.render import marker_text, render_state
from ktlog.tui.widgets.marker_panel import MarkerPanel


def _with_marker(**marker):
    state = game(to="battle").state
    first = next(iter(state.markers))
    state.markers[first] = msgspec.structs.replace(state.markers[first], **marker)
    return state, first


def test_show_says_a_marker_is_sabotaged():
    state, first = _with_marker(sabotaged=True, secured_by="Alice")
    assert f"{first} (secured Alice, sabotaged)" in render_state("g", state)


def test_the_marker_panel_and_show_phrase_a_marker_alike():
    state, first = _with_marker(sabotaged=True, controlled_by="Bob")
    panel = MarkerPanel()
    panel.show(state)
    assert panel._text.startswith(f"Markers: [b]{first}[/] (sabotaged, held Bob)")
    assert marker_text(state.markers[first], state) == f"{first} (sabotaged, held Bob)"


def test_the_score_status_follows_the_games_table():
    assert score_view("g", game(to="setup").state)["status"] == "setup"
    assert score_view("g", game().state)["status"] == "in progress"

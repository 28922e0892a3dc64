"""The seat's board endpoint (issue 44, item 3): `POST /api/games/GAME/seat/place` judges where a
seat's set-up or move would end as the terminal's board dialog does (`ktlog.play.placing`): the
inches counted and left against the rulebook's numbers, the rules' refusal with its page, the
levels under a spot, as far as allowed; its refusals of bad input in words; the seat's token
and rate limit as every seat route. The page in a browser: tests/test_web_seat_board_browser.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_tui_placing import battle, before_set_up
from tui_support import tiny_game

from ktlog.play import seats
from ktlog.play.session import RecordingSession
from ktlog.storage.store import Store
from ktlog.text.event_text import parse_event
from ktlog.web import seats as web_seats
from ktlog.web.app import make_app

REPOSITION = {"event": "Repositioned", "answers": [["operative", "legionary-1"]]}
SHAPE = {"error", "status", "kind"}


@contextmanager
def served(tmp_path: Path, game: Callable[[Store], str]) -> Iterator[tuple[TestClient, str, dict[str, str]]]:
    """The seat API over a database holding `game`, and both seats' tokens."""
    db = tmp_path / "board.db"
    with Store(db) as store:
        gid = game(store)
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}
    with TestClient(make_app(db, seats=True), base_url="http://127.0.0.1:8787") as client:
        yield client, gid, tokens


def activated(store: Store) -> str:
    """The close-quarters layout's battle, legionary-1 (Bob's, at 10, 9, Move 6") activated."""
    gid = battle(store)
    RecordingSession(store, gid).record(parse_event("OperativeActivated operative=legionary-1 order=engage"))
    return gid


@pytest.fixture
def board_game(tmp_path):
    with served(tmp_path, activated) as answer:
        yield answer


def place(client, gid, token, body):
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/api/games/{gid}/seat/place", json=body, headers=headers)


def test_a_reposition_counts_its_inches_against_the_move_and_draws_the_board_once(board_game):
    client, gid, tokens = board_game
    first = place(client, gid, tokens["Bob"], {**REPOSITION, "draw": True})
    assert first.status_code == 200, first.text
    spot = first.json()
    assert (spot["x"], spot["y"], spot["used"], spot["allowed"], spot["left"]) == (10, 9, 0, 6, 6)  # where it stands; a legionary's Move is 6"
    assert spot["board"]["svg"].startswith("<svg") and spot["board"]["start"] == [10, 9]
    assert spot["board"]["svg"].count('class="operative"') == 3  # the others: the page draws the one placed, where it is tapped
    four = place(client, gid, tokens["Bob"], {**REPOSITION, "x": 10, "y": 5}).json()
    assert (four["used"], four["left"], four["problem"]) == (4, 2, None) and "board" not in four
    assert four["distance"] == 'moves 4" of its Reposition\'s 6": 2" left'
    far = place(client, gid, tokens["Bob"], {**REPOSITION, "x": 10, "y": 1.5}).json()
    assert far["used"] == 8 and far["left"] == -2 and "pg" in far["problem"]  # 7.5" rounds up to 8" (pg 40): too far, with its page
    snapped = place(client, gid, tokens["Bob"], {**REPOSITION, "x": 10, "y": 0, "furthest": True}).json()
    assert (snapped["x"], snapped["y"], snapped["used"], snapped["problem"]) == (10, 3, 6, None)  # 6" along the line north


def test_a_base_on_heavy_terrain_is_refused_with_its_page(board_game):
    client, gid, tokens = board_game
    crate = place(client, gid, tokens["Bob"], {**REPOSITION, "x": 13, "y": 8}).json()  # the crate: 12-14, 7-9, Heavy
    assert crate["problem"] and "pg" in crate["problem"]


def test_a_set_up_starts_in_the_drop_zone_and_a_vantage_spot_offers_its_top(tmp_path):
    with served(tmp_path, before_set_up) as (client, gid, tokens):
        token = tokens["Alice"]
        body = {"event": "OperativeSetUp", "answers": [["operative", "sergeant"]]}
        first = place(client, gid, token, {**body, "draw": True}).json()
        assert first["board"]["start"] is None and first["used"] is None and first["problem"] is None
        assert 11 <= first["y"] <= 22 and first["distance"] == "set up in Alice's drop zone A"
        tower = place(client, gid, token, {**body, "x": 15.5, "y": 19.5}).json()  # the tower's platform: Vantage, 3" up
        assert tower["levels"] == [0, 3] and tower["z"] == 0
        assert place(client, gid, token, {**body, "x": 15.5, "y": 19.5, "z": 3}).json()["z"] == 3
        assert place(client, gid, token, {**body, "x": 5, "y": 19.5, "z": 3}).json()["z"] == 0  # off the platform: the floor


@pytest.mark.parametrize(
    ("extra", "status", "words"),
    [
        ({"x": "ten", "y": 9}, 400, "x: 'ten' is not a number of inches"),
        ({"x": True, "y": 9}, 400, "x: True is not a number"),
        ({"x": 10, "y": 40}, 400, 'y=40 is off the board (30" x 22"): y runs 0 to 22'),
        ({"x": -1, "y": 9}, 400, "x=-1 is off the board"),
        ({"x": 10}, 400, "give both x and y"),
        ({"x": 10, "y": 9, "z": "top"}, 400, "z: 'top' is not a number"),
    ],
)
def test_bad_input_is_refused_in_words(board_game, extra, status, words):
    client, gid, tokens = board_game
    r = place(client, gid, tokens["Bob"], {**REPOSITION, **extra})
    assert r.status_code == status and set(r.json()) >= SHAPE and words in r.json()["error"]


def test_a_wrong_token_another_seats_operative_and_a_move_without_a_position_are_refused(board_game):
    client, gid, tokens = board_game
    none = place(client, gid, None, REPOSITION)
    assert none.status_code == 401 and "token" in none.json()["error"].lower()
    wrong = place(client, gid, "not-a-token", REPOSITION)
    assert wrong.status_code == 401 and wrong.json()["kind"] == "no_seat"
    alice = place(client, gid, tokens["Alice"], REPOSITION)
    assert alice.status_code == 403 and alice.json()["error"] == "Repositioned of legionary-1 is not Alice's to record now"
    ended = place(client, gid, tokens["Bob"], {"event": "ActivationEnded", "answers": [["operative", "legionary-1"]]})
    assert ended.status_code == 400 and "has no position" in ended.json()["error"]
    shape = place(client, gid, tokens["Bob"], {"event": "Repositioned", "answers": "legionary-1"})
    assert shape.status_code == 400 and "a move is" in shape.json()["error"]


def test_the_taps_are_rate_limited_as_the_seats_writes(board_game, monkeypatch):
    client, gid, tokens = board_game
    monkeypatch.setattr(web_seats, "RATE_PER_S", 0.0)
    answers = [place(client, gid, tokens["Bob"], {**REPOSITION, "x": 12, "y": 9}).status_code for _ in range(web_seats.BURST + 1)]
    assert answers[: web_seats.BURST] == [200] * web_seats.BURST and answers[-1] == 429


def test_a_game_without_a_layout_has_no_board(tmp_path):
    with served(tmp_path, tiny_game) as (client, gid, tokens):
        token = tokens["Alice"]
        view = client.get(f"/api/games/{gid}/seat", headers={"authorization": f"Bearer {token}"}).json()
        assert not any("place" in m for m in view["moves"])  # the form is as it was: no board asked
        r = place(client, gid, token, {"event": "Repositioned", "answers": [["operative", "trooper-1"]], "x": 1, "y": 1})
        assert r.status_code == 409 and "no layout" in r.json()["error"]


def test_a_charge_takes_its_target_and_move_plus_2_and_must_end_within_control_range(board_game):
    client, gid, tokens = board_game
    charge = {"event": "Charged", "answers": [["operative", "legionary-1"], ["targets", "sergeant"]]}  # the sergeant 4" south
    start = place(client, gid, tokens["Bob"], {**charge, "draw": True}).json()
    assert start["allowed"] == 8 and start["problem"] and "control range" in start["problem"]  # Move 6" + 2" (pg 40), not yet within 1" of it
    reached = place(client, gid, tokens["Bob"], {**charge, "x": 10, "y": 11.5}).json()  # bases about 0.3" apart
    assert (reached["used"], reached["left"], reached["problem"]) == (3, 5, None)  # 2.5" rounds up to 3" (pg 40)

"""Positions entered by touch on the seat page (issue 44, item 3), in headless Chromium at
360x740 with touch: in a game with a layout, a set-up and a Reposition open the board on the
form, a tap sets where the operative ends and the server says what the move counts there and
what is left; an illegal tap (a base on Heavy terrain, a Reposition too far) shows the rules'
refusal with its page and Record records nothing; "As far as allowed" snaps along the line; the
stored event holds the tapped x and y. The board's script is loaded only once a form needs it,
and a game without a layout records a Reposition as before (one tap). Screenshots go to a
temporary folder, or with KTLOG_DOC_IMAGES=1 to docs/img/seat-board-*.png (docs/the-board.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_tui_placing import battle, before_set_up
from tui_support import tiny_game

from ktlog import events as ev
from ktlog.play import seats
from ktlog.play.session import RecordingSession
from ktlog.storage.store import Store
from ktlog.text.event_text import parse_event

sys.path.insert(0, str(Path(__file__).parent))
from web_server import PHONE, playwright_or_skip, running, screenshots  # noqa: E402

pytestmark = pytest.mark.browser

expect, _ = playwright_or_skip("the seat's board browser tests")

IMG = screenshots("ktlog-seat-board-shots-")
WIDTH = 30
"""The close-quarters layout's width in inches (tests/test_tui_placing.py)."""


def tap_board(page, x: float, y: float) -> None:
    """A finger on the board at (x, y) inches from its top left corner."""
    board = page.locator("#form-body svg.board")
    box = board.bounding_box()
    assert box is not None
    per_inch = box["width"] / WIDTH
    board.tap(position={"x": x * per_inch, "y": y * per_inch})


def seat_on_phone(contexts, base: str, gid: str, token: str):
    """A phone's browser on the seat's page, online; its context and page, and the page's script
    errors and refusals by its policy (CSP) as they come (a refused request's status is no error)."""
    context = contexts(**PHONE)
    page = context.pages[0]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and "Failed to load resource" not in m.text and errors.append(m.text))
    open_seat(page, base, gid, token)
    return context, page, errors


def open_seat(page, base: str, gid: str, token: str) -> None:
    page.goto(f"{base}/seat/{gid}#{token}")
    expect(page.locator("#net")).to_have_text("online")


def spot(page, x: float, y: float, said: str, verdict: str) -> None:
    """A tap on the board at (x, y), and what the page says of it (from the server)."""
    tap_board(page, x, y)
    expect(page.locator("#form-body .place .where")).to_have_text(said)
    expect(page.locator("#form-body .verdict")).to_contain_text(verdict)


def board_script_loaded(page) -> bool:
    return page.evaluate("() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/seat-board.js'))")


def payloads(db: Path, gid: str) -> list[ev.Event]:
    with Store(db) as store:
        return [e.payload for e in store.events(gid)]


def test_a_set_up_and_a_reposition_by_tap_an_illegal_spot_refused_and_as_far_as_allowed(tmp_path, contexts):
    db = tmp_path / "board.db"
    with Store(db) as store:
        setup = before_set_up(store)
        moving = battle(store)
        RecordingSession(store, moving).record(parse_event("OperativeActivated operative=legionary-1 order=engage"))
        alice_token = seats.issue(store, setup, "Alice")
        bob_token = seats.issue(store, moving, "Bob")
    IMG.mkdir(exist_ok=True)
    with running(db, seats=True) as base:
        # A set-up: the operative's button, a tap on the board, Record (3 taps).
        context, page, errors = seat_on_phone(contexts, base, setup, alice_token)
        assert not board_script_loaded(page)  # the first load is the seat's as before
        page.locator(".move[data-kind=set_up][data-value=sergeant]").tap()
        where = page.locator("#form-body .place .where")
        expect(where).to_contain_text("sergeant at x=")  # the server's first spot: its drop zone's middle
        expect(where).to_contain_text("set up in Alice's drop zone A")
        assert board_script_loaded(page)
        # On the tower's platform (Vantage, 3" up): the floor or on top, the terminal's `v`.
        spot(page, 15.5, 19.5, "sergeant at x=15.5 y=19.5 · set up in Alice's drop zone A", "")
        page.locator("#form-body .levels button", has_text="on top").tap()
        expect(where).to_have_text("sergeant at x=15.5 y=19.5 z=3 · set up in Alice's drop zone A")
        expect(page.locator("#form-body .levels button[aria-pressed=true]")).to_have_text('on top, 3"')
        spot(page, 6, 16, "sergeant at x=6 y=16 · set up in Alice's drop zone A", "Legal here: Record records it")
        page.screenshot(path=str(IMG / "seat-board-set-up.png"))
        seq = len(payloads(db, setup))
        page.locator("#form-ok").tap()
        expect(page.locator("#form")).to_be_hidden()
        set_up = payloads(db, setup)[seq]
        assert isinstance(set_up, ev.OperativeSetUp) and (set_up.operative, set_up.x, set_up.y, set_up.z) == ("sergeant", 6, 16, None)

        # A Reposition: its button opens the board on the operative (legionary-1 at 10, 9; Move 6").
        open_seat(page, base, moving, bob_token)
        page.locator(".move[data-kind=reposition]").tap()
        expect(where).to_have_text('legionary-1 at x=10 y=9 · moves 0" of its Reposition\'s 6": 6" left')
        before = len(payloads(db, moving))
        # Offline, a tap is not judged: the page says so and judges nothing itself.
        context.set_offline(True)
        tap_board(page, 10, 7)
        expect(page.locator("#form-body .verdict")).to_contain_text("Offline: the server judges every spot")
        expect(where).to_contain_text("x=10 y=9")
        context.set_offline(False)
        expect(page.locator("#net")).to_have_text("online", timeout=5000)
        # On the crate (Heavy): refused with its page, and Record records nothing.
        spot(page, 13, 8, 'legionary-1 at x=13 y=8 · moves 4" of its Reposition\'s 6": 2" left', "Not here: legionary-1's base would be on Crate")
        verdict = page.locator("#form-body .verdict")
        expect(verdict).to_contain_text("pg 56")
        # Too far: 7.5" north counts 8" of the 6".
        spot(page, 10, 1.5, 'legionary-1 at x=10 y=1.5 · moves 8" of its Reposition\'s 6": 2" too far', "(Reposition, pg 40)")
        page.screenshot(path=str(IMG / "seat-board-too-far.png"))
        page.locator("#form-ok").tap()
        expect(page.locator("#form-problem")).to_contain_text("Not recorded:")
        expect(page.locator("#form")).to_be_visible()
        assert len(payloads(db, moving)) == before
        # As far as allowed along the line: 6" north, to (10, 3).
        page.locator("#form-body button[data-action=furthest]").tap()
        expect(page.locator("#form-problem")).to_be_hidden()  # the refusal was of the spot left behind
        expect(where).to_have_text('legionary-1 at x=10 y=3 · moves 6" of its Reposition\'s 6": 0" left')
        # A tap 4" north, legal: recorded with its x and y.
        spot(page, 10, 5, 'legionary-1 at x=10 y=5 · moves 4" of its Reposition\'s 6": 2" left', "Legal here: Record records it")
        page.screenshot(path=str(IMG / "seat-board-reposition.png"))
        page.locator("#form-ok").tap()
        expect(page.locator("#form")).to_be_hidden()
        moved = payloads(db, moving)[before:]
        assert len(moved) == 1 and isinstance(moved[0], ev.Repositioned)
        assert (moved[0].operative, moved[0].x, moved[0].y, moved[0].z) == ("legionary-1", 10, 5, None)
        # Its correction from the log keeps where it ended (the position is no question of its form).
        page.locator(f"#log li[value='{before + 1}'] button", has_text="Correct").tap()
        expect(page.locator("body")).to_have_attribute("data-seq", str(before + 2))
        corrected = payloads(db, moving)[-1]
        assert isinstance(corrected, ev.EventCorrected) and (corrected.event.x, corrected.event.y) == (10, 5)
        assert errors == []  # the board drawn and tapped within the seat's strict policy
        context.close()


def test_without_a_layout_a_reposition_is_one_tap_and_no_board(tmp_path, contexts):
    db = tmp_path / "plain.db"
    with Store(db) as store:
        gid = tiny_game(store)
        RecordingSession(store, gid).record(parse_event("OperativeActivated operative=trooper-1 order=engage"))
        token = seats.issue(store, gid, "Alice")
    with running(db, seats=True) as base:
        context, page, errors = seat_on_phone(contexts, base, gid, token)
        before = len(payloads(db, gid))
        page.locator(".move[data-kind=reposition]").tap()
        expect(page.locator("body")).to_have_attribute("data-seq", str(before + 1))  # recorded at once
        expect(page.locator("#form")).to_be_hidden()
        moved = payloads(db, gid)[before:]
        assert len(moved) == 1 and isinstance(moved[0], ev.Repositioned) and moved[0].x is None
        assert not board_script_loaded(page) and errors == []
        context.close()


def test_a_charge_asks_its_target_then_the_board_and_a_new_target_a_new_board(tmp_path, contexts):
    db = tmp_path / "charge.db"
    with Store(db) as store:
        gid = battle(store)
        RecordingSession(store, gid).record(parse_event("OperativeActivated operative=legionary-1 order=engage"))
        token = seats.issue(store, gid, "Bob")
    with running(db, seats=True) as base:
        context, page, errors = seat_on_phone(contexts, base, gid, token)
        page.locator(".move[data-kind=charge]").tap()
        page.locator("#form-body .step .choice[data-value='gunner-plasma']").tap()
        where = page.locator("#form-body .place .where")
        expect(where).to_have_text('legionary-1 at x=10 y=9 · moves 0" of its Charge\'s 8": 8" left')  # Move 6" + 2" (pg 40)
        spot(page, 10, 11.5, 'legionary-1 at x=10 y=11.5 · moves 3" of its Charge\'s 8": 5" left', "Not here:")  # near the sergeant, not its target
        page.locator("#form-answered .chip[data-field=targets]").tap()  # another target: the board asks again
        page.locator("#form-body .step .choice[data-value='sergeant']").tap()
        expect(where).to_contain_text("x=10 y=9")
        spot(page, 10, 11.5, 'legionary-1 at x=10 y=11.5 · moves 3" of its Charge\'s 8": 5" left', "Legal here")
        before = len(payloads(db, gid))
        page.locator("#form-ok").tap()  # 4 taps: Charge, its target, the board, Record
        expect(page.locator("body")).to_have_attribute("data-seq", str(before + 1))
        charged = payloads(db, gid)[-1]
        assert isinstance(charged, ev.Charged) and (charged.targets, charged.x, charged.y) == (("sergeant",), 10, 11.5)
        assert errors == []
        context.close()

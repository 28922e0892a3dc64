"""Two seats in real phones' browsers (issue 23): headless Chromium at 360x740 with touch, one
browser context per player, recording one game through `ktlog serve --seats`: activations, a
shot with dice typed on the pad, a ploy by name, a dispute resolved by an accepted correction, a
conflict, a spectator's write refused, a new link ending the old one everywhere; the terminal
UI, a third face on the same database, shows the seats' events and records one the phones then
show. A whole game, signed by both: tests/test_seat_game_browser.py. Screenshots go to a
temporary folder, or with KTLOG_DOC_IMAGES=1 to docs/img/seat-*.png
(docs/recording-from-two-phones.md)."""

from __future__ import annotations

import asyncio
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import msgspec
import pytest
from click.testing import CliRunner
from tui_support import ARMED, TINY, message, press, screen_strips, tiny_game

from ktlog import events as ev
from ktlog.cli import cli
from ktlog.play import seats
from ktlog.storage.store import Store
from ktlog.text.event_text import parse_event
from ktlog.tui.app import make_app
from ktlog.web import seats as web_seats

sys.path.insert(0, str(Path(__file__).parent))
from web_server import PHONE, playwright_or_skip, running, screenshots  # noqa: E402

pytestmark = pytest.mark.browser

expect, _ = playwright_or_skip("the seat browser tests")

IMG = screenshots("ktlog-seat-shots-")
SECOND = 1000
"""A tap must reach the other seat's page within this many ms (issue 23)."""


KIT = """
[[ploys]]
name = "Brace"
kind = "firefight"
cp = 1

[[ploys]]
name = "Quick Step"
kind = "firefight"
cp = 0
"""
"""The tiny team's own firefight ploys (illustrative names and costs), offered by name."""


def _game(store: Store, tmp_path: Path) -> str:
    """tiny_game's TP1 (Alice to activate), both rosters with the KIT ploys."""
    roster_file = tmp_path / "tiny_kit.toml"
    roster_file.write_text(TINY.read_text() + KIT)
    return tiny_game(store, roster_file=roster_file)


def _tap(page, text: str) -> None:
    page.get_by_role("button", name=text, exact=True).first.tap()


def _move(page, kind: str) -> None:
    page.locator(f".move[data-kind={kind}]").first.tap()


def _choose(page, value: str) -> None:
    page.locator(f"#form-body .step .choice[data-value='{value}']").tap()


def _pad(page, digits: str) -> None:
    for d in digits:
        page.locator(f"#pad button[data-die='{d}']").tap()


def _more(page) -> None:
    if not page.locator("#more").evaluate("(d) => d.open"):
        page.locator("#more summary").tap()


def _row(page, seq: int):
    return page.locator(f"#log li[value='{seq}']")


def test_two_seats_and_the_tui_record_a_turning_point_dispute_correct_and_conflict(tmp_path, contexts):
    db = tmp_path / "seats.db"
    with Store(db) as store:
        gid = _game(store, tmp_path)
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}
    runner = CliRunner()
    IMG.mkdir(exist_ok=True)
    with running(db, seats=True) as base:
        alice_ctx = contexts(**PHONE)
        bob_ctx = contexts(**PHONE)
        alice, bob = alice_ctx.pages[0], bob_ctx.pages[0]
        alice.goto(f"{base}/seat/{gid}#{tokens['Alice']}")
        bob.goto(f"{base}/seat/{gid}#{tokens['Bob']}")
        expect(alice.locator("#who")).to_have_text("Alice's seat")
        expect(bob.locator("#net")).to_have_text("online")
        assert "#" not in alice.url  # the token left the address bar
        expect(alice.locator("#next")).to_have_text("Next: Alice activates an operative")  # in words, not `ktlog event` syntax
        # Bob has no activation to offer: it is Alice's turn. Alice activates from the move's questions.
        assert bob.locator(".move[data-kind=activate]").count() == 0
        expect(alice.locator(".move[data-kind=activate]")).to_have_count(2)  # a button for each of her two operatives, none of Bob's
        alice.locator(".move[data-kind=activate][data-value=trooper-1]").tap()
        _choose(alice, "engage")  # the last choice: recorded, no button to tap
        expect(bob.locator("#log li").first).to_contain_text("trooper-1 activates (engage)", timeout=SECOND)
        # A shot: its target, then the Rifle's 3 attack dice and 3 defence dice on the pad, the count said exactly.
        alice.locator(".move[data-kind=shoot][data-value=bob-trooper-1]").tap()  # a button for each target
        expect(alice.locator("#form-body .question[data-field=dice] .size")).to_have_text("3 dice")
        expect(alice.locator("#form-body .question[data-field=saves] .size")).to_have_text("3 dice")
        _pad(alice, "62")  # two dice for three: refused on the page, nothing sent
        alice.locator("#form-ok").tap()
        expect(alice.locator("#form-body .question[data-field=dice] .why")).to_have_text("Attack dice: 3 dice, 2 typed")
        _pad(alice, "1213")  # the third attack die, then the defence dice
        expect(alice.locator("#form-body .dice output")).to_have_text(["621", "213"])
        alice.locator("#form-ok").tap()
        expect(bob.locator("#log li").first).to_contain_text("shoots", timeout=SECOND)
        shot_seq = int(bob.locator("#log li").first.get_attribute("value"))
        # Bob's ploy by name, with its CP, during Alice's activation.
        _move(bob, "ploy")
        expect(bob.locator("#form-body .step")).to_contain_text("Brace (1CP)")
        bob.screenshot(path=str(IMG / "seat-bob-ploy.png"))
        _choose(bob, "Brace")
        bob.locator("#form-ok").tap()  # its CP: the roster's; on no operative in particular
        expect(alice.locator("#log li").first).to_contain_text("Bob uses Brace (1CP)", timeout=SECOND)
        expect(alice.locator("#score")).to_contain_text("Bob: 0 VP, 2 CP")
        # Bob disputes the shot; both pages say the result is provisional; nothing to accept yet.
        _row(bob, shot_seq).get_by_role("button", name="Dispute").tap()
        bob.locator("#fix-line").fill("the second save was a 5")
        bob.locator("#fix-send").tap()
        expect(alice.locator("#provisional")).to_contain_text(f"seq {shot_seq} disputed by Bob", timeout=SECOND)
        expect(bob.get_by_role("button", name="Withdraw")).to_be_visible()
        assert bob.get_by_role("button", name="Accept").count() == 0
        assert _row(bob, shot_seq).get_by_role("button", name="Correct").count() == 0  # not his to correct: Alice recorded it
        bob.screenshot(path=str(IMG / "seat-bob-dispute.png"))
        watching = alice_ctx.new_page()  # a spectator's game page says so too
        watching.goto(f"{base}/games/{gid}")
        expect(watching.locator(".moment-line")).to_contain_text(f"provisional: seq {shot_seq} disputed by Bob")
        watching.close()
        # Alice corrects it through the shot's form (its answers filled in), Bob accepts the correction.
        _row(alice, shot_seq).get_by_role("button", name="Correct").tap()
        saves = alice.locator("#form-body .dice[data-field=saves]")
        expect(saves.locator("output")).to_have_text("213")
        saves.tap()
        for _ in range(2):
            alice.locator("#pad button[data-die=back]").tap()
        _pad(alice, "53")
        alice.locator("#form-ok").tap()
        expect(bob.locator("#log li").first).to_contain_text("correction", timeout=SECOND)
        bob.get_by_role("button", name="Accept").tap()
        expect(alice.locator("#provisional")).to_be_hidden(timeout=SECOND)
        _move(alice, "end_activation")
        expect(bob.locator("#log li").first).to_contain_text("trooper-1 ends its activation", timeout=SECOND)
        # The table seat: the terminal UI on the same database shows the seats' events and records Bob's activation.
        head = _seq(db, gid)
        with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this thread: the TUI's gets its own
            shown = thread.submit(asyncio.run, _tui_records_an_activation(db, gid)).result()
        assert "Bob uses Brace" in shown and f"seq {shot_seq} corrected" in shown and "accepted" in shown  # the seats' events, on the terminal
        assert _seq(db, gid) == head + 1
        for page in (alice, bob):
            expect(page.locator("#log li").first).to_contain_text("bob-trooper-1 activates (engage)", timeout=SECOND)
            expect(page.locator("#log li").first).to_contain_text("the table")
        expect(bob.locator(".move[data-kind=shoot]")).to_have_count(2)  # his moves now, from the application layer: a Shoot for each of her troopers
        # A conflict: both tap at the same moment, on the same seq: one is stored, the other is told and shows the new state.
        head = _seq(db, gid)
        for page, who in ((alice, "Alice"), (bob, "Bob")):
            _more(page)
            _tap(page, "Note")
            page.locator("#fix-line").fill(f"{who} was here")
        at = alice.evaluate("() => Date.now() + 400")
        for page in (alice, bob):
            page.evaluate("(at) => setTimeout(() => document.getElementById('fix-send').click(), at - Date.now())", at)
        for page in (alice, bob):
            expect(page.locator("body")).to_have_attribute("data-seq", str(head + 1), timeout=5 * SECOND)  # both show the new state
        assert _seq(db, gid) == head + 1  # one note stored, not two
        told = [page.locator("#problem").text_content() for page in (alice, bob)]
        assert sorted("Not recorded: the game moved on" in t for t in told) == [False, True], told
        # A spectator's page cannot write: no token, 401.
        spectator = alice_ctx.new_page()
        spectator.goto(f"{base}/games/{gid}")
        status = spectator.evaluate(
            "async (game) => (await fetch(`/api/games/${game}/events`, {method: 'POST', headers: {'content-type': 'application/json'},"
            " body: JSON.stringify({line: 'Annotation target=2 text=hi'})})).status",
            gid,
        )
        assert status == 401
        spectator.close()
        # A new link for Bob ends the old one everywhere: his page's next tap is refused, and it forgets the token.
        head = _seq(db, gid)
        new_link = json.loads(runner.invoke(cli, ["--db", str(db), "seat", gid[:8], "Bob", "--json", "--url", base]).output)["url"]
        _tap(bob, "Note")
        bob.locator("#fix-line").fill("again")
        bob.locator("#fix-send").tap()
        expect(bob.locator("#problem")).to_contain_text("This seat's link was ended", timeout=SECOND)
        assert _seq(db, gid) == head
        bob.goto(f"{base}/seat/{gid}")  # reopened without the link: no seat any more
        expect(bob.locator("#problem")).to_contain_text("open your seat's link")
        bob.goto(new_link)  # the new link: his seat again
        expect(bob.locator("#who")).to_have_text("Bob's seat")
        expect(bob.locator("#net")).to_have_text("online")
        alice_ctx.close()
        bob_ctx.close()


async def _tui_records_an_activation(db: Path, gid: str) -> str:
    """The terminal UI's record screen on the database the seats write to (120x40): its text
    once open, after it records Bob's activation of bob-trooper-1 (Engage) as the table."""
    with Store(db) as store:
        async with make_app(store, screen="record", game_id=gid).run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            shown = "\n".join(strip.text for strip in screen_strips(pilot.app.screen))
            await press(pilot, "a", "1", "e")
            assert "bob-trooper-1 activates (engage)" in message(pilot.app)
    return shown


def _seq(db: Path, gid: str) -> int:
    with Store(db) as store:
        return store.state(gid).seq


def test_a_tap_made_offline_is_shown_waiting_and_sent_on_reconnect_or_refused(tmp_path, contexts):
    db = tmp_path / "seats.db"
    with Store(db) as store:
        gid = tiny_game(store)
        token = seats.issue(store, gid, "Alice")
    with running(db, seats=True) as base:
        ctx = contexts(**PHONE)
        page = ctx.pages[0]
        page.goto(f"{base}/seat/{gid}#{token}")
        expect(page.locator("#net")).to_have_text("online")
        head = _seq(db, gid)
        ctx.set_offline(True)
        expect(page.locator("#net")).to_have_text("offline", timeout=5 * SECOND)
        page.locator(".move[data-kind=activate][data-value=trooper-1]").tap()
        _choose(page, "engage")
        expect(page.locator("#net")).to_have_text("offline: 1 tap waiting")
        assert _seq(db, gid) == head  # not sent, and not lost: it waits
        ctx.set_offline(False)
        expect(page.locator("#log li").first).to_contain_text("trooper-1 activates (engage)", timeout=10 * SECOND)
        assert _seq(db, gid) == head + 1
        # Offline again, and the game moves on meanwhile (the table records): the waiting tap is refused with the reason.
        ctx.set_offline(True)
        expect(page.locator("#net")).to_have_text("offline", timeout=5 * SECOND)
        _move(page, "dash")
        with Store(db) as store:
            store.append(gid, seats_event("Repositioned operative=trooper-1"))
        ctx.set_offline(False)
        expect(page.locator("#problem")).to_contain_text("Not recorded: the game moved on", timeout=10 * SECOND)
        assert _seq(db, gid) == head + 2
        ctx.close()


def seats_event(line: str):
    return parse_event(line)


PARTS = ("who", "score", "provisional", "end", "result", "end-vp", "end-disputes", "end-signed", "sign", "next", "active", "moves", "more-moves", "undo")
"""The seat page's parts its script draws from the view (seat.js's render) and the server draws in
the page; the log is the script's alone (drawn once the page has been shown)."""
DRAWN_PARTS = """(ids) => ids.map((id) => { const e = document.getElementById(id);
  return [id, e.textContent, e.hidden, e.disabled === true, [...e.querySelectorAll('button')].map((b) => [b.className, b.dataset.kind || '', b.dataset.value || ''])]; })"""


def _drawn(ctx, url: str, script: bool) -> list:
    page = ctx.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/seat") else None)
    page.goto(url)
    if script:
        expect(page.locator("#net")).to_have_text("online")  # the script ran, drew the view again and follows the game
    parts = page.evaluate(DRAWN_PARTS, list(PARTS))
    rows = page.locator("#log li").count()
    assert (rows > 0) == script, f"{rows} log rows in the page {'with' if script else 'without'} its script"
    assert asked == [], f"the seat's view asked for again: {asked}"  # the log drawn from the view in the page
    page.close()
    return parts


def test_a_reopened_seat_is_drawn_in_its_page_as_its_script_draws_it(tmp_path, contexts):
    """First load in one round trip (issue 39 #8): the page of a seat whose cookie comes with it is
    the seat drawn (who, the score, the next step, the active operative, each move's buttons, the
    end), the stylesheet in it; with its script blocked the page shows the same text and buttons
    as the script draws from the view, mid-game with an open dispute and at the end. The log is not
    in the page: the script draws it from the view in the page, with no request of its own."""
    db = tmp_path / "seats.db"
    with Store(db) as store:
        gid = _game(store, tmp_path)
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}
    with running(db, seats=True) as base:

        def send(player: str, line: str) -> None:
            r = httpx.post(f"{base}/api/games/{gid}/events", json={"line": line}, headers={"authorization": f"Bearer {tokens[player]}"})
            assert r.status_code == 201, r.text

        cookie = [{"name": web_seats.SEAT_COOKIE, "value": tokens["Alice"], "url": f"{base}/seat/{gid}"}]
        without_script = contexts(java_script_enabled=False, **PHONE)
        with_script = contexts(**PHONE)
        for ctx in (without_script, with_script):
            ctx.add_cookies(cookie)
        send("Alice", "OperativeActivated operative=trooper-1 order=engage")
        url = f"{base}/seat/{gid}"
        served = _drawn(without_script, url, script=False)
        assert ["move", "shoot", "bob-trooper-1"] in dict((p[0], p) for p in served)["moves"][4]  # a button for each target
        assert served == _drawn(with_script, url, script=True)
        send("Alice", "Shot operative=trooper-1 weapon=Rifle target=bob-trooper-1 dice=621 saves=213")
        with Store(db) as store:
            shot = store.state(gid).seq
        send("Bob", f'EventDisputed target={shot} reason="the <b>second</b> save was a 5"')
        served = _drawn(without_script, url, script=False)
        parts = dict((p[0], p) for p in served)
        assert parts["who"][1] == "Alice's seat" and "Alice: 0 VP, 3 CP" in parts["score"][1]
        assert parts["active"][1].startswith("Active: trooper-1 · Trooper") and not parts["active"][2]
        assert "the <b>second</b> save was a 5" in parts["provisional"][1]  # a game's text, as text
        assert parts["end"][2]  # hidden: not over
        assert served == _drawn(with_script, url, script=True)
        send("Bob", "GameConceded player=Bob")
        served = _drawn(without_script, url, script=False)
        parts = dict((p[0], p) for p in served)
        assert not parts["end"][2] and parts["result"][1] == "Bob conceded, Alice wins" and parts["next"][1] == ""
        assert served == _drawn(with_script, url, script=True)
        page = with_script.new_page()  # the drawn page's buttons work once the script has attached to it
        page.goto(url)
        expect(page.locator("#net")).to_have_text("online")
        page.locator("#log li").first.get_by_role("button", name="Dispute").tap()
        expect(page.locator("#fix-what")).to_contain_text("Why is seq")
        without_script.close()
        with_script.close()


def _shoot(page, shooter: str, target: str, weapon: str) -> None:
    """The active shooter's Shoot button for the target, then its weapon: the shot's sheet open."""
    expect(page.locator("#active")).to_contain_text(shooter)
    page.locator(f".move[data-kind=shoot][data-value={target}]").tap()
    _choose(page, weapon)


def test_a_blast_shots_further_target_and_a_devastating_splash_recorded_through_the_form(tmp_path, contexts):
    """Issue 39: a Blast weapon's further target (its own attack and defence dice on the pad) and
    the operative an x" Devastating weapon's critical hits reach are asked on the shot's form, at
    360x740; the events stored are those the raw lines would have made."""
    db = tmp_path / "seats.db"
    with Store(db) as store:
        gid = tiny_game(store, roster_file=ARMED)
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}

    def stored() -> ev.Event:
        with Store(db) as store:
            return msgspec.structs.replace(store.events(gid)[-1].payload, seat=None)

    with running(db, seats=True) as base:

        def send(player: str, line: str) -> None:
            r = httpx.post(f"{base}/api/games/{gid}/events", json={"line": line}, headers={"authorization": f"Bearer {tokens[player]}"})
            assert r.status_code == 201, r.text

        ctx = contexts(**PHONE)
        page = ctx.pages[0]
        page.goto(f"{base}/seat/{gid}#{tokens['Alice']}")
        expect(page.locator("#net")).to_have_text("online")
        send("Alice", "OperativeActivated operative=gunner-1 order=engage")
        _shoot(page, "gunner-1", "bob-trooper-1", "Frag launcher")
        further = page.locator("#form-body .question[data-field=further]")
        expect(further).to_contain_text("Further targets")
        further.locator(".segment[data-value=bob-trooper-2]").tap()  # a further target: its own dice appear
        expect(page.locator("#form-body .question[data-field=further_dice] .size")).to_have_text("3 dice")
        expect(page.locator("#form-body .question[data-field=further_saves] .size")).to_have_text("3 dice, 2 in cover")
        _pad(page, "653" + "211" + "442" + "311")
        expect(page.locator("#form-body .dice output")).to_have_text(["653", "211", "442", "311"])
        page.locator("#form-body .question[data-field=further_saves]").scroll_into_view_if_needed()
        page.screenshot(path=str(IMG / "seat-blast-further-target.png"))
        page.locator("#form-ok").tap()
        expect(page.locator("#form")).to_be_hidden()
        expect(page.locator("#log li").first).to_contain_text("shoots")
        line = "Shot operative=gunner-1 weapon='Frag launcher' target=bob-trooper-1 dice=653 saves=211 further=bob-trooper-2 further_dice=442 further_saves=311"
        assert stored() == parse_event(line)
        send("Alice", "ActivationEnded operative=gunner-1")
        send("Bob", "OperativeActivated operative=bob-trooper-1 order=conceal")
        send("Bob", "ActivationEnded operative=bob-trooper-1")
        send("Alice", "OperativeActivated operative=gunner-2 order=engage")
        _shoot(page, "gunner-2", "bob-gunner-1", "Lascannon")
        splashed = page.locator("#form-body .question[data-field=splashed]")
        expect(splashed).to_contain_text('Operatives splashed (x" Devastating)')
        expect(splashed.locator(".segment[data-value=bob-gunner-1]")).to_have_count(0)  # the target itself is not splashed
        splashed.locator(".segment[data-value=bob-trooper-1]").tap()
        _pad(page, "664" + "111")
        page.locator("#form-ok").tap()
        expect(page.locator("#form")).to_be_hidden()
        line = "Shot operative=gunner-2 weapon=Lascannon target=bob-gunner-1 dice=664 saves=111 splashed=bob-trooper-1"
        assert stored() == parse_event(line)
        ctx.close()


def test_a_fights_rerolls_recorded_through_the_form(tmp_path, contexts):
    """A fight's re-rolled dice (the attacker's and the target's) are asked on the fight's sheet
    beside its dice, as a shot's are (issue 39), at 360x740: the event stored is the one the raw
    line makes, and the Command Re-roll is paid (1CP each, pg 54)."""
    db = tmp_path / "seats.db"
    with Store(db) as store:
        gid = tiny_game(store)
        token = seats.issue(store, gid, "Alice")
        for line in ("OperativeActivated operative=trooper-1 order=engage", "Charged operative=trooper-1 targets=bob-trooper-1"):
            store.append(gid, parse_event(line))
        cp = {p: store.state(gid).players[p].cp for p in ("Alice", "Bob")}
    with running(db, seats=True) as base:
        ctx = contexts(**PHONE)
        page = ctx.pages[0]
        page.goto(f"{base}/seat/{gid}#{token}")
        expect(page.locator("#net")).to_have_text("online")
        _move(page, "fight")
        weapon = page.locator("#form-body .question[data-field=target_weapon] .segment[data-value=Knife]")
        if weapon.get_attribute("aria-pressed") != "true":
            weapon.tap()
        _pad(page, "421" + "531")
        rerolls = page.locator("#form-body .question[data-field=attack_rerolls] input")
        expect(rerolls).to_be_visible()  # beside the dice, not folded under More details
        rerolls.fill("3=6/command")
        page.locator("#form-body .question[data-field=target_rerolls] input").fill("1=2/command")
        page.screenshot(path=str(IMG / "seat-fight-rerolls.png"))
        page.locator("#form-ok").tap()
        expect(page.locator("#form")).to_be_hidden()
        expect(page.locator("#log li").first).to_contain_text("fights")
        ctx.close()
    with Store(db) as store:
        stored = msgspec.structs.replace(store.events(gid)[-1].payload, seat=None)
        line = "Fought operative=trooper-1 target=bob-trooper-1 weapon=Knife target_weapon=Knife attack_dice=421 attack_rerolls=3=6/command target_dice=531 target_rerolls=1=2/command"
        assert stored == parse_event(line)
        assert {p: store.state(gid).players[p].cp for p in cp} == {p: n - 1 for p, n in cp.items()}  # each side's Command Re-roll, its own CP

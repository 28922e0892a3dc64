"""Two seats in real phones' browsers (issue 23): headless Chromium at 360x740 with touch, one
browser context per player, recording one game through `ktlog serve --seats`: activations, a
shot with dice typed on the pad, a dispute resolved by an accepted correction, a conflict, a
spectator's write and a revoked token refused, both seats signing with keys made in the browser,
and `ktlog verify` naming both signers by key. Screenshots go to docs/img/seat-*.png."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from tui_support import tiny_game

from ktlog.cli import cli
from ktlog.play import seats
from ktlog.storage.store import Store

sys.path.insert(0, str(Path(__file__).parent))
from web_server import CHROMIUM, launch_chromium, running  # noqa: E402

pytestmark = pytest.mark.browser

if CHROMIUM is None:
    pytest.skip("no Chromium found (apt-get install chromium); the seat browser tests are skipped", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed (pip install -e '.[test]')")
expect, sync_playwright = sync_api.expect, sync_api.sync_playwright

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
IMG = Path(__file__).parent.parent / "docs" / "img"
SECOND = 1000
"""A tap must reach the other seat's page within this many ms (issue 23)."""


def _tap(page, text: str) -> None:
    page.get_by_role("button", name=text, exact=True).first.tap()


def _pad(page, *groups: str) -> None:
    """Type each group of dice on the pad, OK after each."""
    for digits in groups:
        for d in digits:
            page.locator(f".pad button[data-die='{d}']").tap()
        page.locator(".pad button[data-die='ok']").tap()


def test_two_seats_record_dispute_correct_conflict_and_sign(tmp_path):
    db = tmp_path / "seats.db"
    with Store(db) as store:
        gid = tiny_game(store)
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}
    runner = CliRunner()
    with running(db, seats=True) as base, sync_playwright() as pw:
        alice_ctx = launch_chromium(pw, tmp_path / "alice", **PHONE)
        bob_ctx = launch_chromium(pw, tmp_path / "bob", **PHONE)
        alice, bob = alice_ctx.pages[0], bob_ctx.pages[0]
        alice.goto(f"{base}/seat/{gid}#{tokens['Alice']}")
        bob.goto(f"{base}/seat/{gid}#{tokens['Bob']}")
        expect(alice.locator("#who")).to_have_text("Alice's seat")
        expect(bob.locator("#net")).to_have_text("online")
        assert "#" not in alice.url  # the token left the address bar
        # Bob has no activation to offer: it is Alice's turn.
        assert bob.locator(".move[data-kind=activate]").count() == 0
        _tap(alice, "trooper-1 activates (engage)")
        expect(bob.locator("#log li").first).to_contain_text("trooper-1 activates (engage)", timeout=SECOND)
        # A shot: the pad takes the attack dice, then the defence dice.
        alice.locator(".move[data-kind=shoot]").first.tap()
        _pad(alice, "654", "213")
        expect(bob.locator("#log li").first).to_contain_text("shoots", timeout=SECOND)
        shot_seq = int(bob.locator("#log li").first.get_attribute("value"))
        IMG.mkdir(exist_ok=True)
        alice.screenshot(path=str(IMG / "seat-alice-after-shot.png"))
        # Bob disputes the shot; both pages say the result is provisional.
        bob.locator("#log li").first.get_by_role("button", name="Dispute").tap()
        bob.locator("#fix-line").fill("the second save was a 5")
        bob.locator("#fix-send").tap()
        expect(alice.locator("#provisional")).to_contain_text(f"seq {shot_seq} disputed by Bob", timeout=SECOND)
        bob.screenshot(path=str(IMG / "seat-bob-dispute.png"))
        watching = alice_ctx.new_page()  # a spectator's game page says so too
        watching.goto(f"{base}/games/{gid}")
        expect(watching.locator(".moment-line")).to_contain_text(f"provisional: seq {shot_seq} disputed by Bob")
        watching.close()
        # Alice corrects it (the old line filled in), Bob accepts the correction.
        alice.locator(f"#log li[value='{shot_seq}']").get_by_role("button", name="Correct").tap()
        assert alice.locator("#fix-line").input_value().endswith("saves=213")
        alice.locator("#fix-line").fill(alice.locator("#fix-line").input_value().replace("saves=213", "saves=253"))
        alice.locator("#fix-send").tap()
        expect(bob.locator("#log li").first).to_contain_text("correction", timeout=SECOND)
        bob.get_by_role("button", name="Accept").tap()
        expect(alice.locator("#provisional")).to_be_hidden(timeout=SECOND)
        # A conflict: both pages send a tap made on the same seq: one is stored, the other 409.
        seq = _seq(db, gid)
        answers = [
            page.evaluate(
                "async ([game, token, body]) => (await fetch(`/api/games/${game}/events`, {method: 'POST', headers: {authorization: 'Bearer ' + token,"
                " 'content-type': 'application/json'}, body: JSON.stringify(body)})).status",
                [gid, tokens[who], {"line": f"Annotation target={seq} text={who}", "expected_seq": seq + 1}],
            )
            for page, who in ((alice, "Alice"), (bob, "Bob"))
        ]
        assert sorted(answers) == [201, 409]
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
        # Both sign the game as it stands, each with a key made in its browser.
        _tap(alice, "Sign")
        expect(alice.locator("#signers")).to_contain_text("Alice", timeout=5 * SECOND)
        _tap(bob, "Sign")
        expect(bob.locator("#signers")).to_contain_text("Alice, Bob", timeout=5 * SECOND)
        bob.screenshot(path=str(IMG / "seat-bob-signed.png"))
        verify = runner.invoke(cli, ["--db", str(db), "verify", gid[:8]]).output
        assert "signed by Alice (key " in verify and ", Bob (key " in verify  # by their keys (not yet pinned in the league's keyring)
        # A revoked token: Bob's next tap is refused on his page, and nothing is stored.
        head = _seq(db, gid)
        runner.invoke(cli, ["--db", str(db), "seat", gid[:8], "Bob", "--revoke"])
        _tap(bob, "Note")
        bob.locator("#fix-line").fill("again")
        bob.locator("#fix-send").tap()
        expect(bob.locator("#problem")).to_contain_text("revoked", timeout=SECOND)
        assert _seq(db, gid) == head
        alice_ctx.close()
        bob_ctx.close()


def _seq(db: Path, gid: str) -> int:
    with Store(db) as store:
        return store.state(gid).seq


def test_a_tap_made_offline_is_shown_waiting_and_sent_on_reconnect_or_refused(tmp_path):
    db = tmp_path / "seats.db"
    with Store(db) as store:
        gid = tiny_game(store)
        token = seats.issue(store, gid, "Alice")
    with running(db, seats=True) as base, sync_playwright() as pw:
        ctx = launch_chromium(pw, tmp_path / "alice", **PHONE)
        page = ctx.pages[0]
        page.goto(f"{base}/seat/{gid}#{token}")
        expect(page.locator("#net")).to_have_text("online")
        head = _seq(db, gid)
        ctx.set_offline(True)
        expect(page.locator("#net")).to_have_text("offline", timeout=5 * SECOND)
        _tap(page, "trooper-1 activates (engage)")
        expect(page.locator("#net")).to_have_text("offline: 1 tap waiting")
        assert _seq(db, gid) == head  # not sent, and not lost: it waits
        ctx.set_offline(False)
        expect(page.locator("#log li").first).to_contain_text("trooper-1 activates (engage)", timeout=10 * SECOND)
        assert _seq(db, gid) == head + 1
        # Offline again, and the game moves on meanwhile (the table records): the waiting tap is refused with the reason.
        ctx.set_offline(True)
        expect(page.locator("#net")).to_have_text("offline", timeout=5 * SECOND)
        page.locator(".move", has_text="Dash").first.tap()
        with Store(db) as store:
            store.append(gid, seats_event("Repositioned operative=trooper-1"))
        ctx.set_offline(False)
        expect(page.locator("#problem")).to_contain_text("Not recorded: the game moved on", timeout=10 * SECOND)
        assert _seq(db, gid) == head + 2
        ctx.close()


def seats_event(line: str):
    from ktlog.text.event_text import parse_event

    return parse_event(line)

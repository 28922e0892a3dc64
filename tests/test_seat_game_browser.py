"""A whole game recorded from two phones (issue 39): two 360x740 touch pages in headless Chromium,
one per player, on `ktlog serve --seats`, every event made through its move's form
(tests/seat_driver.py), the table recording nothing after the rosters. On the way: a Hot
weapon's shot (its roll asked after the dice), two fights, "nobody" holding the objectives, a
shot the rules refuse fixed by changing one answer, a correction through the same form, a tab
closed and a browser restarted with the seat coming back from its link, both signatures as they
arrive; the end on both phones, checked against `ktlog score`. Screenshots go to a temporary
folder, or with KTLOG_DOC_IMAGES=1 to docs/img/seat-*.png (docs/recording-from-two-phones.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ktlog import events as ev
from ktlog.cli import cli
from ktlog.files.rosters import load_roster
from ktlog.play import seats
from ktlog.play.builder import GameBuilder, charge, dash, fall_back, fight, reposition, secure, shoot
from ktlog.play.seats import TABLE_ONLY
from ktlog.storage.store import Store

sys.path.insert(0, str(Path(__file__).parent))
from seat_driver import Phones, wait_for_seq, wait_until  # noqa: E402
from web_server import PHONE, launch_chromium, playwright_or_skip, running, screenshots  # noqa: E402

pytestmark = pytest.mark.browser

expect, sync_playwright = playwright_or_skip("the seat browser tests")

IMG = screenshots("ktlog-seat-game-")
TEAM = Path(__file__).parent / "fixtures" / "seat_game_team.toml"
SECOND = 1000


def seat_game() -> GameBuilder:
    """Alice and Bob, a gunner and a brawler each, four turning points of Preliminary Ops (crit op
    Secure): Alice wins 8-2. The events the phones record, in order."""
    team = load_roster(TEAM)
    g = GameBuilder(killzone="volkus", date="2026-11-28")
    g.player("Alice", team).player("Bob", team)
    g.setup(rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1)
    g.turning_point(1, {"Alice": 4, "Bob": 3}, "Alice")
    g.activate("gunner", "engage", shoot("Plasma gun (supercharge)", "bob-brawler", "6321", "541", hot=5))  # Hot: its roll, 5, does no damage
    g.activate("bob-gunner", "conceal", reposition())
    g.activate("brawler", "engage", charge("bob-brawler"), fight("Chainsword", "bob-brawler", "Chainsword", "4321", "5311"))
    g.activate("bob-brawler", "engage", fight("Chainsword", "brawler", "Chainsword", "5431", "6221"))
    g.end_turning_point(control={"centre": None, "Alice-marker": None, "Bob-marker": None})  # nobody holds a marker
    g.turning_point(2, {"Alice": 2, "Bob": 5}, "Bob")
    g.activate("bob-gunner", "conceal", reposition(), dash())
    g.activate("gunner", "engage", shoot("Plasma gun (standard)", "bob-gunner", "5432", "642"))  # at a Conceal target: not in cover
    g.activate("bob-brawler", "engage", fall_back())
    g.activate("brawler", "engage", secure("Alice-marker"))
    g.end_turning_point()
    g.turning_point(3, {"Alice": 6, "Bob": 1}, "Alice")
    g.activate("gunner", "engage", reposition(), secure("centre"))
    g.activate("bob-gunner", "engage", shoot("Plasma gun (standard)", "gunner", "6651", "442"))
    g.activate("brawler", "engage", dash())
    g.activate("bob-brawler", "engage", secure("Bob-marker"))
    g.end_turning_point()
    g.turning_point(4, {"Alice": 3, "Bob": 4}, "Bob")
    g.activate("bob-brawler", "engage", reposition())
    g.activate("gunner", "engage", shoot("Plasma gun (standard)", "bob-brawler", "5541", "311"))
    g.activate("bob-gunner", "engage", dash())
    g.activate("brawler", "engage", secure("centre"))
    return g.end_turning_point()


def test_a_whole_game_from_two_phones_with_a_refusal_a_correction_a_lost_tab_and_both_signatures(tmp_path):
    game = seat_game()
    assert {p: s.total_vp for p, s in game.state.players.items()} == {"Alice": 8, "Bob": 2}
    made = next(i for i, e in enumerate(game.events) if not isinstance(e, TABLE_ONLY))
    db = tmp_path / "phones.db"
    with Store(db) as store:
        gid = store.new_game(game.events[0], game.events[1:made])  # the table makes the game; the phones record the rest
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}
    IMG.mkdir(exist_ok=True)
    with running(db, seats=True) as base, sync_playwright() as pw, Store(db) as store:
        contexts = {p: launch_chromium(pw, tmp_path / p, **PHONE) for p in tokens}
        pages = {p: contexts[p].pages[0] for p in tokens}
        for player, page in pages.items():
            page.goto(f"{base}/seat/{gid}#{tokens[player]}")
            expect(page.locator("#net")).to_have_text("online")
        phones = Phones(pages)
        alice, bob = pages["Alice"], pages["Bob"]
        shots_at_conceal = 0
        for event in game.events[made:]:
            state = store.state(gid)
            if isinstance(event, ev.Shot) and event.hot_roll:
                hot_shot(alice, state, event)
                continue
            if isinstance(event, ev.Shot) and event.attacks[0].target == "bob-gunner" and not shots_at_conceal:
                shots_at_conceal += 1
                refused_then_fixed(alice, state.seq + 1)
                continue
            if isinstance(event, ev.TurningPointStarted) and event.turning_point == 3:
                pages["Bob"] = bob = reopened(pw, base, gid, contexts, tmp_path, bob)
                phones.pages["Bob"] = bob
            phones.record(state, event)
            if isinstance(event, ev.ObjectivesControlled):
                assert store.events(gid)[-1].payload.control == {"centre": None, "Alice-marker": None, "Bob-marker": None}  # "nobody", sent
            if isinstance(event, ev.Shot) and event.operative == "bob-gunner":
                corrected_by_form(bob, store.state(gid).seq)
        assert store.state(gid).phase == "over"
        the_end_on_both_phones(alice, bob, db, gid)
        for context in contexts.values():
            context.close()
    taps = [t for t in phones.taps if t.event in ("Shot", "Fought")]
    assert taps and max(t.taps for t in taps) <= 4, [(t.event, t.what) for t in taps]  # at most 4 taps besides the dice faces
    assert not any(t.typed_line for t in phones.taps)  # every event through its move's form


def hot_shot(alice, state, event: ev.Shot) -> None:
    """The supercharged plasma gun: its Hot roll asked on the sheet after the dice (pg 111),
    exactly one die; the shot and its roll stored."""
    shoot_at(alice, event.attacks[0].target)
    choose(alice, event.weapon)
    expect(alice.locator("#form-body .question[data-field=hot_roll] .size")).to_have_text("1 die")
    expect(alice.locator("#form-body .question[data-field=saves] .size")).to_have_text("3 dice")  # no cover: three (pg 43)
    pad(alice, "6321541")  # the attack dice fill their four, then the defence dice their three
    alice.screenshot(path=str(IMG / "seat-shot-sheet.png"))
    pad(alice, "5")
    alice.locator("#form-ok").tap()
    wait_for_seq(alice, state.seq + 1)
    assert alice.locator("#log li").first.text_content().startswith(f"{state.seq + 1} gunner shoots Plasma gun (supercharge)")
    assert "Hot roll 5" in alice.locator("#log li").first.text_content()


def refused_then_fixed(alice, seq: int) -> None:
    """A shot at a Conceal target marked in cover: the rules refuse it (pg 42); the form keeps
    every answer and marks the toggle the rule is about. The toggle changed, the defence dice ask
    for the die cover no longer retains (pg 43), and the shot is recorded."""
    shoot_at(alice, "bob-gunner")
    alice.locator("#form-body .segment[data-value='Plasma gun (standard)']").tap()  # the supercharge profile is remembered: the other one, a tap
    alice.locator("#form-body .toggle[data-field=cover]").tap()
    expect(alice.locator("#form-body .question[data-field=saves] .size")).to_have_text("2 dice")  # one retained in cover
    pad(alice, "543264")
    alice.locator("#form-ok").tap()
    cover = alice.locator("#form-body .question[data-field=cover]")
    expect(cover.locator(".why")).to_have_text(
        "Not recorded: 'bob-gunner' has a Conceal order and is in cover, so it is not a valid target (pg 42)", timeout=5 * SECOND
    )
    expect(cover).to_have_class("question marked")  # the question the rule is about, the sentence beside it
    expect(alice.locator("#form-problem")).to_be_hidden()
    assert [o.text_content() for o in alice.locator("#form-body .dice output").all()] == ["5432", "64"]  # nothing typed is lost
    alice.screenshot(path=str(IMG / "seat-refused.png"))
    alice.locator("#form-body .toggle[data-field=cover]").tap()  # the answer the rule named, changed
    expect(alice.locator("#form-body .question[data-field=saves] .size")).to_have_text("3 dice")
    pad(alice, "2")
    alice.locator("#form-ok").tap()
    wait_for_seq(alice, seq)


def corrected_by_form(bob, seq: int) -> None:
    """Bob corrects his own shot through its form, its answers filled in: one attack die."""
    bob.locator(f"#log li[value='{seq}'] button", has_text="Correct").tap()
    expect(bob.locator("#form-what")).to_have_text(f"Correct seq {seq}: Shoot")
    dice = bob.locator("#form-body .dice[data-field=dice]")
    expect(dice.locator("output")).to_have_text("6651")
    dice.tap()
    bob.locator("#pad button[data-die=back]").tap()
    bob.locator("#pad button[data-die='2']").tap()
    bob.screenshot(path=str(IMG / "seat-correction.png"))
    bob.locator("#form-ok").tap()
    wait_for_seq(bob, seq + 1)
    expect(bob.locator("#log li").first).to_contain_text(f"correction of seq {seq}: bob-gunner shoots Plasma gun (standard) at gunner (6652 vs 442)")


def reopened(pw, base: str, gid: str, contexts: dict, tmp_path: Path, bob):
    """Bob's tab is closed, and a new one opened at the seat's address (as history gives it: no
    token in it): his seat, drawn from the page's first answer. Then his browser is restarted."""
    context = contexts["Bob"]
    bob.close()
    tab = context.new_page()
    requests: list[str] = []
    tab.on("request", lambda r: requests.append(r.url))
    tab.goto(f"{base}/seat/{gid}")
    expect(tab.locator("#who")).to_have_text("Bob's seat")
    assert tab.locator("#seat-view").count() == 1  # the view came with the page
    assert not any("/seat?" in url or url.endswith("/seat") for url in requests)  # no second round trip for it
    context.close()
    contexts["Bob"] = context = launch_chromium(pw, tmp_path / "Bob", **PHONE)  # the same profile: a restarted browser
    page = context.pages[0]
    page.goto(f"{base}/seat/{gid}")
    expect(page.locator("#who")).to_have_text("Bob's seat")
    expect(page.locator("#net")).to_have_text("online")
    return page


def the_end_on_both_phones(alice, bob, db: Path, gid: str) -> None:
    """Both phones show the result and the VP by op, then each signature as it arrives."""
    score = json.loads(CliRunner().invoke(cli, ["--db", str(db), "score", gid[:8], "--json"]).output)
    totals = {p["name"]: p["vp"]["total"] for p in score["players"]}
    assert totals == {"Alice": 8, "Bob": 2} and score["result"]["winner"] == "Alice"
    for page in (alice, bob):
        expect(page.locator("#result")).to_have_text("Alice won", timeout=5 * SECOND)
        vp = page.locator("#end-vp").text_content()
        assert all(f"{name}: {total} VP" in vp for name, total in totals.items())
        expect(page.locator("#end-disputes")).to_have_text("No open dispute.")
    alice.locator("#sign").tap()
    expect(bob.locator("#end-signed")).to_have_text("Signed by Alice; waiting for Bob", timeout=5 * SECOND)  # told to the other phone
    bob.locator("#sign").tap()
    for page in (alice, bob):
        expect(page.locator("#end-signed")).to_have_text("Signed by Alice, Bob: final", timeout=5 * SECOND)
    bob.evaluate("window.scrollTo(0, 0)")
    bob.screenshot(path=str(IMG / "seat-end.png"))
    verify = CliRunner().invoke(cli, ["--db", str(db), "verify", gid[:8]]).output
    assert "signed by Alice (key " in verify and ", Bob (key " in verify


def shoot_at(page, target: str) -> None:
    """Shoot at the target: its own button when there are several (one tap), else Shoot."""
    wait_until(page, "() => !!document.querySelector('.move[data-kind=shoot]')")
    button = page.locator(f".move[data-kind=shoot][data-value='{target}']")
    (button if button.count() else page.locator(".move[data-kind=shoot]")).tap()


def choose(page, value: str) -> None:
    """Tap the choice, when there is one to make (a single legal value is taken without asking)."""
    wait_until(page, "() => !document.getElementById('form').hidden")
    choice = page.locator(f"#form-body .step .choice[data-value='{value}']")
    if choice.count():
        choice.tap()


def pad(page, digits: str) -> None:
    for die in digits:
        page.locator(f"#pad button[data-die='{die}']").tap()


def test_the_common_moves_are_above_the_fold_and_a_datacard_one_tap_away(tmp_path):
    """At 360x740 the active operative's Shoot, Fight, Charge, Dash, Reposition and End
    activation are all on the first screen; its datacard opens from the active line."""
    game = seat_game()
    cut = next(i for i, e in enumerate(game.events) if isinstance(e, ev.Charged))  # the brawler active, before its charge
    db = tmp_path / "fold.db"
    with Store(db) as store:
        gid = store.new_game(game.events[0], game.events[1:cut])
        token = seats.issue(store, gid, "Alice")
    with running(db, seats=True) as base, sync_playwright() as pw:
        context = launch_chromium(pw, tmp_path / "alice", **PHONE)
        page = context.pages[0]
        page.goto(f"{base}/seat/{gid}#{token}")
        wait_until(page, "() => document.querySelectorAll('.move').length > 0")
        for kind in ("shoot", "charge", "dash", "reposition", "end_activation"):  # (Fight: once engaged, after the charge)
            box = page.locator(f".move[data-kind={kind}]").first.bounding_box()
            assert box is not None and box["y"] + box["height"] <= 740, kind  # (Shoot: its first target's button)
        assert page.locator(".move[data-kind=charge]").count() == 1  # one Charge, its target asked
        page.screenshot(path=str(IMG / "seat-moves.png"))
        page.locator("#active button", has_text="Card").tap()
        expect(page.locator("#card-name")).to_have_text("brawler: Brawler (Alice)")
        expect(page.locator("#card-body .weapons")).to_contain_text("Chainsword")
        page.screenshot(path=str(IMG / "seat-datacard.png"))
        context.close()

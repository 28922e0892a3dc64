"""The seat API of `ktlog serve --seats` (issue 23): every status of a write, one JSON shape for
each refusal, a rule refusal worded as the command line words it, and no token in the server's
log. The page in a real browser: tests/test_web_seats_browser.py."""

from __future__ import annotations

import base64
import hashlib
import re
import sys
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from tui_support import tiny_game

from ktlog.cli import cli
from ktlog.play import seats
from ktlog.storage.store import Store
from ktlog.text.event_text import parse_event
from ktlog.web import seats as web_seats
from ktlog.web.app import make_app

sys.path.insert(0, str(Path(__file__).parent))
from web_server import running  # noqa: E402

ACTIVATE = "OperativeActivated operative=trooper-1 order=engage"
SHAPE = {"error", "status", "kind"}


@pytest.fixture
def seated(tmp_path):
    """A game in TP1 (Alice to activate) with Alice's and Bob's seats, and a second game."""
    db = tmp_path / "seats.db"
    with Store(db) as store:
        gid = tiny_game(store)
        tokens = {p: seats.issue(store, gid, p) for p in ("Alice", "Bob")}
        other = store.new_game(*_copy_of(store, gid))
        tokens["other"] = seats.issue(store, other, "Alice")
    return db, gid, tokens


def _copy_of(store, gid):
    events = [e.payload for e in store.events(gid)]
    return events[0], events[1:]


@pytest.fixture
def client(seated):
    with TestClient(make_app(seated[0], seats=True), base_url="http://127.0.0.1:8787") as c:
        yield c


def post(client, gid, token, body):
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/api/games/{gid}/events", json=body, headers=headers)


def test_a_seat_records_its_own_event_201_with_the_new_seq(client, seated):
    db, gid, tokens = seated
    r = post(client, gid, tokens["Alice"], {"line": ACTIVATE, "expected_seq": _seq(db, gid) + 1})
    assert r.status_code == 201 and r.json()["seq"] == _seq(db, gid)
    assert "set-cookie" not in r.headers
    batch = post(client, gid, tokens["Alice"], {"lines": ["Dashed operative=trooper-1", "ActivationEnded operative=trooper-1"]})
    assert batch.status_code == 201 and batch.json()["seq"] == batch.json()["first"] + 1 == _seq(db, gid)
    with Store(db) as store:
        assert {e.payload.seat for e in store.events(gid)[-3:]} == {"Alice"}


def test_401_without_a_token_or_with_a_wrong_or_revoked_one(client, seated):
    db, gid, tokens = seated
    for token in (None, "not-a-token"):
        r = post(client, gid, token, {"line": ACTIVATE})
        assert r.status_code == 401 and SHAPE <= set(r.json()) and r.headers["www-authenticate"] == "Bearer"
    with Store(db) as store:
        seats.revoke(store, gid, "Alice")
    r = post(client, gid, tokens["Alice"], {"line": ACTIVATE})
    assert r.status_code == 401 and "revoked" in r.json()["error"]


def test_403_for_another_games_token_or_an_event_not_the_seats(client, seated):
    db, gid, tokens = seated
    head = _seq(db, gid)
    r = post(client, gid, tokens["other"], {"line": ACTIVATE})
    assert r.status_code == 403 and r.json()["kind"] == "not_your_seat" and "not of game" in r.json()["error"]
    r = post(client, gid, tokens["Bob"], {"line": ACTIVATE})
    assert r.status_code == 403 and r.json()["error"].startswith("OperativeActivated is Alice's decision")
    assert _seq(db, gid) == head  # nothing stored either time
    assert post(client, gid, tokens["Alice"], {"line": ACTIVATE}).status_code == 201


def test_409_when_the_game_moved_on_with_the_current_seq(client, seated):
    db, gid, tokens = seated
    head = _seq(db, gid)
    assert post(client, gid, tokens["Alice"], {"line": ACTIVATE, "expected_seq": head + 1}).status_code == 201
    r = post(client, gid, tokens["Bob"], {"line": f"Annotation target={head} text=late", "expected_seq": head + 1})
    assert r.status_code == 409 and r.json()["seq"] == head + 1 and SHAPE <= set(r.json())
    r = post(client, gid, tokens["Alice"], {"lines": ["Dashed operative=trooper-1"], "expected_seq": head + 1})
    assert r.status_code == 409 and r.json()["seq"] == head + 1


def test_422_a_rule_refusal_worded_as_the_cli_words_it(client, seated):
    db, gid, tokens = seated
    line = "TurningPointEnded turning_point=1"  # operatives still ready: pg 36
    r = post(client, gid, tokens["Alice"], {"line": line})
    assert r.status_code == 422 and r.json()["kind"] == "rule" and r.json()["rule"].startswith("pg")
    cli_error = CliRunner().invoke(cli, ["--db", str(db), "event", gid[:8], *line.split()]).output
    assert cli_error.strip() == f"error: {r.json()['error']}"


def test_400_413_429_and_the_405_of_a_server_without_seats(client, seated, monkeypatch):
    db, gid, tokens = seated
    r = post(client, gid, tokens["Alice"], {"line": "NoSuchEvent x=1"})
    assert r.status_code == 400 and "unknown event type" in r.json()["error"] and SHAPE <= set(r.json())
    big = client.post(f"/api/games/{gid}/events", content=b'{"line": "' + b"x" * 20_000 + b'"}', headers={"authorization": f"Bearer {tokens['Alice']}"})
    assert big.status_code == 413 and big.json()["kind"] == "too_large"
    monkeypatch.setattr(web_seats, "BURST", 3)
    monkeypatch.setattr(web_seats, "RATE_PER_S", 0.001)
    statuses = [post(client, gid, tokens["Bob"], {"line": "Annotation target=2 text=hi"}).status_code for _ in range(6)]
    assert 429 in statuses and statuses.index(429) <= 3
    with TestClient(make_app(db), base_url="http://127.0.0.1:8787") as plain:
        r = post(plain, gid, tokens["Alice"], {"line": ACTIVATE})
        assert r.status_code == 405 and plain.get(f"/seat/{gid}").status_code == 404
        assert r.json() == {"error": r.json()["error"], "status": 405, "kind": "read_only"}  # the seat API's one shape
        assert "read-only" in r.json()["error"] and "--seats" in r.json()["error"]


def test_a_batch_counts_each_event_against_the_rate_limit(client, seated, monkeypatch):
    """Issue 38: 200 events in one {"lines": [...]} counted as one write."""
    db, gid, tokens = seated
    head = _seq(db, gid)
    notes = [f"Annotation target=2 text='note {i}'" for i in range(web_seats.BURST + 1)]
    r = post(client, gid, tokens["Bob"], {"lines": notes})
    assert r.status_code == 429 and f"at most {web_seats.BURST} at once" in r.json()["error"] and _seq(db, gid) == head
    monkeypatch.setattr(web_seats, "RATE_PER_S", 0.001)
    assert post(client, gid, tokens["Bob"], {"lines": notes[:15]}).status_code == 201
    r = post(client, gid, tokens["Bob"], {"lines": notes[:6]})  # 5 left in the bucket, not 19
    assert r.status_code == 429 and r.json()["kind"] == "rate" and _seq(db, gid) == head + 15


def test_a_control_character_is_an_input_problem_named_not_a_rule(client, seated):
    """Issue 38: answered 422 `kind: rule` before."""
    db, gid, tokens = seated
    head = _seq(db, gid)
    r = post(client, gid, tokens["Bob"], {"line": "Annotation target=2 text=ding\x07"})
    assert r.status_code == 400 and r.json()["kind"] == "bad_value" and "rule" not in r.json()
    assert r.json()["error"] == "field text: holds the control character U+0007; names and notes are plain text (remove it); nothing was recorded"
    assert _seq(db, gid) == head


def test_a_signature_sent_again_is_answered_as_it_is(client, seated):
    """Issue 38: a repeated POST /seat/signature answered 201 and kept nothing."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ktlog.play.signatures import signable_head, signed_bytes

    db, gid, tokens = seated
    auth = {"authorization": f"Bearer {tokens['Alice']}"}
    key = Ed25519PrivateKey.generate()
    assert client.post(f"/api/games/{gid}/seat/key", json={"public_key": key.public_key().public_bytes_raw().hex()}, headers=auth).status_code == 200
    with Store(db) as store:
        head_seq, head_hash = signable_head(store, gid)
    body = {"head_seq": head_seq, "signature": key.sign(signed_bytes(gid, head_seq, head_hash)).hex()}
    first = client.post(f"/api/games/{gid}/seat/signature", json=body, headers=auth)
    assert first.status_code == 201 and first.json()["kept"] is True
    again = client.post(f"/api/games/{gid}/seat/signature", json=body, headers=auth)
    assert again.status_code == 200 and again.json() == {
        "signer": "Alice",
        "head_seq": head_seq,
        "kept": False,
        "message": f"Alice signed seq {head_seq} already; nothing new was kept",
    }


def _move(view: dict, kind: str) -> dict:
    return next(m for m in view["moves"] if m["kind"] == kind)


def test_the_seat_view_shows_only_the_seats_moves_and_its_own_undo(client, seated):
    db, gid, tokens = seated
    auth = {"authorization": f"Bearer {tokens['Alice']}"}
    view = client.get(f"/api/games/{gid}/seat", headers=auth).json()
    activate = _move(view, "activate")  # the move as every face asks it (play.questions), not a line the page must not change
    assert activate["event"] == "OperativeActivated" and [q["field"] for q in activate["questions"]] == ["operative", "order"]
    assert [c["value"] for c in activate["questions"][0]["choices"]] == ["trooper-1", "trooper-2"]  # her own operatives only
    bob = client.get(f"/api/games/{gid}/seat", headers={"authorization": f"Bearer {tokens['Bob']}"}).json()
    assert not any(m["kind"] == "activate" for m in bob["moves"])  # Alice's turn to activate
    assert {m.get("player") for m in bob["moves"]} <= {"Bob", None}  # nothing of Alice's to offer him
    r = post(client, gid, tokens["Alice"], {"event": "OperativeActivated", "answers": [["operative", "trooper-1"], ["order", "engage"]], "view": True})
    assert r.status_code == 201 and r.json()["view"]["seq"] == r.json()["seq"]  # the page's new view comes with the answer
    view = client.get(f"/api/games/{gid}/seat", headers=auth).json()
    assert view["undoable"] == view["seq"] and view["log"][-1]["by"] == "Alice"
    shot = _move(view, "shoot")
    assert shot["fixed"] == {"operative": "trooper-1", "weapon": "Rifle"}  # the active operative, its one ranged weapon
    assert [q["field"] for q in shot["questions"]][:5] == ["target", "cover", "obscured", "dice", "saves"]  # cover first: it takes a defence die (pg 42)
    dice = shot["questions"][3]["dice"]
    assert {g["count"] for g in dice} == {3}  # the Rifle's 3 attack dice (the fixture's Atk 3)
    r = post(
        client, gid, tokens["Alice"], {"event": "Shot", "answers": [*shot["fixed"].items(), ["target", "bob-trooper-1"], ["dice", "654"], ["saves", "213"]]}
    )
    assert r.status_code == 201, r.json()
    assert post(client, gid, tokens["Bob"], {"undo": True}).status_code == 403  # not his event
    assert post(client, gid, tokens["Alice"], {"undo": True}).status_code == 201
    assert post(client, gid, tokens["Alice"], {"event": "Shot", "answers": "dice=6"}).json()["kind"] == "bad_request"


def test_every_kind_of_move_the_seat_may_record_is_offered(client, seated):
    """Fights, damage, CP, APL changes and conceding (once left to the table) come as moves;
    the rare ones marked `more`."""
    db, gid, tokens = seated
    auth = {"authorization": f"Bearer {tokens['Alice']}"}
    post(client, gid, tokens["Alice"], {"line": ACTIVATE})
    post(client, gid, tokens["Alice"], {"line": "Charged operative=trooper-1 target=bob-trooper-1"})
    view = client.get(f"/api/games/{gid}/seat", headers=auth).json()
    kinds = {m["kind"]: m for m in view["moves"]}
    assert {"fight", "ploy", "damage", "apl", "cp", "concede"} <= set(kinds)
    assert [kinds[k]["more"] for k in ("fight", "damage", "apl", "cp", "concede")] == [False, True, True, True, True]
    fight = kinds["fight"]
    assert {"target_weapon", "attack_dice", "target_dice"} <= {q["field"] for q in fight["questions"]}  # both sides' dice (pg 45)
    assert kinds["cp"]["fixed"] == {"player": "Alice"}  # her own CP only


def test_accept_is_offered_only_once_the_disputed_event_is_corrected(client, seated):
    db, gid, tokens = seated
    seq = post(client, gid, tokens["Alice"], {"line": ACTIVATE}).json()["seq"]
    post(client, gid, tokens["Bob"], {"line": f"EventDisputed target={seq} reason='conceal it was'"})
    bob = {"authorization": f"Bearer {tokens['Bob']}"}
    (dispute,) = client.get(f"/api/games/{gid}/seat", headers=bob).json()["state"]["open_disputes"]
    assert dispute["corrected"] is False
    post(client, gid, tokens["Alice"], {"correct": seq, "line": "OperativeActivated operative=trooper-1 order=conceal"})
    (dispute,) = client.get(f"/api/games/{gid}/seat", headers=bob).json()["state"]["open_disputes"]
    assert dispute["corrected"] is True


def test_the_token_never_appears_in_the_servers_log(seated, capfd):
    db, gid, tokens = seated
    with running(db, seats=True, log_level="info") as base:
        for path in ("/api/games/{g}/seat", "/seat/{g}"):
            httpx.get(base + path.format(g=gid), headers={"authorization": f"Bearer {tokens['Alice']}"})
        httpx.post(f"{base}/api/games/{gid}/events", json={"line": ACTIVATE}, headers={"authorization": f"Bearer {tokens['Alice']}"})
        httpx.post(f"{base}/api/games/{gid}/events", json={"line": ACTIVATE}, headers={"authorization": f"Bearer {tokens['Alice']}x"})
    out, err = capfd.readouterr()
    assert f"/api/games/{gid}/events" in out + err  # the access log was on
    assert tokens["Alice"] not in out + err


def _seq(db: Path, gid: str) -> int:
    with Store(db) as store:
        return store.state(gid).seq


def test_a_seat_sees_its_own_secret_choices_and_not_the_opponents(tmp_path):
    """Approved Ops' tac ops are secret until revealed: Alice's seat shows hers (in the score and
    in her log), never Bob's, in the score or the log."""
    from test_rules_approved import approved

    db = tmp_path / "secret.db"
    g = approved("battle")
    with Store(db) as store:
        gid = store.new_game(g.events[0], g.events[1:])
        token = seats.issue(store, gid, "Alice")
    with TestClient(make_app(db, seats=True), base_url="http://127.0.0.1:8787") as client:
        view = client.get(f"/api/games/{gid}/seat", headers={"authorization": f"Bearer {token}"}).json()
    players = {p["name"]: p for p in view["state"]["players"]}
    assert players["Alice"]["secrets"]["tac_op"]["choice"].startswith("Secure Centre")
    assert players["Bob"]["secrets"]["tac_op"]["choice"] == "hidden"
    texts = " | ".join(row["text"] for row in view["log"])
    assert "Secure Centre" in texts and "Overrun" not in texts


# --- issue 39: the form's server side -------------------------------------------------------------


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def test_a_refused_move_names_the_question_the_rule_is_about_in_the_forms_words(client, seated):
    """A shot at a Conceal target marked in cover (pg 42): 422 with the rule, the question to mark
    (`field`) and the sentence; worded as the command line words it in `error`."""
    db, gid, tokens = seated
    post(client, gid, tokens["Alice"], {"line": ACTIVATE})
    answers = [["operative", "trooper-1"], ["weapon", "Rifle"], ["target", "bob-trooper-1"], ["cover", "true"], ["dice", "621"], ["saves", "21"]]
    r = post(client, gid, tokens["Alice"], {"event": "Shot", "answers": answers})
    assert r.status_code == 422 and r.json()["kind"] == "rule" and r.json()["rule"] == "pg 42"
    assert r.json()["field"] == "cover" and r.json()["sentence"] == "'bob-trooper-1' has a Conceal order and is in cover, so it is not a valid target (pg 42)"
    answers[3:] = [["cover", "false"], ["dice", "621"], ["saves", "213"]]
    assert post(client, gid, tokens["Alice"], {"event": "Shot", "answers": answers}).status_code == 201


def test_a_number_answer_that_is_not_a_number_is_said_in_player_words(client, seated):
    """Issue 39: `Expected int | null, got str (field cp)` before."""
    db, gid, tokens = seated
    r = post(client, gid, tokens["Bob"], {"event": "FirefightPloyUsed", "answers": [["player", "Bob"], ["ploy", "Brace"], ["cp", "one"]]})
    assert r.status_code == 400 and r.json()["kind"] == "bad_value"
    assert r.json()["error"] == "cp: 'one' is not a whole number; type digits only (a sign for a change: +1, -1)"


def test_nobody_on_the_objectives_is_sent_and_kept(client, seated):
    """Issue 39: "nobody" was dropped by the page, and the server answered in schema words."""
    db, gid, tokens = seated
    view = client.get(f"/api/games/{gid}/seat", headers=_auth(tokens["Alice"])).json()
    control = _move(view, "control")
    holders = {q["field"]: [c["label"] for c in q["choices"]] for q in control["questions"]}
    assert holders and all(labels[0] == "nobody" for labels in holders.values())
    r = post(client, gid, tokens["Alice"], {"event": "ObjectivesControlled", "answers": [[field, ""] for field in holders]})
    assert r.status_code == 201
    with Store(db) as store:
        assert set(store.events(gid)[-1].payload.control.values()) == {None}


def test_a_seat_corrects_its_own_event_through_its_form(client, seated):
    db, gid, tokens = seated
    seq = post(client, gid, tokens["Alice"], {"line": ACTIVATE}).json()["seq"]
    form = client.get(f"/api/games/{gid}/seat/correction?seq={seq}", headers=_auth(tokens["Alice"])).json()
    assert form["move"]["kind"] == "activate" and form["answers"] == [["operative", "trooper-1"], ["order", "engage"]]
    assert form["line"] == ACTIVATE  # the fallback, typed
    refused = client.get(f"/api/games/{gid}/seat/correction?seq={seq}", headers=_auth(tokens["Bob"]))
    assert refused.status_code == 403 and "recorded by Alice's seat: dispute it instead" in refused.json()["error"]
    table = client.get(f"/api/games/{gid}/seat/correction?seq=5", headers=_auth(tokens["Alice"]))
    assert table.status_code == 403 and "recorded by the table" in table.json()["error"]
    r = post(client, gid, tokens["Alice"], {"correct": seq, "event": "OperativeActivated", "answers": [["operative", "trooper-1"], ["order", "conceal"]]})
    assert r.status_code == 201
    with Store(db) as store:
        assert store.state(gid).operatives["trooper-1"].order == "conceal"


def test_the_page_carries_the_view_of_the_seat_whose_cookie_comes_with_it(client, seated):
    """First load in one round trip (issue 39 #8): the cookie the page keeps the token in comes
    back with the page, which then holds the seat's view; no cookie or a revoked token: the page
    alone. The server never sets a cookie; the script and stylesheet are kept a year."""
    db, gid, tokens = seated
    bare = client.get(f"/seat/{gid}")
    assert bare.status_code == 200 and 'id="seat-view"' not in bare.text and "set-cookie" not in bare.headers
    client.cookies.set(web_seats.SEAT_COOKIE, tokens["Alice"], path=f"/seat/{gid}")
    page = client.get(f"/seat/{gid}")
    assert 'id="seat-view"' in page.text and '"player": "Alice"' in page.text and page.headers["cache-control"] == "no-store"
    policy = page.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe" not in policy and page.headers.get_list("content-security-policy") == [policy]
    # The stylesheet is in the page, allowed by its hash alone; nothing else to fetch before the seat is drawn.
    style = re.search(r"<style>(.*?)</style>", page.text, re.S)
    assert style and "rel='stylesheet'" not in page.text
    assert f"style-src 'self' 'sha256-{base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()}';" in policy
    assert "<h1 id='who'>Alice&#x27;s seat</h1>" in page.text  # drawn, not only carried
    script = next(p for name, p in web_seats.ASSETS.paths.items() if name == "seat.js")
    assert script in page.text
    asset = client.get(script)
    assert asset.headers["cache-control"] == "public, max-age=31536000, immutable" and asset.headers["content-type"].startswith("text/javascript")
    assert post(client, gid, None, {"line": ACTIVATE}).status_code == 401  # the cookie opens no write
    with Store(db) as store:
        seats.revoke(store, gid, "Alice")
    assert 'id="seat-view"' not in client.get(f"/seat/{gid}").text


def test_a_seats_page_is_sent_again_unread_until_the_database_changes(client, seated, monkeypatch):
    """A reopened seat's page is kept as sent (issue 39 #8): asked again while nothing was
    committed, it comes from the event loop without a read or drawing it again; an event the
    table appends (another connection), a seat's own write and a revoked link each make it
    again, current."""
    db, gid, tokens = seated
    client.cookies.set(web_seats.SEAT_COOKIE, tokens["Alice"], path=f"/seat/{gid}")
    reads = []
    made = web_seats.seat_page
    monkeypatch.setattr(web_seats, "seat_page", lambda *a, **k: reads.append(1) or made(*a, **k))
    first = client.get(f"/seat/{gid}")
    assert len(reads) == 1 and "Next: Alice activates an operative" in first.text
    assert [client.get(f"/seat/{gid}").text for _ in range(3)] == [first.text] * 3 and len(reads) == 1
    with Store(db) as table:
        table.append(gid, parse_event(ACTIVATE))
    again = client.get(f"/seat/{gid}")
    assert len(reads) == 2 and "Active: trooper-1" in again.text and f'"seq": {_seq(db, gid)}' in again.text
    assert post(client, gid, tokens["Alice"], {"line": "ActivationEnded operative=trooper-1"}).status_code == 201
    assert "Active: trooper-1" not in client.get(f"/seat/{gid}").text and len(reads) == 3
    client.get(f"/seat/{gid}")
    assert len(reads) == 3
    with Store(db) as store:
        seats.revoke(store, gid, "Alice")
    assert 'id="seat-view"' not in client.get(f"/seat/{gid}").text


def test_the_view_says_the_next_step_in_words_and_the_end(client, seated):
    db, gid, tokens = seated
    view = client.get(f"/api/games/{gid}/seat", headers=_auth(tokens["Alice"])).json()
    assert view["next"] == "Alice activates an operative" and view["result"] is None
    assert view["datacards"]["Trooper"]["weapons"][0]["name"] == "Rifle"
    assert {m["kind"]: m["title"] for m in view["moves"]}["activate"] == "Activate"
    post(client, gid, tokens["Bob"], {"line": "GameConceded player=Bob"})
    view = client.get(f"/api/games/{gid}/seat", headers=_auth(tokens["Alice"])).json()
    assert view["result"] == "Bob conceded, Alice wins" and view["next"] is None


def test_the_server_reads_a_seats_event_without_folding_the_game_again(client, seated, monkeypatch):
    """Issue 43: the state a seat's append worked out is handed to the server's reading store
    (`Source.adopt`), so the game page, the follower and the stream read the new head without
    folding the game again from a snapshot."""
    from ktlog.storage import event_log as store_module

    db, gid, tokens = seated
    assert post(client, gid, tokens["Alice"], {"line": ACTIVATE}).status_code == 201  # the seats' store opened, its state kept
    assert client.get(f"/api/games/{gid}").status_code == 200  # the reading store opened, at that head
    folds = []
    real = store_module.state_at
    monkeypatch.setattr(store_module, "state_at", lambda *args, **kwargs: folds.append(args[2]) or real(*args, **kwargs))
    r = post(client, gid, tokens["Alice"], {"line": "Dashed operative=trooper-1"})
    assert r.status_code == 201
    state = client.get(f"/api/games/{gid}").json()
    assert state["seq"] == r.json()["seq"] and folds == []
    with Store(db) as other:  # a store of its own, which did not write it, folds
        other.state(gid)
    assert folds == [r.json()["seq"]]

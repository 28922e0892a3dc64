"""Seats (issue 23): tokens, who may record what, `by` in the log, disputes, signing refused
while one is open. The web API over them is tests/test_web_seats.py."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tui_support import GAME_ID, tiny_game

from ktlog import events as ev
from ktlog.cli import cli
from ktlog.errors import KtlogError
from ktlog.play import seats
from ktlog.play.session import RecordingSession
from ktlog.play.signatures import sign
from ktlog.storage.store import Store


def test_a_token_is_stored_only_as_its_hash_and_a_new_one_or_a_revocation_ends_it(store):
    gid = tiny_game(store)
    token = seats.issue(store, gid, "Alice")
    assert len(token) >= 43  # 256 bits, base64url
    (row,) = store.seats.rows(game_id=gid)
    assert token not in json.dumps(row) and row["token_hash"] == seats.token_hash(token)
    assert seats.seat_of(store, token, gid) == seats.Seat(gid, "Alice")
    newer = seats.issue(store, gid, "Alice")
    with pytest.raises(seats.NoSeat, match="wrong, or revoked"):
        seats.seat_of(store, token, gid)
    seats.revoke(store, gid, "Alice")
    with pytest.raises(seats.NoSeat):
        seats.seat_of(store, newer, gid)
    with pytest.raises(seats.NoSeat, match="needs a seat's token"):
        seats.seat_of(store, None, gid)
    with pytest.raises(KtlogError, match="no player 'Zed'"):
        seats.issue(store, gid, "Zed")


def test_a_token_of_another_game_is_not_this_games_seat(store):
    gid = tiny_game(store)
    token = seats.issue(store, gid, "Alice")
    with pytest.raises(seats.NotYourSeat, match="Alice's seat of game"):
        seats.seat_of(store, token, "0" * 36)


def test_a_seat_records_its_own_decisions_and_the_shared_steps_not_the_opponents(store):
    gid = tiny_game(store)
    alice, bob = seats.Seat(gid, "Alice"), seats.Seat(gid, "Bob")
    session = RecordingSession(store, gid)
    with pytest.raises(seats.NotYourSeat, match="OperativeActivated is Alice's decision: Alice's seat or the table records it, not Bob's seat"):
        seats.record(session, bob, [ev.OperativeActivated(operative="trooper-1", order="engage")])
    recorded = seats.record(session, alice, [ev.OperativeActivated(operative="trooper-1", order="engage")])
    assert recorded.event.seat == "Alice"
    with pytest.raises(seats.NotYourSeat, match="a seat records as itself"):
        seats.record(session, alice, [ev.ActivationEnded(operative="trooper-1", seat="Bob")])
    with pytest.raises(seats.NotYourSeat, match=f"undoes only the events its player recorded; seq {recorded.seq} was recorded by Alice's seat"):
        seats.record(session, bob, [ev.EventVoided(target=recorded.seq)])
    seats.record(session, alice, [ev.ActivationEnded(operative="trooper-1")])
    # A shared step and a note: either seat. The table (no seat) records anything.
    seats.record(session, bob, [ev.Annotation(target=recorded.seq, text="nice")])
    session.record(ev.OperativeActivated(operative="bob-trooper-1", order="engage"))
    log = json.loads(CliRunner().invoke(cli, ["--db", str(store.path), "log", gid[:8], "--json"]).output)
    assert [e["by"] for e in log[-4:]] == ["Alice", "Alice", "Bob", "table"]


def test_a_seat_corrects_and_undoes_only_what_its_player_recorded(store):
    """Issue 38 #4: the table's set-up and initiative roll-offs, and the other seat's events, are
    disputed from a seat, not corrected; the seat's own events it corrects and undoes."""
    gid = tiny_game(store)
    alice, bob = seats.Seat(gid, "Alice"), seats.Seat(gid, "Bob")
    session = RecordingSession(store, gid)
    table_rolloff = next(seq for seq, e in session.timeline.records if isinstance(e, ev.RolledOff))
    assert session.timeline.event(table_rolloff).seat is None
    fixed = ev.EventCorrected(target=table_rolloff, event=ev.RolledOff(purpose="setup", rolls={"Alice": 1, "Bob": 6}))
    head = session.seq
    with pytest.raises(
        seats.NotYourSeat, match=f"a seat corrects only the events its player recorded; seq {table_rolloff} was recorded by the table: dispute it"
    ):
        seats.record(session, bob, [fixed])
    session.record(ev.OperativeActivated(operative="trooper-1", order="engage"))  # the table, for Alice
    with pytest.raises(seats.NotYourSeat, match="recorded by the table"):
        seats.record(session, alice, [ev.EventVoided(target=session.seq)])
    assert store.state(gid).seq == head + 1
    dashed = seats.record(session, alice, [ev.Dashed(operative="trooper-1")]).seq
    with pytest.raises(seats.NotYourSeat, match=f"seq {dashed} was recorded by Alice's seat: dispute it instead, and Alice's seat corrects it"):
        seats.record(session, bob, [ev.EventCorrected(target=dashed, event=ev.Repositioned(operative="trooper-1"))])
    seats.record(session, bob, [ev.EventDisputed(target=dashed, reason="it was a reposition")])
    seats.record(session, alice, [ev.EventCorrected(target=dashed, event=ev.Repositioned(operative="trooper-1"))])
    assert seats.record(session, alice, [ev.EventVoided(target=session.seq)]).event.seat == "Alice"


def test_a_dispute_is_answered_not_disputed(store):
    gid = tiny_game(store)
    session = RecordingSession(store, gid)
    disputed = seats.record(session, seats.Seat(gid, "Bob"), [ev.EventDisputed(target=5, reason="wrong roll")]).seq
    with pytest.raises(KtlogError, match=f"seq {disputed} is a dispute \\(of seq 5\\), which is answered, not disputed: its raiser withdraws it"):
        seats.record(session, seats.Seat(gid, "Alice"), [ev.EventDisputed(target=disputed, reason="no it was not")])
    assert session.store.state(gid).seq == disputed


def test_a_game_signed_by_every_player_is_read_only_from_the_seats(store):
    """Issue 38: after both signed, a note from the loser's seat left the signatures behind the
    head, so the game was no longer signed by both."""
    gid = tiny_game(store)
    session = RecordingSession(store, gid)
    alice, bob = seats.Seat(gid, "Alice"), seats.Seat(gid, "Bob")
    sign_as(store, gid, "Alice")
    seats.record(session, bob, [ev.Annotation(target=2, text="one signature: still open")])
    sign_as(store, gid, "Alice")
    sign_as(store, gid, "Bob")
    head = session.seq
    for seat, event in ((bob, ev.Annotation(target=2, text="sour grapes")), (alice, ev.OperativeActivated(operative="trooper-1", order="engage"))):
        with pytest.raises(seats.NotYourSeat, match="the game is signed by Alice and Bob as it stands: it is final, and a seat records nothing more"):
            seats.record(session, seat, [event])
    assert store.state(gid).seq == head and seats.signed_by_every_player(session) == ["Alice", "Bob"]  # still signed by both as it stands


def sign_as(store, gid, player):
    """The player's seat signs the game as it stands (as the page's Sign does)."""
    from ktlog.play.signatures import signable_head, signed_bytes

    key = _key()
    head_seq, head_hash = signable_head(store, gid)
    public = key.public_key().public_bytes_raw().hex()
    store.keys.add_signatures(gid, [(head_seq, player, public, key.sign(signed_bytes(gid, head_seq, head_hash)).hex())])


def test_batch_from_a_seat_is_all_or_none(store):
    gid = tiny_game(store)
    session = RecordingSession(store, gid)
    head = session.seq
    with pytest.raises(seats.NotYourSeat, match="line 2: ActivationEnded is Alice's"):
        seats.record(session, seats.Seat(gid, "Bob"), [ev.Annotation(target=2, text="x"), ev.ActivationEnded(operative="trooper-1")])
    assert store.state(gid).seq == head


def test_a_dispute_makes_the_result_provisional_and_the_game_unsignable_until_accepted(store, tmp_path):
    gid = tiny_game(store)
    session = RecordingSession(store, gid)
    alice, bob = seats.Seat(gid, "Alice"), seats.Seat(gid, "Bob")
    activated = seats.record(session, alice, [ev.OperativeActivated(operative="trooper-1", order="engage")]).seq
    disputed = seats.record(session, bob, [ev.EventDisputed(target=activated, reason="it was trooper-2")]).seq
    assert [d.target for d in session.state.open_disputes] == [activated]
    runner = CliRunner()
    score = runner.invoke(cli, ["--db", str(store.path), "score", gid[:8]]).output
    assert f"Provisional: seq {activated} disputed by Bob at seq {disputed}: it was trooper-2" in score
    assert json.loads(runner.invoke(cli, ["--db", str(store.path), "score", gid[:8], "--json"]).output)["provisional"] is True
    assert "The result is provisional: seq" in runner.invoke(cli, ["--db", str(store.path), "show", gid[:8]]).output
    with pytest.raises(KtlogError, match="1 open dispute"):
        sign(store, gid, key=("Alice", _key()))
    # Only the raiser resolves it, and accepts only a correction.
    with pytest.raises(seats.NotYourSeat, match="only the seat that raised the dispute"):
        seats.record(session, alice, [ev.DisputeResolved(dispute=disputed, outcome="withdrawn")])
    with pytest.raises(seats.NotYourSeat, match="no correction to accept yet"):
        seats.record(session, bob, [ev.DisputeResolved(dispute=disputed, outcome="accepted")])
    with pytest.raises(seats.NotYourSeat, match="recorded by Alice's seat"):  # Bob cannot correct Alice's activation himself
        seats.record(session, bob, [ev.EventCorrected(target=activated, event=ev.OperativeActivated(operative="trooper-2", order="engage"))])
    seats.record(session, alice, [ev.EventCorrected(target=activated, event=ev.OperativeActivated(operative="trooper-2", order="engage"))])
    seats.record(session, bob, [ev.DisputeResolved(dispute=disputed, outcome="accepted")])
    assert session.state.open_disputes == [] and session.state.activation.operative == "trooper-2"
    assert "rovisional" not in runner.invoke(cli, ["--db", str(store.path), "score", gid[:8]]).output
    assert sign(store, gid, key=("Alice", _key())).head_seq == session.seq


def test_ktlog_dispute_and_ktlog_seat(store, tmp_path):
    gid = tiny_game(store)
    db = str(store.path)
    store.close()
    runner = CliRunner()
    out = runner.invoke(cli, ["--db", db, "dispute", gid[:8], "5", "--reason", "wrong roll"])
    assert out.exit_code == 0 and "the result is provisional" in out.output
    again = runner.invoke(cli, ["--db", db, "dispute", gid[:8], "5", "--reason", "again"])
    assert again.exit_code == 1 and "seq 5 is disputed already" in again.output
    seat = json.loads(runner.invoke(cli, ["--db", db, "seat", gid[:8], "Bob", "--json", "--url", "http://10.0.0.2:8787"]).output)
    assert seat["player"] == "Bob" and seat["url"] == f"http://10.0.0.2:8787/seat/{gid}#{seat['token']}"
    text = runner.invoke(cli, ["--db", db, "seat", gid[:8], "Bob"]).output
    assert "the link is the key" in text and "▀" in text  # the QR code, in half blocks
    assert runner.invoke(cli, ["--db", db, "seat", gid[:8], "Bob", "--revoke"]).output.startswith("revoked Bob's seat")
    with Store(db) as again_store:
        with pytest.raises(seats.NoSeat):
            seats.seat_of(again_store, seat["token"], gid)
    assert GAME_ID == gid


def _key():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.generate()


def test_statistics_name_the_games_whose_result_is_provisional(tmp_path):
    from ktlog.data import SAMPLE_GAMES

    db = str(tmp_path / "league.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "import", str(SAMPLE_GAMES / "01_secure_kasrkin_vs_legionaries.jsonl")]).exit_code == 0
    quiet = runner.invoke(cli, ["--db", db, "stats", "standings"])
    assert "provisional" not in quiet.stderr
    gid = json.loads(runner.invoke(cli, ["--db", db, "games", "--json"]).output)[0]["id"]
    runner.invoke(cli, ["--db", db, "dispute", gid[:8], "40", "--reason", "wrong save"])
    noted = runner.invoke(cli, ["--db", db, "stats", "standings"])
    assert f"note: 1 game(s) have open disputes, so their results are provisional ({gid[:8]})" in noted.stderr


def test_by_survives_export_import_and_verify(store, tmp_path):
    gid = tiny_game(store)
    session = RecordingSession(store, gid)
    seats.record(session, seats.Seat(gid, "Alice"), [ev.OperativeActivated(operative="trooper-1", order="engage")])
    db, other = str(store.path), str(tmp_path / "other.db")
    store.close()
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "export", gid[:8], "-o", str(tmp_path / "g.jsonl")]).exit_code == 0
    imported = runner.invoke(cli, ["--db", other, "import", str(tmp_path / "g.jsonl")])
    assert imported.exit_code == 0, imported.output
    assert json.loads(runner.invoke(cli, ["--db", other, "log", gid[:8], "--json"]).output)[-1]["by"] == "Alice"
    verified = runner.invoke(cli, ["--db", other, "verify"])
    assert verified.exit_code == 0 and " ok (" in verified.output


def test_serve_with_seats_warns_that_the_links_are_the_keys(store, monkeypatch):
    from ktlog.web import app as web_app

    tiny_game(store)
    made = {}
    monkeypatch.setattr(web_app.Server, "run", lambda self, *args, **kw: made.setdefault("routes", [r.path for r in self.config.app.routes]))
    out = CliRunner().invoke(cli, ["--db", str(store.path), "serve", "--seats", "--host", "0.0.0.0"])
    assert "seats may record" in out.output and "holds a seat's link can record as that player" in out.stderr
    assert "/api/games/{game}/seat" in made["routes"]
    made.clear()
    plain = CliRunner().invoke(cli, ["--db", str(store.path), "serve"])
    assert "read-only" in plain.output and "/api/games/{game}/seat" not in made["routes"]

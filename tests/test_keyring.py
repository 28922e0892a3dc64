"""A league's keyring (issue 25, item 4): a signature counts as a player's only by the key pinned
to their name; trust on first use at import; a second key under a pinned name is a different
signer; revocation; signer names within the limits of every name; a signature's numbers
range-checked before anything is looked up or written (item 2)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES
from ktlog.files.gamelog import HeaderSignature
from ktlog.files.keys import public_hex
from ktlog.play import signatures
from ktlog.play.importer import import_file
from ktlog.storage.store import Store

GAME = SAMPLE_GAMES / "01_secure_kasrkin_vs_legionaries.jsonl"
GAME_ID = "334f68f6-0dcb-4490-9503-74563ac46dc6"
"""Alice against Bob."""


def ktlog(db: Path, *args, ok: bool | None = True):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    if ok is not None:
        assert (result.exit_code == 0) == ok, result.output
    return result


def signed_file(folder: Path, name: str, *keys: tuple[str, Ed25519PrivateKey], edit=None) -> Path:
    """The sample game's game-log file signed with each (name, key); `edit` changes each signature first."""
    with Store(":memory:") as store:
        import_file(store, GAME)
        made = [signatures.sign(store, GAME_ID, key) for key in keys]
    lines = GAME.read_bytes().split(b"\n")
    lines[0] = signatures.signed_header(lines[0], [edit(s) for s in made] if edit else made)
    path = folder / name
    path.write_bytes(b"\n".join(lines))
    return path


@pytest.fixture
def players():
    return ("Alice", Ed25519PrivateKey.generate()), ("Bob", Ed25519PrivateKey.generate())


def standings_players(db: Path) -> list[str]:
    result = ktlog(db, "stats", "standings", "--signed-by-both", "--format", "json", ok=None)
    return sorted(r["player"] for r in json.loads(result.stdout)) if result.exit_code == 0 else []


def test_one_person_with_keys_under_both_names_is_not_signed_by_both(tmp_path, players):
    """The attack of item 4: Mallory makes two keys named Alice and Bob and signs the game. With
    the players' own keys pinned, the forgery is two different signers, not "every player"."""
    (alice, alice_key), (bob, bob_key) = players
    league = tmp_path / "league.db"
    for name, key in players:
        ktlog(league, "key", "trust", name, public_hex(key))
    forged = signed_file(tmp_path, "forged.jsonl", ("Alice", Ed25519PrivateKey.generate()), ("Bob", Ed25519PrivateKey.generate()))
    out = ktlog(league, "import", forged).output
    assert "Alice? NOT the key pinned to Alice: a different signer" in out and "Bob? NOT the key pinned to Bob" in out
    assert "(every player" not in out and "new key of" not in out  # never offered for pinning under a pinned name
    assert "not every player by a pinned key" in ktlog(league, "verify").output
    assert standings_players(league) == []
    ktlog(league, "import", "--trust-new", forged)
    assert len(ktlog(league, "key", "list").output.splitlines()) == 2  # --trust-new never pins a second key under a pinned name

    genuine = signed_file(tmp_path, "genuine.jsonl", *players)
    assert "signed by Alice, Bob (every player, each by their pinned key)" in ktlog(league, "import", genuine).output
    assert "334f68f6  ok (266 events); signed by Alice, Bob (every player, each by their pinned key)" in ktlog(league, "verify").output
    assert standings_players(league) == ["Alice", "Bob"]


def test_trust_on_first_use_names_the_new_keys_and_pins_them_when_asked(tmp_path, players):
    league = tmp_path / "league.db"
    path = signed_file(tmp_path, "both.jsonl", *players)
    out = ktlog(league, "import", path).output
    (alice, alice_key), (bob, bob_key) = players
    assert f"new key of Alice: compare it with theirs (`ktlog key show`), then `ktlog key trust Alice {public_hex(alice_key)}`" in out
    assert "Alice (key " in out and "not pinned)" in out
    assert standings_players(league) == []  # names alone are not enough
    out = ktlog(league, "import", "--trust-new", path).output
    assert f"pinned the key of Alice on first use: {public_hex(alice_key)}" in out and f"pinned the key of Bob on first use: {public_hex(bob_key)}" in out
    assert "new key of" not in out
    listing = ktlog(league, "key", "list").output
    assert f"Alice  {public_hex(alice_key)}  pinned (first use, " in listing and f"Bob  {public_hex(bob_key)}  pinned (first use, " in listing
    assert standings_players(league) == ["Alice", "Bob"]


def test_a_revoked_key_counts_as_no_ones(tmp_path, players):
    league = tmp_path / "league.db"
    ktlog(league, "import", "--trust-new", signed_file(tmp_path, "both.jsonl", *players))
    alice_hex = public_hex(players[0][1])
    assert f"revoked {alice_hex} of Alice" in ktlog(league, "key", "revoke", alice_hex[:10]).output
    assert f"Alice  {alice_hex}  revoked " in ktlog(league, "key", "list").output
    assert f"Alice (revoked key {alice_hex[:16]}…)" in ktlog(league, "verify").output
    assert standings_players(league) == []
    assert "no pinned key starts with" in ktlog(league, "key", "revoke", alice_hex, ok=False).output  # once
    ktlog(league, "key", "trust", "Alice", alice_hex)  # pinned again, by hand
    assert standings_players(league) == ["Alice", "Bob"]


@pytest.mark.parametrize(
    ("args", "refusal"),
    [
        (["Alice", "12ab"], "a public key is 64 hex digits"),
        (["Alice", "z" * 64], "this is not one"),
        (["Al\x1b[31mice", "ab" * 32], "control character U+001B"),
        (["A" * 100_000, "ab" * 32], "100,000 characters is too long (at most 200)"),
        (["  ", "ab" * 32], "the name is empty"),
    ],
    ids=["short key", "not hex", "ESC in name", "long name", "empty name"],
)
def test_key_trust_refuses_what_is_not_a_name_or_a_key(tmp_path, args, refusal):
    out = ktlog(tmp_path / "league.db", "key", "trust", *args, ok=False).output
    assert refusal in out and "nothing was pinned" in out and "bug" not in out


def test_a_key_is_pinned_to_one_name(tmp_path, players):
    league = tmp_path / "league.db"
    alice_hex = public_hex(players[0][1])
    ktlog(league, "key", "trust", "Alice", alice_hex)
    assert "that key is pinned to Alice" in ktlog(league, "key", "trust", "Bob", alice_hex, ok=False).output
    ktlog(league, "import", signed_file(tmp_path, "as-bob.jsonl", ("Bob", players[0][1])))
    assert "Bob? the key pinned to Alice, not to Bob" in ktlog(league, "verify").output


@pytest.mark.parametrize(
    ("signer", "refusal"),
    [("Al\x1b]0;owned\x07ice", "holds the control character U+001B"), ("A" * 100_000, "100,000 characters is too long")],
    ids=["ESC", "100,000 characters"],
)
def test_a_signer_name_beyond_the_limits_of_every_name_is_refused_and_not_stored(tmp_path, signer, refusal):
    league = tmp_path / "league.db"
    out = ktlog(league, "import", signed_file(tmp_path, "odd.jsonl", (signer, Ed25519PrivateKey.generate()))).output
    assert f"a signature refused: field signer: {refusal}" in out and "\x1b" not in out and len(out) < 2000
    assert sqlite3.connect(league).execute("SELECT count(*) FROM signatures").fetchone()[0] == 0


def test_a_head_seq_beyond_64_bits_is_refused_as_not_holding_and_a_folder_import_goes_on(tmp_path, players):
    """Item 2: it stored the game, then "unexpected OverflowError ... a bug in ktlog", and a
    folder import stopped there without its summary."""
    folder = tmp_path / "club"
    folder.mkdir()
    signed_file(folder, "00_signed.jsonl", *players, edit=lambda s: HeaderSignature(s.signer, s.public_key, 2**64, s.signature))
    for sample in sorted(SAMPLE_GAMES.glob("0[23]_*.jsonl")):
        (folder / sample.name).write_bytes(sample.read_bytes())
    result = ktlog(tmp_path / "league.db", "import", folder)
    assert "a signature refused: head_seq 18446744073709551616 is not a seq of the game (1 to 1,000,000,000)" in result.output
    assert "3 files: 3 new, 0 extended, 0 unchanged, 0 refused" in result.output and "bug" not in result.output
    assert sqlite3.connect(tmp_path / "league.db").execute("SELECT count(*) FROM signatures").fetchone()[0] == 0


@pytest.mark.parametrize("head_seq", [0, -1, -(2**63) - 1, 10**400], ids=["0", "-1", "below int64", "400 digits"])
def test_a_signature_seq_out_of_range_never_holds(head_seq, players):
    signature = HeaderSignature("Alice", public_hex(players[0][1]), head_seq, "00" * 64)
    assert signatures.malformed(signature) and not signatures.holds(signature, GAME_ID, "00" * 32)


def test_a_file_that_only_adds_a_signature_says_so(tmp_path, players):
    # Issue 24 #25: importing a file whose events are stored and which only adds a signature said
    # "nothing to import", then named the new signer.
    league = tmp_path / "league.db"
    ktlog(league, "import", GAME)
    out = ktlog(league, "import", signed_file(tmp_path, "alice.jsonl", players[0])).output
    assert "is already in the database; its events are unchanged, and the file's 1 new signature was kept" in out and "nothing to import" not in out
    again = ktlog(league, "import", signed_file(tmp_path, "both.jsonl", *players)).output
    assert "the file's 1 new signature was kept" in again  # Alice's is kept already: Bob's is the new one
    assert "nothing to import" in ktlog(league, "import", tmp_path / "both.jsonl").output  # nothing new at all

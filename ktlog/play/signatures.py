"""Signed games: a recorder signs a game, as it stands, with their Ed25519 key; a game-log file
carries the signatures; importing it keeps those that check out, and `verify` and `stats
--signed-by-both` check them again against the stored events.

What a signature is over: the game id, a seq and the hash of that event in the game's chain,
which covers every event up to it. So a signature says "the holder of this key vouches for this
game up to this seq". It proves that the file was not changed after the signer signed it (the
hash chain alone does not: anyone can recompute it), and with both players' signatures, that
both vouch for the same events. It does not prove who holds a key: a name is what the signer
typed, so a league compares each player's key (`ktlog key show`) once, in person.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import KtlogError
from ..files.gamelog import Header, HeaderSignature
from ..files.inputs import LINE_LIMIT
from ..files.keys import load_key, public_hex
from ..storage.store import Store

CONTEXT = b"ktlog game signature v1\n"
"""Prefixed to what is signed, so a ktlog signature can never be taken for another program's."""


def signed_bytes(game_id: str, head_seq: int, head_hash: str) -> bytes:
    return CONTEXT + f"{game_id}\n{head_seq}\n{head_hash}".encode()


def sign(store: Store, game_id: str, key: tuple[str, Ed25519PrivateKey] | None = None) -> HeaderSignature:
    """This recorder's signature of the game as stored now (its head)."""
    name, private = key or load_key()
    head_seq, head_hash = signable_head(store, game_id)
    return HeaderSignature(
        signer=name, public_key=public_hex(private), head_seq=head_seq, signature=private.sign(signed_bytes(game_id, head_seq, head_hash)).hex()
    )


def signable_head(store: Store, game_id: str) -> tuple[int, str]:
    """The game's head (seq, hash) to sign; refused while a dispute of its events is open."""
    head_seq, head_hash, disputes = store.conn.execute("SELECT head_seq, head_hash, disputes FROM games WHERE id = ?", (game_id,)).fetchone()
    if disputes:
        raise KtlogError(f"game {game_id[:8]} has {disputes} open dispute(s): its result is provisional and cannot be signed until they are resolved")
    return head_seq, head_hash


def holds(signature: HeaderSignature, game_id: str, event_hash: str | None) -> bool:
    """Whether the signature is the key's over the game up to its seq, whose event has `event_hash`."""
    if event_hash is None:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(signature.public_key))
        key.verify(bytes.fromhex(signature.signature), signed_bytes(game_id, signature.head_seq, event_hash))
    except (InvalidSignature, ValueError):
        return False
    return True


def _event_hash(store: Store, game_id: str, seq: int) -> str | None:
    row = store.conn.execute("SELECT e.hash FROM events e JOIN games g USING (game_key) WHERE g.id = ? AND e.seq = ?", (game_id, seq)).fetchone()
    return row[0].hex() if row and isinstance(row[0], bytes) else None


@dataclass(frozen=True)
class Signers:
    """Who signed a game as it stands (the signatures that check out), against its players."""

    names: tuple[str, ...]
    players: tuple[str, ...]
    failed: tuple[str, ...] = ()
    """Signers whose signature does not match the stored events."""
    keys: tuple[tuple[str, str], ...] = ()
    """(signer, public key) of each signature that checks out: a name is what the signer typed,
    the key is who signed (issue 23: both seats' keys)."""

    @property
    def by_every_player(self) -> bool:
        return bool(self.players) and set(self.players) <= set(self.names)

    def describe(self) -> str:
        if not self.names and not self.failed:
            return "not signed"
        if not self.names:
            text = "no valid signature"
        elif self.by_every_player:
            text = f"signed by {', '.join(self.names)} (every player)"
        else:
            text = f"signed by {', '.join(self.names)}; not by {', '.join(p for p in self.players if p not in self.names)}"
        if self.failed:
            text += f"; the signature of {', '.join(self.failed)} does NOT match the events"
        if self.keys:
            text += "; by key " + ", ".join(f"{name} {key[:16]}" for name, key in self.keys)
        return text


def stored(store: Store, game_id: str) -> list[HeaderSignature]:
    rows = store.conn.execute("SELECT signer, public_key, head_seq, signature FROM signatures WHERE game_id = ? ORDER BY recorded_at", (game_id,))
    return [HeaderSignature(*row) for row in rows]


def signers(store: Store, game_id: str) -> Signers:
    """The stored signatures of the game as it stands, each checked again."""
    head_seq, players = store.conn.execute("SELECT head_seq, players FROM games WHERE id = ?", (game_id,)).fetchone()
    current = [s for s in stored(store, game_id) if s.head_seq == head_seq]
    event_hash = _event_hash(store, game_id, head_seq)
    good = [s for s in current if holds(s, game_id, event_hash)]
    names = [s.signer for s in good]
    keys = tuple(dict.fromkeys((s.signer, s.public_key) for s in good))
    return Signers(tuple(dict.fromkeys(names)), tuple(json.loads(players or "[]")), tuple(s.signer for s in current if s.signer not in names), keys)


def keep_from_header(store: Store, header: Header) -> Signers | None:
    """Check the signatures a game-log file carries against the stored events, keep those that
    hold, and say who signed (None for an unsigned file)."""
    if not header.signatures:
        return None
    game_id = header.game_id
    good = [s for s in header.signatures if holds(s, game_id, _event_hash(store, game_id, s.head_seq))]
    store.add_signatures(game_id, [(s.head_seq, s.signer, s.public_key, s.signature) for s in good])
    result = signers(store, game_id)
    bad = tuple(s.signer for s in header.signatures if s not in good)
    return Signers(result.names, result.players, tuple(dict.fromkeys(result.failed + bad)), result.keys)


def signed_by_every_player(store: Store) -> set[str]:
    """The games every player of which signed the game as it stands (each signature checked)."""
    ids = [g for (g,) in store.conn.execute("SELECT DISTINCT s.game_id FROM signatures s JOIN games g ON g.id = s.game_id AND g.head_seq = s.head_seq")]
    return {g for g in ids if signers(store, g).by_every_player}


def file_header(path: Path) -> Header | None:
    """The header of a game-log file if it carries signatures (read from its first line only)."""
    with open(path, "rb") as f:
        first = f.readline(LINE_LIMIT)
    if b'"signatures"' not in first:
        return None
    return msgspec.json.decode(first, type=Header)


def signed_header(line: bytes, signatures: list[HeaderSignature]) -> bytes:
    """A game-log header line carrying these signatures (each once)."""
    header = msgspec.json.decode(line, type=Header)
    return msgspec.json.encode(msgspec.structs.replace(header, signatures=tuple(dict.fromkeys(signatures))))

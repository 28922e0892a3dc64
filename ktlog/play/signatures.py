"""Signed games: a recorder signs a game, as it stands, with their Ed25519 key; a game-log file
carries the signatures; importing it keeps those that check out, and `verify` and `stats
--signed-by-both` check them again against the stored events.

What a signature is over: the game id, a seq and the hash of that event in the game's chain,
which covers every event up to it. So a signature says "the holder of this key vouches for this
game up to this seq". It proves that the file was not changed after the signer signed it (the
hash chain alone does not: anyone can recompute it), and with both players' signatures, that
both vouch for the same events. It does not prove who holds a key: a name is what the signer
typed, so a league pins each player's key in its keyring (`play.keyring`), compared once in
person, and counts a signature as a player's only by their pinned key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..envelopes import NUMBER_LIMIT, name_problem
from ..errors import KtlogError
from ..files.gamelog import Header, HeaderSignature
from ..files.inputs import LINE_LIMIT
from ..files.keys import load_key, public_hex
from ..storage.store import Store
from .keyring import Standing, public_key_problem, standing, trust

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
    head_seq, head_hash = store.listing.head(game_id)
    if disputes := store.listing.disputes(game_id):
        raise KtlogError(f"game {game_id[:8]} has {disputes} open dispute(s): its result is provisional and cannot be signed until they are resolved")
    return head_seq, head_hash


def holds(signature: HeaderSignature, game_id: str, event_hash: str | None) -> bool:
    """Whether the signature is the key's over the game up to its seq, whose event has `event_hash`."""
    if event_hash is None or malformed(signature):
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(signature.public_key))
        key.verify(bytes.fromhex(signature.signature), signed_bytes(game_id, signature.head_seq, event_hash))
    except (InvalidSignature, ValueError):
        return False
    return True


def malformed(signature: HeaderSignature) -> str | None:
    """What makes a signature from a file one ktlog never keeps: a seq out of range, a signer's
    name that is not a name (the limits of every name), a key or signature that is not hex of its
    length. Checked before anything is looked up or written."""
    if not 1 <= signature.head_seq <= NUMBER_LIMIT:
        return f"head_seq {signature.head_seq} is not a seq of the game (1 to {NUMBER_LIMIT:,})"
    if problem := name_problem(signature.signer, "signer"):
        return problem
    if problem := public_key_problem(signature.public_key):
        return f"public_key: {problem}"
    if len(signature.signature) != 128:
        return f"signature: an Ed25519 signature is 128 hex digits; this has {len(signature.signature):,} characters"
    return None


@dataclass(frozen=True)
class Signer:
    """A signature that holds: the name it was made under, its key, and how the key stands in
    the league's keyring (`play.keyring`)."""

    name: str
    public_key: str
    standing: Standing
    pinned_to: str | None = None

    def describe(self) -> str:
        key = self.public_key[:16]
        return {
            "pinned": f"{self.name} (pinned key)",
            "new": f"{self.name} (key {key}… not pinned)",
            "other key": f"{self.name}? NOT the key pinned to {self.name}: a different signer (key {key}…)",
            "key of another": f"{self.name}? the key pinned to {self.pinned_to}, not to {self.name} (key {key}…)",
            "revoked": f"{self.name} (revoked key {key}…)",
        }[self.standing]


@dataclass(frozen=True)
class Signers:
    """Who signed a game as it stands (the signatures that check out), against its players."""

    signed: tuple[Signer, ...]
    players: tuple[str, ...]
    failed: tuple[str, ...] = ()
    """Signers whose signature does not match the stored events."""
    refused: tuple[str, ...] = ()
    """Signatures a file carried that are not even well formed, each with why."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.name for s in self.signed))

    @property
    def by_every_players_key(self) -> bool:
        """Every player signed with a key pinned to their name in the league's keyring."""
        return bool(self.players) and set(self.players) <= {s.name for s in self.signed if s.standing == "pinned"}

    @property
    def new_keys(self) -> tuple[Signer, ...]:
        return tuple(s for s in self.signed if s.standing == "new")

    def describe(self) -> str:
        if not self.signed and not self.failed and not self.refused:
            return "not signed"
        if not self.signed:
            text = "no valid signature"
        elif self.by_every_players_key:
            text = f"signed by {', '.join(self.names)} (every player, each by their pinned key)"
        else:
            text = f"signed by {', '.join(s.describe() for s in self.signed)}"
            missing = [p for p in self.players if p not in self.names]
            text += f"; not by {', '.join(missing)}" if missing else "; not every player by a pinned key"
        if self.failed:
            text += f"; the signature of {', '.join(self.failed)} does NOT match the events"
        return text + "".join(f"; a signature refused: {why}" for why in self.refused)


def stored(store: Store, game_id: str) -> list[HeaderSignature]:
    return [HeaderSignature(*row) for row in store.keys.signatures(game_id)]


def signers(store: Store, game_id: str) -> Signers:
    """The stored signatures of the game as it stands, each checked again, with its key's standing."""
    game = store.game(game_id)
    head_seq, players = game.head_seq, game.players
    current = [s for s in stored(store, game_id) if s.head_seq == head_seq]
    event_hash = store.event_hash(game_id, head_seq)
    refused = {s: why for s in current if (why := malformed(s))}  # kept by an older ktlog
    good = [s for s in current if s not in refused and holds(s, game_id, event_hash)]
    signed = tuple(Signer(s.signer, s.public_key, *standing(store, s.signer, s.public_key)) for s in good)
    failed = tuple(s.signer for s in current if s not in good and s not in refused)
    return Signers(signed, tuple(players), failed, tuple(refused.values()))


def keep_from_header(store: Store, header: Header) -> Signers | None:
    """Check the signatures a game-log file carries against the stored events, keep those that
    hold, and say who signed (None for an unsigned file). A malformed one is refused before
    anything is looked up."""
    if not header.signatures:
        return None
    game_id = header.game_id
    refused = {s: why for s in header.signatures if (why := malformed(s))}
    good = [s for s in header.signatures if s not in refused and holds(s, game_id, store.event_hash(game_id, s.head_seq))]
    store.keys.add_signatures(game_id, [(s.head_seq, s.signer, s.public_key, s.signature) for s in good])
    result = signers(store, game_id)
    bad = tuple(s.signer for s in header.signatures if s not in good and s not in refused)
    return Signers(result.signed, result.players, tuple(dict.fromkeys(result.failed + bad)), tuple(dict.fromkeys(result.refused + tuple(refused.values()))))


def trust_new(store: Store, found: Signers) -> list[Signer]:
    """Pin, on first use, the new keys of a game's signatures: each under a name no key is pinned
    to, the only new key under that name (two would leave it to the league to choose)."""
    by_name: dict[str, list[Signer]] = {}
    for s in found.new_keys:
        by_name.setdefault(s.name, []).append(s)
    chosen = [keys[0] for keys in by_name.values() if len({k.public_key for k in keys}) == 1]
    for s in chosen:
        trust(store, s.name, s.public_key, how="first use")
    return chosen


def signed_by_every_player(store: Store) -> set[str]:
    """The games every player of which signed as they stand, each by the key pinned to their
    name in the league's keyring (each signature checked)."""
    return {g for g in store.keys.signed_heads() if signers(store, g).by_every_players_key}


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

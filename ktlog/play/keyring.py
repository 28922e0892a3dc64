"""A league's keyring: which public key signs for which name, kept in the league's database.

A signature proves that the holder of a key vouched for a game; the keyring says whose key it
is. A key is pinned to one name, by `ktlog key trust NAME KEY` after comparing it with its owner
(`ktlog key show`), or on first use (`ktlog import --trust-new`: the first key seen under a name
no key is pinned to). A signature then counts as a player's only when its key is pinned to that
player's name and not revoked: another key under a pinned name is a different signer, whatever
name it gives. Revoking a key (lost, or pinned by mistake) makes every signature by it count as
no one's from then on; its row is kept, so it is never taken as new again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ..envelopes import name_problem
from ..errors import KtlogError
from ..storage.store import Store

Standing = Literal["pinned", "new", "other key", "key of another", "revoked"]
"""How a signature's key stands in the keyring against the name it was made under: pinned to
that name; new (in no row, and no key is pinned to the name); another key than the one(s)
pinned to the name; pinned to another name; revoked."""


@dataclass(frozen=True)
class PinnedKey:
    name: str
    public_key: str
    how: str
    """"trusted" (`ktlog key trust`) or "first use" (`ktlog import --trust-new`)."""
    pinned_at: str
    revoked_at: str | None = None


def keys(store: Store) -> list[PinnedKey]:
    """Every key of the keyring, by name, then as pinned."""
    return [PinnedKey(*row) for row in store.keys.keyring()]


def public_key_problem(public_key: str) -> str | None:
    """Why a text is not an Ed25519 public key in hex (64 hex digits), or None."""
    if len(public_key) != 64:
        return f"a public key is 64 hex digits (`ktlog key show` prints it); this has {len(public_key):,} characters"
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
    except ValueError:
        return "a public key is 64 hex digits, 0-9 and a-f (`ktlog key show` prints it); this is not one"
    return None


def standing(store: Store, name: str, public_key: str) -> tuple[Standing, str | None]:
    """How the key stands against the name it signed under, and the name it is pinned to."""
    row = store.keys.pinned(public_key)
    if row is not None:
        pinned_to, revoked = row
        return ("revoked" if revoked else "pinned" if pinned_to == name else "key of another"), pinned_to
    return ("other key" if store.keys.has_live_key(name) else "new"), None


def trust(store: Store, name: str, public_key: str, how: str = "trusted") -> PinnedKey:
    """Pin a key to a name (a revoked one again); refused for a name or key that is not one, or a
    key pinned to another name (one key signs for one person)."""
    name, public_key = name.strip(), public_key.strip().lower()
    problem = name_problem(name, "NAME") or public_key_problem(public_key)
    if problem:
        raise KtlogError(f"{problem}; nothing was pinned")
    row = store.keys.pinned(public_key)
    if row is not None and row[0] != name and row[1] is None:
        raise KtlogError(f"that key is pinned to {row[0]}; a key signs for one name (`ktlog key revoke {public_key[:16]}` first if it was a mistake)")
    store.keys.pin(public_key, name, how)
    return next(k for k in keys(store) if k.public_key == public_key)


def revoke(store: Store, key: str) -> PinnedKey:
    """Revoke a pinned key, given whole or by a unique start of at least 8 hex digits."""
    key = key.strip().lower()
    found = [k for k in keys(store) if k.public_key.startswith(key) and k.revoked_at is None] if len(key) >= 8 else []
    if len(found) != 1:
        held = "no pinned key starts" if not found else f"{len(found)} pinned keys start"
        raise KtlogError(f"{held} with {key[:64]!r}; give at least 8 hex digits of one key `ktlog key list` shows; nothing was revoked")
    store.keys.revoke(found[0].public_key)
    return next(k for k in keys(store) if k.public_key == found[0].public_key)

"""A recorder's signing key: one Ed25519 key pair with the recorder's name, kept in the user
data folder (`KTLOG_KEYS` names another folder), readable by its owner only."""

from __future__ import annotations

import json
import os
from pathlib import Path

import platformdirs
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

from ..errors import KtlogError


def key_file() -> Path:
    folder = os.environ.get("KTLOG_KEYS")
    return (Path(folder) if folder else platformdirs.user_data_path("ktlog") / "keys") / "signing-key.json"


def public_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def create_key(name: str) -> tuple[str, Ed25519PrivateKey]:
    """A new key pair for `name`, written once (an existing key is never replaced: games signed
    with it would no longer match its owner)."""
    from ..envelopes import name_problem

    name = name.strip()
    if problem := name_problem(name, "name"):
        raise KtlogError(f"{problem}; give your name as the players' list shows it (plain text, at most 200 characters)")
    path = key_file()
    if path.exists():
        raise KtlogError(f"{path} already holds a signing key; ktlog never replaces one (move it away first to make another)")
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()).hex()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with open(fd, "w") as f:
        json.dump({"name": name, "private_key": private, "public_key": public_hex(key)}, f)
        f.flush()
        os.fsync(f.fileno())
    return name, key


def load_key() -> tuple[str, Ed25519PrivateKey]:
    """This recorder's name and private key."""
    path = key_file()
    try:
        data = json.loads(path.read_text())
        return data["name"], Ed25519PrivateKey.from_private_bytes(bytes.fromhex(data["private_key"]))
    except FileNotFoundError:
        raise KtlogError(f"no signing key at {path}; `ktlog key new YOUR-NAME` makes one") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise KtlogError(f"{path} is not a ktlog signing key ({exc}); move it away and make a new one with `ktlog key new`") from exc

"""Reading an input file safely: only a regular file (a FIFO or a device such as /dev/zero would
block or never end), and never more than a documented size."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import KtlogError

GAME_LOG_LIMIT = 64 * 2**20
"""Bytes at most in a game-log file (a long game with every datacard is under 1 MB)."""
LINE_LIMIT = 2**20
"""Bytes at most in one line of a game-log file (an event with a whole datacard is a few KB)."""


WINPROB_LIMIT = 4 * 2**20
"""Bytes at most in a win-probability model file (`ktlog analyse fit` writes one; ktlog's defaults,
four rulesets, are 15 KB)."""

ROSTER_LIMIT = 20 * 2**20
"""Bytes at most in a roster file, a BattleScribe roster or catalogue, or one unzipped from it:
many times the largest BSData catalogue."""


def read_limited(path: Path, what: str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, the limit applied while reading (a
    file growing as it is read stops at it). Anything else is refused, named, before a byte is
    read: opened without waiting (a FIFO with no writer would block), then checked to be a
    regular file by the open file itself, so nothing can swap the path in between."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise KtlogError(f"cannot read {path}: no such file") from None
    info = os.fstat(fd)  # before the file object: opening a folder's as one fails with no word of what it is
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe" if stat.S_ISFIFO(info.st_mode) else "a device or socket"
        raise KtlogError(f"{path} is {kind}, not a regular file; give the path of {what}")
    with os.fdopen(fd, "rb") as f:
        too_big = f"{path} is larger than {limit // 2**20} MB, the most ktlog reads as {what}; is it the right file?"
        if info.st_size > limit:
            raise KtlogError(too_big)
        data = f.read(limit + 1)
    if len(data) > limit:
        raise KtlogError(too_big)
    return data


def read_text(path: Path, what: str, limit: int) -> str:
    """A regular file's UTF-8 text (`read_limited`); any problem a KtlogError saying what it is."""
    try:
        return read_limited(path, what, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise KtlogError(f"{path} is not UTF-8 text; save {what} as UTF-8") from None
    except OSError as exc:
        raise KtlogError(f"cannot read {path}: {exc.strerror or exc}") from None

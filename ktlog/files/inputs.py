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


def check_regular(path: Path, what: str) -> os.stat_result | None:
    """Refuse a path that exists but is not a regular file; its stat, or None if it does not exist."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise KtlogError(f"cannot read {path}: {exc.strerror}") from exc
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe" if stat.S_ISFIFO(info.st_mode) else "a device or socket"
        raise KtlogError(f"{path} is {kind}, not a regular file; give the path of {what}")
    return info


def read_limited(path: Path, what: str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (refused with the limit named)."""
    info = check_regular(path, what)
    if info is None:
        raise KtlogError(f"cannot read {path}: no such file")
    too_big = f"{path} is larger than {limit // 2**20} MB, the most ktlog reads as {what}; is it the right file?"
    if info.st_size > limit:
        raise KtlogError(too_big)
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise KtlogError(too_big)
    return data

"""Writing a file whole or not at all: every file ktlog writes (game logs, statistics, datasets)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """`write` fills a temporary file in `path`'s folder, flushed to the disk, then renamed over
    `path`: a crash or a full disk leaves any old file as it was, never half a new one."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with open(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise

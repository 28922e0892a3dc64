"""Loaded at start-up by every Python process whose PYTHONPATH holds this folder (a server, a TUI,
a command, and the processes they start): with `KTLOG_WATCHED_DB` set, an audit hook writes to
`KTLOG_OPENS_LOG` every open of that database, its `-wal`, `-shm` or `-journal` that is not
SQLite's own (SQLite opens files in C, which raises no audit event), with the stack that made it
(tests/test_one_opener.py, issue 38)."""

import os
import sys
import traceback

_DB = os.environ.get("KTLOG_WATCHED_DB")
_LOG = os.environ.get("KTLOG_OPENS_LOG")


def _watched(path) -> bool:
    try:
        name = os.fsdecode(path)
    except TypeError:
        return False  # a file descriptor (os.fdopen): its open was seen, if it was a path
    return os.path.realpath(name) in _NAMES


def _hook(event, args):
    if event == "open" and args and not isinstance(args[0], int) and _watched(args[0]):
        stack = "".join(traceback.format_stack(limit=12)[:-1])
        fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"pid {os.getpid()} {' '.join(sys.argv)[:200]}\nopened {os.fsdecode(args[0])}\n{stack}\n".encode())
        finally:
            os.close(fd)


if _DB and _LOG:
    _NAMES = {os.path.realpath(_DB + suffix) for suffix in ("", "-wal", "-shm", "-journal")}
    sys.addaudithook(_hook)

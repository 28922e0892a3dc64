"""`ktlog serve`'s app run by uvicorn in a thread on a free port, for the tests and benchmarks
that need a real HTTP server (event streams never end, so Starlette's TestClient cannot read
them); and the headless Chromium they drive."""

from __future__ import annotations

import shutil
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ktlog.web.app import Server, make_app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's Chromium (`apt-get install chromium`), or None."""
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_chromium(playwright, profile: Path, **options):
    """A headless Chromium with a new, empty profile (Playwright's browser context)."""
    return playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True, **options)


@contextmanager
def running(db: Path, interval: float = 0.02, *, log_level: str = "warning", **settings: Any) -> Iterator[str]:
    """The server's base URL while the block runs (`settings`: make_app's)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = Server(make_app(db, interval=interval, **settings), log_level=log_level, timeout_graceful_shutdown=1)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.handle_exit(signal.SIGINT, None)
        thread.join(5)
        sock.close()

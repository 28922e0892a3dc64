"""`ktlog serve`'s app run by uvicorn in a thread on a free port, for the tests and benchmarks
that need a real HTTP server (event streams never end, so Starlette's TestClient cannot read
them); and the headless Chromium they drive."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import tempfile
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


PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
"""A phone held in one hand: a 360x740 touch screen (the seats' browser tests and benchmarks)."""


def screenshots(prefix: str) -> Path:
    """Where a browser test's screenshots go: docs/img with KTLOG_DOC_IMAGES=1 (the docs show
    them), else a new temporary folder."""
    if os.environ.get("KTLOG_DOC_IMAGES") == "1":
        return Path(__file__).parent.parent / "docs" / "img"
    return Path(tempfile.mkdtemp(prefix=prefix))


def playwright_or_skip(what: str):
    """Playwright's `expect` and `sync_playwright` for a browser test module, or the module
    skipped saying why (no Chromium, no playwright package). Called at import."""
    import pytest

    if CHROMIUM is None:
        pytest.skip(f"no Chromium found (apt-get install chromium); {what} are skipped", allow_module_level=True)
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed (pip install -e '.[test]')")
    return sync_api.expect, sync_api.sync_playwright


def launch_chromium(playwright, profile: Path, **options):
    """A headless Chromium of its own with a profile kept in `profile` (a browser closed and started
    again on it keeps its storage)."""
    return playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True, **options)


@contextmanager
def started_chromium() -> Iterator[Any]:
    """One headless Chromium (Playwright's Browser) for the tests of a module: each phone is a
    context of its own in it (the `contexts` fixture), 0.2 CPU-s against 0.65 for a browser started per phone."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


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

"""A link as a QR code drawn in text, for a phone's camera to read off a terminal."""

from __future__ import annotations

import io


def qr_text(url: str, border: int = 2) -> str:
    """The QR code of `url` in half-block characters (two rows of modules a line), with a quiet
    zone of `border` modules (phones read 2 reliably; it keeps a seat's code within 24 lines)."""
    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=border)
    return out.getvalue()

"""Text from a game shown safely: a control character or bidirectional override that an older
file holds (new events refuse them, `envelopes.check_limits`) is shown as a visible `\\uXXXX`
escape on the terminal, in the TUI, CSV, JSON, charts and HTML, never sent raw. Line breaks and
tabs of multi-line output stay as they are."""

from __future__ import annotations

import re

from ..characters import CONTROL_PATTERN

_SHOWN_RAW = "\t\n"
_UNSAFE = re.compile(CONTROL_PATTERN)


def visible(text: str, *, keep: str = "") -> str:
    """`text` with each unsafe character as `\\uXXXX` (valid inside a JSON string too); the
    characters of `keep` (of "\\t\\n": an output's own line breaks) are left as they are."""
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else f"\\u{ord(m.group()):04x}", text)


def visible_output(text: str) -> str:
    """A whole output (lines of a table, CSV or report): its own line breaks and tabs kept."""
    return visible(text, keep=_SHOWN_RAW)

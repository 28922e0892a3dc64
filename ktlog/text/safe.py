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


LONGEST_WORD = 200
"""Characters at most of one run without a space in an error message: a name or value typed 10,000
characters long is shown by its start and its length, not echoed whole (issue 38)."""
_LONG = re.compile(rf"[^\s'\"`;,]{{{LONGEST_WORD + 1},}}")


def clipped(text: str) -> str:
    """`text` with each run of more than LONGEST_WORD characters without a space, quote or comma
    shortened to its first 100 and its length."""
    return _LONG.sub(lambda m: f"{m.group()[:100]}... ({len(m.group()):,} characters)", text)

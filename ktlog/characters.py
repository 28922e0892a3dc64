"""The characters a name or a note may not hold: the boundary refuses them in new events
(`envelopes.check_limits`) and every face shows those an older file holds as visible escapes
(`text.safe`). Its own module, so a display need not load the events."""

from __future__ import annotations

import re

CONTROL_PATTERN = "[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
"""C0 controls, DEL, C1 controls, and the bidirectional overrides and isolates."""
_CONTROL_OR_TAB = re.compile(CONTROL_PATTERN)
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""The same but a tab, which free text may hold."""


def unsafe_character(text: str, *, tab: bool = False) -> str | None:
    """The first control character or bidirectional override in `text`, as U+XXXX; None if clean."""
    found = (_CONTROL if tab else _CONTROL_OR_TAB).search(text)
    return f"U+{ord(found.group()):04X}" if found else None

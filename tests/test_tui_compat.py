"""The Textual internals ktlog relies on (`ktlog.tui.compat`) still work as it expects.

Each test names the internal it checks: when a Textual release removes or changes one, this
fails first and says which, before any screen misbehaves.
"""

from __future__ import annotations

import os

import pytest
import textual
from textual.binding import Binding
from textual.widget import Widget

from ktlog.tui.compat import bindings_for_key


def broken(internal: str, what: str):
    return pytest.fail(f"Textual {textual.__version__}: {internal} {what}; update ktlog/tui/compat.py", pytrace=False)


class Counted(Widget):
    BINDINGS = [Binding("x", "cross", "Cross"), Binding("x", "other", "Other")]


def test_bindings_for_key_reads_the_bindings_map():
    try:
        found = bindings_for_key(Counted(), "x")
    except AttributeError as exc:
        broken("DOMNode._bindings.key_to_bindings", f"is gone ({exc})")
    assert [b.action for b in found] == ["cross", "other"]
    assert bindings_for_key(Counted(), "y") == []


def test_show_control_characters_updates_the_tables_content_and_text_are_made_through():
    import rich.control
    import textual.content
    from rich.text import Text
    from textual.content import Content

    from ktlog.tui.compat import show_control_characters

    for module in (textual.content, rich.control):
        if not isinstance(getattr(module, "_CONTROL_STRIP_TRANSLATE", None), dict):
            broken(f"{module.__name__}._CONTROL_STRIP_TRANSLATE", "is no longer a dict")
    show_control_characters()
    if Content("Al\x1b[2Jice").plain != "Al\\u001b[2Jice" or Text("Bob\x9b").plain != "Bob\\u009b":
        broken("Content / Text", "no longer translate their text through _CONTROL_STRIP_TRANSLATE")
    assert Content("tab\there\x07").plain == "tab\there"  # a tab stays; BEL stays deleted, as Textual does


def test_the_tui_raises_textuals_frame_rate_unless_the_user_set_one():
    """`ktlog.tui` sets TEXTUAL_FPS before Textual reads it (textual.constants.MAX_FPS, at import)."""
    import subprocess
    import sys

    code = "import ktlog.tui.app, textual.constants; print(textual.constants.MAX_FPS)"
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    assert subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip() == "240"
    mine = subprocess.run([sys.executable, "-c", code], env={**env, "TEXTUAL_FPS": "30"}, capture_output=True, text=True, check=True)
    assert mine.stdout.strip() == "30"

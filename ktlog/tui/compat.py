"""Every use of a Textual internal, in one place. Each shim says what it relies on;
tests/test_tui_compat.py fails, naming the internal, when a Textual release changes it, and
pyproject.toml pins Textual to the releases tested.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode


def bindings_for_key(node: DOMNode, key: str) -> list[Binding]:
    """The node's own bindings for a key (not its parents', not the app's): what a dialog runs
    for a key typed before it opened.

    Relies on `DOMNode._bindings`, a `textual.binding.BindingsMap`, and its
    `key_to_bindings: dict[str, list[Binding]]`.
    """
    return list(node._bindings.key_to_bindings.get(key, ()))


def show_control_characters() -> None:
    """Make every text Textual and Rich draw show a control character or bidirectional override
    as a visible escape (`text.safe.visible`), where they would send ESC, OSC ... to the terminal
    raw (a name holding ESC[2J blanked the screen): older files may hold such names.

    Relies on `textual.content._CONTROL_STRIP_TRANSLATE` and `rich.control._CONTROL_STRIP_TRANSLATE`,
    the `str.translate` tables that every `Content` and `Text` is made through (bound as default
    arguments, so they are updated in place); the characters they delete already stay deleted.
    """
    import rich.control
    import textual.content

    from ..text.safe import visible

    characters = [chr(cp) for cp in [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]]
    shown = {ord(c): visible(c) for c in characters if visible(c) != c and c not in "\t\n"}
    for table in (textual.content._CONTROL_STRIP_TRANSLATE, rich.control._CONTROL_STRIP_TRANSLATE):
        table.update({cp: text for cp, text in shown.items() if cp not in table})  # type: ignore[misc]  # typed as the stripping table (values None); a translate table takes text too

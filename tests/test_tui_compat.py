"""The Textual internals ktlog relies on (`ktlog.tui.compat`) still work as it expects.

Each test names the internal it checks: when a Textual release removes or changes one, this
fails first and says which, before any screen misbehaves.
"""

from __future__ import annotations

import inspect

import pytest
import textual
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.widgets import Static
from tui_support import tui_test

from ktlog.tui.compat import LayoutOnlyOnResize, bindings_for_key, screen_strips


def broken(internal: str, what: str):
    return pytest.fail(f"Textual {textual.__version__}: {internal} {what}; update ktlog/tui/compat.py", pytrace=False)


class Counted(LayoutOnlyOnResize, ModalScreen):
    BINDINGS = [Binding("x", "cross", "Cross"), Binding("x", "other", "Other")]

    def __init__(self):
        super().__init__()
        self.layouts: list[Size] = []
        self.mounted: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("dialog")

    def _refresh_layout(self, size=None, scroll=False) -> None:
        self.layouts.append(size)
        super()._refresh_layout(size, scroll)

    @on(events.Mount)
    def base_mounted(self) -> None:
        self.mounted.append("base")


class CountedChild(Counted):
    def on_mount(self) -> None:
        self.mounted.append("child")


class Host(App):
    def compose(self) -> ComposeResult:
        yield Static("line one\nline two")


@tui_test
async def test_screen_strips_reads_the_compositor():
    async with Host().run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        try:
            strips = screen_strips(pilot.app.screen, Size(40, 6))
        except AttributeError as exc:
            broken("Screen._compositor.render_strips", f"is gone ({exc})")
        if len(strips) != 6 or not all(isinstance(s, Strip) for s in strips):
            broken("Screen._compositor.render_strips(size)", "no longer gives one Strip a line")
        assert strips[0].text.startswith("line one")
        assert len(screen_strips(pilot.app.screen)) == 6  # the screen's own size by default


def test_bindings_for_key_reads_the_bindings_map():
    try:
        found = bindings_for_key(Counted(), "x")
    except AttributeError as exc:
        broken("DOMNode._bindings.key_to_bindings", f"is gone ({exc})")
    assert [b.action for b in found] == ["cross", "other"]
    assert bindings_for_key(Counted(), "y") == []


@tui_test
async def test_a_screen_lays_out_again_only_when_its_size_changes():
    hook = getattr(Screen, "_screen_resized", None)
    if hook is None or list(inspect.signature(hook).parameters) != ["self", "size"]:
        broken("Screen._screen_resized(size)", "is gone or takes other arguments")
    if not isinstance(Counted()._size, Size):
        broken("Widget._size", "is no longer the widget's Size")
    async with Host().run_test(size=(40, 6)) as pilot:
        screen = CountedChild()
        await pilot.app.push_screen(screen)
        await pilot.pause()
        first = list(screen.layouts)
        screen._screen_resized(screen.size)  # what the App sends a new screen after its first layout
        assert screen.layouts == first, "an unchanged size laid the screen out again"
        await pilot.resize_terminal(50, 8)
        await pilot.pause()
        if Size(50, 8) not in screen.layouts:
            broken("App -> Screen._screen_resized", "is no longer how a resize reaches a screen")
        assert screen.mounted == ["child", "base"]  # a decorated Mount handler runs beside a subclass's on_mount


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

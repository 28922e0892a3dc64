"""Dialogs drawn as a layer of the screen that asks: a band across the screen's middle, Esc
cancels, keys typed ahead are taken, and the screen under it stays as it is (no new screen laid
out over it). The band is as wide as the screen, so every line is either the dialog's or the
screen's, whole: no line of the log cut by the dialog's edge (issue 16 #7).

A `DialogHost` screen shows a `Modal` on its `dialog` layer (a dialog opened from a dialog goes
on the `over` layer, above it): `await screen.ask(dialog)` from a worker, or
`screen.show_dialog(dialog, then)` from a handler. While a dialog is open it has the focus, the host's
own keys are off (`check_action`), and the footer shows the dialog's keys. Closing it removes it
and gives the focus back to where it was.

A fast typist at the table presses the next keys before the next dialog is on screen. The
record screen keeps those keys (`KtlogApp.typeahead`); each dialog takes them in order as it
opens, as if they were typed into it, and hands back whatever is left once it closes, for the
dialog after it. So "a 1 e" activates the first operative with Engage however fast it is typed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.screen import Screen
from textual.widget import Widget

from ..compat import bindings_for_key
from ..messages import Answered
from ..typed_app import InKtlogApp


class Modal(InKtlogApp, Vertical, can_focus=True):
    """A dialog (styled in dialogs.tcss, which its host screen loads)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    closed = False
    opened = False
    """Mounted, its typeahead taken: keys now come to it."""
    reply: Callable[[Any], Any] | None = None
    """What is done with the answer (`DialogHost.show_dialog`)."""
    return_focus: Widget | None = None
    """What had the focus when the dialog opened: it gets it back when the dialog closes."""

    if TYPE_CHECKING:

        @property
        def screen(self) -> DialogHost:
            """A dialog is shown only by a `DialogHost` (`show_dialog`)."""
            ...

    @on(events.Mount)
    def opening(self) -> None:
        """Take the focus at once, so that the footer's keys and the focused field's style
        are drawn in the dialog's first frame (taken after it, they cost a second layout and
        repaint, 20-40 ms); open once the whole dialog is on screen (after a subclass's own
        `on_mount`)."""
        self.screen.set_focus(self.first_focus())
        self.call_after_refresh(self.take_typeahead)

    async def take_typeahead(self) -> None:
        """Take the keys typed before the dialog was open."""
        keys = self.app.take_typeahead() if hasattr(self.app, "take_typeahead") else []
        while keys and not self.closed:
            await self.feed(*keys.pop(0))
        if keys:
            self.app.typeahead[:0] = keys
        self.opened = True

    def first_focus(self) -> Widget:
        """What takes the focus when the dialog opens: its first field, else itself."""
        return next((w for w in self.query("*") if w.can_focus), self)

    @property
    def focused(self) -> Widget | None:
        """The widget of the dialog with the focus."""
        return self.screen.focused

    async def feed(self, key: str, character: str | None) -> None:
        """Take one key typed ahead (by default: run the dialog's binding for it, if any)."""
        for binding in bindings_for_key(self, key):
            await self.run_action(binding.action)
            return

    def dismiss(self, result: Any = None) -> None:
        """Close with `result` (None: cancelled)."""
        if self.closed:
            return
        self.closed = True
        host = self.screen
        assert isinstance(host, DialogHost)
        host.close(self)
        host.post_message(Answered(self, result))

    def action_cancel(self) -> None:
        self.dismiss(None)


class DialogLayer(Container):
    """Where a screen's dialogs are mounted (one for the first dialog, one for a dialog opened
    from it), hidden while it holds none open. A dialog removed from a hidden layer costs no
    repaint; removed from the screen itself, it repainted the whole screen one frame (30-40 ms)
    after the frame that showed its answer."""


class DialogHost(Screen):
    """A screen that shows dialogs (`Modal`) as a layer over itself."""

    CSS_PATH = "dialogs.tcss"

    def __init__(self) -> None:
        super().__init__()
        self.dialogs: list[Modal] = []
        """The open dialogs, the newest last."""

    @on(events.Mount)
    def add_dialog_layers(self) -> None:
        self.mount(DialogLayer(), DialogLayer(classes="-over"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The screen's own keys are off while a dialog is open: its keys only."""
        return not self.dialogs

    def show_dialog(self, dialog: Modal, then: Callable[[Any], Any] | None = None) -> None:
        """Open a dialog; `then(answer)` once it closes (None when cancelled)."""
        dialog.reply = then
        layer = self.query_children(DialogLayer)[1 if self.dialogs else 0]
        dialog.return_focus = self.focused
        self.dialogs.append(dialog)
        layer.mount(dialog)
        layer.display = True
        self.refresh_bindings()

    async def ask(self, dialog: Modal) -> Any:
        """Open a dialog and wait for its answer (from a worker, as `push_screen_wait`)."""
        answer: asyncio.Future = asyncio.get_running_loop().create_future()

        def given(result: Any) -> None:
            if not answer.done():
                answer.set_result(result)

        self.show_dialog(dialog, given)
        return await answer

    async def on_answered(self, message: Answered) -> None:
        """A dialog's answer, to whoever asked for it."""
        if message.dialog.reply is not None:
            result = message.dialog.reply(message.answer)
            if asyncio.iscoroutine(result):
                await result

    def close(self, dialog: Modal) -> None:
        """Take a dialog away and give the focus back to where it was when it opened."""
        self.dialogs.remove(dialog)
        focus = dialog.return_focus
        layer = dialog.parent
        assert isinstance(layer, DialogLayer)
        layer.display = any(d.parent is layer for d in self.dialogs)
        dialog.display = False  # gone in the frame that shows what it answered
        dialog.remove()
        if self.dialogs:
            self.set_focus(self._focus_in(self.dialogs[-1], focus))
        elif focus is not None and focus.is_attached:
            self.set_focus(focus)
        else:
            self.set_focus(None)
        self.refresh_bindings()

    @staticmethod
    def _focus_in(dialog: Modal, widget: Widget | None) -> Widget:
        return widget if widget is not None and widget.is_attached and dialog in widget.ancestors_with_self else dialog.first_focus()

    def in_dialog(self, widget: Widget | None) -> bool:
        """Whether a widget is part of an open dialog."""
        return widget is not None and any(d in widget.ancestors_with_self for d in self.dialogs)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A click on the screen under a dialog does not take the focus from it."""
        if self.dialogs and self.dialogs[-1].opened and not self.in_dialog(event.widget):
            self.set_focus(self._focus_in(self.dialogs[-1], None))

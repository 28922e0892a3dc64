"""What a dialog tells the screen that opened it, as Textual messages."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class Answered(Message):
    """A dialog closed with its answer (None: cancelled); the screen hands it to whoever asked
    (`DialogHost.ask`, or the `then` of `show_dialog`)."""

    def __init__(self, dialog: Any, answer: Any) -> None:
        super().__init__()
        self.dialog = dialog
        self.answer = answer

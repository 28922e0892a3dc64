"""A modal one-line text prompt: Enter accepts, Esc cancels."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Input, Label

from ..markup import escape
from ..widgets.text_field import TextField
from .modal import Modal


class TextPrompt(Modal):
    def __init__(self, title: str, default: str = "", hint: str = "", *, edit: bool = False):
        """`default` is proposed selected (typing replaces it) or, with `edit`, to be edited
        (the cursor at its end)."""
        super().__init__()
        self.title_text, self.default, self.hint, self.edit = title, default, hint, edit

    def compose(self) -> ComposeResult:
        yield Label(f"[b]{escape(self.title_text)}[/]")
        yield TextField(value=self.default, select_on_focus=not self.edit)
        yield Label((self.hint + "  " if self.hint else "") + "Enter accepts, Esc cancels", classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    async def feed(self, key: str, character: str | None) -> None:
        field = self.query_one(Input)
        if key == "enter":
            self.dismiss(field.value)
        elif key == "backspace":
            field.action_delete_left()
        elif character and character.isprintable():
            if field.selection.start != field.selection.end:
                field.value = ""  # typing replaces the proposed text, as it does when typed live
            field.insert_text_at_cursor(character)
        else:
            await super().feed(key, character)

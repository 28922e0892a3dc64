"""`self.app` typed as ktlog's own app, for the screens that call its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widget import Widget

if TYPE_CHECKING:
    from textual import getters

    from .app import KtlogApp


class InKtlogApp(Widget):
    """Base of a screen or dialog that runs only inside `KtlogApp`: Textual types `self.app` as
    any `App`; this tells the type checker which (Textual's own `getters.app`, for type checking
    only, as `MessagePump` declares it: at run time `app` is Textual's)."""

    if TYPE_CHECKING:
        app = getters.app(KtlogApp)

"""`self.app` typed as ktlog's own app, for the screens and dialogs that call its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual import getters
    from textual.widget import Widget

    from .app import KtlogApp

    class InKtlogApp(Widget):
        """Base of a screen or dialog that runs only inside `KtlogApp`: Textual types `self.app`
        as any `App`; this tells the type checker which, with Textual's own `getters.app`, as
        Textual's `MessagePump` declares its own `app` for type checking only."""

        app = getters.app(KtlogApp)

else:

    class InKtlogApp:
        """At run time nothing: `self.app` is Textual's (a Widget base here would add its CSS
        type name and defaults to every dialog)."""

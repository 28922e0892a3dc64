"""The registry of flows, by kind of move, and what a flow may ask of the record screen."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ktlog import events as ev
from ktlog.rules.questions import Kind

from ..recorder import Outcome, Recorder
from ..screens.pick import Choice
from ..steps import Steps


class Asker(Protocol):
    """The record screen, as a flow uses it: its dialogs, its recorder and its message line."""

    recorder: Recorder
    refused_kind: Kind | None

    def refresh_view(self) -> None: ...

    @property
    def app(self) -> Any: ...

    @property
    def steps(self) -> Steps: ...

    def record(self, event: ev.Event | None) -> bool: ...

    def say(self, text: str, ok: bool | None = True) -> None: ...

    def show_outcome(self, outcome: Outcome) -> None: ...

    def selected_event(self) -> int | None: ...

    async def ask(self, dialog: Any) -> Any: ...

    def query_one(self, selector: Any) -> Any: ...

    async def pick(self, title: str, choices: list[Choice], hint: str = "") -> Any: ...

    async def pick_one(self, title: str, choices: list[Choice]) -> Any: ...

    async def prompt(self, title: str, default: str = "", hint: str = "") -> str | None: ...


Flow = Callable[[Asker], Awaitable[None]]

FLOWS: dict[str, Flow] = {}
"""The flows by kind of move (or by name, for the flows that are not moves)."""
KIND_FLOWS: dict[str, Callable[[Asker, str], Awaitable[None]]] = {}
"""Flows told the kind they take, by what the kind's event is ("shot": any kind whose event is a Shot)."""


def flow(*kinds: str) -> Callable[[Flow], Flow]:
    """Register a flow for these kinds."""

    def register(fn: Flow) -> Flow:
        for kind in kinds:
            FLOWS[kind] = fn
        return fn

    return register

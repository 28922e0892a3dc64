"""Helpers for the terminal UI tests: small games in a database, and keys pressed one by one."""

from __future__ import annotations

import asyncio
import functools
import re
from pathlib import Path

import textual._wait
from conftest import ROOT
from textual.content import Content
from textual.widgets import Input

from ktlog.data import SAMPLE_GAMES
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder
from ktlog.storage.store import Store

textual._wait.SLEEP_GRANULARITY /= 5
textual._wait.SLEEP_IDLE /= 5
"""Pilot waits after each key until the app is idle, judged by sleeping a while and seeing how
little CPU the process spent meanwhile (`textual._wait.wait_for_idle`): 20 ms a look, two looks
a key, was two thirds of a quiet TUI test's time. A look of 4 ms with the same idle ratio (5%)
tells the same (tests/test_tui_*.py pass the same), five times as often."""

TINY = ROOT / "tests" / "fixtures" / "tui_tiny_team.toml"
ARMED = ROOT / "tests" / "fixtures" / "tui_armed_team.toml"
"""The tiny team and two gunners, each with a Blast weapon and an x" Devastating one."""
BROKEN = ROOT / "tests" / "fixtures" / "tui_broken_team.toml"
GAME_ID = "77777777-7777-4777-8777-777777777777"


def tui_test(fn):
    """Run an async test (with `App.run_test()`) in its own event loop."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return run


def tiny_game(store: Store, to: str = "firefight", roster_file: Path = TINY) -> str:
    """Alice and Bob with two troopers each (Bob's are bob-trooper-1, bob-trooper-2; or both
    playing `roster_file`), stored up to: "setup" (players only), "battle" (set up) or
    "firefight" (TP1, Alice to activate)."""
    g = GameBuilder(killzone="volkus", date="2026-11-21")
    roster = load_roster(roster_file)
    g.player("Alice", roster)
    g.player("Bob", roster)
    if to != "setup":
        g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=1)
    if to == "firefight":
        g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    return store.new_game(g.events[0], g.events[1:], game_id=GAME_ID)


def message(app) -> str:
    """The record screen's message line, as plain text."""
    return str(app.screen.query_one("#message").render())


async def press(pilot, *keys: str) -> None:
    """Press keys one at a time, as a person does (each is handled before the next; keys that
    reach a dialog before it opens are kept for it), then let the screen settle."""
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


def sample(name: str) -> Path:
    return next(SAMPLE_GAMES.glob(f"{name}*.jsonl"))


def sample_cut(store: Store, name: str, tp: int) -> str:
    """A sample game stored up to the first moment in turning point `tp` when an operative is
    active after its first action (a game still being recorded); returns its id."""
    from ktlog.files.gamelog import read_game_log
    from ktlog.play.replay import Replay

    header, sealed = read_game_log(sample(name))
    replay = Replay([e for e, _ in sealed])
    start = replay.timeline.turning_point_start(tp)
    cut = next(seq for seq in range(start, replay.head) if (s := replay.seek(seq)).activation and s.activation.ap_spent)
    store.import_envelopes(header.game_id, sealed[:cut])
    return header.game_id


async def type_into(pilot, selector: str, text: str) -> None:
    field = pilot.app.screen.query_one(selector, Input)
    field.focus()
    field.value = ""
    await press(pilot, *text)


async def paste_into(pilot, selector: str, text: str) -> None:
    """A long path is pasted rather than typed (a keystroke each would only slow the test)."""
    field = pilot.app.screen.query_one(selector, Input)
    field.focus()
    field.value = text
    await pilot.pause()


async def until(pilot, ready, what: str, frames: int = 500) -> None:
    """Let the app run until `ready()` holds (a state the test waits on, never a time): each
    pause lets the app handle what is queued. Fails naming `what` if it never holds."""
    for _ in range(frames):
        if ready():
            return
        await pilot.pause()
    raise AssertionError(f"never happened: {what}")


async def answer(pilot, text: str) -> None:
    """Answer the open text prompt: the text is pasted (a keystroke each would only slow the
    test), then Enter."""
    await pilot.pause()
    pilot.app.screen.query_one(Input).value = text
    await press(pilot, "enter")


CHECKED = "OperativeTable, KeyFooter, ActionBar, GameHeader, MarkerPanel, #message, .hint"
"""The widgets a person reads to know what to do next."""


def screen_strips(screen) -> list:
    """The screen as last drawn, a Strip a line (Textual's compositor: an internal the tests
    alone read; the app draws nothing this way)."""
    return screen._compositor.render_strips()


def cut_texts(screen) -> list[str]:
    """What a checked widget shows cut: its region with "…", or words of its text missing. A
    widget under an open dialog is not read (the dialog's own widgets are)."""
    lines = [strip.text for strip in screen_strips(screen)]
    dialogs = getattr(screen, "dialogs", [])
    problems = []
    for widget in screen.query(CHECKED):
        region = widget.content_region.intersection(screen.region)
        if not widget.display or not region.area:
            continue
        on_top = dialogs[-1] in widget.ancestors_with_self if dialogs else True
        if not on_top and any(d.region.overlaps(region) for d in dialogs):
            continue
        shown = [lines[y][region.x : region.right] for y in range(region.y, region.bottom)]
        name = type(widget).__name__ + (f"#{widget.id}" if widget.id else "")
        if any("…" in line for line in shown):
            problems.append(f"{name} shows …: {shown}")
        text = getattr(widget, "_text", None)
        plain = Content.from_markup(text).plain if text is not None else str(widget.render()) if widget.has_class("hint") else ""
        words = " ".join(shown).split()
        missing = [w for w in re.split(r"\s+", plain.strip()) if w and w not in words]
        if missing:
            problems.append(f"{name} lost {missing}: {shown}")
    return problems


def screen_text(app) -> str:
    """The screen as drawn, a line each."""
    return "\n".join(strip.text for strip in screen_strips(app.screen))

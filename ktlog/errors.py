"""Typed errors. Every message says what was wrong, the rule or field involved, and what to do."""

from __future__ import annotations

import sqlite3

DatabaseError = sqlite3.Error
"""What SQLite raises when it cannot read or write the file (locked, replaced, damaged), as the
faces catch it: they import no sqlite3 (an import contract forbids it) and run no SQL."""


class KtlogError(Exception):
    """Base of every error ktlog reports to a user (the CLI prints it, never a traceback)."""

    index: int | None = None
    """Of a refusal in `Store.append_all`: the position of the event refused."""


class RuleViolation(KtlogError, ValueError):
    """An event breaks a game rule.

    `rule` names where the rule is written ("pg 39", "ruling 1").
    An `overridable` violation is accepted when the event carries an override with a
    reason (precedence, pg 55); a structural one (an unknown operative, a die of 7) never is.
    """

    seq: int | None = None
    """The seq of the offending event, when it was applied as part of a log."""

    def __init__(self, message: str, rule: str, *, overridable: bool = True):
        self.message = message
        self.rule = rule
        self.overridable = overridable
        super().__init__(message)

    def __str__(self) -> str:
        text = f"{self.message} ({self.rule})"
        if self.overridable:
            text += ". If a kill team rule allows it, record the event again with an override and its reason"
        return text


class InvalidEvent(RuleViolation):
    """An event that cannot be applied at all: unknown ids, impossible dice, wrong phase for its kind."""

    def __init__(self, message: str, rule: str = "event"):
        super().__init__(message, rule, overridable=False)


class ConcurrencyConflict(KtlogError):
    """Another writer appended to the same game first."""

    def __init__(self, game_id: str, expected_seq: int, head_seq: int):
        self.game_id, self.expected_seq, self.head_seq = game_id, expected_seq, head_seq
        super().__init__(
            f"game {game_id[:8]} changed while you were recording: you appended at seq {expected_seq} "
            f"but another writer already stored seq {head_seq}. Reload the game and enter the event again"
        )


class GameNotFound(KtlogError):
    pass


class StoreError(KtlogError):
    """The database file is missing, not a ktlog database, too new, read-only or full."""


class GameLogError(KtlogError):
    """A game-log file is malformed; the message names the line and the field."""

    def __init__(self, path: str, line: int | None, message: str):
        self.path, self.line, self.detail = path, line, message
        where = f"{path}, line {line}" if line else path
        super().__init__(f"{where}: {message}. Nothing from this file was imported")

    def __reduce__(self) -> tuple[type[GameLogError], tuple[str, int | None, str]]:  # an import's worker process hands it back
        return type(self), (self.path, self.line, self.detail)


class RosterError(KtlogError):
    pass


class RegistryError(KtlogError):
    """A ruleset cannot be offered: a bad entry in ktlog's registry, or a ruleset another installed
    package offers through an entry point (the message names it and its package)."""

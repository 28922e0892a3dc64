"""Short notations people type at the table: dice as digits, re-rolls, fight steps.

- dice: ``"65432"`` (or with spaces or commas) is five D6 results.
- re-rolls: ``"2=5/balanced 4=6/command"``: die 2 re-rolled to 5 by Balanced, die 4 to 6 by
  Command Re-roll (sources may be shortened: ``bal``, ``cea``, ``rel``, ``cmd``, ``oth``).
- fight steps, in order from the attacker: ``sc`` strike with a critical, ``sn`` strike with a
  normal; ``bcc`` a critical blocks a critical, ``bcn`` a critical blocks a normal, ``bnn`` a
  normal blocks a normal, ``bnc`` a normal blocks a critical (every step parses: the rules refuse
  what pg 45 does not allow); ``bc`` / ``bn`` block nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import KtlogError
from ..events import FightStep, Reroll, RerollSource

SOURCES: tuple[RerollSource, ...] = ("balanced", "ceaseless", "relentless", "command", "other")
_SOURCE_ALIASES: dict[str, RerollSource] = {"cmd": "command", "cr": "command"}
_STEPS = {
    "sc": FightStep(action="strike", die="critical"),
    "sn": FightStep(action="strike", die="normal"),
    "bcc": FightStep(action="block", die="critical", blocks="critical"),
    "bcn": FightStep(action="block", die="critical", blocks="normal"),
    "bnn": FightStep(action="block", die="normal", blocks="normal"),
    "bnc": FightStep(action="block", die="normal", blocks="critical"),
    "bc": FightStep(action="block", die="critical"),
    "bn": FightStep(action="block", die="normal"),
}


class NotationError(KtlogError, ValueError):
    pass


@lru_cache(maxsize=4096)
def parse_dice(text: str, what: str = "dice") -> tuple[int, ...]:
    """'65432' -> (6, 5, 4, 3, 2). Every character is a digit 1 to 6 (spaces and commas aside).
    Kept for the same text (a rollout parses thousands of rolls, most of them alike)."""
    digits = re.sub(r"[\s,]", "", text)
    bad = sorted({c for c in digits if c not in "123456"})
    if bad:
        raise NotationError(f"{what} {text!r}: {', '.join(map(repr, bad))} is not a D6 result; type digits 1 to 6, e.g. 65432")
    return tuple(int(c) for c in digits)


def format_dice(values: tuple[int, ...]) -> str:
    return "".join(map(str, values))


def parse_rerolls(text: str) -> tuple[Reroll, ...]:
    out = []
    for token in text.split():
        m = re.fullmatch(r"(\d+)=([1-6])/([a-z-]+)", token.lower())
        if not m:
            raise NotationError(f"re-roll {token!r} is not like 2=5/balanced (die=new result/rule)")
        source = _source(m[3], token)
        out.append(Reroll(die=int(m[1]), result=int(m[2]), source=source))
    return tuple(out)


def _source(word: str, token: str) -> RerollSource:
    if word in _SOURCE_ALIASES:
        return _SOURCE_ALIASES[word]
    matches = [s for s in SOURCES if s.startswith(word)]
    if len(matches) != 1:
        raise NotationError(f"re-roll {token!r}: {word!r} is not one of {', '.join(SOURCES)}")
    return matches[0]


def parse_steps(text: str) -> tuple[FightStep, ...]:
    out = []
    for token in text.lower().split():
        if token not in _STEPS:
            raise NotationError(f"fight step {token!r} is not one of {', '.join(_STEPS)} (s: strike, b: block, c/n: critical/normal)")
        out.append(_STEPS[token])
    return tuple(out)


def format_steps(steps: tuple[FightStep, ...]) -> str:
    names = {v: k for k, v in _STEPS.items()}
    return " ".join(names[s] for s in steps)

"""Weapon rules (pg 111) parsed from the text printed on a datacard."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import msgspec

_FLAGS = {
    "balanced",
    "brutal",
    "ceaseless",
    "heavy",
    "hot",
    "punishing",
    "relentless",
    "rending",
    "saturate",
    "seek",
    "seek light",
    "severe",
    "shock",
    "silent",
    "stun",
}
_NUMBERED = re.compile(r"^(?:(?P<splash>\d+)\"?\s+)?(?P<name>accurate|devastating|limited|piercing crits|piercing)\s+(?P<x>\d+)$")
_DISTANCE = re.compile(r"^(?P<name>range|blast|torrent)\s+(?P<x>\d+)\"?$")
_LETHAL = re.compile(r"^lethal\s+(?P<x>[2-6])\+$")
_HEAVY_ONLY = re.compile(r"^heavy\s*\((?P<move>[a-z ]+?) only\)$")


class WeaponProfile(msgspec.Struct, frozen=True):
    """What a weapon's rules do, as numbers and flags. Unknown (kill team) rules are kept by name."""

    accurate: int = 0
    balanced: bool = False
    blast: int = 0
    brutal: bool = False
    ceaseless: bool = False
    devastating: int = 0
    devastating_splash: int = 0
    heavy: bool = False
    heavy_only: str | None = None
    hot: bool = False
    lethal: int | None = None
    limited: int | None = None
    piercing: int = 0
    piercing_crits: int = 0
    punishing: bool = False
    range: int | None = None
    relentless: bool = False
    rending: bool = False
    saturate: bool = False
    seek: bool = False
    seek_light: bool = False
    severe: bool = False
    shock: bool = False
    silent: bool = False
    stun: bool = False
    torrent: int = 0
    other: tuple[str, ...] = ()


@lru_cache(maxsize=1024)
def weapon_profile(rules: tuple[str, ...]) -> WeaponProfile:
    """Parse printed weapon rules; a rule the core book does not define is kept in `other`."""
    values: dict[str, Any] = {}
    other: list[str] = []
    for raw in rules:
        text = " ".join(raw.replace("”", '"').replace("″", '"').split()).lower().rstrip(".")
        if not text or text == "-":
            continue
        if text in _FLAGS:
            values[text.replace(" ", "_")] = True
        elif m := _LETHAL.match(text):
            values["lethal"] = int(m["x"])
        elif m := _HEAVY_ONLY.match(text):
            values["heavy"] = True
            values["heavy_only"] = m["move"].title()
        elif m := _NUMBERED.match(text):
            name = m["name"].replace(" ", "_")
            x = int(m["x"])
            if name == "devastating" and m["splash"]:
                values["devastating_splash"] = int(m["splash"])
            if name in values:
                # Repeated rule with an x: use the best x; two Accurate count as Accurate 2 (pg 111).
                x = max(x, values[name], 2 if name == "accurate" else 0)
            values[name] = x
        elif m := _DISTANCE.match(text):
            values[m["name"]] = int(m["x"])
        else:
            other.append(raw)
    return WeaponProfile(**values, other=tuple(other))

"""The older wording of the special rules that are datacard fields now (pg 89).

Until OperativeAdded version 3, ktlog recognised the NPO rules of pg 89 by their wording only:
- a Heavy NPO by the keyword HEAVY or a name starting "Heavy" (now `heavy = true`);
- "This operative can perform two Fight actions during its activation" (now
  `double_action = ["Fight"]`);
- the 1 in 3 special weapon by the card "Trooper (Marksman)" and its weapon "Special weapon"
  (now that weapon's `one_in = 3`).

This module reads that wording into the fields, once: for an older game log when its events are
upcast, and for an older roster file when it is loaded (with a warning naming the field to write).
Nothing else reads names or wording for these rules. It works on datacards as plain data (a
roster file's operative table, an event payload), so the event vocabulary can use it.
"""

from __future__ import annotations

import json
import re
from typing import Any

TWICE = re.compile(r"can perform two [*_^]*(\w+)[*_^]* actions during its activation", re.IGNORECASE)
"""The wording of a rule letting an operative repeat an action (the Heavy NPOs, pg 89; a kill
team leader's ability), the action's name as BSData marks it up too (two **Fight** actions)."""
_TROOPER_MARKSMAN = "trooper (marksman)"
_SPECIAL_WEAPON = "special weapon"
_ONE_IN_THREE = 3


def read_wording(card: dict[str, Any], *, heavy: bool = True) -> tuple[dict[str, Any], list[str]]:
    """The datacard with the fields its older wording stands for, and for each field read a note:
    the field to write and the wording it was read from. A field already written is kept, even
    `heavy = false` or `double_action = []`; `heavy` False leaves the HEAVY keyword and "Heavy ..."
    names alone (a kill team that is not NPOs). Values of the wrong type are left as they are, for
    the caller's checks to report."""
    card = dict(card)
    notes: list[str] = []
    name = given if isinstance(given := card.get("name"), str) else ""
    heavy_by = heavy_wording(name, _strings(card.get("keywords")))
    if heavy and "heavy" not in card and heavy_by:
        card["heavy"] = True
        notes.append(f"heavy = true (read from {heavy_by})")
    twice = [(found[1].title(), rule) for rule in _strings(card.get("rules")) if (found := TWICE.search(rule))]
    if twice and "double_action" not in card:
        card["double_action"] = list(dict.fromkeys(action for action, _ in twice))
        notes += [f"double_action = [{json.dumps(action)}] (read from the rule {json.dumps(rule)})" for action, rule in twice]
    weapons = card.get("weapons")
    if name.casefold() == _TROOPER_MARKSMAN and isinstance(weapons, (list, tuple)):
        card["weapons"] = [_one_in(w, notes) for w in weapons]
    return card, notes


def heavy_wording(name: str, keywords: list[str] | tuple[str, ...]) -> str | None:
    """What makes a datacard read as a Heavy NPO by its older wording: the keyword HEAVY or a
    name starting "Heavy" (None when neither)."""
    keyword = next((k for k in keywords if k.strip().upper() == "HEAVY"), None)
    if keyword is not None:
        return f"the keyword {keyword}"
    return f"the name {json.dumps(name)}" if name.casefold().startswith("heavy") else None


def fields_from_wording(card: dict[str, Any]) -> dict[str, Any]:
    """An older datacard with its wording read into the fields (upcasting a game log)."""
    return read_wording(card)[0]


def _one_in(weapon: Any, notes: list[str]) -> Any:
    if not isinstance(weapon, dict) or not isinstance(weapon.get("name"), str) or "one_in" in weapon:
        return weapon
    if weapon["name"].casefold() != _SPECIAL_WEAPON:
        return weapon
    notes.append(f"one_in = {_ONE_IN_THREE} on the weapon {json.dumps(weapon['name'])} (read from the names Trooper (Marksman) and Special weapon)")
    return {**weapon, "one_in": _ONE_IN_THREE}


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []

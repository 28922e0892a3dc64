"""Roster text that reads like a rule ktlog would apply, but that it does not apply: reported by
`ktlog roster check` and when a game is created ("not applied: ..."), never silently ignored.

ktlog applies the weapon rules of pg 111 (KT21's under their shared names, 001) and the special
rules that are datacard fields: `heavy`, `double_action` and a weapon's `one_in`. Names, keywords
and rule texts are free text for people; these checks find the texts that look like one of those
rules while the field is missing, and the weapon rules no ruleset defines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..events import Datacard, Event, OperativeAdded, PlayerJoined
from ..wording import heavy_wording
from .ruleset import Ruleset
from .weapons import weapon_profile

TWICE_WORDING = re.compile(r"\b(?:two|2)\s+[*_^]*(?P<action>\w+(?:\s+\w+)??)[*_^]*\s+actions?\b|\btwice\b", re.IGNORECASE)
"""Text about performing an action twice in an activation (pg 39, pg 89), markup or not."""
_ONE_IN = re.compile(r"\b(?:1|one)\s+in\s+(?:\d+|two|three|four|five|six)\b", re.IGNORECASE)
"""Text limiting a weapon to 1 in x operatives (pg 89)."""


def not_applied(card: Datacard, ruleset: Ruleset, *, npo: bool = False) -> list[str]:
    """What on the datacard looks like a rule but is not applied under the ruleset, each naming
    the datacard, the text and the field to write. `npo`: the card is a non-player operative's."""
    found: list[str] = []
    for rule in card.rules:
        twice = TWICE_WORDING.search(rule)
        if twice and not _double(twice["action"], card):
            action = (twice["action"] or "ACTION").title()
            found.append(
                f"{card.name}: the rule {rule!r} reads like an action performed twice in an activation, and the "
                f'datacard has no double_action for it: write double_action = ["{action}"] if it is one (pg 39)'
            )
    texts = (*card.rules, *(r for w in card.weapons for r in w.rules), *(w.name for w in card.weapons))
    limit = next((t for t in texts if _ONE_IN.search(t)), None)
    if limit is not None and not any(w.one_in for w in card.weapons):
        found.append(
            f"{card.name}: {limit!r} reads like a weapon only 1 in x operatives can have, and no weapon has one_in: write one_in = x on that weapon (pg 89)"
        )
    heavy = heavy_wording(card.name, card.keywords)
    if npo and heavy and not card.heavy:
        found.append(
            f"{card.name}: {heavy} reads like a Heavy NPO, and the datacard has no heavy = true: reinforcements "
            "count it as not Heavy (pg 92, 94); write heavy = true if it is one"
        )
    for weapon in card.weapons:
        for rule in weapon_profile(ruleset.weapon_as_played(weapon).rules).other:
            found.append(
                f"{card.name}: weapon {weapon.name!r}: {rule!r} is not a weapon rule ktlog knows (pg 111): its attacks "
                "are checked without it; note its effect when it is used"
            )
    return found


def not_applied_in_setup(events: Iterable[Event], ruleset: Ruleset) -> list[str]:
    """not_applied for every datacard a new game's PlayerJoined and OperativeAdded events bring
    in, each datacard once."""
    events = list(events)
    npos = {e.player for e in events if isinstance(e, PlayerJoined) and e.npo}
    lines = (line for e in events if isinstance(e, OperativeAdded) for line in not_applied(e.datacard, ruleset, npo=e.player in npos))
    return list(dict.fromkeys(lines))


def _double(action: str | None, card: Datacard) -> bool:
    """Whether double_action covers the action the text names (any action, when it names none)."""
    if action is None:
        return bool(card.double_action)
    return " ".join(action.split()).casefold() in {a.casefold() for a in card.double_action}

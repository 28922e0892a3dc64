"""A datacard as text, as `ktlog roster show` and the new-game form show it: the stats (APL,
Move, Save, Wounds; KT21's GA and DF when they are not 1 and 3), each weapon with its ATK, HIT,
DMG and rules, and the keywords, unique actions with their AP and rules by name."""

from __future__ import annotations

from ..events import Datacard, Equipment, Ploy, Resource, Weapon


def stats_line(card: Datacard, title: str | None = None) -> str:
    """The card's first line: `title` (e.g. "2x Trooper", else the card's name) and its stats."""
    kt21 = f"  GA {card.group_activation}  DF {card.defence}" if card.group_activation != 1 or card.defence != 3 else ""
    invulnerable = f"  Invulnerable {card.invulnerable_save}+" if card.invulnerable_save else ""
    return f'{title or card.name}: APL {card.apl}  Move {card.move}"  Save {card.save}+{invulnerable}  Wounds {card.wounds}{kt21}'


def weapon_cells(weapon: Weapon) -> tuple[str, str, str, str, str, str]:
    """A weapon's line in columns: kind, name, ATK, HIT, DMG, its rules (KT21 critical ones with !)."""
    rules = ", ".join((*weapon.rules, *(f"!{r}" for r in weapon.critical_rules)))
    return weapon.kind, weapon.name, f"ATK {weapon.atk}", f"HIT {weapon.hit}+", f"DMG {weapon.normal_dmg}/{weapon.crit_dmg}", rules


def other_lines(card: Datacard) -> list[str]:
    """The keywords, unique actions and rules, a line each."""
    lines = [f"keywords: {', '.join(card.keywords)}"] if card.keywords else []
    lines += [f"unique action: {a.name} ({a.ap}AP)" for a in card.unique_actions]
    return lines + ([f"rules: {', '.join(card.rules)}"] if card.rules else [])


def datacard_lines(card: Datacard, title: str | None = None) -> list[str]:
    """The card in lines, its weapons in aligned columns, indented under its stats."""
    cells = [weapon_cells(w) for w in card.weapons]
    widths = [max((len(row[i]) for row in cells), default=0) for i in range(5)]
    weapons = ["  ".join([*(cell.ljust(widths[i]) for i, cell in enumerate(row[:5])), row[5]]).rstrip() for row in cells]
    return [stats_line(card, title), *(f"    {line}" for line in (*weapons, *other_lines(card)))]


def team_lines(ploys: tuple[Ploy, ...], equipment: tuple[Equipment, ...], resources: tuple[Resource, ...]) -> list[str]:
    """A kill team's own ploys (kind, CP), equipment options (with the weapons one gives) and
    resources (starting value), a line each, each with its reminder."""

    def reminded(line: str, reminder: str | None) -> str:
        return f"{line}: {reminder}" if reminder else line

    lines = [reminded(f"{p.kind} ploy: {p.name} ({p.cp}CP)", p.reminder) for p in ploys]
    for item in equipment:
        weapons = "".join(f" [{'  '.join(c for c in weapon_cells(w) if c)}]" for w in item.weapons)
        lines.append(reminded(f"equipment: {item.name}{weapons}", item.reminder))
    return lines + [reminded(f"resource: {r.name} (starts at {r.start})", r.reminder) for r in resources]

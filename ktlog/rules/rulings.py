"""The project's rulings where the sources are silent (RULES.md section 7), kept in one place.

1. Kill grade: one VP per grade crossed; table rows clamped to 5..14 with a warning.
2. Multiplayer ready step: every player but the first in player order gains 2CP from TP2.
3. No CP cap.
4. Shooting save allocation, when automatic, minimises damage.
5. Multiplayer tie for most VP: the tied players share the win (`kt24.most_vp`).
6. A failed rule check may be overridden by a recorded reason (precedence, pg 55).
7. A fight whose strikes and blocks are not recorded: each player strikes, best die first.
8. A player who concedes loses; the VP stay as scored. Multiplayer: the most VP among the other
   players wins (tied: they share the win).
9. Multiplayer objective markers: the maps (pg 100-101) that fix them are not in the text; the
   players set up the markers their map shows, in player order and round again (pg 99), at
   least one each.
10. Joint Ops (the rulings listed in ktlog/rules/joint.py): the mission is GameCreated.mission;
    the players set up the markers their map shows; NPOs gain no CP and use no ploys; they take
    initiative whenever they decide it (a tie included); "1 in 3" special weapons round down;
    "half the NPOs" is at least half.
11. KT21 (the rulings listed in ktlog/rules/kt21.py): 2CP each at set-up; under the dataslate a
    group activation longer than two ends at two; AP left at the end of an activation are passed;
    end-of-battle VP are recorded before the last TurningPointEnded.
"""

from __future__ import annotations

from functools import lru_cache

CP_CAP: int | None = None
"""Ruling 3: the sources give no CP cap."""

KILL_GRADE_ROWS = (5, 14)
"""Ruling 1: the kill grade table (pg 84) has rows for 5 to 14 starting enemy operatives."""


def kill_grade_row(starting_enemies: int) -> tuple[int, str | None]:
    """Ruling 1: the table row to use, and a warning when the number is outside the table."""
    low, high = KILL_GRADE_ROWS
    if starting_enemies < low:
        return low, f"{starting_enemies} starting enemy operatives is below the kill grade table; the {low} row is used"
    if starting_enemies > high:
        return high, f"{starting_enemies} starting enemy operatives is above the kill grade table; the {high} row is used"
    return starting_enemies, None


@lru_cache(maxsize=4096)
def allocate_saves(normal_hits: int, critical_hits: int, normal_saves: int, critical_saves: int, normal_dmg: int, crit_dmg: int) -> tuple[int, int]:
    """Ruling 4: block hits so that the least damage gets through (pg 43 step 5).

    A normal save blocks a normal hit, two normal saves block a critical hit, a critical save
    blocks either. Returns the unblocked (normal, critical) hits.
    """
    best: tuple[int, int, int] | None = None
    for crit_on_crit in range(min(critical_saves, critical_hits) + 1):
        crit_left = critical_hits - crit_on_crit
        crit_on_normal = min(critical_saves - crit_on_crit, normal_hits)
        normal_left = normal_hits - crit_on_normal
        for pairs in range(min(normal_saves // 2, crit_left) + 1):
            c = crit_left - pairs
            n = max(0, normal_left - (normal_saves - 2 * pairs))
            damage = n * normal_dmg + c * crit_dmg
            if best is None or damage < best[0]:
                best = (damage, n, c)
    assert best is not None
    return best[1], best[2]


def concession_result(players: list[str], conceded_by: str) -> str | None:
    """Ruling 8: the winner when a player concedes (the only other player; None if several)."""
    others = [p for p in players if p != conceded_by]
    return others[0] if len(others) == 1 else None


def multiplayer_ready_cp(turning_point: int, first: bool) -> int:
    """Ruling 2: 1CP each in TP1; from TP2 the first player in player order gains 1CP and every
    other player 2CP (pg 37 gives the player without initiative 2CP; pg 99 puts player order
    in place of initiative)."""
    return 1 if turning_point == 1 or first else 2


MULTIPLAYER_MARKERS_PER_PLAYER = 1
"""Ruling 9: each player sets up at least this many objective markers (more if the map shows more)."""


def multiplayer_marker_placer(order: list[str], index: int) -> str:
    """Ruling 9: who sets up objective marker `index` (from 0): player order, round again."""
    return order[index % len(order)]

"""Kill op (pg 84): kill grades from enemy operatives incapacitated."""

from __future__ import annotations

from . import rulings

KILL_GRADE_TABLE: dict[int, tuple[int, int, int, int, int]] = {
    5: (1, 2, 3, 4, 5),
    6: (1, 2, 4, 5, 6),
    7: (1, 3, 4, 6, 7),
    8: (2, 3, 5, 6, 8),
    9: (2, 4, 5, 7, 9),
    10: (2, 4, 6, 8, 10),
    11: (2, 4, 7, 9, 11),
    12: (2, 5, 7, 10, 12),
    13: (3, 5, 8, 10, 13),
    14: (3, 6, 8, 11, 14),
}
"""Starting number of enemy operatives -> enemy incapacitations needed for kill grades 1 to 5."""

MAX_KILL_GRADE = 5


def kill_grade(starting_enemies: int, incapacitated: int) -> int:
    """The kill grade reached after `incapacitated` enemy operatives (ruling 1 clamps the row)."""
    row, _ = rulings.kill_grade_row(starting_enemies)
    return sum(1 for threshold in KILL_GRADE_TABLE[row] if incapacitated >= threshold)

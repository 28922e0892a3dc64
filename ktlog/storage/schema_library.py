"""sqlite-utils, imported without the optional libraries it loads at import time.

`sqlite_utils.db` imports pandas and numpy whenever they are installed, for inserting their
frames, which ktlog never does: on a machine with pandas, an import into a new database cost
1.22x the CPU (issue 26; a new file is now made without sqlite-utils, `new_database`, so only
migrating an older file loads it). While
sqlite-utils is imported here, `import pandas` and `import numpy` fail as if they were not
installed (a None in `sys.modules` is Python's documented way); a library that loaded them before
keeps them. This leans on how sqlite-utils 4 imports them, so its version range is pinned in
pyproject.toml and tests/test_store.py checks that neither is imported with a stand-in pandas
on the path. The one place ktlog imports sqlite_utils.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

_OPTIONAL = ("pandas", "numpy")


def _imported_lean() -> ModuleType:
    blocked = [name for name in _OPTIONAL if name not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # "assignment" (a module expected) is off in [tool.mypy]
    try:
        import sqlite_utils
    finally:
        for name in blocked:
            if sys.modules.get(name, ...) is None:
                del sys.modules[name]
    return sqlite_utils


if TYPE_CHECKING:  # the type checker reads sqlite-utils' own annotations
    import sqlite_utils as sqlite_utils
else:
    sqlite_utils = _imported_lean()

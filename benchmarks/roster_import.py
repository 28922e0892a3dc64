"""Time `ktlog roster import DIR --dry-run` over a data folder the size of BSData's Kill Team
(2024) folder: 49 synthetic catalogues (15-30 operative entries, 50-150 weapon profiles each,
shared weapon entries linked from the operatives' options) and their game system, generated
with made-up names and values. The import runs as a whole process several times; min and median.

    python benchmarks/roster_import.py [--runs 5]      (target: at most 10 s)
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_ID = "c521-ad27-44df-f959"
NS = "http://www.battlescribe.net/schema/catalogueSchema"
FIXTURE_SYSTEM = ROOT / "tests" / "fixtures" / "bsdata" / "test-system.gst"


def characteristics(values: dict[str, str]) -> str:
    return "".join(f'<characteristic name="{k}" typeId="ct-{k.lower()}">{v}</characteristic>' for k, v in values.items())


def weapon(i: int, rng: random.Random) -> str:
    symbol = rng.choice(["⌖ ", "⚔ "])
    rules = rng.choice(["-", "Range 8&quot;", "Lethal 5+", "Piercing 1, Range 6&quot;", "Balanced", "Devastating 2, Heavy (Dash only)"])
    values = {"ATK": str(rng.randint(3, 5)), "HIT": f"{rng.randint(2, 5)}+", "DMG": f"{rng.randint(2, 4)}/{rng.randint(4, 6)}", "WR": rules}
    return (
        f'<selectionEntry type="upgrade" import="true" name="Weapon {i}" hidden="false" id="w-{i}"><profiles>'
        f'<profile name="{symbol}Weapon {i}" typeId="pt-wp" typeName="Weapons" hidden="false" id="wp-{i}">'
        f"<characteristics>{characteristics(values)}</characteristics></profile></profiles></selectionEntry>"
    )


def operative(n: int, weapons: int, rng: random.Random) -> str:
    options = "".join(
        f'<entryLink import="true" name="Weapon {w}" hidden="false" id="l-{n}-{w}" type="selectionEntry" targetId="w-{w}"/>'
        for w in rng.sample(range(weapons), min(weapons, rng.randint(3, 8)))
    )
    values = {"APL": str(rng.randint(2, 3)), "Move": f"{rng.choice([5, 6, 7])}&quot;", "Save": f"{rng.randint(3, 5)}+", "Wounds": str(rng.randint(7, 14))}
    return (
        f'<selectionEntry type="model" import="true" name="Operative {n}" hidden="false" id="op-{n}">'
        f'<categoryLinks><categoryLink name="Synthetic" hidden="false" id="cl-{n}" targetId="cc-team"/></categoryLinks>'
        f'<profiles><profile name="Operative {n}" typeId="pt-op" typeName="Operative" hidden="false" id="opp-{n}">'
        f"<characteristics>{characteristics(values)}</characteristics></profile>"
        f'<profile name="Synthetic Action {n} (1AP)" typeId="pt-ua" typeName="Unique Actions" hidden="false" id="ua-{n}">'
        f'<characteristics><characteristic name="Unique Action" typeId="ct-ua">{"Made-up text. " * 20}</characteristic></characteristics></profile>'
        f'</profiles><selectionEntryGroups><selectionEntryGroup name="Weapons" id="g-{n}" hidden="false"><entryLinks>{options}'
        f"</entryLinks></selectionEntryGroup></selectionEntryGroups></selectionEntry>"
    )


def catalogue(k: int, rng: random.Random) -> str:
    weapons = rng.randint(50, 150)
    operatives = rng.randint(15, 30)
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<catalogue library="false" id="cat-{k}" name="Synthetic Team {k}" '
        f'gameSystemId="{SYSTEM_ID}" revision="{k}" battleScribeVersion="2.03" type="catalogue" xmlns="{NS}">'
        f'<categoryEntries><categoryEntry name="Synthetic" id="cc-team" hidden="false"/></categoryEntries>'
        f"<selectionEntries>{''.join(operative(n, weapons, rng) for n in range(operatives))}</selectionEntries>"
        f"<sharedSelectionEntries>{''.join(weapon(i, rng) for i in range(weapons))}</sharedSelectionEntries></catalogue>"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    rng = random.Random(13)
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        (data / "Synthetic Kill Team.gst").write_text(FIXTURE_SYSTEM.read_text(encoding="utf-8"), encoding="utf-8")
        for k in range(49):
            (data / f"Synthetic Team {k}.cat").write_text(catalogue(k, rng), encoding="utf-8")
        size = sum(p.stat().st_size for p in data.iterdir()) / 2**20
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", "from ktlog.cli import main; main()", "roster", "import", str(data), "--dry-run"], capture_output=True, text=True
            )
            times.append(time.perf_counter() - start)
            if done.returncode != 0 or done.stdout.count("Synthetic Team") != 49:
                sys.exit(f"the import failed:\n{done.stdout}\n{done.stderr}")
    print(
        f"roster import of 49 catalogues ({size:.1f} MB) --dry-run, {runs} runs: min {min(times):.2f} s, median {statistics.median(times):.2f} s (target 10 s)"
    )


if __name__ == "__main__":
    main()

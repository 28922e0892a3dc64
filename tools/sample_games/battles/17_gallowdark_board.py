"""A battle with positions on the illustrative Gallowdark-like layout (issue 44): Alice's Kasrkin
against Bob's Legionaries in the corridors, three operatives each, every set-up and move placed
on the board and checked by it (the injured icon bearer moves 4", not 6"). Alice's plasma gunner
and sharpshooter bring down the icon bearer coming down the east corridor; Bob's heavy gunner
answers through the north-west pillar (obscured). Alice wins on her one kill.
"""

import sys
from pathlib import Path

from ktlog.events import ActivationEnded, OperativeActivated, Repositioned, ShootingAttack, Shot
from ktlog.play.builder import GameBuilder, dash, reposition, shoot

sys.path.insert(0, str(Path(__file__).parent))  # the battles' shared opening, beside this script
from opening import everyone_holds, set_up  # noqa: E402

GAME_ID = "9e3d2b7a-1c4f-4e8b-8a6d-5f2c7b1e0d17"
STARTED_AT = "2026-11-22T18:00:00+00:00"
DESCRIPTION = "Board battle on the Gallowdark-like layout: Kasrkin v Legionaries with positions; Alice wins 2-0 on one kill"
LAYOUT = "gallowdark-like"

# Hand tally: no marker is secured (crit op Secure): crit 0-0. Alice incapacitates one of Bob's
# three operatives (the icon bearer, TP2), Bob none: kill 2 for Alice, 0 for Bob. Alice 2, Bob 0.
EXPECTED = {
    "winner": "Alice",
    "draw": False,
    "ended_by": "battle",
    "score": {"Alice": {"crit": 0, "kill": 2, "total": 2}, "Bob": {"crit": 0, "kill": 0, "total": 0}},
}
NOBODY = {"west": None, "centre": None, "east": None}


def build() -> GameBuilder:
    g = set_up(
        "gallowdark",
        "2026-11-22",
        LAYOUT,
        {
            "sergeant": (6, 26),
            "sharpshooter": (12, 26),
            "gunner-plasma": (18, 26),
            "legionary-1": (1.2, 2),
            "heavy-gunner": (11, 2),
            "icon-bearer": (18, 2),
        },
    )

    # TURNING POINT 1: Bob first. Icon bearer 14 -> 9.
    g.turning_point(1, rolls={"Alice": 3, "Bob": 4}, initiative="Bob")
    g.activate("icon-bearer", "engage", reposition(x=20.4, y=7), dash(x=20.4, y=10))  # past the north-east pillar
    g.activate("gunner-plasma", "engage", reposition(x=20, y=21), shoot("Plasma gun (standard)", "icon-bearer", damage=5))
    g.activate("heavy-gunner", "engage", reposition(x=11, y=7))  # west of the north corner wall
    g.activate("sergeant", "conceal", reposition(x=3, y=21.5))
    g.activate("legionary-1", "conceal", reposition(x=1.2, y=8), dash(x=3, y=10))  # round the end of the north-west wall
    g.activate("sharpshooter", "conceal")
    g.end_turning_point(NOBODY)

    # TURNING POINT 2: Alice first. Icon bearer 9 -> 4 (injured: Move 4"), then incapacitated;
    # the plasma gunner 8 -> 5, obscured by the pillar.
    g.turning_point(2, rolls={"Alice": 5, "Bob": 2}, initiative="Alice")
    g.activate("sergeant", "conceal", reposition(x=3, y=17.5))
    g.activate("legionary-1", "conceal")
    g.activate("gunner-plasma", "engage", shoot("Plasma gun (standard)", "icon-bearer", damage=5))
    g.activate("icon-bearer", "conceal", reposition(x=20, y=13.5))
    g.add(
        OperativeActivated(operative="sharpshooter", order="engage"),
        Repositioned(operative="sharpshooter", x=12.5, y=21.5),
        Shot(operative="sharpshooter", weapon="Hot-shot marksman rifle (mobile)", attacks=(ShootingAttack(target="icon-bearer", damage=4),)),
        ActivationEnded(operative="sharpshooter"),
    )
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "gunner-plasma", damage=3, obscured=True))
    g.end_turning_point(NOBODY)

    # TURNING POINT 3: Bob first. Sergeant 8 -> 4.
    g.turning_point(3, rolls={"Alice": 2, "Bob": 6}, initiative="Bob")
    g.activate("legionary-1", "engage", shoot("Boltgun", "sergeant", damage=4))
    for op in ("sergeant", "heavy-gunner", "gunner-plasma", "sharpshooter"):
        g.activate(op, "conceal")
    g.end_turning_point(NOBODY)

    # TURNING POINT 4: Alice first; everyone holds.
    return everyone_holds(g, NOBODY)

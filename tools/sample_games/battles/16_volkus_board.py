"""A battle with positions on the illustrative Volkus-like layout (issue 44): Alice's Kasrkin
against Bob's Legionaries, three operatives each, every set-up and move placed on the board and
checked by it. Bob's heavy gunner and Alice's plasma gunner trade shots across the east flank
until the plasma gunner falls; Alice's sergeant charges the legionary off the west marker and
holds it, Bob's icon bearer takes the east one; the sharpshooter's shot at the icon bearer is
obscured by the south rubble. Bob wins on his one kill.
"""

import sys
from pathlib import Path

from ktlog.play.builder import GameBuilder, charge, dash, fall_back, fight, reposition, shoot

sys.path.insert(0, str(Path(__file__).parent))  # the battles' shared opening, beside this script
from opening import everyone_holds, set_up  # noqa: E402

GAME_ID = "5b0a7c1e-4f7e-4c59-9d2f-3a8f1e6c0b16"
STARTED_AT = "2026-11-21T18:00:00+00:00"
DESCRIPTION = "Board battle on the Volkus-like layout: Kasrkin v Legionaries with positions; Bob wins 2-0 on one kill"
LAYOUT = "volkus-like"

# Hand tally: no marker is secured (crit op Secure scores only secured markers): crit 0-0.
# Bob incapacitates one of Alice's three operatives (the plasma gunner, TP2); Alice none of
# Bob's: kill grade 2 for Bob on a three-operative row, 0 for Alice. Bob 2, Alice 0.
EXPECTED = {
    "winner": "Bob",
    "draw": False,
    "ended_by": "battle",
    "score": {"Alice": {"crit": 0, "kill": 0, "total": 0}, "Bob": {"crit": 0, "kill": 2, "total": 2}},
}
CONTROL = {"west": "Alice", "centre": None, "east": "Bob"}


def build() -> GameBuilder:
    g = set_up(
        "volkus",
        "2026-11-21",
        LAYOUT,
        {
            "sergeant": (8, 19),
            "sharpshooter": (13, 20.5),
            "gunner-plasma": (23, 19),
            "legionary-1": (9, 2),
            "heavy-gunner": (21, 2),
            "icon-bearer": (27, 3),
        },
    )

    # TURNING POINT 1: Bob first. Plasma gunner 8 -> 4 wounds; heavy gunner 14 -> 9.
    g.turning_point(1, rolls={"Alice": 3, "Bob": 4}, initiative="Bob")
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "gunner-plasma", damage=4))  # in the open: no cover
    g.activate("gunner-plasma", "engage", reposition(x=22, y=13.5), shoot("Plasma gun (standard)", "heavy-gunner", damage=5))
    g.activate("legionary-1", "engage", reposition(x=9, y=8), dash(x=8, y=10.5))  # 6" then 3" (2.7 rounded up)
    g.activate("sergeant", "engage", reposition(x=8, y=13.5))  # its base within 1" of the west marker
    g.activate("icon-bearer", "conceal", reposition(x=27, y=9))
    g.activate("sharpshooter", "conceal")
    g.end_turning_point({**CONTROL, "east": None})

    # TURNING POINT 2: Alice first. Sergeant and legionary trade 4 each (8 -> 4, 14 -> 10); the
    # legionary falls back; heavy gunner 9 -> 4; the plasma gunner is incapacitated (4 -> 0).
    g.turning_point(2, rolls={"Alice": 5, "Bob": 2}, initiative="Alice")
    g.activate("sergeant", "engage", charge("legionary-1", x=8, y=11.7), fight("Power weapon", "legionary-1", "Chainsword", damage=4, damage_taken=4))
    g.activate("legionary-1", "engage", fall_back(x=8.8, y=7.5))
    g.activate("gunner-plasma", "engage", shoot("Plasma gun (standard)", "heavy-gunner", damage=5))
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "gunner-plasma", damage=4))
    g.activate("sharpshooter", "conceal")
    g.activate("icon-bearer", "engage", reposition(x=24, y=10))  # onto the east marker
    g.end_turning_point(CONTROL)

    # TURNING POINT 3: Bob first. The sharpshooter moves up and shoots the icon bearer, obscured
    # by the heavy rubble between them: 14 -> 11.
    g.turning_point(3, rolls={"Alice": 2, "Bob": 6}, initiative="Bob")
    g.activate("legionary-1", "conceal")
    g.activate("sharpshooter", "engage", reposition(x=16.5, y=17.5), shoot("Hot-shot marksman rifle (mobile)", "icon-bearer", damage=3, obscured=True))
    g.activate("heavy-gunner", "conceal")
    g.activate("sergeant", "conceal")
    g.activate("icon-bearer", "conceal")
    g.end_turning_point(CONTROL)

    # TURNING POINT 4: Alice first; everyone holds.
    return everyone_holds(g, CONTROL)

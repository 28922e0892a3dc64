"""What the sample battles share: the same two kill teams set up on a shipped layout, and the
last turning point, in which everyone holds."""

from __future__ import annotations

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.layouts import load_layout, shipped
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder

ALICE = ["sergeant", "sharpshooter", "gunner-plasma"]
BOB = ["legionary-1", "heavy-gunner", "icon-bearer"]


def set_up(killzone: str, date: str, layout: str, positions: dict[str, tuple[float, float]]) -> GameBuilder:
    """Alice's three Kasrkin against Bob's three Legionaries on the layout, set up at `positions`
    (Alice's drop zone A on the south edge, Bob's B on the north); crit op Secure."""
    g = GameBuilder(killzone=killzone, date=date, layout=load_layout(shipped()[layout]))
    g.player("Alice", load_roster(SAMPLE_ROSTERS / "kasrkin.toml"), ALICE)
    g.player("Bob", load_roster(SAMPLE_ROSTERS / "legionaries.toml"), BOB)
    markers = [("centre", "Bob"), ("west", "Alice"), ("east", "Bob")]
    return g.setup(rolloff={"Alice": 5, "Bob": 2}, initiative="Alice", crit_op=1, markers=markers, positions=positions)


def everyone_holds(g: GameBuilder, control: dict[str, str | None]) -> GameBuilder:
    """Turning point 4, Alice first: every operative still in the killzone activates with a
    Conceal order and does nothing."""
    g.turning_point(4, rolls={"Alice": 6, "Bob": 1}, initiative="Alice")
    while ready := sorted((o.player != g.state.next_player, o.id) for o in g.state.operatives.values() if o.status == "ready" and o.in_killzone):
        g.activate(ready[0][1], "conceal")
    return g.end_turning_point(control)

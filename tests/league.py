"""A hand-made league for the analytics tests: twelve finished games and one in progress.

Every game is 5 v 5 (kill grade row 5: each enemy incapacitated is one grade, 1VP), kills are
`DamageInflicted(damage=99, source="other")`, the crit op is Loot (1VP a Loot from TP2, at most
2 a turning point) or Secure (from TP2, at each turning point's end: 1VP for securing any
marker, 1VP more for securing more than the opponent). CP: 2 at set-up, 1 each in TP1, and from
TP2 1 for the player with initiative and 2 for the other. Games G01 and G02 record dice.

    game  date        league / season / round  killzone    op      result
    G01   2026-09-05  Autumn 2026 R1           volkus      Loot    Alice (Kasrkin) 4-1 Bob (Legionaries)
    G02   2026-09-05  Autumn 2026 R1           volkus      Loot    Carol (Pathfinders) 6-2 Dan (Kasrkin); starts before G01
    G03   2026-09-12  Autumn 2026 R1           gallowdark  Loot    Erin (Hearthkyn) 2-2 Alice (Kasrkin): a draw
    G04   2026-09-26  Autumn 2026 R2           volkus      Secure  Bob (Legionaries) 4-6 Carol (Pathfinders)
    G05   2026-10-03  Autumn 2026 R2           volkus      Loot    Dan (Kasrkin) 8-1 Erin (Hearthkyn): Erin wiped out in TP3
    G06   2026-10-10  Autumn 2026 R2           gallowdark  Loot    Alice (Kasrkin) 1-1 Carol (Pathfinders): Carol concedes after TP2
    G07   2026-11-07  Winter 2026 R1           volkus      Loot    Bob (Legionaries) 5-3 Dan (Kasrkin)
    G08   2026-11-07  Winter 2026 R1           volkus      Loot    Erin (Hearthkyn) 5-1 Carol (Pathfinders); same start as G07
    G09   2026-11-21  Winter 2026 R2           gallowdark  Secure  Alice (Kasrkin) 4-5 Dan (Hearthkyn)
    G10   2026-12-05  Winter 2026 R2           volkus      Loot    Bob (Legionaries) 3-2 Erin (Hearthkyn)
    G11   2027-01-09  Winter 2027 R1           volkus      Loot    Carol (Pathfinders) 5-3 Alice (Kasrkin)
    G12   2027-01-23  Winter 2027 R2           volkus      Loot    Dan (Kasrkin) 3-1 Bob (Legionaries)
    G13   2027-01-23  Winter 2027 R2           volkus      Loot    Erin v Alice, in progress (TP2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import blade, card, expend_all, gun

from ktlog.events import (
    ActivationEnded,
    DamageInflicted,
    FirefightPloyUsed,
    OperativeAdded,
    PlayerJoined,
)
from ktlog.play.builder import GameBuilder, loot, secure, shoot
from ktlog.storage.store import Store

PISTOL = gun("Pistol", 1, 4, (2, 3))
"""Atk 1, Hit 4+, Dmg 2/3. Against Save 4+ (three defence dice: 6 critical, 4-5 normal, 1-3 fail):
a normal hit (2/6) gets through only if no die saves, (1/2)^3 = 1/8; a critical (1/6) gets through
unless a 6 or two normal saves, that is with no 6 and at most one normal: (1/2)^3 + 3 (1/3)(1/2)^2
= 1/8 + 1/4 = 3/8. Expected damage 2/6 * 1/8 * 2 + 1/6 * 3/8 * 3 = 1/12 + 3/16 = 13/48."""
SNIPER = gun("Sniper", 1, 3, (1, 2), "Lethal 5+")
"""Atk 1, Hit 3+, Lethal 5+, Dmg 1/2: normal on 3-4 (2/6), critical on 5-6 (2/6). Against Save 4+:
2/6 * 1/8 * 1 + 2/6 * 3/8 * 2 = 1/24 + 1/4 = 7/24."""
MELTA = gun("Melta", 2, 4, (3, 4), "Piercing 3")
"""Atk 2, Hit 4+, Dmg 3/4, Piercing 3: no defence dice, so 2 * (2/6 * 3 + 1/6 * 4) = 10/3."""
TROOPER = card("Trooper", apl=2, save=4, wounds=10, weapons=(PISTOL, SNIPER, MELTA, blade()))


def game_id(n: int) -> str:
    """G01 -> "01000000-0000-4000-8000-000000000000": the number is the id's first two digits."""
    return f"{n:02d}000000-0000-4000-8000-000000000000"


@dataclass
class Played:
    """A game being written, and the seq of each moment a test wants to name."""

    g: GameBuilder
    start: str
    marks: dict[str, int] = field(default_factory=dict)

    def mark(self, name: str) -> Played:
        self.marks[name] = self.g.seq
        return self


def new(
    p1: str,
    team1: str,
    p2: str,
    team2: str,
    *,
    date: str,
    league: str,
    season: str,
    round: str,
    killzone: str = "volkus",
    crit_op: int = 2,
    start: str = "19:00",
) -> Played:
    """Set up a game: five Troopers a side (ids alice1 ... alice5), p1 with set-up initiative."""
    g = GameBuilder(killzone=killzone, date=date, league=league, season=season, round=round)
    for player, team in ((p1, team1), (p2, team2)):
        g.add(PlayerJoined(player=player, kill_team=team))
        for i in range(1, 6):
            g.add(OperativeAdded(player=player, operative=f"{player.lower()}{i}", datacard=TROOPER))
    g.setup(rolloff={p1: 6, p2: 1}, initiative=p1, crit_op=crit_op, markers=[("centre", p2), ("north", p1), ("south", p2)])
    return Played(g, f"{date}T{start}:00+00:00")


def tp(p: Played, initiative: str, *gambits: tuple) -> Played:
    """End the turning point under way (every ready operative activated with no action), then
    start the next: `initiative` wins the roll-off and takes initiative; gambits in turn."""
    g = p.g
    if g.state.turning_point:
        expend_all(g).end_turning_point()
    g.turning_point(g.state.turning_point + 1, {initiative: 4, g.state.opponent(initiative): 3}, initiative, gambits)
    return p


def act(p: Played, player: str, *actions, op: str | None = None, mark: str | None = None) -> Played:
    """Activate one of `player`'s operatives (the first ready one unless named) with these
    actions; if it is the opponent's turn, one of theirs activates first with no action.
    `mark` names the seq of the last action."""
    g = p.g
    s = g.state
    if s.next_player != player and s.ready_operatives(s.next_player):
        g.activate(s.ready_operatives(s.next_player)[0].id, "conceal")
    operative = op or g.state.ready_operatives(player)[0].id
    g.activate(operative, "engage", *actions, end=False)
    if mark:
        p.mark(mark)
    g.add(ActivationEnded(operative=operative))
    return p


def kill(p: Played, victim: str, by: str) -> Played:
    p.g.add(DamageInflicted(operative=victim, damage=99, source="other", by=by))
    return p


def ploy(p: Played, player: str, name: str) -> Played:
    """A firefight ploy for 1CP."""
    p.g.add(FirefightPloyUsed(player=player, ploy=name, cp=1))
    return p


def finish(p: Played) -> Played:
    """End turning point 4: the battle is over."""
    expend_all(p.g).end_turning_point()
    return p.mark("end")


# --- the games -------------------------------------------------------------------------------
# Initiative per turning point and CP are given in each game's docstring: (gained, spent).

AUTUMN = {"league": "Autumn League", "season": "2026"}
WINTER = {"league": "Winter League", "season": "2026"}
WINTER_2027 = {"league": "Winter League", "season": "2027"}


def g01() -> Played:
    """Alice 4-1 Bob. Initiative A B A B. Dice in TP1 (G01 dice table in the tests).
    Alice CP (8, 3): Take Aim, a Command Re-roll, Covering Fire. Bob (7, 1): Dark Pact.
    VP after each TP: Alice 1 2 3 4 (kills bob4, bob5, loot, +1 higher kill grade), Bob 0 1 1 1."""
    p = new("Alice", "Kasrkin", "Bob", "Legionaries", date="2026-09-05", round="1", **AUTUMN)
    tp(p, "Alice", ("Alice", "Take Aim"))
    act(p, "Alice", shoot("Pistol", "bob1", "6", "321"), op="alice1")  # critical, no save: 3
    act(p, "Bob", shoot("Pistol", "alice1", "4", "521"), op="bob1")  # normal hit, saved by the 5: 0
    act(p, "Alice", shoot("Sniper", "bob2", "5", "641"), op="alice2")  # Lethal 5+ critical, saved by the 6: 0
    act(p, "Bob", shoot("Melta", "alice2", "36"), op="bob2")  # one critical, no defence dice: 4
    act(p, "Alice", shoot("Pistol", "bob3", "2", "332", rerolls="1=5/command"), op="alice3")  # 2 re-rolled to 5: 2
    act(p, "Bob", shoot("Pistol", "alice3", "1", "612"), op="bob3")  # a miss: 0
    p.g.annotate("Alice spends her last CP but one on a re-roll")
    kill(p, "bob4", "alice4").mark("A kills bob4")
    p.g.annotate("bob4 falls to a <b>mine</b> & smoke")
    tp(p, "Bob", ("Bob", "Dark Pact"))
    act(p, "Bob", loot("north"), mark="B loots")
    act(p, "Alice", loot("centre"), mark="A loots")
    act(p, "Alice", loot("south"))
    p.g.undo().undo()  # recorded by mistake: the activation's end and the Loot are undone
    tp(p, "Alice")
    ploy(p, "Alice", "Covering Fire")
    kill(p, "bob5", "alice5").mark("A kills bob5")
    tp(p, "Bob")
    return finish(p)


def g02() -> Played:
    """Carol 6-2 Dan (dice in TP1; starts an hour before G01 on the same day).
    Initiative C C D D. Carol CP (8, 2): Recon Sweep twice. Dan (7, 1): a Command Re-roll,
    Combined Arms at 0CP. VP: Carol 0 1 4 6, Dan 1 2 2 2: Carol trailed 1-2 after TP2 and won."""
    p = new("Carol", "Pathfinders", "Dan", "Kasrkin", date="2026-09-05", round="1", start="18:00", **AUTUMN)
    tp(p, "Carol", ("Carol", "Recon Sweep"))
    act(p, "Carol", shoot("Sniper", "dan1", "4", "553"), op="carol1")  # normal hit, saved: 0
    act(p, "Dan", shoot("Pistol", "carol1", "2", "431", rerolls="1=6/command"), op="dan1")  # critical; one normal save cannot block it: 3
    act(p, "Carol", shoot("Melta", "dan2", "45"), op="carol2")  # two normal hits: 6
    act(p, "Dan", shoot("Sniper", "carol2", "3", "226"), op="dan3")  # normal hit (Hit 3+), saved by the 6: 0
    act(p, "Carol", shoot("Pistol", "dan3", "5", "123"), op="carol3")  # normal hit, no save: 2
    act(p, "Dan", shoot("Pistol", "carol3", "1", "444"), op="dan4")  # a miss: 0
    kill(p, "carol4", "dan5").mark("D kills carol4")
    tp(p, "Carol", ("Carol", "Recon Sweep"), ("Dan", "Combined Arms", 0))
    act(p, "Carol", loot("south"), mark="C loots south")
    act(p, "Dan", loot("north"), mark="D loots north")
    tp(p, "Dan")
    act(p, "Dan")
    act(p, "Carol", loot("north"), mark="C loots north")
    act(p, "Dan")
    act(p, "Carol", loot("south"), mark="C loots south again")
    kill(p, "dan4", "carol5").mark("C kills dan4")
    tp(p, "Dan")
    kill(p, "dan5", "carol5").mark("C kills dan5")
    return finish(p)


def g03() -> Played:
    """Erin 2-2 Alice, a draw. Initiative E A E A. Erin CP (8, 2): Ancestral Grudge, Void Armour.
    Alice (7, 1): Take Aim. VP: Erin 0 1 2 2, Alice 0 1 1 2; kill grades 1 and 1, no bonus."""
    p = new("Erin", "Hearthkyn", "Alice", "Kasrkin", date="2026-09-12", round="1", killzone="gallowdark", **AUTUMN)
    tp(p, "Erin", ("Erin", "Ancestral Grudge"))
    tp(p, "Alice", ("Alice", "Take Aim"))
    act(p, "Erin", loot("north"))
    kill(p, "erin4", "alice1")
    tp(p, "Erin")
    kill(p, "alice4", "erin1")
    tp(p, "Alice")
    act(p, "Alice", loot("centre"))
    ploy(p, "Erin", "Void Armour")
    return finish(p)


def g04() -> Played:
    """Carol 6-4 Bob, Secure. Initiative B C C B. Bob CP (8, 2): Dark Pact, Malicious Volleys.
    Carol (7, 2): Recon Sweep, Markerlight. Bob secures centre in TP2 (2VP at each of TP2's end,
    then 1VP at TP3 and TP4 once Carol has one too); Carol secures north in TP3 and south in TP4
    (1 at TP3's end, 2 at TP4's) and kills bob4, bob5.
    VP: Bob 0 2 3 4, Carol 1 2 3 6 (TP4: 3 + 2 crit + 1 higher kill grade)."""
    p = new("Bob", "Legionaries", "Carol", "Pathfinders", date="2026-09-26", round="2", crit_op=1, **AUTUMN)
    tp(p, "Bob", ("Bob", "Dark Pact"))
    kill(p, "bob4", "carol1")
    tp(p, "Carol", ("Carol", "Recon Sweep"))
    kill(p, "bob5", "carol1")
    act(p, "Bob", secure("centre"))
    tp(p, "Carol")
    act(p, "Carol", secure("north"))
    ploy(p, "Bob", "Malicious Volleys")
    ploy(p, "Carol", "Markerlight")
    tp(p, "Bob")
    act(p, "Carol", secure("south"))
    return finish(p)


def g05() -> Played:
    """Dan 8-1 Erin: Erin's kill team is wiped out in TP3. Initiative D D D D.
    Dan CP (6, 1): Take Aim. Erin (9, 2): Ancestral Grudge in TP2 and TP3.
    VP: Dan 2 4 7 8 (5 kills, 2 loots, +1 higher kill grade), Erin 0 1 1 1."""
    p = new("Dan", "Kasrkin", "Erin", "Hearthkyn", date="2026-10-03", round="2", **AUTUMN)
    tp(p, "Dan", ("Dan", "Take Aim"))
    kill(p, "erin1", "dan1")
    kill(p, "erin2", "dan1")
    tp(p, "Dan", ("Erin", "Ancestral Grudge"))
    act(p, "Erin", loot("north"))
    kill(p, "erin3", "dan2")
    act(p, "Dan", loot("centre"))
    tp(p, "Dan", ("Erin", "Ancestral Grudge"))
    kill(p, "erin4", "dan2")
    kill(p, "erin5", "dan3").mark("wiped out")
    act(p, "Dan", loot("south"))
    tp(p, "Dan")
    return finish(p)


def g06() -> Played:
    """Alice 1-1 Carol: Carol concedes after TP2. Initiative C C (two turning points).
    Alice CP (5, 1): Covering Fire. Carol (4, 1): Recon Sweep. VP: Alice 1 1, Carol 0 1."""
    p = new("Alice", "Kasrkin", "Carol", "Pathfinders", date="2026-10-10", round="2", killzone="gallowdark", **AUTUMN)
    tp(p, "Carol")
    ploy(p, "Alice", "Covering Fire")
    kill(p, "carol4", "alice1")
    tp(p, "Carol", ("Carol", "Recon Sweep"))
    kill(p, "alice4", "carol1")
    expend_all(p.g).end_turning_point()
    p.g.concede("Carol")
    return p.mark("end")


def g07() -> Played:
    """Bob 5-3 Dan. Initiative B D B D. Bob CP (8, 1): Dark Pact. Dan (7, 2): Take Aim in TP2, TP3.
    VP: Bob 1 1 3 5, Dan 0 2 3 3: Bob trailed 1-2 after TP2 and won."""
    p = new("Bob", "Legionaries", "Dan", "Kasrkin", date="2026-11-07", round="1", **WINTER)
    tp(p, "Bob")
    kill(p, "dan4", "bob1")
    tp(p, "Dan", ("Dan", "Take Aim"), ("Bob", "Dark Pact"))
    act(p, "Dan", loot("north"))
    act(p, "Bob")
    act(p, "Dan", loot("south"))
    tp(p, "Bob", ("Dan", "Take Aim"))
    act(p, "Bob", loot("north"))
    act(p, "Dan")
    act(p, "Bob", loot("centre"))
    kill(p, "bob4", "dan1")
    tp(p, "Dan")
    kill(p, "dan5", "bob1")
    return finish(p)


def g08() -> Played:
    """Erin 5-1 Carol (same day and start as G07). Initiative C C C E. Erin CP (8, 1): Void
    Armour. Carol (7, 1): Recon Sweep. VP: Erin 0 1 2 5, Carol 0 0 1 1."""
    p = new("Erin", "Hearthkyn", "Carol", "Pathfinders", date="2026-11-07", round="1", **WINTER)
    tp(p, "Carol", ("Carol", "Recon Sweep"))
    tp(p, "Carol")
    act(p, "Erin", loot("north"))
    ploy(p, "Erin", "Void Armour")
    tp(p, "Carol")
    act(p, "Erin", loot("centre"))
    kill(p, "erin4", "carol1")
    tp(p, "Erin")
    kill(p, "carol4", "erin1")
    kill(p, "carol5", "erin1")
    return finish(p)


def g09() -> Played:
    """Dan (Hearthkyn this time) 5-4 Alice, Secure. Initiative A A D D. Alice CP (8, 0): Combined
    Arms at 0CP. Dan (7, 1): Ancestral Grudge. Alice secures centre in TP2 (2VP), Dan north in
    TP3 (then 1VP each at TP3 and TP4), Dan kills alice4 and alice5 in TP4.
    VP: Alice 2 3 4 after TP2-4 (0 after TP1), Dan 0 0 1 5: Dan came back from 0-2 and 1-3."""
    p = new("Alice", "Kasrkin", "Dan", "Hearthkyn", date="2026-11-21", round="2", killzone="gallowdark", crit_op=1, **WINTER)
    tp(p, "Alice")
    tp(p, "Alice", ("Alice", "Combined Arms", 0))
    act(p, "Alice", secure("centre"))
    tp(p, "Dan")
    act(p, "Dan", secure("north"))
    tp(p, "Dan", ("Dan", "Ancestral Grudge"))
    kill(p, "alice4", "dan1")
    kill(p, "alice5", "dan1")
    return finish(p)


def g10() -> Played:
    """Bob 3-2 Erin. Initiative E B E B. Bob CP (7, 1): Malicious Volleys. Erin (8, 0).
    VP: Bob 0 2 3 3, Erin 1 1 1 2; kill grades 1 and 1, no bonus."""
    p = new("Bob", "Legionaries", "Erin", "Hearthkyn", date="2026-12-05", round="2", **WINTER)
    tp(p, "Erin")
    kill(p, "bob4", "erin1")
    tp(p, "Bob")
    act(p, "Bob", loot("north"))
    ploy(p, "Bob", "Malicious Volleys")
    act(p, "Bob", loot("south"))
    tp(p, "Erin")
    kill(p, "erin4", "bob1")
    tp(p, "Bob")
    act(p, "Erin", loot("centre"))
    return finish(p)


def g11() -> Played:
    """Carol 5-3 Alice. Initiative A C A C. Carol CP (7, 1): Markerlight. Alice (8, 2): Take Aim,
    Grenadier. VP: Carol 1 1 1 5, Alice 0 2 3 3: Carol came back from 1-2 and 1-3."""
    p = new("Carol", "Pathfinders", "Alice", "Kasrkin", date="2027-01-09", round="1", **WINTER_2027)
    tp(p, "Alice", ("Alice", "Take Aim"))
    kill(p, "alice4", "carol1")
    tp(p, "Carol")
    act(p, "Alice", loot("north"))
    act(p, "Alice", loot("centre"))
    ploy(p, "Alice", "Grenadier")
    tp(p, "Alice")
    kill(p, "carol4", "alice1")
    tp(p, "Carol")
    act(p, "Carol", loot("north"))
    act(p, "Carol", loot("south"))
    ploy(p, "Carol", "Markerlight")
    kill(p, "alice5", "carol1")
    return finish(p)


def g12() -> Played:
    """Dan 3-1 Bob. Initiative D B D B. Dan CP (8, 1): Covering Fire. Bob (7, 0).
    VP: Dan 0 1 2 3, Bob 0 1 1 1."""
    p = new("Dan", "Kasrkin", "Bob", "Legionaries", date="2027-01-23", round="2", **WINTER_2027)
    tp(p, "Dan")
    tp(p, "Bob")
    act(p, "Bob", loot("north"))
    act(p, "Dan", loot("south"))
    tp(p, "Dan")
    ploy(p, "Dan", "Covering Fire")
    kill(p, "bob4", "dan1")
    tp(p, "Bob")
    return finish(p)


def g13() -> Played:
    """Erin v Alice, still in TP2: Erin has killed alice4 (1VP). Not counted anywhere."""
    p = new("Erin", "Hearthkyn", "Alice", "Kasrkin", date="2027-01-23", round="2", **WINTER_2027)
    tp(p, "Erin")
    kill(p, "alice4", "erin1")
    return tp(p, "Alice")


GAMES = (g01, g02, g03, g04, g05, g06, g07, g08, g09, g10, g11, g12, g13)
IN_PROGRESS = game_id(13)


@dataclass(frozen=True)
class League:
    db: Path
    marks: dict[str, dict[str, int]]
    """Each game's marked seqs, by game id."""


@pytest.fixture(scope="session", name="league")
def league_fixture(tmp_path_factory) -> League:
    """The league in a file database, built once; tests that change it work on a copy."""
    db = tmp_path_factory.mktemp("league") / "league.db"
    return League(db, build(db))


def build(db: Path) -> dict[str, dict[str, int]]:
    """Write the league to a new database; returns each game's marked seqs, by game id."""
    marks = {}
    with Store(db) as store:
        for n, make in enumerate(GAMES, 1):
            p = make()
            store.import_envelopes(game_id(n), p.g.sealed(game_id(n), p.start))
            marks[game_id(n)] = p.marks
    return marks

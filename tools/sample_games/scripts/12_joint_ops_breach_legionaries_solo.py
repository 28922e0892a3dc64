"""Joint Ops 01 Breach (core book pg 87-91) on Killzone Volkus, solo: Hugo's Legionaries (all 6)
against ten NPOs with a combined Wounds stat of 89 (the mission allows 90), which Hugo ran by the
NPO behaviours of pg 88. The NPOs won the set-up roll-off and so took initiative (pg 87). Their
Heavy (Marksman) shot twice at once, but the heavy bolter, the boltguns and the champion's plasma
pistol cut down four NPOs in turning point 1. In turning point 2 the Heavy (Brawler) fought twice
and tore the Icon Bearer apart, and two Trooper (Brawler) NPOs finished Legionary-1, yet only one
NPO was left standing. Turning point 3's roll-off was a tie, the NPOs decided and took initiative;
their last Trooper (Brawler) charged the Chosen and fell to its Daemon blade: every NPO is
incapacitated, the battle ends at once and Hugo wins.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.events import OperativeAdded, PlayerJoined
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, charge, dash, fight, reposition, shoot, unique

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "5b0e8f0c-6a3e-4a0f-9d51-2f1c0b7e9a12"
STARTED_AT = "2026-10-18T14:00:00+00:00"
DESCRIPTION = "Joint Ops 01 Breach, solo: Legionaries against 89 Wounds of NPOs; the last NPO falls in TP3"

# Joint Ops has no VP (pg 87): the score is each side's total of 0 and the mission decides.
# NPOs (npo.toml, pg 89): heavy-brawler 14, heavy-marksman 14, tough-brawler 10, warrior-marksman-1/2
# 8 each, trooper-marksman-1/2/3 7 each, trooper-brawler-1/2 7 each = 89 <= 90 (Breach, pg 90).
# NPOs incapacitated: TP1 trooper-marksman-1, warrior-marksman-1, heavy-marksman, trooper-marksman-2;
# TP2 tough-brawler, heavy-brawler, warrior-marksman-2, trooper-marksman-3, trooper-brawler-1;
# TP3 trooper-brawler-2 -> all ten: the players win (pg 90). Hugo loses the Icon Bearer and Legionary-1.
EXPECTED = {
    "winner": "Hugo",
    "draw": False,
    "ended_by": "battle",
    "score": {"Hugo": {"total": 0}, "NPOs": {"total": 0}},
}

NPOS = [
    ("heavy-brawler", "heavy-brawler"),
    ("heavy-marksman", "heavy-marksman"),
    ("tough-brawler", "tough-brawler"),
    ("warrior-marksman-1", "warrior-marksman"),
    ("warrior-marksman-2", "warrior-marksman"),
    ("trooper-marksman-1", "trooper-marksman"),
    ("trooper-marksman-2", "trooper-marksman"),
    ("trooper-marksman-3", "trooper-marksman"),
    ("trooper-brawler-1", "trooper-brawler"),
    ("trooper-brawler-2", "trooper-brawler"),
]


def build() -> GameBuilder:
    g = GameBuilder(ruleset="kt24-joint", killzone="volkus", date="2026-10-18", mission="breach")
    g.player("Hugo", load_roster(ROSTERS / "legionaries.toml"))
    cards = {o.id: o.datacard for o in load_roster(ROSTERS / "npo.toml").operatives}
    g.add(PlayerJoined(player="NPOs", kill_team="Traitor guard garrison", faction="NPO", npo=True))
    for op_id, card in NPOS:
        g.add(OperativeAdded(player="NPOs", operative=op_id, datacard=cards[card]))
    g.annotate("Solo game: Hugo runs the NPOs by the Brawler and Marksman behaviours and the threat principle (pg 88)")
    # The NPOs win the set-up roll-off and take initiative (pg 87). Hugo sets up the map's two
    # objective markers (ktlog's ruling: the players place what the mission map shows), the NPOs
    # take their drop zone first. Hugo gains 2CP; the NPOs gain none (ruling: they use no ploys).
    # Operatives set up in thirds, NPOs first: 4, then Hugo 2, NPOs 4, Hugo 2, NPOs 2, Hugo 2.
    g.setup(
        rolloff={"Hugo": 4, "NPOs": 6},
        initiative="NPOs",
        markers=[("west-objective", "Hugo"), ("east-objective", "Hugo")],
        drop_zones={"NPOs": "north", "Hugo": "south"},
        equipment={"Hugo": ["Frag grenades", "Ammo cache"], "NPOs": ["Light barricades"]},
    )

    # ============================== TP1 ==============================
    # NPOs win the roll-off and take initiative. Hugo 2+1 = 3CP, one gambit -> 2CP. NPOs 0CP.
    g.turning_point(1, {"Hugo": 3, "NPOs": 5}, initiative="NPOs", gambits=[("Hugo", "Malicious Volleys")])
    # Heavy (Marksman) shoots twice (pg 89) at legionary-1 in the open. 1st: 6 crit, 4 and 3 normal
    # (Hit 3+), 2 miss; saves 5, 3 (3+), 1 -> two normal saves block the two normals: 4. Legionary-1
    # 14 -> 10. 2nd: 5, 5 normal; saves 4 normal, 6 critical: both blocked. Then it repositions.
    g.activate("heavy-marksman", "engage", shoot("Firearm", "legionary-1", "6432", "531"), shoot("Firearm", "legionary-1", "5512", "426"), reposition())
    # Heavy bolter (focused) at the Heavy (Marksman), Engage and in cover: 6 crit, 5/3/4 normal, 2 miss.
    # Piercing Crits 1 -> 2 dice, one the cover save: rolls 3 (3+) -> 2 normal saves block 2 normals;
    # 4 + 5 = 9. Heavy (Marksman) 14 -> 5. Then a Dash (Heavy (Dash only)).
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "heavy-marksman", "65324", "3", cover=True), dash())
    # Trooper (Marksman) 1 takes the special weapon (1 in 3 troopers, pg 89) at the heavy gunner:
    # 6 crit, 4 normal; Piercing 1 -> 2 dice: 4 saves, 2 fails -> the save blocks the normal; crit 5.
    # Heavy gunner 14 -> 9.
    g.activate("trooper-marksman-1", "engage", reposition(), shoot("Special weapon", "heavy-gunner", "6421", "42"))
    # Legionary-2's boltgun at trooper-marksman-1 in the open: 6 crit, 5/3 normal; saves 5 (5+), 2, 1
    # -> one normal blocked: 3 + 4 = 7. TROOPER-MARKSMAN-1 INCAPACITATED (1 of 10 NPOs).
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "trooper-marksman-1", "5362", "521"))
    # Warrior (Marksman) 1 at legionary-2: 4, 4, 5 normal (Hit 4+), 1 miss; saves 3 normal, 6 crit,
    # 2 -> two blocked, one through: 3. Legionary-2 14 -> 11.
    g.activate("warrior-marksman-1", "engage", shoot("Firearm", "legionary-2", "4415", "362"), reposition())
    g.activate("chosen", "conceal", reposition(), dash())
    g.activate("tough-brawler", "conceal", reposition(), dash())  # too far to Charge: Conceal (pg 88)
    # The Aspiring Champion's plasma pistol (standard, Piercing 1) at warrior-marksman-1 in cover:
    # 6 crit, 3/5 normal, 1 miss; 2 dice, one the cover save: rolls 2 (4+ fails) -> the cover save
    # blocks a normal: 3 + 5 = 8. WARRIOR-MARKSMAN-1 INCAPACITATED (2 of 10).
    g.activate("aspiring-champion", "engage", reposition(), shoot("Plasma pistol (standard)", "warrior-marksman-1", "3561", "2", cover=True))
    g.activate("heavy-brawler", "conceal", reposition(), dash())
    # Icon Bearer's boltgun at the Heavy (Marksman) (5 wounds left) in cover: 6 crit, 3/5 normal, 2 miss;
    # rolls 2, 1 beside the cover save -> one normal blocked: 3 + 4 = 7. HEAVY-MARKSMAN INCAPACITATED
    # (3 of 10). Then the Dark Icon.
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "heavy-marksman", "6352", "21", cover=True), unique("Dark Icon"))
    # Trooper (Marksman) 2 (the special weapon is taken: its Firearm) at the Icon Bearer: 5/4/4 normal,
    # 2 miss; saves 2, 2, 5 -> one blocked: 2 + 2 = 4. Icon Bearer 14 -> 10.
    g.activate("trooper-marksman-2", "engage", shoot("Firearm", "icon-bearer", "5244", "225"), reposition())
    # Legionary-1 (10) at trooper-marksman-2 in cover: 6 crit, 3/3/4 normal; saves 5 normal, 6 crit, plus
    # the cover save: the critical save blocks the crit, two normals block two normals: 3. 7 -> 4.
    g.activate("legionary-1", "engage", reposition(), shoot("Boltgun", "trooper-marksman-2", "3346", "56", cover=True))
    # Every Legionary is expended; four NPOs are still ready.
    g.activate("trooper-brawler-1", "conceal", reposition(), dash())
    # Counteract (pg 39): the heavy gunner (Engage, expended) fires at trooper-marksman-2 (4) in cover:
    # 5/4/3 normal, 1 and 2 miss, no crit (so no Piercing Crits); rolls 1, 2 beside the cover save ->
    # one normal blocked: 2 x 4 = 8. TROOPER-MARKSMAN-2 INCAPACITATED (4 of 10).
    g.counteract("heavy-gunner", shoot("Heavy bolter (focused)", "trooper-marksman-2", "54132", "12", cover=True))
    g.activate("trooper-brawler-2", "conceal", reposition(), dash())
    # Trooper (Marksman) 3 at legionary-1 (10): 6 crit, 4 normal; saves 1, 2, 3 -> the normal blocked;
    # crit 3. Legionary-1 10 -> 7.
    g.activate("trooper-marksman-3", "engage", shoot("Firearm", "legionary-1", "6431", "123"), reposition())
    g.activate("warrior-marksman-2", "conceal", reposition(), dash())  # no valid target: Conceal (pg 88)
    g.end_turning_point()
    # After TP1: Legionaries: legionary-1 7, legionary-2 11, heavy gunner 9, Icon Bearer 10, Aspiring
    # Champion 15, Chosen 15. NPOs: 6 of 10 left.

    # ============================== TP2 ==============================
    # Hugo wins the roll-off and takes initiative: 2+1 = 3CP, a gambit -> 2CP.
    g.turning_point(2, {"Hugo": 5, "NPOs": 2}, initiative="Hugo", gambits=[("Hugo", "Dark Pact")])
    # The Chosen charges the Tough (Brawler): Daemon blade 6, 5 crit (Lethal 5+), 3 normal, 2 and 1
    # fail; Blades 4, 1, 1, 3 with Ceaseless re-rolling the 1s into 5 and 2 -> 4 and 5 normal.
    # Strikes, best first: Chosen crit 6 (tough 10 -> 4), tough 4 (Chosen 15 -> 11), Chosen crit 6.
    # TOUGH-BRAWLER INCAPACITATED (5 of 10).
    g.activate(
        "chosen",
        "engage",
        charge("tough-brawler"),
        fight("Daemon blade", "tough-brawler", "Blades", "65321", "4113", target_rerolls="2=5/ceaseless 3=2/ceaseless"),
    )
    # The Heavy (Brawler) charges the Icon Bearer (10) and fights twice (pg 89). 1st: 6 crit, 5/3 normal;
    # chainsword 6 crit, 4 normal. Heavy crit 5 (icon 10 -> 5); icon crit 5 (heavy 14 -> 9), Shock
    # discards a heavy normal; heavy 4 (icon 5 -> 1); icon 4 (heavy 9 -> 5). 2nd, both injured now
    # (Hit 4+, pg 47): 4/5 normal against nothing: heavy 4. ICON BEARER INCAPACITATED.
    g.activate(
        "heavy-brawler",
        "engage",
        charge("icon-bearer"),
        fight("Blades", "icon-bearer", "Chainsword", "65213", "42116"),
        fight("Blades", "icon-bearer", "Chainsword", "34125", "22311"),
    )
    # Legionary-2's boltgun at the Heavy (Brawler) (5) in the open: 6 crit, 5/4 normal; saves 4, 1, 2
    # -> one normal blocked: 3 + 4 = 7. HEAVY-BRAWLER INCAPACITATED (6 of 10).
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "heavy-brawler", "5462", "412"))
    # Warrior (Marksman) 2 at legionary-2 (11): 6 crit, 5/4 normal; saves 3, 1, 1 -> one normal blocked:
    # 3 + 4 = 7. Legionary-2 11 -> 4.
    g.activate("warrior-marksman-2", "engage", shoot("Firearm", "legionary-2", "6542", "311"), reposition())
    # Aspiring Champion supercharges at warrior-marksman-2 in cover: 6, 5 crit (Lethal 5+), 3 normal;
    # Piercing 1: 2 dice, one the cover save: rolls 2 -> the cover save blocks the normal; 2 x 5 = 10.
    # WARRIOR-MARKSMAN-2 INCAPACITATED (7 of 10). Hot: rolls 4, not below Hit 3.
    g.activate("aspiring-champion", "engage", shoot("Plasma pistol (supercharge)", "warrior-marksman-2", "6532", "2", cover=True, hot=4), dash())
    # Trooper (Marksman) 3 at legionary-2 (4): 4/4/5 normal; saves 3, 3, 2 -> two blocked: 2. 4 -> 2.
    g.activate("trooper-marksman-3", "engage", shoot("Firearm", "legionary-2", "4452", "332"), reposition())
    # Heavy bolter (focused) at trooper-marksman-3 in cover: 6 crit, 4/4/3 normal; Piercing Crits 1 ->
    # 2 dice, one the cover save: rolls 5 (5+) -> 2 normals blocked: 4 + 5 = 9. TROOPER-MARKSMAN-3
    # INCAPACITATED (8 of 10).
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "trooper-marksman-3", "44326", "5", cover=True), dash())
    # Trooper (Brawler) 1 charges legionary-1 (7): Blades 4, 5 normal; chainsword 6 crit, 3/4 normal.
    # Brawler 3 (7 -> 4); legionary crit 5 (brawler 7 -> 2); brawler 3 (4 -> 1); legionary 4.
    # TROOPER-BRAWLER-1 INCAPACITATED (9 of 10).
    g.activate("trooper-brawler-1", "engage", charge("legionary-1"), fight("Blades", "legionary-1", "Chainsword", "4521", "63421"))
    g.activate("legionary-1", "conceal", reposition(), dash())  # 1 wound left: into cover
    # Trooper (Brawler) 2 charges legionary-1 (1, injured: Hit 4+): 6 crit, 4 normal; chainsword 5
    # normal. The brawler's crit 4 strikes first. LEGIONARY-1 INCAPACITATED.
    g.activate("trooper-brawler-2", "engage", charge("legionary-1"), fight("Blades", "legionary-1", "Chainsword", "6413", "22153"))
    g.end_turning_point()
    # After TP2: Chosen 11, legionary-2 2, Aspiring Champion 15, heavy gunner 9; one NPO left.

    # ============================== TP3 ==============================
    # A tie: the player who did not have initiative in TP2 decides (pg 37) - the NPOs, who take it.
    # Hugo gains 2CP (no initiative): 2 + 2 = 4. The NPOs pass, then Hugo.
    g.turning_point(3, {"Hugo": 6, "NPOs": 6}, initiative="NPOs")
    # Trooper (Brawler) 2 charges the Chosen (11): 6 crit, 4/4 normal, 2 fail; Daemon blade 5, 5 crit,
    # 3 normal. Brawler crit 4 (Chosen 11 -> 7); Chosen crit 6 (brawler 7 -> 1); brawler 3 (Chosen
    # 7 -> 4); Chosen crit 6.
    # TROOPER-BRAWLER-2 INCAPACITATED: every NPO is incapacitated, the battle ends (pg 90): Hugo wins.
    g.activate("trooper-brawler-2", "engage", charge("chosen"), fight("Blades", "chosen", "Daemon blade", "4426", "55312"))
    return g

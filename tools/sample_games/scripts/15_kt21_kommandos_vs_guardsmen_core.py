"""Winter League (KT21), round 1, table 2: Kasia's Kommandos (all 10) against Lars's Veteran
Guardsmen (all 10) in Killzone Chalnath, mission Secure Archeotech, played by the core book
without a balance dataslate. Both initiative roll-offs that tied were settled as 001 says: in TP1
rolled again, in TP4 given to the player who did not have initiative before. The rokkit's blast
and the burna's torrent broke the guardsmen's firing line, the Nob's power klaw (Brutal: only
critical hits parry it) felled the sergeant, and with Lars out of operatives to activate his
grenadier and medic put Overwatch on the Kommandos. The Slasha Boy cut down the last guardsman,
the sniper, in turning point 4. Kasia reached 12 mission VP, the core book's cap (004): her last
marker scores 3 where it would have scored 4. Kasia wins 16-6.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.events import GambitPassed, InitiativeDecided, RolledOff, StrategicGambitUsed, TurningPointStarted, WoundsRegained
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, act, attack, charge, dash, fight, shoot, unique
from ktlog.rulesets.kt21.events import MissionVPScored, NormalMoved, OverwatchFired, Passed

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "8d2b6a43-0f5e-4d8a-a6c9-5e17b3f2c0a8"
STARTED_AT = "2026-11-07T19:15:00+00:00"
DESCRIPTION = "Winter League (KT21) R1 T2: Kommandos v Veteran Guardsmen, Secure Archeotech, no dataslate; Kasia wins 16-6"

# Hand tally (worked out before running build.py). Caps without a dataslate (004: "instead of 12"
# and "instead of 20"): 12 mission VP, 20 in all.
#   Kasia: mission 2 (TP1) + 3 (TP2) + 4 (TP3) + 3 (TP4, capped at 12) = 12; tac 2 (TP2) + 1 (TP3) + 1 (TP4) = 4 -> 16.
#   Lars:  mission 1 (TP1) + 2 (TP2) + 1 (TP3) = 4; tac 1 (TP2) + 1 (TP3) = 2 -> 6.
EXPECTED = {
    "winner": "Kasia",
    "draw": False,
    "ended_by": "battle",
    "score": {"Kasia": {"mission": 12, "tac": 4, "total": 16}, "Lars": {"mission": 4, "tac": 2, "total": 6}},
}


def mission(player: str, vp: int, reason: str) -> MissionVPScored:
    return MissionVPScored(player=player, vp=vp, category="mission", reason=reason)


def tac(player: str, vp: int, reason: str) -> MissionVPScored:
    return MissionVPScored(player=player, vp=vp, category="tac", reason=reason)


def build() -> GameBuilder:
    g = GameBuilder(
        ruleset="kt21", killzone="chalnath", date="2026-11-07", mission="Secure Archeotech", league="Winter League", season="2026-27", round="1", table="2"
    )
    g.player("Kasia", load_roster(ROSTERS / "kt21_kommandos.toml"))
    g.player("Lars", load_roster(ROSTERS / "kt21_veteran_guardsmen.toml"))
    # Set-up roll-off 3-3: rolled again (001 Dice), Kasia 6-2.
    g.setup(
        rolloff=[{"Kasia": 3, "Lars": 3}, {"Kasia": 6, "Lars": 2}],
        initiative="Kasia",
        markers=[("centre", "Kasia"), ("north", "Lars"), ("south", "Kasia"), ("east", "Lars")],
        equipment={"Kasia": ["Stikkbombs", "Choppa upgrade"], "Lars": ["Frag grenade", "Krak grenade"]},
    )
    # CP after set-up: 2 each. Kommandos Sv 5+, W 10 (injured at 4 or less; the Nob 13, at 6 or less).
    # Guardsmen Sv 5+, W 7 (injured at 3 or less; the sergeant 8). DF 3 everywhere.

    # ============================== TURNING POINT 1 ==============================
    # The initiative roll-off ties 4-4 and is rolled again (001: TP1 as the mission sequence, a
    # roll-off): Lars 5-2, he takes it. CP +1 each: K 3, L 3; ploys -> L 2, K 2.
    g.add(
        TurningPointStarted(turning_point=1),
        RolledOff(purpose="initiative", rolls={"Kasia": 4, "Lars": 4}),
        RolledOff(purpose="initiative", rolls={"Kasia": 2, "Lars": 5}),
        InitiativeDecided(player="Lars"),
        StrategicGambitUsed(player="Lars", gambit="Take Aim"),
        StrategicGambitUsed(player="Kasia", gambit="Sneaky Gitz"),
        GambitPassed(player="Lars"),
        GambitPassed(player="Kasia"),
    )
    g.activate("sniper", "conceal", act(Passed), act(Passed))
    g.activate("boy-1", "conceal", act(NormalMoved), dash())
    # Lasgun at boy-1, caught in the open after its dash: 1 5 3 2, Lars re-rolls the 1 with a
    # Command Re-roll (L 2 -> 1): a 6. 6 critical, 5 normal; the 6 saves the critical: 2. Boy-1 10 -> 8.
    g.activate("trooper-1", "engage", act(NormalMoved), shoot("Lasgun", "boy-1", "1532", "611", rerolls="1=6/command"))
    g.activate("boy-2", "conceal", act(NormalMoved), dash())
    g.activate("trooper-2", "conceal", act(NormalMoved), dash())
    # Dakka shoota (BS 5+, Balanced) at trooper-1 in cover: 5 3 2 1 1, Balanced re-rolls one 1 into a
    # 6: 5 normal, 6 critical; cover save + 4 1: the cover save blocks the normal: 4. Trooper-1 7 -> 3.
    g.activate("dakka", "engage", act(NormalMoved), shoot("Dakka shoota", "trooper-1", "53211", "41", cover=True, rerolls="4=6/balanced"))
    # Plasma (standard, AP1 -> 2 dice) at the Dakka Boy: 5 4 4 normal; 5 6 save two: 5. Dakka 10 -> 5.
    g.activate("plasma-gunner", "engage", act(NormalMoved), shoot("Plasma gun (standard)", "dakka", "5441", "56"))
    # Rokkit launcha (Blast 2", !MW2) at the plasma gunner in cover, trooper-1 beside it:
    # plasma gunner: 6 critical (2 mortal wounds); cover save + 5 5: two normal saves block the
    #   critical; the mortal wounds stay: 2. Plasma gunner 7 -> 5.
    # trooper-1 (a Blast target: not in cover): 5 4 normal; the 5 saves one: 5. Trooper-1 incapacitated.
    g.activate(
        "rokkit", "engage", act(NormalMoved), shoot("Rokkit launcha", "plasma-gunner", "6321", "55", cover=True, extra=[attack("trooper-1", "5411", "522")])
    )
    # Bolt pistol (BS 3+) at the Rokkit Boy: 4 4 3 3 normal; 6 5 6 save three: 3. Rokkit 10 -> 7.
    g.activate("sergeant", "engage", act(NormalMoved), shoot("Bolt pistol", "rokkit", "4433", "656"))
    # Burna (Torrent 2", BS 2+) at the sergeant and the comms veteran beside it (Conceal, no cover):
    # sergeant: 6 2 2 hit; the 5 saves one: 4. Sergeant 8 -> 4.
    # comms: 5 4 3 2 hit; 6 and 5 save two: 4. Comms 7 -> 3 (injured).
    g.activate("burna", "engage", act(NormalMoved), shoot("Burna", "sergeant", "62211", "531", extra=[attack("comms", "54321", "615")]))
    # Comms (injured, BS 5+) at the burna: 5 5 normal: 4. Burna 10 -> 6.
    g.activate("comms", "engage", act(NormalMoved), shoot("Lasgun", "burna", "5521", "111"))
    # Throwing knives (Silent: from Conceal) at the comms veteran in cover: 6 6 critical, 4 normal;
    # the cover save blocks the normal: 8. Comms incapacitated.
    g.activate("slasha", "conceal", act(NormalMoved), shoot("Throwing knives", "comms", "6642", "13", cover=True))
    g.activate("trooper-3", "conceal", act(NormalMoved), dash())
    g.activate("comms-boy", "conceal", act(NormalMoved), unique("Scramble Signals"))
    g.activate("demolition", "conceal", act(NormalMoved), dash())
    g.activate("breacha", "conceal", act(NormalMoved), dash())
    g.activate("medic", "conceal", act(NormalMoved), dash())
    g.activate("nob", "conceal", act(NormalMoved), dash())
    # Frag at the Nob in the open, the Breacha Boy within 2": Nob 5 4 normal, 5 5 save both;
    # Breacha (Blast: not in cover) 6 critical: 4. Breacha 10 -> 6.
    g.activate("grenadier", "engage", act(NormalMoved), shoot("Grenade launcher (frag)", "nob", "5431", "155", extra=[attack("breacha", "6211", "111")]))
    # Scoped big shoota (Heavy, !MW2) at the grenadier in cover: 6 critical (2 mortal wounds), 4 4
    # normal; cover save + 6 5: three saves block all three hits; the mortal wounds stay: 2.
    # Grenadier 7 -> 5. The Snipa Boy passes.
    g.activate("snipa", "engage", shoot("Scoped big shoota", "grenadier", "64421", "65", cover=True), act(Passed))
    g.add(mission("Kasia", 2, "controls the centre and south markers"), mission("Lars", 1, "controls the north marker"))
    g.end_turning_point()
    # Score: Kasia 2, Lars 1. CP: K 2, L 1.
    # Lars: sergeant 4, plasma 5, grenadier 5 (trooper-1 and comms down).
    # Kasia: boy-1 8, dakka 5, rokkit 7, burna 6, breacha 6.

    # ============================== TURNING POINT 2 ==============================
    # Kasia wins 5-2. CP +1 each: K 3, L 2; Kasia's ploy -> K 2.
    g.turning_point(2, {"Kasia": 5, "Lars": 2}, initiative="Kasia", gambits=[("Kasia", "Dakka Dakka Dakka")])
    # The Nob charges the injured sergeant (chainsword WS 4+). Power klaw 6 critical, 5 4 normal;
    # chainsword 6 critical. The Nob strikes first with its critical (7): sergeant incapacitated.
    g.activate("nob", "engage", charge("sergeant"), fight("Power klaw", "sergeant", "Chainsword", "6541", "6532", steps="sc"))
    # Long-las at the Nob: 6 6 critical (6 mortal wounds), 2 2 normal (BS 2+); 6 and 5 save two
    # hits: 6 + 6 = 12. Nob 13 -> 1.
    g.activate("sniper", "conceal", shoot("Long-las", "nob", "6622", "651"), act(Passed))
    # Boy-1 charges trooper-2. Choppa 6 critical, 4 3 normal; bayonet 5 5 normal. Strike (5:
    # trooper 7 -> 2), strike (2: boy 8 -> 6), strike (4): trooper-2 incapacitated.
    g.activate("boy-1", "engage", charge("trooper-2"), fight("Choppa", "trooper-2", "Bayonet", "6431", "551", steps="sc sn sn"))
    # Plasma (AP1 -> 2 dice) at boy-1: 6 critical, 5 normal; 1 2 save nothing: 11. Boy-1 incapacitated.
    g.activate("plasma-gunner", "engage", act(NormalMoved), shoot("Plasma gun (standard)", "boy-1", "6521", "12"))
    # Dakka shoota at the plasma gunner in cover: 5 5 6 1 1, Balanced re-rolls one 1 into a 5:
    # 3 normal, 1 critical; cover save + 5: two normal saves block two normals: 3 + 4 = 7.
    # Plasma gunner incapacitated.
    g.activate("dakka", "engage", act(NormalMoved), shoot("Dakka shoota", "plasma-gunner", "55611", "52", cover=True, rerolls="4=5/balanced"))
    # Krak (AP1 -> 2 dice) at the Dakka Boy: 5 5 4 normal; the 6 saves one: 8. Dakka incapacitated.
    g.activate("grenadier", "engage", act(NormalMoved), shoot("Grenade launcher (krak)", "dakka", "5542", "63"))
    # Rokkit at the grenadier in cover: 4 4 normal; cover save + 6 block both.
    g.activate("rokkit", "engage", act(NormalMoved), shoot("Rokkit launcha", "grenadier", "4431", "61", cover=True))
    # Lasgun at the Rokkit Boy: 6 critical, 4 4 normal; the 5 saves a normal: 5. Rokkit 7 -> 2.
    g.activate("trooper-3", "engage", act(NormalMoved), shoot("Lasgun", "rokkit", "6441", "511"))
    # Burna at trooper-3: 6 critical, 5 4 3 normal (all 2 damage); the 5 saves one: 6. Trooper-3 7 -> 1.
    g.activate("burna", "engage", act(NormalMoved), shoot("Burna", "trooper-3", "65431", "533"))
    # Lasgun at the burna: 5 5 4 normal; the 6 saves one: 4. Burna 6 -> 2.
    g.activate("demolition", "engage", act(NormalMoved), shoot("Lasgun", "burna", "5543", "611"))
    # The Slasha Boy charges the demolition veteran: 2 2 1 1, Relentless re-rolls all four: 6 5 4 2;
    # bayonet 4 normal. Strike (5: demolition 7 -> 2), strike (2: slasha 10 -> 8), strike (4):
    # demolition incapacitated.
    g.activate(
        "slasha",
        "engage",
        charge("demolition"),
        fight("Twin choppas", "demolition", "Bayonet", "2211", "431", steps="sc sn sn", rerolls="1=6/relentless 2=5/relentless 3=4/relentless 4=2/relentless"),
    )
    g.activate("medic", "engage", act(NormalMoved), unique("Medikit"))
    g.add(WoundsRegained(operative="trooper-3", wounds=2, reason="Medikit (Veteran Guardsman Medic)"))
    # Lars's operatives are all expended; Kasia has four left.
    # Slugga at the medic in cover: 6 critical, 5 normal; the cover save blocks the normal: 4. Medic 7 -> 3.
    g.activate("boy-2", "engage", act(NormalMoved), shoot("Slugga", "medic", "6521", "14", cover=True))
    # Lars's turn with nothing to activate: Overwatch (001) by the grenadier, krak BS 4+ worsened to
    # 5+: 5 5 normal; AP1 -> 2 dice, the 5 saves one: 4. Boy-2 10 -> 6.
    g.perform("grenadier", shoot("Grenade launcher (krak)", "boy-2", "5541", "52", as_=OverwatchFired))
    # Slugga at trooper-3 (3 wounds) in cover: 5 5 normal; the cover save blocks one: 3. Trooper-3
    # incapacitated.
    g.activate("comms-boy", "engage", act(NormalMoved), shoot("Slugga", "trooper-3", "5511", "43", cover=True))
    # Overwatch by the medic (injured: BS 5+, worsened to 6+): 6 6 critical; 5 5 save one: 3.
    # Comms boy 10 -> 7.
    g.perform("medic", shoot("Lasgun", "comms-boy", "6653", "551", as_=OverwatchFired))
    # No Engage guardsman is left to Overwatch (the sniper is on Conceal).
    g.activate("breacha", "engage", act(NormalMoved), act(Passed))
    # Scoped big shoota at the medic in cover: 6 critical (2 mortal wounds), 5 4 normal; the cover
    # save blocks a normal: 2 + 3 + 3 = 8. Medic incapacitated.
    g.activate("snipa", "engage", shoot("Scoped big shoota", "medic", "65431", "42", cover=True), act(Passed))
    g.add(
        mission("Kasia", 3, "controls three markers"),
        tac("Kasia", 2, "Headhunter: the sergeant incapacitated"),
        mission("Lars", 2, "controls the north marker and contests the centre"),
        tac("Lars", 1, "Rout: an enemy incapacitated in combat"),
    )
    g.end_turning_point()
    # Score: Kasia 5 + 2 = 7, Lars 3 + 1 = 4. CP: K 2, L 2.
    # Lars: sniper 7, grenadier 5. Kasia: nob 1, boy-2 6, rokkit 2, burna 2, slasha 8, comms-boy 7,
    # breacha 6, snipa 10.

    # ============================== TURNING POINT 3 ==============================
    # Lars wins 5-2. CP +1 each: K 3, L 3; Lars's ploy -> L 2.
    g.turning_point(3, {"Kasia": 2, "Lars": 5}, initiative="Lars", gambits=[("Lars", "Take Aim")])
    # Long-las at the Nob in cover: 5 3 hit; cover save + 2 2: one blocked, 3 through. Nob incapacitated.
    g.activate("sniper", "conceal", shoot("Long-las", "nob", "5311", "22", cover=True), act(Passed))
    # Scoped big shoota at the grenadier in cover: 4 4 normal; cover save + 5 block both.
    g.activate("snipa", "engage", shoot("Scoped big shoota", "grenadier", "44311", "51", cover=True), act(Passed))
    # Frag at the burna (2 wounds), the Rokkit Boy (2 wounds) beside it: burna 4 normal, no save: 2;
    # rokkit 5 4 normal, the 6 saves one: 2. Both incapacitated.
    g.activate("grenadier", "engage", act(NormalMoved), shoot("Grenade launcher (frag)", "burna", "4321", "222", extra=[attack("rokkit", "5421", "611")]))
    # Lars has nothing left to activate; Kasia activates the rest.
    # Boy-2 charges the grenadier: choppa 5 5 3 normal; gun butt 6 critical, 4 normal. Strike (4:
    # grenadier 5 -> 1), strike (3: boy 6 -> 3), strike (4): grenadier incapacitated.
    g.activate("boy-2", "engage", charge("grenadier"), fight("Choppa", "grenadier", "Gun butt", "5532", "641", steps="sn sc sn"))
    g.activate("slasha", "engage", act(NormalMoved), dash())
    g.activate("comms-boy", "engage", act(NormalMoved), act(Passed))
    g.activate("breacha", "engage", act(NormalMoved), act(Passed))
    g.add(
        mission("Kasia", 4, "controls all four markers"),
        tac("Kasia", 1, "Seize Ground: the east marker taken"),
        mission("Lars", 1, "the sniper contests the north marker"),
        tac("Lars", 1, "Sniper's Eye: the Nob incapacitated by a shooting attack"),
    )
    g.end_turning_point()
    # Score: Kasia 9 + 3 = 12, Lars 4 + 2 = 6. CP: K 3, L 2.
    # Lars: sniper 7. Kasia: boy-2 3, slasha 8, comms-boy 7, breacha 6, snipa 10.

    # ============================== TURNING POINT 4 ==============================
    # A 3-3 tie: Lars had initiative in TP3, so Kasia has it (001). CP +1 each: K 4, L 3.
    g.turning_point(4, {"Kasia": 3, "Lars": 3}, initiative="Kasia")
    # The Slasha Boy charges the sniper: twin choppas 6 critical, 5 4 3 normal; gun butt 5 normal.
    # Strike (5: sniper 7 -> 2), the sniper parries a normal, strike (4): sniper incapacitated.
    # Lars's kill team is wiped out.
    g.activate("slasha", "engage", charge("sniper"), fight("Twin choppas", "sniper", "Gun butt", "6543", "521", steps="sc bnn sn"))
    g.activate("boy-2", "engage", act(NormalMoved), act(Passed))
    g.activate("comms-boy", "engage", act(NormalMoved), act(Passed))
    g.activate("breacha", "engage", act(NormalMoved), act(Passed))
    g.activate("snipa", "engage", act(Passed), act(Passed))
    # Kasia controls all four markers (4VP by the card), but the core book caps the mission at 12:
    # she has 9, so she records 3 (recording 4 would be refused, 004).
    g.add(mission("Kasia", 3, "controls all four markers (capped at 12)"), tac("Kasia", 1, "Wipe Out: no enemy operative left"))
    g.end_turning_point()
    # Final: Kasia mission 12, tac 4 = 16; Lars mission 4, tac 2 = 6. Kasia wins.
    return g

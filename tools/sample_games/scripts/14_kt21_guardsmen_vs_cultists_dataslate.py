"""Winter League (KT21), round 1, table 1: Ines's Veteran Guardsmen (all 10) against Jonas's Chaos
Cultists (all 11) in Killzone Octarius, mission Loot and Salvage, under the Balance Dataslate
Q1 2023. The cultist fighters advanced in pairs (group activation 2: two activations in a row, the
most the dataslate allows), the heavy stubber and the fighters put Overwatch on the guardsmen who
activated last, and the champion's chainaxe cut down a trooper; but the long-las and the grenade
launcher thinned the groups, the plasma gunner overheated taking a fighter with it, and the
sergeant cut down two cultists hand to hand before he fell. Jonas's team was wiped out in turning
point 4.
Ines scored 13 mission VP, beyond the 12 of the core book but within the dataslate's 16, and
5 tac op VP: Ines wins 18-9.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.events import FirefightPloyUsed, WoundsRegained
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, act, attack, charge, dash, fight, shoot, unique
from ktlog.rulesets.kt21.events import MissionVPScored, NormalMoved, OverwatchFired, Passed

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "3f0c8f5e-7a61-4c1e-9b7d-21a4c6e0d914"
STARTED_AT = "2026-11-07T18:30:00+00:00"
DESCRIPTION = "Winter League (KT21) R1 T1: Veteran Guardsmen v Chaos Cultists, Loot and Salvage, Balance Dataslate Q1 2023; Ines wins 18-9"

# Hand tally (worked out before running build.py). Caps under the dataslate (004): 16 mission VP,
# 24 in all.
#   Ines:  mission 2 (TP1) + 3 (TP2) + 4 (TP3) + 4 (TP4) = 13; tac 2 (TP2) + 1 (TP3) + 2 (TP4) = 5 -> 18.
#   Jonas: mission 1 (TP1) + 3 (TP2) + 2 (TP3) = 6; tac 1 (TP2) + 2 (TP3) = 3 -> 9.
EXPECTED = {
    "winner": "Ines",
    "draw": False,
    "ended_by": "battle",
    "score": {"Ines": {"mission": 13, "tac": 5, "total": 18}, "Jonas": {"mission": 6, "tac": 3, "total": 9}},
}


def mission(player: str, vp: int, reason: str) -> MissionVPScored:
    return MissionVPScored(player=player, vp=vp, category="mission", reason=reason)


def tac(player: str, vp: int, reason: str) -> MissionVPScored:
    return MissionVPScored(player=player, vp=vp, category="tac", reason=reason)


def build() -> GameBuilder:
    g = GameBuilder(
        ruleset="kt21",
        killzone="octarius",
        date="2026-11-07",
        dataslate="Balance Dataslate Q1 2023",
        mission="Loot and Salvage",
        league="Winter League",
        season="2026-27",
        round="1",
        table="1",
    )
    g.player("Ines", load_roster(ROSTERS / "kt21_veteran_guardsmen.toml"))
    g.player("Jonas", load_roster(ROSTERS / "kt21_cultists.toml"))
    # Ines wins the roll-off 5-2 and keeps the set-up initiative; the mission map's three markers.
    g.setup(
        rolloff={"Ines": 5, "Jonas": 2},
        initiative="Ines",
        markers=[("centre", "Ines"), ("Ines-loot", "Ines"), ("Jonas-loot", "Jonas")],
        equipment={"Ines": ["Frag grenade", "Mesh armour"], "Jonas": ["Icon of Chaos", "Brutal weapons"]},
    )
    # CP after set-up: 2 each. Guardsmen Sv 5+, W 7 (sergeant 8), injured at 3 or less.
    # Cultists Sv 6+ (only 6s save), W 7 (champion 8), injured at 3 or less. DF 3 everywhere.

    # ============================== TURNING POINT 1 ==============================
    # Ines wins 4-3. CP +1 each (001): I 3, J 3; strategic ploys -> I 2, J 2.
    g.turning_point(1, {"Ines": 4, "Jonas": 3}, initiative="Ines", gambits=[("Ines", "Fire and Manoeuvre"), ("Jonas", "Blasphemous Zeal")])
    # The sniper holds its firing position: two Passes (001: Pass can be performed more than once).
    g.activate("sniper", "conceal", act(Passed), act(Passed))
    # Group activation (GA 2): fighter-1 then fighter-2, before Ines activates again.
    g.activate("fighter-1", "conceal", act(NormalMoved), dash())
    g.activate("fighter-2", "conceal", act(NormalMoved), dash())
    # Plasma (standard, AP1 -> 2 defence dice) at the heavy stubber on its gantry, out of cover:
    # 5 4 hit; the 6 saves one: 5 damage. Stubber 7 -> 2 (injured).
    g.activate("plasma-gunner", "engage", act(NormalMoved), shoot("Plasma gun (standard)", "stubber", "5421", "36"))
    # The stubber (injured, BS 5+; Heavy, so no move) answers: 5 5 3 1 2, Ceaseless re-rolls the 1
    # into a 6: 5 5 normal, 6 critical; cover save + 5 = two normal saves block the two normals:
    # 4 damage. Plasma gunner 7 -> 3 (injured).
    g.activate("stubber", "engage", shoot("Heavy stubber", "plasma-gunner", "55312", "52", cover=True, rerolls="4=6/ceaseless"))
    g.activate("trooper-1", "conceal", act(NormalMoved), dash())
    g.activate("fighter-3", "conceal", act(NormalMoved), dash())
    g.activate("fighter-4", "conceal", act(NormalMoved), dash())
    # Frag grenade launcher (Blast 2") at fighter-1, caught in the open with fighter-2 beside it:
    # fighter-1: 6 critical, 4 normal; the 6 saves the critical: 2. Fighter-1 7 -> 5.
    # fighter-2 (a Blast target: never in cover, 004): 5 5 normal; the 6 saves one: 2. Fighter-2 7 -> 5.
    g.activate(
        "grenadier", "engage", act(NormalMoved), shoot("Grenade launcher (frag)", "fighter-1", "6431", "226", extra=[attack("fighter-2", "5521", "316")])
    )
    g.activate("champion", "conceal", act(NormalMoved), dash())
    g.activate("sergeant", "conceal", act(NormalMoved), dash())
    g.activate("fighter-5", "conceal", act(NormalMoved), act(Passed))
    g.activate("fighter-6", "conceal", act(NormalMoved), act(Passed))
    g.activate("comms", "conceal", act(NormalMoved), unique("Signal"))
    g.activate("flamer", "conceal", act(NormalMoved), dash())
    # The medic patches up the plasma gunner: 3 -> 5 (a kill team rule, recorded with its reason).
    g.activate("medic", "conceal", act(NormalMoved), unique("Medikit"))
    g.add(WoundsRegained(operative="plasma-gunner", wounds=2, reason="Medikit (Veteran Guardsman Medic)"))
    g.activate("fighter-7", "conceal", act(NormalMoved), dash())
    g.activate("fighter-8", "conceal", act(NormalMoved), dash())
    # Jonas's eleven are expended; Ines has three left.
    g.activate("demolition", "conceal", act(NormalMoved), dash())
    # Jonas's turn with nothing to activate: Overwatch (001) with the Engage stubber, BS 5+ worsened
    # to 6+: 6 4 3 1 1, Ceaseless re-rolls both 1s into 2 and 6: two 6s, two criticals. The
    # demolition veteran dashed into the open: 5 5 save, two normal saves block one critical: 4.
    # Demolition 7 -> 3 (injured).
    g.perform("stubber", shoot("Heavy stubber", "demolition", "64311", "551", rerolls="4=2/ceaseless 5=6/ceaseless", as_=OverwatchFired))
    # Lasgun at the stubber (2 wounds, in cover): 4 normal, 6 critical; the cover save blocks the
    # normal, the critical's 3 goes through. Stubber incapacitated.
    g.activate("trooper-2", "engage", act(NormalMoved), shoot("Lasgun", "stubber", "4621", "35", cover=True))
    # Jonas has no Engage operative left for Overwatch: Ines activates her last.
    g.activate("trooper-3", "conceal", act(NormalMoved), dash())
    g.add(mission("Ines", 2, "controls the centre and her loot marker"), mission("Jonas", 1, "controls his loot marker"))
    g.end_turning_point()
    # Score: Ines 2, Jonas 1. CP: I 2, J 2.
    # Wounds: plasma 5, demolition 3; fighter-1 5, fighter-2 5.

    # ============================== TURNING POINT 2 ==============================
    # Jonas wins 6-2. CP +1 each: I 3, J 3; ploys -> J 2, I 2.
    g.turning_point(2, {"Ines": 2, "Jonas": 6}, initiative="Jonas", gambits=[("Jonas", "Blasphemous Zeal"), ("Ines", "Fire and Manoeuvre")])
    # The champion charges trooper-1. Chainaxe (WS 3+, !Rending): 6 critical, 5 3 normal, and Rending
    # makes a normal critical: 2 criticals, 1 normal. Bayonet: 5 4 normal.
    # Champion strikes (5: trooper 7 -> 2), the trooper parries the champion's normal, the champion
    # strikes again (5): trooper-1 incapacitated.
    g.activate("champion", "engage", charge("trooper-1"), fight("Chainaxe", "trooper-1", "Bayonet", "6531", "542", steps="sc bnn sc"))
    # Long-las (BS 2+, !MW3) at the champion: 6 critical (3 mortal wounds), 3 normal; the 6 saves one
    # hit: 3 + 3 = 6. Champion 8 -> 2 (injured). The sniper then passes (Heavy: no move).
    g.activate("sniper", "conceal", shoot("Long-las", "champion", "6311", "612"), act(Passed))
    # Fighter-1 at the grenadier in cover: 6 critical, 5 4 normal; cover save + 6: a normal and a
    # critical save block the critical and a normal: 2. Grenadier 7 -> 5.
    g.activate("fighter-1", "engage", act(NormalMoved), shoot("Autogun", "grenadier", "6541", "63", cover=True))
    # Fighter-2: 4 4 normal; cover save + 5: both blocked.
    g.activate("fighter-2", "engage", act(NormalMoved), shoot("Autogun", "grenadier", "4432", "51", cover=True))
    # Krak (AP1 -> 2 dice, one of them the cover save) at fighter-1: 5 5 4 normal; the cover save
    # blocks one, the 2 fails: 8. Fighter-1 incapacitated.
    g.activate("grenadier", "engage", shoot("Grenade launcher (krak)", "fighter-1", "5541", "2", cover=True), dash())
    # Jonas spends 1CP on a tactical ploy (once per turning point, 001): J 1.
    g.add(FirefightPloyUsed(player="Jonas", ploy="Dark Devotion", operative="fighter-3"))
    # Fighter-3 charges the injured demolition veteran (bayonet WS 5+). Knife 5 4 normal; bayonet 5.
    # Strike (2: demolition 3 -> 1), strike (2: fighter-3 7 -> 5), strike: demolition incapacitated.
    g.activate("fighter-3", "engage", charge("demolition"), fight("Knife", "demolition", "Bayonet", "543", "531", steps="sn sn sn"))
    # Fighter-4 at the plasma gunner in cover: 6 6 critical; cover save + 5: two normal saves block
    # one critical: 3. Plasma gunner 5 -> 2 (injured).
    g.activate("fighter-4", "engage", act(NormalMoved), shoot("Autogun", "plasma-gunner", "6622", "15", cover=True))
    # Supercharged plasma (AP2 -> 1 defence die; BS 5+ injured) at fighter-4: 6 critical, 5 normal;
    # the 4 fails: 6 + 5 = 11, fighter-4 incapacitated. Hot (004): two 1s, 6 mortal wounds: the
    # plasma gunner is incapacitated too.
    g.activate("plasma-gunner", "engage", shoot("Plasma gun (supercharge)", "fighter-4", "6511", "4"))
    # Fighter-5 at trooper-2 in cover: one hit (5), blocked by the cover save.
    g.activate("fighter-5", "engage", act(NormalMoved), shoot("Autogun", "trooper-2", "5321", "34", cover=True))
    # Fighter-6: 6 critical, 4 normal; the cover save blocks the normal: 3. Trooper-2 7 -> 4.
    g.activate("fighter-6", "engage", act(NormalMoved), shoot("Autogun", "trooper-2", "6431", "24", cover=True))
    # Trooper-2 at fighter-6: 6 critical, 5 4 normal; the 6 saves the critical: 4. Fighter-6 7 -> 3.
    g.activate("trooper-2", "engage", act(NormalMoved), shoot("Lasgun", "fighter-6", "6541", "236"))
    # Flamer (Torrent 2") at trooper-2 and trooper-3, both out of cover:
    # trooper-2: 5 3 2 hit (BS 2+); the 5 saves one: 4. Trooper-2 incapacitated.
    # trooper-3: 6 critical, 4 4 2 normal; 6 5 5 save three: 2. Trooper-3 7 -> 5.
    g.activate("flamer", "engage", act(NormalMoved), shoot("Flamer", "trooper-2", "53211", "541", extra=[attack("trooper-3", "64421", "655")]))
    # Bolt pistol at the flamer: 6 critical, 4 3 normal: 4 + 3 + 3 = 10. Flamer incapacitated.
    g.activate("sergeant", "engage", act(NormalMoved), shoot("Bolt pistol", "flamer", "6431", "111"))
    # Fighter-7 at the sergeant: 5 4 normal; 5 and 6 save both.
    g.activate("fighter-7", "engage", act(NormalMoved), shoot("Autogun", "sergeant", "5411", "563"))
    g.activate("fighter-8", "engage", act(NormalMoved), dash())
    # Jonas's operatives are all expended; Ines has the comms veteran, the medic and trooper-3.
    # Lasgun at the injured champion in cover: 5 5 normal; the cover save blocks one: 2. Champion
    # incapacitated.
    g.activate("comms", "engage", act(NormalMoved), shoot("Lasgun", "champion", "5521", "13", cover=True))
    # Overwatch by fighter-7 (BS 4+ worsened to 5+) at the comms veteran: 5 hits: 2. Comms 7 -> 5.
    g.perform("fighter-7", shoot("Autogun", "comms", "5431", "214", as_=OverwatchFired))
    g.activate("medic", "engage", unique("Medikit"), act(Passed))
    g.add(WoundsRegained(operative="trooper-3", wounds=2, reason="Medikit (Veteran Guardsman Medic)"))
    # Overwatch by fighter-8 at the medic in cover: 6 critical, 5 normal; the cover save blocks the
    # normal: 3. Medic 7 -> 4.
    g.perform("fighter-8", shoot("Autogun", "medic", "6521", "34", cover=True, as_=OverwatchFired))
    # Trooper-3 (healed to 7) at fighter-6: 4 4 normal: 4. Fighter-6 incapacitated.
    g.activate("trooper-3", "engage", act(NormalMoved), shoot("Lasgun", "fighter-6", "4411", "223"))
    g.add(
        mission("Ines", 3, "controls the centre and her loot marker"),
        tac("Ines", 2, "Headhunter: the champion incapacitated"),
        mission("Jonas", 3, "controls both loot markers"),
        tac("Jonas", 1, "Rout: an enemy incapacitated in combat"),
    )
    g.end_turning_point()
    # Score: Ines 2 + 5 = 7, Jonas 1 + 4 = 5. CP: I 2, J 1.
    # Ines: sergeant 8, trooper-3 7, grenadier 5, sniper 7, medic 4, comms 5.
    # Jonas: fighter-2 5, fighter-3 5, fighter-5 7, fighter-7 7, fighter-8 7.

    # ============================== TURNING POINT 3 ==============================
    # A 3-3 tie: Jonas had initiative in TP2, so Ines has it (001 Determine Initiative).
    # CP +1 each: I 3, J 2; Jonas's ploy -> J 1.
    # ============================== TURNING POINT 3 ==============================
    # A 3-3 tie: Jonas had initiative in TP2, so Ines has it (001 Determine Initiative).
    # CP +1 each: I 3, J 2; Jonas's ploy -> J 1.
    g.turning_point(3, {"Ines": 3, "Jonas": 3}, initiative="Ines", gambits=[("Jonas", "Blasphemous Zeal")])
    # Long-las at fighter-2, Conceal but out of cover: 5 5 2 hit (no critical); 6 6 save two: 3.
    # Fighter-2 5 -> 2 (injured).
    g.activate("sniper", "conceal", shoot("Long-las", "fighter-2", "5521", "166"), act(Passed))
    # Fighter-2 (injured, BS 5+) at the comms veteran in cover: 5 5 normal; cover save + 6 block both.
    g.activate("fighter-2", "engage", act(NormalMoved), shoot("Autogun", "comms", "5521", "36", cover=True))
    # Fighter-3 charges the comms veteran: knife 6 critical, 4 4 normal; bayonet 5 normal.
    # Strike (3: comms 5 -> 2), the comms veteran parries a normal, strike (2): comms incapacitated.
    g.activate("fighter-3", "engage", charge("comms"), fight("Knife", "comms", "Bayonet", "644", "511", steps="sc bnn sn"))
    # The sergeant charges fighter-3: chainsword 6 critical, 5 3 normal; knife 4 normal. The
    # sergeant strikes first with the critical (5): fighter-3 incapacitated, the rest discarded (001).
    g.activate("sergeant", "engage", charge("fighter-3"), fight("Chainsword", "fighter-3", "Knife", "6531", "421", steps="sc"))
    # Fighter-5 at the sergeant: 6 critical, 5 4 normal; the 5 saves a normal: 3 + 2 = 5.
    # Sergeant 8 -> 3 (injured: chainsword WS 4+).
    g.activate("fighter-5", "engage", act(NormalMoved), shoot("Autogun", "sergeant", "6541", "521"))
    # Fighter-7 charges the sergeant: knife 5 4 normal; chainsword 6 critical. Fighter-7 strikes (2:
    # sergeant 3 -> 1), the sergeant parries the other normal with its critical.
    g.activate("fighter-7", "engage", charge("sergeant"), fight("Knife", "sergeant", "Chainsword", "543", "6312", steps="sn bcn"))
    # Frag at fighter-5 in cover, with fighter-2 beside it:
    # fighter-5: 6 6 critical, 5 normal; cover save + 6: the critical save and the cover save block a
    #   critical and the normal: 4. Fighter-5 7 -> 3.
    # fighter-2 (Blast: not in cover): 4 normal, 2; no 6: fighter-2 incapacitated.
    g.activate(
        "grenadier",
        "engage",
        act(NormalMoved),
        shoot("Grenade launcher (frag)", "fighter-5", "6651", "26", cover=True, extra=[attack("fighter-2", "4311", "225")]),
    )
    # Fighter-8, a group of one (no other fighter is ready): 6 6 critical, 4 normal at the grenadier in
    # cover; cover save + 5 5: two normal saves block a critical, one the normal: 3. Grenadier 5 -> 2.
    g.activate("fighter-8", "engage", act(NormalMoved), shoot("Autogun", "grenadier", "6641", "55", cover=True))
    # Jonas's operatives are all expended.
    g.activate("medic", "engage", unique("Medikit"), act(Passed))
    g.add(WoundsRegained(operative="sergeant", wounds=2, reason="Medikit (Veteran Guardsman Medic)"))
    # Overwatch by fighter-8 (BS 5+) at the medic in cover: 5 5 normal; cover save + 6 block both.
    g.perform("fighter-8", shoot("Autogun", "medic", "5522", "61", cover=True, as_=OverwatchFired))
    # Trooper-3 at fighter-5 in cover: 6 critical, 5 4 normal; the cover save blocks a normal: 5.
    # Fighter-5 incapacitated. (Fighter-7 is within Engagement Range of the sergeant and fighter-8
    # already performed Overwatch: no Overwatch for Jonas.)
    g.activate("trooper-3", "engage", act(NormalMoved), shoot("Lasgun", "fighter-5", "6542", "14", cover=True))
    g.add(
        mission("Ines", 4, "controls all three markers"),
        tac("Ines", 1, "Seize Ground: the centre held"),
        mission("Jonas", 2, "controls the centre at the end of an action"),
        tac("Jonas", 2, "Rout: two enemies incapacitated in combat"),
    )
    g.end_turning_point()
    # Score: Ines 7 + 5 = 12, Jonas 5 + 4 = 9. CP: I 3, J 1.
    # Ines: sergeant 3 (injured), trooper-3 7, grenadier 2, sniper 7, medic 4. Jonas: fighter-7 7, fighter-8 7.

    # ============================== TURNING POINT 4 ==============================
    # Ines wins 5-1. CP +1 each: I 4, J 2; Ines's ploy -> I 3.
    g.turning_point(4, {"Ines": 5, "Jonas": 1}, initiative="Ines", gambits=[("Ines", "Fire and Manoeuvre")])
    # The sergeant (injured, WS 4+) fights fighter-7: chainsword 6 6 critical, 5 normal; knife 5 4.
    # Strike (5: fighter-7 7 -> 2), strike (2: sergeant 3 -> 1), strike (5): fighter-7 incapacitated.
    g.activate("sergeant", "engage", fight("Chainsword", "fighter-7", "Knife", "6651", "541", steps="sc sn sc"), act(Passed))
    # Fighter-8 at the sergeant: 6 critical, 4 normal; 5 5 save: two normal saves block the critical,
    # the normal's 2 goes through. Sergeant incapacitated.
    g.activate("fighter-8", "engage", act(NormalMoved), shoot("Autogun", "sergeant", "6422", "551"))
    # Long-las at fighter-8: 6 6 6 critical, 9 mortal wounds (!MW3) whatever the saves: 6 6 6 save all
    # three criticals, fighter-8 is incapacitated anyway. Jonas's kill team is wiped out.
    g.activate("sniper", "conceal", shoot("Long-las", "fighter-8", "6661", "666"))
    # The battle goes on to the end of the turning point (no operative of Jonas's is left).
    g.activate("grenadier", "engage", act(NormalMoved), act(Passed))
    g.activate("medic", "engage", act(NormalMoved), act(Passed))
    g.activate("trooper-3", "engage", act(NormalMoved), act(Passed))
    g.add(mission("Ines", 4, "controls all three markers"), tac("Ines", 2, "Wipe Out: no enemy operative left"))
    g.end_turning_point()
    # Final: Ines mission 13, tac 5 = 18; Jonas mission 6, tac 3 = 9. Ines wins.
    return g

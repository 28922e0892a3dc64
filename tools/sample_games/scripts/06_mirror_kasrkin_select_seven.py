"""Kim against Lou, a Kasrkin mirror match on Killzone Volkus, Autumn League 2026, round 3, table 2. Each
player selected only 7 of the 10 Kasrkin, so both kill ops use the 7 row of the kill grade table. Lou won
the set-up roll-off (after a tie) and rolled Loot. The plasma gunners traded in TP2 (Lou's overheated his
own on a Hot roll of 1 before Kim's shot it down) and both sharpshooters picked off wounded troopers. Kim
won the tied TP3 roll-off, took the initiative and looted two markers while her recon-trooper burned down
the flamer; in TP4 her sergeant and recon-trooper cut down Lou's demo-trooper and sergeant (the last with a
Command Re-roll), reaching kill grade 4 against Lou's 3 for the end-of-battle bonus. Kim won 9 to 7.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, charge, dash, fight, loot, reposition, shoot, unique

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "edfa402a-d04d-4de7-a186-8848d6373f8a"
STARTED_AT = "2026-10-18T18:30:00+00:00"
DESCRIPTION = "Kasrkin mirror, 7 operatives each, Loot: Kim edges it on the kill grade bonus"
EXPECTED = {
    "winner": "Kim",
    "draw": False,
    "ended_by": "battle",
    "score": {"Kim": {"crit": 4, "kill": 5, "total": 9}, "Lou": {"crit": 4, "kill": 3, "total": 7}},
}

KIM_SEVEN = ["sergeant", "medic", "gunner-plasma", "gunner-melta", "sharpshooter", "recon-trooper", "vox-trooper"]
LOU_SEVEN = ["sergeant", "demo-trooper", "gunner-flamer", "gunner-grenade", "gunner-plasma", "sharpshooter", "vox-trooper"]
# In the game, Lou's operatives that Kim also selected get Lou's name in front: lou-sergeant,
# lou-gunner-plasma, lou-sharpshooter, lou-vox-trooper; demo-trooper, gunner-flamer and gunner-grenade
# keep their roster ids (Kim has none of those).
#
# Kill grade row 7 for both players: 1,3,4,6,7 enemy operatives incapacitated.
# Every operative: 8 wounds, Save 4+, APL 2; injured at 3 wounds or less (Hit worsened by 1).


def build() -> GameBuilder:
    g = GameBuilder(killzone="volkus", date="2026-10-18", league="Autumn League", season="2026", round="3", table="2")
    g.player("Kim", load_roster(ROSTERS / "kasrkin.toml"), select=KIM_SEVEN)
    g.player("Lou", load_roster(ROSTERS / "kasrkin.toml"), select=LOU_SEVEN)
    # Set-up roll-off: tied 4-4, re-rolled: Lou 5, Kim 2. Lou takes initiative and rolls the crit op: 2, Loot.
    # Markers: "centre" (placed by Kim), "Lou-marker", "Kim-marker". 2CP each.
    g.setup(rolloff=[{"Kim": 4, "Lou": 4}, {"Kim": 2, "Lou": 5}], initiative="Lou", crit_op=2)

    # ============================== TP1 ==============================
    # CP: 2+1 = 3 each; a gambit each -> Kim 2, Lou 2.
    g.turning_point(1, {"Kim": 5, "Lou": 1}, initiative="Kim", gambits=[("Kim", "Forward Scouts"), ("Lou", "Combined Arms")])
    g.activate("recon-trooper", "conceal", reposition(), unique("Auspex Scan"))
    g.activate("lou-vox-trooper", "engage", reposition(), dash())
    # Kim's sharpshooter (stationary) at Lou's vox-trooper in cover, obscured by the gantry: 6,5,3 succeed, 1
    # fails; obscured: one success discarded, the crits become normal (no Devastating) -> 2 normal.
    # Saves 2,3 fail; the cover save blocks one: 3 damage. Lou's vox 8 -> 5.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "lou-vox-trooper", "6531", "23", cover=True, obscured=True))
    g.activate("lou-sharpshooter", "conceal", dash())
    g.activate("gunner-plasma", "engage", reposition(), dash())
    # Lou's grenadier (frag) at Kim's plasma gunner in cover: 5,4 normal, 6 crit; saves 5 + cover = 2.
    # Either way 4 through. Kim's plasma gunner 8 -> 4.
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (frag)", "gunner-plasma", "5624", "51", cover=True))
    # Kim's vox at the grenadier in cover: 4,4 normal; crit save 6 + cover: 0.
    g.activate("vox-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "gunner-grenade", "4412", "36", cover=True))
    g.activate("lou-sergeant", "conceal", reposition(), dash())
    g.activate("sergeant", "conceal", reposition(), dash())
    g.activate("demo-trooper", "conceal", reposition(), dash())
    g.activate("gunner-melta", "conceal", reposition(), dash())
    g.activate("gunner-flamer", "conceal", reposition(), dash())
    g.activate("medic", "conceal", reposition(), dash())
    # Lou's plasma gunner (standard) at Kim's vox in cover: 4,5 normal; Piercing 1 and cover: 1 die, 2 fails;
    # the cover save blocks one: 4. Kim's vox 8 -> 4.
    g.activate("lou-gunner-plasma", "engage", reposition(), shoot("Plasma gun (standard)", "vox-trooper", "4532", "2", cover=True))
    g.end_turning_point()
    # After TP1: Kim: plasma gunner 4, vox 4. Lou: vox 5. No VP.

    # ============================== TP2 ==============================
    # CP: Lou has initiative: Lou 2+1 = 3, Kim 2+2 = 4; a gambit each -> Lou 2, Kim 3.
    g.turning_point(2, {"Kim": 2, "Lou": 6}, initiative="Lou", gambits=[("Lou", "Combined Arms"), ("Kim", "Forward Scouts")])
    # Lou's plasma gunner supercharges at Kim's (4W) in cover: only the 4 hits; Piercing 1 and cover: 1 die,
    # 3 fails; the cover save blocks it. Hot: rolls 1, below Hit 4: 2 damage to itself (8 -> 6).
    g.activate("lou-gunner-plasma", "engage", reposition(), shoot("Plasma gun (supercharge)", "gunner-plasma", "3214", "3", cover=True, hot=1))
    # Kim's plasma gunner (standard) answers, Lou's in the open: 6 crit, 5,4 normal; Piercing 1: 2 dice, 4 saves:
    # one normal blocked: 6 + 4 = 10.
    g.activate("gunner-plasma", "engage", reposition(), shoot("Plasma gun (standard)", "lou-gunner-plasma", "6543", "42"))
    # LOU'S PLASMA GUNNER INCAPACITATED. Kim: 1 kill -> kill grade 1 = 1VP (kill 1).
    # Lou's grenadier loots the centre (Lou crit 1) and fires krak at Kim's plasma gunner (4W) in cover:
    # 6 crit, 5,4 normal; Piercing 1 and cover: 1 die, a 1; the cover save blocks a normal: 5 + 4 = 9.
    g.activate("gunner-grenade", "engage", loot("centre"), shoot("Grenade launcher (krak)", "gunner-plasma", "5426", "1", cover=True))
    # KIM'S PLASMA GUNNER INCAPACITATED. Lou: 1 kill -> kill grade 1 = 1VP (kill 1).
    # Kim's sharpshooter at the grenadier standing on the centre: 5 crit (Lethal 5+), 4,2,3 normal ->
    # Devastating 3. Saves 4,5 block two normals: normal 3 + crit 3 = 6, + 3 = 9.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "gunner-grenade", "5423", "415"))
    # LOU'S GRENADIER INCAPACITATED. Kim: 2 kills -> kill grade 1.
    # Lou's sharpshooter at Kim's vox (4W) in cover: 6 crit, 2,4 normal -> Devastating 3; saves 3,2 fail, the
    # cover save blocks a normal: 3 + 3 + 3 = 9.
    g.activate("lou-sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "vox-trooper", "6241", "32", cover=True))
    # KIM'S VOX-TROOPER INCAPACITATED. Lou: 2 kills -> kill grade 1.
    g.activate("recon-trooper", "engage", reposition(), loot("Kim-marker"))  # Kim crit 1
    g.activate("lou-vox-trooper", "engage", reposition(), loot("Lou-marker"))  # Lou crit 2
    # Kim's meltagun at Lou's vox (5W): only the 4 hits; Piercing 2: 1 die, 5 saves. 0 damage.
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "lou-vox-trooper", "4231", "5"))
    # Lou's sergeant's laspistol at the melta gunner in the open: 5 crit (Lethal 5+), 3,4 normal; saves 4,4
    # block the normals: crit 4. Melta gunner 8 -> 4.
    g.activate("lou-sergeant", "engage", reposition(), shoot("Hot-shot laspistol", "gunner-melta", "5324", "441"))
    # Kim's sergeant at Lou's vox (5W) in cover: 6 crit, 4,3 normal; saves 5 + cover = 2 block the normals:
    # crit 4. Lou's vox 5 -> 1.
    g.activate("sergeant", "engage", reposition(), shoot("Hot-shot laspistol", "lou-vox-trooper", "6423", "51", cover=True))
    g.activate("demo-trooper", "engage", reposition(), dash())
    # Kim's medic at Lou's vox (1W) in cover: 3,2,1,2, all miss.
    g.activate("medic", "engage", reposition(), shoot("Hot-shot lasgun", "lou-vox-trooper", "3212", "42", cover=True))
    # Lou's flamer at the melta gunner (4W): 2,3,5 hit; Saturate, no cover save: saves 4 and 6 block two;
    # one through = 3. Melta gunner 4 -> 1.
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "gunner-melta", "2351", "426", cover=True))
    g.end_turning_point()
    # After TP2: Kim kill 1 + crit 1 = 2; Lou kill 1 + crit 2 = 3.
    # Kim: sergeant 8, medic 8, melta 1, sharpshooter 8, recon 8 (plasma and vox down).
    # Lou: sergeant 8, demo 8, flamer 8, sharpshooter 8, vox 1 (plasma and grenadier down).

    # ============================== TP3 ==============================
    # Tied 4-4: Kim decides (she did not have initiative in TP2) and takes it.
    # CP: Kim 3+1 = 4, Lou 2+2 = 4; a gambit each -> Kim 3, Lou 3.
    g.turning_point(3, {"Kim": 4, "Lou": 4}, initiative="Kim", gambits=[("Kim", "Combined Arms"), ("Lou", "Forward Scouts")])
    # Kim's sharpshooter at Lou's vox (1W) in cover: 4,3,2,2 all hit (2+), no crit; saves 4,5 + cover = 3;
    # one normal through = 3.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "lou-vox-trooper", "4322", "45", cover=True))
    # LOU'S VOX-TROOPER INCAPACITATED. Kim: 3 kills -> kill grade 2 = 1VP (kill 2).
    # Lou's flamer at the melta gunner (1W) in cover (Saturate): 3,4,5 hit; one save (4): 6 through.
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "gunner-melta", "3415", "214", cover=True))
    # KIM'S MELTA GUNNER INCAPACITATED. Lou: 3 kills -> kill grade 2 = 1VP (kill 2).
    # Kim's recon-trooper at the flamer in the open: 6,6 crit, 4 normal; Piercing Crits 1: 2 dice, 3 fails,
    # 4 saves the normal: 2 crits = 8.
    g.activate("recon-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "gunner-flamer", "6641", "34"))
    # LOU'S FLAMER INCAPACITATED. Kim: 4 kills -> kill grade 3 = 1VP (kill 3).
    g.activate("demo-trooper", "engage", reposition(), loot("Lou-marker"))  # Lou crit 3
    g.activate("medic", "engage", reposition(), loot("centre"))  # Kim crit 2
    # Lou's sharpshooter at the medic on the centre, in the open: 5 crit, 2,3 normal -> Devastating 3;
    # saves 4,4 block the normals: crit 3 + 3 = 6. Medic 8 -> 2 (injured).
    g.activate("lou-sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "medic", "5231", "442"))
    g.activate("sergeant", "engage", reposition(), loot("Kim-marker"))  # Kim crit 3
    # Lou's sergeant at Kim's sergeant in cover: 6 crit, 3 normal; saves 2,2 fail, the cover save blocks the
    # normal: crit 4. Kim's sergeant 8 -> 4.
    g.activate("lou-sergeant", "engage", reposition(), shoot("Hot-shot laspistol", "sergeant", "3126", "22", cover=True))
    g.end_turning_point()
    # After TP3: Kim kill 3 + crit 3 = 6; Lou kill 2 + crit 3 = 5.
    # Kim: sergeant 4, medic 2, sharpshooter 8, recon 8. Lou: sergeant 8, demo 8, sharpshooter 8.

    # ============================== TP4 ==============================
    # CP: Lou has initiative: Lou 3+1 = 4, Kim 3+2 = 5; a gambit each -> Lou 3, Kim 4.
    g.turning_point(4, {"Kim": 3, "Lou": 5}, initiative="Lou", gambits=[("Lou", "Combined Arms"), ("Kim", "Forward Scouts")])
    # The demo-trooper charges the medic (2W, injured: Hit 5+): gun butt 4,5 normal; medic's 6 crit.
    # The demo-trooper strikes first: 2 damage.
    g.activate("demo-trooper", "engage", charge("medic"), fight("Gun butt", "medic", "Gun butt", "435", "426"))
    # KIM'S MEDIC INCAPACITATED. Lou: 4 kills -> kill grade 3 = 1VP (kill 3).
    # Kim's sergeant (4W, not injured) charges the demo-trooper: power weapon 6,5 crit, 4 normal; gun butt 4,4.
    # Strikes: crit 6 (demo 8 -> 2), gun butt 2 (sergeant 4 -> 2), crit 6 (demo 2 -> -4).
    g.activate("sergeant", "engage", charge("demo-trooper"), fight("Power weapon", "demo-trooper", "Gun butt", "6541", "442"))
    # LOU'S DEMO-TROOPER INCAPACITATED. Kim: 5 kills -> kill grade 3 (row 7 needs 6 for grade 4).
    # Lou's sergeant loots his marker (Lou crit 4) and shoots Kim's sergeant (2W) in the open: 4 normal;
    # saves 6 (crit), 1, 3: blocked.
    g.activate("lou-sergeant", "engage", loot("Lou-marker"), shoot("Hot-shot laspistol", "sergeant", "4221", "613"))
    # Kim's recon-trooper at Lou's sergeant in cover: 6,4,5,3; Command Re-roll (1CP, Kim 4 -> 3) on the 3: a 4.
    # 6 crit, 4,5,4 normal; Piercing Crits 1 and cover: 1 die, 2 fails; the cover save blocks a normal:
    # 4 + 3 + 3 = 10.
    g.activate("recon-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "lou-sergeant", "6453", "2", cover=True, rerolls="4=4/command"))
    # LOU'S SERGEANT INCAPACITATED. Kim: 6 kills -> kill grade 4 = 1VP (kill 4).
    # Lou's sharpshooter at the recon-trooper in cover: 6 crit, 4,2 normal, 1 miss -> Devastating 3; saves 5,4
    # + cover = 3 cancel the crit and a normal: 3 + 3 = 6. Recon 8 -> 2.
    g.activate("lou-sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "recon-trooper", "6412", "54", cover=True))
    g.activate("sharpshooter", "engage", reposition(), loot("Kim-marker"))  # Kim crit 4
    g.end_turning_point()
    # End of the battle: Kim kill grade 4 beats Lou's 3 -> Kim +1 kill (kill 5).
    # Final: Kim crit 4 + kill 5 = 9; Lou crit 4 + kill 3 = 7. Kim wins.
    return g

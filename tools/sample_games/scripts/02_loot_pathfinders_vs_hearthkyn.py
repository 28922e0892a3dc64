"""Autumn League, round 1, table 2: Carol's Pathfinders (all 12) against Dan's Hearthkyn Salvagers
(all 10) on Killzone Bheta-Decima, crit op Loot. Carol's rail rifles and marksman picked off the
HYLas gunner and the Lokatr, but the Votann shrugged off the long-range fire, closed in with the
jump pack warrior and the Dozr, and out-killed the fragile T'au at close range. Both players
looted every turning point, each taking two markers when they had initiative; Dan's kill grade 3
against Carol's 2 decided it: Dan wins 9-6.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, charge, dash, fight, loot, reposition, shoot, unique

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "99caf245-2cb8-4f96-9142-366188449165"
STARTED_AT = "2026-10-04T18:45:00+00:00"
DESCRIPTION = "Autumn League R1 T2: Pathfinders v Hearthkyn, Loot on Bheta-Decima; Dan wins 9-6"

# Hand tally (worked out before running build.py):
#   Dan kills 7 Pathfinders (row 12: 2,5,7,10,12): shas'la-1 (TP1); shas'la-2 (TP2) g1, ion expert,
#     assault grenadier (TP2); comms specialist (TP3) g2, transpectral (TP3); blooded (TP4) g3
#     -> kill 3VP.
#   Carol kills 5 Hearthkyn (row 10: 2,4,6,8,10): gunner, Lokatr (TP2) g1; Dozr (TP3);
#     grenadier (TP4) g2, jump pack (TP4) -> kill 2VP.
#   End of TP4: Dan's kill grade 3 beats Carol's 2: Dan +1VP. Dan kill 4.
#   Loot (1VP a Loot, at most 2 a turning point): TP2 Dan 2 (his marker, centre), Carol 1;
#     TP3 Carol 2 (centre, her marker), Dan 1; TP4 Dan 2, Carol 1. Crit: Dan 5, Carol 4.
#   Dan 5 + 4 = 9, Carol 4 + 2 = 6.
EXPECTED = {
    "winner": "Dan",
    "draw": False,
    "ended_by": "battle",
    "score": {"Carol": {"crit": 4, "kill": 2, "total": 6}, "Dan": {"crit": 5, "kill": 4, "total": 9}},
}


def build() -> GameBuilder:
    g = GameBuilder(killzone="bheta-decima", date="2026-10-04", league="Autumn League", season="2026", round="1", table="2")
    g.player("Carol", load_roster(ROSTERS / "pathfinders.toml"))
    g.player("Dan", load_roster(ROSTERS / "hearthkyn.toml"))
    # Dan wins the set-up roll-off 5-3; he rolls the crit op: 2, Loot.
    g.setup(rolloff={"Carol": 3, "Dan": 5}, initiative="Dan", crit_op=2)
    # CP after set-up: Carol 2, Dan 2.
    # Wounds: Pathfinders 7 (injured at 3 or less); Hearthkyn 10 (injured at 4 or less), Theyn 11
    # (injured at 5 or less).

    # ============================== TURNING POINT 1 ==============================
    # Carol wins 6-1. CP: C 3, D 3; gambits -> C 2, D 2.
    g.turning_point(1, {"Carol": 6, "Dan": 1}, initiative="Carol", gambits=[("Carol", "Recon Sweep"), ("Dan", "Ancestral Grudge")])
    g.activate("shasla-1", "engage", reposition(), dash())
    # HYLas beam cannon at the shas'la caught in the open: 5 4 hit; Piercing 2 -> 1 die, a 3 fails.
    # 5 + 5 = 10. Shas'la-1 7 -> 0.
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "shasla-1", "5241", "3"))
    # Dan: 1 kill -> kill grade 0 (row 12 needs 2).
    # Marksman rail rifle (Silent): 6 crit, 4 3 normal; Devastating 3; saves 4 + cover = 2 normal
    # block both normals, the crit's 3 goes through. Gunner 10 -> 4 (injured).
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "hearthkyn-gunner", "6431", "42", cover=True))
    g.activate("jump-pack", "engage", reposition(), dash())
    # Ion rifle at the jump pack behind a gantry (obscured): 4 4 hit, one discarded; saves 5 4 block it.
    g.activate("expert-ion", "engage", reposition(), shoot("Ion rifle (standard)", "jump-pack", "44213", "542", obscured=True))
    # Warrior-1 bolter at the ion expert: 6 crit, 4 4 normal; 5 5 + cover = 3 saves -> 3. Ion 7 -> 4.
    g.activate("hearthkyn-warrior-1", "engage", reposition(), shoot("Autoch-pattern bolter", "expert-ion", "6442", "55", cover=True))
    # Rail rifle (Heavy, no move): 5 crit (Lethal 5+), 4 normal; Devastating 2; Piercing 1 + cover ->
    # 1 die, a 4: 2 saves -> 4. Warrior-1 10 -> 4 (injured).
    g.activate("expert-rail", "engage", shoot("Rail rifle", "hearthkyn-warrior-1", "5423", "4", cover=True))
    g.activate("theyn", "engage", reposition(), dash())
    g.activate("shasui", "conceal", reposition(), unique("Markerlight"))
    # Lokatr ion blaster: 3 5 1 4 2, Balanced re-rolls the 1 into a 4: 5 4 4 hit; 5 + cover = 2 saves -> 3.
    # Rail 7 -> 4.
    g.activate("lokatr", "engage", reposition(), shoot("Ion blaster", "expert-rail", "35142", "51", cover=True, rerolls="3=4/balanced"))
    # Blooded pulse carbine at the Lokatr: 6 crit, 4 normal; save 4 blocks the normal -> 5. Lokatr 10 -> 5.
    g.activate("blooded", "engage", reposition(), shoot("Pulse carbine", "lokatr", "6432", "413"))
    g.activate("dozr", "conceal", reposition(), dash())
    g.activate("assault-grenadier", "conceal", reposition(), dash())
    g.activate("kinlynk", "conceal", reposition(), unique("Kindred Link"))
    g.activate("comms-specialist", "conceal", reposition(), unique("Relay Orders"))
    # Grenadier combi-bolter 2 5 1 4, Relentless re-rolls the 2 and 1 into 3 and 5: 5 5 4 hit;
    # 6 + cover = 2 saves -> 3. Blooded 7 -> 4.
    g.activate(
        "grenadier", "engage", reposition(), shoot("Autoch-pattern combi-bolter", "blooded", "2514", "26", cover=True, rerolls="1=3/relentless 3=5/relentless")
    )
    g.activate("drone-controller", "conceal", reposition(), dash())
    g.activate("field-medic", "conceal", reposition(), dash())
    g.activate("medical-technician", "conceal", reposition(), dash())
    # Warrior-2 at the blooded: one hit (4), blocked by the cover save.
    g.activate("hearthkyn-warrior-2", "engage", reposition(), shoot("Autoch-pattern bolter", "blooded", "4331", "12", cover=True))
    # Dan's ten are expended; Carol activates her last two.
    g.activate("transpectral", "conceal", reposition(), unique("System Jam"))
    g.activate("shasla-2", "conceal", reposition(), dash())
    g.end_turning_point()
    # End of TP1: no Loot in TP1. Kills: Dan 1, Carol 0. Score 0-0. CP: C 2, D 2.
    # Wounds: ion 4, rail 4, blooded 4; gunner 4, warrior-1 4, Lokatr 5.

    # ============================== TURNING POINT 2 ==============================
    # Dan wins 4-2. CP: Dan +1 -> 3, Carol +2 -> 4; gambits -> D 2, C 3.
    g.turning_point(2, {"Carol": 2, "Dan": 4}, initiative="Dan", gambits=[("Dan", "Hearthkyn Resilience"), ("Carol", "Patient Hunters")])
    # Kinlynk loots Dan's marker: Dan crit 1.
    g.activate("kinlynk", "engage", reposition(), loot("Dan-marker"))
    # Marksman finishes the gunner: 5 crit, 3 2 2 normal; Devastating 3 -> 1 left; 3 1 + cover = 1 save.
    # Gunner incapacitated.
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "hearthkyn-gunner", "5322", "31", cover=True))
    # Carol: 1 kill -> kill grade 0 (row 10 needs 2).
    # Warrior-2 loots the centre: Dan crit 2 (his 2VP for this turning point).
    g.activate("hearthkyn-warrior-2", "engage", reposition(), loot("centre"))
    # Shas'la-2 loots Carol's marker: Carol crit 1.
    g.activate("shasla-2", "engage", reposition(), loot("Carol-marker"))
    # Jump pack charges the shas'la. Plasma knife 5 crit (Lethal 5+), 3 4 normal; shas'la 6 crit, 4 normal.
    # Knife crit 5 (shas'la 7 -> 2), shas'la crit 3 (jump pack 10 -> 7), knife normal 4: shas'la down.
    g.activate("jump-pack", "engage", charge("shasla-2"), fight("Plasma knife", "shasla-2", "Gun butt", "5341", "426", steps="sc sc sn"))
    # Dan: 2 kills -> kill grade 1 = 1VP. Dan kill 1.
    # Ion rifle at the jump pack: 6 crit, 5 5 normal; Piercing Crits 1 -> 2 dice: 4 6 block a crit and a
    # normal -> 4. Jump pack 7 -> 3 (injured).
    g.activate("expert-ion", "engage", shoot("Ion rifle (standard)", "jump-pack", "65325", "46"))
    # Theyn's bolt revolver at the ion expert: 3 5 normal, 6 crit; 5 + cover = 2 saves -> 4. Ion 4 -> 0.
    g.activate("theyn", "engage", reposition(), shoot("Bolt revolver", "expert-ion", "3562", "25", cover=True))
    # Dan: 3 kills -> still kill grade 1.
    # Blooded at the Theyn: 5 4 normal, 6 crit; saves 4 4 -> the crit's 5 goes through. Theyn 11 -> 6.
    g.activate("blooded", "engage", reposition(), shoot("Pulse carbine", "theyn", "5461", "442"))
    # Lokatr at the blooded: 4 1 5 3 2, Balanced re-rolls the 1 into a 4: 4 4 5 hit; 5 5 + cover save all.
    g.activate("lokatr", "engage", shoot("Ion blaster", "blooded", "41532", "55", cover=True, rerolls="2=4/balanced"))
    # Rail rifle at the Lokatr: 5 6 crit; Devastating 2 x2 = 4 (5 -> 1); 1 die, a 3, + cover = 1 save,
    # which cannot stop a crit. Lokatr incapacitated.
    g.activate("expert-rail", "engage", shoot("Rail rifle", "lokatr", "5623", "3", cover=True))
    # Carol: 2 kills -> kill grade 1 (row 10: 2,4,6,8,10) = 1VP. Carol kill 1.
    # Grenadier at the rail expert: 4 2 3 1, Relentless re-rolls three misses: 4 3 1 2, one hit; save 5.
    g.activate(
        "grenadier",
        "engage",
        reposition(),
        shoot("Autoch-pattern combi-bolter", "expert-rail", "4231", "512", rerolls="2=3/relentless 3=1/relentless 4=2/relentless"),
    )
    # Shas'ui at the injured warrior-1: 3 4 hit; 4 + cover save both.
    g.activate("shasui", "engage", reposition(), shoot("Pulse carbine", "hearthkyn-warrior-1", "3224", "41", cover=True))
    # Warrior-1 (injured, 5+): 5 normal, 6 crit; 5 + cover = 2 saves -> 3. Shas'ui 7 -> 4.
    g.activate("hearthkyn-warrior-1", "engage", reposition(), shoot("Autoch-pattern bolter", "shasui", "5362", "52", cover=True))
    # EMP grenade at the Theyn: 4 5 hit; Piercing 1 -> 2 dice: 3 4 = 1 save -> 4. Theyn 6 -> 2 (injured).
    g.activate("assault-grenadier", "engage", reposition(), shoot("EMP grenade", "theyn", "4521", "34"))
    # The Dozr charges the assault grenadier. Maul 5 4 normal, 6 crit; grenadier 4 normal.
    # Dozr crit 5 (7 -> 2), grenadier 2 (Dozr 10 -> 8), Dozr normal 4: grenadier down.
    g.activate("dozr", "engage", charge("assault-grenadier"), fight("Concussion maul", "assault-grenadier", "Gun butt", "5246", "431"))
    # Dan: 4 kills -> still kill grade 1.
    # Comms specialist at the Dozr: 6 crit, 4 normal; saves 5 4 -> 4 through. Dozr 8 -> 4 (injured).
    g.activate("comms-specialist", "engage", reposition(), shoot("Pulse carbine", "dozr", "6324", "541"))
    # Field medic at the comms specialist: 4 4 hit; 6 3 + cover: 2 saves.
    g.activate("field-medic", "engage", reposition(), shoot("Autoch-pattern bolt pistol", "comms-specialist", "4412", "63", cover=True))
    # Drone controller at the Theyn: one hit (4); 4 + cover save it.
    g.activate("drone-controller", "engage", reposition(), shoot("Pulse carbine", "theyn", "3214", "43", cover=True))
    # Dan is out of ready operatives. Medical technician at the jump pack: 4 5 hit; 4 6 save both.
    g.activate("medical-technician", "engage", reposition(), shoot("Pulse carbine", "jump-pack", "4235", "461"))
    # Dan counteracts with the jump pack warrior (injured, 5+): 5 normal, 6 crit; save 5 blocks the
    # normal -> 4. Medical technician 7 -> 3 (injured).
    g.counteract("jump-pack", shoot("Autoch-pattern bolt pistol", "medical-technician", "5361", "521"))
    g.activate("transpectral", "conceal", reposition(), unique("System Jam"))
    g.end_turning_point()
    # Loot: Dan 2VP (Dan-marker, centre), Carol 1VP (Carol-marker).
    # Score: Dan crit 2 + kill 1 = 3; Carol crit 1 + kill 1 = 2. CP: C 3, D 2.
    # Wounds: shas'ui 4, blooded 4, med tech 3, rail 4; Theyn 2, Dozr 4, jump pack 3, warrior-1 4.

    # ============================== TURNING POINT 3 ==============================
    # Carol wins 5-3. CP: Carol +1 -> 4, Dan +2 -> 4; gambits -> C 3, D 3.
    g.turning_point(3, {"Carol": 5, "Dan": 3}, initiative="Carol", gambits=[("Carol", "Recon Sweep"), ("Dan", "Ancestral Grudge")])
    # Comms specialist loots the centre: Carol crit 2.
    g.activate("comms-specialist", "engage", reposition(), loot("centre"))
    # Warrior-2 answers: 4 5 normal, 6 crit; save 5 -> 3 + 4 = 7. Comms 7 -> 0.
    g.activate("hearthkyn-warrior-2", "engage", reposition(), shoot("Autoch-pattern bolter", "comms-specialist", "4652", "513"))
    # Dan: 5 kills -> kill grade 2 = 1VP. Dan kill 2.
    # Transpectral loots Carol's marker: Carol crit 3 (her 2VP for this turning point).
    g.activate("transpectral", "engage", reposition(), loot("Carol-marker"))
    # Kinlynk loots Dan's marker: Dan crit 3.
    g.activate("kinlynk", "conceal", reposition(), loot("Dan-marker"))
    # Marksman at the injured Dozr: 2 3 4 1, the 1 re-rolled with a Command Re-roll (C 3 -> 2) into a 5:
    # 5 crit, 2 3 4 normal; Devastating 3 (4 -> 1); 4 5 + cover = 3 saves, one hit through. Dozr down.
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "dozr", "2341", "45", cover=True, rerolls="4=5/command"))
    # Carol: 3 kills -> still kill grade 1.
    # Heavy krak grenade at the transpectral: 5 3 normal, 6 crit; Piercing 1 + cover -> 1 die, a 2:
    # 1 save -> 4 + 5 = 9. Transpectral 7 -> 0.
    g.activate("grenadier", "engage", reposition(), shoot("Heavy krak grenade", "transpectral", "5326", "2", cover=True))
    # Dan: 6 kills -> still kill grade 2 (grade 3 at 7).
    # Blooded at the grenadier: 4 normal, 6 crit; saves 4 4 2, Dan re-rolls the 2 with a Command
    # Re-roll (D 3 -> 2) and gets a 1: 2 saves -> 4. Grenadier 10 -> 6.
    g.activate("blooded", "engage", reposition(), shoot("Pulse carbine", "grenadier", "4261", "442", save_rerolls="3=1/command"))
    g.activate("hearthkyn-warrior-1", "conceal", reposition(), dash())
    # Rail rifle at warrior-2: 5 crit, 4 normal; Devastating 2 (10 -> 8); 6 + cover save both.
    g.activate("expert-rail", "engage", shoot("Rail rifle", "hearthkyn-warrior-2", "4532", "6", cover=True))
    g.activate("theyn", "conceal", reposition(), unique("Grudge Oath"))
    # Shas'ui at the grenadier: 3 5 hit; 4 + cover save both.
    g.activate("shasui", "engage", reposition(), shoot("Pulse carbine", "grenadier", "3152", "34", cover=True))
    g.activate("jump-pack", "conceal", reposition(), dash())
    g.activate("drone-controller", "engage", reposition(), unique("Remote Link"))
    # Field medic at the blooded: 4 normal, 6 crit; 5 + cover = 2 saves -> 3. Blooded 4 -> 1.
    g.activate("field-medic", "engage", reposition(), shoot("Autoch-pattern bolt pistol", "blooded", "4623", "51", cover=True))
    g.activate("medical-technician", "conceal", reposition(), dash())
    g.end_turning_point()
    # Loot: Carol 2VP (centre, Carol-marker), Dan 1VP (Dan-marker).
    # Score: Dan crit 3 + kill 2 = 5; Carol crit 3 + kill 1 = 4. CP: C 2, D 2.
    # Wounds: shas'ui 4, blooded 1, drone 7, med tech 3, rail 4, marksman 7;
    #         Theyn 2, grenadier 6, jump pack 3, kinlynk 10, warrior-1 4, warrior-2 8, field medic 10.

    # ============================== TURNING POINT 4 ==============================
    # Dan wins 4-1. CP: Dan +1 -> 3, Carol +2 -> 4; gambits -> D 2, C 3.
    g.turning_point(4, {"Carol": 1, "Dan": 4}, initiative="Dan", gambits=[("Dan", "Hearthkyn Resilience"), ("Carol", "Patient Hunters")])
    # Kinlynk loots Dan's marker again: Dan crit 4.
    g.activate("kinlynk", "conceal", unique("Kindred Link"), loot("Dan-marker"))
    # Marksman at the grenadier: 6 crit, 2 3 4 normal; Devastating 3 (6 -> 3); 5 + cover = 2 saves,
    # two hits through: 6. Grenadier down.
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "grenadier", "6234", "51", cover=True))
    # Carol: 4 kills -> kill grade 2 = 1VP. Carol kill 2.
    # Warrior-2 loots the centre: Dan crit 5.
    g.activate("hearthkyn-warrior-2", "engage", reposition(), loot("centre"))
    # Drone controller loots Carol's marker: Carol crit 4.
    g.activate("drone-controller", "engage", reposition(), loot("Carol-marker"))
    # The injured jump pack warrior (Hit 4+) charges the blooded (1 wound) and strikes first with
    # its crit (5): blooded down.
    g.activate("jump-pack", "engage", charge("blooded"), fight("Plasma knife", "blooded", "Kroot blade", "5241", "635"))
    # Dan: 7 kills -> kill grade 3 = 1VP. Dan kill 3.
    # Shas'ui shoots the jump pack: 5 4 hit; the 6 saves one; 4 through. Jump pack 3 -> 0.
    g.activate("shasui", "engage", shoot("Pulse carbine", "jump-pack", "5421", "362"))
    # Carol: 5 kills -> still kill grade 2.
    # Field medic at the shas'ui: 4 normal, 6 crit; 5 + cover = 2 saves -> 3. Shas'ui 4 -> 1.
    g.activate("field-medic", "engage", reposition(), shoot("Autoch-pattern bolt pistol", "shasui", "4613", "52", cover=True))
    # Rail rifle at warrior-2: 5 crit, 4 normal; Devastating 2 (8 -> 6); 1 die, a 2, + cover = 1 save on
    # the normal: crit 4 through. Warrior-2 6 -> 2.
    g.activate("expert-rail", "engage", shoot("Rail rifle", "hearthkyn-warrior-2", "5143", "2", cover=True))
    # Warrior-1 (injured, 5+) at the rail expert: 5 normal, 6 crit; 5 + cover = 2 saves -> 3. Rail 4 -> 1.
    g.activate("hearthkyn-warrior-1", "engage", reposition(), shoot("Autoch-pattern bolter", "expert-rail", "5624", "53", cover=True))
    # Medical technician (injured, 5+) at warrior-1: one hit, blocked by the cover save.
    g.activate("medical-technician", "engage", reposition(), shoot("Pulse carbine", "hearthkyn-warrior-1", "5342", "21", cover=True))
    # Theyn (injured, 4+) at the medical technician: one hit, blocked by the cover save.
    g.activate("theyn", "engage", reposition(), shoot("Bolt revolver", "medical-technician", "4312", "14", cover=True))
    g.end_turning_point()
    # Loot: Dan 2VP (Dan-marker, centre), Carol 1VP (Carol-marker).
    # Kill grades: Dan 3 > Carol 2 -> Dan +1VP.
    # Final: Dan crit 5 + kill 4 = 9; Carol crit 4 + kill 2 = 6. Dan wins.
    return g

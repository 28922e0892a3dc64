"""Mia (Pathfinders, all 12) against Ned (Legionaries, all 6) on Killzone Bheta-Decima, Autumn League 2026,
round 4, table 1. Mia won the set-up roll-off and rolled Secure. Ned's Legionaries took the fight to the
T'au lines and killed five Pathfinders, but the marksman's rail rifle, the rail rifle and the EMP grenade
tore them apart: three Legionaries fell in TP2 while Mia held two secured markers to Ned's one, and in TP3
the marksman finished the Chosen and a Command Re-rolled rail rifle shot dropped the icon bearer. With only
his Aspiring Champion left, Ned conceded during TP3. Mia wins by concession, 6 to 3 as scored at that moment.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, charge, dash, fight, reposition, secure, shoot, unique

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "3a38aa09-5bf7-412f-afc1-c02b19e62aa5"
STARTED_AT = "2026-10-25T18:30:00+00:00"
DESCRIPTION = "Pathfinders vs Legionaries, Secure: Ned concedes in TP3 with one Legionary left"
EXPECTED = {
    "winner": "Mia",
    "draw": False,
    "ended_by": "concession",
    "score": {"Mia": {"crit": 2, "kill": 4, "total": 6}, "Ned": {"crit": 1, "kill": 2, "total": 3}},
}

# Kill grade rows: Mia kills Legionaries (6 starting) -> row 6: 1,2,4,5,6.
#                  Ned kills Pathfinders (12 starting) -> row 12: 2,5,7,10,12.
# Secure, end of TP2-4: +1VP if your kill team has secured any marker, +1VP more if more than the opponent.
# Wounds: Pathfinders 7, Save 5+ (injured at 3 or less); Legionaries 14, Aspiring Champion and Chosen 15,
# Save 3+.


def build() -> GameBuilder:
    g = GameBuilder(killzone="bheta-decima", date="2026-10-25", league="Autumn League", season="2026", round="4", table="1")
    g.player("Mia", load_roster(ROSTERS / "pathfinders.toml"))
    g.player("Ned", load_roster(ROSTERS / "legionaries.toml"))
    # Mia wins the set-up roll-off, takes initiative and rolls the crit op: 1, Secure.
    # Markers: "centre" (placed by Ned), "Mia-marker", "Ned-marker". 2CP each.
    g.setup(rolloff={"Mia": 6, "Ned": 2}, initiative="Mia", crit_op=1)

    # ============================== TP1 ==============================
    # CP: 2+1 = 3 each; a gambit each -> Ned 2, Mia 2.
    g.turning_point(1, {"Mia": 3, "Ned": 5}, initiative="Ned", gambits=[("Ned", "Dark Pact"), ("Mia", "Recon Sweep")])
    g.activate("legionary-1", "engage", reposition(), dash())
    g.activate("shasui", "engage", reposition(), unique("Markerlight"))
    # Heavy bolter (focused) at the Shas'ui in cover: 4,3 normal, no crit; saves 5 + cover = 2: 0 damage.
    g.activate("heavy-gunner", "engage", dash(), shoot("Heavy bolter (focused)", "shasui", "42231", "52", cover=True))
    # Marksman rail rifle (Silent, on Conceal) at legionary-1 in cover: 6 crit, 4,3 normal -> Devastating 3;
    # saves 4,3 + cover = 3: either way 3 through. 3 + 3 = 6. Legionary-1 14 -> 8.
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "legionary-1", "6431", "43", cover=True))
    g.activate("chosen", "conceal", reposition(), dash())
    # Rail rifle at the heavy gunner in cover: 5 crit (Lethal 5+), 4 normal -> Devastating 2. Piercing 1 and
    # cover: 1 die, 3 saves -> 2 saves cancel one hit; 4 through. 4 + 2 = 6. Heavy gunner 14 -> 8.
    g.activate("expert-rail", "engage", shoot("Rail rifle", "heavy-gunner", "5241", "3", cover=True))
    g.activate("aspiring-champion", "conceal", reposition(), dash())
    g.activate("blooded", "conceal", reposition(), dash())
    # Icon bearer at the rail rifle expert in cover: 5,3 normal; saves 4,1 fail (5+), the cover save blocks
    # one: 3. Rail expert 7 -> 4.
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "expert-rail", "5322", "41", cover=True), unique("Dark Icon"))
    g.activate("comms-specialist", "conceal", reposition(), unique("Relay Orders"))
    # Legionary-2 at the Shas'ui in cover: 6 crit, 3,3 normal; saves 2 (fail), 6 (crit) + cover: the crit save
    # cancels the crit, the cover save a normal: 3. Shas'ui 7 -> 4.
    g.activate("legionary-2", "engage", reposition(), dash(), shoot("Boltgun", "shasui", "6331", "26", cover=True))
    # Ned has no ready operatives left; Mia activates the other seven, Ned counteracts once.
    # Ion rifle at legionary-2 in cover: 6 crit, 4,5 normal; Piercing Crits 1 and cover: 1 die, 3 saves ->
    # 2 saves block the normals; crit 5. Legionary-2 14 -> 9.
    g.activate("expert-ion", "engage", reposition(), shoot("Ion rifle (standard)", "legionary-2", "64251", "3", cover=True))
    # Counteract: the heavy gunner at the ion expert in cover: 6 crit, 3 normal; Piercing Crits 1 and cover:
    # 1 die, 2 fails; the cover save blocks the normal; crit 5. Ion expert 7 -> 2 (injured).
    g.counteract("heavy-gunner", shoot("Heavy bolter (focused)", "expert-ion", "63212", "2", cover=True))
    g.activate("drone-controller", "conceal", reposition(), unique("Remote Link"))
    g.activate("medical-technician", "conceal", reposition(), dash())
    g.activate("transpectral", "conceal", reposition(), unique("System Jam"))
    g.activate("assault-grenadier", "conceal", reposition(), dash())
    g.activate("shasla-1", "conceal", reposition(), dash())
    g.activate("shasla-2", "conceal", reposition(), dash())
    g.end_turning_point()
    # After TP1: Pathfinders: Shas'ui 4, rail expert 4, ion expert 2. Legionaries: legionary-1 8,
    # heavy gunner 8, legionary-2 9. No VP.

    # ============================== TP2 ==============================
    # Tied 5-5: Mia decides (she did not have initiative in TP1) and takes it.
    # CP: Mia 2+1 = 3, Ned 2+2 = 4; a gambit each -> Mia 2, Ned 3.
    g.turning_point(2, {"Mia": 5, "Ned": 5}, initiative="Mia", gambits=[("Mia", "Suppressive Fire"), ("Ned", "Malicious Volleys")])
    # Marksman at legionary-1 (8W) in cover: 5,5 crit, 2,3 normal -> Devastating 3 x2 = 6. Saves 3,4 + cover
    # = 3 cancel a crit and a normal: 3 + 3 = 6, + 6 = 12.
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "legionary-1", "5523", "34", cover=True))
    # LEGIONARY-1 INCAPACITATED. Mia: 1 kill -> kill grade 1 = 1VP (kill 1).
    # Heavy gunner at the ion expert (2W) in cover: 4,3 normal; saves 1,2 fail, the cover save blocks one: 4.
    g.activate("heavy-gunner", "engage", dash(), shoot("Heavy bolter (focused)", "expert-ion", "43221", "12", cover=True))
    # ION EXPERT INCAPACITATED. Ned: 1 kill -> kill grade 0 (row 12 needs 2).
    # Rail rifle at the heavy gunner (8W), out in the open after its dash: 6,5 crit, 4 normal -> Devastating 2
    # x2 = 4. Piercing 1: 2 dice, 3 saves the normal: 2 crits x4 = 8, + 4 = 12.
    g.activate("expert-rail", "engage", shoot("Rail rifle", "heavy-gunner", "6543", "32"))
    # HEAVY GUNNER INCAPACITATED. Mia: 2 kills -> kill grade 2 = 1VP (kill 2).
    # Legionary-2 (9W) charges the Shas'ui (4W): chainsword 6 crit, 5,4,3 normal; gun butt 4 normal.
    # Chainsword crit first: 5 damage.
    g.activate("legionary-2", "engage", charge("shasui"), fight("Chainsword", "shasui", "Gun butt", "54326", "412"))
    # SHAS'UI INCAPACITATED. Ned: 2 kills -> kill grade 1 = 1VP (kill 1).
    # EMP grenade at legionary-2 in the open: 6 crit, 5,4 normal; Piercing 1: 2 dice, 4 saves one normal:
    # 5 + 4 = 9.
    g.activate("assault-grenadier", "engage", reposition(), shoot("EMP grenade", "legionary-2", "6542", "41"))
    # LEGIONARY-2 INCAPACITATED. Mia: 3 kills -> kill grade 2 (row 6 needs 4 for grade 3).
    # The Chosen charges the comms specialist: Daemon blade 6,5 crit, 3,4 normal; gun butt 4 normal.
    # Strikes: crit 6 (comms 7 -> 1), gun butt 2 (Chosen 15 -> 13), crit 6 (comms 1 -> -5).
    g.activate("chosen", "engage", charge("comms-specialist"), fight("Daemon blade", "comms-specialist", "Gun butt", "63425", "421"))
    # COMMS SPECIALIST INCAPACITATED. Ned: 3 kills -> kill grade 1.
    # Drone controller at the Chosen (13W) in the open: 6 crit, 5,4 normal; saves 3,5 block the normals: 5.
    # Chosen 13 -> 8.
    g.activate("drone-controller", "engage", reposition(), shoot("Pulse carbine", "chosen", "5462", "351"))
    # The Aspiring Champion secures Ned's marker, then its plasma pistol at the drone controller in cover:
    # 5,3 normal; Piercing 1 and cover: 1 die, 4 fails (5+); the cover save blocks one: 3. Drone 7 -> 4.
    g.activate(
        "aspiring-champion", "engage", reposition(), secure("Ned-marker"), shoot("Plasma pistol (standard)", "drone-controller", "5312", "4", cover=True)
    )
    g.activate("shasla-1", "engage", reposition(), secure("Mia-marker"))
    # Icon bearer at Shas'la 1 in cover: 6 crit, 3,4 normal; saves 1 (fail), 5 + cover = 2 block the normals:
    # crit 4. Shas'la 1 7 -> 3 (injured).
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "shasla-1", "3426", "15", cover=True), dash())
    g.activate("transpectral", "engage", reposition(), secure("centre"))
    # Ned has no ready operatives left.
    g.activate("blooded", "engage", reposition(), dash())
    # Counteract: the Chosen's bolt pistol at Shas'la 1 (3W) in cover: 4,3,5 normal; saves 2,3 fail, the cover
    # save blocks one: 6.
    g.counteract("chosen", shoot("Bolt pistol", "shasla-1", "4315", "23", cover=True))
    # SHAS'LA 1 INCAPACITATED. Ned: 4 kills -> kill grade 1 (row 12 needs 5 for grade 2).
    g.activate("medical-technician", "engage", reposition(), unique("Stimulant Injector"))
    # Shas'la 2 at the Chosen (8W) in cover: 4,5 normal, 6 crit; saves 2 (fail), 6 (crit) + cover: the crit save
    # cancels the crit, the cover save a normal: 4. Chosen 8 -> 4 (injured).
    g.activate("shasla-2", "engage", reposition(), shoot("Pulse carbine", "chosen", "4516", "26", cover=True))
    g.end_turning_point()
    # Secured: Mia-marker and centre by Mia (2), Ned-marker by Ned (1): Mia +1 +1 (crit 2), Ned +1 (crit 1).
    # After TP2: Mia kill 2 + crit 2 = 4; Ned kill 1 + crit 1 = 2.
    # Legionaries left: Chosen 4, Aspiring Champion 15, icon bearer 14.
    # Pathfinders left: marksman 7, rail expert 4, blooded 7, drone controller 4, medical technician 7,
    # transpectral 7, assault grenadier 7, Shas'la 2 7.

    # ============================== TP3 ==============================
    # CP: Mia has initiative: Mia 2+1 = 3, Ned 3+2 = 5; a gambit each -> Mia 2, Ned 4.
    g.turning_point(3, {"Mia": 6, "Ned": 1}, initiative="Mia", gambits=[("Mia", "Recon Sweep"), ("Ned", "Dark Pact")])
    # Marksman at the Chosen (4W) in cover: 5 crit, 2,2,4 normal -> Devastating 3, enough alone.
    # (Saves 6,4 + cover cancel the crit and two normals; one normal 3: 6 in all.)
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "chosen", "5224", "64", cover=True))
    # CHOSEN INCAPACITATED. Mia: 4 kills -> kill grade 3 = 1VP (kill 3).
    # The icon bearer charges the drone controller (4W): chainsword 6 crit, 4,3 normal; gun butt 5 normal.
    # Chainsword crit first: 5. Then it secures the centre for Ned.
    g.activate("icon-bearer", "engage", charge("drone-controller"), fight("Chainsword", "drone-controller", "Gun butt", "64322", "521"), secure("centre"))
    # DRONE CONTROLLER INCAPACITATED. Ned: 5 kills -> kill grade 2 = 1VP (kill 2).
    # Rail rifle at the icon bearer (14W) in the open: 6,5,2,2; Command Re-roll (1CP, Mia 2 -> 1) on a 2: a 6.
    # 6,5,6 crit -> Devastating 2 x3 = 6. Piercing 1: 2 dice, 3 saves, 1 fails: one normal save cannot cancel
    # a crit: 3 x4 = 12, + 6 = 18.
    g.activate("expert-rail", "engage", shoot("Rail rifle", "icon-bearer", "6522", "31", rerolls="3=6/command"))
    # ICON BEARER INCAPACITATED. Mia: 5 kills -> kill grade 4 = 1VP (kill 4).
    # The Aspiring Champion supercharges at the rail expert (4W) in cover: 4,3 normal; Piercing 1 and cover:
    # 1 die, 5 saves; with the cover save both are blocked. Hot: rolls 3, not below Hit 3.
    g.activate("aspiring-champion", "engage", reposition(), shoot("Plasma pistol (supercharge)", "expert-rail", "4231", "5", cover=True, hot=3), dash())
    # Ned, down to his Aspiring Champion against eight Pathfinders, concedes.
    g.concede("Ned")
    g.annotate(
        "Ned concedes with one Legionary left against eight Pathfinders; the score stands as scored: Mia 6 (kill grade 4, two secured markers in TP2), Ned 3."
    )
    # Result: Mia wins by concession. Mia crit 2 + kill 4 = 6; Ned crit 1 + kill 2 = 3.
    return g

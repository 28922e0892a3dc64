"""Autumn League, round 1, table 1: Alice's Kasrkin (all 10) against Bob's Legionaries (all 6) on
Killzone Volkus, crit op Secure. The Kasrkin sharpshooter and meltagun took the Chosen apart in
turning point 2 while Alice secured the centre and her own marker; Bob answered by cutting down
four Kasrkin (the overheated plasma gunner among them) and seized the centre back with his
Aspiring Champion in turning point 3, who then fell to the sergeant's power weapon. In the last
turning point the heavy gunner reached kill grade 3 for Bob and his Icon Bearer stole the centre,
but the combat medic shot the Icon Bearer down with a Command Re-roll and secured the centre
again: Alice wins 8-7.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, charge, dash, fight, reposition, secure, shoot, unique

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "334f68f6-0dcb-4490-9503-74563ac46dc6"
STARTED_AT = "2026-10-04T18:30:00+00:00"
DESCRIPTION = "Autumn League R1 T1: Kasrkin v Legionaries, Secure on Volkus; Alice edges it 8-7 in the last activation"

# Hand tally (worked out before running build.py):
#   Alice kills 4 Legionaries (row 6: 1,2,4,5,6): Chosen (TP2) g1, Legionary-1 (TP2) g2,
#     Aspiring Champion (TP3) still g2, Icon Bearer (TP4) g3 -> kill 3VP.
#   Bob kills 6 Kasrkin (row 10: 2,4,6,8,10): recon, melta (TP2) g1, plasma (TP2),
#     vox (TP3) g2, sergeant (TP3), grenadier gunner (TP4) g3 -> kill 3VP.
#   End of TP4: kill grade 3 v 3, nobody scores the extra 1VP.
#   Secure: TP2 Alice 2 marker(s) v Bob 1 -> A+2 B+1; TP3 A 1 v B 2 -> A+1 B+2;
#     TP4 A 2 v B 1 -> A+2 B+1. Crit: Alice 5, Bob 4.
#   Alice 5 + 3 = 8, Bob 4 + 3 = 7.
EXPECTED = {
    "winner": "Alice",
    "draw": False,
    "ended_by": "battle",
    "score": {"Alice": {"crit": 5, "kill": 3, "total": 8}, "Bob": {"crit": 4, "kill": 3, "total": 7}},
}


def build() -> GameBuilder:
    g = GameBuilder(killzone="volkus", date="2026-10-04", league="Autumn League", season="2026", round="1", table="1")
    g.player("Alice", load_roster(ROSTERS / "kasrkin.toml"))
    g.player("Bob", load_roster(ROSTERS / "legionaries.toml"))
    # Roll-off for set-up: 4-4 is re-rolled, then Alice 5 v Bob 2. Alice rolls the crit op: 1, Secure.
    g.setup(rolloff=[{"Alice": 4, "Bob": 4}, {"Alice": 5, "Bob": 2}], initiative="Alice", crit_op=1)
    # CP after set-up: Alice 2, Bob 2.
    # Wounds: every Kasrkin 8 (injured at 3 or less); Legionaries 14 (injured at 6 or less),
    # Aspiring Champion and Chosen 15 (injured at 7 or less).

    # ============================== TURNING POINT 1 ==============================
    # Bob wins the roll-off and goes first. CP: A 3, B 3; gambits -> A 2, B 2.
    g.turning_point(1, {"Alice": 3, "Bob": 5}, initiative="Bob", gambits=[("Bob", "Malicious Volleys"), ("Alice", "Covering Fire")])
    g.activate("legionary-1", "engage", reposition(), dash())
    # Sharpshooter, stationary (Silent, so on Conceal): 6 crit, 4 3 normal, 1 miss -> 1 crit 2 normal;
    # Devastating 3 -> 3. Saves 5 4 + cover = 3 normal: best block leaves 3 more. L1 14 -> 8.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "legionary-1", "6431", "54", cover=True))
    g.activate("chosen", "engage", reposition(), dash())
    g.activate("recon-trooper", "conceal", reposition(), unique("Auspex Scan"))
    g.activate("heavy-gunner", "conceal", reposition(), dash())
    # Vox: 5 4 hit, 2 1 miss; saves 3 2 + cover = 2 normal block both. L1 stays 8.
    g.activate("vox-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "legionary-1", "5421", "32", cover=True))
    # Icon Bearer boltgun: 5 3 normal, 6 crit; saves 4 + cover = 2 normal -> the crit goes through: 4. Vox 8 -> 4.
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "vox-trooper", "5632", "41", cover=True))
    # Plasma supercharged (Lethal 5+): 5 6 crit; Piercing 1 + cover -> 1 die, a 6: one crit blocked, one
    # through for 6. Icon 14 -> 8. Hot: rolls a 2 (below 4+) -> 4 damage to itself. Plasma 8 -> 4.
    g.activate("gunner-plasma", "engage", reposition(), shoot("Plasma gun (supercharge)", "icon-bearer", "5631", "6", cover=True, hot=2))
    g.activate("aspiring-champion", "engage", reposition(), dash())
    g.activate("sergeant", "conceal", reposition(), dash())
    # Legionary-2 at the vox through the ruins (obscured): 4 5 hit, one discarded; 4 4 + cover save it.
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "vox-trooper", "4251", "44", cover=True, obscured=True))
    g.activate("medic", "conceal", reposition(), dash())
    # Bob's six are expended; Alice activates her last four in a row.
    g.activate("gunner-melta", "conceal", reposition(), dash())
    # Frag at L1: 6 crit, 5 4 normal; saves 3 + cover = 2 normal -> 4 through. L1 8 -> 4 (injured).
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (frag)", "legionary-1", "6542", "23", cover=True))
    g.activate("gunner-flamer", "conceal", reposition(), dash())
    g.activate("demo-trooper", "conceal", reposition(), dash())
    g.end_turning_point()
    # End of TP1: no crit op scoring in TP1. Kills 0-0. Score A 0, B 0. CP A 2, B 2.
    # Wounds: vox 4, plasma 4; L1 4, icon 8.

    # ============================== TURNING POINT 2 ==============================
    # Alice wins 6-2. CP: Alice +1 -> 3, Bob +2 -> 4; gambits -> A 2, B 3.
    g.turning_point(2, {"Alice": 6, "Bob": 2}, initiative="Alice", gambits=[("Alice", "Take Aim"), ("Bob", "Dark Pact")])
    # Alice secures the centre. Secured: centre Alice.
    g.activate("recon-trooper", "engage", reposition(), secure("centre"))
    # The Chosen charges the recon. Daemon blade 6 5 crit (Lethal 5+), 4 normal; recon 5 4 normal
    # (Brutal: it can only block with crits, so it strikes). Chosen crit 6 -> recon 2; recon 2 ->
    # Chosen 13; Chosen crit 6 -> recon incapacitated.
    g.activate("chosen", "engage", charge("recon-trooper"), fight("Daemon blade", "recon-trooper", "Gun butt", "65422", "541", steps="sc sn sc"))
    # Bob: 1 kill -> kill grade 0 (row 10 needs 2).
    # Meltagun at the Chosen: 6 crit, 4 normal; Devastating 4 -> 4; Piercing 2 -> 1 die, 5 blocks
    # the normal; the crit's 3 goes through. 4 + 3 = 7. Chosen 13 -> 6 (injured).
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "chosen", "6431", "5"))
    # Injured L1 falls back to Bob's marker and secures it. Secured: centre A, Bob-marker B.
    g.activate("legionary-1", "engage", reposition(), secure("Bob-marker"))
    g.activate("vox-trooper", "engage", reposition(), secure("Alice-marker"))
    # Heavy bolter (focused) at the melta: 6 crit, 5 3 normal; Piercing Crits 1 -> 2 dice: 4 2 = 1 save
    # on a normal: 4 + 5 = 9. Melta 8 -> incapacitated.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "gunner-melta", "62531", "42"))
    # Bob: 2 kills -> kill grade 1 (row 10: 2,4,6,8,10) = 1VP. Bob kill 1.
    # Sharpshooter at the Chosen: 5 crit, 3 2 normal; Devastating 3 -> Chosen 6 -> 3; saves 6 4 block
    # the crit and a normal; 3 more -> Chosen incapacitated.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "chosen", "5321", "642"))
    # Alice: 1 kill -> kill grade 1 (row 6: 1,2,4,5,6) = 1VP. Alice kill 1.
    # The Champion charges the burnt plasma gunner (4 wounds) and strikes first with a crit: 6.
    g.activate("aspiring-champion", "engage", charge("gunner-plasma"), fight("Power weapon", "gunner-plasma", "Gun butt", "54312", "462"))
    # Bob: 3 kills -> still kill grade 1.
    # Frag at L1 (4 wounds): 6 5 3 2, the 3 re-rolled with a Command Re-roll (1CP: A 2 -> 1) into a 6:
    # 2 crit 1 normal. Saves 3 + cover = 2 normal: they cancel one crit; 4 + 2 = 6 -> L1 incapacitated.
    g.activate("gunner-grenade", "engage", shoot("Grenade launcher (frag)", "legionary-1", "6532", "31", cover=True, rerolls="3=6/command"))
    # Alice: 2 kills -> kill grade 2 = 1VP. Alice kill 2.
    # Icon boltgun at the grenadier: 3 3 5 normal; 5 + cover = 2 saves -> 3. Grenade 8 -> 5.
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "gunner-grenade", "3351", "52", cover=True))
    # Sergeant laspistol (Lethal 5+) at the Champion: 5 5 crit, 3 normal; saves 4 3 6: 3 through. 15 -> 12.
    g.activate("sergeant", "engage", reposition(), shoot("Hot-shot laspistol", "aspiring-champion", "5532", "436"))
    # L2 boltgun at the sergeant: 6 crit, 4 3 normal; saves 5 5 -> the crit goes through: 4. Sergeant 8 -> 4.
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "sergeant", "6413", "552"))
    # Bob is out of ready operatives; Alice has the medic, flamer and demo-trooper left.
    # Flamer (Saturate) at the Icon: 4 3 2 normal; saves 5 3 -> 3 through. Icon 8 -> 5 (injured).
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "icon-bearer", "4321", "531"))
    # Bob counteracts with the Icon (Engage, expended): boltgun, injured so 4+: 6 crit, 4 normal;
    # save 4 blocks the normal: 4. Flamer 8 -> 4.
    g.counteract("icon-bearer", shoot("Boltgun", "gunner-flamer", "4623", "421"))
    # Medic at the Icon: 5 4 4 normal; 6 3 + cover save all three.
    g.activate("medic", "engage", reposition(), shoot("Hot-shot lasgun", "icon-bearer", "5442", "63", cover=True))
    g.activate("demo-trooper", "engage", reposition(), dash())
    g.end_turning_point()
    # Secure: Alice has the centre and her marker (2), Bob his marker (1): Alice +1 +1, Bob +1.
    # Score: Alice crit 2 + kill 2 = 4; Bob crit 1 + kill 1 = 2. CP: A 1, B 3.
    # Wounds: sergeant 4, flamer 4, grenade 5, vox 4; Champion 12, L2 14, HG 14, Icon 5.

    # ============================== TURNING POINT 3 ==============================
    # Bob wins 4-2. CP: Bob +1 -> 4, Alice +2 -> 3; gambits -> B 3, A 2.
    g.turning_point(3, {"Alice": 2, "Bob": 4}, initiative="Bob", gambits=[("Bob", "Malicious Volleys"), ("Alice", "Covering Fire")])
    # The Champion takes the centre back. Secured: centre B, Alice-marker A, Bob-marker B.
    g.activate("aspiring-champion", "engage", reposition(), secure("centre"))
    # Sharpshooter at the Champion: 6 crit, 2 4 normal; Devastating 3 -> 9. Saves 3 5 1, the 1
    # re-rolled by Bob with a Command Re-roll (B 3 -> 2) into a 2: 2 saves, 3 through. 12 -> 6 (injured).
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "aspiring-champion", "6241", "351", save_rerolls="3=2/command"))
    # Heavy bolter at the vox on Alice's marker: 3 4 5 normal; 4 + cover = 2 saves: 4 through. Vox 4 -> 0.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "vox-trooper", "34152", "41", cover=True))
    # Bob: 4 kills -> kill grade 2 = 1VP. Bob kill 2.
    # The sergeant charges the Champion (6 wounds, injured: Hit 4+). Sergeant 5 crit, 3 4 normal;
    # Champion 6 crit, 4 normal. Sergeant strikes first with the crit: 6 -> Champion incapacitated.
    g.activate("sergeant", "engage", charge("aspiring-champion"), fight("Power weapon", "aspiring-champion", "Power weapon", "5341", "62431", steps="sc"))
    # Alice: 3 kills -> still kill grade 2 (row 6: grade 3 at 4).
    # L2 boltgun at the sergeant in the open: 5 3 normal, 6 crit; save 4 -> 3 + 4 = 7. Sergeant 4 -> 0.
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "sergeant", "5362", "412"))
    # Bob: 5 kills -> still kill grade 2.
    # Frag at L2: 6 crit, 4 4 normal; 5 + cover = 2 saves -> 4. L2 14 -> 10.
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (frag)", "legionary-2", "6443", "52", cover=True))
    g.activate("icon-bearer", "conceal", unique("Dark Icon"), reposition())
    # Flamer at L2: 5 2 3 normal, 6 crit; saves 3 3 5 -> 3 through. L2 10 -> 7.
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "legionary-2", "5236", "335"))
    # Bob's operatives are expended. Medic at L2: 4 5 normal; 3 + cover save both.
    g.activate("medic", "engage", reposition(), shoot("Hot-shot lasgun", "legionary-2", "4251", "23", cover=True))
    # Bob counteracts with the heavy gunner: 3 4 5 normal; saves 4 4 -> 4 through. Medic 8 -> 4.
    g.counteract("heavy-gunner", shoot("Heavy bolter (focused)", "medic", "23145", "442"))
    g.activate("demo-trooper", "engage", reposition(), dash())
    g.end_turning_point()
    # Secure: Alice 1 (her marker), Bob 2 (centre, his marker): Alice +1, Bob +1 +1.
    # Score: Alice crit 3 + kill 2 = 5; Bob crit 3 + kill 2 = 5. CP: A 2, B 2.
    # Wounds: medic 4, demo 8, flamer 4, grenade 5, sharpshooter 8; L2 7, HG 14, Icon 5.

    # ============================== TURNING POINT 4 ==============================
    # Alice wins 5-3. CP: Alice +1 -> 3, Bob +2 -> 4; gambits -> A 2, B 3.
    g.turning_point(4, {"Alice": 5, "Bob": 3}, initiative="Alice", gambits=[("Alice", "Take Aim"), ("Bob", "Dark Pact")])
    # Demo-trooper secures the centre. Secured: centre A, Alice-marker A, Bob-marker B.
    g.activate("demo-trooper", "engage", reposition(), secure("centre"))
    # L2 (7 wounds, not injured) charges the demo-trooper. Chainsword 4 1 1 2 5, Ceaseless re-rolls the
    # 1s into 2 and 1: 4 5 hit. Demo 6 crit, 4 normal. L2 strikes 4 (demo 8 -> 4); the demo blocks the
    # other normal with its crit, then strikes with its normal: 2. L2 7 -> 5 (injured).
    g.activate(
        "legionary-2",
        "engage",
        charge("demo-trooper"),
        fight("Chainsword", "demo-trooper", "Gun butt", "41125", "642", rerolls="2=2/ceaseless 3=1/ceaseless", steps="sn bcn sn"),
    )
    # Sharpshooter at the heavy gunner: 6 crit, 3 2 normal; Devastating 3; 4 4 + cover = 3 saves -> 3.
    # HG 14 -> 8.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "heavy-gunner", "6321", "44", cover=True))
    # Heavy bolter at the grenadier gunner: 6 crit, 4 3 5 normal; Piercing Crits 1 + cover -> 1 die, a 3:
    # the cover save blocks a normal; 4 + 4 + 5 = 13. Grenade 5 -> 0.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "gunner-grenade", "64325", "3", cover=True))
    # Bob: 6 kills -> kill grade 3 = 1VP. Bob kill 3.
    # Flamer at the heavy gunner: 5 4 2 normal, 6 crit; saves 3 1 6 -> 6 through. HG 8 -> 2.
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "heavy-gunner", "5642", "316"))
    # The Icon Bearer slips onto the centre and secures it. Secured: centre B, Alice-marker A, Bob-marker B.
    g.activate("icon-bearer", "engage", reposition(), secure("centre"))
    # Last activation of the game. Medic at the Icon: 6 4 5 2, the 2 re-rolled with a Command Re-roll
    # (A 2 -> 1) into a 6: 2 crit 2 normal; Piercing Crits 1 -> 2 dice: 3 5 = 2 normal saves; 8 through.
    # Icon 5 -> 0.
    g.activate("medic", "engage", shoot("Hot-shot lasgun", "icon-bearer", "6452", "35", rerolls="4=6/command"), secure("centre"))
    # Alice: 4 kills -> kill grade 3 = 1VP. Alice kill 3. Then she secures the centre again.
    g.end_turning_point()
    # Secure: Alice 2 (centre, her marker), Bob 1: Alice +1 +1, Bob +1.
    # Kill grades 3 v 3: no extra VP.
    # Final: Alice crit 5 + kill 3 = 8; Bob crit 4 + kill 3 = 7. Alice wins.
    return g

"""Autumn League, round 2, table 1: Erin's Kasrkin (all 10) against Frank's Hearthkyn Salvagers
(all 10) in the corridors of Killzone Gallowdark, crit op Transmission. A bloody close-quarters
game recorded partly in quick mode (damage only) and partly with dice: each side held its own
transmitting marker in turning point 2, Erin's grenadier gunner blew the two Hearthkyn warriors
off the centre in turning point 3 so the Kasrkin held two transmitting markers, and in the last
turning point the Theyn and the grenadier took the centre back for Frank. Both players reached
kill grade 3 and the match ended level: a 7-7 draw.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import (
    GameBuilder,
    attack,
    charge,
    dash,
    fight,
    killzone_action,
    reposition,
    shoot,
    transmit,
    unique,
)

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "c29f2a0a-5c57-4991-9c40-1054269744c1"
STARTED_AT = "2026-10-11T18:30:00+00:00"
DESCRIPTION = "Autumn League R2 T1: Kasrkin v Hearthkyn, Transmission on Gallowdark; a 7-7 draw"

# Hand tally (worked out before running build.py):
#   Erin kills 6 Hearthkyn (row 10: 2,4,6,8,10): Dozr, jump pack (TP2) g1; Kinlynk, warrior-1 (TP3)
#     g2, warrior-2 (TP3); Lokatr (TP4) g3 -> kill 3VP.
#   Frank kills 7 Kasrkin (row 10): recon (TP1); flamer (TP2) g1, melta (TP2); vox (TP3) g2,
#     grenadier gunner (TP3), sergeant (TP3) g3; medic (TP4), still g3 -> kill 3VP.
#   End of TP4: kill grades 3 v 3, no extra VP.
#   Transmission (control recorded at the end of TP2-4; every marker transmitting):
#     TP2 Erin 1 (Erin-marker) v Frank 1 (Frank-marker), centre contested -> E+1 F+1;
#     TP3 Erin 2 (centre, Erin-marker) v Frank 1 -> E+2 F+1;
#     TP4 Erin 1 v Frank 2 (centre, Frank-marker) -> E+1 F+2. Crit: Erin 4, Frank 4.
#   Erin 4 + 3 = 7, Frank 4 + 3 = 7: a draw.
EXPECTED = {
    "winner": None,
    "draw": True,
    "ended_by": "battle",
    "score": {"Erin": {"crit": 4, "kill": 3, "total": 7}, "Frank": {"crit": 4, "kill": 3, "total": 7}},
}


def build() -> GameBuilder:
    g = GameBuilder(killzone="gallowdark", date="2026-10-11", league="Autumn League", season="2026", round="2", table="1")
    g.player("Erin", load_roster(ROSTERS / "kasrkin.toml"))
    g.player("Frank", load_roster(ROSTERS / "hearthkyn.toml"))
    # Frank wins the set-up roll-off 5-2 and rolls the crit op: 3, Transmission.
    g.setup(rolloff={"Erin": 2, "Frank": 5}, initiative="Frank", crit_op=3)
    # CP after set-up: Erin 2, Frank 2.
    # Wounds: Kasrkin 8 (injured at 3 or less); Hearthkyn 10 (injured at 4 or less), Theyn 11.
    # Gallowdark: Blast and Torrent weapons (frag, flamer, L7 missile) have Lethal 5+.

    # ============================== TURNING POINT 1 ==============================
    # 4-4: the player without set-up initiative (Erin) decides, and takes it. CP: E 3, F 3;
    # gambits -> E 2, F 2.
    g.turning_point(1, {"Erin": 4, "Frank": 4}, initiative="Erin", gambits=[("Erin", "Covering Fire"), ("Frank", "Ancestral Grudge")])
    g.activate("recon-trooper", "engage", reposition(), unique("Auspex Scan"))
    # HYLas down the corridor at the recon in the open: 4 5 normal, 6 crit; Piercing 2 -> 1 die, a 2.
    # 5 + 5 + 6 = 16. Recon down.
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "recon-trooper", "4625", "2"))
    # Frank: 1 kill -> kill grade 0.
    # Quick mode: sharpshooter answers for 3. Gunner 10 -> 7.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "hearthkyn-gunner", damage=3))
    g.activate("kinlynk", "conceal", reposition(), dash())
    g.activate("gunner-plasma", "conceal", reposition(), dash())
    g.activate("lokatr", "conceal", reposition(), dash())
    g.activate("vox-trooper", "engage", reposition(), unique("Signal"))
    # Warrior-1 at the vox past a bulkhead (obscured): 5 4 hit, one discarded; 4 2 + cover save it.
    g.activate("hearthkyn-warrior-1", "engage", reposition(), shoot("Autoch-pattern bolter", "vox-trooper", "5341", "42", cover=True, obscured=True))
    g.activate("sergeant", "conceal", reposition(), dash())
    g.activate("jump-pack", "engage", reposition(), dash())
    # Frag (Lethal 5+ in Gallowdark) at the jump pack: 5 crit, 4 normal; save 4 on the normal -> 4.
    # Jump pack 10 -> 6.
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (frag)", "jump-pack", "5342", "413"))
    g.activate("theyn", "conceal", reposition(), dash())
    g.activate("medic", "conceal", reposition(), dash())
    g.activate("dozr", "conceal", reposition(), dash())
    g.activate("gunner-melta", "conceal", reposition(), dash())
    # Quick mode: grenadier's combi-bolter for 3. Grenade gunner 8 -> 5.
    g.activate("grenadier", "engage", reposition(), shoot("Autoch-pattern combi-bolter", "gunner-grenade", damage=3))
    g.activate("gunner-flamer", "conceal", reposition(), dash())
    g.activate("hearthkyn-warrior-2", "conceal", reposition(), killzone_action("Operate Hatch"))
    g.activate("demo-trooper", "conceal", reposition(), dash())
    g.activate("field-medic", "conceal", reposition(), dash())
    g.end_turning_point()
    # End of TP1: no Transmission in TP1. Kills: Frank 1. Score 0-0. CP: E 2, F 2.
    # Wounds: grenade 5; gunner 7, jump pack 6.

    # ============================== TURNING POINT 2 ==============================
    # Frank wins 6-3. CP: Frank +1 -> 3, Erin +2 -> 4; gambits -> F 2, E 3.
    g.turning_point(2, {"Erin": 3, "Frank": 6}, initiative="Frank", gambits=[("Frank", "Hearthkyn Resilience"), ("Erin", "Take Aim")])
    g.activate("kinlynk", "engage", reposition(), transmit("Frank-marker"))
    # Sharpshooter at the Kinlynk: 5 crit, 2 3 normal; Devastating 3 (10 -> 7); 4 5 + cover = 3 saves,
    # 3 more through. Kinlynk 7 -> 4 (injured).
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "kinlynk", "5231", "45", cover=True))
    g.activate("hearthkyn-warrior-1", "engage", reposition(), transmit("centre"))
    # Flamer (Saturate, Lethal 5+ here) at warrior-1: 5 6 crit, 2 3 normal; saves 4 5 block two
    # normals; two crits for 6. Warrior-1 10 -> 4 (injured).
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "hearthkyn-warrior-1", "5263", "415"))
    # The Dozr charges the flamer; quick mode: 8 dealt, 2 taken. Flamer down, Dozr 10 -> 8.
    g.activate("dozr", "engage", charge("gunner-flamer"), fight("Concussion maul", "gunner-flamer", "Gun butt", damage=8, damage_taken=2))
    # Frank: 2 kills -> kill grade 1 = 1VP. Frank kill 1.
    # Meltagun at the Dozr: 6 crit, 4 5 normal; Devastating 4; 1 die, a 5, saves a normal: 6 + 3 more.
    # Dozr 8 -> 0.
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "dozr", "6453", "5"))
    # Erin: 1 kill -> kill grade 0.
    # The jump pack warrior charges the melta: knife 6 crit, 3 4 normal; melta 5 4 normal.
    # Knife crit 5 (melta 8 -> 3), melta 2 (jump pack 6 -> 4), knife normal 4: melta down.
    g.activate("jump-pack", "engage", charge("gunner-melta"), fight("Plasma knife", "gunner-melta", "Gun butt", "6324", "541", steps="sc sn sn"))
    # Frank: 3 kills -> still kill grade 1.
    g.activate("vox-trooper", "engage", reposition(), transmit("Erin-marker"))
    # Theyn's bolt revolver at the vox: 3 5 normal, 6 crit; 4 4 + cover = 3 saves -> 3. Vox 8 -> 5.
    g.activate("theyn", "engage", reposition(), shoot("Bolt revolver", "vox-trooper", "3652", "44", cover=True))
    # Sergeant at the jump pack: 5 crit, 3 4 normal; save 5 -> 3 + 4 = 7. Jump pack 4 -> 0.
    g.activate("sergeant", "engage", reposition(), shoot("Hot-shot laspistol", "jump-pack", "5234", "512"))
    # Erin: 2 kills -> kill grade 1 = 1VP. Erin kill 1.
    # Quick mode: Lokatr's ion blaster for 6. Sergeant 8 -> 2 (injured).
    g.activate("lokatr", "engage", reposition(), shoot("Ion blaster", "sergeant", damage=6))
    # Quick mode: medic for 3. Lokatr 10 -> 7.
    g.activate("medic", "engage", reposition(), shoot("Hot-shot lasgun", "lokatr", damage=3, cover=True))
    # L7 missile (Blast, Lethal 5+ here) at the vox: 5 crit, 4 normal; 4 + cover = 2 saves -> 3. Vox 5 -> 2.
    g.activate("hearthkyn-gunner", "engage", shoot("L7 missile launcher (blast)", "vox-trooper", "5421", "43", cover=True))
    # Quick mode: frag for 2. Lokatr 7 -> 5.
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (frag)", "lokatr", damage=2, cover=True))
    # Grenadier at the grenade gunner: 2 4 1 3, Relentless re-rolls 2, 1, 3 into 5, 2, 4: 5 4 4 hit;
    # 5 4 + cover save all three.
    g.activate(
        "grenadier",
        "engage",
        reposition(),
        shoot("Autoch-pattern combi-bolter", "gunner-grenade", "2413", "54", cover=True, rerolls="1=5/relentless 3=2/relentless 4=4/relentless"),
    )
    # Plasma supercharged at the Lokatr: 5 crit; 1 die, a 4, + cover: 2 saves cancel it. Hot: a 2
    # (below 4+): 4 damage to itself. Plasma 8 -> 4.
    g.activate("gunner-plasma", "engage", reposition(), shoot("Plasma gun (supercharge)", "lokatr", "5323", "4", cover=True, hot=2))
    g.activate("hearthkyn-warrior-2", "engage", reposition(), dash())
    g.activate("demo-trooper", "engage", reposition(), dash())
    g.activate("field-medic", "conceal", reposition(), dash())
    # Control: warrior-1 and warrior-2 against the demo-trooper and grenade gunner on the centre
    # (APL 4 v 4): nobody. Kinlynk holds Frank's marker, the vox Erin's.
    g.end_turning_point(control={"centre": None, "Frank-marker": "Frank", "Erin-marker": "Erin"})
    # Transmission: Erin 1, Frank 1 -> Erin +1, Frank +1.
    # Score: Erin crit 1 + kill 1 = 2; Frank crit 1 + kill 1 = 2. CP: E 3, F 2.
    # Wounds: sergeant 2, vox 2, grenade 5, plasma 4; Kinlynk 4, warrior-1 4, Lokatr 5, gunner 7.

    # ============================== TURNING POINT 3 ==============================
    # Erin wins 5-2. CP: Erin +1 -> 4, Frank +2 -> 4; gambits -> E 3, F 3.
    g.turning_point(3, {"Erin": 5, "Frank": 2}, initiative="Erin", gambits=[("Erin", "Covering Fire"), ("Frank", "Ancestral Grudge")])
    # Quick mode: sharpshooter for 6. Kinlynk 4 -> 0.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "kinlynk", damage=6, cover=True))
    # Erin: 3 kills -> still kill grade 1.
    # HYLas at the vox: 4 5 hit; Piercing 2 and cover leave no dice to roll, the cover save blocks one:
    # 5 through. Vox 2 -> 0.
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "vox-trooper", "4325", "", cover=True))
    # Frank: 4 kills -> kill grade 2 = 1VP. Frank kill 2.
    # Frag (Blast 2") on the two warriors at the centre. Warrior-1: 5 crit, 4 normal; save 4 on the
    # normal -> 4, down. Warrior-2: 6 crit, 4 normal; save 5 on the normal -> 4. Warrior-2 10 -> 6.
    g.activate(
        "gunner-grenade",
        "engage",
        reposition(),
        shoot("Grenade launcher (frag)", "hearthkyn-warrior-1", "5423", "421", extra=[attack("hearthkyn-warrior-2", "3641", "532")]),
    )
    # Erin: 4 kills -> kill grade 2 = 1VP. Erin kill 2.
    # Warrior-2 charges the grenade gunner: fists 4 normal, 6 crit; gun butt 5 normal.
    # Fists crit 3 (grenade 5 -> 2), gun butt 2 (warrior-2 6 -> 4), fists normal 2: grenade down.
    g.activate("hearthkyn-warrior-2", "engage", charge("gunner-grenade"), fight("Fists", "gunner-grenade", "Gun butt", "462", "513", steps="sc sn sn"))
    # Frank: 5 kills -> still kill grade 2.
    # Demo-trooper at warrior-2: 4 5 normal, 6 crit; save 4 -> 3 + 4 = 7. Warrior-2 4 -> 0.
    g.activate("demo-trooper", "engage", reposition(), shoot("Hot-shot laspistol", "hearthkyn-warrior-2", "4562", "341"))
    # Erin: 5 kills -> still kill grade 2.
    g.activate("field-medic", "engage", reposition(), transmit("Frank-marker"))
    g.activate("medic", "engage", reposition(), transmit("centre"))
    # Quick mode: Lokatr for 3. Medic 8 -> 5.
    g.activate("lokatr", "engage", reposition(), shoot("Ion blaster", "medic", damage=3))
    g.activate("gunner-plasma", "engage", reposition(), transmit("Erin-marker"))
    # Theyn at the plasma gunner: 3 5 hit; 4 + cover save both.
    g.activate("theyn", "engage", reposition(), shoot("Bolt revolver", "gunner-plasma", "3512", "41", cover=True))
    # Injured sergeant (Hit 4+) at the Lokatr: 5 crit, 4 normal; 4 + cover = 2 saves -> 3. Lokatr 5 -> 2.
    g.activate("sergeant", "engage", shoot("Hot-shot laspistol", "lokatr", "5413", "43", cover=True))
    # Quick mode: grenadier's combi-bolter for 4. Sergeant 2 -> 0.
    g.activate("grenadier", "engage", reposition(), shoot("Autoch-pattern combi-bolter", "sergeant", damage=4))
    # Frank: 6 kills -> kill grade 3 = 1VP. Frank kill 3.
    # Control: the medic and demo-trooper hold the centre, the plasma gunner Erin's marker, the field
    # medic Frank's marker. All three are transmitting.
    g.end_turning_point(control={"centre": "Erin", "Frank-marker": "Frank", "Erin-marker": "Erin"})
    # Transmission: Erin 2, Frank 1 -> Erin +1 +1, Frank +1.
    # Score: Erin crit 3 + kill 2 = 5; Frank crit 2 + kill 3 = 5. CP: E 3, F 3.
    # Wounds: medic 5, demo 8, plasma 4, sharpshooter 8; Theyn 11, field medic 10, grenadier 10,
    #         gunner 7, Lokatr 2.

    # ============================== TURNING POINT 4 ==============================
    # 4-4: the player without initiative in TP3 (Frank) decides, and takes it.
    # CP: Frank +1 -> 4, Erin +2 -> 5; gambits -> F 3, E 4.
    g.turning_point(4, {"Erin": 4, "Frank": 4}, initiative="Frank", gambits=[("Frank", "Hearthkyn Resilience"), ("Erin", "Take Aim")])
    # The Theyn charges the medic on the centre: gauntlet 6 crit, 3 4 normal; gun butt 4 normal.
    # The Theyn strikes first with the crit: 6, medic 5 -> 0.
    g.activate("theyn", "engage", charge("medic"), fight("Concussion gauntlet", "medic", "Gun butt", "6324", "421"))
    # Frank: 7 kills -> still kill grade 3 (grade 4 at 8).
    # Quick mode: demo-trooper's laspistol for 3. Theyn 11 -> 8.
    g.activate("demo-trooper", "engage", shoot("Hot-shot laspistol", "theyn", damage=3))
    # HYLas at the demo-trooper: 5 4 hit; 1 die, a 4, saves one -> 5. Demo 8 -> 3 (injured).
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "demo-trooper", "5412", "4"))
    # Sharpshooter at the Lokatr: 5 crit, 3 2 normal; Devastating 3 takes its last 2 wounds.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "lokatr", "3512", "46", cover=True))
    # Erin: 6 kills -> kill grade 3 = 1VP. Erin kill 3.
    # The grenadier joins the Theyn on the centre (APL 4 v the demo's 2) and transmits.
    g.activate("grenadier", "engage", reposition(), transmit("centre"))
    # Plasma gunner transmits from Erin's marker, then supercharges at the grenadier: 5 crit, 4 normal;
    # Piercing 1 -> 2 dice: the 6 cancels the crit -> 5. Grenadier 10 -> 5. Hot: a 5, no harm.
    g.activate("gunner-plasma", "engage", transmit("Erin-marker"), shoot("Plasma gun (supercharge)", "grenadier", "5324", "62", hot=5))
    g.activate("field-medic", "engage", transmit("Frank-marker"))
    g.end_turning_point(control={"centre": "Frank", "Frank-marker": "Frank", "Erin-marker": "Erin"})
    # Transmission: Erin 1, Frank 2 -> Erin +1, Frank +1 +1.
    # Kill grades 3 v 3: no extra VP.
    # Final: Erin crit 4 + kill 3 = 7; Frank crit 4 + kill 3 = 7. A draw.
    return g

"""Grace (Kasrkin, all 10) against Hugo (Legionaries, all 6) on Killzone Volkus, Autumn League 2026,
round 2, table 2. Grace won the set-up roll-off and rolled Loot as the crit op. Hugo's Legionaries came
straight at the Kasrkin gun line and traded well in TP2 (four Kasrkin fell, three of them to shooting and
one to a chainsword), but Grace's sharpshooter, plasma and melta gunners were deadly: four Legionaries fell
in TP2, and in TP3 the sharpshooter dropped the Aspiring Champion and the meltagun finished the Chosen, so
every Legionary was incapacitated during TP3. The battle went on: Grace played TP4 alone, looted two more
markers and took the end-of-battle kill grade bonus. Grace won 11 to 5.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, attack, charge, dash, fight, loot, reposition, shoot, unique

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "c8ee7e48-c811-49ce-ae51-1c7f20858516"
STARTED_AT = "2026-10-11T18:30:00+00:00"
DESCRIPTION = "Kasrkin vs Legionaries, Loot: every Legionary falls in TP3, Grace plays TP4 alone"
EXPECTED = {
    "winner": "Grace",
    "draw": False,
    "ended_by": "battle",
    "score": {"Grace": {"crit": 5, "kill": 6, "total": 11}, "Hugo": {"crit": 3, "kill": 2, "total": 5}},
}

# Kill grade rows: Grace kills Legionaries (6 starting) -> row 6: 1,2,4,5,6.
#                  Hugo kills Kasrkin (10 starting)   -> row 10: 2,4,6,8,10.
# Wounds: Kasrkin 8 each (injured below 4); Legionary warriors, heavy gunner, icon bearer 14 (injured
# below 7); Aspiring Champion and Chosen 15 (injured below 7.5, i.e. at 7 or less).


def build() -> GameBuilder:
    g = GameBuilder(killzone="volkus", date="2026-10-11", league="Autumn League", season="2026", round="2", table="2")
    g.player("Grace", load_roster(ROSTERS / "kasrkin.toml"))
    g.player("Hugo", load_roster(ROSTERS / "legionaries.toml"))
    # Grace wins the set-up roll-off, takes initiative and rolls the crit op: 2, Loot.
    # Markers: "centre" (placed by Hugo), "Grace-marker", "Hugo-marker". CP: 2 each after set-up.
    g.setup(rolloff={"Grace": 5, "Hugo": 3}, initiative="Grace", crit_op=2)

    # ============================== TP1 ==============================
    # CP: Grace 2+1=3, Hugo 2+1=3; one gambit each -> Grace 2, Hugo 2.
    g.turning_point(1, {"Grace": 4, "Hugo": 2}, initiative="Grace", gambits=[("Grace", "Forward Scouts"), ("Hugo", "Dark Pact")])
    g.activate("recon-trooper", "conceal", reposition(), unique("Auspex Scan"))
    g.activate("legionary-1", "engage", reposition(), dash())
    g.activate("gunner-plasma", "engage", reposition(), dash())
    # Heavy bolter (focused) at the plasma gunner in cover: 5,4,3 hit, 2,1 miss -> 3 normal, no crit so no
    # Piercing Crits; 2 dice + cover: 4 saves, 2 fails -> 2 saves. 1 normal through = 4. Plasma gunner 8 -> 4.
    g.activate("heavy-gunner", "engage", dash(), shoot("Heavy bolter (focused)", "gunner-plasma", "54213", "42", cover=True))
    # Sharpshooter (stationary, Silent, on Conceal) at the heavy gunner in cover: 6 crit, 4/3/2 normal
    # (Hit 2+) -> Devastating 3 = 3. Saves 3,5 + cover = 3 normal saves block the 3 normals; the crit (3)
    # gets through: 3 + 3 = 6. Heavy gunner 14 -> 8.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "heavy-gunner", "6432", "35", cover=True))
    g.activate("chosen", "conceal", reposition(), dash())
    g.activate("sergeant", "conceal", reposition(), dash())
    g.activate("aspiring-champion", "conceal", reposition(), dash())
    g.activate("gunner-melta", "conceal", reposition(), dash())
    # Icon bearer's boltgun at the plasma gunner in cover: 5,3 hit -> 2 normal; 6 (crit save) and 4 + cover:
    # all blocked, 0 damage. Then it raises the Dark Icon.
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "gunner-plasma", "5312", "64", cover=True), unique("Dark Icon"))
    # Vox-trooper's hot-shot lasgun at the icon bearer in cover: 6 crit, 4,4 normal, 2 miss; Piercing Crits 1
    # -> 2 dice, 1 of them the cover save: rolls 3 = save -> 2 saves block the 2 normals, the crit does 4.
    # Icon bearer 14 -> 10.
    g.activate("vox-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "icon-bearer", "6442", "3", cover=True))
    g.activate("legionary-2", "engage", reposition(), dash())
    # Hugo has no ready operatives left; Grace activates her last four, Hugo counteracts once.
    # Frag grenade at legionary-2, obscured: 6 and 4 succeed; obscured discards one and the 6 counts as
    # normal -> 1 normal; saves 3,5 -> blocked, 0 damage.
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (frag)", "legionary-2", "6413", "325", obscured=True))
    # Counteract: the heavy gunner (Engage, expended) fires at the grenadier in cover: 6 crit, 3,4 normal,
    # 2,1 miss; Piercing Crits 1 -> 2 dice, one the cover save: rolls 5 -> 2 saves block the 2 normals;
    # crit 5. Grenadier 8 -> 3 (injured).
    g.counteract("heavy-gunner", shoot("Heavy bolter (focused)", "gunner-grenade", "32614", "5", cover=True))
    g.activate("demo-trooper", "conceal", reposition(), dash())
    g.activate("gunner-flamer", "conceal", reposition(), dash())
    g.activate("medic", "conceal", reposition(), dash())
    g.end_turning_point()
    # After TP1: Kasrkin: plasma gunner 4, grenadier 3. Legionaries: heavy gunner 8, icon bearer 10.
    # No kills, no crit op in TP1. Grace 0, Hugo 0.

    # ============================== TP2 ==============================
    # CP: Hugo has initiative: Hugo 2+1=3, Grace 2+2=4; a gambit each -> Hugo 2, Grace 3.
    g.turning_point(2, {"Grace": 3, "Hugo": 5}, initiative="Hugo", gambits=[("Hugo", "Malicious Volleys"), ("Grace", "Combined Arms")])
    # Legionary-1 loots the centre (Hugo crit 1, TP2 loot 1) and shoots the grenadier (3W) in cover:
    # 5,4 normal, 6 crit; saves 2,3 fail (4+), cover save blocks a normal: 3 + 4 = 7.
    g.activate("legionary-1", "engage", reposition(), loot("centre"), shoot("Boltgun", "gunner-grenade", "5246", "23", cover=True))
    # GRENADIER INCAPACITATED. Hugo: 1 kill -> kill grade 0 (row 10 needs 2).
    # Plasma gunner supercharges at legionary-1 in the open: 5,6 crit (Lethal 5+), 4 normal, 3 miss.
    # Piercing 1: 2 dice, 3 and 4 both save (3+) -> 2 saves cancel one crit: 6 + 5 = 11. Legionary-1 14 -> 3.
    # Hot: rolls 4, not below Hit 4, no damage.
    g.activate("gunner-plasma", "engage", reposition(), shoot("Plasma gun (supercharge)", "legionary-1", "5634", "34", hot=4))
    # The Chosen charges the plasma gunner (4W): Daemon blade 6,5 crit, 3,4 normal; gun butt 4 normal.
    # The Chosen strikes first with a crit: 6 damage.
    g.activate("chosen", "engage", charge("gunner-plasma"), fight("Daemon blade", "gunner-plasma", "Gun butt", "65324", "412"))
    # PLASMA GUNNER INCAPACITATED. Hugo: 2 kills -> kill grade 1 = 1VP (kill 1).
    # Sharpshooter at legionary-1 (3W): 5 crit (Lethal 5+) -> Devastating 3 alone finishes it.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "legionary-1", "4351", "253"))
    # LEGIONARY-1 INCAPACITATED. Grace: 1 kill -> kill grade 1 = 1VP (kill 1).
    # Heavy gunner (8W, not injured) at the vox-trooper in cover: 6,6 crit, 3,4 normal, 1 miss.
    # Piercing Crits 1 -> 2 dice, one the cover save: rolls 5 -> 2 saves block the 2 normals; 2 crits = 10.
    g.activate("heavy-gunner", "engage", dash(), shoot("Heavy bolter (focused)", "vox-trooper", "66314", "5", cover=True))
    # VOX-TROOPER INCAPACITATED. Hugo: 3 kills -> kill grade 1.
    # Meltagun at the heavy gunner (8W) in the open: 6 crit, 4,5 normal. Devastating 4 = 4. Piercing 2:
    # 1 die, 5 saves one normal: 6 + crit 3 = 9, + 4 = 13.
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "heavy-gunner", "6452", "5"))
    # HEAVY GUNNER INCAPACITATED. Grace: 2 kills -> kill grade 2 = 1VP (kill 2).
    # Icon bearer (10W) at the melta gunner in the open: 6 crit, 3,5 normal; saves 4 (normal), 6 (crit):
    # one normal through = 3. Melta gunner 8 -> 5. Then loots Hugo's marker (Hugo crit 2, TP2 loot 2).
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "gunner-melta", "3562", "416"), loot("Hugo-marker"))
    # Sergeant's laspistol at the icon bearer in cover: 5,5 crit (Lethal 5+), 3 normal; saves 2 (fail),
    # 4 + cover = 2 saves cancel one crit: 4 + 3 = 7. Icon bearer 10 -> 3.
    g.activate("sergeant", "engage", reposition(), shoot("Hot-shot laspistol", "icon-bearer", "5531", "24", cover=True))
    # Aspiring Champion supercharges its plasma pistol at the sergeant in cover: 6 crit, 4,3 normal, 2 miss.
    # Piercing 1 and cover: 1 die, 4 saves -> 2 saves block the 2 normals; the crit does 5. Sergeant 8 -> 3.
    # Hot: rolls 5, not below Hit 3.
    g.activate("aspiring-champion", "engage", reposition(), shoot("Plasma pistol (supercharge)", "sergeant", "6243", "4", cover=True, hot=5), dash())
    # Recon-trooper at the icon bearer (3W) in the open: 6 crit, 4,5 normal; Piercing Crits 1 -> 2 dice:
    # 3 saves, 2 fails -> one normal blocked: 4 + 3 = 7.
    g.activate("recon-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "icon-bearer", "6425", "32"))
    # ICON BEARER INCAPACITATED. Grace: 3 kills -> kill grade 2 (row 6 needs 4 for grade 3).
    # Legionary-2 charges the recon-trooper: chainsword 5,3,1,6,2, Ceaseless re-rolls the 1 into a 4 ->
    # 6 crit, 5/3/4 normal; gun butt 4,2,5 -> 2 normal. Strikes: crit 5 (recon 8 -> 3), gun butt 2
    # (legionary-2 14 -> 12), chainsword normal 4 (recon 3 -> -1).
    g.activate("legionary-2", "engage", charge("recon-trooper"), fight("Chainsword", "recon-trooper", "Gun butt", "53162", "425", rerolls="3=4/ceaseless"))
    # RECON-TROOPER INCAPACITATED. Hugo: 4 kills -> kill grade 2 = 1VP (kill 2).
    # Hugo has no ready operatives. Flamer at legionary-2 (12W), Torrent 2" onto the Chosen (15W):
    # legionary-2: 3,5,2,6 all hit (2+), 6 crit -> saves 5,3 block two normals: 3 + 3 = 6 (12 -> 6).
    # Chosen: 4,2,3 hit, 1 miss -> saves 6 (crit), 4 -> one normal through: 3 (15 -> 12).
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "legionary-2", "3526", "531", extra=[attack("chosen", "4213", "264")]))
    # Counteract: legionary-2 (6W, injured: Hit 4+) shoots the flamer: 6 crit, 4 normal, 3 and 2 miss;
    # one save (4) blocks the normal; the crit does 4. Flamer 8 -> 4.
    g.counteract("legionary-2", shoot("Boltgun", "gunner-flamer", "6342", "241"))
    # Demo-trooper's laspistol at legionary-2 (6W) in cover: 4 normal, 6,6 crit, 5 normal. Saves 3 + cover
    # = 2, they block both normals; 2 crits = 8.
    g.activate("demo-trooper", "engage", reposition(), shoot("Hot-shot laspistol", "legionary-2", "4665", "32", cover=True))
    # LEGIONARY-2 INCAPACITATED. Grace: 4 kills -> kill grade 3 = 1VP (kill 3).
    # Medic loots Grace's marker (Grace crit 1).
    g.activate("medic", "engage", reposition(), loot("Grace-marker"))
    g.end_turning_point()
    # After TP2: Grace kill 3 + crit 1 = 4; Hugo kill 2 + crit 2 = 4.
    # Left: Kasrkin sergeant 3, medic 8, demo-trooper 8, flamer 4, melta 5, sharpshooter 8.
    #       Legionaries Aspiring Champion 15, Chosen 12.

    # ============================== TP3 ==============================
    # CP: Grace has initiative: Grace 3+1=4, Hugo 2+2=4; a gambit each -> Grace 3, Hugo 3.
    g.turning_point(3, {"Grace": 6, "Hugo": 2}, initiative="Grace", gambits=[("Grace", "Forward Scouts"), ("Hugo", "Dark Pact")])
    # Sharpshooter at the Aspiring Champion in cover: 6,5,4,1; Command Re-roll (1CP, Grace 3 -> 2) on the 1:
    # a 5. 6,5,5 crit (Lethal 5+), 4 normal. Devastating 3 x3 = 9. Saves 4,3 + cover = 3 block the normal and
    # one crit: 2 crits x3 = 6. 9 + 6 = 15.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "aspiring-champion", "6541", "43", cover=True, rerolls="4=5/command"))
    # ASPIRING CHAMPION INCAPACITATED. Grace: 5 kills -> kill grade 4 = 1VP (kill 4).
    # The Chosen loots Hugo's marker (Hugo crit 3), charges the flamer (4W): Daemon blade 5 crit, 3,4 normal;
    # gun butt 5 normal. The Chosen's crit strike (6) kills it.
    g.activate("chosen", "engage", loot("Hugo-marker"), charge("gunner-flamer"), fight("Daemon blade", "gunner-flamer", "Gun butt", "53224", "135"))
    # FLAMER INCAPACITATED. Hugo: 5 kills -> kill grade 2 (row 10 needs 6 for grade 3).
    # Meltagun at the Chosen (12W) in the open: 6,6 crit, 4 normal. Devastating 4 x2 = 8. Piercing 2: 1 die,
    # 3 saves the normal; 2 crits x3 = 6. 8 + 6 = 14.
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "chosen", "6634", "3"))
    # CHOSEN INCAPACITATED: every Legionary is down. Grace: 6 kills -> kill grade 5 = 1VP (kill 5).
    # Grace activates her remaining operatives in a row.
    g.activate("medic", "engage", reposition(), loot("centre"))  # Grace crit 2 (TP3 loot 1)
    g.activate("demo-trooper", "engage", reposition(), loot("Grace-marker"))  # Grace crit 3 (TP3 loot 2)
    g.activate("sergeant", "conceal", reposition(), unique("Tactical Command"))
    g.end_turning_point()
    # After TP3: Grace kill 5 + crit 3 = 8; Hugo kill 2 + crit 3 = 5.

    # ============================== TP4 ==============================
    # Hugo has no operatives left but the battle goes on. CP: Grace 2+1=3 -> gambit 2; Hugo 3+2=5.
    g.turning_point(4, {"Grace": 4, "Hugo": 1}, initiative="Grace", gambits=[("Grace", "Combined Arms")])
    g.activate("medic", "engage", reposition(), loot("Hugo-marker"))  # Grace crit 4 (TP4 loot 1)
    g.activate("demo-trooper", "engage", dash(), loot("centre"))  # Grace crit 5 (TP4 loot 2)
    g.activate("sergeant", "engage", reposition(), dash())
    g.activate("gunner-melta", "engage", reposition(), dash())
    g.activate("sharpshooter", "conceal", reposition(), dash())
    g.end_turning_point()
    # End of the battle: Grace's kill grade 5 beats Hugo's 2 -> Grace +1 kill (kill 6).
    # Final: Grace crit 5 + kill 6 = 11; Hugo crit 3 + kill 2 = 5. Grace wins.
    return g

"""A four-way Multiplayer Ops battle (pg 98-103) on Killzone Bheta-Decima, Winter League 2026,
round 1, table 2: Pia's Legionaries, Quinn's Hearthkyn Salvagers, Rosa's Legionaries (a mirror of
Pia's: her operatives carry her name, rosa-chosen ...) and Sam's Kasrkin; crit op Loot. Player
order needed re-rolls in set-up (two pairs tied) and in TP3 (three players tied, then two).
TP2 ranked the eliminations exactly as pg 102's example: Quinn 1st, Rosa and Pia tied 2nd, Sam
4th. In TP3 Pia's Aspiring Champion overheated his supercharged plasma pistol and fell to the Hot
roll (nobody scores him), and Quinn looted a fourth marker after his three VP for the turning
point only to deny it to Rosa. In TP4 three players tied for 1st on eliminations. Pia and Quinn
finished level on 9VP and share the win (ruling 5); Rosa and Sam 5 each.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, charge, dash, fight, loot, reposition, shoot, unique

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "a3c6f1e2-4d7b-4f0e-9b8a-6c2d1e0f7b11"
STARTED_AT = "2026-11-14T14:10:00+00:00"
DESCRIPTION = "Multiplayer Ops, four players (a Legionaries mirror), Loot on Bheta-Decima; Pia and Quinn share the win on 9VP"

# Hand tally, worked out turning point by turning point before running build.py.
#
# Elimination op (pg 102): enemy operatives each player's operatives incapacitated in the turning
# point, Legionaries (Wounds 14-15) counting as two; Hot and other causes count for nobody. From TP2
# the players who incapacitated any are ranked: 1st 2VP, 2nd 1VP, 3rd and 4th 0; ties share the
# higher rank.
#   TP1: Quinn 1 (gunner-plasma), Pia 2 (rosa-legionary-1). Not ranked.
#   TP2: Quinn 5 (rosa-chosen 2, sergeant, medic, gunner-grenade); Rosa 4 (chosen 2, gunner-melta,
#        gunner-flamer); Pia 4 (hearthkyn-gunner, Dozr, Kinlynk, vox-trooper); Sam 1 (Theyn).
#        Ranks (pg 102's example): Quinn 1st 2VP; Rosa and Pia 2nd 1VP each; Sam 4th 0.
#   TP3: Sam 2 (rosa-legionary-2); Pia 2 (recon-trooper, grenadier); Rosa 1 (jump-pack); Quinn 0.
#        Pia's Aspiring Champion falls to his own Hot roll: nobody's. Ranks: Sam and Pia 1st 2VP
#        each; Rosa 3rd 0.
#   TP4: Rosa 1 (hearthkyn-warrior-1); Sam 1 (hearthkyn-warrior-2); Pia 1 (Lokatr); Quinn 0.
#        Three tied 1st: 2VP each.
#   Elimination: Pia 1 + 2 + 2 = 5, Quinn 2, Rosa 1 + 0 + 2 = 3, Sam 0 + 2 + 2 = 4.
#
# Crit op Loot (pg 103): 1VP each time a friendly operative loots, at most 3VP per turning point;
# each marker can be looted once per turning point. Five markers (ruling 9, round player order
# Rosa, Pia, Quinn, Sam, Rosa): centre, north-west, north-east, south-east, south-west.
#   TP2: Pia north-west 1; Quinn centre, north-east 2; Sam south-east 1; Rosa south-west 1.
#   TP3: Quinn centre, north-east, south-east 3, then south-west: no VP (flagged), Rosa denied;
#        Pia north-west 1.
#   TP4: Pia centre, north-west 2; Quinn north-east, south-east 2; Rosa south-west 1.
#   Crit: Pia 4, Quinn 7, Rosa 2, Sam 1.
#
# Totals: Pia 5 + 4 = 9, Quinn 2 + 7 = 9, Rosa 3 + 2 = 5, Sam 4 + 1 = 5: Pia and Quinn share the
# win (winner None, draw True; ruling 5).
EXPECTED = {
    "winner": None,
    "draw": True,
    "ended_by": "battle",
    "score": {
        "Pia": {"elimination": 5, "crit": 4, "total": 9},
        "Quinn": {"elimination": 2, "crit": 7, "total": 9},
        "Rosa": {"elimination": 3, "crit": 2, "total": 5},
        "Sam": {"elimination": 4, "crit": 1, "total": 5},
    },
    "winners": ["Pia", "Quinn"],  # ruling 5: the tied leaders share the win
}


def build() -> GameBuilder:
    g = GameBuilder(
        ruleset="kt24-multiplayer",
        killzone="bheta-decima",
        date="2026-11-14",
        mission="4-player map 2",
        league="Winter League",
        season="2026",
        round="1",
        table="2",
    )
    g.player("Pia", load_roster(ROSTERS / "legionaries.toml"))
    g.player("Quinn", load_roster(ROSTERS / "hearthkyn.toml"))
    g.player("Rosa", load_roster(ROSTERS / "legionaries.toml"))  # rosa-aspiring-champion, rosa-legionary-1 ...
    g.player("Sam", load_roster(ROSTERS / "kasrkin.toml"))
    # Player order (pg 99): Pia 6, Quinn 2, Rosa 6, Sam 2: two pairs tied. Quinn and Sam roll again
    # (5, 3), then Pia and Rosa (1, 4): Rosa, Pia, Quinn, Sam. Rosa rolls the map (5: map 2) and the
    # crit op: 2, Loot. The map shows five markers, set up round player order (ruling 9).
    g.setup_multiplayer(
        [{"Pia": 6, "Quinn": 2, "Rosa": 6, "Sam": 2}, {"Quinn": 5, "Sam": 3}, {"Pia": 1, "Rosa": 4}],
        crit_op=2,
        markers=[("centre", "Rosa"), ("north-west", "Pia"), ("north-east", "Quinn"), ("south-east", "Sam"), ("south-west", "Rosa")],
        drop_zones={"Rosa": "south-west", "Pia": "north-west", "Quinn": "north-east", "Sam": "south-east"},
        equipment={"Pia": ("Frag grenades",), "Quinn": ("Ammo cache",), "Rosa": ("Krak grenades",), "Sam": ("Portable barricade",)},
    )
    # 2CP each. Wounds: Legionaries 14 (Champions and Chosen 15, Save 3+); Hearthkyn 10 (Theyn 11);
    # Kasrkin 8 (Save 4+).

    # ============================== TURNING POINT 1 ==============================
    # Order: Pia 3, Quinn 5, Rosa 1, Sam 4 -> Quinn, Sam, Pia, Rosa. CP +1 each -> 3;
    # gambits: Quinn 2, Sam 2, Rosa 2 (Pia passes).
    g.turning_point_order(
        1, {"Pia": 3, "Quinn": 5, "Rosa": 1, "Sam": 4}, gambits=[("Quinn", "Ancestral Grudge"), ("Sam", "Covering Fire"), ("Rosa", "Dark Pact")]
    )
    # HYLas at Sam's plasma gunner in the open: 6 6 crit, 5 normal, 2 fails; Piercing 2 leaves one
    # defence die, a 2: 6 + 6 + 5 = 17. Down (Quinn 1, TP1: not ranked).
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "gunner-plasma", "6652", "2"))
    # Sharpshooter (stationary) at the HYLas gunner: 6. Gunner 10 -> 4.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "hearthkyn-gunner", damage=6))
    g.activate("chosen", "conceal", reposition(), dash())
    g.activate("rosa-chosen", "conceal", reposition(), dash())
    g.activate("theyn", "conceal", reposition(), dash())
    g.activate("gunner-melta", "conceal", reposition(), dash())
    # Pia's heavy bolter at Rosa's legionary-1: 8. 14 -> 6.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "rosa-legionary-1", damage=8))
    # Rosa's heavy bolter answers at Pia's heavy gunner: 4. 14 -> 10.
    g.activate("rosa-heavy-gunner", "engage", shoot("Heavy bolter (focused)", "heavy-gunner", damage=4))
    g.activate("dozr", "conceal", reposition(), dash())
    g.activate("sergeant", "conceal", reposition(), dash())
    g.activate("aspiring-champion", "conceal", reposition(), dash())
    # Rosa's legionary-1 at Pia's legionary-1: 3. 14 -> 11.
    g.activate("rosa-legionary-1", "engage", reposition(), shoot("Boltgun", "legionary-1", damage=3))
    g.activate("kinlynk", "conceal", reposition(), dash())
    g.activate("vox-trooper", "engage", reposition(), unique("Signal"))
    # Pia's legionary-1 at Rosa's (6 wounds): 7. Down (Pia 2, TP1: not ranked).
    g.activate("legionary-1", "engage", reposition(), shoot("Boltgun", "rosa-legionary-1", damage=7))
    g.activate("rosa-aspiring-champion", "conceal", reposition(), dash())
    g.activate("lokatr", "conceal", reposition(), dash())
    g.activate("medic", "conceal", reposition(), dash())
    g.activate("legionary-2", "conceal", reposition(), dash())
    g.activate("rosa-legionary-2", "conceal", reposition(), dash())
    g.activate("grenadier", "conceal", reposition(), dash())
    g.activate("demo-trooper", "conceal", reposition(), dash())
    g.activate("icon-bearer", "conceal", reposition(), unique("Dark Icon"))
    g.activate("rosa-icon-bearer", "conceal", reposition(), dash())
    # The Legionaries are all expended: Quinn and Sam alternate the rest.
    g.activate("field-medic", "conceal", reposition(), dash())
    g.activate("gunner-flamer", "conceal", reposition(), dash())
    g.activate("jump-pack", "conceal", reposition(), dash())
    g.activate("gunner-grenade", "conceal", reposition(), dash())
    g.activate("hearthkyn-warrior-1", "conceal", reposition(), dash())
    g.activate("recon-trooper", "conceal", reposition(), unique("Auspex Scan"))
    g.activate("hearthkyn-warrior-2", "conceal", reposition(), dash())
    g.end_turning_point()
    # No VP in TP1. CP: Quinn 2, Sam 2, Pia 3, Rosa 2.

    # ============================== TURNING POINT 2 ==============================
    # Order: Pia 6, Quinn 1, Rosa 3, Sam 5 -> Pia, Sam, Rosa, Quinn. CP: Pia +1 -> 4, the others
    # +2 -> 4 (ruling 2); gambits: Pia 3, Quinn 3.
    g.turning_point_order(2, {"Pia": 6, "Quinn": 1, "Rosa": 3, "Sam": 5}, gambits=[("Pia", "Malicious Volleys"), ("Quinn", "Hearthkyn Resilience")])
    g.activate("chosen", "engage", reposition(), loot("north-west"))  # Pia loot 1
    # Sharpshooter at Pia's Chosen: 6. 15 -> 9.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "chosen", damage=6))
    # Rosa's Chosen charges Pia's: 11 dealt, 6 taken. Pia's Chosen down (Rosa 2); Rosa's 15 -> 9.
    g.activate("rosa-chosen", "engage", charge("chosen"), fight("Daemon blade", "chosen", "Daemon blade", damage=11, damage_taken=6))
    # The HYLas gunner (4 wounds) at Rosa's Chosen: 10. Down (Quinn 2).
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "rosa-chosen", damage=10))
    # Pia's heavy gunner at the HYLas gunner: 4. Down (Pia 1).
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "hearthkyn-gunner", damage=4))
    # Meltagun at the Theyn: two normal hits, 12. Down (Sam 1).
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "theyn", damage=12))
    # Rosa's heavy gunner at the melta gunner: 8. Down (Rosa 3).
    g.activate("rosa-heavy-gunner", "engage", shoot("Heavy bolter (focused)", "gunner-melta", damage=8))
    g.activate("kinlynk", "engage", reposition(), loot("centre"))  # Quinn loot 1
    # Pia's Champion at the Kinlynk: 6. 10 -> 4.
    g.activate("aspiring-champion", "engage", reposition(), shoot("Plasma pistol (standard)", "kinlynk", damage=6))
    g.activate("sergeant", "engage", reposition(), loot("south-east"))  # Sam loot 1
    g.activate("rosa-aspiring-champion", "engage", reposition(), loot("south-west"))  # Rosa loot 1
    # The Dozr charges the sergeant: 10 dealt, 4 taken. Sergeant down (Quinn 3); Dozr 10 -> 6.
    g.activate("dozr", "engage", charge("sergeant"), fight("Concussion maul", "sergeant", "Power weapon", damage=10, damage_taken=4))
    # Pia's legionary-1 at the Dozr: 6. Down (Pia 2).
    g.activate("legionary-1", "engage", reposition(), shoot("Boltgun", "dozr", damage=6))
    # Vox at Pia's legionary-1: 3. 11 -> 8.
    g.activate("vox-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "legionary-1", damage=3))
    # Rosa's legionary-2 at the vox: 4. 8 -> 4.
    g.activate("rosa-legionary-2", "engage", reposition(), shoot("Boltgun", "vox-trooper", damage=4))
    g.activate("lokatr", "engage", reposition(), loot("north-east"))  # Quinn loot 2
    # Pia's legionary-2 at the Kinlynk (4 wounds): 4. Down (Pia 3).
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "kinlynk", damage=4))
    # Medic at Rosa's legionary-2: 3. 14 -> 11.
    g.activate("medic", "engage", reposition(), shoot("Hot-shot lasgun", "rosa-legionary-2", damage=3))
    # Rosa's icon bearer at the medic: 4. 8 -> 4.
    g.activate("rosa-icon-bearer", "engage", reposition(), shoot("Boltgun", "medic", damage=4))
    # Grenadier at the medic: 4. Down (Quinn 4).
    g.activate("grenadier", "engage", reposition(), shoot("Autoch-pattern combi-bolter", "medic", damage=4))
    # Pia's icon bearer at the vox (4 wounds): 4. Down (Pia 4).
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "vox-trooper", damage=4))
    # Demo-trooper at Rosa's icon bearer: 4. 14 -> 10.
    g.activate("demo-trooper", "engage", reposition(), shoot("Hot-shot laspistol", "rosa-icon-bearer", damage=4))
    # Rosa's operatives have all acted: Quinn.
    g.activate("field-medic", "conceal", reposition(), dash())
    # Pia is done. Flamer at the grenadier: 6. 10 -> 4.
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "grenadier", damage=6))
    # Rosa's heavy gunner counteracts (pg 39) at the flamer: 8. Down (Rosa 4).
    g.counteract("rosa-heavy-gunner", shoot("Heavy bolter (focused)", "gunner-flamer", damage=8))
    # The jump pack warrior charges the grenade gunner: 10 dealt, 2 taken. Down (Quinn 5); jump pack 10 -> 8.
    g.activate("jump-pack", "engage", charge("gunner-grenade"), fight("Plasma knife", "gunner-grenade", "Gun butt", damage=10, damage_taken=2))
    # Recon at the jump pack: 3. 8 -> 5.
    g.activate("recon-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "jump-pack", damage=3))
    g.activate("hearthkyn-warrior-1", "conceal", reposition(), dash())
    g.activate("hearthkyn-warrior-2", "conceal", reposition(), dash())
    g.end_turning_point()
    # Elimination TP2: Quinn 5 (1st) +2; Rosa 4 and Pia 4 (2nd) +1 each; Sam 1 (4th) 0.
    # Loot: Pia 1, Quinn 2, Sam 1, Rosa 1. VP: Pia 2, Quinn 4, Rosa 2, Sam 1. CP: Pia 3, Sam 4, Rosa 4, Quinn 3.

    # ============================== TURNING POINT 3 ==============================
    # Order: Pia 2, Quinn 4, Rosa 4, Sam 4; Quinn, Rosa and Sam roll again: 6, 3, 3; Rosa and Sam
    # again: 5, 2 -> Quinn, Rosa, Sam, Pia. CP: Quinn +1 -> 4, Rosa +2 -> 6, Sam +2 -> 6,
    # Pia +2 -> 5; gambits: Rosa 5, Sam 5.
    g.turning_point_order(
        3,
        [{"Pia": 2, "Quinn": 4, "Rosa": 4, "Sam": 4}, {"Quinn": 6, "Rosa": 3, "Sam": 3}, {"Rosa": 5, "Sam": 2}],
        gambits=[("Rosa", "Malicious Volleys"), ("Sam", "Take Aim")],
    )
    g.activate("lokatr", "engage", reposition(), loot("centre"))  # Quinn loot 1
    # Rosa's heavy gunner at the Lokatr: 8. 10 -> 2.
    g.activate("rosa-heavy-gunner", "engage", shoot("Heavy bolter (focused)", "lokatr", damage=8))
    # Sharpshooter at Pia's Champion: 6. 15 -> 9.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "aspiring-champion", damage=6))
    g.activate("legionary-1", "engage", reposition(), loot("north-west"))  # Pia loot 1
    g.activate("hearthkyn-warrior-1", "engage", reposition(), loot("north-east"))  # Quinn loot 2
    # Rosa's Champion at warrior-1: 6. 10 -> 4.
    g.activate("rosa-aspiring-champion", "engage", reposition(), shoot("Plasma pistol (standard)", "hearthkyn-warrior-1", damage=6))
    # Demo-trooper at Pia's Champion: 6. 9 -> 3 (injured: Hit worsened to 4+).
    g.activate("demo-trooper", "engage", reposition(), shoot("Hot-shot laspistol", "aspiring-champion", damage=6))
    # The Champion supercharges at Rosa's legionary-2: 5 (11 -> 6). Hot roll 2, below his Hit (4+
    # injured): 4 damage to himself, and he falls. Nobody scores him (pg 102).
    g.activate("aspiring-champion", "engage", shoot("Plasma pistol (supercharge)", "rosa-legionary-2", damage=5, hot=2))
    g.activate("hearthkyn-warrior-2", "engage", reposition(), loot("south-east"))  # Quinn loot 3: the TP's maximum
    # Rosa's legionary-2 at warrior-2: 6. 10 -> 4.
    g.activate("rosa-legionary-2", "engage", reposition(), shoot("Boltgun", "hearthkyn-warrior-2", damage=6))
    # Recon at Rosa's legionary-2 (6 wounds): 6. Down (Sam 2).
    g.activate("recon-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "rosa-legionary-2", damage=6))
    # Pia's legionary-2 at the recon: 8. Down (Pia 1).
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "recon-trooper", damage=8))
    # The jump pack warrior (5 wounds) charges Rosa's icon bearer: 5 dealt, 4 taken. Icon 10 -> 5; jump pack 5 -> 1.
    g.activate("jump-pack", "engage", charge("rosa-icon-bearer"), fight("Plasma knife", "rosa-icon-bearer", "Chainsword", damage=5, damage_taken=4))
    # Rosa's icon bearer fights back in its own activation: 4 dealt. Jump pack down (Rosa 1).
    g.activate("rosa-icon-bearer", "engage", fight("Chainsword", "jump-pack", "Plasma knife", damage=4, damage_taken=0))
    # Sam is done. Pia's icon bearer at the grenadier (4 wounds): 4. Down (Pia 2).
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "grenadier", damage=4))
    # Quinn loots a fourth marker: no VP (3VP a turning point at most, pg 103; flagged), but Rosa
    # cannot loot it this turning point.
    g.activate("field-medic", "engage", reposition(), loot("south-west"))
    # Rosa's heavy gunner counteracts at the field medic: 4. 10 -> 6.
    g.counteract("rosa-heavy-gunner", shoot("Heavy bolter (focused)", "field-medic", damage=4))
    # Pia's heavy gunner at Rosa's: 8. 14 -> 6.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "rosa-heavy-gunner", damage=8))
    g.end_turning_point()
    # Elimination TP3: Sam 2 and Pia 2 (1st) +2 each; Rosa 1 (3rd) 0; Quinn 0.
    # Loot: Quinn 3, Pia 1. VP: Pia 5, Quinn 7, Sam 3, Rosa 2. CP: Quinn 4, Rosa 5, Sam 5, Pia 5.

    # ============================== TURNING POINT 4 ==============================
    # Order: Pia 6, Quinn 4, Rosa 2, Sam 1. CP: Pia +1 -> 6, Quinn 6, Rosa 7, Sam 7; Pia's gambit -> 5.
    g.turning_point_order(4, {"Pia": 6, "Quinn": 4, "Rosa": 2, "Sam": 1}, gambits=[("Pia", "Dark Pact")])
    g.activate("legionary-1", "engage", reposition(), loot("centre"))  # Pia loot 1
    g.activate("hearthkyn-warrior-1", "engage", reposition(), loot("north-east"))  # Quinn loot 1
    # Rosa's heavy gunner at warrior-1 (4 wounds): 4. Down (Rosa 1).
    g.activate("rosa-heavy-gunner", "engage", shoot("Heavy bolter (focused)", "hearthkyn-warrior-1", damage=4))
    # Sharpshooter at Rosa's icon bearer: 3. 5 -> 2.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "rosa-icon-bearer", damage=3))
    g.activate("legionary-2", "engage", reposition(), loot("north-west"))  # Pia loot 2
    g.activate("hearthkyn-warrior-2", "engage", reposition(), loot("south-east"))  # Quinn loot 2
    g.activate("rosa-aspiring-champion", "engage", reposition(), loot("south-west"))  # Rosa loot 1
    # Demo-trooper at warrior-2 (4 wounds): 4. Down (Sam 1).
    g.activate("demo-trooper", "engage", reposition(), shoot("Hot-shot laspistol", "hearthkyn-warrior-2", damage=4))
    # Pia's icon bearer at the Lokatr (2 wounds): 3. Down (Pia 1).
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "lokatr", damage=3))
    # Field medic at Pia's legionary-1: 3. 8 -> 5.
    g.activate("field-medic", "engage", reposition(), shoot("Autoch-pattern bolt pistol", "legionary-1", damage=3))
    # Rosa's icon bearer at the field medic: 3. 6 -> 3.
    g.activate("rosa-icon-bearer", "engage", reposition(), shoot("Boltgun", "field-medic", damage=3))
    # Only Pia's heavy gunner is left: at Rosa's Champion, 8. 15 -> 7.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "rosa-aspiring-champion", damage=8))
    g.end_turning_point()
    # Elimination TP4: Rosa 1, Sam 1, Pia 1: all 1st, +2 each; Quinn 0.
    # Loot: Pia 2, Quinn 2, Rosa 1. Final: Pia 9, Quinn 9 (shared win), Rosa 5, Sam 5.
    return g

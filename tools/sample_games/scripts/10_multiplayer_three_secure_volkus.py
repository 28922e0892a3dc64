"""A three-way Multiplayer Ops battle (pg 98-103) on Killzone Volkus, Winter League 2026, round 1,
table 1: Mara's Legionaries, Nico's Kasrkin and Oona's Hearthkyn Salvagers, crit op Secure. Oona's
HYLas gunner drew first blood in turning point 1 (not ranked: the elimination op scores from TP2).
TP2 was a massacre round the centre: the Theyn cut down Nico's sergeant, the Chosen cut down the
Theyn, and the meltagun burned down the Chosen; Nico's gunners ranked first on eliminations with
the two Legionaries they killed counting double. In TP3 the Kasrkin picked off the wounded
Legionaries again while the Hearthkyn took the west marker, and in TP4 the last Legionary fell
after taking the grenadier with him, leaving Oona and Mara tied for second on eliminations. Nico
won with 10VP to Oona's 8 and Mara's 4.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, charge, dash, fight, reposition, secure, shoot, unique

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "5b0e6a51-93c4-4c55-a3d2-2f1f0e1f6a10"
STARTED_AT = "2026-11-14T14:00:00+00:00"
DESCRIPTION = "Multiplayer Ops, three players: Legionaries, Kasrkin, Hearthkyn; Secure on Volkus; Nico wins 10-8-4"

# Hand tally, worked out turning point by turning point before running build.py.
#
# Elimination op (pg 102): enemy operatives each player's operatives incapacitated in the turning
# point; Legionaries (Wounds 14 and 15) count as two. From TP2, the players who incapacitated any are
# ranked: 1st 2VP, 2nd 1VP; tied players share the higher rank.
#   TP1: Oona 1 (recon-trooper). Not ranked (pg 102: "each turning point after the first").
#   TP2: Nico 6 (Chosen 2, legionary-1 2, hearthkyn-warrior-1, Dozr); Mara 4 (Theyn, gunner-melta,
#        jump-pack, hearthkyn-gunner); Oona 2 (sergeant, gunner-plasma).
#        Ranks: Nico 1st 2VP, Mara 2nd 1VP, Oona 3rd 0.
#   TP3: Nico 5 (Aspiring Champion 2, Icon Bearer 2, Kinlynk); Oona 3 (Heavy Gunner 2, gunner-flamer);
#        Mara 0 (unranked). Ranks: Nico 1st 2VP, Oona 2nd 1VP.
#   TP4: Nico 4 (hearthkyn-warrior-2, legionary-2 2, Lokatr); Oona 1 (sharpshooter); Mara 1 (grenadier).
#        Ranks: Nico 1st 2VP; Oona and Mara tied, both 2nd: 1VP each.
#   Elimination: Nico 6, Mara 1 + 0 + 1 = 2, Oona 0 + 1 + 1 = 2.
#
# Crit op Secure (pg 103): at the end of TP2-4, 1VP per marker your kill team has secured (max 3);
# a marker stays secured until an enemy kill team secures it.
#   Markers (ruling 9, set up round player order Nico, Mara, Oona): centre, north, east, west.
#   TP2: centre Nico -> Oona (warrior-2), east Oona, north Mara, west Nico: Nico 1, Mara 1, Oona 2.
#   TP3: centre -> Mara, west -> Oona, north -> Nico: Nico 1 (north), Mara 1 (centre), Oona 2 (east, west).
#   TP4: centre -> Oona, west -> Nico: Nico 2 (north, west), Mara 0, Oona 2 (centre, east).
#   Crit: Nico 4, Mara 2, Oona 6.
#
# Totals: Nico 6 + 4 = 10, Oona 2 + 6 = 8, Mara 2 + 2 = 4: Nico wins.
EXPECTED = {
    "winner": "Nico",
    "draw": False,
    "ended_by": "battle",
    "score": {
        "Mara": {"elimination": 2, "crit": 2, "total": 4},
        "Nico": {"elimination": 6, "crit": 4, "total": 10},
        "Oona": {"elimination": 2, "crit": 6, "total": 8},
    },
}


def build() -> GameBuilder:
    g = GameBuilder(
        ruleset="kt24-multiplayer", killzone="volkus", date="2026-11-14", mission="3-player map 1", league="Winter League", season="2026", round="1", table="1"
    )
    g.player("Mara", load_roster(ROSTERS / "legionaries.toml"))
    g.player("Nico", load_roster(ROSTERS / "kasrkin.toml"))
    g.player("Oona", load_roster(ROSTERS / "hearthkyn.toml"))
    # Player order (pg 99): Mara 5, Nico 5, Oona 3; Mara and Nico roll again: 2 and 4.
    # Order Nico, Mara, Oona. Nico rolls the map (2: map 1) and the crit op: 1, Secure.
    # The map shows four objective markers, set up round player order (ruling 9).
    # Drop zones in player order; 2CP each.
    g.setup_multiplayer(
        [{"Mara": 5, "Nico": 5, "Oona": 3}, {"Mara": 2, "Nico": 4}],
        crit_op=1,
        markers=[("centre", "Nico"), ("north", "Mara"), ("east", "Oona"), ("west", "Nico")],
        drop_zones={"Nico": "west", "Mara": "north", "Oona": "east"},
        equipment={"Mara": ("Frag grenades",), "Nico": ("Portable barricade", "Frag grenades"), "Oona": ("Ammo cache",)},
    )
    # Set-up in thirds round player order: Nico 4, Mara 2, Oona 4, Nico 4, Mara 2, Oona 4, Nico 2, Mara 2, Oona 2.
    # Wounds: Kasrkin 8 (Save 4+), Hearthkyn 10 (Theyn 11), Legionaries 14 (Champion and Chosen 15, Save 3+).

    # ============================== TURNING POINT 1 ==============================
    # Order: Nico 3, Mara 6, Oona 6; Mara and Oona roll again: 1 and 5 -> Oona, Mara, Nico.
    # CP +1 each -> 3 each; gambits: Oona 2, Mara 2, Nico 3.
    g.turning_point_order(1, [{"Nico": 3, "Mara": 6, "Oona": 6}, {"Mara": 1, "Oona": 5}], gambits=[("Oona", "Ancestral Grudge"), ("Mara", "Dark Pact")])
    # HYLas at the recon-trooper in the open: 6 crit, 5 4 normal, 1 fails; Piercing 2 leaves one
    # defence die, a 3: 6 + 5 + 5 = 16. Recon down (Oona 1 in TP1: not ranked).
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "recon-trooper", "6541", "3"))
    g.activate("chosen", "conceal", reposition(), dash())
    g.activate("sergeant", "conceal", reposition(), dash())
    g.activate("theyn", "conceal", reposition(), dash())
    # Quick mode: legionary-1's boltgun for 4. Hearthkyn gunner 10 -> 6.
    g.activate("legionary-1", "engage", reposition(), shoot("Boltgun", "hearthkyn-gunner", damage=4))
    # Quick mode: the sharpshooter (stationary, Silent) for 6. Legionary-1 14 -> 8.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "legionary-1", damage=6))
    g.activate("dozr", "conceal", reposition(), dash())
    g.activate("aspiring-champion", "conceal", reposition(), dash())
    g.activate("gunner-plasma", "conceal", reposition(), dash())
    g.activate("field-medic", "conceal", reposition(), dash())
    # Heavy bolter at warrior-1 for 4. Warrior-1 10 -> 6.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "hearthkyn-warrior-1", damage=4))
    g.activate("gunner-melta", "conceal", reposition(), dash())
    g.activate("grenadier", "conceal", reposition(), dash())
    g.activate("icon-bearer", "conceal", reposition(), unique("Dark Icon"))
    g.activate("vox-trooper", "engage", reposition(), unique("Signal"))
    g.activate("jump-pack", "conceal", reposition(), dash())
    g.activate("legionary-2", "conceal", reposition(), dash())
    g.activate("medic", "conceal", reposition(), dash())
    # Mara's six are expended: Oona and Nico alternate the rest.
    g.activate("kinlynk", "conceal", reposition(), dash())
    g.activate("demo-trooper", "conceal", reposition(), dash())
    g.activate("lokatr", "conceal", reposition(), dash())
    g.activate("gunner-flamer", "conceal", reposition(), dash())
    # Warrior-1's bolter at legionary-1 for 3. Legionary-1 8 -> 5 (injured).
    g.activate("hearthkyn-warrior-1", "engage", reposition(), shoot("Autoch-pattern bolter", "legionary-1", damage=3))
    g.activate("gunner-grenade", "conceal", reposition(), dash())
    g.activate("hearthkyn-warrior-2", "conceal", reposition(), dash())
    g.end_turning_point()
    # End of TP1: no VP. CP: Nico 3, Mara 2, Oona 2.

    # ============================== TURNING POINT 2 ==============================
    # Order: Nico 6, Oona 4, Mara 2. CP: Nico +1 -> 4, Oona +2 -> 4, Mara +2 -> 4 (ruling 2);
    # a gambit each -> 3 each.
    g.turning_point_order(2, {"Mara": 2, "Nico": 6, "Oona": 4}, gambits=[("Nico", "Take Aim"), ("Oona", "Hearthkyn Resilience"), ("Mara", "Malicious Volleys")])
    g.activate("sergeant", "engage", reposition(), secure("centre"))
    # The Theyn charges the sergeant: 8 dealt, 4 taken. Sergeant down (Oona 1); Theyn 11 -> 7.
    g.activate("theyn", "engage", charge("sergeant"), fight("Concussion gauntlet", "sergeant", "Power weapon", damage=8, damage_taken=4))
    # The Chosen charges the Theyn: 11 dealt, 4 taken. Theyn down (Mara 1); Chosen 15 -> 11.
    g.activate("chosen", "engage", charge("theyn"), fight("Daemon blade", "theyn", "Concussion gauntlet", damage=11, damage_taken=4))
    # Meltagun at the Chosen: 6 crit, 4 5 normal, 2 fails. Devastating 4 at once; Piercing 2 leaves one
    # defence die, a 3: it saves one normal hit. 4 + 3 (critical Dmg) + 6 = 13. Chosen down (Nico 2).
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "chosen", "6452", "3"))
    g.activate("hearthkyn-warrior-1", "engage", reposition(), secure("east"))
    # Legionary-1's boltgun at the melta gunner: two crits, 8. Melta down (Mara 2).
    g.activate("legionary-1", "engage", reposition(), shoot("Boltgun", "gunner-melta", damage=8))
    # Plasma (standard) at legionary-1: one crit, 6. Legionary-1 5 -> down (Nico 4).
    g.activate("gunner-plasma", "engage", reposition(), shoot("Plasma gun (standard)", "legionary-1", damage=6))
    # The jump pack warrior charges the plasma gunner: 9 dealt, 2 taken. Plasma down (Oona 2); jump pack 10 -> 8.
    g.activate("jump-pack", "engage", charge("gunner-plasma"), fight("Plasma knife", "gunner-plasma", "Gun butt", damage=9, damage_taken=2))
    # Heavy bolter at the jump pack: 8. Down (Mara 3).
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "jump-pack", damage=8))
    # Sharpshooter at warrior-1 (6 wounds): 6. Down (Nico 5). East stays secured by Oona.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "hearthkyn-warrior-1", damage=6))
    # Krak grenade at the heavy gunner: 5. Heavy gunner 14 -> 9.
    g.activate("grenadier", "engage", reposition(), shoot("Heavy krak grenade", "heavy-gunner", damage=5))
    g.activate("aspiring-champion", "engage", reposition(), secure("north"))
    g.activate("vox-trooper", "engage", reposition(), secure("west"))
    # HYLas at the Aspiring Champion: 10. Champion 15 -> 5.
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "aspiring-champion", damage=10))
    # Icon bearer at the HYLas gunner (6 wounds): 6. Down (Mara 4).
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "hearthkyn-gunner", damage=6))
    g.activate("medic", "conceal", reposition(), dash())
    # The Dozr charges the icon bearer: 5 dealt, 4 taken. Icon 14 -> 9; Dozr 10 -> 6.
    g.activate("dozr", "engage", charge("icon-bearer"), fight("Concussion maul", "icon-bearer", "Chainsword", damage=5, damage_taken=4))
    # Legionary-2 at the grenadier: 3. Grenadier 10 -> 7. Mara's six have all acted (two are down).
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "grenadier", damage=3))
    # Flamer at the Dozr (within the icon bearer's control range, but no Kasrkin near it): 6. Down (Nico 6).
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "dozr", damage=6))
    # Kinlynk at the flamer: 4. Flamer 8 -> 4.
    g.activate("kinlynk", "engage", reposition(), shoot("Autoch-pattern bolter", "gunner-flamer", damage=4))
    # Mara has no ready operatives: her heavy gunner counteracts (pg 39) at the Kinlynk: 4. Kinlynk 10 -> 6.
    g.counteract("heavy-gunner", shoot("Heavy bolter (focused)", "kinlynk", damage=4))
    # Krak at the heavy gunner: 5. Heavy gunner 9 -> 4.
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (krak)", "heavy-gunner", damage=5))
    # Lokatr at the icon bearer: 7. Icon 9 -> 2.
    g.activate("lokatr", "engage", reposition(), shoot("Ion blaster", "icon-bearer", damage=7))
    g.activate("demo-trooper", "conceal", reposition(), dash())
    g.activate("field-medic", "conceal", reposition(), dash())
    g.activate("hearthkyn-warrior-2", "engage", reposition(), secure("centre"))
    g.end_turning_point()
    # Elimination TP2: Nico 6 (1st) +2, Mara 4 (2nd) +1, Oona 2 (3rd) 0.
    # Secure: Nico west 1, Mara north 1, Oona centre + east 2.
    # VP: Nico 3, Mara 2, Oona 2. CP 3 each.

    # ============================== TURNING POINT 3 ==============================
    # Order: Nico 2, Mara 4, Oona 4; Mara and Oona roll again: 6 and 3 -> Mara, Oona, Nico.
    # CP: Mara +1 -> 4, Oona +2 -> 5, Nico +2 -> 5; gambits: Mara 3, Nico 4.
    g.turning_point_order(3, [{"Mara": 4, "Nico": 2, "Oona": 4}, {"Mara": 6, "Oona": 3}], gambits=[("Mara", "Dark Pact"), ("Nico", "Covering Fire")])
    g.activate("legionary-2", "engage", reposition(), secure("centre"))
    # Warrior-2's ion blaster at legionary-2: 8. Legionary-2 14 -> 6.
    g.activate("hearthkyn-warrior-2", "engage", shoot("Ion blaster", "legionary-2", damage=8))
    # Sharpshooter at the Champion (5 wounds): 6. Down (Nico 2).
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "aspiring-champion", damage=6))
    # Heavy gunner (4 wounds) at warrior-2: 8. Warrior-2 10 -> 2.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "hearthkyn-warrior-2", damage=8))
    # Lokatr at the heavy gunner: 4. Down (Oona 2).
    g.activate("lokatr", "engage", shoot("Ion blaster", "heavy-gunner", damage=4))
    # Vox at the icon bearer (2 wounds): 3. Down (Nico 4).
    g.activate("vox-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "icon-bearer", damage=3))
    # Mara has nobody ready: legionary-2 counteracts at the Lokatr: 3. Lokatr 10 -> 7.
    g.counteract("legionary-2", shoot("Boltgun", "lokatr", damage=3))
    g.activate("kinlynk", "engage", reposition(), secure("west"))
    # Flamer (4 wounds) at the Kinlynk (6 wounds): 6. Down (Nico 5).
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "kinlynk", damage=6))
    # Grenadier's combi-bolter at the flamer: 4. Down (Oona 3).
    g.activate("grenadier", "engage", reposition(), shoot("Autoch-pattern combi-bolter", "gunner-flamer", damage=4))
    # Frag at the grenadier: 4. Grenadier 7 -> 3.
    g.activate("gunner-grenade", "engage", shoot("Grenade launcher (frag)", "grenadier", damage=4))
    g.activate("field-medic", "conceal", reposition(), dash())
    g.activate("medic", "engage", reposition(), secure("north"))
    # Oona is done: Nico finishes. Demo-trooper at legionary-2: 4. Legionary-2 6 -> 2.
    g.activate("demo-trooper", "engage", reposition(), shoot("Hot-shot laspistol", "legionary-2", damage=4))
    g.end_turning_point()
    # Elimination TP3: Nico 5 (1st) +2, Oona 3 (2nd) +1, Mara 0.
    # Secure: Mara centre 1, Oona east + west 2, Nico north 1.
    # VP: Nico 6, Mara 3, Oona 5. CP: Mara 3, Oona 5, Nico 4.

    # ============================== TURNING POINT 4 ==============================
    # Order: Nico 5, Mara 1, Oona 5; Nico and Oona roll again: 2-2, and again: 6 and 1 -> Nico, Oona, Mara.
    # CP: Nico +1 -> 5, Oona +2 -> 7, Mara +2 -> 5; Oona's gambit -> 6.
    g.turning_point_order(4, [{"Mara": 1, "Nico": 5, "Oona": 5}, {"Nico": 2, "Oona": 2}, {"Nico": 6, "Oona": 1}], gambits=[("Oona", "Ancestral Grudge")])
    # Sharpshooter at warrior-2 (2 wounds): 3. Down (Nico 1).
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "hearthkyn-warrior-2", damage=3))
    # Lokatr at the sharpshooter: 8. Down (Oona 1).
    g.activate("lokatr", "engage", reposition(), shoot("Ion blaster", "sharpshooter", damage=8))
    # The last Legionary (2 wounds) charges the grenadier (3 wounds): 8 dealt, nothing back. Down (Mara 1).
    g.activate("legionary-2", "engage", charge("grenadier"), fight("Chainsword", "grenadier", "Fists", damage=8, damage_taken=0))
    # Vox at legionary-2: 3. Down (Nico 3): Mara's kill team is wiped out; the others play on (pg 110).
    g.activate("vox-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "legionary-2", damage=3))
    g.activate("field-medic", "engage", reposition(), secure("centre"))
    # Frag at the Lokatr: 4. Lokatr 7 -> 3.
    g.activate("gunner-grenade", "engage", shoot("Grenade launcher (frag)", "lokatr", damage=4))
    # Oona has nobody ready and does not counteract: Nico finishes. Medic at the Lokatr: 3. Down (Nico 4).
    g.activate("medic", "engage", reposition(), shoot("Hot-shot lasgun", "lokatr", damage=3))
    g.activate("demo-trooper", "engage", reposition(), secure("west"))
    g.end_turning_point()
    # Elimination TP4: Nico 4 (1st) +2; Oona 1 and Mara 1 tied 2nd: +1 each.
    # Secure: Nico north + west 2, Oona centre + east 2, Mara 0.
    # Final: Nico 10, Oona 8, Mara 4.
    return g

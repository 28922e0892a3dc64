"""Winter League, round 1, table 1, Approved Ops: Hana's Kasrkin (all 10) against Ivo's Legionaries
(all 6) on Killzone Volkus, crit op Secure. Hana's Reposition scouting beat Ivo's Equip, so she
went first; her sharpshooter killed the Chosen and the Aspiring Champion while her troopers held
every marker by the end. Ivo's Legionaries wiped the Kasrkin out in the last turning point (kill
grade 5), but Hana's secret primary op was the crit op she had maxed out: her bonus of 3 against
Ivo's 3 on his kill op kept her a point ahead. Hana wins 16-15.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.events import EquipmentSelected
from ktlog.files.rosters import load_roster
from ktlog.play.builder import (
    GameBuilder,
    charge,
    dash,
    fight,
    reposition,
    secure,
    shoot,
    unique,
)
from ktlog.rulesets.approved.events import PrimaryOpRevealed, PrimaryOpSelected, ScoutingRevealed, ScoutingSelected, TacOpRevealed, TacOpScored, TacOpSelected

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "5d0c2a52-8f3e-4a57-9a77-0b1a6f1e0808"
STARTED_AT = "2026-11-15T18:30:00+00:00"
DESCRIPTION = "Winter League R1 T1: Approved Ops, Kasrkin v Legionaries, Secure on Volkus; Hana's primary crit op wins it 16-15"

# Hand tally (worked out before running build.py):
#   Hana kills 4 Legionaries (row 6: 1,2,4,5,6): Chosen (TP2) g1; legionary-1 (TP3) g2, Icon (TP3);
#     Aspiring Champion (TP4) g3 -> kill 3VP.
#   Ivo kills all 10 Kasrkin (row 10: 2,4,6,8,10): plasma (TP1); recon (TP2) g1, melta, vox (TP2) g2;
#     sergeant, flamer (TP3) g3, grenade (TP3); medic (TP4) g4, sharpshooter, demo (TP4) g5 -> 5VP.
#   End of TP4: Ivo's kill grade 5 beats Hana's 3: Ivo +1. Ivo kill 6.
#   Secure: TP2 Hana 2 markers v Ivo 1 -> H+2 I+1; TP3 H 2 v I 1 -> H+2 I+1; TP4 H 3 v I 0 -> H+2.
#     Crit: Hana 6, Ivo 2.
#   Tac ops (recorded from the cards): Hana's Flank 1 (TP2) + 2 (TP3) + 1 (TP4) = 4;
#     Ivo's Overrun 2 (TP3) + 2 (TP4) = 4.
#   Before primary ops: Hana 6 + 3 + 4 = 13, Ivo 2 + 6 + 4 = 12.
#   Primary ops (002: half the op's VP, rounded up): Hana crit 6 -> +3; Ivo kill 6 -> +3.
#   Hana 16, Ivo 15.
EXPECTED = {
    "winner": "Hana",
    "draw": False,
    "ended_by": "battle",
    "score": {
        "Hana": {"crit": 6, "kill": 3, "tac": 4, "primary": 3, "total": 16},
        "Ivo": {"crit": 2, "kill": 6, "tac": 4, "primary": 3, "total": 15},
    },
}


def build() -> GameBuilder:
    g = GameBuilder(ruleset="kt24-approved", killzone="volkus", date="2026-11-15", league="Winter League", season="2026", round="1", table="1")
    g.player("Hana", load_roster(ROSTERS / "kasrkin.toml"))
    g.player("Ivo", load_roster(ROSTERS / "legionaries.toml"))
    # Ivo wins the set-up roll-off 5-3 and keeps initiative; he rolls the crit op: 1, Secure.
    # Hana places the centre marker, then Ivo his, then Hana hers. Equipment is revealed: CP 2 each.
    # Then each player secretly selects a tac op from one of their kill team's archetypes:
    # Hana Flank (Recon; Kasrkin are Security and Recon), Ivo Overrun (Seek & Destroy).
    g.setup(
        rolloff={"Hana": 3, "Ivo": 5},
        initiative="Ivo",
        crit_op=1,
        equipment={"Hana": ("Comms Device", "Light Barricades", "Utility Grenades"), "Ivo": ("Heavy Barricade", "Ammo Cache")},
        before_set_up=[
            TacOpSelected(player="Hana", tac_op="Flank", archetype="Recon"),
            TacOpSelected(player="Ivo", tac_op="Overrun", archetype="Seek & Destroy"),
        ],
    )
    # Scouting, after set-up: Hana picks 3 Reposition, Ivo 1 Equip. Revealed together: 3 beats 1, so
    # Hana will have initiative in TP1. Ivo (initiative) resolves first: Equip adds Mines.
    g.add(ScoutingSelected(player="Hana", option="reposition"), ScoutingSelected(player="Ivo", option="equip"), ScoutingRevealed())
    g.annotate("Hana's Reposition: the sharpshooter moves up to the ruin's upper floor, within 3\" of her drop zone")
    g.add(EquipmentSelected(player="Ivo", equipment=("Mines",)))
    # Wounds: every Kasrkin 8 (injured at 3 or less); Legionaries 14 (injured at 6 or less),
    # Aspiring Champion and Chosen 15 (injured at 7 or less).

    # ============================== TURNING POINT 1 ==============================
    # No roll-off: the scouting gives Hana initiative. CP: H 3, I 3. Gambits: each player's secret
    # primary op (Hana crit, Ivo kill), then a ploy each -> H 2, I 2.
    g.turning_point(
        1,
        None,
        initiative="Hana",
        gambits=[
            PrimaryOpSelected(player="Hana", op="crit"),
            PrimaryOpSelected(player="Ivo", op="kill"),
            ("Hana", "Covering Fire"),
            ("Ivo", "Malicious Volleys"),
        ],
    )
    # Sharpshooter, stationary (Silent, on Conceal), at legionary-1 in the open: 6 crit (Lethal 5+),
    # 4 2 normal (Hit 2+); Devastating 3. Saves 4 3 (2 fail): two normal saves cancel the two
    # normals, the crit's 3 goes through. 3 + 3 = 6. L1 14 -> 8.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "legionary-1", "6421", "432"))
    g.activate("legionary-1", "engage", reposition(), dash())
    g.activate("recon-trooper", "conceal", reposition(), unique("Auspex Scan"))
    # Icon boltgun at the vox (Conceal, in the open): 6 crit, 5 3 normal; saves 5 4: cancelling the
    # two normals leaves the crit: 4. Vox 8 -> 4.
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "vox-trooper", "6532", "541"))
    # Plasma (standard, Piercing 1) at the Icon in cover: 6 crit, 5 4 normal; 1 die + cover: 5 -> two
    # normal saves cancel both normals: the crit's 6. Icon 14 -> 8.
    g.activate("gunner-plasma", "engage", reposition(), shoot("Plasma gun (standard)", "icon-bearer", "6541", "5", cover=True))
    g.activate("chosen", "engage", reposition(), dash())
    g.activate("sergeant", "conceal", reposition(), dash())
    # Heavy bolter (focused, no move) at the plasma gunner: 6 crit, 4 3 3 normal; Piercing Crits 1 +
    # cover -> 1 die, a 2: the cover save cancels a normal; 5 + 4 + 4 = 13. Plasma 8 -> 0.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "gunner-plasma", "64331", "2", cover=True))
    # Ivo: 1 kill -> kill grade 0 (row 10 needs 2).
    g.activate("gunner-melta", "conceal", reposition(), dash())
    g.activate("aspiring-champion", "engage", reposition(), dash())
    g.activate("medic", "conceal", reposition(), dash())
    # L2 boltgun at the grenadier gunner (Conceal, in the open): 5 5 4 normal; saves 6 4: 3 through.
    # Grenade 8 -> 5.
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "gunner-grenade", "5542", "643"))
    # Ivo's six are expended; Hana activates her last four.
    # Vox lasgun at L1 in cover: 6 crit, 5 normal; Piercing Crits 1 + cover -> 1 die, a 3: two saves
    # cancel the crit, the normal's 3 goes through. L1 8 -> 5 (injured).
    g.activate("vox-trooper", "engage", reposition(), shoot("Hot-shot lasgun", "legionary-1", "6521", "3", cover=True))
    # Frag at the Icon in cover: 6 crit, 4 4 normal; saves 5 3 + cover = 3: two cancel the crit, one a
    # normal: 2. Icon 8 -> 6 (injured).
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (frag)", "icon-bearer", "6442", "53", cover=True))
    g.activate("gunner-flamer", "conceal", reposition(), dash())
    g.activate("demo-trooper", "conceal", reposition(), dash())
    g.end_turning_point()
    # End of TP1: no Secure in TP1. Kills: Ivo 1. Score 0-0. CP: H 2, I 2.
    # Wounds: vox 4, grenade 5; L1 5, Icon 6.

    # ============================== TURNING POINT 2 ==============================
    # Ivo wins 6-4. CP: Ivo +1 -> 3, Hana +2 -> 4; gambits -> I 2, H 3.
    g.turning_point(2, {"Hana": 4, "Ivo": 6}, initiative="Ivo", gambits=[("Ivo", "Dark Pact"), ("Hana", "Take Aim")])
    # The Chosen charges the recon-trooper. Daemon blade 6 5 crit (Lethal 5+), 4 normal; recon 5 4
    # normal. Each strikes, best first: Chosen 6 (recon 8 -> 2), recon 2 (Chosen 15 -> 13), Chosen 6:
    # recon incapacitated.
    g.activate("chosen", "engage", charge("recon-trooper"), fight("Daemon blade", "recon-trooper", "Gun butt", "65421", "541"))
    # Ivo: 2 kills -> kill grade 1 = 1VP. Ivo kill 1.
    # The sergeant secures the centre. Secured: centre H.
    g.activate("sergeant", "engage", reposition(), secure("centre"))
    # L1 secures Ivo's marker. Secured: centre H, Ivo-marker I.
    g.activate("legionary-1", "engage", reposition(), secure("Ivo-marker"))
    # Meltagun at the Chosen: 6 crit, 4 normal; Devastating 4; Piercing 2 -> 1 die, a 4: cancels the
    # normal; the crit's 3. 4 + 3 = 7. Chosen 13 -> 6 (injured).
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "chosen", "6431", "4"))
    # Heavy bolter at the melta gunner: 6 crit, 5 3 normal; Piercing Crits 1 -> 2 dice: 5 2 = one save
    # on a normal: 5 + 4 = 9. Melta 8 -> 0.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "gunner-melta", "65321", "52"))
    # Ivo: 3 kills -> still kill grade 1.
    # Sharpshooter at the Chosen in cover: 5 5 crit, 2 normal; Devastating 3 x 2 = 6: Chosen 6 -> 0.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "chosen", "5521", "42", cover=True))
    # Hana: 1 kill -> kill grade 1 (row 6) = 1VP. Hana kill 1.
    # Icon (injured: Hit 4+) at the sergeant in cover: 6 crit, 4 4 normal; 5 + cover = 2 saves cancel
    # the normals: 4. Sergeant 8 -> 4.
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "sergeant", "6441", "52", cover=True))
    # The vox secures Hana's marker. Secured: centre H, Hana-marker H, Ivo-marker I.
    g.activate("vox-trooper", "engage", reposition(), secure("Hana-marker"))
    # The Champion charges the vox (4 wounds): Power weapon 5 crit, 4 3 normal; vox 6 crit. The
    # Champion strikes first with the crit: 6. Vox incapacitated.
    g.activate("aspiring-champion", "engage", charge("vox-trooper"), fight("Power weapon", "vox-trooper", "Gun butt", "54312", "632"))
    # Ivo: 4 kills -> kill grade 2 = 1VP. Ivo kill 2.
    # Frag at the Champion in the open: 6 crit, 5 4 normal; saves 6 3 3 block everything.
    g.activate("gunner-grenade", "engage", reposition(), shoot("Grenade launcher (frag)", "aspiring-champion", "6541", "633"))
    # L2 at the grenadier gunner in cover: 5 4 3 normal; cover + 6 = 2 saves: 3 through. Grenade 5 -> 2.
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "gunner-grenade", "5431", "61", cover=True))
    # Ivo's operatives are expended; Hana has the flamer, medic and demo-trooper.
    # Flamer (Saturate: no cover save) at L2: 5 4 3 normal; saves 6 4 cancel two: 3. L2 14 -> 11.
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "legionary-2", "5431", "642"))
    # Medic at L1 in cover: 6 crit, 4 normal; Piercing Crits 1 + cover -> 1 die, a 2: the cover save
    # cancels the normal; the crit's 4. L1 5 -> 1.
    g.activate("medic", "engage", reposition(), shoot("Hot-shot lasgun", "legionary-1", "6431", "2", cover=True))
    # Demo-trooper's laspistol at L1: one hit (5), cancelled by the cover save.
    g.activate("demo-trooper", "engage", reposition(), shoot("Hot-shot laspistol", "legionary-1", "5211", "21", cover=True))
    # Flank (Hana reveals it now): scored at the end of the turning point.
    g.add(TacOpRevealed(player="Hana"), TacOpScored(player="Hana", vp=1, reason="Flank: the sergeant and the vox-trooper held both flanks"))
    g.end_turning_point()
    # Secure: Hana 2 (centre, her marker) v Ivo 1 (his marker): H +1 +1, I +1.
    # Score: Hana crit 2 + kill 1 + tac 1 = 4; Ivo crit 1 + kill 2 = 3. CP: H 3, I 2.
    # Alive: sergeant 4, sharpshooter 8, grenade 2, medic 8, flamer 8, demo 8; L1 1, L2 11, HG 14,
    # Icon 6, Champion 15.

    # ============================== TURNING POINT 3 ==============================
    # Hana wins 5-2. CP: Hana +1 -> 4, Ivo +2 -> 4; gambits -> H 3, I 3.
    g.turning_point(3, {"Hana": 5, "Ivo": 2}, initiative="Hana", gambits=[("Hana", "Covering Fire"), ("Ivo", "Malicious Volleys")])
    # Sharpshooter at L1 (1 wound): 5 crit; Devastating 3 -> L1 incapacitated.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "legionary-1", "5321", "65", cover=True))
    # Hana: 2 kills -> kill grade 2 = 1VP. Hana kill 2.
    # Heavy bolter at the sergeant in cover: 6 crit, 3 3 normal; Piercing Crits 1 + cover -> 1 die, a
    # 4: two saves, whatever they cancel 5 or more goes through. Sergeant 4 -> 0.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "sergeant", "63321", "4", cover=True))
    # Ivo: 5 kills -> still kill grade 2.
    # The medic secures Ivo's marker. Secured: centre H, Hana-marker H, Ivo-marker H.
    g.activate("medic", "engage", reposition(), secure("Ivo-marker"))
    # The Icon secures Hana's marker. Secured: centre H, Hana-marker I, Ivo-marker H.
    g.activate("icon-bearer", "engage", reposition(), secure("Hana-marker"))
    # Flamer at the Icon (6 wounds): 6 crit, 5 3 2 normal; saves 5 4: cancelling two normals leaves
    # 3 + 3 = 6. Icon incapacitated.
    g.activate("gunner-flamer", "engage", reposition(), shoot("Flamer", "icon-bearer", "6532", "541"))
    # Hana: 3 kills -> still kill grade 2 (row 6: grade 3 at 4).
    # The Champion charges the flamer: 6 5 5 crit, 3 normal; flamer 4 4 normal. Champion 6 (flamer
    # 8 -> 2), flamer 2 (Champion 15 -> 13), Champion 6: flamer incapacitated.
    g.activate("aspiring-champion", "engage", charge("gunner-flamer"), fight("Power weapon", "gunner-flamer", "Gun butt", "65532", "441"))
    # Ivo: 6 kills -> kill grade 3 = 1VP. Ivo kill 3.
    # Krak grenade (injured gunner: Hit 5+) at the Champion: 6 crit, 5 5 normal; Piercing 1 -> 2 dice:
    # 4 3 = two saves cancel the normals: 5. Champion 13 -> 8.
    g.activate("gunner-grenade", "engage", shoot("Grenade launcher (krak)", "aspiring-champion", "6552", "43"))
    # L2 at the grenadier gunner (2 wounds): 4 3 3 normal; one save (5): 6 through. Grenade incapacitated.
    g.activate("legionary-2", "engage", reposition(), shoot("Boltgun", "gunner-grenade", "4332", "521"))
    # Ivo: 7 kills -> still kill grade 3.
    # Demo-trooper at L2 in cover: 6 crit, 5 4 normal; cover + 3 = 2 saves cancel the normals: 4.
    # L2 11 -> 7.
    g.activate("demo-trooper", "engage", reposition(), shoot("Hot-shot laspistol", "legionary-2", "6541", "31", cover=True))
    g.add(
        TacOpScored(player="Hana", vp=2, reason="Flank: the medic and the demo-trooper held both flanks"),
        TacOpRevealed(player="Ivo"),
        TacOpScored(player="Ivo", vp=2, reason="Overrun: three enemy operatives incapacitated this turning point"),
    )
    g.end_turning_point()
    # Secure: Hana 2 (centre, Ivo's marker) v Ivo 1 (Hana's marker): H +1 +1, I +1.
    # Score: Hana crit 4 + kill 2 + tac 3 = 9; Ivo crit 2 + kill 3 + tac 2 = 7. CP: H 3, I 3.
    # Alive: sharpshooter 8, medic 8, demo 8; L2 7, HG 14, Champion 8.

    # ============================== TURNING POINT 4 ==============================
    # Roll-off 2-2: a tie, decided by Ivo, who did not have initiative in TP3; he takes it.
    # CP: Ivo +1 -> 4, Hana +2 -> 5; gambits -> I 3, H 4.
    g.turning_point(4, {"Hana": 2, "Ivo": 2}, initiative="Ivo", gambits=[("Ivo", "Dark Pact"), ("Hana", "Take Aim")])
    # The Champion charges the medic: 5 5 crit, 4 normal; medic 6 crit, 5 normal. Champion 6 (medic
    # 8 -> 2), medic 3 (Champion 8 -> 5), Champion 6: medic incapacitated.
    g.activate("aspiring-champion", "engage", charge("medic"), fight("Power weapon", "medic", "Gun butt", "55421", "653"))
    # Ivo: 8 kills -> kill grade 4 = 1VP. Ivo kill 4.
    # Sharpshooter at the Champion (5 wounds) in cover: 6 crit, 4 3 normal; Devastating 3 (5 -> 2);
    # cover + 3 = 2 saves: the least that gets through is 3. Champion incapacitated.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "aspiring-champion", "6431", "32", cover=True))
    # Hana: 4 kills -> kill grade 3 = 1VP. Hana kill 3.
    # Heavy bolter at the sharpshooter (Conceal, in the open): 6 crit, 5 4 3 normal; Piercing Crits 1
    # -> 2 dice: 6 4 cancel the crit and a normal: 8. Sharpshooter incapacitated.
    g.activate("heavy-gunner", "engage", shoot("Heavy bolter (focused)", "sharpshooter", "65431", "64"))
    # Ivo: 9 kills -> still kill grade 4.
    # The demo-trooper secures Hana's marker back. Secured: all three by Hana.
    g.activate("demo-trooper", "engage", reposition(), secure("Hana-marker"))
    # L2 charges the demo-trooper: Chainsword 6 crit, 4 4 3 normal; demo 5 4 normal. L2 5 (demo 8 ->
    # 3), demo 2 (L2 7 -> 5), L2 4: demo incapacitated. The Kasrkin are wiped out.
    g.activate("legionary-2", "engage", charge("demo-trooper"), fight("Chainsword", "demo-trooper", "Gun butt", "64432", "542"))
    # Ivo: 10 kills -> kill grade 5 = 1VP. Ivo kill 5.
    g.add(
        TacOpScored(player="Hana", vp=1, reason="Flank: the demo-trooper held the far flank"),
        TacOpScored(player="Ivo", vp=2, reason="Overrun: the last Kasrkin fell in enemy territory"),
    )
    # The battle is over: the primary ops are revealed.
    g.add(PrimaryOpRevealed(player="Hana"), PrimaryOpRevealed(player="Ivo"))
    g.end_turning_point()
    # Secure: Hana 3 v Ivo 0: H +1 +1. Kill grades 5 v 3: Ivo +1.
    # Hana crit 6 + kill 3 + tac 4 = 13, primary crit +3 = 16.
    # Ivo crit 2 + kill 6 + tac 4 = 12, primary kill +3 = 15. Hana wins.
    return g

"""Winter League, round 1, table 2, Approved Ops: Jun's Pathfinders (11, the medical technician
left out) against Kai's Hearthkyn Salvagers (all 10) on Killzone Bheta-Decima, crit op
Transmission. Both players picked Ploy in the scouting step, so Kai, without set-up initiative,
decided TP1 initiative and took it; each used a strategy ploy for 0CP. The T'au out-shot the
Votann and held more transmitting markers, but Kai's Wiretap tac op scored its full 6VP: 12-12
when the primary ops were revealed. Jun's primary kill op (5VP, half rounded up: +3) beat Kai's
primary crit op (3VP: +2). Jun wins 15-14.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.files.rosters import load_roster
from ktlog.play.builder import (
    GameBuilder,
    charge,
    dash,
    fight,
    reposition,
    shoot,
    transmit,
    unique,
)
from ktlog.rulesets.approved.events import PrimaryOpRevealed, PrimaryOpSelected, ScoutingRevealed, ScoutingSelected, TacOpRevealed, TacOpScored, TacOpSelected

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "a3e1f0b7-6c2d-4e9a-8f15-2b7c9d0e0909"
STARTED_AT = "2026-11-15T18:45:00+00:00"
DESCRIPTION = "Winter League R1 T2: Approved Ops, Pathfinders v Hearthkyn, Transmission on Bheta-Decima; 12-12 until the primary ops, Jun wins 15-14"
PATHFINDERS = [
    "shasui",
    "blooded",
    "assault-grenadier",
    "comms-specialist",
    "drone-controller",
    "transpectral",
    "expert-ion",
    "expert-rail",
    "pathfinder-marksman",
    "shasla-1",
    "shasla-2",
]

# Hand tally (worked out before running build.py):
#   Jun kills 9 Hearthkyn (row 10: 2,4,6,8,10): gunner, Lokatr (TP1) g1; warrior-1, jump pack (TP2) g2,
#     Dozr (TP2); warrior-2 (TP3) g3, Kinlynk (TP3); Theyn (TP4) g4, field medic (TP4) -> 4VP.
#   Kai kills 7 Pathfinders (row 11: 2,4,7,9,11): shas'la-1 (TP1); comms (TP2) g1, rail, blooded (TP2) g2;
#     marksman, shas'ui (TP3); transpectral (TP4) g3 -> 3VP.
#   End of TP4: Jun's kill grade 4 beats Kai's 3: Jun +1. Jun kill 5.
#   Transmission (transmitting markers each side controls at the end of the TP): TP2 Jun 2 v Kai 1 ->
#     J+2 K+1; TP3 J 2 v K 1 -> J+2 K+1; TP4 J 1 v K 1 -> J+1 K+1. Crit: Jun 5, Kai 3.
#   Tac ops (recorded from the cards): Jun's Retrieval 1 (TP2) + 1 (TP4) = 2; Kai's Wiretap 1 (TP2)
#     + 2 (TP3) + 3 (TP4) = 6.
#   Before primary ops: Jun 5 + 5 + 2 = 12, Kai 3 + 3 + 6 = 12.
#   Primary ops: Jun kill 5 -> +3 (2.5 rounded up); Kai crit 3 -> +2 (1.5 rounded up).
#   Jun 15, Kai 14.
EXPECTED = {
    "winner": "Jun",
    "draw": False,
    "ended_by": "battle",
    "score": {
        "Jun": {"crit": 5, "kill": 5, "tac": 2, "primary": 3, "total": 15},
        "Kai": {"crit": 3, "kill": 3, "tac": 6, "primary": 2, "total": 14},
    },
}


def build() -> GameBuilder:
    g = GameBuilder(ruleset="kt24-approved", killzone="bheta-decima", date="2026-11-15", league="Winter League", season="2026", round="1", table="2")
    g.player("Jun", load_roster(ROSTERS / "pathfinders.toml"), select=PATHFINDERS)
    g.player("Kai", load_roster(ROSTERS / "hearthkyn.toml"))
    # Jun wins the set-up roll-off 6-2 and keeps initiative; he rolls the crit op: 3, Transmission.
    # Equipment revealed: CP 2 each. Secret tac ops: Jun Retrieval (Recon; Pathfinders are Recon and
    # Seek & Destroy), Kai Wiretap (Infiltration; Hearthkyn are Security and Infiltration).
    g.setup(
        rolloff={"Jun": 6, "Kai": 2},
        initiative="Jun",
        crit_op=3,
        equipment={"Jun": ("Comms Device", "Portable Barricade", "Explosive Grenades", "Ladders"), "Kai": ("Heavy Barricade", "Razor Wire", "Mines")},
        before_set_up=[
            TacOpSelected(player="Jun", tac_op="Retrieval", archetype="Recon"),
            TacOpSelected(player="Kai", tac_op="Wiretap", archetype="Infiltration"),
        ],
    )
    # Scouting: both pick 2 Ploy. The same option: Kai, who did not have set-up initiative, decides
    # TP1 initiative (002 step 5).
    g.add(ScoutingSelected(player="Jun", option="ploy"), ScoutingSelected(player="Kai", option="ploy"), ScoutingRevealed())
    # Wounds: Pathfinders 7 (injured at 3 or less); Hearthkyn 10 (injured at 4 or less), Theyn 11
    # (injured at 5 or less).

    # ============================== TURNING POINT 1 ==============================
    # No roll-off: Kai takes initiative. CP: J 3, K 3. Gambits: the primary ops (Kai crit, Jun kill),
    # a strategy ploy each for 0CP (Ploy), then Kai pays for a second -> J 3, K 2.
    g.turning_point(
        1,
        None,
        initiative="Kai",
        gambits=[
            PrimaryOpSelected(player="Kai", op="crit"),
            PrimaryOpSelected(player="Jun", op="kill"),
            ("Kai", "Ancestral Grudge", 0),
            ("Jun", "Recon Sweep", 0),
            ("Kai", "Hearthkyn Resilience"),
        ],
    )
    # HYLas beam cannon at shas'la-1 (Conceal, in the open): 6 crit, 4 normal; Piercing 2 -> 1 die, a 3
    # fails: 6 + 5 = 11. Shas'la-1 7 -> 0.
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "shasla-1", "6421", "3"))
    # Kai: 1 kill -> kill grade 0 (row 11 needs 2).
    # Marksman rail rifle (Silent) at the gunner in cover: 6 5 crit (Lethal 5+), 3 2 normal;
    # Devastating 3 x 2 = 6 (10 -> 4); 3 1 fail, the cover save cancels a normal: 9 more. Gunner down.
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "hearthkyn-gunner", "6532", "31", cover=True))
    # Jun: 1 kill -> kill grade 0 (row 10 needs 2).
    g.activate("theyn", "engage", reposition(), dash())
    # Rail rifle (no move) at the Lokatr (Conceal, in the open): 5 crit, 4 normal; Devastating 2;
    # Piercing 1 -> 2 dice: 4 2, one save cancels the normal: 2 + 4 = 6. Lokatr 10 -> 4 (injured).
    g.activate("expert-rail", "engage", shoot("Rail rifle", "lokatr", "5431", "42"))
    # Lokatr (injured: Hit 5+) at the rail expert in cover: 6 crit, 5 normal; Piercing Crits 1 -> 1 die
    # + cover: a 6 and the cover save cancel both.
    g.activate("lokatr", "engage", reposition(), shoot("Ion blaster", "expert-rail", "65421", "6", cover=True))
    g.activate("shasui", "engage", reposition(), unique("Markerlight"))
    g.activate("jump-pack", "engage", reposition(), dash())
    # Blooded at the Lokatr in cover: 6 crit, 5 4 normal; 5 + cover = 2 saves: at least 5 through.
    # Lokatr 4 -> 0.
    g.activate("blooded", "engage", reposition(), shoot("Pulse carbine", "lokatr", "6541", "51", cover=True))
    # Jun: 2 kills -> kill grade 1 = 1VP. Jun kill 1.
    # Combi-bolter at the blooded in cover: 6 crit, 4 4 normal; a 6 and the cover save cancel the crit
    # and a normal: 3. Blooded 7 -> 4.
    g.activate("grenadier", "engage", reposition(), shoot("Autoch-pattern combi-bolter", "blooded", "6442", "63", cover=True))
    g.activate("comms-specialist", "conceal", reposition(), unique("Relay Orders"))
    g.activate("kinlynk", "conceal", reposition(), unique("Kindred Link"))
    g.activate("drone-controller", "conceal", reposition(), dash())
    g.activate("dozr", "conceal", reposition(), dash())
    g.activate("transpectral", "conceal", reposition(), unique("System Jam"))
    # Warrior-1 at the shas'ui in cover: 5 4 normal; 5 + cover save both.
    g.activate("hearthkyn-warrior-1", "engage", reposition(), shoot("Autoch-pattern bolter", "shasui", "5432", "54", cover=True))
    # Ion rifle at warrior-1 in cover: 6 crit, 5 4 normal; Piercing Crits 1 -> 1 die + cover: a 3
    # fails, the cover save cancels a normal: 5 + 4 = 9. Warrior-1 10 -> 1.
    g.activate("expert-ion", "engage", reposition(), shoot("Ion rifle (standard)", "hearthkyn-warrior-1", "65421", "3", cover=True))
    g.activate("field-medic", "conceal", reposition(), dash())
    g.activate("shasla-2", "conceal", reposition(), dash())
    # Warrior-2's ion blaster at the ion expert in cover: 6 crit, 4 4 normal; 1 die + cover: a 5, two
    # saves: 4 through. Ion 7 -> 3 (injured).
    g.activate("hearthkyn-warrior-2", "engage", reposition(), shoot("Ion blaster", "expert-ion", "64431", "5", cover=True))
    # Kai's ten are expended; Jun activates his last.
    g.activate("assault-grenadier", "conceal", reposition(), dash())
    g.end_turning_point()
    # No mission actions in TP1. Score: Jun kill 1. CP: J 3, K 2.
    # Wounds: blooded 4, ion 3; warrior-1 1.

    # ============================== TURNING POINT 2 ==============================
    # Jun wins 5-3. CP: Jun +1 -> 4, Kai +2 -> 4; gambits -> J 3, K 3.
    g.turning_point(2, {"Jun": 5, "Kai": 3}, initiative="Jun", gambits=[("Jun", "Patient Hunters"), ("Kai", "Ancestral Grudge")])
    # Transmitting: Jun-marker.
    g.activate("comms-specialist", "engage", reposition(), transmit("Jun-marker"))
    # Transmitting: Jun-marker, Kai-marker.
    g.activate("kinlynk", "engage", reposition(), transmit("Kai-marker"))
    # Marksman at warrior-1 (1 wound): 5 crit; Devastating 3. Warrior-1 down.
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "hearthkyn-warrior-1", "5321", "65", cover=True))
    # Jun: 3 kills -> still kill grade 1.
    # The jump pack warrior charges the comms specialist: 5 crit, 4 3 normal; comms 5 5 normal.
    # Jump pack 5 (comms 7 -> 2), comms 2 (jump pack 10 -> 8), jump pack 4: comms down.
    g.activate("jump-pack", "engage", charge("comms-specialist"), fight("Plasma knife", "comms-specialist", "Gun butt", "5431", "552"))
    # Kai: 2 kills -> kill grade 1 = 1VP. Kai kill 1.
    # Rail rifle at the jump pack: 5 5 crit, 4 normal; Devastating 2 x 2 (8 -> 4); Piercing 1 -> 2 dice:
    # a 6 cancels one crit: 4 + 4. Jump pack down.
    g.activate("expert-rail", "engage", shoot("Rail rifle", "jump-pack", "5542", "63"))
    # Jun: 4 kills -> kill grade 2 = 1VP. Jun kill 2.
    # Heavy krak grenade at the rail expert in cover: 6 crit, 4 3 normal; Piercing 1 -> 1 die + cover:
    # a 2 fails, the cover save cancels a normal: 5 + 4 = 9. Rail down.
    g.activate("grenadier", "engage", reposition(), shoot("Heavy krak grenade", "expert-rail", "6431", "2", cover=True))
    # Kai: 3 kills -> still kill grade 1.
    # Transmitting: Jun-marker, Kai-marker, centre.
    g.activate("shasui", "engage", reposition(), transmit("centre"))
    # Theyn's bolt revolver at the shas'ui in cover: 6 crit, 5 3 normal; 5 + cover = 2 saves: 4.
    # Shas'ui 7 -> 3 (injured).
    g.activate("theyn", "engage", reposition(), shoot("Bolt revolver", "shasui", "6531", "52", cover=True))
    # Blooded at the Theyn in cover: 5 5 4 normal; 4 + cover = 2 saves: 4. Theyn 11 -> 7.
    g.activate("blooded", "engage", reposition(), shoot("Pulse carbine", "theyn", "5541", "43", cover=True))
    # The Dozr charges the blooded (4 wounds): maul 6 crit, 5 normal; blooded 4 normal. The Dozr
    # strikes first with its crit: 5. Blooded down.
    g.activate("dozr", "engage", charge("blooded"), fight("Concussion maul", "blooded", "Kroot blade", "6521", "431"))
    # Kai: 4 kills -> kill grade 2 = 1VP. Kai kill 2.
    # Drone controller at the Dozr in the open: 6 crit, 4 normal; saves 5 4 cancel the crit: 4.
    # Dozr 10 -> 6.
    g.activate("drone-controller", "engage", reposition(), shoot("Pulse carbine", "dozr", "6431", "542"))
    # Field medic at the drone controller in cover: 5 4 normal; 6 + cover save both.
    g.activate("field-medic", "engage", reposition(), shoot("Autoch-pattern bolt pistol", "drone-controller", "5421", "61", cover=True))
    # Transpectral at the field medic in cover: 6 crit, 5 4 normal; 2 2 fail, the cover save cancels a
    # normal: 9. Field medic 10 -> 1.
    g.activate("transpectral", "engage", reposition(), shoot("Pulse carbine", "field-medic", "6541", "22", cover=True))
    # Warrior-2 at the transpectral in cover: 6 6 crit; 5 5 + cover = 3 saves cancel one crit: 4.
    # Transpectral 7 -> 3 (injured).
    g.activate("hearthkyn-warrior-2", "engage", reposition(), shoot("Autoch-pattern bolter", "transpectral", "6621", "55", cover=True))
    # Ion expert (injured: Hit 5+) at warrior-2 in cover: 6 crit, 5 5 normal; 1 die + cover: a 4, two
    # saves: at least 5 through. Warrior-2 10 -> 5 (injured).
    g.activate("expert-ion", "engage", reposition(), shoot("Ion rifle (standard)", "hearthkyn-warrior-2", "65521", "4", cover=True))
    # Kai's operatives are expended. EMP grenade at the Dozr: 5 4 4 normal; Piercing 1 -> 2 dice: a 6
    # cancels one: 8. Dozr down.
    g.activate("assault-grenadier", "engage", reposition(), shoot("EMP grenade", "dozr", "5441", "63"))
    # Jun: 5 kills -> still kill grade 2.
    # Kai counteracts with the grenadier: 5 5 normal; the cover save cancels one: 3.
    # Assault grenadier 7 -> 4.
    g.counteract("grenadier", shoot("Autoch-pattern combi-bolter", "assault-grenadier", "5521", "31", cover=True))
    g.activate("shasla-2", "engage", reposition(), dash())
    g.add(
        TacOpRevealed(player="Jun"),
        TacOpScored(player="Jun", vp=1, reason="Retrieval: the comms specialist's relay recovered"),
        TacOpRevealed(player="Kai"),
        TacOpScored(player="Kai", vp=1, reason="Wiretap: the Kinlynk tapped the relay on Kai's marker"),
    )
    g.end_turning_point(control={"centre": "Jun", "Jun-marker": "Jun", "Kai-marker": "Kai"})
    # Transmission: Jun controls 2 transmitting markers, Kai 1: J +1 +1, K +1.
    # Score: Jun crit 2 + kill 2 + tac 1 = 5; Kai crit 1 + kill 2 + tac 1 = 4. CP: J 3, K 3.
    # Alive: shas'ui 3, assault grenadier 4, drone 7, transpectral 3, ion 3, marksman 7, shas'la-2 7;
    # Theyn 7, field medic 1, grenadier 10, Kinlynk 10, warrior-2 5.

    # ============================== TURNING POINT 3 ==============================
    # Kai wins 4-1. CP: Kai +1 -> 4, Jun +2 -> 5; gambits -> K 3, J 4.
    g.turning_point(3, {"Jun": 1, "Kai": 4}, initiative="Kai", gambits=[("Kai", "Hearthkyn Resilience"), ("Jun", "Recon Sweep")])
    # Transmitting: Kai-marker.
    g.activate("kinlynk", "engage", reposition(), transmit("Kai-marker"))
    # Marksman at the Kinlynk in cover: 6 5 crit, 2 normal; Devastating 3 x 2 (10 -> 4); 4 4 + cover =
    # 3 saves cancel a crit and the normal: 3. Kinlynk 4 -> 1.
    g.activate("pathfinder-marksman", "conceal", shoot("Marksman rail rifle", "kinlynk", "6521", "44", cover=True))
    # The Theyn charges the marksman: gauntlet 6 crit, 5 3 normal; marksman 4 normal. Theyn 6 (marksman
    # 7 -> 1); Shock discards the marksman's normal; Theyn 4: marksman down.
    g.activate("theyn", "engage", charge("pathfinder-marksman"), fight("Concussion gauntlet", "pathfinder-marksman", "Gun butt", "6532", "421"))
    # Kai: 5 kills -> still kill grade 2 (row 11: grade 3 at 7).
    # Transmitting: Kai-marker, centre.
    g.activate("shasui", "engage", reposition(), transmit("centre"))
    # Heavy frag grenade (Saturate) at the shas'ui: 6 crit, 5 4 normal; a 6 cancels the crit: 2 + 2.
    # Shas'ui 3 -> 0.
    g.activate("grenadier", "engage", reposition(), shoot("Heavy frag grenade", "shasui", "6541", "621"))
    # Kai: 6 kills -> still kill grade 2.
    # Drone controller at the grenadier in cover: 6 6 crit, 4 normal; 6 5 + cover: the crit save and two
    # normal saves cancel both crits: 4. Grenadier 10 -> 6.
    g.activate("drone-controller", "engage", reposition(), shoot("Pulse carbine", "grenadier", "6641", "65", cover=True))
    # Warrior-2 (injured: Hit 5+) at the drone controller in cover: 5 5 normal; the cover save cancels
    # one: 3. Drone 7 -> 4.
    g.activate("hearthkyn-warrior-2", "engage", reposition(), shoot("Autoch-pattern bolter", "drone-controller", "5521", "41", cover=True))
    # Transpectral (injured: Hit 5+) at warrior-2 (5 wounds) in cover: 6 crit, 5 normal; the cover save
    # cancels the normal: 5. Warrior-2 down.
    g.activate("transpectral", "engage", reposition(), shoot("Pulse carbine", "hearthkyn-warrior-2", "6521", "32", cover=True))
    # Jun: 6 kills -> kill grade 3 = 1VP. Jun kill 3.
    g.activate("field-medic", "conceal", reposition(), dash())
    # Ion expert at the Kinlynk (1 wound): 6 crit, 5 normal; 1 die + cover: the crit goes through.
    g.activate("expert-ion", "engage", reposition(), shoot("Ion rifle (standard)", "kinlynk", "65211", "3", cover=True))
    # Jun: 7 kills -> still kill grade 3.
    # Transmitting: Kai-marker, centre, Jun-marker.
    g.activate("assault-grenadier", "engage", reposition(), transmit("Jun-marker"))
    # Shas'la-2 at the Theyn in cover: 6 crit, 4 4 normal; 5 + cover = 2 saves: 5. Theyn 7 -> 2 (injured).
    g.activate("shasla-2", "engage", reposition(), shoot("Pulse carbine", "theyn", "6442", "51", cover=True))
    g.add(TacOpScored(player="Kai", vp=2, reason="Wiretap: the Kinlynk and the grenadier tapped two relays"))
    g.end_turning_point(control={"centre": "Jun", "Jun-marker": "Jun", "Kai-marker": "Kai"})
    # Transmission: Jun 2 v Kai 1: J +1 +1, K +1.
    # Score: Jun crit 4 + kill 3 + tac 1 = 8; Kai crit 2 + kill 2 + tac 3 = 7. CP: J 4, K 3.
    # Alive: assault grenadier 4, drone 4, transpectral 3, ion 3, shas'la-2 7; Theyn 2, field medic 1,
    # grenadier 6.

    # ============================== TURNING POINT 4 ==============================
    # Kai wins 6-3. CP: Kai +1 -> 4, Jun +2 -> 6; gambits -> K 3, J 5.
    g.turning_point(4, {"Jun": 3, "Kai": 6}, initiative="Kai", gambits=[("Kai", "Ancestral Grudge"), ("Jun", "Patient Hunters")])
    # Transmitting: Kai-marker.
    g.activate("grenadier", "engage", reposition(), transmit("Kai-marker"))
    # Shas'la-2 at the grenadier in cover: 5 4 4 normal; 5 + cover = 2 saves: 4. Grenadier 6 -> 2.
    g.activate("shasla-2", "engage", reposition(), shoot("Pulse carbine", "grenadier", "5441", "52", cover=True))
    # The injured Theyn (Hit 4+) charges shas'la-2: 6 6 crit, 4 normal; shas'la 5 5 normal. Theyn 6
    # (shas'la 7 -> 1), Shock discards a shas'la normal, shas'la 2: Theyn 2 -> 0.
    g.activate("theyn", "engage", charge("shasla-2"), fight("Concussion gauntlet", "shasla-2", "Gun butt", "6641", "552"))
    # Jun: 8 kills -> kill grade 4 = 1VP. Jun kill 4.
    # Transmitting: Kai-marker, centre.
    g.activate("transpectral", "engage", reposition(), transmit("centre"))
    # Field medic (injured: Hit 5+) at the transpectral in cover: 6 crit, 5 normal; the cover save
    # cancels the normal: 4. Transpectral 3 -> 0.
    g.activate("field-medic", "engage", reposition(), shoot("Autoch-pattern bolt pistol", "transpectral", "6521", "31", cover=True))
    # Kai: 7 kills -> kill grade 3 = 1VP. Kai kill 3.
    # Ion expert at the field medic (1 wound): 6 crit, 5 normal; Piercing Crits 1 -> 2 dice, 2 1 fail.
    g.activate("expert-ion", "engage", reposition(), shoot("Ion rifle (standard)", "field-medic", "65421", "21"))
    # Jun: 9 kills -> still kill grade 4.
    # Transmitting: Kai-marker, centre, Jun-marker.
    g.activate("drone-controller", "engage", reposition(), transmit("Jun-marker"))
    # Kai counteracts with the injured grenadier (Hit 5+): 5 5 normal; the cover save cancels one: 3.
    # Drone 4 -> 1.
    g.counteract("grenadier", shoot("Autoch-pattern combi-bolter", "drone-controller", "5521", "43", cover=True))
    # Assault grenadier at the grenadier (2 wounds) in cover: 5 4 normal; 4 + cover save both.
    g.activate("assault-grenadier", "engage", reposition(), shoot("Pulse carbine", "grenadier", "5431", "42", cover=True))
    g.add(
        TacOpScored(player="Jun", vp=1, reason="Retrieval: the drone controller carried the relay home"),
        TacOpScored(player="Kai", vp=3, reason="Wiretap: three relays tapped by the end of the battle"),
    )
    # The battle is over: the primary ops are revealed.
    g.add(PrimaryOpRevealed(player="Kai"), PrimaryOpRevealed(player="Jun"))
    g.end_turning_point(control={"centre": None, "Jun-marker": "Jun", "Kai-marker": "Kai"})
    # Transmission: Jun 1 v Kai 1: each +1. Kill grades 4 v 3: Jun +1.
    # Jun crit 5 + kill 5 + tac 2 = 12, primary kill +3 = 15.
    # Kai crit 3 + kill 3 + tac 6 = 12, primary crit +2 = 14. Jun wins.
    return g

"""Joint Ops 03 Escape (core book pg 87-89, 94-95) on Killzone Gallowdark, co-op: Grace and Ivan share
seven Kasrkin as one player (one CP pool, one equipment selection, pg 87) against nine NPOs with a
combined Wounds stat of 75 (the mission allows 77). The Heavy (Marksman) shot the vox-trooper down
before it moved, and by the end of turning point 2 seven NPOs had fallen, but so had four Kasrkin.
Half the NPOs being incapacitated, they called in reinforcements in the gambit step of turning
points 3 (a Tough and a Warrior) and 4 (the Heavy (Marksman)). The melta gunner and the medic got
out over the NPOs' killzone edge in turning point 3, the sharpshooter in turning point 4: with no
Kasrkin left in the killzone the battle ends, and 3 of 7 escaped is not more than 50%: the NPOs win.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.events import (
    DropZoneChosen,
    EquipmentSelected,
    GambitPassed,
    InitiativeDecided,
    OperativeAdded,
    OperativeSetUp,
    PlayerJoined,
    RolledOff,
    StrategicGambitUsed,
    TurningPointStarted,
)
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, act, charge, dash, fall_back, fight, reposition, shoot, unique
from ktlog.rules.setup import next_to_set_up
from ktlog.rulesets.joint.events import OperativeEscaped, ReinforcementsArrived

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "9d4c2a61-3f7e-4b8a-a0c5-6e1d2b3f4a58"
STARTED_AT = "2026-11-08T15:00:00+00:00"
DESCRIPTION = "Joint Ops 03 Escape, co-op: seven Kasrkin against 75 Wounds of NPOs and two waves of reinforcements; 3 of 7 escape"

PLAYERS = "Grace & Ivan"
KASRKIN = ["sergeant", "medic", "gunner-plasma", "sharpshooter", "vox-trooper", "recon-trooper", "gunner-melta"]
NPOS = [
    ("heavy-marksman", "heavy-marksman"),
    ("tough-brawler", "tough-brawler"),
    ("warrior-marksman-1", "warrior-marksman"),
    ("warrior-marksman-2", "warrior-marksman"),
    ("trooper-marksman-1", "trooper-marksman"),
    ("trooper-marksman-2", "trooper-marksman"),
    ("trooper-marksman-3", "trooper-marksman"),
    ("trooper-brawler-1", "trooper-brawler"),
    ("trooper-brawler-2", "trooper-brawler"),
]

# No VP in Joint Ops (pg 87). NPOs: 14 + 10 + 2 x 8 + 3 x 7 + 2 x 7 = 75 <= 77 (Escape, pg 94).
# Kasrkin: vox-trooper (TP1), sergeant, plasma gunner, recon-trooper (TP2-3) incapacitated; melta
# gunner and medic (TP3), sharpshooter (TP4) escaped. None left in the killzone: 3 escaped of 7 is
# not more than 50% (pg 94), so the players lose and the NPOs win.
EXPECTED = {
    "winner": "NPOs",
    "draw": False,
    "ended_by": "battle",
    "score": {"Grace & Ivan": {"total": 0}, "NPOs": {"total": 0}},
}


def build() -> GameBuilder:
    g = GameBuilder(ruleset="kt24-joint", killzone="gallowdark", date="2026-11-08", mission="escape")
    g.player(PLAYERS, load_roster(ROSTERS / "kasrkin.toml"), select=KASRKIN)
    cards = {o.id: o.datacard for o in load_roster(ROSTERS / "npo.toml").operatives}
    g.add(PlayerJoined(player="NPOs", kill_team="Ork mob", faction="NPO", npo=True))
    for op_id, card in NPOS:
        g.add(OperativeAdded(player="NPOs", operative=op_id, datacard=cards[card]))
    g.annotate(
        "Co-op: Grace runs the sergeant, medic, plasma gunner and sharpshooter, Ivan the vox-trooper, recon-trooper and "
        "melta gunner; one player, one CP pool (pg 87)",
        target=2,
    )

    # --- set-up (pg 110): the players win the roll-off and take initiative; no objective markers
    # on this map; drop zones in order; equipment (the NPOs' from the Equipment Pack, pg 88); the
    # players gain 2CP, the NPOs none; operatives in thirds: players 3, NPOs 3, 3, 3, 1, 3.
    g.add(RolledOff(purpose="setup", rolls={PLAYERS: 5, "NPOs": 3}), InitiativeDecided(player=PLAYERS))
    g.add(DropZoneChosen(player=PLAYERS, drop_zone="south"), DropZoneChosen(player="NPOs", drop_zone="north"))
    g.add(EquipmentSelected(player=PLAYERS, equipment=("Frag grenades", "Breaching charges")), EquipmentSelected(player="NPOs", equipment=("Ammo pile",)))
    while (who := next_to_set_up(g.state)) is not None:
        g.add(OperativeSetUp(operative=next(o for o in g.state.operatives_of(who) if not o.set_up).id))

    # ============================== TP1 ==============================
    # A tie: in TP1 the player without set-up initiative decides (pg 110) - the NPOs, who take it
    # (pg 87). Players 2+1 = 3CP, a gambit -> 2CP.
    g.turning_point(1, {PLAYERS: 4, "NPOs": 4}, initiative="NPOs", gambits=[(PLAYERS, "Combined Arms")])
    # Heavy (Marksman) shoots twice (pg 89). At the vox-trooper in the open: 6 crit, 3/3/5 normal (3+);
    # saves 6 crit, 4 normal, 2 -> crit and one normal blocked: 2 x 3 = 6 (8 -> 2). Again: 4/3 normal;
    # saves 5, 1, 2 -> one blocked: 3. VOX-TROOPER INCAPACITATED.
    g.activate("heavy-marksman", "engage", shoot("Firearm", "vox-trooper", "6335", "642"), shoot("Firearm", "vox-trooper", "2143", "512"), reposition())
    # Sharpshooter (Conceal, Silent) at the Heavy (Marksman) in cover: 6, 5 crit (Lethal 5+), 2 normal;
    # Devastating 3 x 2 = 6. Rolls 4, 3 + cover save = 3 normal saves: two block a crit, one the normal;
    # the other crit 3. 6 + 3 = 9: 14 -> 5.
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "heavy-marksman", "6521", "43", cover=True))
    # Trooper (Marksman) 1 carries the special weapon (1 in 3, pg 89): 5/4 normal; Piercing 1 -> 2 dice,
    # 4 saves one: 4. Plasma gunner 8 -> 4.
    g.activate("trooper-marksman-1", "engage", shoot("Special weapon", "gunner-plasma", "5432", "41"), reposition())
    # Plasma gun (supercharge) at trooper-marksman-1 in the open: 5, 6 crit, 4 normal; 2 dice: 6 is a
    # critical save and blocks a crit: 6 + 5 = 11. TROOPER-MARKSMAN-1 INCAPACITATED (1 of 9). Hot 5: safe.
    g.activate("gunner-plasma", "engage", reposition(), shoot("Plasma gun (supercharge)", "trooper-marksman-1", "5641", "63", hot=5))
    # Warrior (Marksman) 1 at the plasma gunner: one 4 hits; the 4 saves it.
    g.activate("warrior-marksman-1", "engage", shoot("Firearm", "gunner-plasma", "3214", "431"), reposition())
    # Sergeant's laspistol at warrior-marksman-1 in cover: 5, 6, 5 crit (Lethal 5+), 3 normal; rolls 4
    # and 2 + cover = 2 normal saves block one crit: 4 + 4 + 3 = 11. WARRIOR-MARKSMAN-1 INCAPACITATED (2 of 9).
    g.activate("sergeant", "engage", reposition(), shoot("Hot-shot laspistol", "warrior-marksman-1", "5653", "42", cover=True))
    g.activate("tough-brawler", "conceal", reposition(), dash())
    g.activate("recon-trooper", "conceal", reposition(), unique("Auspex Scan"))
    g.activate("trooper-brawler-1", "conceal", reposition(), dash())
    g.activate("medic", "conceal", reposition(), dash())
    # Trooper (Marksman) 2 (Firearm: the special weapon is taken) at the sergeant: 6 crit, 5/4/4 normal;
    # saves 6 crit, 4 normal, 1 -> 2 normals through: 4. Sergeant 8 -> 4.
    g.activate("trooper-marksman-2", "engage", shoot("Firearm", "sergeant", "6544", "641"))
    # Meltagun at trooper-marksman-2 in cover: 6 crit, 5 normal; Devastating 4; Piercing 2 leaves 1 die,
    # the cover save, so none rolled: it blocks the normal. 4 + 3 = 7. TROOPER-MARKSMAN-2 INCAPACITATED (3 of 9).
    g.activate("gunner-melta", "engage", reposition(), shoot("Meltagun", "trooper-marksman-2", "6351", "", cover=True))
    # Every Kasrkin is expended; three NPOs are still ready.
    # Warrior (Marksman) 2 at the melta gunner: 5/4 normal; 4 saves one: 3. Melta gunner 8 -> 5.
    g.activate("warrior-marksman-2", "engage", shoot("Firearm", "gunner-melta", "5412", "422"), reposition())
    # Counteract (pg 39): the plasma gunner (Engage) at warrior-marksman-2 in cover: 6 crit, 4/5 normal;
    # Piercing 1 -> 2 dice, one the cover save: rolls 2 -> one normal blocked: 4 + 6 = 10.
    # WARRIOR-MARKSMAN-2 INCAPACITATED (4 of 9).
    g.counteract("gunner-plasma", shoot("Plasma gun (standard)", "warrior-marksman-2", "6453", "2", cover=True))
    # Trooper (Marksman) 3 at the sergeant: 4/4 normal; saves 5, 5 block both.
    g.activate("trooper-marksman-3", "engage", shoot("Firearm", "sergeant", "4431", "551"), reposition())
    g.activate("trooper-brawler-2", "conceal", reposition(), dash())
    g.end_turning_point()
    # After TP1: Kasrkin sergeant 4, plasma gunner 4, melta gunner 5, the rest 8; vox-trooper down.
    # NPOs: 4 of 9 incapacitated (fewer than half: no reinforcements in TP2).

    # ============================== TP2 ==============================
    # The players win the roll-off and take initiative: 2+1 = 3CP, a gambit -> 2CP.
    g.turning_point(2, {PLAYERS: 6, "NPOs": 2}, initiative=PLAYERS, gambits=[(PLAYERS, "Combined Arms")])
    # Sharpshooter at the Heavy (Marksman) (5), still Engage, in cover: 6, 5 crit, 3/2 normal;
    # Devastating 3 x 2 = 6 alone. HEAVY-MARKSMAN INCAPACITATED (5 of 9).
    g.activate("sharpshooter", "conceal", shoot("Hot-shot marksman rifle (stationary)", "heavy-marksman", "6532", "11", cover=True))
    # The Tough (Brawler) charges the sergeant (4): Blades 5/4 normal; power weapon 6, 5 crit, 3 normal.
    # The attacker strikes first: 4. SERGEANT INCAPACITATED.
    g.activate("tough-brawler", "engage", charge("sergeant"), fight("Blades", "sergeant", "Power weapon", "5421", "6532"))
    # Plasma gun (supercharge) at the Tough (Brawler) in the open: 6, 6, 5 crit, 4 normal; Piercing 1 ->
    # 2 dice: 4 saves one normal; 3 x 6 = 18. TOUGH-BRAWLER INCAPACITATED (6 of 9). Hot 6: safe.
    g.activate("gunner-plasma", "engage", reposition(), shoot("Plasma gun (supercharge)", "tough-brawler", "6654", "42", hot=6))
    # Trooper (Brawler) 1 charges the plasma gunner (4): 6 crit, 4/4 normal; gun butt 5. Crit 4 first.
    # PLASMA GUNNER INCAPACITATED.
    g.activate("trooper-brawler-1", "engage", charge("gunner-plasma"), fight("Blades", "gunner-plasma", "Gun butt", "6443", "521"))
    # Medic's lasgun at trooper-brawler-1 in the open: 6 crit, 5/4 normal; Piercing Crits 1 -> 2 dice,
    # 3 and 1 fail (5+): 4 + 3 + 3 = 10. TROOPER-BRAWLER-1 INCAPACITATED (7 of 9).
    g.activate("medic", "engage", reposition(), shoot("Hot-shot lasgun", "trooper-brawler-1", "5461", "31"))
    g.activate("trooper-marksman-3", "engage", shoot("Firearm", "medic", "2213", "421"), reposition())  # all miss
    g.activate("recon-trooper", "conceal", reposition(), dash())
    # Trooper (Brawler) 2 charges the recon-trooper: Blades 5, 3, 1, 1, Ceaseless re-rolls the 1s into 4
    # and 2 -> 5/4 normal; gun butt 4/4 normal. 3 (recon 8 -> 5), 2 (brawler 7 -> 5), 3 (recon 5 -> 2),
    # 2 (brawler 5 -> 3). Both still standing, within each other's control range.
    g.activate(
        "trooper-brawler-2",
        "engage",
        charge("recon-trooper"),
        fight("Blades", "recon-trooper", "Gun butt", "5311", "443", rerolls="3=4/ceaseless 4=2/ceaseless"),
    )
    g.activate("gunner-melta", "engage", reposition(), dash())
    g.end_turning_point()
    # After TP2: Kasrkin sharpshooter 8, medic 8, recon-trooper 2, melta gunner 5 (4 of 7 left).
    # NPOs: trooper-marksman-3 7, trooper-brawler-2 3; 7 of 9 incapacitated.

    # ============================== TP3 ==============================
    # The NPOs win the roll-off and take it. Players 2 + 2 = 4CP. Half the NPOs are incapacitated:
    # in the gambit step they call in reinforcements (pg 94): two that are not Heavy.
    g.add(TurningPointStarted(turning_point=3), RolledOff(purpose="initiative", rolls={PLAYERS: 2, "NPOs": 5}), InitiativeDecided(player="NPOs"))
    g.add(ReinforcementsArrived(operatives=("tough-brawler", "warrior-marksman-1")))
    g.annotate('Rolled for them: the Tough and Warrior 1 return, set up in the NPO drop zone within 6" of an edge and more than 6" from the Kasrkin (pg 94)')
    g.add(GambitPassed(player=PLAYERS), GambitPassed(player="NPOs"))
    # Trooper (Brawler) 2 (3, injured: Hit 5+) fights the recon-trooper (2, injured): 5/5 normal against
    # a 6 crit. The brawler strikes first: 3. RECON-TROOPER INCAPACITATED: at most 3 of 7 can escape now.
    g.activate("trooper-brawler-2", "engage", fight("Blades", "recon-trooper", "Gun butt", "5521", "634"))
    # The melta gunner repositions over the NPOs' killzone edge: ESCAPED (1).
    g.activate("gunner-melta", "engage", reposition(), act(OperativeEscaped))
    # The Tough (Brawler), back at 10 wounds, charges the medic: Blades 4, 3, 1, 1, Ceaseless re-rolls
    # the 1s into 2 and 3 -> one 4 normal; gun butt 5/5 normal. 4 (medic 8 -> 4), 2 (tough 10 -> 8), 2 (8 -> 6).
    g.activate("tough-brawler", "engage", charge("medic"), fight("Blades", "medic", "Gun butt", "4311", "553", rerolls="3=2/ceaseless 4=3/ceaseless"))
    # The medic falls back over the edge: ESCAPED (2).
    g.activate("medic", "conceal", fall_back(), act(OperativeEscaped))
    # Warrior (Marksman) 1 at the sharpshooter in the open: 6 crit, 5/4 normal; saves 5, 4 block two
    # normals; crit 4. Sharpshooter 8 -> 4.
    g.activate("warrior-marksman-1", "engage", shoot("Firearm", "sharpshooter", "6542", "541"), reposition())
    g.activate("sharpshooter", "conceal", reposition(), dash())
    g.activate("trooper-marksman-3", "conceal", reposition(), dash())  # no valid target (pg 88)
    g.end_turning_point()

    # ============================== TP4 ==============================
    # The players win the roll-off and take initiative: 4 + 1 = 5CP, a gambit -> 4CP. The NPOs have 5 of 9
    # incapacitated again: reinforcements, this time the Heavy (Marksman) alone (pg 94).
    g.add(TurningPointStarted(turning_point=4), RolledOff(purpose="initiative", rolls={PLAYERS: 5, "NPOs": 1}), InitiativeDecided(player=PLAYERS))
    g.add(
        GambitPassed(player=PLAYERS),
        ReinforcementsArrived(operatives=("heavy-marksman",)),
        StrategicGambitUsed(player=PLAYERS, gambit="Forward Scouts"),
        GambitPassed(player="NPOs"),
        GambitPassed(player=PLAYERS),
    )
    # The sharpshooter runs for the edge: ESCAPED (3). No Kasrkin is left in the killzone: the battle
    # ends (pg 94); 3 of 7 is not more than 50%, so the players lose.
    g.activate("sharpshooter", "conceal", reposition(), dash(), act(OperativeEscaped))
    return g

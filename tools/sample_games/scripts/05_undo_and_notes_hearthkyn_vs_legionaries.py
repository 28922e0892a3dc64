"""Ivy (Hearthkyn Salvagers, all 10) against Jack (Legionaries, all 6) on Killzone Gallowdark, Autumn
League 2026, round 3, table 1. Jack won the set-up roll-off and rolled Transmission. A close game fought
through hatchways and corridors, recorded with every attack's dice: Ivy held two transmitting markers in
TP2, Jack's Chosen stormed the centre in TP3 and refused to die (it shrugged off a bolt revolver, an ion
blaster and a frag grenade on its last wounds) until the beam cannon dropped it in TP4, and Ivy took the
centre back for the last turning point. Kill grades ended level at 3 each, so Ivy won 8 to 7 on the crit op.
The log shows what a real scorekeeper's log looks like: five mistakes undone at once (a wrong dice entry, a
wrong operative activated, a wrong weapon, a wrong target, a wrong charge target), each followed by the
corrected event, and comments on the key moments.
"""

from ktlog.data import SAMPLE_ROSTERS
from ktlog.events import ActivationEnded, Fought, OperativeActivated, Shot
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder, attack, charge, dash, fight, killzone_action, reposition, shoot, transmit, unique
from ktlog.reducer import effective

ROSTERS = SAMPLE_ROSTERS
GAME_ID = "89e3b1dc-8eb1-4eb8-9694-f4e44041fbe4"
STARTED_AT = "2026-10-18T18:30:00+00:00"
DESCRIPTION = "Hearthkyn vs Legionaries on Gallowdark, Transmission: dice for every attack, undos and notes"
EXPECTED = {
    "winner": "Ivy",
    "draw": False,
    "ended_by": "battle",
    "score": {"Ivy": {"crit": 5, "kill": 3, "total": 8}, "Jack": {"crit": 4, "kill": 3, "total": 7}},
}

# Kill grade rows: Ivy kills Legionaries (6 starting) -> row 6: 1,2,4,5,6.
#                  Jack kills Hearthkyn (10 starting) -> row 10: 2,4,6,8,10.
# Transmission, end of TP2-4: +1VP if your operatives control a transmitting marker, +1VP more if more
# than the opponent's. Markers: "centre" (placed by Ivy), "Jack-marker", "Ivy-marker".
# Gallowdark close quarters: Blast, Torrent and x" Devastating weapons gain Lethal 5+ (the L7 missile
# launcher, the heavy frag grenade and the magna-rail rifle here).
# Wounds: Hearthkyn 10 (injured at 4 or less), Theyn 11 (injured at 5 or less); Legionaries 14 (injured at 6
# or less), Aspiring Champion and Chosen 15 (injured at 7 or less).


def then(g: GameBuilder, op: str, *actions, end: bool = True) -> GameBuilder:
    """More actions for the operative already active (after an undo), then end its activation."""
    for make in actions:
        g.add(make(op))
    if end and g.state.activation is not None:
        g.add(ActivationEnded(operative=op))
    return g


def attack_seq(g: GameBuilder) -> int:
    """The seq of the latest attack (Shoot or Fight) still in effect, to hang a comment on it."""
    return next(seq for seq, e in reversed(effective(list(enumerate(g.events, 1)))) if isinstance(e, (Shot, Fought)))


def build() -> GameBuilder:
    g = GameBuilder(killzone="gallowdark", date="2026-10-18", league="Autumn League", season="2026", round="3", table="1")
    g.player("Ivy", load_roster(ROSTERS / "hearthkyn.toml"))
    g.player("Jack", load_roster(ROSTERS / "legionaries.toml"))
    # Jack wins the set-up roll-off, takes initiative and rolls the crit op: 3, Transmission. 2CP each.
    g.setup(rolloff={"Ivy": 2, "Jack": 6}, initiative="Jack", crit_op=3)
    crit_op_seq = next(i for i, e in enumerate(g.events, 1) if type(e).__name__ == "CritOpRolled")
    g.annotate(
        "Transmission: the centre marker sits in the central chamber between two hatchways; whoever holds it with a transmission running will likely win.",
        target=crit_op_seq,
    )

    # ============================== TP1 ==============================
    # CP: 2+1 = 3 each; a gambit each -> Ivy 2, Jack 2.
    g.turning_point(1, {"Ivy": 5, "Jack": 3}, initiative="Ivy", gambits=[("Ivy", "Void Armour"), ("Jack", "Malicious Volleys")])
    g.activate("theyn", "conceal", reposition(), killzone_action("Operate Hatch"))
    g.activate("legionary-1", "engage", reposition(), dash())
    # Kinlynk's bolter at legionary-1 in cover: 5 normal, 6 crit, 2 and 3 miss. Saves 4 (save), 2 (fail) +
    # cover = 2: they cancel the crit; the normal does 3. Legionary-1 14 -> 11.
    g.activate("kinlynk", "engage", reposition(), shoot("Autoch-pattern bolter", "legionary-1", "5263", "42", cover=True))
    # Legionary-2's boltgun at the kinlynk in cover: 6 crit, 4 and 3 normal, 2 miss. Saves 4,5 + cover = 3:
    # two cancel the crit, one a normal; 3 through. Kinlynk 10 -> 7.
    g.activate("legionary-2", "engage", reposition(), dash(), shoot("Boltgun", "kinlynk", "6423", "45", cover=True))
    g.activate("lokatr", "conceal", reposition(), unique("Pan-spectral Scan"))
    # Heavy bolter (focused) at the kinlynk in cover: 3,5,4 normal, 1,2 miss, no crit. 2 dice + cover: 1 (fail),
    # 4 (save) + cover = 2 saves; one normal through = 4. Kinlynk 7 -> 3 (injured).
    g.activate("heavy-gunner", "engage", dash(), shoot("Heavy bolter (focused)", "kinlynk", "35142", "14", cover=True))
    g.annotate("The kinlynk pushed up the east corridor alone and was caught in the crossfire: injured on 3 wounds.", target=attack_seq(g))
    g.activate("grenadier", "conceal", reposition(), dash())
    g.activate("icon-bearer", "conceal", reposition(), dash())
    # Warrior 1's ion blaster at legionary-2 in cover: 6,4,1,3,2; Balanced re-rolls the 1: a 3. 6 crit,
    # 4 normal. Piercing Crits 1: 2 dice, one the cover save; rolls 5 -> 2 saves cancel the crit; normal 3.
    # Legionary-2 14 -> 11.
    g.activate("hearthkyn-warrior-1", "engage", reposition(), shoot("Ion blaster", "legionary-2", "64132", "5", cover=True, rerolls="3=3/balanced"))
    g.activate("chosen", "conceal", reposition(), dash())
    g.activate("jump-pack", "conceal", reposition(), dash())
    g.activate("aspiring-champion", "conceal", reposition(), dash())
    # Jack has no ready operatives left: Ivy activates her last four in a row.
    g.activate("hearthkyn-gunner", "conceal", dash())
    g.activate("hearthkyn-warrior-2", "conceal", reposition(), dash())
    g.activate("dozr", "conceal", reposition(), dash())
    g.activate("field-medic", "conceal", reposition(), dash())
    g.end_turning_point()
    # After TP1: kinlynk 3; legionary-1 11, legionary-2 11. No VP.

    # ============================== TP2 ==============================
    # CP: Jack has initiative: Jack 2+1 = 3, Ivy 2+2 = 4; a gambit each -> Jack 2, Ivy 3.
    g.turning_point(2, {"Ivy": 2, "Jack": 5}, initiative="Jack", gambits=[("Jack", "Dark Pact"), ("Ivy", "Salvage Protocols")])
    # Legionary-1 starts the transmission on Jack's marker, then shoots the kinlynk (3W) in cover:
    # 4,5 normal, 6 crit, 2 miss; saves 3,1 fail, the cover save blocks a normal: 4 + 3 = 7.
    g.activate("legionary-1", "engage", reposition(), transmit("Jack-marker"), shoot("Boltgun", "kinlynk", "4625", "31", cover=True))
    # KINLYNK INCAPACITATED. Jack: 1 kill -> kill grade 0 (row 10 needs 2).
    g.annotate("First blood to Jack: the injured kinlynk falls.", target=attack_seq(g))
    # The gunner's magna-rail rifle (Lethal 5+ in Gallowdark, Devastating 2) at legionary-1 (11W).
    # Typed 5,6,4,2 by mistake (that would be 2 crit, 1 normal: 9 damage) -> undone.
    g.activate("hearthkyn-gunner", "engage", shoot("Magna-rail rifle", "legionary-1", "5642", "36"), end=False)
    g.undo()  # UNDO 1: wrong dice typed; the last die was a 4, not a 2.
    # 5,6 crit (Lethal 5+), 4,4 normal: Devastating 2 x2 = 4. Piercing 1: 2 dice: 3 (normal save), 6 (crit
    # save) -> they block a crit and a normal: crit 5 + normal 5 = 10, + 4 = 14.
    then(g, "hearthkyn-gunner", shoot("Magna-rail rifle", "legionary-1", "5644", "36"), dash())
    # LEGIONARY-1 INCAPACITATED. Ivy: 1 kill -> kill grade 1 = 1VP (kill 1).
    g.annotate(
        "The magna-rail rifle is Lethal 5+ in Gallowdark's close quarters: two crits and Devastating 2 blow legionary-1 off Jack's marker.",
        target=attack_seq(g),
    )
    # The Chosen charges warrior 1: Daemon blade 6,5 crit, 4 normal; fists 4,4 normal. Strikes: crit 6
    # (warrior 10 -> 4), fists 2 (Chosen 15 -> 13), crit 6 (warrior 4 -> -2).
    g.activate("chosen", "engage", charge("hearthkyn-warrior-1"), fight("Daemon blade", "hearthkyn-warrior-1", "Fists", "65421", "442"))
    # WARRIOR 1 INCAPACITATED. Jack: 2 kills -> kill grade 1 = 1VP (kill 1).
    g.activate("theyn", "engage", reposition(), transmit("Ivy-marker"))
    # Heavy gunner (focused) at the Theyn in cover: 6 crit, 5,5 normal, 2,1 miss. Piercing Crits 1: 2 dice,
    # one the cover save: rolls 4 -> 2 saves block the normals; crit 5. Theyn 11 -> 6.
    g.activate("heavy-gunner", "engage", dash(), shoot("Heavy bolter (focused)", "theyn", "55261", "4", cover=True))
    # Lokatr's ion blaster at the heavy gunner in cover: 6,6,4,2,3, Balanced re-rolls the 2: a 5 ->
    # 2 crit, 2 normal. Piercing Crits 1: 1 die (3 saves) + cover = 2 saves block the normals: 2 crits = 8.
    # Heavy gunner 14 -> 6 (injured).
    g.activate("lokatr", "engage", reposition(), shoot("Ion blaster", "heavy-gunner", "66423", "3", cover=True, rerolls="4=5/balanced"))
    # Aspiring Champion's plasma pistol (standard) at the Lokatr in the open: 5,3 normal, 2,1 miss. Piercing 1:
    # 2 dice: 4 saves, 2 fails -> one normal through = 3. Lokatr 10 -> 7.
    g.activate("aspiring-champion", "engage", reposition(), shoot("Plasma pistol (standard)", "lokatr", "5321", "42"), dash())
    # Grenadier's heavy krak grenade at the heavy gunner in cover: 4,3 normal, 6 crit, 2 miss. Piercing 1 and
    # cover: 1 die, 5 saves -> 2 saves block the normals; crit 5. Heavy gunner 6 -> 1.
    g.activate("grenadier", "engage", reposition(), shoot("Heavy krak grenade", "heavy-gunner", "4362", "5", cover=True))
    # Icon bearer's boltgun at the grenadier in cover: 6 crit, 3 normal; saves 5,5 + cover = 3 block both.
    g.activate("icon-bearer", "engage", reposition(), shoot("Boltgun", "grenadier", "3612", "55", cover=True), dash())
    g.activate("jump-pack", "engage", reposition(), transmit("centre"))
    # Legionary-2 (11W) charges the jump pack warrior on the centre. Chainsword 5,4,2,2,3; Ceaseless re-rolls
    # both 2s: 1 and 2 -> 3 normal. Plasma knife 5,3,2,6 -> 5,6 crit (Lethal 5+), 3 normal.
    # Steps: chainsword strikes 4 (jump pack 10 -> 6); the knife's crit blocks a normal; chainsword strikes 4
    # (6 -> 2); knife crit strikes 5 (legionary-2 11 -> 6); knife normal strikes 4 (6 -> 2).
    g.activate(
        "legionary-2",
        "engage",
        charge("jump-pack"),
        fight("Chainsword", "jump-pack", "Plasma knife", "54223", "5326", steps="sn bcn sn sc sn", rerolls="3=1/ceaseless 4=2/ceaseless"),
    )
    # Dozr charges legionary-2 (2W, injured: Hit 4+): maul 4,5 normal; chainsword 6 crit, 4 normal.
    # The Dozr strikes first: 4 damage.
    g.activate("dozr", "engage", charge("legionary-2"), fight("Concussion maul", "legionary-2", "Chainsword", "4513", "36214"))
    # LEGIONARY-2 INCAPACITATED. Ivy: 2 kills -> kill grade 2 = 1VP (kill 2).
    # Jack has no ready operatives: he counteracts with the Aspiring Champion (Engage): plasma pistol
    # (standard) at the Dozr: 4,3 normal; Piercing 1: 2 dice, 5 saves, 1 fails -> 3 through. Dozr 10 -> 7.
    g.counteract("aspiring-champion", shoot("Plasma pistol (standard)", "dozr", "4322", "51"))
    # Ivy meant to activate warrior 2, not the field medic.
    g.add(OperativeActivated(operative="field-medic", order="engage"))
    g.undo()  # UNDO 2: activation of the wrong operative.
    # Warrior 2's bolter at the heavy gunner (1W) in cover: 4,5 normal; saves 6 (crit), 3 + cover: 0 damage.
    g.activate("hearthkyn-warrior-2", "engage", reposition(), shoot("Autoch-pattern bolter", "heavy-gunner", "4335", "63", cover=True))
    g.annotate("The heavy gunner survives on 1 wound behind the bulkhead: a 6 and a 3 on two saves.", target=attack_seq(g))
    g.activate("field-medic", "engage", reposition(), dash())
    # Transmitting: Jack-marker (legionary-1), Ivy-marker (Theyn), centre (jump pack).
    # Control: the centre is Ivy's (jump pack and field medic), Ivy's marker Ivy's (Theyn), Jack's marker
    # Jack's (icon bearer). Ivy 2 transmitting markers: +1 +1 (crit 2); Jack 1: +1 (crit 1).
    g.end_turning_point(control={"centre": "Ivy", "Jack-marker": "Jack", "Ivy-marker": "Ivy"})
    # After TP2: Ivy kill 2 + crit 2 = 4; Jack kill 1 + crit 1 = 2.
    # Hearthkyn: Theyn 6, Lokatr 7, jump pack 2, Dozr 7, others 10; kinlynk and warrior 1 down.
    # Legionaries: Chosen 13, heavy gunner 1, Aspiring Champion 15, icon bearer 14; legionaries 1 and 2 down.

    # ============================== TP3 ==============================
    # Roll-off tied 3-3: Ivy decides (she did not have initiative in TP2) and takes it.
    # CP: Ivy 3+1 = 4, Jack 2+2 = 4; a gambit each -> Ivy 3, Jack 3.
    g.turning_point(3, {"Ivy": 3, "Jack": 3}, initiative="Ivy", gambits=[("Ivy", "Void Armour"), ("Jack", "Malicious Volleys")])
    tp3_roll_seq = next(i for i in range(len(g.events), 0, -1) if type(g.events[i - 1]).__name__ == "RolledOff")
    g.annotate("Tied 3-3: Ivy decides, as she did not have initiative in TP2, and takes it.", target=tp3_roll_seq)
    # The gunner: Ivy first recorded the beam cannon, but the missile launcher was fired for its blast.
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "heavy-gunner", "5241", "", cover=True), end=False)
    g.undo()  # UNDO 3: wrong weapon.
    # L7 missile launcher (blast, Lethal 5+ in Gallowdark) at the heavy gunner (1W) in cover: 5 crit, 4 normal;
    # saves 2 (fail), 6 (crit save) + cover: crit save on the crit, cover on the normal: 0 damage.
    # Blast onto the icon bearer (14W), in cover as the primary target was (pg 111): 6 crit, 4 normal;
    # saves 3 + cover (two normals) cancel the crit; the normal does 3. Icon bearer 14 -> 11.
    then(
        g,
        "hearthkyn-gunner",
        shoot("L7 missile launcher (blast)", "heavy-gunner", "5241", "26", cover=True, extra=[attack("icon-bearer", "3364", "31", cover=True)]),
    )
    # Heavy gunner (1W, injured: Hit 4+) at the grenadier in cover: 6 crit, 4 normal, 3,2,1 miss.
    # Piercing Crits 1: 1 die (4 saves) + cover = 2 saves cancel the crit; the normal does 4. Grenadier 10 -> 6.
    g.activate("heavy-gunner", "engage", dash(), shoot("Heavy bolter (focused)", "grenadier", "34261", "4", cover=True))
    # Lokatr at the heavy gunner (1W) in cover: 4,5,1,2,3; Balanced re-rolls the 1: a 6. 1 crit, 2 normal;
    # Piercing Crits 1: 1 die (2 fails) + cover blocks a normal: 4 + 3 = 7.
    g.activate("lokatr", "engage", reposition(), shoot("Ion blaster", "heavy-gunner", "45123", "2", cover=True, rerolls="3=6/balanced"))
    # HEAVY GUNNER INCAPACITATED. Ivy: 3 kills -> kill grade 2 (row 6 needs 4 for grade 3).
    g.annotate("The heavy gunner that survived the missile finally falls to the Lokatr.", target=attack_seq(g))
    # The Chosen charges the jump pack warrior (2W, injured: Hit 4+): blade 6 crit, 4,3,3 normal; knife 5 crit
    # (Lethal 5+), 4 normal. The Chosen's crit (6) first. Then it starts a transmission on the centre.
    g.activate("chosen", "engage", charge("jump-pack"), fight("Daemon blade", "jump-pack", "Plasma knife", "42633", "5411"), transmit("centre"))
    # JUMP PACK WARRIOR INCAPACITATED. Jack: 3 kills -> kill grade 1.
    # The Dozr (7W) charges the Chosen (13W): maul 6 crit, 4 normal; blade 5,5 crit, 3 normal.
    # Strikes: maul crit 5 (Chosen 13 -> 8), blade crit 6 (Dozr 7 -> 1), maul normal 4 (Chosen 8 -> 4),
    # blade crit 6 (Dozr 1 -> -5). The maul's crit Stuns the Chosen (APL -1 for its next activation).
    g.activate("dozr", "engage", charge("chosen"), fight("Concussion maul", "chosen", "Daemon blade", "6432", "55312"))
    # DOZR INCAPACITATED. Jack: 4 kills -> kill grade 2 = 1VP (kill 2).
    g.annotate("The Dozr trades blows with the Chosen and falls, but leaves it on 4 wounds and stunned.", target=attack_seq(g))
    # Aspiring Champion supercharges at the field medic in the open: 5,6 crit, 3,4 normal. Piercing 1:
    # 2 dice, 4 saves, 2 fails -> one normal blocked: 5 + 5 + 4 = 14. Hot: rolls 2, below Hit 3: 4 damage
    # to the Champion (15 -> 11).
    g.activate("aspiring-champion", "engage", reposition(), shoot("Plasma pistol (supercharge)", "field-medic", "5346", "42", hot=2), dash())
    # FIELD MEDIC INCAPACITATED. Jack: 5 kills -> kill grade 2.
    # Theyn transmits from Ivy's marker and shoots the Chosen (4W) in cover: 3,5,4 normal, 2 miss; saves 3,3
    # + cover = 3 block them all.
    g.activate("theyn", "engage", transmit("Ivy-marker"), shoot("Bolt revolver", "chosen", "3524", "33", cover=True))
    # Icon bearer transmits from Jack's marker, then shoots. Recorded at the Theyn by mistake: undone.
    g.activate("icon-bearer", "engage", reposition(), transmit("Jack-marker"), shoot("Boltgun", "theyn", "6531", "24", cover=True), end=False)
    g.undo()  # UNDO 4: wrong target; Jack shot the Lokatr.
    # Boltgun at the Lokatr (7W) in cover: 6 crit, 5,3 normal, 1 miss; saves 2 (fail), 4 + cover = 2 block
    # the normals; crit 4. Lokatr 7 -> 3 (injured).
    then(g, "icon-bearer", shoot("Boltgun", "lokatr", "6531", "24", cover=True))
    # Warrior 2's ion blaster at the Chosen (4W) in cover: 6,3,4,1,2, Balanced re-rolls the 2: a 1. 6 crit,
    # 4 normal. Piercing Crits 1: 1 die (3 saves) + cover = 2 saves cancel the crit: 3. Chosen 4 -> 1.
    g.activate("hearthkyn-warrior-2", "engage", reposition(), shoot("Ion blaster", "chosen", "63412", "3", cover=True, rerolls="5=1/balanced"))
    # Counteract: the icon bearer (Engage) at warrior 2 in the open: 4,4,3 normal, 2 miss; saves 5,4,1 -> 3.
    # Warrior 2 10 -> 7.
    g.counteract("icon-bearer", shoot("Boltgun", "hearthkyn-warrior-2", "4423", "541"))
    # Grenadier's heavy frag grenade (Saturate, Blast, Lethal 5+ here) at the Chosen (1W): 4 normal only;
    # saves 1,2,6: the crit save blocks it. Blast onto the Aspiring Champion (11W): 5,6 crit; saves 3,3,1: two
    # normals cancel one crit, 4 through. Champion 11 -> 7 (injured).
    g.activate("grenadier", "engage", reposition(), shoot("Heavy frag grenade", "chosen", "2314", "126", extra=[attack("aspiring-champion", "5622", "331")]))
    g.annotate("The Chosen shrugs off a bolt revolver, an ion blaster and a frag grenade on its last wounds.", target=attack_seq(g))
    # Transmitting: centre (Chosen), Jack-marker (icon bearer), Ivy-marker (Theyn). Control: centre Jack
    # (Chosen and Champion), Jack's marker Jack, Ivy's marker Ivy. Jack 2: +1 +1 (crit 3); Ivy 1: +1 (crit 3).
    g.end_turning_point(control={"centre": "Jack", "Jack-marker": "Jack", "Ivy-marker": "Ivy"})
    # After TP3: Ivy kill 2 + crit 3 = 5; Jack kill 2 + crit 3 = 5.
    # Hearthkyn: Theyn 6, Lokatr 3, gunner 10, grenadier 6, warrior 2 7.
    # Legionaries: Aspiring Champion 7, Chosen 1, icon bearer 11.

    # ============================== TP4 ==============================
    # CP: Ivy has initiative: Ivy 3+1 = 4, Jack 3+2 = 5; a gambit each -> Ivy 3, Jack 4.
    g.turning_point(4, {"Ivy": 6, "Jack": 4}, initiative="Ivy", gambits=[("Ivy", "Salvage Protocols"), ("Jack", "Dark Pact")])
    # HYLas beam cannon at the Chosen (1W) in cover: 4,5 normal. Piercing 2 leaves 1 die, the cover save:
    # nothing to roll; it blocks one normal, the other does 5.
    g.activate("hearthkyn-gunner", "engage", shoot("HYLas beam cannon", "chosen", "4215", "", cover=True), dash())
    # CHOSEN INCAPACITATED. Ivy: 4 kills -> kill grade 3 = 1VP (kill 3).
    g.annotate("Beam cannon: the Chosen finally drops and the centre is open again.", target=attack_seq(g))
    # Aspiring Champion (7W, injured: Hit 4+) charges the grenadier (6W): power weapon 6,5 crit (Lethal 5+),
    # 4 normal; fists 4,5 normal. The Champion's crit (6) first. Then it transmits from the centre.
    # The charge was first recorded against the Theyn: undone.
    g.activate("aspiring-champion", "engage", charge("theyn"), end=False)
    g.undo()  # UNDO 5: wrong charge target.
    then(g, "aspiring-champion", charge("grenadier"), fight("Power weapon", "grenadier", "Fists", "65423", "415"), transmit("centre"))
    # GRENADIER INCAPACITATED. Jack: 6 kills -> kill grade 3 = 1VP (kill 3).
    # Theyn transmits from Ivy's marker, then the bolt revolver at the Champion (7W) in the open: 6 crit,
    # 4 normal; saves 3 (save), 1, 2 -> the normal is blocked, crit 4. Champion 7 -> 3.
    g.activate("theyn", "engage", transmit("Ivy-marker"), shoot("Bolt revolver", "aspiring-champion", "6421", "312"))
    # Icon bearer transmits from Jack's marker and shoots the Theyn in cover: 2,5,3,1; Command Re-roll (1CP,
    # Jack 4 -> 3) on the 2: a 5. 5,5,3 normal; saves 4,5 + cover = 3 block them all.
    g.activate("icon-bearer", "engage", reposition(), transmit("Jack-marker"), shoot("Boltgun", "theyn", "2531", "45", cover=True, rerolls="1=5/command"))
    # Lokatr moves onto the centre and starts a transmission there too.
    g.activate("lokatr", "engage", reposition(), transmit("centre"))
    # Counteract: the Aspiring Champion (3W, injured: Hit 4+) fires its plasma pistol at the Lokatr in cover:
    # 3,2,2,1: all miss (the one defence die left by Piercing 1 and cover is rolled anyway).
    g.counteract("aspiring-champion", shoot("Plasma pistol (standard)", "lokatr", "3221", "5", cover=True))
    g.annotate("The Champion's last shot goes wide: the Lokatr holds the centre.", target=attack_seq(g))
    g.activate("hearthkyn-warrior-2", "engage", reposition(), dash())
    # Control: centre Ivy (Lokatr APL 2 + warrior 2 APL 2 = 4 against the Champion's 3), Ivy's marker Ivy,
    # Jack's marker Jack. Ivy 2 transmitting: +1 +1 (crit 5); Jack 1: +1 (crit 4).
    # Kill grades 3 and 3: nobody scores the end-of-battle bonus.
    g.end_turning_point(control={"centre": "Ivy", "Jack-marker": "Jack", "Ivy-marker": "Ivy"})
    # Final: Ivy crit 5 + kill 3 = 8; Jack crit 4 + kill 3 = 7. Ivy wins.
    g.annotate("Ivy wins 8-7: level on kills, one better on transmissions.")
    return g

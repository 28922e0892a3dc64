"""Kill Team 2021 (files 001 and 004): its turning point, actions, datacards and scoring.

A turning point has three phases (001 Turning Point): Initiative (every operative readied, then
initiative), Strategy (1CP each, strategic ploys, then the Target Reveal of tac ops) and Firefight
(players alternate activations). The shared machinery runs what KT21 and KT24 share; this module
adds what differs:

- Initiative (001 Determine Initiative): TP1 as the mission sequence says, a roll-off whose ties are
  rolled again (001 Dice); later a roll-off whose tie gives initiative to the player who did not
  have it in the previous turning point.
- Group activation (001 Perform Actions): an operative with GA x activates, then further ready
  operatives of its type (the same datacard name), up to x, before the opponent activates.
- Balance Dataslate Q1 2023 (004), when GameCreated.dataslate names it or a later one: never more
  than two activations in a row in a turning point before the opponent has had a turn to activate
  or perform Overwatch ("regardless of such rules": no override sets it aside); Move never
  modified below 4" (without it an injured operative's Move drops 2" whatever it was); each
  equipment with Indirect selected once per battle, an operative equipped with it counting.
- Actions (001 Actions): Normal Move, Dash, Fall Back (2AP), Charge, Pick Up, Shoot, Fight, Pass
  (1AP, repeatable) and Overwatch (0AP, between activations: see `overwatch_fired`). There is no
  counteract and no Reposition; KT24's actions are not part of a KT21 game.
- Datacards: DF defence dice instead of three (001 Shoot step 4); special rules and critical hit
  rules (!) are played as the shared weapon rules they are the same as (`as_played`), and KT21's
  Hot (004: three mortal wounds for each discarded 1) replaces KT24's.
- Scoring: the mission and tac op cards are not in the sources, so the players record mission VP
  and tac op VP (MissionVPScored) and ktlog caps them: 16 from the mission and 24 in all under the
  dataslate's Critical Operations 2022 (004), 12 and 20 without it. Most VP wins; equal is a draw.

Rulings (where the sources are silent):
- The set-up follows the shared sequence (roll-off, markers as the mission map shows, drop zones,
  equipment, operatives in thirds); the mission sequence is not in 001/004. Each player gains 2CP
  at set-up, as in KT21 matched play for a kill team with a LEADER (not in the sources; a team
  without one records CommandPointsAdjusted).
- OperativeSetUp records no order: in TP1 the order an operative activates with is taken as the
  one it was set up with (001), and a target not yet activated counts as set up with Conceal.
- A group cut short by the dataslate's two-in-a-row rule ends there: its remaining operatives
  activate later as operatives of their own.
- An activation ended with AP left stands for the Passes that use them (Pass has no effect, 001).
- Dropping a carried marker (free in KT21, 001 Pick Up) is not recorded; it is placed when its
  carrier is incapacitated.
- Special rules the sources name but do not define (P x, MW x, Rending, Relentless, Silent, Stun,
  Torrent) are played as KT24's same-named or equivalent rules (pg 111).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import msgspec

from ... import events as ev
from ...errors import RuleViolation
from ...rules.actions import begin_action, finish_action, not_engaged, performed
from ...rules.attacks import find_weapon, shooting_attacks
from ...rules.context import Ctx, handles
from ...rules.damage import inflict
from ...rules.ruleset import Ruleset
from ...rules.team import same
from ...rules.weapons import weapon_profile
from ...state import GameState, OperativeState, Result
from ..kt24.rules import KT24_EVENTS, Kt24, most_vp
from .events import MissionVPScored, NormalMoved, OverwatchFired, Passed

KT21_EVENTS = (
    KT24_EVENTS
    - {
        ev.CritOpRolled,
        ev.CounteractStarted,
        ev.Repositioned,
        ev.MarkerPlaced,
        ev.MarkerSecured,
        ev.MarkerLooted,
        ev.TransmissionInitiated,
        ev.KillzoneActionPerformed,
    }
) | {NormalMoved, Passed, OverwatchFired, MissionVPScored}
"""The events of a KT21 game: no Reposition, counteract, crit op, mission actions of KT24's crit
ops, Place Marker, killzone actions, or the other mission packs' events."""

IN_A_ROW = 2
"""Activations in a row before the opponent has had a turn (Balance Dataslate Q1 2023, 004)."""
HOT_MORTAL_WOUNDS = 3
"""KT21 Hot (004): mortal wounds for each attack dice result of 1 discarded."""
CAPS = {True: (16, 24), False: (12, 20)}
"""(mission, total) VP caps with and without the dataslate's Critical Operations 2022 (004)."""
DATASLATE = re.compile(r"q([1-4])\s*(\d{4})", re.IGNORECASE)
CITATIONS = {
    "pg 36": "001 Turning Point",
    "pg 37": "001 Initiative and Strategy phases",
    "pg 38": "001 Firefight phase",
    "pg 39": "001 Perform Actions",
    "pg 40": "001 Actions",
    "pg 41": "001 Actions",
    "pg 42": "001 Shoot",
    "pg 43": "001 Shoot",
    "pg 44": "001 Fight",
    "pg 45": "001 Fight",
    "pg 47": "001 Wounds",
    "pg 48": "001 Datacards",
    "pg 50": "001 Dice",
    "pg 54": "001 Command Points",
    "pg 55": "001 Dice",
    "pg 110": "the mission sequence, as KT24 pg 110",
    "pg 111": "004 special rules",
}
"""Where 001 and 004 write the rules the shared machinery cites by KT24 page."""


def under_dataslate(state: GameState) -> bool:
    """Whether the game is played under the Balance Dataslate Q1 2023 or a later one (004): its
    two-in-a-row rule and its VP caps."""
    found = DATASLATE.search(state.labels.get("dataslate", ""))
    return bool(found) and (int(found[2]), int(found[1])) >= (2023, 1)


def vp_caps(state: GameState) -> tuple[int, int]:
    """The most VP a player scores from the mission, and in all (004)."""
    return CAPS[under_dataslate(state)]


# --- weapons: special rules and critical hit rules (001 datacards, 004 appendix) -------------

_RENAMED = (
    (re.compile(r"^ap\s*(\d+)$"), "Piercing {}"),  # APx: subtract x from the Defence (004)
    (re.compile(r"^p\s*(\d+)$"), "Piercing Crits {}"),  # !Px: APx once a critical hit is retained
    (re.compile(r"^mw\s*(\d+)$"), "Devastating {}"),  # !MWx: x mortal wounds per critical hit retained
    (re.compile(r"^(?:rng|range)\s*(\d+)\"?$"), 'Range {}"'),
)
_AS_PLAYED = {
    "heavy": "Heavy (Dash only)",  # no Charge, Fall Back or Normal Move with a Shoot action (004)
    "limited": "Limited 1",  # once per battle (004)
}


@lru_cache(maxsize=1024)
def _rule_text(raw: str) -> str:
    """A weapon rule's text as compared (the same few texts again at every attack: kept)."""
    return " ".join(raw.replace("”", '"').replace("″", '"').split()).lower().rstrip(".")


def has_rule(weapon: ev.Weapon, name: str) -> bool:
    return name in _rule_texts(weapon)


@lru_cache(maxsize=1024)
def _rule_texts(weapon: ev.Weapon) -> frozenset[str]:
    """A weapon's special and critical hit rules as compared (looked at at every shot: kept)."""
    return frozenset(map(_rule_text, (*weapon.rules, *weapon.critical_rules)))


@lru_cache(maxsize=1024)
def as_played(weapon: ev.Weapon) -> ev.Weapon:
    """A KT21 weapon with its special and critical hit rules as the shared rules they are the
    same as: AP x ~ Piercing x, !P x ~ Piercing Crits x, !MW x ~ Devastating x, Heavy ~ Heavy
    (Dash only), Limited ~ Limited 1; Lethal x+, Balanced, Ceaseless, Relentless, Brutal, Rending,
    Silent, Stun, Blast and Torrent keep their names. KT21 Hot is applied by this module (it is
    not KT24's Hot); other rules (Indirect, Fusillade, Splash ...) are kept by name."""
    rules = []
    for raw in (*weapon.rules, *weapon.critical_rules):
        text = _rule_text(raw)
        if text == "hot":
            continue
        for pattern, shared in _RENAMED:
            if found := pattern.match(text):
                rules.append(shared.format(found[1]))
                break
        else:
            rules.append(_AS_PLAYED.get(text, raw))
    return msgspec.structs.replace(weapon, rules=tuple(rules), critical_rules=())


def _final_results(dice: ev.Dice) -> list[int]:
    results = list(dice.rolls)
    for reroll in dice.rerolls:
        results[reroll.die - 1] = reroll.result
    return results


def hot(ctx: Ctx, e: ev.Shot, op: OperativeState) -> None:
    """KT21 Hot (004): three mortal wounds to the shooter for each attack dice result of 1."""
    weapon = next((w for w in op.datacard.weapons if w.name.casefold() == e.weapon.casefold()), None)
    if weapon is None or not has_rule(weapon, "hot"):
        return
    ones = sum(_final_results(a.attack_dice).count(1) for a in e.attacks if a.attack_dice is not None)
    inflict(ctx, op, HOT_MORTAL_WOUNDS * ones, None, "hot")


# --- the ruleset -----------------------------------------------------------------------------


class Kt21(Ruleset):
    name = "kt21"
    title = "KT21"
    source = "001, 004"
    simulator = "ktlog.ruleset_play.kt21.simulator"
    moves = "ktlog.ruleset_play.kt21.moves"
    datacards = "kt21"
    labels = ("dataslate",)
    label_hints = {"dataslate": "e.g. Balance Dataslate Q1 2023 (empty: the core book)"}
    events = KT21_EVENTS
    turning_points = 4
    killzones = ("octarius", "chalnath", "moroch", "into the dark", "gallowdark", "shadowvaults")
    """The killzones of KT21's boxed sets and their FAQs (004: Killzone: Octarius, Chalnath,
    Gallowdark, Shadowvaults; Kill Team: Moroch, Into the Dark)."""
    ops = ("mission", "tac")
    win_features = ("vp", "room", "cp", "initiative", "operatives", "operatives_share", "wounds_share", "to_activate", "markers", "vp:mission", "vp:tac")
    citations = CITATIONS

    # --- set-up and initiative --------------------------------------------------------------

    order_from = Kt24.order_from  # the initiative player first, as in KT24

    def vp_caps(self, state: GameState) -> tuple[dict[str, int], int]:
        """The mission's cap, and the game's (a tac op has only the game's), by the dataslate (004)."""
        mission, total = vp_caps(state)
        return {"mission": mission, "tac": total}, total

    def marker_count(self, state: GameState) -> tuple[int, int | None]:
        """Ruling: as many objective markers as the mission map shows (the maps are not in 001/004)."""
        return 0, None

    def marker_placer(self, state: GameState, index: int) -> str | None:
        """Ruling: the markers are where the mission map puts them; either player records them."""
        return None

    def rolled_off(self, ctx: Ctx, e: ev.RolledOff) -> None:
        """The winner decides (001 Determine Initiative). A tie is rolled again (001 Dice), except
        a turning point's after the first: the player who did not have initiative has it."""
        s = ctx.state
        winner = self.roll_off_winner(ctx, e, "001 Dice")
        if winner is not None:
            s.decider = winner
        elif e.purpose == "setup" or s.turning_point == 1:
            s.decider = None
        else:
            s.decider = s.initiative = self.tie_decider(s)
        s.rolloff = e.purpose

    def tie_decider(self, state: GameState) -> str:
        before = state.initiative_in(state.turning_point - 1)
        assert before is not None, "KT21 ties a roll-off only from the second turning point"
        return state.opponent(before)

    def ready_cp(self, state: GameState, player: str) -> int:
        """Each player generates 1CP in each Strategy phase, with no bonus (001 Generate Command Points)."""
        return 1

    def can_pick_up(self, state: GameState, marker: str) -> bool:
        """The mission says which markers and tokens can be picked up (001 Pick Up); the players know."""
        return True

    # --- activations and actions ------------------------------------------------------------

    def blast_secondary(self, ctx: Ctx, primary: ev.ShootingAttack, secondary: ev.ShootingAttack) -> None:
        """KT21 has the opposite rule: each further target of a Blast weapon cannot be in Cover
        (004 errata, checked with the Shoot action in `check_event`)."""

    def check_event(self, ctx: Ctx, event: ev.Event) -> None:
        check = CHECKS.get(type(event))
        if check is not None:
            check(ctx, event)

    def move(self, state: GameState, operative: OperativeState) -> int:
        """Injured: 2" less (001 Wounds); never modified below 4" only under the dataslate, a New
        Core Rule (004, Balance Dataslate Q1 2023; in 001 as a boxed New Core Rule)."""
        if under_dataslate(state):
            return operative.move
        card = operative.datacard.move
        return max(0, card - 2) if operative.injured else card

    def repeats(self, operative: OperativeState, action: str) -> int:
        """Pass can be performed more than once in an activation, as often as AP allow (001 Pass)."""
        return operative.apl if action == "Pass" else super().repeats(operative, action)

    def weapon_as_played(self, weapon: ev.Weapon) -> ev.Weapon:
        return as_played(weapon)

    def after_action(self, ctx: Ctx, event: ev.Action, operative: OperativeState) -> None:
        if isinstance(event, ev.Shot):
            hot(ctx, event, operative)

    def after_activation(self, ctx: Ctx, operative: OperativeState) -> None:
        """A group goes on with its next ready operative of the type (001 Perform Actions), unless
        the dataslate's two in a row are done (004); otherwise the opponent has the turn."""
        s = ctx.state
        more = s.group_left and any(o.datacard.name == s.group_type for o in s.ready_operatives(operative.player))
        if more and not (under_dataslate(s) and s.activations_in_a_row >= IN_A_ROW):
            s.next_player = operative.player
            return
        s.group_left, s.group_type = 0, None
        s.next_player = s.opponent(operative.player)

    def on_turning_point_end(self, ctx: Ctx) -> None:
        s = ctx.state
        s.activations_in_a_row, s.group_left, s.group_type = 0, 0, None

    def result(self, state: GameState) -> Result:
        """Most VP wins; equal VP is a draw."""
        return most_vp(state)


RULESET = Kt21()


# --- checks made before the shared handlers (Kt21.check_event) --------------------------------


def _initiative_decided(ctx: Ctx, e: ev.InitiativeDecided) -> None:
    s = ctx.state
    if s.rolloff == "initiative" and s.initiative is not None and e.player != s.initiative:
        ctx.broke(
            f"the roll-off was a tie, so {s.initiative}, who did not have initiative in turning point {s.turning_point - 1}, "
            f"has it: record InitiativeDecided player={s.initiative}",
            "001 Determine Initiative",
        )


def _operative_activated(ctx: Ctx, e: ev.OperativeActivated) -> None:
    """Group activation (001 Perform Actions) and the dataslate's two in a row (004)."""
    s = ctx.state
    op = s.operatives.get(e.operative)
    if op is None or s.phase != "firefight" or s.activation is not None or op.status != "ready":
        return  # the shared handler says what is wrong
    turn = s.next_player
    if s.group_left and op.player != turn:
        ctx.broke(
            f"{turn} is activating a group of {s.group_type} operatives (group activation): {turn}'s next "
            f"{s.group_type} activates before {op.player} activates",
            "001 Perform Actions",
        )
    continuing = bool(s.group_left) and op.player == turn
    if continuing and op.datacard.name != s.group_type:
        ready = [o.id for o in s.ready_operatives(op.player) if o.datacard.name == s.group_type]
        ctx.broke(
            f"{op.player} is activating a group of {s.group_type} operatives (group activation): activate {' or '.join(ready)} before {op.id!r}",
            "001 Perform Actions",
        )
    if op.player == turn:
        in_a_row = s.activations_in_a_row + 1 if continuing else 1
    elif turn is None or not s.has_ready(turn):
        in_a_row = 1  # the opponent had their turn: no operative left to activate, and no Overwatch
    else:
        in_a_row = 1 if s.group_left else s.activations_in_a_row + 1  # out of turn (a kill team rule)
    if in_a_row > IN_A_ROW and under_dataslate(s):
        raise RuleViolation(
            f"{op.player} has activated {in_a_row - 1} operatives in a row: never more than {IN_A_ROW} before {s.opponent(op.player)} "
            f"has had a turn to activate or perform Overwatch, regardless of other rules; {s.opponent(op.player)} activates next",
            "Balance Dataslate Q1 2023, 004",
            overridable=False,
        )
    s.activations_in_a_row = in_a_row
    if continuing:
        s.group_left -= 1
    elif op.datacard.group_activation > 1:
        s.group_left, s.group_type = op.datacard.group_activation - 1, op.datacard.name
    else:
        s.group_left, s.group_type = 0, None


def _after_normal_move(ctx: Ctx, e: ev.Charged | ev.FellBack) -> None:
    """Charge and Fall Back cannot follow a Normal Move in the same activation (001 Actions)."""
    if performed(ctx.state, "Normal Move"):
        ctx.broke(f"{e.name} cannot be performed in the same activation as Normal Move", f"001 {e.name}")


def _shot(ctx: Ctx, e: ev.Shot) -> None:
    s = ctx.state
    op = s.operatives.get(e.operative)
    weapon = next((w for w in op.datacard.weapons if w.name.casefold() == e.weapon.casefold()), None) if op else None
    if weapon is None:
        return  # the shared handler says what is wrong
    if any(a.obscured for a in e.attacks):
        ctx.broke("an Obscured operative is not in the active operative's Line of Sight, so it is not a valid target", "001 Line of Sight")
    if has_rule(weapon, "heavy") and performed(s, "Normal Move") and not isinstance(e, OverwatchFired):
        ctx.broke(f"{weapon.name} is Heavy: no Shoot action with it in an activation with a Normal Move, Fall Back or Charge", "Heavy, 004 special rules")
    if any(a.cover for a in e.attacks[1:]) and weapon_profile(as_played(weapon).rules).blast:
        ctx.broke("each further target of a Blast weapon is a valid target and cannot be in Cover", "Blast, 004 errata")
    if not _rule_texts(weapon).isdisjoint(("indirect", "no cover")) and any(a.cover for a in e.attacks):
        ctx.broke(f"{weapon.name}: enemy operatives are not in Cover against it", "Indirect, 004 special rules")
    _ceaseless(ctx, weapon, *(a.attack_dice for a in e.attacks))


def _equipment_selected(ctx: Ctx, e: ev.EquipmentSelected) -> None:
    """Under the dataslate, each equipment with the Indirect special rule is selected once per
    battle, and an operative already equipped with it counts as the selection (004, Balance
    Dataslate Q1 2023, core rules)."""
    s = ctx.state
    player = s.players.get(e.player)
    if player is None or not under_dataslate(s):
        return
    for option in player.equipment_options:
        if not any(same(option.name, name) for name in e.equipment):
            continue
        for weapon in option.weapons:
            if not has_rule(weapon, "indirect"):
                continue
            holders = [o.id for o in s.operatives.values() if o.player == e.player and any(same(w.name, weapon.name) for w in o.datacard.weapons)]
            if holders:
                ctx.broke(
                    f"{', '.join(holders)} already {'has' if len(holders) == 1 else 'have'} the {weapon.name}, which has Indirect: that counts as "
                    f"{e.player}'s selection of it for this battle, so {option.name!r} cannot be selected as well",
                    "Balance Dataslate Q1 2023, 004",
                )


def _fought(ctx: Ctx, e: ev.Fought) -> None:
    s = ctx.state
    for op_id, name, dice in ((e.operative, e.weapon, e.attack_dice), (e.target, e.target_weapon, e.target_dice)):
        op = s.operatives.get(op_id)
        weapon = next((w for w in op.datacard.weapons if w.name.casefold() == (name or "").casefold()), None) if op else None
        if weapon is not None:
            _ceaseless(ctx, weapon, dice)


def _ceaseless(ctx: Ctx, weapon: ev.Weapon, *all_dice: ev.Dice | None) -> None:
    """KT21 Ceaseless re-rolls results of 1 only (004), where KT24's re-rolls any one value."""
    for dice in all_dice:
        if dice is None:
            continue
        for r in dice.rerolls:
            if r.source == "ceaseless" and dice.rolls[r.die - 1] != 1:
                ctx.broke(f"{weapon.name}: Ceaseless re-rolls attack dice results of 1, not a {dice.rolls[r.die - 1]}", "Ceaseless, 004 special rules")


CHECKS: dict[type[ev.Event], Callable[[Ctx, ev.Event], None]] = {
    ev.InitiativeDecided: _initiative_decided,
    ev.OperativeActivated: _operative_activated,
    ev.Charged: _after_normal_move,
    ev.FellBack: _after_normal_move,
    ev.Shot: _shot,
    OverwatchFired: _shot,
    ev.Fought: _fought,
    ev.EquipmentSelected: _equipment_selected,
}


# --- the events only KT21 accepts --------------------------------------------------------------


@handles(NormalMoved)
def normal_moved(ctx: Ctx, e: NormalMoved) -> None:
    """Normal Move (001): not within Engagement Range, not with Fall Back or Charge, and not
    after shooting a Heavy weapon (004)."""
    op = begin_action(ctx, e)
    not_engaged(ctx, op, "make a Normal Move", "001 Normal Move")
    done = performed(ctx.state, "Fall Back", "Charge")
    if done:
        ctx.broke(f"Normal Move cannot be performed in the same activation as {' or '.join(done)}", "001 Normal Move")
    act = ctx.state.activation
    if act is not None and act.used_heavy:
        ctx.broke(f"{op.id!r} shot a Heavy weapon this activation and cannot make a Normal Move", "Heavy, 004 special rules")
    finish_action(ctx, e, op)


@handles(Passed)
def passed(ctx: Ctx, e: Passed) -> None:
    """Pass (001): no effect; unlike other actions it can be performed more than once."""
    finish_action(ctx, e, begin_action(ctx, e))


@handles(OverwatchFired)
def overwatch_fired(ctx: Ctx, e: OverwatchFired) -> None:
    """Overwatch (001): when it is your turn to activate but you have no ready operatives and the
    opponent has, an Engage operative that activated this phase makes one shooting attack with
    its BS worsened by 1; once per operative per turning point, not within Engagement Range, not
    with a Blast weapon (004 errata). It is not an activation (004); the opponent then activates."""
    s = ctx.state
    if e.guard:
        ctx.invalid("Overwatch is not a guard interrupt (KT24 Gallowdark, pg 70): leave guard out", "001 Overwatch")
    if s.phase != "firefight":
        ctx.invalid(f"Overwatch happens in the Firefight phase (now: {s.phase})", "001 Overwatch")
    if s.activation is not None:
        ctx.invalid(f"{s.activation.operative} is active; Overwatch is performed between activations, on your turn to activate", "001 Overwatch")
    op = ctx.living(e.operative)
    player, opponent = op.player, s.opponent(op.player)
    ready = [o.id for o in s.ready_operatives(player)]
    if ready:
        ctx.broke(
            f"{player} still has ready operatives ({', '.join(ready)}): Overwatch only when you have none left to activate; activate one of them",
            "001 Overwatch",
        )
    if not s.has_ready(opponent):
        ctx.broke(f"{opponent} has activated all their operatives, so the Firefight phase ends: no Overwatch", "001 Overwatch")
    if s.next_player != player:
        ctx.broke(f"it is {s.next_player}'s turn to activate; Overwatch is performed on your own turn", "001 Overwatch")
    if op.status != "expended":
        ctx.broke(f"operative {op.id!r} has not activated this phase; only one that has can perform Overwatch", "001 Overwatch")
    if op.order != "engage":
        ctx.broke(f"operative {op.id!r} has a Conceal order; only an Engage operative can perform Overwatch", "001 Overwatch")
    not_engaged(ctx, op, "perform Overwatch", "001 Overwatch")
    if op.counteracted_tp == s.turning_point:  # the once-per-turning-point mark KT24's counteract uses
        ctx.broke(f"operative {op.id!r} already performed Overwatch this turning point", "001 Overwatch")
    if e.ap not in (None, 0):
        ctx.broke(f"Overwatch costs 0AP, not {e.ap}AP", "001 Overwatch")
    if weapon_profile(find_weapon(ctx, op, e.weapon, "ranged").rules).blast:
        ctx.broke(f"{e.weapon} has Blast: an operative cannot make a shooting attack with it by performing Overwatch", "Blast, 004 errata")
    shooting_attacks(ctx, e, op, worsen=1)
    hot(ctx, e, op)
    op.counteracted_tp = s.turning_point
    s.activations_in_a_row, s.group_left, s.group_type = 0, 0, None
    s.next_player = opponent


@handles(MissionVPScored)
def mission_vp_scored(ctx: Ctx, e: MissionVPScored) -> None:
    """VP from the mission objective or a tac op, as the players work them out from the cards;
    capped at 16 from the mission and 24 in all under the dataslate, 12 and 20 without (004)."""
    s = ctx.state
    p = ctx.player(e.player)
    if s.phase not in ("strategy", "firefight", "between"):
        ctx.invalid("VP are scored during the battle; record the end of the battle's VP before TurningPointEnded", "001 Turning Point")
    if e.vp < 1:
        ctx.invalid(f"score at least 1VP, not {e.vp}", "vp")
    if not e.reason.strip():
        ctx.invalid("say what scored the VP (the mission objective or the tac op, and how)", "reason")
    mission_cap, total_cap = vp_caps(s)
    which = "the Balance Dataslate Q1 2023's Critical Operations 2022" if under_dataslate(s) else "Critical Operations (no dataslate)"
    mission = p.vp.get("mission", 0)
    if e.category == "mission" and mission + e.vp > mission_cap:
        ctx.invalid(
            f"{e.player} has {mission} mission VP; at most {mission_cap} from the mission objective under {which}, so at most {mission_cap - mission} more",
            "004",
        )
    if p.total_vp + e.vp > total_cap:
        ctx.invalid(f"{e.player} has {p.total_vp}VP; at most {total_cap} from the game under {which}, so at most {total_cap - p.total_vp} more", "004")
    ctx.score(e.player, e.category, e.vp, e.reason)

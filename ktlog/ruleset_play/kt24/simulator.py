"""Random legal KT24 Preliminary Ops games, played through the reducer.

The simulator chooses plausible moves that obey the rules it can see (orders, control range,
AP, action restrictions, CP); the reducer checks every event it makes, so a simulated game
that breaks a rule fails loudly instead of being stored.
"""

from __future__ import annotations

import random
from collections.abc import Container

from ...board.layout import Layout
from ...events import (
    ActivationEnded,
    CounteractStarted,
    FirefightPloyUsed,
    GambitPassed,
    GameConceded,
    InitiativeDecided,
    ObjectivesControlled,
    OperativeActivated,
    Order,
    RolledOff,
    StrategicGambitUsed,
    TurningPointEnded,
    Weapon,
)
from ...files.rosters import Roster
from ...play import builder as b
from ...play.builder import GameBuilder
from ...rules.attacks import killzone_profile
from ...rules.dice import attack_successes
from ...rules.positions import allowance
from ...rules.ruleset import Ruleset
from ...rules.shooting import defence_dice_collected
from ...rules.weapons import WeaponProfile
from ...state import GameState, OperativeState, PlayerState
from . import board

PLAYERS = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea", "Max", "Nia", "Oto", "Pia"]
STRATEGY_PLOYS = ["Seize Ground", "Bolster", "Combat Doctrine", "Overwhelm"]
FIREFIGHT_PLOYS = ["Heroic Stand", "Quick Reflexes", "Adrenaline Surge"]
FACES = "123456"
MOVES = frozenset({"Reposition", "Dash", "Fall Back", "Charge"})
EXCLUDED_BY = {"Reposition": frozenset({"Fall Back", "Charge"}), "Dash": frozenset({"Charge"}), "Fall Back": frozenset({"Reposition", "Charge", "Fall Back"})}
"""The moves an activation's earlier moves exclude (pg 40-41), as the simulator plays them."""


def d6(rng: random.Random, n: int) -> str:
    """`n` dice as typed (`6542`): each face three random bits, drawn again while they are 6 or
    7, the draw `rng.choice("123456")` makes without its two Python calls a die."""
    bits, faces = rng.getrandbits, []
    for _ in range(n):
        r = bits(3)
        while r > 5:
            r = bits(3)
        faces.append(FACES[r])
    return "".join(faces)


def play_on(sim, g: GameBuilder) -> GameBuilder:
    """Play the game in `g` on from its state, a moment of its battle, to its end as `sim.play`
    would: the turning point under way finished (its start, gambits, the activation under way,
    the other activations, its end), then the rest (`sim.battle`). Every simulator's."""
    s = g.state
    if s.phase in ("strategy", "firefight"):
        tp = s.turning_point
        if s.phase == "strategy" and s.initiative_in(tp) is None:
            sim.decide_initiative(g)
        sim.gambits(g)
        if (act := g.state.activation) is not None:
            sim.go_on(g, act.operative)
        sim.firefight_phase(g)
        sim.end_turning_point(g, tp)
    return g if g.state.phase == "over" else sim.battle(g, g.state.turning_point + 1)


def ploy_or_pass(g: GameBuilder, rng: random.Random, player: PlayerState, ploys: list[str], chance: float) -> None:
    """A strategy ploy the player has not used this turning point, at random (with `chance`,
    when they have 1CP), else a pass."""
    unused = [p for p in ploys if p.casefold() not in player.used_this_tp]
    if player.cp >= 1 and unused and rng.random() < chance:
        g.add(StrategicGambitUsed(player=player.name, gambit=rng.choice(unused)))
    else:
        g.add(GambitPassed(player=player.name))


def fight_action(rng: random.Random, s: GameState, op: OperativeState, quick: float):
    """A Fight against an enemy in control range with both sides' dice, or (with chance `quick`)
    in quick mode: the damage dealt and taken."""
    target = s.peek(rng.choice(op.engaged_with))
    weapon = rng.choice([w for w in op.datacard.weapons if w.kind == "melee"])
    theirs = [w for w in target.datacard.weapons if w.kind == "melee"]
    target_weapon = rng.choice(theirs) if theirs else None
    if rng.random() < quick:
        return b.fight(weapon.name, target.id, target_weapon.name if target_weapon else None, damage=rng.randint(0, 8), damage_taken=rng.randint(0, 6))
    return b.fight(
        weapon.name, target.id, target_weapon.name if target_weapon else None, d6(rng, weapon.atk), d6(rng, target_weapon.atk) if target_weapon else None
    )


def shootable(s: GameState, player: str, enemies: list[OperativeState]) -> list[OperativeState]:
    """The enemies a player's operative may shoot: those not within control range of one of the
    player's operatives (pg 42)."""
    return [e for e in enemies if not e.engaged_with or not any(s.peek(x).player == player for x in e.engaged_with)]


def on_board(s: GameState, op: OperativeState) -> bool:
    """Whether the game is on a layout and the operative has a position: the board decides its moves."""
    return s.layout is not None and op.x is not None


class Simulator:
    """Plays two-player games of the ruleset it is given, stored under its name; `play_on`
    plays a game on from any moment of its battle (a rollout, `ktlog.analytics.winprob_rollout`)."""

    mistakes = 0.01
    """How often an action is undone at once (a mistake noticed): a rollout, which keeps no
    events to undo, sets it to 0."""
    positional = True
    """Whether it plays games on a layout, with positions (`ktlog simulate --layout`)."""

    def __init__(self, rng: random.Random, rosters: list[Roster], ruleset: Ruleset, layout: Layout | None = None):
        self.rng = rng
        self.rosters = rosters
        self.rules = ruleset
        self.ruleset = ruleset.name
        self.layout = layout
        """The layout its games are played on, with positions (`board`); None: without."""
        self.turning_points = ruleset.turning_points or 4
        """The battle's length (a ruleset whose mission ends it plays on in its own `play`)."""

    def play(self, date: str, **labels: str) -> GameBuilder:
        rng = self.rng
        a, b_ = rng.sample(PLAYERS, 2)
        if self.layout is None:
            g = GameBuilder(ruleset=self.ruleset, killzone=rng.choice(["volkus", "gallowdark", "bheta-decima"]), date=date, **labels)
        else:
            g = GameBuilder(ruleset=self.ruleset, killzone=self.layout.killzone, date=date, layout=self.layout, **labels)
        g.player(a, rng.choice(self.rosters))
        g.player(b_, rng.choice(self.rosters))
        rolls = [{a: rng.randint(1, 6), b_: rng.randint(1, 6)}]
        while rolls[-1][a] == rolls[-1][b_]:
            rolls.append({a: rng.randint(1, 6), b_: rng.randint(1, 6)})
        winner = max(rolls[-1], key=rolls[-1].__getitem__)
        initiative = winner if rng.random() < 0.8 else (a if winner == b_ else b_)
        self.setup(g, rolls, initiative)
        return self.battle(g, 1)

    def battle(self, g: GameBuilder, first: int) -> GameBuilder:
        """The turning points from `first` on; before each after the first, the trailing player
        concedes one game in a hundred."""
        for tp in range(first, self.turning_points + 1):
            if tp > 1 and self.rng.random() < 0.01:
                trailing = min(g.state.players.values(), key=lambda p: p.total_vp).name
                g.add(GameConceded(player=trailing))
                return g
            self.turning_point(g, tp)
        return g

    def play_on(self, g: GameBuilder) -> GameBuilder:
        """Play the game on from its state, a moment of its battle, to its end as `play` would."""
        return play_on(self, g)

    def resample_secrets(self, state: GameState) -> None:
        """Each secret choice not yet revealed, chosen again as `play` chooses it (a rollout
        knows only what a viewer of the game knows): none in Preliminary Ops."""

    def decide_initiative(self, g: GameBuilder) -> None:
        """A turning point's initiative when its start was cut short: roll-offs until one names
        who decides, then as `strategy_phase` decides."""
        rng, s = self.rng, g.state
        while s.decider is None:
            g.add(RolledOff(purpose="initiative", rolls={n: rng.randint(1, 6) for n in s.players}))
        g.add(InitiativeDecided(player=rng.choice(list(s.players)) if rng.random() < 0.3 else s.decider))

    def setup(self, g: GameBuilder, rolls: list[dict[str, int]], initiative: str) -> None:
        g.setup(rolloff=rolls, initiative=initiative, crit_op=self.rng.randint(1, 3), **self.on_layout(g, initiative))

    def on_layout(self, g: GameBuilder, initiative: str) -> dict:
        """`GameBuilder.setup`'s markers, drop zones and positions on the layout: its objective
        markers set up in turn from the player without initiative, its first two drop zones
        (the initiative's first), each operative somewhere in its own; nothing without a layout."""
        if self.layout is None:
            return {}
        other = next(p for p in g.state.players if p != initiative)
        markers = [(m.name, (other, initiative)[i % 2]) for i, m in enumerate(self.layout.objectives)]
        zones = dict(zip((initiative, other), (z.name for z in self.layout.drop_zones), strict=False))
        return {"markers": markers, "drop_zones": zones, "positions": board.setup_positions(self.rng, g.state, self.layout, zones)}

    def turning_point(self, g: GameBuilder, tp: int) -> None:
        self.strategy_phase(g, tp)
        self.firefight_phase(g)
        self.end_turning_point(g, tp)

    def strategy_phase(self, g: GameBuilder, tp: int) -> None:
        rng, names = self.rng, list(g.state.players)
        rolls = {n: rng.randint(1, 6) for n in names}
        g.turning_point(tp, rolls, rng.choice(names) if rng.random() < 0.3 else max(rolls, key=rolls.__getitem__))
        self.gambits(g)

    def firefight_phase(self, g: GameBuilder) -> None:
        """Activations in turn until none is ready (or the battle ends, as a Joint Ops mission
        can); a player with none ready may counteract when due, else the next who has one
        activates (pg 38)."""
        while g.state.phase == "firefight":
            s = g.state
            if s.activation is None and not s.any_ready():
                return
            player = s.next_player
            assert player is not None, "an operative is ready, so a player is due"
            if ready := s.ready_operatives(player):
                self.activation(g, self.rng.choice(ready))
            elif not self.counteract(g, player):
                due = s.due_to_activate()
                assert due is not None, "an operative is ready, so a player is due"
                self.activation(g, self.rng.choice(s.ready_operatives(due)))

    def end_turning_point(self, g: GameBuilder, tp: int) -> None:
        s = g.state
        if s.layout is not None and s.control_recorded_tp != tp:  # with positions, the board says who controls each marker
            g.add(ObjectivesControlled(control=board.control(s)))
        elif s.crit_op == "Transmission" and s.control_recorded_tp != tp:
            control = {m: self.rng.choice([*s.players, None]) for m in s.markers}
            g.add(ObjectivesControlled(control=control))
        g.add(TurningPointEnded(turning_point=tp))

    def gambits(self, g: GameBuilder) -> None:
        s = g.state
        while s.phase == "strategy":
            ploy_or_pass(g, self.rng, s.players[s.gambit_turn], STRATEGY_PLOYS, 0.35)

    # --- one activation ---------------------------------------------------------------------

    def activation(self, g: GameBuilder, op: OperativeState) -> None:
        order: Order = "engage" if self.rng.random() < 0.7 else "conceal"
        g.add(OperativeActivated(operative=op.id, order=order))
        self.go_on(g, op.id)

    def go_on(self, g: GameBuilder, operative: str) -> None:
        """The actions of the activation (or counteract) under way, then its end."""
        rng = self.rng
        act = g.state.activation
        assert act is not None, "an operative is active"
        if act.counteract:
            self.counteract_action(g, operative)
            return
        for _ in range(g.state.peek(operative).apl + 1 - len(act.actions)):
            s = g.state
            if s.activation is None:
                return  # incapacitated mid-activation
            me = s.peek(operative)
            action = self.choose(g, me, s.activation.actions, me.apl - s.activation.ap_spent)
            if action is None:
                break
            g.add(action(operative))
            if rng.random() < self.mistakes and g.state.activation is not None:
                g.undo()  # a mistake noticed at once
        if g.state.activation is not None:
            if rng.random() < 0.05:
                self.firefight_ploy(g, g.state.peek(operative).player)
            g.add(ActivationEnded(operative=operative))

    def counteract(self, g: GameBuilder, player: str) -> bool:
        s = g.state
        eligible = [o for o in s.scan() if o.player == player and o.status == "expended" and o.order == "engage" and o.counteracted_tp != s.turning_point]
        if not eligible or self.rng.random() < 0.4:
            return False
        op = self.rng.choice(eligible)
        g.add(CounteractStarted(operative=op.id))
        self.counteract_action(g, op.id)
        return True

    def counteract_action(self, g: GameBuilder, operative: str) -> None:
        """A counteract's one action, or its end without one."""
        action = self.choose(g, g.state.peek(operative), [], 1, counteract=True)
        g.add(ActivationEnded(operative=operative) if action is None else action(operative))

    def firefight_ploy(self, g: GameBuilder, player: str) -> None:
        p = g.state.players[player]
        unused = [x for x in FIREFIGHT_PLOYS if x.casefold() not in p.used_this_tp]
        if p.cp >= 1 and unused:
            g.add(FirefightPloyUsed(player=player, ploy=self.rng.choice(unused)))

    def choose(self, g: GameBuilder, op: OperativeState, done: list[str], left: int, counteract: bool = False):
        """A random action the operative may take now, or None to stop."""
        rng, s = self.rng, g.state
        if left < 1 or (not counteract and rng.random() < 0.1):
            return None
        options = []
        moved = not MOVES.isdisjoint(done)
        act = s.activation
        may_move = MOVES if not (act and act.used_heavy) else {act.heavy_only}
        if op.engaged_with:
            if "Fight" not in done:
                options += [fight_action(rng, s, op, quick=0.2)] * 3
            if left >= 2 and not counteract and "Fall Back" in may_move and EXCLUDED_BY["Fall Back"].isdisjoint(done):
                if not on_board(s, op):
                    options.append(b.fall_back())
                elif at := board.fall_back(s, op, allowance(self.rules, s, op, "Fall Back")):
                    options.append(b.fall_back(x=at[0], y=at[1]))
        else:
            enemies = s.enemies_of(op.player)
            options += self.moves(s, op, done, may_move, enemies, moved)
            shot = self.shoot_action(s, op, enemies, moved) if "Shoot" not in done else None
            if shot:
                options += [shot] * 3
            mission = self.mission_action(s, op, done)
            if mission:
                options += [mission] * 2
        return rng.choice(options) if options else None

    def moves(
        self, s: GameState, op: OperativeState, done: list[str], may_move: Container[str | None], enemies: list[OperativeState], moved: bool
    ) -> list[b.ActionMaker]:
        """The moves an operative not within control range of an enemy may make now (pg 40-41),
        `moved` if it has made one this activation; on a layout, each to where the board allows
        (`board`), and none when it allows nowhere."""
        options = []
        positions = on_board(s, op)
        for name, maker in (("Reposition", b.reposition), ("Dash", b.dash)):
            if name not in may_move or name in done or not EXCLUDED_BY[name].isdisjoint(done):
                continue
            if not positions:
                options.append(maker())
            elif at := board.step(self.rng, s, op, name, allowance(self.rules, s, op, name)):
                options.append(maker(x=at[0], y=at[1]))
        if "Charge" in may_move and op.order == "engage" and enemies and not moved and self.rng.random() < 0.3:
            if not positions:
                options.append(b.charge(self.rng.choice(enemies).id))
            elif end := board.charge(self.rng, s, op, allowance(self.rules, s, op, "Charge")):
                options.append(b.charge(*end[2], x=end[0], y=end[1]))
        return options

    def shoot_action(self, s: GameState, op: OperativeState, enemies: list[OperativeState], moved: bool):
        rng = self.rng
        weapons = []
        for w in op.datacard.weapons:
            if w.kind != "ranged":
                continue
            p = killzone_profile(s.killzone, w)
            if (op.order == "conceal" and not p.silent) or (p.heavy and moved) or (p.limited and op.weapon_uses.get(w.name, 0) >= p.limited):
                continue
            weapons.append((w, p))
        if not weapons:
            return None
        targets = shootable(s, op.player, enemies)
        if not targets:
            return None
        weapon, profile = rng.choice(weapons)
        if on_board(s, op):
            return self.shot_on_board(s, op, weapon, profile, targets)
        target = rng.choice(targets)
        if rng.random() < 0.2:
            return b.shoot(weapon.name, target.id, damage=rng.choice([0, weapon.normal_dmg, weapon.crit_dmg, 2 * weapon.normal_dmg]), hot=None)
        cover = target.order == "engage" and rng.random() < 0.4
        dice = d6(rng, weapon.atk)
        hit = weapon.hit + (1 if op.injured else 0)
        # only Piercing Crits asks whether a critical was retained
        crits = profile.piercing_crits > profile.piercing and attack_successes(tuple(map(int, dice)), hit, profile).critical_retained
        saves = defence_dice_collected(profile, crits) - (1 if cover and not profile.saturate else 0)
        hot = rng.randint(1, 6) if profile.hot else None
        return b.shoot(weapon.name, target.id, dice, d6(rng, max(0, saves)), cover=cover, hot=hot)

    def shot_on_board(self, s: GameState, op: OperativeState, weapon: Weapon, profile: WeaponProfile, enemies: list[OperativeState]):
        """A Shoot action at targets the board allows (`board.shot`), with the cover and obscured
        it gives and the operatives an x" Devastating critical reaches; quick mode one time in
        five, and always when several targets are shot with x" Devastating (one's splash could
        incapacitate the next before its turn)."""
        rng = self.rng
        aims = board.shot(rng, s, op, profile, enemies)
        if aims is None:
            return None
        quick = rng.random() < 0.2 or (len(aims) > 1 and profile.devastating_splash > 0)
        hit = weapon.hit + (1 if op.injured else 0)
        attacks = []
        for aim in aims:
            if quick:
                damage = rng.choice([0, weapon.normal_dmg, weapon.crit_dmg, 2 * weapon.normal_dmg])
                attacks.append(b.attack(aim.target, cover=aim.cover, obscured=aim.obscured, damage=damage))
                continue
            dice = d6(rng, weapon.atk)
            hits = attack_successes(tuple(map(int, dice)), hit, profile, obscured=aim.obscured)
            saves = defence_dice_collected(profile, hits.critical_retained) - (1 if aim.cover and not profile.saturate else 0)
            splash = board.splashed(s, aim.target, profile.devastating_splash) if profile.devastating_splash and hits.critical else ()
            attacks.append(b.attack(aim.target, dice, d6(rng, max(0, saves)), cover=aim.cover, obscured=aim.obscured, splashed=splash))
        hot = rng.randint(1, 6) if profile.hot and not quick else None
        return b.shoot(weapon.name, attacks[0], hot=hot, extra=attacks[1:])

    def mission_action(self, s: GameState, op: OperativeState, done: list[str]):
        """A mission action from TP2 on, at a marker at random; on a layout, one within the operative's control range (pg 52)."""
        if s.turning_point < 2 or not s.markers:
            return None
        names = board.contested(s, op) if on_board(s, op) else list(s.markers)
        if not names:
            return None
        marker = s.markers[self.rng.choice(names)]
        if s.crit_op == "Secure" and "Secure" not in done:
            return b.secure(marker.id)
        if s.crit_op == "Loot" and "Loot" not in done and marker.looted_tp != s.turning_point:
            return b.loot(marker.id)
        if s.crit_op == "Transmission" and "Initiate Transmission" not in done:
            return b.transmit(marker.id)
        return None

"""Random legal KT21 games (001, 004), played through the reducer: the KT21 datacards of
ktlog/data/rosters/kt21_*.toml, group activations, Overwatch, Pass, the dataslate in about half
of the games, and mission and tac op VP within the caps. The reducer checks every event."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from ...data import SAMPLE_ROSTERS
from ...events import (
    ActivationEnded,
    FirefightPloyUsed,
    GameConceded,
    InitiativeDecided,
    OperativeActivated,
    RolledOff,
    Shot,
    TurningPointEnded,
    TurningPointStarted,
    Weapon,
)
from ...files.rosters import Roster, load_roster
from ...play import builder as b
from ...play.builder import GameBuilder
from ...rules.dice import attack_successes
from ...rules.ruleset import Ruleset
from ...rules.shooting import defence_dice_collected
from ...rules.weapons import WeaponProfile, weapon_profile
from ...rulesets.kt21.events import MissionVPScored, NormalMoved, OverwatchFired, Passed
from ...rulesets.kt21.rules import RULESET, as_played, vp_caps
from ...state import GameState, OperativeState
from ..kt24.simulator import PLAYERS, d6, fight_action, play_on, ploy_or_pass, shootable

SLATE = "Balance Dataslate Q1 2023"
KILLZONES = ["octarius", "chalnath", "moroch", "into the dark"]
STRATEGIC_PLOYS = ["Take Aim", "Overwhelm", "Clear the Line", "Stalk"]
TACTICAL_PLOYS = ["Fire on my Target", "Just a Scratch", "Bring It Down"]
MISSION_REASONS = ["controls more objective markers", "holds the central marker", "performed the mission action"]
MOVES = ("Normal Move", "Dash", "Fall Back", "Charge")


def kt21_rosters(rosters: list[Roster], folder: Path = SAMPLE_ROSTERS) -> list[Roster]:
    """The rosters of KT21 datacards among those given (`datacards = "kt21"`), or the sample ones."""
    mine = [r for r in rosters if r.datacards == RULESET.datacards]
    return mine or [r for r in map(load_roster, sorted(folder.glob("*.toml"))) if r.datacards == RULESET.datacards]


@lru_cache(maxsize=1024)
def profile(weapon: Weapon) -> WeaponProfile:
    """The weapon's profile as played in KT21 (looked at for every weapon at every shot: kept)."""
    return weapon_profile(as_played(weapon).rules)


class Simulator:
    """Plays KT21 games; `play_on` plays one on from any moment of its battle (a rollout)."""

    mistakes = 0.01
    """How often an action is undone at once (a rollout sets it to 0: it keeps no events to undo)."""

    def __init__(self, rng: random.Random, rosters: list[Roster], ruleset: Ruleset):
        self.rng = rng
        self.rosters = kt21_rosters(rosters) if rosters else []  # none: it only plays games on (a rollout)
        self.ruleset = ruleset.name

    def play(self, date: str, **labels: str) -> GameBuilder:
        rng = self.rng
        a, b_ = rng.sample(PLAYERS, 2)
        slate = {"dataslate": SLATE} if rng.random() < 0.5 else {}
        g = GameBuilder(ruleset=self.ruleset, killzone=rng.choice(KILLZONES), date=date, **slate, **labels)
        g.player(a, rng.choice(self.rosters))
        g.player(b_, rng.choice(self.rosters))
        rolls = self.roll_off([a, b_])
        winner = max(rolls[-1], key=rolls[-1].__getitem__)
        markers = [(f"objective-{i}", rng.choice([a, b_])) for i in range(1, rng.randint(3, 6))]
        g.setup(rolloff=rolls, initiative=winner if rng.random() < 0.8 else (a if winner == b_ else b_), markers=markers)
        return self.battle(g, 1)

    def battle(self, g: GameBuilder, first: int) -> GameBuilder:
        """The turning points from `first` on; before each after the first, the trailing player
        concedes one game in a hundred."""
        for tp in range(first, 5):
            if tp > 1 and self.rng.random() < 0.01:
                trailing = min(g.state.players.values(), key=lambda p: p.total_vp).name
                return g.add(GameConceded(player=trailing))
            self.turning_point(g, tp)
        return g

    def play_on(self, g: GameBuilder) -> GameBuilder:
        """Play the game on from its state, a moment of its battle, to its end as `play` would."""
        return play_on(self, g)

    def resample_secrets(self, state: GameState) -> None:
        """KT21's tac ops are recorded as VP only: nothing secret to choose again."""

    def decide_initiative(self, g: GameBuilder) -> None:
        """Roll-offs until one names who decides, then as `turning_point` decides."""
        rng, s = self.rng, g.state
        while s.decider is None:
            g.add(RolledOff(purpose="initiative", rolls={n: rng.randint(1, 6) for n in s.players}))
        initiative = s.initiative or (s.decider if rng.random() < 0.8 else s.opponent(s.decider))
        g.add(InitiativeDecided(player=initiative))

    def roll_off(self, names: list[str]) -> list[dict[str, int]]:
        """Roll-offs until one is not a tie (001 Dice)."""
        rolls = [{n: self.rng.randint(1, 6) for n in names}]
        while len(set(rolls[-1].values())) == 1:
            rolls.append({n: self.rng.randint(1, 6) for n in names})
        return rolls

    # --- a turning point (001) --------------------------------------------------------------

    def turning_point(self, g: GameBuilder, tp: int) -> None:
        rng, names = self.rng, list(g.state.players)
        g.add(TurningPointStarted(turning_point=tp))
        for rolls in self.roll_off(names) if tp == 1 else [{n: rng.randint(1, 6) for n in names}]:
            g.add(RolledOff(purpose="initiative", rolls=rolls))
        s = g.state
        if s.initiative is None:  # not a tie after TP1: the winner decides, usually keeping it
            assert s.decider is not None, "the roll-off names who decides"
            initiative = s.decider if rng.random() < 0.8 else s.opponent(s.decider)
        else:
            initiative = s.initiative
        g.add(InitiativeDecided(player=initiative))
        self.gambits(g)
        self.firefight_phase(g)
        self.end_turning_point(g, tp)

    def end_turning_point(self, g: GameBuilder, tp: int) -> None:
        """The VP scored, the turning point ended."""
        self.score(g)
        g.add(TurningPointEnded(turning_point=tp))

    def gambits(self, g: GameBuilder) -> None:
        """Strategic ploys, each player in turn, until both pass."""
        s = g.state
        while s.phase == "strategy":
            ploy_or_pass(g, self.rng, s.players[s.gambit_turn], STRATEGIC_PLOYS, 0.3)

    def firefight_phase(self, g: GameBuilder) -> None:
        while True:
            s = g.state
            if not s.any_ready():
                return
            player = s.next_player
            assert player is not None, "an operative is ready, so a player is due"
            if not s.has_ready(player):
                if self.overwatch(g, player):
                    continue
                player = s.opponent(player)
            ready = s.ready_operatives(player)
            group = [o for o in ready if o.datacard.name == s.group_type] if s.group_left and player == s.next_player else []
            self.activation(g, self.rng.choice(group or ready))

    def score(self, g: GameBuilder) -> None:
        """Mission and tac op VP as the players read them from their cards, within the caps (004)."""
        rng, s = self.rng, g.state
        mission_cap, total_cap = vp_caps(s)
        scored = {v.player for v in s.vp_log if v.turning_point == s.turning_point and v.op in ("mission", "tac")}  # a rollout from the middle of this
        for name, p in s.players.items():
            if name in scored:
                continue
            vp = min(rng.randint(0, 4), mission_cap - p.vp["mission"], total_cap - p.total_vp)
            if vp > 0:
                g.add(MissionVPScored(player=name, vp=vp, category="mission", reason=rng.choice(MISSION_REASONS)))
            vp = min(rng.choice([0, 0, 1, 2]), total_cap - p.total_vp)
            if vp > 0:
                g.add(MissionVPScored(player=name, vp=vp, category="tac", reason="tac op condition met"))

    # --- activations and Overwatch ----------------------------------------------------------

    def activation(self, g: GameBuilder, op: OperativeState) -> None:
        g.add(OperativeActivated(operative=op.id, order="engage" if self.rng.random() < 0.7 else "conceal"))
        self.go_on(g, op.id)

    def go_on(self, g: GameBuilder, operative: str) -> None:
        """The actions of the activation under way, then its end."""
        rng = self.rng
        while (act := g.state.activation) is not None:
            me = g.state.peek(operative)
            action = self.choose(g.state, me, act.actions, me.apl - act.ap_spent)
            if action is None:
                break
            g.add(action(operative))
            if rng.random() < self.mistakes and g.state.activation is not None:
                g.undo()  # a mistake noticed at once
                break
        if g.state.activation is not None:
            player = g.state.peek(operative).player
            p = g.state.players[player]
            if p.cp >= 1 and (unused := [x for x in TACTICAL_PLOYS if x.casefold() not in p.used_this_tp]) and rng.random() < 0.05:
                g.add(FirefightPloyUsed(player=player, ploy=rng.choice(unused)))
            g.add(ActivationEnded(operative=operative))

    def overwatch(self, g: GameBuilder, player: str) -> bool:
        """Overwatch with an expended Engage operative, BS worsened by 1 (001), now and then."""
        s = g.state
        if not s.has_ready(s.opponent(player)) or self.rng.random() < 0.5:
            return False
        eligible = [
            o
            for o in s.scan()
            if o.player == player and o.status == "expended" and o.order == "engage" and not o.engaged_with and o.counteracted_tp != s.turning_point
        ]
        enemies = s.enemies_of(player)
        for op in self.rng.sample(eligible, len(eligible)):
            shot = self.shot(s, op, enemies, worsen=1, overwatch=True)
            if shot is not None:
                g.add(shot(op.id))
                return True
        return False

    def choose(self, s: GameState, op: OperativeState, done: list[str], left: int):
        """A random action the operative may take now (001 Actions), or None to end."""
        rng = self.rng
        if left < 1 or rng.random() < 0.08:
            return None
        act = s.activation
        heavy = act is not None and act.used_heavy
        options: list[b.ActionMaker] = [b.act(Passed)]
        if op.engaged_with:
            if "Fight" not in done:
                options += [fight_action(rng, s, op, quick=0.15)] * 4
            if left >= 2 and not heavy and not {"Normal Move", "Charge", "Fall Back"} & set(done):
                options.append(b.fall_back())
        else:
            if not heavy and not {"Normal Move", "Fall Back", "Charge"} & set(done):
                options += [b.act(NormalMoved)] * 2
            if "Dash" not in done and "Charge" not in done:
                options.append(b.dash())
            charge = op.order == "engage" and not heavy and not set(MOVES) & set(done)
            enemies = s.enemies_of(op.player) if charge or "Shoot" not in done else []  # a charge's and a shot's targets
            if charge and enemies and rng.random() < 0.3:
                options.append(b.charge(rng.choice(enemies).id))
            if "Shoot" not in done:
                shot = self.shot(s, op, enemies, moved=[m for m in done if m in MOVES])
                if shot is not None:
                    options += [shot] * 4
        return rng.choice(options)

    def shot(self, s: GameState, op: OperativeState, enemies: list[OperativeState], *, worsen: int = 0, moved: list[str] = (), overwatch: bool = False):
        """A shooting action (Overwatch if `overwatch`) at a valid target among `enemies` (`GameState.enemies_of`) with dice, or None."""
        rng = self.rng
        weapons = []
        for w in op.datacard.weapons:
            if w.kind != "ranged":
                continue
            p = profile(w)
            if (op.order == "conceal" and not p.silent) or (overwatch and p.blast):
                continue
            if (p.heavy and set(moved) - {"Dash"}) or (p.limited and op.weapon_uses.get(w.name, 0) >= p.limited):
                continue
            weapons.append((w, p))
        if not weapons:
            return None
        targets = shootable(s, op.player, enemies)
        if not targets:
            return None
        (weapon, p), target = rng.choice(weapons), rng.choice(targets)
        as_ = OverwatchFired if overwatch else Shot
        if rng.random() < 0.15:
            return b.shoot(weapon.name, target.id, damage=rng.choice([0, weapon.normal_dmg, weapon.crit_dmg]), as_=as_)
        cover = target.order == "engage" and rng.random() < 0.4
        dice = d6(rng, weapon.atk)
        hit = weapon.hit + (1 if op.injured else 0) + worsen
        # only Piercing Crits asks whether a critical was retained
        crits = p.piercing_crits > p.piercing and attack_successes(tuple(map(int, dice)), hit, p).critical_retained
        saves = defence_dice_collected(p, crits, target.datacard.defence) - (1 if cover else 0)
        return b.shoot(weapon.name, target.id, dice, d6(rng, max(0, saves)), cover=cover, as_=as_)

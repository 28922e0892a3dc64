"""One game through its ruleset's win-probability model: each player's chance and expected VP
margin at every moment, what each event added (EPA: expected VP added, credited to the player and
operative who acted), the luck of the dice by what it caused, the moments that moved the game
most, and the chance as it stands that the stream overlay shows.

The game is folded once; at every moment of the battle the model reads the board
(`winprob_features`). The result's own step (the last turning point's end, a concession) is not
a moment: it only says what had been decided. A key moment is labelled with what happened and
what followed (damage, an operative incapacitated, VP); an objective action is one; and so is an
activation that ended with AP left and no mission action when one was legal and the model says
it was worth more than the moves listed (`missed`). Pure Python: no Polars.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .. import events as ev
from ..errors import KtlogError, RuleViolation
from ..reducer import apply_in_place, corrected, effective
from ..rulesets import RULESETS
from ..state import Checkpoint, GameState
from ..text.describe import describe
from .winprob import Choice, WinModel, chances, expected_margins
from .winprob_features import Reader, in_battle, moves_the_board
from .winprob_luck import LUCK_METHOD, ShotLuck, shot_luck

TOP = 5
MISSED_AT_LEAST = 0.02
"""A missed mission action is listed only if the model gives it at least this much chance."""


class KeyMoment(msgspec.Struct, frozen=True):
    seq: int
    turning_point: int
    kind: str
    """`action` (anything done), `objective` (a mission action), `missed` (a mission action not taken)."""
    player: str
    """Who gained most from it (for `missed`: who would have)."""
    change: float
    """How much that player's chance rose (0..1)."""
    epa: float
    """The expected VP margin it added for the player who acted (`missed`: would have)."""
    description: str
    """What happened, and what followed."""


class Credit(msgspec.Struct, frozen=True):
    """Expected VP added by one operative (or by the player's own moves: ploys, gambits ...)."""

    player: str
    operative: str | None
    epa: float
    events: int


class Luck(msgspec.Struct, frozen=True):
    """What the dice of a player's shots (and of the shots at them) did, against their average."""

    player: str
    vp: float
    """Expected VP margin."""
    chance: float
    """Chance to win."""
    shots: int
    """Shots with dice counted (theirs and at them)."""


class Swing(msgspec.Struct, frozen=True):
    player: str
    total: float
    """Their chance at the end (their share of the result) less at the battle's start."""
    dice: float
    rest: float


class Analysis(msgspec.Struct, frozen=True):
    players: list[str]
    ruleset: str
    model: str
    """Which model, and what to know about it; or why the game has no chance shown."""
    fitted: bool
    """Whether a model read the game (False: `model` says why not; nothing else is given)."""
    curve: list[tuple[int, list[float]]]
    """(seq, each player's chance) at the battle's first moment, each moment after and the result."""
    expected: list[tuple[int, list[float]]]
    """(seq, each player's expected VP margin at the end) at the same moments."""
    decided: int | None
    """The seq of the result (the curve's last point then is the result), None while it is being played."""
    moments: list[KeyMoment]
    epa: list[Credit]
    luck: list[Luck]
    luck_method: str
    swings: list[Swing]


class Chance(msgspec.Struct, frozen=True):
    """The win probability at a game's latest moment, as a live overlay shows it."""

    seq: int
    players: list[str]
    chances: list[float]
    """Each player's chance (a finished game's: its result)."""
    decided: bool
    features: dict[str, list[float]]
    """What the model read, per feature, each player's figure relative to their opponents':
    only the board a spectator sees, never a secret choice."""


def result_shares(state: GameState) -> list[float]:
    """Each player's share of a finished game's result: 1 to the winner, split for a shared win or draw."""
    r = state.result
    assert r is not None, "the game is finished"
    sharing = r.winners or ([r.winner] if r.winner else list(state.players) if r.draw else [])
    return [1 / len(sharing) if p in sharing else 0.0 for p in state.players]


def chance_now(state: GameState, choice: Choice) -> Chance | None:
    """The chance at `state` (a game's latest moment), and what it read; None without a model
    (`choice.why` says why) or before the set-up is done."""
    model = choice.model
    if model is None or not in_battle(state):
        return None
    if state.result is not None:
        return Chance(state.seq, list(state.players), result_shares(state), True, {})
    m = Reader(RULESETS[state.ruleset], model.features).moment(state)
    read = {f: [round(row[i], 4) for row in m.relative] for i, f in enumerate(model.features)}
    return Chance(state.seq, m.players, [round(p, 4) for p in chances(model, m)], False, {"turning_point": [float(m.turning_point)], "left": [m.left], **read})


def _unfitted(state: GameState, why: str) -> Analysis:
    return Analysis(list(state.players), state.ruleset, why, False, [], [], None, [], [], [], LUCK_METHOD, [])


def analyse(records: Sequence[tuple[int, ev.Event]], choice: Choice, top: int = TOP, spectator: bool = False) -> tuple[Analysis, GameState]:
    """The game of `records` (its events by seq, as stored) read by `choice`'s model; and its state at the end."""
    walk = Walk(records, choice.model)
    state = walk.state
    if choice.model is None or len(state.players) < 2:
        return _unfitted(state, choice.why if choice.model is None else "the win probability reads games of two players or more"), state
    return walk.analysis(choice.why, top, spectator), state


class Walk:
    """The fold of one game with the model read at every moment: its moves (`steps`), what each
    player and operative added (`credits`), the luck of its shots and the mission actions missed."""

    def __init__(self, records: Sequence[tuple[int, ev.Event]], model: WinModel | None):
        self.state = state = GameState()
        self.events: dict[int, ev.Event] = {}
        self.curve: list[tuple[int, list[float]]] = []
        self.expected: list[tuple[int, list[float]]] = []
        self.steps: list[tuple[int, int, ev.Event, list[float], list[float], str | None]] = []
        """(seq, turning point, event, chance change, margin change, who acted) of each moment after the first."""
        self.luck: list[ShotLuck] = []
        self.missed: list[KeyMoment] = []
        self.credits: dict[tuple[str, str | None], list[float]] = {}
        reader: Reader | None = None
        for seq, event in corrected(effective(list(records))):
            before = Checkpoint(state) if model is not None and self.curve and _probed(event, state) else None
            actor = mover(state, event) if self.curve and moves_the_board(event) else None  # only a moment's mover is asked for
            apply_in_place(state, event, seq)
            self.events[seq] = event
            if model is None or not in_battle(state) or (self.curve and not moves_the_board(event) and state.result is None):
                continue
            if reader is None:
                reader = Reader(RULESETS[state.ruleset], model.features)
            if state.result is not None:  # the result: what had been decided, not a moment
                self.curve.append((seq, result_shares(state)))
                self.expected.append((seq, self.expected[-1][1] if self.expected else [0.0] * len(state.players)))
                break
            m = reader.moment(state, event, since=before.operatives if before is not None else None)
            p, margin = chances(model, m), expected_margins(model, m)
            if self.curve and before is not None:
                self._probe(before, event, state, model, reader, p, margin)
            if self.curve:
                change = [a - b for a, b in zip(p, self.curve[-1][1])]
                gained = [a - b for a, b in zip(margin, self.expected[-1][1])]
                self.steps.append((seq, state.turning_point, event, change, gained, actor))
                if actor in state.players:
                    operative = getattr(event, "operative", None) if isinstance(event, ev.Action | ev.ActivationEnded | ev.OperativeActivated) else None
                    credit = self.credits.setdefault((actor, operative), [0.0, 0])
                    credit[0] += gained[m.players.index(actor)]
                    credit[1] += 1
            self.curve.append((seq, p))
            self.expected.append((seq, margin))

    def _probe(self, before: Checkpoint, event: ev.Event, state: GameState, model: WinModel, reader: Reader, p: list[float], margin: list[float]) -> None:
        """A dice shot's luck, or a mission action the activation ending now did not take."""
        if isinstance(event, ev.Shot):
            luck = shot_luck(before, event, state, lambda s: _read(model, reader, s, state), (p, margin), (self.curve[-1][1], self.expected[-1][1]))
            if luck is not None:
                self.luck.append(luck)
        elif isinstance(event, ev.ActivationEnded):
            missed = _missed(before, state, event.operative, model, reader, self.curve[-1][1], self.expected[-1][1])
            if missed is not None:
                self.missed.append(missed)

    def analysis(self, why: str, top: int, spectator: bool) -> Analysis:
        state = self.state
        players = list(state.players)
        if not self.curve:
            return Analysis(players, state.ruleset, why, True, [], [], None, [], [], [], LUCK_METHOD, [])
        luck = _luck_by_player(players, self.luck)
        start, end = self.curve[0][1], self.curve[-1][1]
        swings = []
        for i, player in enumerate(players):
            dice = next(x.chance for x in luck if x.player == player)
            swings.append(Swing(player, round(end[i] - start[i], 4), round(dice, 4), round(end[i] - start[i] - dice, 4)))
        return Analysis(
            players,
            state.ruleset,
            why,
            True,
            [(s, [round(x, 4) for x in p]) for s, p in self.curve],
            [(s, [round(x, 3) for x in m]) for s, m in self.expected],
            state.result.seq if state.result is not None else None,
            self._key_moments(top, spectator),
            sorted((Credit(p, o, round(e, 3), int(n)) for (p, o), (e, n) in self.credits.items()), key=lambda c: (players.index(c.player), -c.epa)),
            luck,
            LUCK_METHOD,
            swings,
        )

    def _key_moments(self, top: int, spectator: bool) -> list[KeyMoment]:
        players = list(self.state.players)
        best_missed: dict[str, KeyMoment] = {}
        for k in self.missed:  # one a player, the one the model says was worth most: a key moment is a move made
            if k.player not in best_missed or k.change > best_missed[k.player].change:
                best_missed[k.player] = k
        found = list(best_missed.values())
        for seq, tp, event, change, gained, actor in self.steps:
            i = max(range(len(players)), key=lambda k: change[k])
            if change[i] <= 0:
                continue
            acted = players.index(actor) if actor in players else i
            kind = "objective" if isinstance(event, ev.Action) and event.mission else "action"
            found.append(KeyMoment(seq, tp, kind, players[i], round(change[i], 4), round(gained[acted], 3), ""))
        found.sort(key=lambda k: (-k.change, k.seq))
        return [msgspec.structs.replace(k, description=k.description or self._label(k.seq, spectator)) for k in found[:top]]

    def _label(self, seq: int, spectator: bool) -> str:
        """What happened at seq, and what followed: damage, incapacitations, VP."""
        s = self.state
        text = describe(self.events[seq], spectator=spectator, state=s)
        followed = [f"{a.target} takes {a.damage} damage" for a in s.attacks if a.seq == seq and a.damage]
        followed += [f"{i.operative} incapacitated" for i in s.incapacitations if i.seq == seq]
        followed += [f"{v.player} +{v.vp}VP ({v.op})" for v in s.vp_log if v.seq == seq and v.vp and not (spectator and RULESETS[s.ruleset].hidden_score(s, v))]
        return text + (f": {', '.join(followed)}" if followed else "")


def mover(state: GameState, event: ev.Event) -> str | None:
    """Whose move an event is: its player's, or its operative's player's (None: neither)."""
    player = getattr(event, "player", None)
    if isinstance(player, str):
        return player
    operative = getattr(event, "operative", None)
    op = dict.get(state.operatives, operative) if isinstance(operative, str) else None
    return op.player if op else None


def _read(model: WinModel, reader: Reader, state: GameState, trial_of: GameState | None = None) -> tuple[list[float], list[float]]:
    m = reader.moment(state, trial_of=trial_of)
    return chances(model, m), expected_margins(model, m)


def _probed(event: ev.Event, state: GameState) -> bool:
    """Whether the state before `event` is kept to ask what else might have been: a shot with
    dice (its luck), or the end of an activation with AP left and no mission action yet."""
    if isinstance(event, ev.Shot):
        return len(event.attacks) == 1 and event.attacks[0].attack_dice is not None
    if isinstance(event, ev.ActivationEnded) and state.activation is not None and not state.activation.counteract:
        act = state.activation
        op = dict.get(state.operatives, act.operative)  # read only: not copied
        if op is None or op.apl - act.ap_spent < 1 or not state.markers:
            return False
        kinds = RULESETS[state.ruleset].mission_actions(state)
        return bool(kinds) and not any(a == getattr(cls, "name", None) for cls in kinds for a in act.actions)
    return False


def _missed(before: Checkpoint, ended: GameState, operative: str, model: WinModel, reader: Reader, p: list[float], margin: list[float]) -> KeyMoment | None:
    """The best mission action the rules allowed the operative before its activation ended
    (`before`: the state then; `ended`: the state after, just read), if the model says it was
    worth at least `MISSED_AT_LEAST` of its player's chance."""
    first = before.restore(logs=False)
    seq, turning_point, markers = first.seq, first.turning_point, list(first.markers)
    kinds = RULESETS[first.ruleset].mission_actions(first)
    op = first.operatives[operative]
    player = list(first.players).index(op.player)
    trials = before.trials(first)
    best: tuple[float, float, ev.Event] | None = None
    for cls in kinds:
        for marker in markers:
            event = cls(operative=operative, marker=marker)  # type: ignore[call-arg]  # a mission action on a marker names it
            after = next(trials)
            try:
                apply_in_place(after, event, seq + 1)
            except (RuleViolation, KtlogError):
                break  # the rules refuse this kind of action now (not its marker): the other markers alike
            q, m = _read(model, reader, after, ended)
            gain = q[player] - p[player]
            if best is None or gain > best[0]:
                best = (gain, m[player] - margin[player], event)
    if best is None or best[0] < MISSED_AT_LEAST:
        return None
    gain, epa, event = best
    text = f"missed: {operative} ended its activation with AP left, and {describe(event)} was worth +{gain:.0%} (if it was within reach)"
    return KeyMoment(seq + 1, turning_point, "missed", op.player, round(gain, 4), round(epa, 3), text)


def _luck_by_player(players: list[str], shots: list[ShotLuck]) -> list[Luck]:
    """Each player's luck: their shots' less the shots at them."""
    out = []
    for player in players:
        mine = [s for s in shots if s.player == player]
        theirs = [s for s in shots if s.target_player == player]
        vp = sum(s.vp for s in mine) - sum(s.vp for s in theirs)
        chance = sum(s.chance for s in mine) - sum(s.chance for s in theirs)
        out.append(Luck(player, round(vp, 3), round(chance, 4), len(mine) + len(theirs)))
    return out

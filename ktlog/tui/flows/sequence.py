"""The flows of the game's sequence that ask more than their questions' picks: the roll-off
and initiative, the crit op's D3, equipment, ploys, an activation's operative and order in one
dialog, objective control, a concession (pg 36-39, pg 110)."""

from __future__ import annotations

import random
from typing import cast

from ktlog import events as ev

from ..screens.control import ControlDialog
from ..screens.dice_dialog import RollOffDialog
from ..screens.pick import Choice, PickScreen, Question, distinct, operative_choice, player_choice
from .placing import where
from .registry import Asker, flow


def name_and_cp(text: str) -> tuple[str, int | None]:
    """'Seize Ground, 2' -> ('Seize Ground', 2); without a CP, None: the roster's cost, else 1CP."""
    name, _, cp = text.rpartition(",")
    if name and cp.strip().isdigit():
        return name.strip(), int(cp)
    return text.strip(), None


async def pick_player(screen: Asker, kind: str, title: str) -> str | None:
    """The player of a step, among those it is legal for."""
    s = screen.recorder.state
    return await screen.pick_one(title, [player_choice(p, p, s) for p in distinct(m.player for m in screen.steps.describe(kind))])


@flow("start_tp")
async def start_turning_point(screen: Asker) -> None:
    """The turning point, then its initiative roll-off (or, Approved Ops TP1, who decides: 002 step 5)."""
    if not screen.record(screen.steps.options("start_tp")[0]):
        return
    if screen.steps.legal("roll_off"):
        await roll_off(screen)
    elif screen.steps.legal("initiative"):
        await initiative(screen)


@flow("roll_off")
async def roll_off(screen: Asker) -> None:
    """The roll-off, each roll-off again its ties call for, then who decides initiative picks."""
    while True:
        event = await screen.ask(RollOffDialog(screen.steps.trial, cast(ev.RolledOff, screen.steps.options("roll_off")[0])))
        if not screen.record(event):
            return
        if screen.recorder.state.decider is not None:
            return await initiative(screen)
        if not screen.steps.legal("roll_off"):  # Multiplayer Ops: the player order is settled
            return


@flow("initiative")
async def initiative(screen: Asker) -> None:
    """Who has initiative, the decider first."""
    decider = screen.recorder.state.decider
    (move,) = screen.steps.describe("initiative")
    players = [c.value for q in move.questions for c in q.choices] or [move.fixed["player"]]
    choices = [player_choice(p, ev.InitiativeDecided(player=p), screen.recorder.state) for p in sorted(players, key=lambda p: p != decider)]
    screen.record(await screen.pick(f"{decider} gives initiative to", choices))


@flow("crit_op")
async def crit_op(screen: Asker) -> None:
    """The initiative player's D3 (pg 84), or rolled here."""
    (move,) = screen.steps.describe("crit_op")
    choices = [Choice(c.label, int(c.value)) for q in move.questions for c in q.choices]
    choices.append(Choice("roll the D3 for me", "roll", "r"))
    roll = await screen.pick("Crit op: the initiative player's D3 (pg 84)", choices)
    if roll == "roll":
        roll = random.randint(1, 3)
    screen.record(ev.CritOpRolled(roll=roll) if roll else None)


@flow("equipment")
async def equipment(screen: Asker) -> None:
    """The equipment a player selects: names separated by commas (the roster's are listed)."""
    player = await pick_player(screen, "equipment", "Equipment of")
    if player is None:
        screen.record(None)
        return
    move = next(m for m in screen.steps.describe("equipment") if m.player == player)
    listed = ", ".join(c.value for q in move.questions for c in q.choices)
    hint = "options separated by commas; empty: none" + (f" (the roster's: {listed})" if listed else "")
    text = await screen.prompt(f"Equipment selected by {player}", hint=hint)
    if text is not None:
        screen.record(ev.EquipmentSelected(player=player, equipment=tuple(x.strip() for x in text.split(",") if x.strip())))


@flow("set_up_all")
async def set_up_all(screen: Asker) -> None:
    """Set up every remaining operative in the rulebook's order (alternating thirds); in a game
    with a layout, each where the player puts it on the board (Esc stops)."""
    while screen.steps.legal("set_up"):
        if not screen.record(await where(screen, screen.steps.options("set_up")[0])):
            return


@flow("gambit")
async def gambit(screen: Asker) -> None:
    player = screen.steps.describe("gambit")[0].player or ""
    chosen = await ploy_used(screen, "gambit", player, f"Strategic gambit used by {player}")
    if chosen is not None:
        screen.record(ev.StrategicGambitUsed(player=player, gambit=chosen[0], cp=chosen[1]))


@flow("ploy")
async def ploy(screen: Asker) -> None:
    player = await pick_player(screen, "ploy", "Firefight ploy used by")
    if player is None:
        return
    chosen = await ploy_used(screen, "ploy", player, f"Firefight ploy used by {player}", " (Command Re-roll: with the dice)")
    if chosen is None:
        return
    operative = await ploy_operative(screen, player, chosen[0])
    if operative is not None:
        screen.record(ev.FirefightPloyUsed(player=player, ploy=chosen[0], cp=chosen[1], operative=operative or None))


async def ploy_used(screen: Asker, kind: str, player: str, title: str, more: str = "") -> tuple[str, int | None] | None:
    """A ploy of the player's roster by name (its CP charged by the rules), or "other…": a
    name typed, with its CP after a comma (a name the roster does not list is recorded as
    free text, with a warning). None: cancelled."""
    kind_of = "strategy" if kind == "gambit" else "firefight"
    ploys = [p for p in screen.recorder.state.players[player].ploys if p.kind == kind_of]
    name: str | None = None
    if ploys:
        choices = [Choice(f"{p.name} ({p.cp}CP)" + (f" · {p.reminder}" if p.reminder else ""), p.name) for p in ploys]
        choices.append(Choice("other… (type its name)", "", "o"))
        name = await screen.pick(title, choices)
        if name is None:
            return None
    if name:
        return name, None
    text = await screen.prompt(title, hint="its name, then a comma and the CP if not 1" + more)
    return name_and_cp(text) if text else None


async def ploy_operative(screen: Asker, player: str, ploy: str) -> str | None:
    """The player's own operative a ploy is used on, asked during an activation ("" for none;
    None: cancelled). Out of an activation a ploy names no operative."""
    s = screen.recorder.state
    if s.activation is None:
        return ""
    active = s.activation.operative
    own = sorted((op for op in s.operatives.values() if op.player == player and op.in_killzone), key=lambda op: op.id != active)
    choices = [operative_choice(op, op.id, s) for op in own]
    choices.insert(1 if own and own[0].id == active else 0, Choice("no operative", "", "0"))
    return await screen.pick(f"{ploy}: used on which of {player}'s operatives?", choices)


@flow("activate")
async def activate(screen: Asker) -> None:
    """The operative, then its order, in one dialog (the only operative: its order at once)."""
    s = screen.recorder.state
    ops = [s.operatives[e.operative] for e in cast(list[ev.OperativeActivated], screen.steps.options("activate"))]

    def order(answers: tuple) -> Question | None:
        if len(answers) > 1:
            return None
        op = answers[0]
        orders = sorted([Choice("Engage", "engage", "e"), Choice("Conceal", "conceal", "c")], key=lambda c: c.value != op.order)
        return Question(f"Order for {op.id}", orders, "e engage, c conceal (Enter keeps its order)")

    if len(ops) == 1:
        first = order((ops[0],))
        assert first is not None
        answer = await screen.pick(first.title, first.choices, first.hint)
        answers = (ops[0], answer) if answer else None
    else:
        answers = await screen.ask(PickScreen("Activate", [operative_choice(o, o, s) for o in ops], then=order))
    screen.record(ev.OperativeActivated(operative=answers[0].id, order=answers[1]) if answers else None)


@flow("control")
async def control(screen: Asker) -> None:
    screen.record(await screen.ask(ControlDialog(screen.recorder.state)))


@flow("concede")
async def concede(screen: Asker) -> None:
    s = screen.recorder.state
    player = await screen.pick("Who concedes?", [player_choice(m.player, m.player, s) for m in screen.steps.describe("concede") if m.player])
    if player is None:
        return
    sure = await screen.pick(f"{player} concedes the game: sure?", [Choice("yes, record the concession", True, "y"), Choice("no", False, "n")])
    screen.record(ev.GameConceded(player=player) if sure else None)

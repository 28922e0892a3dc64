"""The attacks: Shoot (and KT21 Overwatch) and Fight, their shooter and target picked from the
move's questions, their dice typed in the dice dialogs (pg 42-45)."""

from __future__ import annotations

from typing import cast

from ktlog import events as ev
from ktlog.rules.questions import Move
from ktlog.text.describe import describe

from ..screens.fight import FightDialog
from ..screens.pick import Choice, distinct, operative_choice
from ..screens.shoot import ShootDialog
from .placing import where
from .registry import KIND_FLOWS, Asker, flow


def choices_of(move: Move, field: str) -> list[str]:
    """The values a move's question offers for a field (its fixed value when there is no question)."""
    if field in move.fixed:
        return [move.fixed[field]]
    return distinct(c.value for q in move.questions if q.field == field for c in q.choices)


@flow("shoot")
async def shoot_action(screen: Asker) -> None:
    await shoot(screen, "shoot")


async def shoot(screen: Asker, kind: str = "shoot") -> None:
    """The shooter (when several may: KT21 Overwatch), the target, then the dice dialog. Any
    kind of move whose event is a shot is taken this way (`registry.SHOT_FLOW`)."""
    s = screen.recorder.state
    described = screen.steps.describe(kind)
    if not described:
        screen.say(screen.steps.why_not(kind), ok=False)
        return
    (move,) = described
    shooter = await screen.pick_one(f"{move.label} by", [operative_choice(s.operatives[o], o, s) for o in choices_of(move, "operative")])
    if shooter is None:
        screen.record(None)
        return
    shooting = next(q for q in move.questions if q.field == "target") if "target" not in move.fixed else None
    targets = choices_of(move, "target") if shooting is None else distinct(c.value for c in shooting.legal({**move.fixed, "operative": shooter}))
    target = await screen.pick_one("Shoot at", [operative_choice(s.operatives[t], t, s) for t in targets])
    if target is None:
        screen.record(None)
        return
    screen.record(await screen.ask(ShootDialog(screen.steps, target, s.operatives[shooter], kind)))


KIND_FLOWS["shot"] = shoot


@flow("charge")
async def charge(screen: Asker) -> None:
    """The enemy charged, each listed under its fixed key (its place in its kill team)."""
    s = screen.recorder.state
    options = cast(list[ev.Charged], screen.steps.options("charge"))
    choices = [operative_choice(s.operatives[e.targets[0]], e, s) if len(e.targets) == 1 else Choice(describe(e), e) for e in options]
    screen.record(await where(screen, await screen.pick_one("Charge: which enemy?", choices)))


@flow("guard")
async def guard(screen: Asker) -> None:
    """An operative on guard interrupts the enemy operative's activation (Guard, pg 70): it
    shoots or fights for free."""
    s = screen.recorder.state
    options = screen.steps.options("guard")
    guards = distinct(e.operative for e in cast(list[ev.Shot | ev.Fought], options))
    guarding = await screen.pick_one("Interrupt from guard", [operative_choice(s.operatives[o], o, s) for o in guards])
    if guarding is None:
        screen.record(None)
        return
    shots = [e for e in options if isinstance(e, ev.Shot) and e.operative == guarding]
    fights = [e for e in options if isinstance(e, ev.Fought) and e.operative == guarding]
    action = await screen.pick_one("From guard", [Choice(label, label, label[0].lower()) for label, some in (("Shoot", shots), ("Fight", fights)) if some])
    if action == "Shoot":
        target = await screen.pick_one("Shoot at", [operative_choice(s.operatives[t], t, s) for t in distinct(e.attacks[0].target for e in shots)])
        screen.record(await screen.ask(ShootDialog(screen.steps, target, s.operatives[guarding], "guard")) if target else None)
    elif action == "Fight":
        target = await screen.pick_one("Fight", [operative_choice(s.operatives[t], t, s) for t in distinct(e.target for e in fights)])
        screen.record(await screen.ask(FightDialog(screen.steps.trial, [e for e in fights if e.target == target])) if target else None)
    else:
        screen.record(None)


@flow("fight")
async def fight(screen: Asker) -> None:
    """The enemy fought (and the Fight action, when a killzone's own may be taken), then the dice dialog."""
    s = screen.recorder.state
    options = cast(list[ev.Fought], screen.steps.options("fight"))
    targets = distinct((e.action, e.target) for e in options)
    choices = [operative_choice(s.operatives[t], (a, t), s, "" if a == "Fight" else f" ({a})") for a, t in targets]
    chosen = await screen.pick_one("Fight", choices)
    if chosen is None:
        screen.record(None)
        return
    probes = [e for e in options if (e.action, e.target) == chosen]
    screen.record(await screen.ask(FightDialog(screen.steps.trial, probes)))

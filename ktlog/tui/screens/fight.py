"""The Fight action: both sides' attack dice, assists, optional strike and block steps, and a
quick mode that takes the damage dealt and taken only."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Label

from ktlog import events as ev
from ktlog.play.moves import Trial, dice_expected, melee
from ktlog.state import GameState, OperativeState
from ktlog.text.notation import NotationError, parse_steps

from ..markup import escape
from ..widgets.dice_entry import DiceEntry, Group
from ..widgets.text_line import TextBlock
from .dice_dialog import DiceDialog, weapon_text, wounds_text
from .prompt import TextPrompt

MAX_ASSISTS = 2


def _weapon(w: ev.Weapon | None, op: OperativeState) -> str:
    return weapon_text(w, op) if w else "no melee weapon"


class FightDialog(DiceDialog):
    BINDINGS = [
        Binding("a", "assist('assists')", "Assist"),
        Binding("A", "assist('target_assists')", "Target assist"),
        Binding("t", "steps", "Steps"),
        Binding("q", "quick", "Quick mode"),
        Binding("w", "weapon", "Weapon"),
        Binding("W", "target_weapon", "Target's weapon"),
    ]
    HINT = "type both sides' attack dice; Enter records, Esc cancels"

    def __init__(self, trial: Trial, probes: list[ev.Fought]):
        """`probes`: the legal fights against one target, one per weapon of the active operative."""
        s = trial.state
        probe = probes[0]
        self.op, self.target = s.operatives[probe.operative], s.operatives[probe.target]
        names = {p.weapon for p in probes}
        self.weapons = [w for w in melee(s, self.op) if w.name in names]
        self.target_weapons: list[ev.Weapon | None] = melee(s, self.target) or [None]
        self.weapon, self.target_weapon = self.weapons[0], self.target_weapons[0]
        super().__init__(f"{self.op.id} {probe.action.lower()}s {self.target.id}", trial)
        self.probe = probe
        self.quick = False
        self.assists = self.target_assists = 0
        self.steps: tuple[ev.FightStep, ...] | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return {"weapon": len(self.weapons) > 1, "target_weapon": len(self.target_weapons) > 1}.get(action, True)

    def entries(self) -> ComposeResult:
        yield Label(
            f"[b]{escape(self.op.id)}[/] {wounds_text(self.op)} with {_weapon(self.weapon, self.op)}"
            + (" [dim](w: another)[/]" if len(self.weapons) > 1 else "")
        )
        yield Label(
            f"[b]{escape(self.target.id)}[/] {wounds_text(self.target)} with {_weapon(self.target_weapon, self.target)}"
            + (" [dim](W: another)[/]" if len(self.target_weapons) > 1 else "")
        )
        if self.quick:
            yield DiceEntry([Group("damage dealt"), Group("damage taken")], numbers=True)
            return
        expected = dice_expected(
            self.trial.state, self.op.id, self.weapon.name, self.target.id, target_weapon=self.target_weapon.name if self.target_weapon else None
        )
        groups = [Group(f"{self.op.id}", expected.attack)]
        if self.target_weapon:
            groups.append(Group(f"{self.target.id}", expected.defence))
        yield DiceEntry(groups)

    async def action_weapon(self) -> None:
        self.weapon = self.weapons[(self.weapons.index(self.weapon) + 1) % len(self.weapons)]
        await self._rebuild()

    async def action_target_weapon(self) -> None:
        at = self.target_weapons.index(self.target_weapon)
        self.target_weapon = self.target_weapons[(at + 1) % len(self.target_weapons)]
        await self._rebuild()

    async def action_quick(self) -> None:
        self.quick = not self.quick
        await self._rebuild()

    async def _rebuild(self) -> None:
        box = self.query_one("#entries")
        await box.remove_children()
        await box.mount_all(list(self.entries()))
        self.query_one(DiceEntry).focus()
        self.update_preview()

    def action_assist(self, which: str) -> None:
        setattr(self, which, (getattr(self, which) + 1) % (MAX_ASSISTS + 1))
        self.update_preview()

    def action_steps(self) -> None:
        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                self.steps = parse_steps(text) if text.strip() else None
            except NotationError as exc:  # shown, nothing changed
                self.query_one("#preview", TextBlock).set(f"[red]{escape(str(exc))}[/]")
                return
            self.update_preview()

        self.screen.show_dialog(
            TextPrompt("Strikes and blocks in order, attacker first", hint="sc/sn strike, bcc/bcn/bnn block; empty: best strikes (ruling 7)"), done
        )

    def options_text(self) -> str:
        bits = [f"assists {self.assists}/{self.target_assists}"]
        if self.steps:
            bits.append("steps given")
        return ("[b]quick mode[/]: damage dealt, space, damage taken · " if self.quick else "") + " · ".join(bits) + " · a/A assist · t steps · q quick"

    def build(self) -> ev.Event | None:
        entry = self.query_one(DiceEntry)
        if not entry.complete:
            return None
        parts = entry.parts()
        common: dict[str, Any] = {
            "operative": self.op.id,
            "action": self.probe.action,
            "target": self.target.id,
            "weapon": self.weapon.name,
            "target_weapon": self.target_weapon.name if self.target_weapon else None,
            "assists": self.assists,
            "target_assists": self.target_assists,
            "guard": self.probe.guard,
        }
        if self.quick:
            return ev.Fought(**common, damage=int(parts[0]), damage_taken=int(parts[1]))
        target_dice = ev.Dice(rolls=tuple(map(int, parts[1]))) if self.target_weapon else None
        return ev.Fought(**common, attack_dice=ev.Dice(rolls=tuple(map(int, parts[0]))), target_dice=target_dice, steps=self.steps)

    def summary(self, new: GameState) -> str:
        lines = []
        for rec in new.attacks:
            hits = f"{rec.normal_hits} + {rec.critical_hits} crit · " if rec.mode == "dice" else ""
            lines.append(f"{rec.operative}: {hits}[b]{rec.damage} damage[/] to {rec.target} → {wounds_text(new.operatives[rec.target])}")
        return "\n".join(lines + self.effects(new))

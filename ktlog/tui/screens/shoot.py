"""The Shoot action: the dice of each shooting sequence, with cover, obscured, Accurate, re-rolls,
extra targets for Blast and Torrent, and a quick mode that takes the damage only."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Label

from ktlog import events as ev
from ktlog.play.moves import DiceExpected, active, dice_expected, played, refusal_text, shooting
from ktlog.state import GameState, OperativeState
from ktlog.text.notation import NotationError, parse_rerolls

from ..markup import escape
from ..steps import KIND, Steps
from ..widgets.dice_entry import DiceEntry, Group
from ..widgets.text_line import TextBlock
from .dice_dialog import DiceDialog, weapon_text, wounds_text
from .pick import Choice, PickScreen
from .prompt import TextPrompt


@dataclass
class Sequence:
    """One shooting sequence being entered (Blast and Torrent shoot several targets)."""

    target: str
    cover: bool = False
    obscured: bool = False
    invulnerable: bool = False
    accurate: int = 0
    rerolls: tuple[ev.Reroll, ...] = ()
    save_rerolls: tuple[ev.Reroll, ...] = ()
    digits: str = ""


class ShootDialog(DiceDialog):
    BINDINGS = [
        Binding("c", "toggle('cover')", "Cover"),
        Binding("o", "toggle('obscured')", "Obscured"),
        Binding("i", "toggle('invulnerable')", "Invulnerable save", show=False),  # offered in the options line when the target has one (KT21)
        Binding("a", "accurate", "Accurate"),
        Binding("q", "quick", "Quick mode"),
        Binding("r", "rerolls('rerolls')", "Re-rolls"),
        Binding("R", "rerolls('save_rerolls')", "Save re-rolls"),
        Binding("plus", "add_target", "Add target"),
        Binding("w", "weapon", "Weapon"),
    ]
    HINT = "type the attack dice, then the defence dice; Enter records, Esc cancels"

    def __init__(self, steps: Steps, target: str, shooter: OperativeState | None = None, action: str = "shoot"):
        """A shot at `target` (one of `steps.shot_targets()`): by the active operative, or with
        another kind of shooting move (KT21 Overwatch), by `shooter`."""
        op = shooter or active(steps.state)
        assert op is not None, "the Shoot dialog opens for the active operative or a named shooter"
        super().__init__(f"{op.id} {'shoots' if action == 'shoot' else 'performs ' + KIND[action].label}", steps.trial)
        self.steps, self.shooter, self.action = steps, op, action
        self.weapons = steps.shot_weapons(op, target, action)
        self.weapon = self.weapons[0]
        self.quick = False
        self.sequences = [Sequence(target)]
        self._early: dict[ev.Event, str | None] = {}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys for what this weapon allows only: Accurate, more targets, another weapon."""
        return {
            "accurate": bool(self.profile.accurate),
            "add_target": bool(self.profile.blast or self.profile.torrent),
            "weapon": len(self.weapons) > 1,
        }.get(action, True)

    @property
    def profile(self):
        """The weapon's rules as this ruleset plays them (KT21's Hot takes no Hot roll)."""
        return played(self.steps.state, self.weapon)

    def targets(self) -> list[str]:
        """The targets the weapon may shoot (for Blast and Torrent's extra targets)."""
        return self.steps.shot_targets(self.shooter, self.action, self.weapon)

    # --- entries ----------------------------------------------------------------------------

    def entries(self) -> ComposeResult:
        more = " [dim](w: another weapon)[/]" if len(self.weapons) > 1 else ""
        yield Label(weapon_text(self.weapon, self.shooter) + more)
        for i, seq in enumerate(self.sequences):
            yield Label(self._target_line(seq), id=f"target-{i}")
            entry = DiceEntry(self._groups(i), numbers=self.quick, id=f"dice-{i}")
            entry.set_reactive(DiceEntry.digits, seq.digits)
            yield entry

    def _groups(self, i: int) -> list[Group]:
        if self.quick:
            return [Group("damage")]
        expected = self._dice(self.sequences[i])  # the defence dice: the most that can be rolled (Piercing Crits may take more)
        groups = [Group("attack dice", expected.attack), Group("defence dice", most=expected.defence)]
        if self.profile.hot and i == len(self.sequences) - 1:
            groups.append(Group("Hot roll", 1))
        return groups

    def _dice(self, seq: Sequence) -> DiceExpected:
        return dice_expected(
            self.trial.state,
            self.shooter.id,
            self.weapon.name,
            seq.target,
            accurate=seq.accurate,
            cover=seq.cover,
            invulnerable=seq.invulnerable,
        )

    def _target_line(self, seq: Sequence) -> str:
        target = self.trial.state.operatives[seq.target]
        flags = [f for f, on in (("cover", seq.cover), ("obscured", seq.obscured), ("invulnerable save", seq.invulnerable)) if on]
        if seq.accurate:
            flags.append(f"Accurate {seq.accurate}")
        if seq.rerolls:
            flags.append("re-rolls " + " ".join(f"{r.die}={r.result}" for r in seq.rerolls))
        if seq.save_rerolls:
            flags.append("save re-rolls " + " ".join(f"{r.die}={r.result}" for r in seq.save_rerolls))
        invulnerable = f", invulnerable {target.datacard.invulnerable_save}+" if target.datacard.invulnerable_save else ""
        return f"→ [b]{target.id}[/] (Save {target.datacard.save}+{invulnerable}, {wounds_text(target)})" + (f"  [i]{', '.join(flags)}[/]" if flags else "")

    async def _rebuild(self) -> None:
        for i, seq in enumerate(self.sequences):
            entries = self.query(f"#dice-{i}")
            if entries:
                seq.digits = entries.first(DiceEntry).digits
        focused = self._current()
        box = self.query_one("#entries")
        await box.remove_children()
        await box.mount_all(list(self.entries()))
        self.query_one(f"#dice-{min(focused, len(self.sequences) - 1)}", DiceEntry).focus()
        self.update_preview()

    def _first_incomplete(self) -> int:
        """The first target whose dice are not all typed (dice fill the first target first)."""
        return next((i for i in range(len(self.sequences)) if not self.query_one(f"#dice-{i}", DiceEntry).complete), 0)

    def _current(self) -> int:
        focused = self.focused
        if isinstance(focused, DiceEntry) and focused.id and focused.id.startswith("dice-"):
            return int(focused.id.removeprefix("dice-"))
        return 0

    # --- toggles ----------------------------------------------------------------------------

    async def action_toggle(self, flag: str) -> None:
        seq = self.sequences[self._current()]
        setattr(seq, flag, not getattr(seq, flag))
        await self._rebuild()

    async def action_accurate(self) -> None:
        seq = self.sequences[self._current()]
        seq.accurate = (seq.accurate + 1) % (self.profile.accurate + 1)
        await self._rebuild()

    async def action_weapon(self) -> None:
        self.weapon = self.weapons[(self.weapons.index(self.weapon) + 1) % len(self.weapons)]
        del self.sequences[1:]  # Blast and Torrent targets belong to the weapon
        self.sequences[0].accurate = 0
        await self._rebuild()

    async def action_quick(self) -> None:
        self.quick = not self.quick
        for seq in self.sequences:
            seq.digits = ""
        await self._rebuild()

    def action_rerolls(self, field: str) -> None:
        seq = self.sequences[self._current()]
        what = "attack" if field == "rerolls" else "defence"

        async def done(text: str | None) -> None:
            if text is None:
                return
            try:
                setattr(seq, field, parse_rerolls(text))
            except NotationError as exc:  # shown, nothing changed
                self.query_one("#preview", TextBlock).set(f"[red]{escape(str(exc))}[/]")
                return
            await self._rebuild()

        self.screen.show_dialog(TextPrompt(f"Re-rolled {what} dice", hint="like 2=5/balanced 4=6/command (die=new result/rule)"), done)

    def action_add_target(self) -> None:
        if not (self.profile.blast or self.profile.torrent):
            self.query_one("#preview", TextBlock).set(f"[red]{escape(self.weapon.name)} has neither Blast nor Torrent: it shoots one target (pg 111)[/]")
            return
        chosen = {s.target for s in self.sequences}
        choices = [Choice(t, t) for t in self.targets() if t not in chosen]

        async def done(target: str | None) -> None:
            if target:
                self.sequences.append(Sequence(target))
                await self._rebuild()
                self.query_one(f"#dice-{self._first_incomplete()}", DiceEntry).focus()

        self.screen.show_dialog(PickScreen("Another target (Blast / Torrent)", choices), done)

    # --- the event --------------------------------------------------------------------------

    def options_text(self) -> str:
        keys = "c cover · o obscured · q quick mode" + (" · a Accurate" if self.profile.accurate else "")
        if any(self.trial.state.operatives[seq.target].datacard.invulnerable_save for seq in self.sequences):
            keys += " · i invulnerable save"
        keys += " · r/R re-rolls" + (" · + another target" if self.profile.blast or self.profile.torrent else "")
        return ("[b]quick mode[/]: type the damage · " if self.quick else "") + keys

    def waiting_text(self) -> str:
        """What to type next, naming the target when there are several (Blast, Torrent)."""
        i = self._first_incomplete()
        seq = self.sequences[i]
        target = f" for {seq.target}" + (f" (target {i + 1} of {len(self.sequences)}; Tab moves between them)" if len(self.sequences) > 1 else "")
        if self.quick:
            return f"type the damage inflicted{target}"
        return f"type the {self._dice(seq).attack} attack dice{target}, then the defence dice"

    def early_refusal(self) -> str | None:
        """The rules' word on the shot with no dice (quick mode, no damage): a Conceal target in
        cover is refused as soon as `c` is pressed (pg 42), not after the dice."""
        attacks = tuple(
            ev.ShootingAttack(target=seq.target, damage=0, cover=seq.cover, obscured=seq.obscured, invulnerable=seq.invulnerable) for seq in self.sequences
        )
        probe = shooting(self.steps.ruleset, self.action)(operative=self.shooter.id, weapon=self.weapon.name, attacks=attacks)
        if probe not in self._early:  # tried once for each set of targets and flags, not at each die
            refusal = self.trial.refusal(probe)
            self._early[probe] = refusal_text(refusal) if refusal else None
        return self._early[probe]

    def build(self) -> ev.Event | None:
        attacks, hot = [], None
        for i, seq in enumerate(self.sequences):
            entry = self.query_one(f"#dice-{i}", DiceEntry)
            if not entry.complete:
                return None
            parts = entry.parts()
            if self.quick:
                attacks.append(
                    ev.ShootingAttack(target=seq.target, damage=int(parts[0]), cover=seq.cover, obscured=seq.obscured, invulnerable=seq.invulnerable)
                )
                continue
            if len(parts) > 2:
                hot = int(parts[2])
            attacks.append(
                ev.ShootingAttack(
                    target=seq.target,
                    accurate=seq.accurate,
                    cover=seq.cover,
                    obscured=seq.obscured,
                    invulnerable=seq.invulnerable,
                    attack_dice=ev.Dice(rolls=tuple(map(int, parts[0])), rerolls=seq.rerolls),
                    defence_dice=ev.Dice(rolls=tuple(map(int, parts[1])), rerolls=seq.save_rerolls),
                )
            )
        return shooting(self.steps.ruleset, self.action)(operative=self.shooter.id, weapon=self.weapon.name, attacks=tuple(attacks), hot_roll=hot)

    def summary(self, new: GameState) -> str:
        lines = []
        for rec in new.attacks:
            target = new.operatives[rec.target]
            if rec.mode == "dice":
                lines.append(
                    f"{rec.target}: hits {rec.normal_hits} + {rec.critical_hits} crit · saves {rec.normal_saves} + {rec.critical_saves} crit"
                    f" · [b]{rec.damage} damage[/] → {wounds_text(target)}"
                )
            else:
                lines.append(f"{rec.target}: [b]{rec.damage} damage[/] → {wounds_text(target)}")
        before, after = self.shooter, new.operatives[self.shooter.id]
        if after.wounds != before.wounds:
            lines.append(f"Hot: {self.shooter.id} takes {before.wounds - after.wounds} → {wounds_text(after)}")
        return "\n".join(lines + self.effects(new))

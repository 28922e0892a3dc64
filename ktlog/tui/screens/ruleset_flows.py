"""The record screen's steps that only some rulesets have: Approved Ops' secret choices and tac
op VP, Joint Ops' reinforcements, KT21's VP and Overwatch. A mixin of `RecordScreen`, whose
dialogs (`pick`, `prompt`), `shoot` and `record` they use."""

# mypy: disable-error-code="attr-defined"
# A mixin: every `self.` it reads (pick, prompt, record, steps ...) is RecordScreen's, which mypy
# cannot see from here (27 findings); issue 22 turns these flows into plain functions of a screen.

from __future__ import annotations

from ktlog import events as ev
from ktlog.rulesets.approved.rules import ARCHETYPES, BEATS, PRIMARY_OPS
from ktlog.rulesets.joint.rules import is_heavy, npo_side

from .pick import Choice, PickScreen, Question, distinct, operative_label


class RulesetFlows:
    """Flows named `flow_<step>`, as the record screen runs them."""

    # --- secret choices (Approved Ops, 002 steps 2-5): shown to the players, hidden from spectators

    async def flow_tac_op(self) -> None:
        """A player's tac op: one of their kill team's archetypes, then the card's name."""
        player = await self.pick_player("tac_op", "Tac op selected by")
        if player is None:
            return self.record(None)
        archetypes = self.recorder.state.players[player].archetypes or list(ARCHETYPES)
        archetype = await self.pick_one(f"{player}'s tac op: its archetype", [Choice(a, a) for a in archetypes])
        name = await self.prompt(f"{player}'s tac op ({archetype}): its name", hint="as on the card; spectators see it once revealed") if archetype else None
        self.record(ev.TacOpSelected(player=player, tac_op=name.strip(), archetype=archetype) if name else None)

    async def flow_scouting(self) -> None:
        player = await self.pick_player("scouting", "Scouting option of")
        if player is None:
            return self.record(None)
        option = await self.pick(f"{player}'s scouting option (002 step 4)", [Choice(o.title(), o, o[0]) for o in BEATS])
        self.record(ev.ScoutingSelected(player=player, option=option) if option else None)

    async def flow_primary_op(self) -> None:
        """The primary op, a STRATEGIC GAMBIT of the first turning point (002 step 5)."""
        player = self.steps.options("primary_op")[0].player
        op = await self.pick(f"{player}'s primary op", [Choice(f"{o} op", o, o[0]) for o in PRIMARY_OPS])
        self.record(ev.PrimaryOpSelected(player=player, op=op) if op else None)

    # --- VP the players work out from the cards -------------------------------------------------

    async def flow_tac_op_vp(self) -> None:
        player, vp, reason = await self._amount_for(
            "tac_op_vp", "Tac op VP", "VP, then what on the card scored them; e.g. 2 Flank: both flanks held", who="player"
        )
        if player is not None:
            self.record(ev.TacOpScored(player=player, vp=vp, reason=reason))

    async def flow_mission_vp(self) -> None:
        """KT21: VP from the mission or a tac op card (001, capped by 004)."""
        player, vp, reason = await self._amount_for("mission_vp", "VP", "VP, then what scored them; e.g. 3 controls two markers", who="player")
        if player is None:
            return
        categories = distinct(e.category for e in self.steps.options("mission_vp") if e.player == player)
        category = await self.pick_one(f"{player}'s {vp}VP are from", [Choice(f"the {c}" if c == "mission" else "a tac op", c, c[0]) for c in categories])
        self.record(ev.MissionVPScored(player=player, vp=vp, category=category, reason=reason) if category else None)

    # --- Joint Ops and KT21 -------------------------------------------------------------------

    async def flow_reinforcements(self) -> None:
        """The NPOs' gambit: the incapacitated NPOs that return, one Heavy or two not (pg 92, 94)."""
        s = self.recorder.state
        down = [o for o in s.operatives_of(npo_side(s)) if o.incapacitated]

        def second(answers: tuple) -> Question | None:
            others = [o for o in down if not is_heavy(o) and o.id not in answers]
            if len(answers) > 1 or is_heavy(s.operatives[answers[0]]) or not others:
                return None
            return Question("Reinforcements: the second NPO that returns", [Choice(operative_label(o), o.id) for o in others])

        first = [Choice(operative_label(o), o.id) for o in down]
        chosen = await self.ask(PickScreen("Reinforcements: the NPOs that return", first, then=second))
        self.record(ev.ReinforcementsArrived(operatives=chosen) if chosen else None)

    async def flow_overwatch(self) -> None:
        """KT21 Overwatch: the expended operative, then a shot as with Shoot (001 Overwatch)."""
        s = self.recorder.state
        shooters = distinct(e.operative for e in self.steps.options("overwatch"))
        op = await self.pick_one("Overwatch by", [Choice(operative_label(s.operatives[o]), o) for o in shooters])
        if op is None:
            return self.record(None)
        await self.shoot(s.operatives[op], "overwatch")

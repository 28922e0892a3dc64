"""The line at the top of the record and replay screens: where the battle stands."""

from __future__ import annotations

from textual import events

from ktlog.rules.ruleset import listing
from ktlog.rulesets import get_ruleset
from ktlog.state import GameState
from ktlog.text.render import ap_left
from ktlog.text.results import describe_result

from ..markup import escape
from .text_line import TextBlock, parsed


def standing(s: GameState) -> str:
    """Turning point, phase, initiative (player order with three or four players) and whose
    activation it is; the crit op or the Joint Ops mission; open disputes; as markup."""
    disputes = s.open_disputes
    if not disputes:
        return battle(s)
    listed = "; ".join(f"seq {d.target} by {escape(d.raised_by or 'the table')}: {escape(d.reason)}" for d in disputes)
    return f"{battle(s)} · [bold red]provisional, {len(disputes)} open dispute{'s' if len(disputes) > 1 else ''}[/] ({listed})"


def battle(s: GameState) -> str:
    """Where the battle stands (`standing` without the disputes)."""
    ruleset = get_ruleset(s.ruleset) if s.ruleset else None
    mission = ruleset.progress(s).get("mission") if ruleset else None
    if s.phase == "setup":
        parts = ["[b]Set-up[/]", *order(s, s.setup_initiative, "set-up initiative")]
        if s.crit_op:
            parts.append(f"crit op [b]{s.crit_op}[/]")
        return " · ".join(parts + ([f"mission [b]{mission}[/]"] if mission else []))
    if s.phase == "over":
        score = [" - ".join(f"{escape(n)} {p.total_vp}" for n, p in s.players.items())] if ruleset and ruleset.ops else []
        return " · ".join(["[b]Battle over[/]", escape(describe_result(s)), *score, *([f"mission {mission}"] if mission else [])])
    parts = [f"[b]TP{s.turning_point}[/]", {"strategy": "Strategy", "firefight": "Firefight", "between": "TP ended"}[s.phase]]
    parts += order(s, s.initiative, "initiative")
    if s.phase == "strategy" and s.gambit_turn:
        parts.append(f"gambit step: [b]{escape(s.gambit_turn)}[/]")
    if s.phase == "firefight":
        act = s.activation
        if act:
            op = s.operatives[act.operative]
            verb = "counteracting" if act.counteract else "active"
            parts.append(f"{verb}: [b]{op.id}[/] ({escape(op.player)}, {ap_left(op.apl, act.ap_spent)})")
        elif s.next_player:
            due = s.due_to_activate()
            parts.append(f"[b]{escape(due)}[/] to activate" if due else "nobody left to activate")
    if s.crit_op:
        parts.append(f"crit op {s.crit_op}")
    if mission:
        parts.append(f"mission {mission}")
    return " · ".join(parts)


def order(s: GameState, first: str | None, label: str) -> list[str]:
    """Who has initiative; with three or four players the player order instead, and the
    players still to roll off again for their places (pg 99)."""
    parts = []
    if first and len(s.players) > 2:
        parts.append(f"{label.replace('initiative', 'order')} [b]{escape(' › '.join(s.order))}[/]")
    elif first:
        parts.append(f"{label} [b]{escape(first)}[/]")
    tied = [listing(g) for g in s.order_ties if len(g) > 1]
    if tied:
        parts.append(f"to roll again: [b]{escape('; '.join(tied))}[/]")
    return parts


class GameHeader(TextBlock):
    """Wraps onto a second line rather than cut off the end (a long mission, four players), and
    keeps that line while the width stays: a header that grew and shrank with each activation
    would move the operative tables under it, and lay the whole screen out twice per key."""

    DEFAULT_CSS = """
    GameHeader { height: auto; background: $primary-background; padding: 0 1; }
    """

    def show(self, state: GameState) -> None:
        self.set(standing(state))

    def relayout(self, before: str | None, text: str) -> bool:
        width, shown = self.content_size
        if not width:
            return True
        height = parsed(text).get_height(self.styles, width)  # type: ignore[arg-type]  # Textual's Content reads a widget's styles (typed as its RulesMap)
        if height > shown:
            self.styles.min_height = height
            return True
        if self.styles.min_height is None:  # pin the height it has (no change: no second layout)
            self.styles.min_height = shown
        return False

    def on_resize(self, event: events.Resize) -> None:
        """At another width the header may need fewer lines: let it shrink again."""
        if event.size.width != self._width:
            self._width = event.size.width
            self.styles.min_height = None

    _width = 0

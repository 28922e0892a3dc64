"""The league view's filter bar: league, season, round and ruleset, picked from the values
present in the database."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Select

from ktlog.analytics.league import FILTER_LABELS, Filters

PROMPTS = {"league": "any league", "season": "any season", "round": "any round", "ruleset": "PvP rulesets"}
"""What each filter shows when it is not set (the league leaves PvE games out unless asked)."""

NAMED = {"season": "season {}", "round": "round {}"}
"""Labels that read better with their name: "round 3" rather than "3"."""


def describe(filters: Filters) -> str:
    """The filters set, in a few words: "Autumn League, season 2026, round 3"."""
    values = {label: getattr(filters, label) for label in FILTER_LABELS}
    return ", ".join(NAMED.get(label, "{}").format(v) for label, v in values.items() if v) or "Every league"


class LeagueFilters(Horizontal):
    DEFAULT_CSS = """
    LeagueFilters { height: 1; }
    LeagueFilters Select { width: 1fr; margin-right: 1; }
    """

    class Changed(Message):
        def __init__(self, filters: Filters):
            super().__init__()
            self.filters = filters

    def compose(self) -> ComposeResult:
        for label in FILTER_LABELS:
            yield Select([], prompt=PROMPTS[label], compact=True, id=label)

    def offer(self, choices: dict[str, list[str]]) -> None:
        """The values to pick from (`league.filter_choices`); the filters are left unset."""
        for label, values in choices.items():
            named = NAMED.get(label, "{}")
            self.query_one(f"#{label}", Select).set_options((named.format(v), v) for v in values)

    @property
    def filters(self) -> Filters:
        values = {label: self.query_one(f"#{label}", Select).value for label in FILTER_LABELS}
        return Filters(**{label: None if v == Select.NULL else str(v) for label, v in values.items()})  # type: ignore[arg-type]  # FILTER_LABELS: the text filters

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.post_message(self.Changed(self.filters))

"""The streamer overlay's live win probability (issue 28): the model reads only what a spectator
sees. Sample game 08 is an Approved Ops game (002) whose tac ops and primary ops are secret until
revealed (002 steps 2 and 5); the spectator's view hides them (`state_view(spectator=True)`)."""

from __future__ import annotations

import msgspec
import pytest
from web_support import SAMPLE

from ktlog.analytics.key_moments import chance_now
from ktlog.analytics.winprob import WinModel
from ktlog.analytics.winprob_features import FEATURES
from ktlog.files.gamelog import read_game_log
from ktlog.play.replay import Replay
from ktlog.rulesets import get_ruleset
from ktlog.rulesets.approved.events import PrimaryOpRevealed, PrimaryOpSelected, TacOpScored, TacOpSelected
from ktlog.text.json_views import state_view

EVERY_FEATURE = WinModel(kind="logistic", features=list(FEATURES), coefficients=[0.3, 1.1, 0.4, -0.2, 0.05, 0.02, 0.1])
"""A hand-set model reading every feature, so that any of them changing would move the chance."""


@pytest.fixture(scope="module")
def sample():
    _, sealed = read_game_log(SAMPLE)
    return [envelope for envelope, _ in sealed]


def joined(replay: Replay) -> int:
    """The first seq at which both players have joined (the model reads two-player games)."""
    return next(seq for seq in range(1, replay.head + 1) if len(replay.seek(seq).players) == 2)


def other_secrets(envelopes):
    """The same game with every secret choice made otherwise: other tac op names (same
    archetypes), other reasons for the tac op VP, the other primary op. Nothing public differs."""
    swapped = {"kill": "crit", "crit": "kill", "tac": "kill"}
    changed = []
    for e in envelopes:
        p = e.payload
        if isinstance(p, TacOpSelected):
            p = msgspec.structs.replace(p, tac_op=f"Another {p.tac_op}")
        elif isinstance(p, TacOpScored):
            p = msgspec.structs.replace(p, reason="another reason")
        elif isinstance(p, PrimaryOpSelected):
            p = msgspec.structs.replace(p, op=swapped[p.op])
        changed.append(msgspec.structs.replace(e, payload=p))
    return changed


def test_secret_choices_cannot_change_the_live_chance(sample):
    """Until the primary ops are revealed (after which their half-VP is public, 002 step 7), the
    chance is the same at every moment whatever was chosen in secret."""
    variant = other_secrets(sample)
    assert [type(a.payload) for a in sample] == [type(b.payload) for b in variant] and sample != variant
    reveal = next(e.seq for e in sample if isinstance(e.payload, PrimaryOpRevealed))
    real, other = Replay(sample), Replay(variant)
    secret_seen = 0
    for seq in range(joined(real), reveal):
        mine, theirs = real.seek(seq), other.seek(seq)
        secret_seen += any(p.tac_op != q.tac_op or p.primary_op != q.primary_op for p, q in zip(mine.players.values(), theirs.players.values()))
        assert chance_now(mine, EVERY_FEATURE) == chance_now(theirs, EVERY_FEATURE), seq
    assert secret_seen > 100  # the states did differ in secret for most of the game
    assert chance_now(real.seek(reveal - 1), EVERY_FEATURE).probability != 0.5  # and the chance had moved


def test_the_live_chance_reads_the_spectators_public_figures(sample):
    """Each feature is a figure the spectator's view shows (VP, CP, operatives incapacitated,
    turning point, initiative) or comes from an attack the spectator's log shows."""
    replay = Replay(sample)
    ruleset = get_ruleset("kt24-approved")
    checked = 0
    for seq in range(joined(replay), replay.head + 1, 7):
        state = replay.seek(seq)
        view = state_view("g", state, spectator=True)
        a, b = view["players"]
        read = chance_now(state, EVERY_FEATURE).features
        down = {p["name"]: sum(o["player"] == p["name"] and o["status"] == "incapacitated" for o in view["operatives"]) for p in (a, b)}
        assert read["vp_diff"] == a["vp"]["total"] - b["vp"]["total"], seq
        assert read["cp_diff"] == a["cp"] - b["cp"], seq
        assert read["lost_diff"] == down[b["name"]] - down[a["name"]], seq
        if view["initiative"] is not None:  # between a turning point's start and its initiative it reads the last one's, shown then
            assert read["turning_point"] == view["turning_point"], seq
            assert read["initiative"] == {a["name"]: 1.0, b["name"]: -1.0}[view["initiative"]], seq
            checked += 1
        assert read["vp_diff_late"] == read["vp_diff"] * read["turning_point"] / 4
    assert checked > 20
    events = dict(replay.timeline.records)
    final = replay.final
    assert final.attacks and not any(ruleset.hidden(final, events[a.seq]) for a in final.attacks)  # every attack is in the spectator's log

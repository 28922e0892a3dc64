"""The streamer overlay's live win probability (issues 28, 41): the model reads only what a
spectator sees. Sample game 08 is an Approved Ops game (002) whose tac ops and primary ops are
secret until revealed (002 steps 2 and 5); the spectator's view hides them (`state_view(spectator=True)`)."""

from __future__ import annotations

import msgspec
import pytest
from web_support import SAMPLE

from ktlog.analytics.key_moments import chance_now
from ktlog.analytics.winprob import Choice, WinModel
from ktlog.analytics.winprob_features import features_of, terms
from ktlog.files.gamelog import read_game_log
from ktlog.play.replay import Replay
from ktlog.rulesets import RULESETS, get_ruleset
from ktlog.rulesets.approved.events import PrimaryOpRevealed, PrimaryOpSelected, TacOpScored, TacOpSelected
from ktlog.text.json_views import state_view

FEATURES = list(features_of(RULESETS["kt24-approved"]))
EVERY_FEATURE = Choice(WinModel(ruleset="kt24-approved", features=FEATURES, win=[0.1 * (1 + i % 7) for i in range(len(terms(FEATURES)))]), "hand-set")
"""A hand-set model reading every feature, so that any of them changing would move the chance."""


@pytest.fixture(scope="module")
def sample():
    _, sealed = read_game_log(SAMPLE)
    return [envelope for envelope, _ in sealed]


def joined(replay: Replay) -> int:
    """The first seq of the battle (the chance is read from then on)."""
    return next(seq for seq in range(1, replay.head + 1) if replay.seek(seq).phase not in ("setup",))


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
    assert chance_now(real.seek(reveal - 1), EVERY_FEATURE).chances != [0.5, 0.5]  # and the chance had moved


def test_the_live_chance_reads_the_spectators_public_figures(sample):
    """Each feature is a figure the spectator's view shows (VP, CP, operatives in the killzone,
    operatives to activate, turning point, initiative, tac ops revealed), each player's less the other's."""
    replay = Replay(sample)
    checked = 0
    for seq in range(joined(replay), replay.head, 7):
        state = replay.seek(seq)
        view = state_view("g", state, spectator=True)
        a, b = view["players"]
        read = chance_now(state, EVERY_FEATURE).features
        ops = {p["name"]: [o for o in view["operatives"] if o["player"] == p["name"]] for p in (a, b)}
        alive = {n: sum(o["status"] not in ("incapacitated", "escaped") for o in v) for n, v in ops.items()}
        ready = {n: sum(o["status"] == "ready" for o in v) for n, v in ops.items()}
        assert read["vp"] == [a["vp"]["total"] - b["vp"]["total"], b["vp"]["total"] - a["vp"]["total"]], seq
        assert read["cp"][0] == a["cp"] - b["cp"], seq
        assert read["operatives"][0] == alive[a["name"]] - alive[b["name"]], seq
        assert read["to_activate"][0] == ready[a["name"]] - ready[b["name"]], seq
        assert read["turning_point"] == [view["turning_point"]], seq
        if view["initiative"] is not None:
            assert read["initiative"][0] == {a["name"]: 1.0, b["name"]: -1.0}[view["initiative"]], seq
            checked += 1
    assert checked > 20
    ruleset = get_ruleset("kt24-approved")
    events = dict(replay.timeline.records)
    final = replay.final
    assert final.attacks and not any(ruleset.hidden(final, events[a.seq]) for a in final.attacks)  # every attack is in the spectator's log

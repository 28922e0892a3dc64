"""The legal moves (ktlog/play/moves.py) and the record screen's steps (tui/steps.py): an action
the active operative cannot take at all is refused after one trial, the moves found are those
every candidate tried would give, and every kind of move has a key."""

from __future__ import annotations

import pytest
from tui_support import tiny_game

from ktlog import events as ev
from ktlog.data import SAMPLE_GAMES
from ktlog.errors import RuleViolation
from ktlog.files.gamelog import read_game_log
from ktlog.play.moves import MOVES, Moves, Trial, ruleset_moves
from ktlog.play.replay import Replay
from ktlog.rules.actions import check_action
from ktlog.rules.context import Ctx
from ktlog.rulesets import RULESETS, get_ruleset
from ktlog.state import encode_state
from ktlog.tui.steps import KIND, Steps


def counted(monkeypatch) -> list[ev.Event]:
    """The events Trial.refusal is asked about from now on."""
    tried: list[ev.Event] = []
    original = Trial.refusal

    def refusal(self, event):
        tried.append(event)
        return original(self, event)

    monkeypatch.setattr(Trial, "refusal", refusal)
    return tried


def shot_once(store) -> Moves:
    """Alice's first trooper has shot Bob's first trooper (quick mode) and has AP left."""
    game_id = tiny_game(store)
    for event in (
        ev.OperativeActivated(operative="trooper-1", order="engage"),
        ev.Shot(operative="trooper-1", weapon="Rifle", attacks=(ev.ShootingAttack(target="bob-trooper-1", damage=0),)),
    ):
        store.append(game_id, event)
    return Moves(store.state(game_id))


def test_an_action_already_taken_is_refused_after_one_trial(store, monkeypatch):
    steps = shot_once(store)
    tried = counted(monkeypatch)
    assert not steps.legal("shoot")
    assert [type(e) for e in tried] == [ev.Shot]  # two enemies to shoot at; the second is not tried
    assert "already performed Shoot this activation" in str(steps.refusal("shoot"))
    assert steps.shot_targets(steps.state.operatives["trooper-1"]) == []
    assert len(tried) == 1


def test_an_action_still_open_is_tried_target_by_target(store, monkeypatch):
    steps = shot_once(store)
    tried = counted(monkeypatch)
    assert steps.legal("charge")  # Charge is still open: its first candidate is accepted
    assert [e.targets for e in steps.options("charge")] == [("bob-trooper-1",), ("bob-trooper-2",)]
    assert len(tried) == 3


def test_the_shared_checks_change_nothing(store):
    steps = shot_once(store)
    state, ruleset = steps.state, get_ruleset(steps.state.ruleset)
    before = encode_state(state)
    again = ev.Shot(operative="trooper-1", weapon="Rifle", attacks=(ev.ShootingAttack(target="bob-trooper-2", damage=0),))
    with pytest.raises(RuleViolation, match="already performed Shoot"):
        check_action(Ctx(state, again, state.seq + 1, ruleset), again)
    dash = ev.Dashed(operative="trooper-1")
    op, cost = check_action(Ctx(state, dash, state.seq + 1, ruleset), dash)
    assert (op.id, cost, state.activation.ap_spent) == ("trooper-1", 1, 1)
    assert encode_state(state) == before


def kinds(state) -> list[str]:
    return [*MOVES, *ruleset_moves(RULESETS[state.ruleset])]


def every_candidate(state) -> dict[str, bool]:
    """Each kind's legality, found by trying every candidate (no short cut)."""
    trial, plain = Trial(state), Moves(state)
    return {k: any(trial.refusal(e) is None for e in plain.candidates(k)) for k in kinds(state)}


@pytest.mark.parametrize("name", ["01", "10", "14"])
def test_the_steps_found_are_those_every_candidate_gives(name):
    _, sealed = read_game_log(next(SAMPLE_GAMES.glob(f"{name}_*.jsonl")))
    replay = Replay([e for e, _ in sealed])
    for seq in range(1, replay.head + 1, 3):
        state = replay.seek(seq)
        moves = Moves(state)
        assert {k: moves.legal(k) for k in kinds(state)} == every_candidate(state), f"seq {seq}"


def test_every_kind_of_move_has_a_key():
    every = {*MOVES, *(kind for r in RULESETS.values() for kind in ruleset_moves(r))}
    assert every == set(KIND)


def test_a_step_no_ruleset_of_the_game_has_says_so(store):
    steps = Steps(store.state(tiny_game(store)))
    assert not steps.part_of("overwatch") and steps.why_not("overwatch") == "Overwatch is not part of KT24 Preliminary Ops"

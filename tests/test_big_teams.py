"""The rules' cost per event independent of the teams' size (issue 26), without changing what
they decide: checkpoints share the operatives with the state (`state.Operatives`), an event
copies only the operatives it looks up, and the loops over every operative read without copying.
Each property compares with a fold that takes no checkpoint at all, on random simulated games
of every ruleset with a simulator and on a game of two 100-operative kill teams."""

from __future__ import annotations

import ast
import copy
import pickle
import random
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from conftest import game
from folding import states_after_each_event
from hypothesis import given, settings
from hypothesis import strategies as st

import ktlog
from ktlog.events import Annotation, Event, EventVoided, OperativeActivated
from ktlog.files.rosters import Roster, RosterOperative
from ktlog.play.builder import charge, killzone_action
from ktlog.play.simulate import load_sim_rosters, simulate_games
from ktlog.reducer import apply_in_place, effective, fold, fold_with_snapshots, numbered
from ktlog.rulesets import RULESETS
from ktlog.state import PLAYER_SET_UP, PLAYER_STATUS, Checkpoint, GameState, Operatives, OperativeState, _copy_operative, decode_state

ROSTERS = load_sim_rosters()
SIMULATED = sorted(name for name, ruleset in RULESETS.items() if ruleset.simulator)


def recorded_with_undos(events: list[Event], seed: int) -> list[Event]:
    """The game's events as a fallible scorer records them: notes, and one or two events at a
    time undone and entered again (the undos nest: the later event is voided first)."""
    rng = random.Random(seed)
    out: list[Event] = [events[0]]
    i = 1
    while i < len(events):
        roll = rng.random()
        if roll < 0.15 and i + 1 < len(events):  # two events, then both undone, then again
            first, second = len(out) + 1, len(out) + 2
            out += [events[i], events[i + 1], EventVoided(target=second), EventVoided(target=first), events[i], events[i + 1]]
            i += 2
            continue
        out.append(events[i])
        if roll < 0.35:
            out += [EventVoided(target=len(out)), events[i]]
        elif roll < 0.5:
            out.append(Annotation(target=len(out), text="note"))
        i += 1
    return out


def simulated(ruleset: str, seed: int, rosters: list[Roster] = ROSTERS) -> list[Event]:
    """A random game's events that count, without its own undos and notes (whose seqs
    `recorded_with_undos` would shift)."""
    ((_, g),) = simulate_games(1, seed, rosters=rosters, ruleset=ruleset)
    return [e for _, e in effective(numbered(g.events)) if not e.meta]


def big_teams(size: int) -> list[Roster]:
    """Each sample kill team grown to `size` operatives (its datacards in turn)."""
    return [
        Roster(
            r.name,
            r.faction,
            r.archetypes,
            tuple(RosterOperative(f"{o.id}-{i}", o.datacard) for i in range(size) for o in r.operatives[i % len(r.operatives) :][:1]),
            r.path,
        )
        for r in ROSTERS
    ]


@settings(max_examples=5, deadline=None)
@given(ruleset=st.sampled_from(SIMULATED), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_the_fold_with_checkpoints_decides_as_a_fold_without_any(ruleset, seed, data):
    """The import's fold (a snapshot at every seq) gives at each seq drawn, and at the end, the
    state of a fold that takes no checkpoint (the undone events left out from the start)."""
    events = recorded_with_undos(simulated(ruleset, seed), seed)
    final, snapshots = fold_with_snapshots(numbered(events), every=1)
    assert [seq for seq, _ in snapshots] == list(range(1, len(events) + 1))
    assert final == fold(events)
    for seq in data.draw(st.lists(st.integers(1, len(events)), min_size=5, max_size=10)):
        assert decode_state(snapshots[seq - 1][1]) == fold(events[:seq]), (ruleset, seq)


def test_a_game_of_two_100_operative_teams_folds_as_without_checkpoints():
    events = recorded_with_undos(simulated("kt24-preliminary", 3, big_teams(100)), 3)
    assert sum(isinstance(e, EventVoided) for e in events) > 100
    final, snapshots = fold_with_snapshots(numbered(events), every=400)
    assert len(final.operatives) == 200
    assert final == fold(events)
    for seq, blob in snapshots:
        assert decode_state(blob) == fold(events[:seq])


@settings(max_examples=5, deadline=None)
@given(ruleset=st.sampled_from(SIMULATED), seed=st.integers(0, 2**32 - 1))
def test_the_counts_of_operatives_kept_on_the_operatives_are_counts_of_them_after_every_event(ruleset, seed):
    """The counts a state keeps of its operatives (`GameState.count`: by player and set up, by
    player and status), once counted, are kept true by the rules that add and change operatives
    and restored with the operatives a checkpoint restores: after every event of a game recorded
    with undos, folded as the import folds it (a checkpoint at every seq), each is what a count
    of the operatives gives."""
    events = recorded_with_undos(simulated(ruleset, seed), seed)
    state, kept, counted = GameState(), {}, Counter()
    for seq, event in enumerate(events, 1):
        if isinstance(event, EventVoided):
            state = kept[event.target - 1].restore()
        else:
            apply_in_place(state, event, seq)
        kept[seq] = Checkpoint(state)
        assert isinstance(state.operatives, Operatives)
        for by, count in state.operatives.counts.items():
            counted[by] += 1
            assert Counter(count) == Counter(map(by, state.scan())), (ruleset, seq, by)  # a value counted by none: missing or 0
    assert counted[PLAYER_SET_UP] and counted[PLAYER_STATUS]


@settings(max_examples=6, deadline=None)
@given(ruleset=st.sampled_from(SIMULATED), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_a_checkpoint_is_the_state_it_was_taken_of_whatever_follows(ruleset, seed, data):
    """The state is changed after its checkpoint, and a restored copy after another: the
    checkpoint and each copy restored from it stay as they were."""
    events = simulated(ruleset, seed)
    k = data.draw(st.integers(1, len(events) - 1))
    live = fold(events[:k])
    kept = Checkpoint(live)
    for seq, event in enumerate(events[k:], k + 1):
        apply_in_place(live, event, seq)
    assert live == fold(events)
    first, second = kept.restore(), kept.restore()
    for seq, event in enumerate(events[k:], k + 1):
        apply_in_place(first, event, seq)
    assert first == fold(events)
    assert second == kept.restore() == fold(events[:k])


@settings(max_examples=5, deadline=None)
@given(ruleset=st.sampled_from(SIMULATED), seed=st.integers(0, 2**32 - 1))
def test_control_range_is_mutual_after_every_event(ruleset, seed):
    """`engaged_with` is kept on both sides (Charge, pg 41; Fall Back, pg 40; incapacitation,
    pg 47), which lets the guards an action ends near be found from the operative's own."""
    for state in states_after_each_event(simulated(ruleset, seed)):
        for op in state.scan():
            assert all(op.id in state.operatives[other].engaged_with for other in op.engaged_with), (state.seq, op.id)


def test_guards_an_action_ends_near_are_noted_in_the_games_operative_order_pg70():
    """Bob's b1 charges a2 then a1, both on guard (Guard, Killzone: Gallowdark pg 70): both are
    noted, a1 first, as the game lists its operatives, whatever order the Charge named them in."""
    g = game(2, 2, killzone="gallowdark")
    g.activate("a1", "engage", killzone_action("Guard"))
    g.activate("b2", "conceal")
    g.activate("a2", "engage", killzone_action("Guard"))
    g.add(OperativeActivated(operative="b1", order="engage"), charge("a2", "a1")("b1"))
    assert g.state.operatives["b1"].engaged_with == ["a2", "a1"]
    assert g.state.activation.near_guards == ["a1", "a2"]


def _frozen(t: msgspec.inspect.Type) -> bool:
    if isinstance(t, msgspec.inspect.UnionType):
        return all(_frozen(x) for x in t.types)
    if isinstance(t, msgspec.inspect.StructType):
        return t.cls.__struct_config__.frozen
    return isinstance(
        t,
        msgspec.inspect.StrType
        | msgspec.inspect.IntType
        | msgspec.inspect.FloatType
        | msgspec.inspect.BoolType
        | msgspec.inspect.NoneType
        | msgspec.inspect.LiteralType,
    )


def test_an_operatives_copy_shares_nothing_the_rules_change_in_place():
    """A field added to OperativeState that can change in place must be copied by `_copy_operative`."""
    fields = msgspec.inspect.type_info(OperativeState).fields
    assert {f.name for f in fields if not _frozen(f.type)} == {"engaged_with", "apl_changes", "weapon_uses"}
    g = game(1, 1)
    op = g.state.operatives["a1"]
    copy = _copy_operative(op)
    assert copy == op and copy.datacard is op.datacard
    assert copy.engaged_with is not op.engaged_with and copy.apl_changes is not op.apl_changes and copy.weapon_uses is not op.weapon_uses


@pytest.mark.parametrize("read", ["index", "get", "values", "items"])
def test_a_state_changed_after_its_checkpoint_leaves_the_checkpoint_as_it_was(read):
    g = game(2, 2)
    state = g.state
    kept = Checkpoint(state)
    op = {
        "index": lambda: state.operatives["a1"],
        "get": lambda: state.operatives.get("a1"),
        "values": lambda: state.operatives.values()[0],
        "items": lambda: state.operatives.items()[0][1],
    }[read]()
    op.wounds -= 3
    op.engaged_with.append("b1")
    assert state.operatives["a1"].wounds == op.datacard.wounds - 3
    assert kept.restore().operatives["a1"] == fold(g.events).operatives["a1"]


def test_a_state_with_a_checkpoint_copies_and_pickles_as_its_operatives_are():
    g = game(2, 2)
    Checkpoint(g.state)
    assert copy.deepcopy(g.state) == g.state == pickle.loads(pickle.dumps(g.state))


def test_the_rules_change_an_operatives_counted_fields_only_through_the_state():
    """The counts a state keeps (`GameState.count`) stay true only while every change of an
    operative's status or set-up goes through `GameState.change`: no rule assigns them itself."""
    package = Path(ktlog.__file__).parent
    assigned = [
        f"{path.relative_to(package)}:{node.lineno}"
        for folder in ("rules", "rulesets")
        for path in sorted((package / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr in ("status", "set_up")
    ]
    assert assigned == []

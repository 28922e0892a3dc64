"""The sample games: each file's header states the hand-worked result, and the events give it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from conftest import ROOT

from ktlog.data import SAMPLE_GAMES
from ktlog.events import Annotation, EventVoided, Fought, Shot
from ktlog.files.gamelog import header_result, read_game_log
from ktlog.reducer import effective, fold

SAMPLES = SAMPLE_GAMES
FILES = sorted(SAMPLES.glob("*.jsonl"))


def load(path: Path):
    header, sealed = read_game_log(path)
    records = [(e.seq, e.payload) for e, _ in sealed]
    return header, records, fold(records)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_header_result_is_what_the_events_give(path):
    header, _, state = load(path)
    assert header.result is not None
    assert header.result == header_result(state)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_file_is_up_to_date_with_its_script(path):
    spec = importlib.util.spec_from_file_location("build", ROOT / "tools" / "sample_games" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    lines, expected, computed = build.game_log_lines(ROOT / "tools" / "sample_games" / "scripts" / f"{path.stem}.py")
    assert expected == computed
    assert path.read_bytes() == b"\n".join(lines) + b"\n", "run `make samples`"


def test_the_set_covers_what_the_issue_asks_for():
    games = {p.stem: load(p) for p in FILES}
    assert len(games) >= 6
    assert {state.crit_op for _, _, state in games.values() if state.crit_op} == {"Secure", "Loot", "Transmission"}
    rows = {state.starting_operatives(p) for _, _, state in games.values() for p in state.players}
    assert len(rows) >= 3, rows  # several kill grade table rows
    assert any(state.result.draw for _, _, state in games.values())
    assert any(state.result.ended_by == "concession" for _, _, state in games.values())

    def wiped_out_before_tp4(state):
        return any(
            state.result.ended_by == "battle"
            and all(o.incapacitated for o in state.operatives_of(p))
            and max(i.turning_point for i in state.incapacitations if i.player == p) < 4
            for p in state.players
        )

    assert any(wiped_out_before_tp4(state) for _, _, state in games.values())
    assert any(
        sum(isinstance(e, EventVoided) for _, e in records) >= 3 and sum(isinstance(e, Annotation) for _, e in records) >= 3 for _, records, _ in games.values()
    )

    def dice_for_every_attack(records):
        kept = [e for _, e in effective(records)]
        shots = [a for e in kept if isinstance(e, Shot) for a in e.attacks]
        fights = [e for e in kept if isinstance(e, Fought)]
        return shots and all(a.attack_dice is not None for a in shots) and all(f.damage is None and f.damage_taken is None for f in fights)

    assert sum(dice_for_every_attack(records) for _, records, _ in games.values()) >= 3

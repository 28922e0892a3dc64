"""The sample battles with positions (ktlog/data/battles/, issue 44): each is what its script
builds, gives its hand-worked result, exports and imports byte for byte and draws its board at
any moment."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from ktlog.cli import cli
from ktlog.data import SAMPLE_BATTLES
from ktlog.files.gamelog import header_result, read_game_log
from ktlog.reducer import fold

FILES = sorted(SAMPLE_BATTLES.glob("*.jsonl"))


def test_there_is_a_battle_on_each_shipped_layout():
    from ktlog.files.layouts import shipped

    layouts = set()
    for path in FILES:
        _, sealed = read_game_log(path)
        layouts.add(sealed[0][0].payload.layout.name)
    assert layouts == {f"{name.replace('-like', '').title()}-like {kind} (illustrative)" for name, kind in (("volkus", "ruins"), ("gallowdark", "corridors"))}
    assert len(FILES) == len(shipped()) == 2


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_file_is_its_script_and_gives_its_result(path):
    spec = importlib.util.spec_from_file_location("build", ROOT / "tools" / "sample_games" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    lines, expected, computed = build.game_log_lines(ROOT / "tools" / "sample_games" / "battles" / f"{path.stem}.py")
    assert expected == computed
    assert path.read_bytes() == b"\n".join(lines) + b"\n", "run `make samples`"
    header, sealed = read_game_log(path)
    state = fold([(e.seq, e.payload) for e, _ in sealed])
    assert header_result(state) == header.result
    assert all(o.x is not None for o in state.operatives.values() if o.in_killzone)


def invoke(db: Path, *args: object):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    return result


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_exports_and_imports_byte_for_byte(path, tmp_path):
    assert invoke(tmp_path / "one.db", "import", path).exit_code == 0
    game = read_game_log(path)[1][0][0].game_id
    first = tmp_path / "first.jsonl"
    assert invoke(tmp_path / "one.db", "export", game[:8], "-o", first).exit_code == 0
    assert invoke(tmp_path / "two.db", "import", first).exit_code == 0
    second = tmp_path / "second.jsonl"
    assert invoke(tmp_path / "two.db", "export", game[:8], "-o", second).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    assert [e.hash for e, _ in read_game_log(first)[1]] == [e.hash for e, _ in read_game_log(path)[1]]  # the chain as shipped
    assert "verified" in invoke(tmp_path / "two.db", "verify").output


def test_chart_board_draws_the_battle_at_a_moment(tmp_path):
    db = tmp_path / "b.db"
    path = SAMPLE_BATTLES / "16_volkus_board.jsonl"
    invoke(db, "import", path)
    _, sealed = read_game_log(path)
    game = sealed[0][0].game_id
    # the plasma gunner's activation in turning point 1: a reposition then a shot at the heavy gunner
    shot_seq = next(e.seq for e, _ in sealed if type(e.payload).__name__ == "Shot" and e.payload.operative == "gunner-plasma")
    out = tmp_path / "board.svg"
    result = invoke(db, "chart", "board", game[:8], "--at", shot_seq, "-o", out)
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    assert svg.startswith("<svg") and f"after seq {shot_seq}" in svg
    assert svg.count('class="operative"') == 6
    assert "gunner-plasma (Alice), engage, 4/8 wounds" in svg and "heavy-gunner (Bob), engage, 9/14 wounds" in svg
    assert len(re.findall(r"<polyline [^>]*stroke-dasharray", svg)) == 1  # the plasma gunner's move
    assert svg.count("<line ") == 1 and 'x1="528.0" y1="324.0"' in svg  # its shot, from where it moved to (22, 13.5), 24 px an inch
    start = tmp_path / "start.svg"
    invoke(db, "chart", "board", game[:8], "--at", 0, "-o", start)
    assert 'class="operative"' not in start.read_text()


def test_chart_board_refuses_what_it_cannot_draw(tmp_path):
    db = tmp_path / "b.db"
    invoke(db, "import", SAMPLE_BATTLES / "16_volkus_board.jsonl")
    from ktlog.data import SAMPLE_GAMES

    invoke(db, "import", SAMPLE_GAMES / "01_secure_kasrkin_vs_legionaries.jsonl")
    no_board = invoke(db, "chart", "board", "334f68f6", "-o", tmp_path / "x.svg")
    assert no_board.exit_code == 1 and "records no positions" in no_board.output and not (tmp_path / "x.svg").exists()
    png = invoke(db, "chart", "board", "5b0a7c1e", "-o", tmp_path / "x.png")
    assert png.exit_code == 1 and "give a file ending .svg" in png.output
    late = invoke(db, "chart", "board", "5b0a7c1e", "--at", 999, "-o", tmp_path / "x.svg")
    assert late.exit_code == 1 and "has 112 events" in late.output

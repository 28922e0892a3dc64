"""`ktlog import --jobs N`: the files are read and checked by N processes (by default the cores
this process may use), and whatever N, each file is imported whole or refused whole, and the
reports come in the files' order."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ktlog.cli import cli
from ktlog.errors import GameLogError
from ktlog.files.gamelog import export_lines, write_game_log
from ktlog.play import importer
from ktlog.play.importer import available_cores, import_files
from ktlog.play.simulate import simulate_games
from ktlog.storage.store import Store


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Seven games as files, one of them twice (the second is unchanged), a broken copy of
    another (refused at its line) and a file that is not a game log."""
    folder = tmp_path_factory.mktemp("jobs")
    with Store(folder / "table.db") as table:
        for n, (game_id, g) in enumerate(simulate_games(7, 29)):
            table.new_game(g.events[0], g.events[1:], game_id=game_id)
            write_game_log(folder / f"game{n}.jsonl", export_lines(table, game_id))
    write_game_log(folder / "game3-again.jsonl", (folder / "game3.jsonl").read_bytes().splitlines())
    lines = (folder / "game5.jsonl").read_bytes().splitlines()
    lines[40] = lines[40].replace(b'"seq":40', b'"seq":41')
    write_game_log(folder / "game5-broken.jsonl", lines)
    (folder / "notes.jsonl").write_text("not a game log\n")
    return folder


def paths(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.jsonl"))


def outcome(result) -> tuple:
    if isinstance(result, GameLogError):
        return ("refused", result.path, result.line)
    return (result.status, result.path, result.game_id, result.events_added)


def stored(db: Path) -> list[tuple]:
    with Store(db) as store:
        return store.conn.execute("SELECT game_id, seq, hash FROM events ORDER BY game_id, seq").fetchall()


def test_any_number_of_jobs_gives_the_same_reports_in_order_and_the_same_database(folder, tmp_path):
    runs = {}
    for jobs in (1, 2, 3, 5):
        db = tmp_path / f"jobs{jobs}.db"
        with Store(db) as store, store.batch():
            runs[jobs] = [outcome(r) for r in import_files(store, paths(folder), jobs)]
        runs[jobs] = (runs[jobs], stored(db))
    reports, events = runs[1]
    assert [r[0] for r in reports] == ["imported"] * 4 + ["unchanged", "imported", "refused", "imported", "imported", "refused"]
    assert [r[1] for r in reports] == [str(p) for p in paths(folder)]
    assert reports[6][2] == 41  # game5-broken's line (lines[40], after the header), named
    assert all(run == (reports, events) for run in runs.values())


def test_the_checking_processes_follow_the_jobs(folder, tmp_path, monkeypatch):
    started = []
    real = importer._start_checker

    def counted(*args):
        checker = real(*args)
        started.append(checker is not None)  # None: the system could not fork one (a loaded machine), and no more are asked for
        return checker

    def asked(checkers: int) -> bool:
        """As many checkers started as the jobs ask for, or fewer only when the last could not start."""
        return started.count(True) == checkers or (bool(started) and started[-1] is False and len(started) <= checkers)

    monkeypatch.setattr(importer, "_start_checker", counted)
    for jobs, checkers in ((1, 0), (2, 1), (4, 3), (50, len(paths(folder)) - 1)):
        started.clear()
        with Store(tmp_path / f"count{jobs}.db") as store:
            list(import_files(store, paths(folder), jobs))
        assert asked(checkers), (jobs, started)
    monkeypatch.setattr(importer, "available_cores", lambda: 3)
    started.clear()
    with Store(tmp_path / "default.db") as store:
        list(import_files(store, paths(folder)))
    assert asked(2), started  # this process is the third


def test_the_cores_are_those_this_process_may_use():
    if hasattr(os, "sched_getaffinity"):
        assert available_cores() == len(os.sched_getaffinity(0))
    assert 1 <= available_cores() <= (os.cpu_count() or 1)


def test_a_checker_that_dies_leaves_its_file_to_the_importing_process(folder, tmp_path, monkeypatch):
    parent = os.getpid()
    real = importer._checked

    def dies_on_game2(path):
        if os.getpid() != parent and path.name == "game2.jsonl":
            os._exit(3)
        return real(path)

    monkeypatch.setattr(importer, "_checked", dies_on_game2)
    with Store(tmp_path / "dies.db") as store:
        reports = [outcome(r) for r in import_files(store, paths(folder), 3)]
    with Store(tmp_path / "alone.db") as store:
        alone = [outcome(r) for r in import_files(store, paths(folder), 1)]
    assert reports == alone and stored(tmp_path / "dies.db") == stored(tmp_path / "alone.db")


def test_import_takes_jobs_and_refuses_none(folder, tmp_path):
    db = tmp_path / "cli.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "import", "--jobs", "2", *map(str, paths(folder))])
    assert result.exit_code == 1 and "10 files: 7 new, 0 extended, 1 unchanged, 2 refused" in result.stderr
    refused = CliRunner().invoke(cli, ["--db", str(db), "import", "--jobs", "0", str(paths(folder)[0])])
    assert refused.exit_code == 2 and "--jobs" in refused.output


def test_a_folder_stands_for_its_game_log_and_game_files(tmp_path):
    """`ktlog import FOLDER`: its .jsonl and .ktgame files, in name order; not its subfolders'
    files nor other files; a folder with none is refused before anything is imported."""
    import shutil

    from conftest import ROOT

    from ktlog.data import SAMPLE_GAMES

    club = tmp_path / "club"
    (club / "old").mkdir(parents=True)
    samples = sorted(SAMPLE_GAMES.glob("*.jsonl"))[:2]
    for sample in samples:
        shutil.copy(sample, club / sample.name)
    shutil.copy(samples[0], club / "old" / "copy.jsonl")
    shutil.copy(ROOT / "ktlog" / "data" / "examples" / "first-activations.ktgame", club / "z.ktgame")
    (club / "notes.txt").write_text("not a game")
    db = tmp_path / "central.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "import", str(club)])
    assert result.exit_code == 0, result.output
    assert "3 files: 3 new, 0 extended, 0 unchanged, 0 refused" in result.output
    assert "copy.jsonl" not in result.output and "notes.txt" not in result.output
    empty = tmp_path / "empty"
    (empty / "sub").mkdir(parents=True)
    refused = CliRunner().invoke(cli, ["--db", str(tmp_path / "other.db"), "import", str(empty)])
    assert refused.exit_code == 2 and "no game-log (.jsonl) or game (.ktgame) files in it; nothing was imported" in refused.output
    assert not (tmp_path / "other.db").exists()


def test_the_writer_only_inserts_what_a_checker_handed_over(folder, tmp_path, monkeypatch):
    """Issue 26: a checking process hands over the rows to insert (events, snapshots, projection
    rows, the games row's columns); the importing process neither folds, nor decodes a state, nor
    derives a row, so more checkers are not held back by it."""
    from ktlog.reducer import fold
    from ktlog.storage import event_log as store_module
    from ktlog.storage import projections

    path = sorted(folder.glob("*.jsonl"))[0]
    checked = importer._checked(path)

    def derived_here(*args, **kwargs):
        raise AssertionError("the writer derived what the checker should have handed over")

    for module, name in ((projections, "rows_since"), (projections, "game_columns"), (store_module, "fold_with_snapshots"), (store_module, "decode_state")):
        monkeypatch.setattr(module, name, derived_here, raising=False)
    with Store(tmp_path / "writer.db") as store:
        report = importer._import_checked(store, checked)
        monkeypatch.undo()
        assert report.status == "imported" and report.events_added == len(checked.game.rows)
        assert store.state(checked.header.game_id) == fold(store.events(checked.header.game_id))
        assert store.game(checked.header.game_id).status == "finished"

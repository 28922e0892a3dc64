"""The `ktlog` command: each command works, prints stable JSON where documented, and fails cleanly."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner
from conftest import ROOT, ROSTERS

from ktlog.cli import cli
from ktlog.data import SAMPLE_GAMES
from ktlog.storage.store import Store


@pytest.fixture
def run(tmp_path):
    db = tmp_path / "cli.db"

    def invoke(*args, ok=True, input=None):
        result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False, input=input)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    return invoke


@pytest.fixture
def new_game(run):
    out = run(
        "new",
        "--killzone",
        "volkus",
        "--date",
        "2026-11-01",
        "--league",
        "Test League",
        "--player",
        f"Alice={ROSTERS / 'kasrkin.toml'}:sergeant,medic,gunner-plasma,sharpshooter,vox-trooper",
        "--player",
        f"Bob={ROSTERS / 'legionaries.toml'}",
    )
    return out.stdout.strip().splitlines()[0]


SETUP = [
    ("RolledOff", "purpose=setup", "rolls=Alice:5,Bob:2"),
    ("InitiativeDecided", "player=Alice"),
    ("ObjectiveMarkerSetUp", "marker=centre", "player=Bob"),
    ("ObjectiveMarkerSetUp", "marker=north", "player=Alice"),
    ("ObjectiveMarkerSetUp", "marker=south", "player=Bob"),
    ("CritOpRolled", "roll=2"),
    ("DropZoneChosen", "player=Alice", "drop_zone=A"),
    ("DropZoneChosen", "player=Bob", "drop_zone=B"),
    ("EquipmentSelected", "player=Alice", "equipment=Frag grenades,Ladders"),
    ("EquipmentSelected", "player=Bob"),
]


def set_up(run, gid):
    for event in SETUP:
        run("event", gid[:8], *event)
    # thirds: Alice 5 -> 2, Bob 6 -> 2
    order = [
        "sergeant",
        "medic",
        "aspiring-champion",
        "legionary-1",
        "gunner-plasma",
        "sharpshooter",
        "legionary-2",
        "heavy-gunner",
        "vox-trooper",
        "icon-bearer",
        "chosen",
    ]
    for op in order:
        run("event", gid[:8], "OperativeSetUp", f"operative={op}")
    run("event", gid[:8], "TurningPointStarted", "turning_point=1")
    run("event", gid[:8], "RolledOff", "purpose=initiative", "rolls=Alice:2,Bob:2")
    run("event", gid[:8], "InitiativeDecided", "player=Alice")
    run("event", gid[:8], "GambitPassed", "player=Alice")
    run("event", gid[:8], "GambitPassed", "player=Bob")


def test_record_a_game_by_commands(run, new_game):
    gid = new_game
    set_up(run, gid)
    out = run("event", gid[:8], "OperativeActivated", "operative=gunner-plasma", "order=engage").stdout
    assert out.startswith("seq ")
    shot = run(
        "event", gid[:8], "Shot", "operative=gunner-plasma", "weapon=Plasma gun (supercharge)", "target=legionary-1", "dice=6511", "saves=31", "hot_roll=5"
    ).stdout
    # Lethal 5+: the 6 and the 5 are critical (6 damage each); Piercing 1 leaves 2 defence dice,
    # and one normal save (the 3) cannot block a critical: 12 damage of 14.
    assert "legionary-1: 2/14 wounds injured" in shot
    run("event", gid[:8], "ActivationEnded", "operative=gunner-plasma")
    score = json.loads(run("score", gid[:8], "--json").stdout)
    assert score["game"] == gid and score["ruleset"] == "kt24-preliminary"
    assert [p["name"] for p in score["players"]] == ["Alice", "Bob"]
    assert set(score["players"][0]["vp"]) == {"crit", "kill", "total"}
    assert score["result"] == {"winner": None, "draw": False, "ended_by": None, "conceded_by": None, "winners": []}


def test_illegal_event_exits_1_with_the_rule_and_no_traceback(run, new_game):
    result = run("event", new_game[:8], "OperativeSetUp", "operative=sergeant", ok=False)
    assert result.exit_code == 1
    assert "error: operatives are set up after" in result.output and "pg 110" in result.output
    assert "Traceback" not in result.output


def test_a_field_given_twice_is_refused_naming_it_and_nothing_is_recorded(run, new_game):
    # Issue 24: `order=engage order=conceal` was recorded with the last value.
    set_up(run, new_game)
    before = json.loads(run("show", new_game[:8], "--json").stdout)["seq"]
    result = run("event", new_game[:8], "OperativeActivated", "operative=gunner-plasma", "order=engage", "order=conceal", ok=False)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "OperativeActivated: order is given twice (order=engage and order=conceal); give it once" in result.output
    assert json.loads(run("show", new_game[:8], "--json").stdout)["seq"] == before


def test_undo_annotate_and_log(run, new_game):
    gid = new_game[:8]
    run("event", gid, "RolledOff", "purpose=setup", "rolls=Alice:3,Bob:3")
    undo = run("undo", gid).stdout
    assert re.search(r"undid seq \d+ \(setup roll-off: Alice 3, Bob 3\)", undo)
    run("annotate", gid, "2", "Alice brought the sergeant")
    log = run("log", gid).stdout
    assert "[undone by seq" in log and "# Alice brought the sergeant" in log


def test_show_at_a_seq_and_games_list(run, new_game):
    shown = run("show", new_game[:8], "--at", "3").stdout
    assert "Alice (Kasrkin)" in shown and "Bob" not in shown.split("\n", 2)[2]
    state = json.loads(run("show", new_game[:8], "--json").stdout)
    assert state["phase"] == "setup" and len(state["operatives"]) == 11
    games = json.loads(run("games", "--json").stdout)
    assert games[0]["id"] == new_game and games[0]["status"] == "setup"
    assert games[0]["players"] == ["Alice", "Bob"] and games[0]["result"] is None


def test_export_import_verify_rebuild(run, new_game, tmp_path):
    out = tmp_path / "g.jsonl"
    run("export", new_game[:8], "-o", out)
    other = tmp_path / "other.db"
    result = CliRunner().invoke(cli, ["--db", str(other), "import", str(out)])
    assert result.exit_code == 0 and "imported game" in result.output
    again = CliRunner().invoke(cli, ["--db", str(other), "import", str(out)])
    assert "nothing to import" in again.output
    assert "the 1 game verified" in run("verify").stdout
    assert "rebuilt" in run("rebuild").stdout


def test_export_over_an_existing_file_needs_force(run, new_game, tmp_path):
    # Issue 16 #13: `export -o` replaced an existing file without asking.
    out = tmp_path / "kept.jsonl"
    out.write_text("a file the user keeps\n")
    refused = run("export", new_game[:8], "-o", out, ok=False)
    assert refused.exit_code == 1 and f"{out} exists: give --force to replace it" in refused.output
    assert out.read_text() == "a file the user keeps\n"
    run("export", new_game[:8], "-o", out, "--force")
    assert out.read_text().startswith('{"format":"ktlog-game"')


def test_unknown_game_and_bad_file(run, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "ktlog-game"\n')
    result = run("import", bad, ok=False)
    assert result.exit_code == 1 and "line 1" in result.output and "Nothing from this file was imported" in result.output
    result = run("show", "nope", ok=False)  # the import created the database (a read-only command would not)
    assert result.exit_code == 1 and "no game id starts with 'nope'" in result.output


def test_simulate_stores_legal_games(run):
    assert "simulated 3 games" in run("simulate", "--games", "3", "--seed", "5").stdout
    games = json.loads(run("games", "--json").stdout)
    assert len(games) == 3 and all(g["status"] == "finished" for g in games)
    assert "all 3 games verified" in run("verify").stdout


def test_every_command_loads_has_help_and_is_in_the_user_guide():
    guide = (ROOT / "docs" / "user-guide.md").read_text()
    ctx = click.Context(cli)
    names = cli.list_commands(ctx)
    assert {"new", "event", "show", "score", "import", "verify", "record", "replay", "stats", "chart", "report"} <= set(names)
    for name in names:
        command = cli.get_command(ctx, name)
        assert command.name == name and command.help, name
        assert f"ktlog {name}" in guide, f"`ktlog {name}` is not documented in docs/user-guide.md"
    assert cli.get_command(ctx, "scores") is None
    assert "No such command 'scores'" in CliRunner().invoke(cli, ["scores"]).output


def test_demo_loads_the_samples_and_summarises_one(run):
    out = run("demo").stdout
    samples = sorted(SAMPLE_GAMES.glob("*.jsonl"))
    assert out.count("imported game") == len(samples) == 15
    first = json.loads(samples[0].read_text().splitlines()[0])["game_id"]
    assert "Database: " in out and "(15 games)" in out and f"show {first[:8]} --tp 2" in out
    assert "Alice (Kasrkin): 8 VP" in out and "Result: Alice won" in out  # the first sample: Alice beat Bob 8-7
    assert run("demo").stdout.count("is already in the database; nothing to") == 15  # importing twice changes nothing


def test_the_real_command_prints_no_traceback(tmp_path):
    notdb = tmp_path / "notes.txt"
    notdb.write_text("not a database")
    proc = subprocess.run([sys.executable, "-m", "ktlog", "--db", str(notdb), "games"], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and "not a SQLite database" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_games_lists_newest_first_as_the_terminal_ui_does(run):
    # Issue 16 #15: one order everywhere (the start screen shows store.games(newest=...)).
    ids = []
    for date in ("2026-10-01", "2026-11-20", "2026-11-05"):
        out = run("new", "--killzone", "volkus", "--date", date, "--player", f"A={ROSTERS / 'kasrkin.toml'}", "--player", f"B={ROSTERS / 'legionaries.toml'}")
        ids.append(out.stdout.split()[0])
    listed = [line.split()[0] for line in run("games").stdout.splitlines()]
    assert listed == [ids[1][:8], ids[2][:8], ids[0][:8]]
    assert [g["id"] for g in json.loads(run("games", "--json").stdout)] == [ids[1], ids[2], ids[0]]


def batch(events) -> str:
    return (
        "# the set-up, typed in one go\n\n"
        + "\n".join(" ".join(f'{a.partition("=")[0]}="{a.partition("=")[2]}"' if " " in a else a for a in e) for e in events)
        + "\n"
    )


def test_event_file_records_every_line_and_says_who_is_next(run, new_game, tmp_path):
    path = tmp_path / "setup.txt"
    path.write_text(batch(SETUP))
    head = len(json.loads(run("log", new_game[:8], "--json").stdout))
    out = run("event", new_game[:8], "--file", path).stdout
    assert out.count("seq ") == len(SETUP) and f"seq {head + len(SETUP)}: Bob equipment: none" in out
    assert out.strip().endswith("next: Alice sets up the next third of their kill team (0 of 5 set up): OperativeSetUp operative=ID")
    assert len(json.loads(run("log", new_game[:8], "--json").stdout)) == head + len(SETUP)


def test_event_file_is_all_or_nothing_and_names_the_line_refused(run, new_game):
    lines = batch(SETUP) + "OperativeSetUp operative=aspiring-champion\n"  # Alice sets up first (pg 110)
    head = len(json.loads(run("log", new_game[:8], "--json").stdout))
    refused = run("event", new_game[:8], "--file", "-", ok=False, input=lines)
    assert refused.exit_code == 1
    assert (
        f"standard input line 13 (OperativeSetUp, would be seq {head + 11}): Alice sets up the next third of their kill team, not Bob (pg 110)"
        in refused.output
    )
    assert "add override=REASON to the line" in refused.output and "nothing was recorded" in refused.output
    assert len(json.loads(run("log", new_game[:8], "--json").stdout)) == head  # not one of the 10 good lines stored
    typo = run("event", new_game[:8], "--file", "-", ok=False, input="InitiativeDecided player=Alice\nDropZoneChosen player=Alice zone=A\n")
    assert "standard input line 2: DropZoneChosen has no field 'zone'" in typo.output and "nothing was recorded" in typo.output


def test_each_event_says_what_comes_next_and_whose_it_is(run, new_game):
    out = run("event", new_game[:8], "RolledOff", "purpose=setup", "rolls=Alice:5,Bob:2").stdout
    assert "next: Alice decides who has initiative: InitiativeDecided player=NAME" in out
    out = run("event", new_game[:8], "InitiativeDecided", "player=Alice").stdout
    assert "next: Bob sets up an objective marker" in out  # the player without initiative sets up the first (pg 110)


def test_event_types_show_the_shape_of_each_field(run):
    types = run("event", "--types").stdout
    assert re.search(r"RolledOff +purpose=setup\|initiative rolls=NAME:N,NAME:N", types)
    assert 'steps?="STEPS"' in types and "attack_dice?=DICE" in types and "control=MARKER:PLAYER,MARKER:" in types
    assert "equipment?=A,B" in types


def test_event_types_of_a_game_are_its_legal_moves_as_lines_to_type(run, new_game):
    """`ktlog event GAME --types`: the moves of the game's state from the same description the
    record screen asks from (ktlog.play.questions), each typed back as it shows."""
    out = run("event", new_game[:8], "--types").stdout
    assert "RolledOff purpose=setup rolls=Alice:D6,Bob:D6" in out and "InitiativeDecided" not in out
    run("event", new_game[:8], "RolledOff", "purpose=setup", "rolls=Alice:5,Bob:2")
    out = run("event", new_game[:8], "--types").stdout
    assert "next: Alice decides who has initiative" in out and re.search(r"Initiative +InitiativeDecided player=Alice\|Bob", out)
    run("event", new_game[:8], "InitiativeDecided", "player=Alice")
    out = run("event", new_game[:8], "--types").stdout
    marker = next(line for line in out.splitlines() if line.startswith("  ") and "ObjectiveMarkerSetUp" in line)
    assert marker.split(None, 2)[2] == "ObjectiveMarkerSetUp player=Bob marker=TEXT"  # Bob sets up the first (pg 110)
    assert "Bob sets up objective marker centre" in run("event", new_game[:8], "ObjectiveMarkerSetUp", "player=Bob", "marker=centre").stdout


def test_help_lists_the_commands_without_importing_them():
    # Issue 16: `ktlog --help` loaded every command's module (the rules included) for one line each.
    from ktlog.cli import COMMANDS

    ctx = click.Context(cli)
    for name in COMMANDS:
        assert COMMANDS[name][1] == cli.get_command(ctx, name).get_short_help_str(limit=500), f"the help of {name!r} in COMMANDS differs from the command's"
    code = "import sys; from ktlog.cli import main; sys.argv = ['ktlog', '--help']\ntry: main()\nexcept SystemExit: pass\nprint(sorted(m for m in sys.modules if m.startswith('ktlog.')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "ktlog.reducer" not in loaded and "ktlog.commands.recording" not in loaded and "ktlog.rules" not in loaded


def test_the_ktlog_command_sets_the_collector_to_look_less_often():
    # Issue 26: at Python's default (700) a long game's seeks spent about half their CPU in the collector.
    from ktlog.cli import COLLECTOR_THRESHOLD

    code = "import gc, sys; from ktlog.cli import main; sys.argv = ['ktlog', '--version']\ntry: main()\nexcept SystemExit: pass\nprint(gc.get_threshold()[0])"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()[-1] == str(COLLECTOR_THRESHOLD)
    assert COLLECTOR_THRESHOLD > 700


@pytest.mark.parametrize("command", [["games"], ["score", "3f2a"], ["verify"], ["show", "3f2a"], ["log", "3f2a"], ["export", "3f2a"], ["rebuild"]])
def test_a_command_that_only_reads_creates_no_database(tmp_path, command):
    # Issue 16 #11: a mistyped --db made folders and an empty database, then "no games yet".
    missing = tmp_path / "typo" / "leage.db"
    result = CliRunner().invoke(cli, ["--db", str(missing), *command])
    assert result.exit_code == 1 and f"no database at {missing}" in result.output
    assert not missing.parent.exists()
    empty = tmp_path / "empty.db"
    empty.touch()
    result = CliRunner().invoke(cli, ["--db", str(empty), *command])
    assert result.exit_code == 1 and "is an empty file, not a ktlog database" in result.output
    assert empty.stat().st_size == 0 and not (tmp_path / "empty.db-wal").exists()


def test_a_command_that_records_creates_the_database_it_is_given(tmp_path):
    path = tmp_path / "new" / "league.db"
    run = CliRunner().invoke(
        cli, ["--db", str(path), "new", "--killzone", "volkus", "--player", f"A={ROSTERS / 'kasrkin.toml'}", "--player", f"B={ROSTERS / 'legionaries.toml'}"]
    )
    assert run.exit_code == 0 and path.exists()
    empty = tmp_path / "chosen.db"
    empty.touch()
    assert CliRunner().invoke(cli, ["--db", str(empty), "import", str(next(SAMPLE_GAMES.glob("01*.jsonl")))]).exit_code == 0
    assert empty.stat().st_size > 0


def test_simulate_keeps_to_a_database_of_its_own_and_says_what_an_interrupt_stored(tmp_path, monkeypatch):
    # Issue 16 #12: ctrl+c printed "Aborted!" with 354 games stored and not said; the games went into the league's database.
    monkeypatch.delenv("KTLOG_DB", raising=False)
    monkeypatch.setattr("ktlog.storage.dbfile.platformdirs.user_data_path", lambda name: tmp_path / "userdata")
    refused = CliRunner().invoke(cli, ["simulate", "--games", "1"])
    assert refused.exit_code == 1 and "give them one of their own with --db FILE" in refused.output
    assert not (tmp_path / "userdata").exists()
    import ktlog.play.simulate as sim

    real = sim.simulate_games

    def interrupted(*args, **kwargs):
        for i, game in enumerate(real(*args, **kwargs)):
            if i == 2:
                raise KeyboardInterrupt
            yield game

    monkeypatch.setattr(sim, "simulate_games", interrupted)
    db = tmp_path / "sim.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "simulate", "--games", "5"])
    assert result.exit_code == 130 and f"interrupted: 2 of 5 games were stored in {db}, each whole" in result.output
    assert len(Store(db).games()) == 2


def test_event_file_shows_the_running_cp_after_each_change(run):
    # Issue 24 #7: every CP line of a batch showed the player's CP at its end (Bob "+2 -> 2CP",
    # "+1 -> 2CP", "-1 -> 2CP"). Each set-up gives 2CP (pg 110) and each turning point 1CP (pg 38).
    game = run(
        "new",
        "--killzone",
        "volkus",
        "--player",
        f"Alice={ROSTERS / 'kasrkin.toml'}:sergeant,gunner-plasma,medic",
        "--player",
        f"Bob={ROSTERS / 'legionaries.toml'}:aspiring-champion,legionary-1,heavy-gunner",
    ).stdout.split()[0]
    out = run("event", game, "--file", ROOT / "ktlog" / "data" / "examples" / "first-activations.txt").stdout
    cp_lines = [line.strip() for line in out.splitlines() if " CP " in line]
    assert cp_lines == [
        "Alice CP +2 (set-up) -> 2CP",
        "Bob CP +2 (set-up) -> 2CP",
        "Alice CP +1 (turning point 1) -> 3CP",
        "Bob CP +1 (turning point 1) -> 3CP",
        "Bob CP -1 (Dark Pact) -> 2CP",
    ]


@pytest.mark.parametrize(
    "command",
    [
        ("report", "GAME"),
        ("chart", "vp", "GAME"),
        ("stats", "standings", "--format", "csv"),
        ("stats", "results", "--format", "parquet"),
    ],
    ids=["report", "chart", "stats-csv", "stats-parquet"],
)
def test_every_output_keeps_an_existing_file_without_force(run, new_game, tmp_path, command):
    # Issue 24 #8: report, chart and stats -o replaced an existing file while export -o refused.
    run("event", new_game[:8], "GameConceded", "player=Bob")
    suffix = {"report": ".html", "chart": ".png"}.get(command[0], "." + command[-1])
    out = tmp_path / f"kept{suffix}"
    out.write_text("a file the user keeps\n")
    args = [new_game[:8] if a == "GAME" else a for a in command]
    refused = run(*args, "-o", out, ok=False)
    assert refused.exit_code == 1 and f"{out} exists: give --force to replace it" in refused.output
    assert out.read_text() == "a file the user keeps\n"
    run(*args, "-o", out, "--force")
    assert out.read_bytes() != b"a file the user keeps\n" and out.stat().st_size > 0


def test_db_is_taken_after_the_command_too(tmp_path, monkeypatch):
    # Issue 24 #21: the user guide says every command takes --db; after the command it was "No such option".
    db = tmp_path / "after.db"
    monkeypatch.setenv("KTLOG_DB", str(tmp_path / "elsewhere.db"))
    created = CliRunner().invoke(
        cli, ["new", "--killzone", "volkus", "--player", f"Alice={ROSTERS / 'kasrkin.toml'}", "--player", f"Bob={ROSTERS / 'legionaries.toml'}", "--db", db]
    )
    assert created.exit_code == 0, created.output
    game = created.stdout.split()[0]
    assert db.exists() and not (tmp_path / "elsewhere.db").exists()
    listed = CliRunner().invoke(cli, ["games", "--db", str(db)])
    assert listed.exit_code == 0 and game[:8] in listed.output
    grouped = CliRunner().invoke(cli, ["stats", "standings", "--db", str(db)])
    assert "no finished game matches (no filter); 1 game(s) still in progress" in grouped.output  # this database's game, not another's


def test_small_things_a_user_sees(run, new_game, monkeypatch):
    # Issue 24 #25, each worded as the user guide promises.
    usage = CliRunner().invoke(cli, ["games", "--bogus"], prog_name="ktlog")  # one line, not three
    assert usage.exit_code == 2 and usage.output == "error: No such option '--bogus'. `ktlog games --help` lists what it takes\n"
    assert CliRunner().invoke(cli, ["nosuch"], prog_name="ktlog").output == "error: No such command 'nosuch'. `ktlog --help` lists what it takes\n"
    typo = run("event", new_game[:8], "GameConcede", "player=Bob", ok=False)
    assert "unknown event type 'GameConcede'; did you mean GameConceded?" in typo.output
    head = len(json.loads(run("log", new_game[:8], "--json").stdout))
    past = run("show", new_game[:8], "--at", 99999, ok=False)  # it showed the end as if it were seq 99999
    assert past.exit_code == 1 and f"has {head} events: give --at a seq from 0 to {head}" in past.output
    assert run("show", new_game[:8], "--at", head).exit_code == 0
    assert "the 1 game verified" in run("verify").stdout  # not "all 1 games"


def test_ctrl_c_is_130_and_one_line_in_every_command(run, tmp_path, monkeypatch):
    # Issue 24 #25: ctrl+c exited 130 in `simulate` but 1 with "Aborted!" in `import`.
    import ktlog.commands.files as files

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(files, "import_files", interrupted)
    result = run("import", *sorted(SAMPLE_GAMES.glob("*.jsonl"))[:2], ok=False)
    assert result.exit_code == 130 and "Aborted!" not in result.output
    assert result.output.splitlines()[-1].startswith("interrupted; nothing was changed")


def test_a_database_in_a_read_only_folder_is_read(run, new_game, tmp_path):
    # Issue 24 #25: a database in a read-only folder (a mounted backup, a share) could not even be
    # read: SQLite wants its -wal and -shm beside it. As root only a read-only mount makes a
    # folder read-only, so the test mounts one in a mount namespace of its own.
    import shutil

    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to make a read-only mount")
    source, mount = tmp_path / "backup", tmp_path / "mounted"
    source.mkdir()
    mount.mkdir()
    import sqlite3

    with sqlite3.connect(tmp_path / "cli.db") as live, sqlite3.connect(source / "league.db") as copy:
        live.backup(copy)  # the file as a backup leaves it: whole, its write-ahead log folded in
    copy.close()
    ktlog_bin = f"{sys.executable} -m ktlog"
    script = (
        f"mount --bind {source} {mount} && mount -o remount,bind,ro {mount} || exit 99; "
        f"{ktlog_bin} --db {mount}/league.db games; {ktlog_bin} --db {mount}/league.db show {new_game[:8]} --json >/dev/null && echo shown; "
        f"{ktlog_bin} --db {mount}/league.db stats results --format csv | grep -q {new_game[:8]} ; echo stats=$?; "
        f"{ktlog_bin} --db {mount}/league.db annotate {new_game[:8]} 1 note; echo annotate=$?"
    )
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    if done.returncode == 99 or "unshare failed" in done.stderr or "Operation not permitted" in done.stderr:
        pytest.skip(f"this machine gives no mount namespace: {done.stderr.strip()[:200]}")
    assert new_game[:8] in done.stdout and "shown" in done.stdout, done.stderr
    assert "stats=1" in done.stdout and "no finished game" in done.stderr  # read by the statistics too: a game in progress, named
    assert "annotate=1" in done.stdout and "is read-only; nothing was recorded" in done.stderr
    assert sorted(p.name for p in source.iterdir()) == ["league.db"]  # no -wal or -shm left beside it


def test_an_override_that_cannot_keep_a_correction_says_so(run, new_game):
    # Issue 25 (low): `correct --override` on a rule that cannot be overridden gave the same
    # refusal, without saying that the override cannot keep it.
    run("event", new_game[:8], "RolledOff", "purpose=setup", "rolls=Alice:5,Bob:2")
    seq = len(json.loads(run("log", new_game[:8], "--json").stdout))
    refused = run("correct", new_game[:8], seq, "RolledOff", "purpose=setup", "rolls=Alice:5,Nobody:2", "--override", "our house rule", ok=False)
    assert refused.exit_code == 1 and "--override cannot keep this" in refused.output and "nothing was recorded" in refused.output, refused.output
    assert len(json.loads(run("log", new_game[:8], "--json").stdout)) == seq


def test_wounds_regained_above_the_starting_wounds_replies_what_the_state_gains(run, new_game, tmp_path):
    """pg 47: wounds never go above the starting wounds. A medic's 5 on an operative that lost 2
    gains 2, and the reply says so, on its own and in a batch (issue 44's audit: it said 5)."""
    gid = new_game[:8]
    set_up(run, gid)
    run("event", gid, "DamageInflicted", "operative=legionary-1", "damage=2", "source=other")
    out = run("event", gid, "WoundsRegained", "operative=legionary-1", "wounds=5", "reason=Medikit").stdout
    assert "legionary-1 regains 2 wounds, not the 5 entered: never above its starting 14 (pg 47) (Medikit)" in out
    assert "regains 5" not in out
    run("event", gid, "DamageInflicted", "operative=legionary-1", "damage=3", "source=other")
    path = tmp_path / "regain.txt"
    path.write_text("WoundsRegained operative=legionary-1 wounds=3 reason=Medikit\nWoundsRegained operative=legionary-1 wounds=4 reason=Medikit\n")
    out = run("event", gid, "--file", path).stdout
    assert "legionary-1 regains 3 wounds (Medikit)" in out
    assert "legionary-1 regains 0 wounds, not the 4 entered" in out

"""Issue 42 #3: one convention for every command. Each command's --help ends with examples that
its parser takes as written; every command that prints a result takes --json; every file written
is named with -o; a usage error exits 2 and a refusal 1, as docs/user-guide.md says."""

from __future__ import annotations

import re
import shlex

import click
import pytest
from click.testing import CliRunner

from ktlog.cli import cli

NO_RESULT = {
    "ktlog record": "opens the terminal UI",
    "ktlog replay": "opens the terminal UI",
    "ktlog serve": "serves until stopped",
    "ktlog export": "its result is the file it writes (-o), or the game-log on standard output",
    "ktlog chart": "its result is the chart file it writes (-o)",
    "ktlog report": "its result is the HTML file it writes (-o)",
}
"""Commands that print no result to give as JSON, and why."""
ELSEWHERE = ("ktlog tournament",)
"""Commands whose help another change is rewriting (issue 40): their examples come with it."""


def commands(group: click.Group = cli, path: str = "ktlog"):
    """Every command and group under `group`, with its path as typed."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield f"{path} {name}", command
        if isinstance(command, click.Group):
            yield from commands(command, f"{path} {name}")


EVERY = dict(commands())


def help_text(path: str) -> str:
    result = CliRunner().invoke(cli, [*path.split()[1:], "--help"], terminal_width=200)  # wide: an example a line
    assert result.exit_code == 0, result.output
    return result.output


def example_lines(text: str) -> list[str]:
    """The lines under "Examples:" at the end of a help text."""
    _, found, examples = text.partition("Examples:\n")
    assert found, "no examples"
    return [line.strip() for line in examples.splitlines() if line.strip()]


def ktlog_words(line: str) -> list[str]:
    """The arguments of an example line's ktlog command: after `ktlog`, in `KTLOG_DB=x ktlog ...`,
    `GAME=$(ktlog ...)` or `ls "$(ktlog ...)/x"` too; its comment left out."""
    words = shlex.split(line, comments=True)
    for i, word in enumerate(words):
        if word == "ktlog":
            return words[i + 1 :]
        if "$(ktlog" in word:
            inner = " ".join([word.partition("$(ktlog")[2], *words[i + 1 :]])
            return shlex.split(inner.partition(")")[0])
    raise AssertionError(f"no ktlog command in {line!r}")


def runs(path: str, words: list[str]) -> bool:
    """Whether the arguments run the command at `path` (after any --db FILE)."""
    while words[:1] == ["--db"]:
        words = words[2:]
    return words[: len(path.split()) - 1] == path.split()[1:]


@pytest.mark.parametrize("path", ["ktlog", *sorted(p for p in EVERY if not p.startswith(ELSEWHERE))])
def test_every_help_ends_with_examples_its_parser_takes(path):
    lines = example_lines(help_text(path))
    shown = [ktlog_words(line) for line in lines]
    assert any(runs(path.replace(" analyse game", " analyse"), words) for words in shown), f"{path}: no example runs it: {lines}"
    for line, words in zip(lines, shown):
        parsed = CliRunner().invoke(cli, [*words, "--help"])  # parsed as written, then --help: nothing runs
        assert parsed.exit_code == 0, f"{path}: {line}\n{parsed.output}"


@pytest.mark.parametrize("path", sorted(p for p, c in EVERY.items() if not isinstance(c, click.Group)))
def test_every_command_that_prints_a_result_takes_json_and_names_files_with_o(path):
    options = {opt: param for param in EVERY[path].params for opt in getattr(param, "opts", [])}
    if path not in NO_RESULT:
        assert "--json" in options, f"{path} prints a result without --json"
    for param in EVERY[path].params:
        if any(opt.startswith(("--out", "--output")) for opt in getattr(param, "opts", [])):
            assert "-o" in param.opts, f"{path}: {param.opts} writes a file without -o"
    if "--format" in options and "json" in getattr(options["--format"].type, "choices", ()):
        assert "--json" in options, f"{path}: --format json without --json"


def test_the_exit_statuses_are_clicks_as_the_guide_says(tmp_path):
    from conftest import ROOT

    usage = CliRunner().invoke(cli, ["--db", str(tmp_path / "x.db"), "games", "--no-such-option"])
    refused = CliRunner().invoke(cli, ["--db", str(tmp_path / "x.db"), "show", "334f"])
    assert (usage.exit_code, refused.exit_code) == (2, 1)
    guide = " ".join((ROOT / "docs" / "user-guide.md").read_text().split())
    assert "0 done, 1 refused" in guide and "2 a command line ktlog cannot read" in guide
    assert not re.search(r"exit(s)? with status 1, never a traceback", guide)


def test_stats_format_json_and_json_are_one(tmp_path):
    from conftest import SAMPLES

    db = tmp_path / "league.db"
    assert CliRunner().invoke(cli, ["--db", str(db), "import", *map(str, sorted(SAMPLES.glob("0*.jsonl")))]).exit_code == 0
    as_json = CliRunner().invoke(cli, ["--db", str(db), "stats", "standings", "--json"])
    as_format = CliRunner().invoke(cli, ["--db", str(db), "stats", "standings", "--format", "json"])
    assert as_json.exit_code == 0 and as_json.stdout == as_format.stdout and as_json.stdout.lstrip().startswith("[")


def test_each_json_is_one_document_with_its_keys(tmp_path, monkeypatch):
    """The --json of the commands that had none (issue 42 #3): what they print for people goes
    to standard error, the JSON alone to standard output."""
    import json

    from conftest import ROOT

    monkeypatch.setenv("KTLOG_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("KTLOG_ROSTERS", str(tmp_path / "rosters"))
    db = tmp_path / "league.db"

    def out(*args: str) -> dict | list:
        result = CliRunner().invoke(cli, ["--db", str(db), *args, "--json"])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    assert out("demo")["first"].startswith("334f")
    game = out("new", "--killzone", "volkus", "--player", "Alice=kasrkin:sergeant", "--player", "Bob=legionaries:legionary-1")["id"]
    assert {m["label"] for m in out("event", game, "--types")["moves"]} and out("event", game, "--types")["next"]
    recorded = out("event", game, "RolledOff", "purpose=setup", "rolls=Alice:5,Bob:2")
    assert recorded["game"] == game and [e["type"] for e in recorded["events"]] == ["RolledOff"] and recorded["next"].startswith("Alice decides")
    steps = tmp_path / "steps.txt"
    steps.write_text("InitiativeDecided player=Alice\nObjectiveMarkerSetUp marker=centre player=Bob\n")
    assert [e["seq"] for e in out("event", game, "--file", str(steps))["events"]] == [recorded["events"][0]["seq"] + 1, recorded["events"][0]["seq"] + 2]
    undone = out("undo", game)
    assert undone["undone"] == undone["seq"] - 1 and "ObjectiveMarkerSetUp" not in undone["text"]
    note = out("annotate", game, "1", "the first")
    assert note == {"game": game, "seq": note["seq"], "note_on": 1, "text": "the first"}
    corrected = out("correct", game, str(recorded["events"][0]["seq"]), "RolledOff", "purpose=setup", "rolls=Alice:6,Bob:2")
    assert corrected["corrected"] == recorded["events"][0]["seq"] and corrected["kept"] == []
    disputed = out("dispute", "334f", "42", "--reason", "out of range")
    assert disputed["disputed"] == 42 and disputed["seq"] == 267
    assert out("seat", "334f", "Alice")["player"] == "Alice"
    assert out("seat", "334f", "Alice", "--revoke") == {"game": disputed["game"], "player": "Alice", "revoked": True}
    made = out("key", "new", "Alice")
    assert out("key", "show") == {"name": "Alice", "public_key": made["public_key"]}
    assert out("key", "trust", "Alice", made["public_key"])["how"] == "trusted"
    assert [k["name"] for k in out("key", "list")] == ["Alice"] and out("key", "revoke", made["public_key"][:8])["revoked_at"]
    assert out("rebuild") == {"games": 16}
    assert out("roster", "show", "kasrkin")["name"] == "Kasrkin" and out("roster", "check", "kasrkin")["problems"] == []
    imported = out("roster", "import", str(ROOT / "ktlog" / "data" / "examples" / "example-team.ros"), "--dry-run")
    assert imported["kill_team"] == "Drill Squad" and imported["written"] is None and len(imported["operatives"]) == 4

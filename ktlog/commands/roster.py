"""`ktlog roster`: import a kill team from BattleScribe, New Recruit or a BSData catalogue, list
the rosters at hand, show one's datacards, check a hand-written roster file."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from ..errors import RosterError
from ..events import Datacard
from ..files.rosters import Roster, check_roster, find_roster, load_roster, slug, user_roster_folder
from ..play.creation import roster_unapplied
from ..rulesets import RULESETS
from ..text.datacards import datacard_lines, team_lines
from ..text.plural import counted
from .context import echo_json, examples, fail, json_option
from .progress import progress

_CATALOGUES = (".cat", ".catz")


@click.group(epilog=examples("ktlog roster import team.rosz --archetypes Security,Recon", "ktlog roster list", "ktlog roster show kasrkin"))
def roster() -> None:
    """Rosters: import your kill team, list the rosters, show one, check a roster file."""


@roster.command(
    "import",
    epilog=examples(
        "ktlog roster import team.rosz --archetypes Security,Recon",
        'ktlog roster import "$(ktlog demo --path)/examples/example-team.ros" --dry-run --json',
        'ktlog roster import "2024 - Kasrkin.cat" --system "2024 - Kill Team.gst" -o kasrkin.toml',
        "ktlog roster import path/to/wh40k-killteam --dry-run",
    ),
)
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@click.option("--system", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="The game system file (.gst or .gstz) a catalogue belongs to.")
@click.option("--archetypes", help="The kill team's archetypes, comma separated (BSData has none), e.g. Security,Recon.")
@click.option(
    "-o", "--output", "--out", "out", type=click.Path(path_type=Path), help="Where to write (a file; a folder for a data folder). Default: your roster folder."
)
@click.option("--dry-run", is_flag=True, help="Show what would be imported; write nothing.")
@click.option("--force", is_flag=True, help="Replace a roster file that is already there.")
@json_option(
    "the roster: kill_team, operatives (id, name, count), equipment, notes, left_out, written (the file, or null for a dry run); a folder: a list of kill_team, operatives, weapons, problem"
)
def import_cmd(file: Path, system: Path | None, archetypes: str | None, out: Path | None, dry_run: bool, force: bool, as_json: bool) -> None:
    """Import a kill team: a BattleScribe roster (.ros, .rosz), a New Recruit export (.json), a
    BSData catalogue (.cat, .catz, with --system), or a whole BSData folder."""
    from ..files.bsdata.mapping import MissingCharacteristic, map_team

    chosen = [a.strip() for a in archetypes.split(",") if a.strip()] if archetypes else []
    try:
        if file.is_dir():
            _import_folder(file, chosen, out, dry_run, force, as_json)
            return
        team = map_team(_read(file, system), chosen)
    except MissingCharacteristic as exc:
        raise RosterError(str(exc)) from exc
    if not team.operatives:
        raise RosterError(f"{file}: no operative could be mapped ({'; '.join(team.left_out) or 'the file has none'}); nothing written")
    target = _into(out, team.name)
    loaded = _written(team, None if dry_run else target, force)
    if as_json:
        return echo_json(_imported_json(team, loaded, None if dry_run else target))
    _say_imported(team, loaded)
    if not chosen:
        click.echo("archetypes: BSData has none; give them with --archetypes A,B, or add archetypes = [...] to the roster file")
    click.echo("dry run: nothing written" if dry_run else f"wrote {target}\nuse it: ktlog new --player NAME={target} ...")


def _notes(team) -> list[tuple[str, str]]:
    """Each operative's and equipment's notes from the mapping: (its name, the note)."""
    return [(entry.fields["name"], note) for entry in [*team.operatives, *team.equipment] for note in entry.notes]


def _imported_json(team, loaded: Roster, written: Path | None) -> dict:
    return {
        "kill_team": loaded.name,
        "operatives": [{"id": o.id, "name": o.datacard.name} for o in loaded.operatives],
        "equipment": [item.fields["name"] for item in team.equipment],
        "notes": [f"{name}: {note}" for name, note in _notes(team)],
        "left_out": list(team.left_out),
        "written": None if written is None else str(written),
    }


def _say_imported(team, loaded: Roster) -> None:
    """What was imported, for people: the datacards, the equipment's profiles, notes and what was left out."""
    click.echo(
        f"{loaded.name}: {counted(len(loaded.operatives), 'operative')} from {team.source}"
        + (f" (catalogue revision {team.revision})" if team.revision else "")
    )
    for card, count in _cards(loaded):
        click.echo(_shown(card, count))
    for item in team.equipment:
        weapons = item.fields.get("weapons") or [w for w in [item.fields.get("weapon")] if w]
        profiles = "; ".join(
            f"{w['name'] + ' ' if len(weapons) > 1 else ''}{w['kind']} ATK {w['atk']} HIT {w['hit']} DMG {w['dmg']}  {', '.join(w.get('rules', []))}".rstrip()
            for w in weapons
        )
        click.echo(f"equipment: {item.fields['name']}{': ' + profiles if profiles else ''}")
    for name, note in _notes(team):
        click.echo(f"note: {name}: {note}")
    for text in team.left_out:
        click.echo(f"left out: {text}")
    click.echo("ploys: the roster data has none; add your kill team's [[ploys]] with their CP to the roster file (a commented example is in it)")


def _into(out: Path | None, name: str) -> Path:
    """The roster file to write: --out itself, or the kill team's file in --out's folder (or
    the user's roster folder) when it names a folder (issue 24 #14)."""
    if out is not None and not out.is_dir():
        return out
    return (out or user_roster_folder()) / f"{slug(name)}.toml"


def _read(file: Path, system: Path | None):
    from ..files.bsdata.catalogues import read_catalogue, read_system
    from ..files.bsdata.rosters import read_roster

    if file.suffix.lower() in _CATALOGUES:
        if system is None:
            raise RosterError(f"{file}: a catalogue needs its game system: add --system with the .gst file from the same data folder")
        return read_catalogue(file, read_system(system))
    return read_roster(file)


def _written(team, target: Path | None, force: bool) -> Roster:
    """Write the team's roster file (or, for a dry run, a temporary one) and load it back."""
    from ..files.bsdata.toml_out import render, write_roster

    text = render(team)
    if target is not None:
        return write_roster(text, target, force=force)
    with tempfile.TemporaryDirectory() as folder:
        return write_roster(text, Path(folder) / "roster.toml")


def _import_folder(folder: Path, archetypes: list[str], out: Path | None, dry_run: bool, force: bool, as_json: bool) -> None:
    from ..files.bsdata.catalogues import read_folder

    rows: list[tuple[str, ...]] = [("kill team", "operatives", "weapons", "could not map")]
    refused = 0
    with progress("importing kill teams") as advance:
        teams = read_folder(folder)
        for done, (path, team) in enumerate(teams, 1):
            refused += not _import_one(path, team, archetypes, out, dry_run, force, rows)
            advance(done, len(teams))
    written = 0 if dry_run else len(rows) - 1 - refused
    if as_json:
        echo_json([dict(zip(("kill_team", "operatives", "weapons", "problem"), row)) for row in rows[1:]])
        if refused:
            fail(f"{counted(refused, 'catalogue')} of {folder} could not be imported (in the JSON)")
        return
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        click.echo("  ".join(cell.ljust(widths[i]) if i < 3 else cell for i, cell in enumerate(row)))
    click.echo("dry run: nothing written" if dry_run else f"wrote {counted(written, 'roster')} to {out or user_roster_folder()}")
    if refused:
        fail(f"{counted(refused, 'catalogue')} of {folder} could not be imported (above)")


def _import_one(path: Path, team, archetypes: list[str], out: Path | None, dry_run: bool, force: bool, rows: list[tuple[str, ...]]) -> bool:
    """Map and write one catalogue's kill team (or not, for a dry run), its row added to `rows`;
    whether it could be."""
    from ..files.bsdata.mapping import MissingCharacteristic, map_team

    try:
        if isinstance(team, RosterError):
            raise team
        mapped = map_team(team, archetypes)
        if not mapped.operatives:
            raise RosterError(f"no operative could be mapped: {'; '.join(mapped.left_out)}")
        _written(mapped, None if dry_run else _into(out, mapped.name), force)
        rows.append((mapped.name, str(len(mapped.operatives)), str(mapped.weapons), "; ".join(mapped.left_out) or "-"))
        return True
    except (RosterError, MissingCharacteristic) as exc:
        rows.append((path.stem, "-", "-", str(exc)))
        return False


@roster.command("list", epilog=examples("ktlog roster list", "ktlog roster list --json"))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list: name, origin (yours or samples), path, kill_team, operatives, problem.")
def list_cmd(as_json: bool) -> None:
    """The rosters at hand: your own (imported or written) and the samples ktlog ships."""
    from ..data import SAMPLE_ROSTERS

    listed = []
    for title, folder in (("yours", user_roster_folder()), ("samples", SAMPLE_ROSTERS)):
        paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
        if not as_json:
            click.echo(f"{title} ({folder}):" + ("" if paths else " none"))
        for path in paths:
            entry: dict = {"name": path.stem, "origin": title, "path": str(path), "kill_team": None, "operatives": None, "problem": None}
            try:
                loaded = load_roster(path)
                entry |= {"kill_team": loaded.name, "operatives": len(loaded.operatives)}
            except RosterError as exc:
                entry["problem"] = str(exc)
            listed.append(entry)
            if not as_json:
                what = f"cannot be used: {entry['problem']}" if entry["problem"] else f"{loaded.name} ({counted(len(loaded.operatives), 'operative')})"
                click.echo(f"  {path.stem:<24} {what}")
    if as_json:
        echo_json(listed)


@roster.command("show", epilog=examples("ktlog roster show kasrkin", "ktlog roster show rosters/my-team.toml --json"))
@click.argument("name")
@json_option("the roster: name, faction, archetypes, operatives (id, datacard), path, source, revision, warnings, ploys, equipment, resources")
def show(name: str, as_json: bool) -> None:
    """One roster's datacards, by name (in your roster folder or the samples) or path."""
    loaded = load_roster(find_roster(name))
    if as_json:
        import msgspec

        return echo_json(msgspec.to_builtins(loaded))
    origin = f", from {loaded.source}" + (f" revision {loaded.revision}" if loaded.revision else "") if loaded.source else ""
    click.echo(f"{loaded.name} ({loaded.path}{origin})")
    click.echo(f"archetypes: {', '.join(loaded.archetypes) or 'none given'}")
    for card, count in _cards(loaded):
        click.echo(_shown(card, count))
    for line in team_lines(loaded.ploys, loaded.equipment, loaded.resources):
        click.echo(line)


@roster.command("check", epilog=examples("ktlog roster check my-team.toml", "ktlog roster check kt21_cultists --ruleset kt21 --json"))
@click.argument("name")
@click.option(
    "--ruleset",
    type=click.Choice(sorted(RULESETS)),
    default="kt24-preliminary",
    show_default=True,
    help="The ruleset whose weapon rules the roster is checked against (kt21 for a KT21 roster).",
)
@json_option("the verdict: file, problems (line, text), warnings, not_applied, kill_team, operatives; exits 1 with problems")
def check(name: str, ruleset: str, as_json: bool) -> None:
    """Check a roster, a file or a name as `roster show` takes it: every problem, each with its
    line and field; older wording read as a field and text that reads like a rule ktlog does not
    apply ("not applied"); else a summary."""
    file = find_roster(name)
    if str(file) != name and not as_json:
        click.echo(f"checking {file}")
    loaded, problems = check_roster(file)
    if as_json:
        unapplied = roster_unapplied(loaded, ruleset) if loaded else []
        echo_json(
            {
                "file": str(file),
                "problems": [{"line": p.line, "text": p.text} for p in problems],
                "warnings": list(loaded.warnings) if loaded else [],
                "not_applied": unapplied,
                "kill_team": loaded.name if loaded else None,
                "operatives": len(loaded.operatives) if loaded else None,
            }
        )
        if loaded is None:
            raise SystemExit(1)
        return
    for problem in problems:
        click.echo(f"{file}:{problem.line}: {problem.text}" if problem.line else f"{file}: {problem.text}")
    if loaded is None:
        fail(
            f"{file}: {len(problems)} problems (above); fix them and check again" if len(problems) > 1 else f"{file}: 1 problem (above); fix it and check again"
        )
    unapplied = roster_unapplied(loaded, ruleset)
    for warning in loaded.warnings:
        click.echo(f"warning: {warning}")
    for text in unapplied:
        click.echo(f"not applied: {text}")
    found = [counted(len(loaded.warnings), "warning")] * bool(loaded.warnings) + [f"{len(unapplied)} not applied"] * bool(unapplied)
    click.echo(
        f"{file}: {'usable, with ' + ' and '.join(found) + ' (above)' if found else 'fine'}: {loaded.name}, "
        + counted(len(loaded.operatives), "operative")
        + ("" if loaded.archetypes else "; no archetypes (add archetypes = [...] for the game's records)")
    )


def _cards(loaded: Roster) -> list[tuple[Datacard, int]]:
    """Each datacard once, with how many operatives have it."""
    counted: dict[Datacard, int] = {}
    for operative in loaded.operatives:
        counted[operative.datacard] = counted.get(operative.datacard, 0) + 1
    return list(counted.items())


def _shown(card: Datacard, count: int) -> str:
    return "\n".join(datacard_lines(card, f"{count}x {card.name}" if count > 1 else None))

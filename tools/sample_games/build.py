"""Regenerate the sample game-log files (ktlog/data/samples/) from the scripts in tools/sample_games/scripts/,
and the sample battles with positions (ktlog/data/battles/) from those in tools/sample_games/battles/.

Each script plays one game with `ktlog.play.builder.GameBuilder` and states the final result worked
out by hand (`EXPECTED`). This refuses to write a file whose events do not give that result.

    python tools/sample_games/build.py
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import msgspec

from ktlog.data import SAMPLE_BATTLES, SAMPLE_GAMES
from ktlog.files.gamelog import HeaderResult, header_result, make_header, write_game_log

HERE = Path(__file__).resolve().parent
_encoder = msgspec.json.Encoder()


def load_script(path: Path):
    spec = importlib.util.spec_from_file_location(f"sample_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def game_log_lines(path: Path) -> tuple[list[bytes], HeaderResult | None, HeaderResult]:
    """The file's lines for one script, with the hand-worked and the computed results."""
    script = load_script(path)
    g = script.build()
    expected = msgspec.convert(script.EXPECTED, HeaderResult)
    computed = header_result(g.state)
    sealed = g.sealed(script.GAME_ID, script.STARTED_AT)
    header = msgspec.structs.replace(make_header(script.GAME_ID, g.state, len(sealed), script.DESCRIPTION), result=expected, ktlog_version=None)
    lines = [_encoder.encode(header)] + [_encoder.encode(e) for e, _ in sealed]
    return lines, expected, computed


def main() -> int:
    failed = 0
    scripts = [(path, SAMPLE_GAMES) for path in sorted((HERE / "scripts").glob("[0-9]*.py"))]
    for path, folder in scripts + [(path, SAMPLE_BATTLES) for path in sorted((HERE / "battles").glob("[0-9]*.py"))]:
        lines, expected, computed = game_log_lines(path)
        if expected != computed:
            print(f"{path.name}: the events give {computed}, not the expected {expected}", file=sys.stderr)
            failed += 1
            continue
        out = folder / f"{path.stem}.jsonl"
        write_game_log(out, lines)
        print(f"wrote {out.name} ({len(lines) - 1} events)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Shared fixtures: small datacards with easy numbers, and games brought to a chosen moment."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from ktlog.data import SAMPLE_GAMES, SAMPLE_ROSTERS
from ktlog.events import ActivationEnded, Datacard, OperativeAdded, PlayerJoined, UniqueAction, Weapon
from ktlog.files.rosters import load_roster
from ktlog.play.builder import GameBuilder
from ktlog.storage.store import Store

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = SAMPLE_GAMES
ROSTERS = SAMPLE_ROSTERS


def gun(name: str = "Gun", atk: int = 4, hit: int = 4, dmg: tuple[int, int] = (3, 4), *rules: str) -> Weapon:
    return Weapon(name=name, kind="ranged", atk=atk, hit=hit, normal_dmg=dmg[0], crit_dmg=dmg[1], rules=rules)


def blade(name: str = "Blade", atk: int = 4, hit: int = 4, dmg: tuple[int, int] = (3, 4), *rules: str) -> Weapon:
    return Weapon(name=name, kind="melee", atk=atk, hit=hit, normal_dmg=dmg[0], crit_dmg=dmg[1], rules=rules)


def card(
    name: str = "Trooper",
    *,
    apl: int = 2,
    save: int = 4,
    wounds: int = 10,
    weapons: tuple[Weapon, ...] | None = None,
    unique_actions: tuple[UniqueAction, ...] = (),
) -> Datacard:
    return Datacard(name=name, apl=apl, move=6, save=save, wounds=wounds, weapons=weapons or (gun(), blade()), unique_actions=unique_actions)


def game(
    alice: dict[str, Datacard] | int = 5, bob: dict[str, Datacard] | int = 5, *, crit_op: int = 1, killzone: str = "volkus", to: str = "firefight"
) -> GameBuilder:
    """A Preliminary Ops game between Alice (a1, a2 ...) and Bob (b1, b2 ...), Alice with
    initiative in set-up and TP1. `to`: "setup" (players and operatives only), "battle" (set up,
    before TP1) or "firefight" (TP1, gambit step passed, Alice to activate)."""
    g = GameBuilder(killzone=killzone, date="2026-11-21")
    for player, ops, prefix in (("Alice", alice, "a"), ("Bob", bob, "b")):
        g.add(PlayerJoined(player=player, kill_team=f"{player}'s team"))
        cards = ops if isinstance(ops, dict) else {f"{prefix}{i}": card() for i in range(1, ops + 1)}
        for op_id, c in cards.items():
            g.add(OperativeAdded(player=player, operative=op_id, datacard=c))
    if to == "setup":
        return g
    g.setup(rolloff={"Alice": 6, "Bob": 1}, initiative="Alice", crit_op=crit_op)
    if to == "battle":
        return g
    g.turning_point(1, {"Alice": 5, "Bob": 2}, "Alice")
    return g


def expend_all(g: GameBuilder) -> GameBuilder:
    """End any open activation, then activate every ready operative with no action."""
    if g.state.activation is not None:
        g.add(ActivationEnded(operative=g.state.activation.operative))
    while any(o.status == "ready" for o in g.state.operatives.values()):
        s = g.state
        player = s.next_player if s.ready_operatives(s.next_player) else s.opponent(s.next_player)
        g.activate(s.ready_operatives(player)[0].id, "conceal")
    return g


def next_turning_point(g: GameBuilder, initiative: str = "Alice", rolls: dict[str, int] | None = None, control=None) -> GameBuilder:
    expend_all(g)
    g.end_turning_point(control=control)
    tp = g.state.turning_point + 1
    return g.turning_point(tp, rolls or ({"Alice": 5, "Bob": 2} if initiative == "Alice" else {"Alice": 2, "Bob": 5}), initiative)


def play_out(g: GameBuilder) -> GameBuilder:
    """Finish the battle: every remaining turning point with no actions, Alice with initiative."""
    while g.state.turning_point < 4:
        next_turning_point(g)
    expend_all(g)
    return g.end_turning_point()


@pytest.fixture
def store(tmp_path) -> Store:
    s = Store(tmp_path / "ktlog.db")
    yield s
    s.close()


@pytest.fixture(scope="session")
def kasrkin():
    return load_roster(ROSTERS / "kasrkin.toml")


@pytest.fixture(scope="session")
def legionaries():
    return load_roster(ROSTERS / "legionaries.toml")


USER_FOLDERS = ("HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME")
"""Where ktlog finds the user's database, keys, rosters and demo database (platformdirs): each
test process gets its own, so that no test reads or writes the user's, and no two xdist
workers share one."""
KTLOG_SETTINGS = ("KTLOG_DB", "KTLOG_KEYS", "KTLOG_ROSTERS", "KTLOG_DEBUG")
"""ktlog's environment variables: a test that wants one sets it (monkeypatch.setenv)."""


def pytest_configure(config: pytest.Config) -> None:
    """A home folder of this process's own for the whole run (each xdist worker runs this too),
    uv's cache kept where it was so the wheel installs from it."""
    os.environ.setdefault("UV_CACHE_DIR", str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "uv"))
    os.environ.setdefault("UV_SYSTEM_CERTS", "1")  # the machine's certificates, as the set-up's `uv --system-certs`
    home = Path(tempfile.mkdtemp(prefix="ktlog-test-home-"))
    config.stash[HOME_KEY] = home
    for name in USER_FOLDERS:
        os.environ.pop(name, None)
    for name in KTLOG_SETTINGS:
        os.environ.pop(name, None)
    os.environ["HOME"] = str(home)


def pytest_unconfigure(config: pytest.Config) -> None:
    home = config.stash.get(HOME_KEY, None)
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)


HOME_KEY = pytest.StashKey[Path]()


LAYER_MARKERS = {
    "test_tui_": "tui",
    "test_reliability_": "reliability",
    "test_wheel": "slow",
    "test_docs": "slow",
    "test_dataset_s3": "slow",  # a local S3 server (moto): 19 CPU-s
    "test_board_properties": "slow",  # sampled lines of sight against the rules: 13 CPU-s
}
"""A test file's name prefix -> the marker its tests get (`make test-fast` leaves these out)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for prefix, marker in LAYER_MARKERS.items():
            if item.path.name.startswith(prefix):
                item.add_marker(marker)


FIGURES: Counter[str] = Counter()
"""What the reliability tests measured in this run (kills survived, conflicts raised ...)."""


@pytest.fixture(scope="session")
def figures() -> Counter[str]:
    """Add a measured count: `figures["crash: kills survived"] += 1`. Printed at the end of the run."""
    return FIGURES


def pytest_terminal_summary(terminalreporter) -> None:
    slowest(terminalreporter)
    if FIGURES:
        terminalreporter.write_sep("-", "reliability figures (quoted in docs/reliability.md)")
        for name, value in sorted(FIGURES.items()):
            terminalreporter.write_line(f"{name}: {value:,}")


@pytest.fixture(scope="module")
def chromium():
    """One headless Chromium for a module's browser tests (tests/web_server.py: each opens
    contexts of its own in it), or the test skipped saying why."""
    from web_server import playwright_or_skip, started_chromium

    playwright_or_skip("the browser tests")
    with started_chromium() as browser:
        yield browser


@pytest.fixture
def contexts(chromium):
    """Opens a new, empty profile in the module's Chromium (cookies and storage of its own) with one
    page, as a browser just started has: `contexts(**PHONE).pages[0]`. Each is closed when the test ends."""
    made = []

    def new(**options):
        context = chromium.new_context(**options)
        context.new_page()
        made.append(context)
        return context

    yield new
    for context in made:
        context.close()


@pytest.fixture
def web_game(tmp_path: Path) -> tuple[Path, str]:
    """A database holding the hostile Approved Ops game (tests/web_support.py) up to seq 60: both
    tac ops chosen, not revealed."""
    from web_support import store_part

    db = tmp_path / "web.db"
    game_id, _ = store_part(db, 60)
    return db, game_id


@pytest.fixture
def web_client(web_game):
    """A client of `ktlog serve`'s app over `web_game`, as a browser at 127.0.0.1 asks."""
    from starlette.testclient import TestClient

    from ktlog.web.app import make_app

    with TestClient(make_app(web_game[0]), base_url="http://127.0.0.1:8787") as c:
        yield c


SLOWEST = 15
"""The slowest tests every run names at its end (setup, call and teardown added up)."""


def slowest(terminalreporter) -> None:
    """The SLOWEST tests of the run, each its whole time: where the suite's minutes go."""
    totals: Counter[str] = Counter()
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport):
                totals[report.nodeid] += report.duration
    if totals:
        terminalreporter.write_sep("-", f"the slowest {min(SLOWEST, len(totals))} tests (setup + call + teardown)")
        for nodeid, seconds in totals.most_common(SLOWEST):
            terminalreporter.write_line(f"{seconds:7.2f}s  {nodeid}")


UV = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv") or "uv"
"""The installer of the test extras (beside this run's Python), which builds and installs the wheel."""

SOURCES = ("ktlog", "pyproject.toml", "README.md", "LICENSE")
"""What the wheel is built from, copied to a clean folder so that no stale build/ output slips in."""


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{args} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    return result


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """This run's lock on `path`: one xdist worker at a time inside."""
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Path:
    """The `bin` folder of a fresh virtual environment with ktlog's wheel installed as a user
    installs it (`uv tool install '.[charts]'`, as the README says for charts: the wheel and its
    charts extra, their dependencies from the index, not editable).
    Built once per run: the first xdist worker to ask builds it in the run's shared temporary
    folder, the others wait for it and use it (tests/test_wheel.py, tests/test_docs.py)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / "installed"
    with _locked(shared / "installed.lock"):
        failed = folder / "failed"
        if failed.exists():
            pytest.fail(f"the wheel did not build or install (in another worker):\n{failed.read_text()}")
        if not (folder / "ready").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            try:
                _build_and_install(folder)
            except AssertionError as exc:
                failed.write_text(str(exc))
                raise
            (folder / "ready").touch()
    return folder / "venv" / "bin"


def _build_and_install(folder: Path) -> None:
    source = folder / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    run(UV, "build", "--quiet", "--wheel", "--out-dir", folder / "wheel", source, cwd=folder)
    (wheel,) = (folder / "wheel").glob("ktlog-*.whl")
    venv.create(folder / "venv")  # no pip of its own, as `uv tool install` and pipx's shared pip make it
    run(UV, "pip", "install", "--quiet", "--python", folder / "venv" / "bin" / "python", f"{wheel}[charts]", cwd=folder)


@pytest.fixture(scope="session")
def wheel(installed) -> Path:
    """The wheel `installed` was installed from."""
    (built,) = (installed.parent.parent / "wheel").glob("ktlog-*.whl")
    return built


def user_environment(home: Path, bin_folder: Path) -> dict[str, str]:
    """The environment of a user whose home is `home` and whose `ktlog` is the one in
    `bin_folder`: no ktlog or Python setting of this run, no other virtual environment on the PATH."""
    ours = Path(sys.executable).parent
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and Path(p) != ours]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KTLOG_", "PYTHON", "VIRTUAL_ENV", "XDG_"))}
    return env | {"HOME": str(home), "PATH": os.pathsep.join([str(bin_folder), *path])}

"""Shared fixtures: small datacards with easy numbers, and games brought to a chosen moment."""

from __future__ import annotations

from collections import Counter
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


LAYER_MARKERS = {"test_tui_": "tui", "test_reliability_": "reliability", "test_wheel": "slow", "test_docs": "slow"}
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
    if FIGURES:
        terminalreporter.write_sep("-", "reliability figures (quoted in docs/reliability.md)")
        for name, value in sorted(FIGURES.items()):
            terminalreporter.write_line(f"{name}: {value:,}")


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

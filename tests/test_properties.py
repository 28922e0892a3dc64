"""Properties over random legal games (the simulator) and random dice (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ktlog.play.replay import Replay
from ktlog.play.simulate import load_sim_rosters, simulate_games
from ktlog.reducer import fold
from ktlog.rules.rulings import allocate_saves

ROSTERS = load_sim_rosters()


def play(seed: int):
    ((game_id, g),) = simulate_games(1, seed, rosters=ROSTERS)
    return game_id, g


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_folding_from_a_snapshot_equals_folding_from_the_start(seed, data):
    game_id, g = play(seed)
    replay = Replay([e for e, _ in g.sealed(game_id, "2026-01-01T10:00:00+00:00")], every=25)
    voids = [(seq, e.target) for seq, e in enumerate(g.events, 1) if type(e).__name__ == "EventVoided"]
    for seq in data.draw(st.lists(st.integers(0, len(g.events)), min_size=3, max_size=8)):
        expected = fold(g.events[:seq])
        expected.seq = seq
        assert replay.seek(seq) == expected
        start = seq - replay.last_seek_cost
        # The seek starts from the latest snapshot no later undo reaches past: fewer than 25
        # events back unless an undo does reach past the one before.
        latest = seq - seq % 25
        assert start == latest or any(latest < v <= seq and t <= latest for v, t in voids)


def brute_force(normal_hits, critical_hits, normal_saves, critical_saves, nd, cd):
    """Every way of spending the saves on the hits, by the rules of pg 43; the least damage."""
    best = None
    for cc in range(min(critical_saves, critical_hits) + 1):
        for cn in range(min(critical_saves - cc, normal_hits) + 1):
            for pairs in range(min(normal_saves // 2, critical_hits - cc) + 1):
                nn = min(normal_saves - 2 * pairs, normal_hits - cn)
                damage = (normal_hits - cn - nn) * nd + (critical_hits - cc - pairs) * cd
                best = damage if best is None else min(best, damage)
    return best


@given(*(st.integers(0, 5) for _ in range(4)), st.integers(0, 7), st.integers(0, 7))
def test_save_allocation_is_the_least_damage_ruling_4(nh, ch, ns, cs, nd, cd):
    n, c = allocate_saves(nh, ch, ns, cs, nd, cd)
    assert 0 <= n <= nh and 0 <= c <= ch
    assert n * nd + c * cd == brute_force(nh, ch, ns, cs, nd, cd)


@given(st.tuples(*[st.integers(1, 6)] * 4), st.tuples(*[st.integers(1, 6)] * 3), st.integers(2, 6))
def test_better_saves_never_mean_more_damage(attack_dice, saves, save_stat):
    from conftest import gun

    from ktlog.play.builder import attack
    from ktlog.rules.shooting import resolve_shooting

    weapon = gun("G", 4, 4, (3, 4), "Lethal 5+")
    roll = "".join(map(str, attack_dice))
    with_saves = resolve_shooting(weapon, attack("t", roll, "".join(map(str, saves))), hit=4, save=save_stat)
    without = resolve_shooting(weapon, attack("t", roll, "111"), hit=4, save=save_stat)
    assert 0 <= with_saves.damage <= without.damage
    assert without.damage == 3 * without.normal_hits + 4 * without.critical_hits

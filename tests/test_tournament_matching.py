"""ktlog's maximum-weight matching (ktlog/play/tournament_matching.py) against networkx's
`max_weight_matching`: the same total weight on random graphs, dense and sparse, with weights as
close together as a Swiss round's, and the priced version (`match`, started from a few of the
edges) exact too."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ktlog.play.tournament_matching import match, max_weight_matching


def weight(mate: list[int], edges: list[tuple[int, int, int]]) -> int:
    weights = {frozenset((i, j)): w for i, j, w in edges}
    assert all(mate[m] == v for v, m in enumerate(mate) if m != -1), "a mate's mate is the vertex itself"
    return sum(weights[frozenset((v, m))] for v, m in enumerate(mate) if m > v)


def networkx_weight(count: int, edges: list[tuple[int, int, int]]) -> int:
    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    graph.add_weighted_edges_from(edges)
    return sum(graph[a][b]["weight"] for a, b in nx.max_weight_matching(graph))


@st.composite
def graphs(draw, most: int = 16) -> tuple[int, list[tuple[int, int, int]]]:
    count = draw(st.integers(1, most))
    density = draw(st.floats(0.1, 1.0))
    top = draw(st.sampled_from([3, 20, 1000, 10**9]))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    edges = [(i, j, rng.randint(1, top)) for i in range(count) for j in range(i + 1, count) if rng.random() < density]
    return count, edges


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_the_same_weight_as_networkx(graph) -> None:
    count, edges = graph
    assert weight(max_weight_matching(count, edges), edges) == networkx_weight(count, edges)


@settings(max_examples=200, deadline=None)
@given(graphs(), st.floats(0.0, 1.0), st.integers(0, 2**32))
def test_pricing_from_a_few_edges_is_exact(graph, share: float, seed: int) -> None:
    count, edges = graph
    start = [e for e in edges if random.Random(seed).random() < share]
    assert weight(match(count, start, lambda: iter(edges)), edges) == networkx_weight(count, edges)


@pytest.mark.parametrize("seed", range(4))
def test_a_large_round_like_graph(seed: int) -> None:
    """60 vertices, weights a big constant less small costs (as a Swiss round's), 1 in 10 pairs missing (rematches)."""
    rng = random.Random(seed)
    edges = [(i, j, 10**12 - rng.choice([0, 10**6]) * rng.randint(0, 3) - abs(i - j)) for i in range(60) for j in range(i + 1, 60) if rng.random() > 0.1]
    near = [e for e in edges if abs(e[0] - e[1]) <= 2]
    assert weight(match(60, near, lambda: iter(edges)), edges) == networkx_weight(60, edges)

"""A maximum-weight matching of a general graph, for pairing a Swiss round (`tournament_swiss`):
Edmonds' blossom algorithm with dual variables (Galil's O(n^3) primal-dual form, as J. van
Rantwijk's mwmatching and networkx's `max_weight_matching` implement it), integer weights only.

Why not networkx's: a round of 256 players is a graph of 32,000 edges, which its
`max_weight_matching` pairs in 2.3 s CPU on this machine. Nearly every pair a round keeps is
between players close in the standings, so `match` first solves the graph of each player's
nearest candidates, then prices every other pair with the solution's duals: a pair whose reduced
cost is negative could improve the matching and is added, and the graph solved again. When no
pair is left with a negative reduced cost the duals prove the matching maximum over every pair
(linear programming duality), so the answer is exact, not a heuristic. tests/test_tournament_
matching.py checks it against networkx and against brute force.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

Edge = tuple[int, int, int]
"""(vertex, vertex, weight)."""
ADDED_PER_VERTEX = 2
"""Pricing adds each vertex's most improving pairs, this many, before solving again."""


class _Solution:
    """A maximum-weight matching of the edges given, with the duals that prove it."""

    def __init__(self, mate: list[int], dual: list[int], parent: list[int], blossom_dual: list[int]):
        self.mate, self._dual, self._parent, self._blossom_dual = mate, dual, parent, blossom_dual
        self._chains: dict[int, tuple[list[int], list[int]]] = {}

    def _chain(self, v: int) -> tuple[list[int], list[int]]:
        """The blossoms holding vertex `v`, outermost first, and the sums of their doubled duals
        from the outermost to each."""
        found = self._chains.get(v)
        if found is None:
            blossoms, b = [], self._parent[v]
            while b != -1:
                blossoms.append(b)
                b = self._parent[b]
            blossoms.reverse()
            sums, total = [], 0
            for b in blossoms:
                total += 2 * self._blossom_dual[b]
                sums.append(total)
            found = self._chains[v] = (blossoms, sums)
        return found

    def reduced_cost(self, i: int, j: int, weight: int) -> int:
        """The edge's slack under the duals (twice the reduced cost): negative, it would improve
        the matching. The blossoms holding both ends count too (they are nested: a common outermost
        part of the two chains, found by bisection)."""
        slack = self._dual[i] + self._dual[j] - 2 * weight
        if self._parent[i] == -1 or self._parent[j] == -1:
            return slack
        (mine, sums), (theirs, _) = self._chain(i), self._chain(j)
        low, high = 0, min(len(mine), len(theirs))  # mine[:low] == theirs[:low]; they differ at `high` or end there
        while low < high:
            middle = (low + high + 1) // 2
            if mine[middle - 1] == theirs[middle - 1]:
                low = middle
            else:
                high = middle - 1
        return slack + (sums[low - 1] if low else 0)


def match(count: int, candidates: Iterable[Edge], every_pair: Callable[[], Iterator[Edge]]) -> list[int]:
    """The maximum-weight matching over `every_pair()` (vertices 0..count-1, integer weights),
    solved on `candidates` first and extended by pricing (see the module's docstring). Returns
    each vertex's mate, or -1."""
    edges = {(min(i, j), max(i, j)): w for i, j, w in candidates}
    while True:
        solution = _solve(count, [(i, j, w) for (i, j), w in edges.items()])
        worst: dict[int, list[tuple[int, int, int, int]]] = {}
        for i, j, w in every_pair():
            if (min(i, j), max(i, j)) not in edges and (slack := solution.reduced_cost(i, j, w)) < 0:
                for v in (i, j):
                    worst.setdefault(v, []).append((slack, i, j, w))
        if not worst:
            return solution.mate
        for found in worst.values():
            found.sort()
            edges.update({(min(i, j), max(i, j)): w for _, i, j, w in found[:ADDED_PER_VERTEX]})


def max_weight_matching(count: int, edges: list[Edge]) -> list[int]:
    """The maximum-weight matching of the graph (not necessarily of maximum cardinality): each vertex's mate, or -1."""
    return _solve(count, edges).mate


def _solve(nvertex: int, edges: list[Edge]) -> _Solution:
    """Edmonds' algorithm (`_Edmonds`) on the graph."""
    return _Edmonds(nvertex, edges).solve()


class _Edmonds:
    """Edmonds' algorithm's state over one graph, its steps as methods (van Rantwijk's names). Vertex
    duals are kept doubled (an edge's slack is du + dv - 2w), so with integer weights every dual
    stays an integer. The lists are only ever changed in place: the steps run most bind those they use to
    locals, for speed."""

    def __init__(self, nvertex: int, edges: list[Edge]):
        self.nvertex, self.edges = nvertex, edges
        self.nedge = nedge = len(edges)
        self.maxweight = max([0, *(w for _, _, w in edges)])
        self.endpoint = [edges[p // 2][p % 2] for p in range(2 * nedge)]
        self.neighbend: list[list[int]] = [[] for _ in range(nvertex)]
        for k, (i, j, _) in enumerate(edges):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        self.mate = [-1] * nvertex  # the remote endpoint (index into `endpoint`) of the vertex's matched edge
        self.label = [0] * (2 * nvertex)  # 0 free, 1 S, 2 T (5: S, marked while scanning)
        self.labelend = [-1] * (2 * nvertex)
        self.inblossom = list(range(nvertex))
        self.blossomparent = [-1] * (2 * nvertex)
        self.blossomchilds: list[list[int] | None] = [None] * (2 * nvertex)
        self.blossombase = list(range(nvertex)) + [-1] * nvertex
        self.blossomendps: list[list[int] | None] = [None] * (2 * nvertex)
        self.bestedge = [-1] * (2 * nvertex)
        self.blossombestedges: list[list[int] | None] = [None] * (2 * nvertex)
        self.unusedblossoms = list(range(nvertex, 2 * nvertex))
        self.dualvar = [self.maxweight] * nvertex + [0] * nvertex
        self.allowedge = [False] * nedge
        self.queue: list[int] = []
        self.ends_i = [i for i, _, _ in edges]
        self.ends_j = [j for _, j, _ in edges]
        self.doubled = [2 * w for _, _, w in edges]

    def solve(self) -> _Solution:
        """Stage by stage, each augmenting the matching by one edge, until none can."""
        nvertex, mate, label, inblossom, blossombase, blossomparent, dualvar = (
            self.nvertex,
            self.mate,
            self.label,
            self.inblossom,
            self.blossombase,
            self.blossomparent,
            self.dualvar,
        )
        for _ in range(nvertex):
            label[:] = [0] * (2 * nvertex)
            self.bestedge[:] = [-1] * (2 * nvertex)
            self.blossombestedges[nvertex:] = [None] * nvertex
            self.allowedge[:] = [False] * self.nedge
            self.queue[:] = []
            for v in range(nvertex):
                if mate[v] == -1 and label[inblossom[v]] == 0:
                    self.assign_label(v, 1, -1)
            augmented = False
            while not (augmented := self.grow()):
                if self.change_duals():
                    break  # a free vertex's dual reached 0: the matching is maximum
            if not augmented:
                break
            for b in range(nvertex, 2 * nvertex):  # end of a stage: blossoms whose dual is 0 open up
                if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                    self.expand_blossom(b, True)
        mates = [self.endpoint[m] if m >= 0 else -1 for m in mate]
        return _Solution(mates, dualvar[:nvertex], blossomparent, dualvar)

    def grow(self) -> bool:
        """Scan the S-vertices queued along tight edges: label, make blossoms, and True once an
        augmenting path was found (and the matching augmented)."""
        endpoint, neighbend, label, labelend, inblossom, bestedge, dualvar, allowedge, queue, doubled = (
            self.endpoint,
            self.neighbend,
            self.label,
            self.labelend,
            self.inblossom,
            self.bestedge,
            self.dualvar,
            self.allowedge,
            self.queue,
            self.doubled,
        )
        while queue:
            v = queue.pop()
            for p in neighbend[v]:
                k = p // 2
                w = endpoint[p]
                if inblossom[v] == inblossom[w]:
                    continue
                kslack = 0
                if not allowedge[k]:
                    kslack = dualvar[v] + dualvar[w] - doubled[k]
                    if kslack <= 0:
                        allowedge[k] = True
                if allowedge[k]:
                    if label[inblossom[w]] == 0:
                        self.assign_label(w, 2, p ^ 1)
                    elif label[inblossom[w]] == 1:
                        base = self.scan_blossom(v, w)
                        if base < 0:
                            self.augment_matching(k)
                            return True
                        self.add_blossom(base, k)
                    elif label[w] == 0:
                        label[w] = 2
                        labelend[w] = p ^ 1
                elif label[inblossom[w]] == 1:
                    b = inblossom[v]
                    if bestedge[b] == -1 or kslack < self.slack(bestedge[b]):
                        bestedge[b] = k
                elif label[w] == 0:
                    if bestedge[w] == -1 or kslack < self.slack(bestedge[w]):
                        bestedge[w] = k
        return False

    def change_duals(self) -> bool:
        """No augmenting path with the tight edges: change the duals by the smallest of four
        deltas (`smallest_delta`), and act on the one that bound it. True when it was a free
        vertex's dual reaching 0: the matching is maximum."""
        nvertex, label, inblossom, blossomparent, blossombase, dualvar = (
            self.nvertex,
            self.label,
            self.inblossom,
            self.blossomparent,
            self.blossombase,
            self.dualvar,
        )
        deltatype, delta, deltaedge, deltablossom = self.smallest_delta()
        for v in range(nvertex):
            if label[inblossom[v]] == 1:
                dualvar[v] -= delta
            elif label[inblossom[v]] == 2:
                dualvar[v] += delta
        for b in range(nvertex, 2 * nvertex):
            if blossombase[b] >= 0 and blossomparent[b] == -1:
                if label[b] == 1:
                    dualvar[b] += delta
                elif label[b] == 2:
                    dualvar[b] -= delta
        if deltatype == 1:
            return True
        if deltatype == 4:
            self.expand_blossom(deltablossom, False)
            return False
        self.allowedge[deltaedge] = True
        i, j, _ = self.edges[deltaedge]
        if deltatype == 2 and label[inblossom[i]] == 0:
            i, j = j, i
        self.queue.append(i)
        return False

    def smallest_delta(self) -> tuple[int, int, int, int]:
        """The smallest of the four deltas, and which: (1, a free vertex's dual), (2, a free vertex's
        best edge's slack, its edge), (3, half an S-S edge's slack, its edge), (4, a T-blossom's
        dual, its blossom), as (type, delta, edge, blossom)."""
        nvertex, label, inblossom, blossomparent, blossombase, bestedge, dualvar = (
            self.nvertex,
            self.label,
            self.inblossom,
            self.blossomparent,
            self.blossombase,
            self.bestedge,
            self.dualvar,
        )
        deltatype, delta, deltaedge, deltablossom = 1, min(dualvar[:nvertex]), -1, -1
        for v in range(nvertex):
            if label[inblossom[v]] == 0 and bestedge[v] != -1:
                d = self.slack(bestedge[v])
                if d < delta:
                    delta, deltatype, deltaedge = d, 2, bestedge[v]
        for b in range(2 * nvertex):
            if blossomparent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                kslack = self.slack(bestedge[b])
                assert kslack % 2 == 0, "integer weights keep an S-S edge's slack even"
                d = kslack // 2
                if d < delta:
                    delta, deltatype, deltaedge = d, 3, bestedge[b]
        for b in range(nvertex, 2 * nvertex):
            if blossombase[b] >= 0 and blossomparent[b] == -1 and label[b] == 2 and dualvar[b] < delta:
                delta, deltatype, deltablossom = dualvar[b], 4, b
        return deltatype, delta, deltaedge, deltablossom

    def slack(self, k: int) -> int:
        dualvar, ends_i, ends_j, doubled = self.dualvar, self.ends_i, self.ends_j, self.doubled
        return dualvar[ends_i[k]] + dualvar[ends_j[k]] - doubled[k]

    def leaves(self, b: int) -> Iterator[int]:
        nvertex, blossomchilds = self.nvertex, self.blossomchilds
        if b < nvertex:
            yield b
        else:
            for t in blossomchilds[b] or ():
                yield from self.leaves(t)

    def assign_label(self, w: int, t: int, p: int) -> None:
        endpoint, mate, label, labelend, inblossom, blossombase, bestedge, queue = (
            self.endpoint,
            self.mate,
            self.label,
            self.labelend,
            self.inblossom,
            self.blossombase,
            self.bestedge,
            self.queue,
        )
        b = inblossom[w]
        label[w] = label[b] = t
        labelend[w] = labelend[b] = p
        bestedge[w] = bestedge[b] = -1
        if t == 1:
            queue.extend(self.leaves(b))
        else:
            base = blossombase[b]
            self.assign_label(endpoint[mate[base]], 1, mate[base] ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        """The base of the blossom an S-S edge closes, or -1 if it joins two trees (an augmenting path)."""
        endpoint, label, labelend, inblossom, blossombase = self.endpoint, self.label, self.labelend, self.inblossom, self.blossombase
        path, base = [], -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        v, w, _ = self.edges[k]
        bb, bv, bw = self.inblossom[base], self.inblossom[v], self.inblossom[w]
        b = self.unusedblossoms.pop()
        self.blossombase[b] = base
        self.blossomparent[b] = -1
        self.blossomparent[bb] = b
        path: list[int] = []
        endps: list[int] = []
        self.blossomchilds[b], self.blossomendps[b] = path, endps
        while bv != bb:
            self.blossomparent[bv] = b
            path.append(bv)
            endps.append(self.labelend[bv])
            v = self.endpoint[self.labelend[bv]]
            bv = self.inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            self.blossomparent[bw] = b
            path.append(bw)
            endps.append(self.labelend[bw] ^ 1)
            w = self.endpoint[self.labelend[bw]]
            bw = self.inblossom[w]
        self.label[b] = 1
        self.labelend[b] = self.labelend[bb]
        self.dualvar[b] = 0
        for v in self.leaves(b):
            if self.label[self.inblossom[v]] == 2:
                self.queue.append(v)
            self.inblossom[v] = b
        bestedgeto = [-1] * (2 * self.nvertex)
        for bv in path:
            own = self.blossombestedges[bv]
            nblists = [[p // 2 for p in self.neighbend[v]] for v in self.leaves(bv)] if own is None else [own]
            for nblist in nblists:
                for k in nblist:
                    i, j, _ = self.edges[k]
                    if self.inblossom[j] == b:
                        i, j = j, i
                    bj = self.inblossom[j]
                    if bj != b and self.label[bj] == 1 and (bestedgeto[bj] == -1 or self.slack(k) < self.slack(bestedgeto[bj])):
                        bestedgeto[bj] = k
            self.blossombestedges[bv] = None
            self.bestedge[bv] = -1
        best = [k for k in bestedgeto if k != -1]
        self.blossombestedges[b] = best
        self.bestedge[b] = -1
        for k in best:
            if self.bestedge[b] == -1 or self.slack(k) < self.slack(self.bestedge[b]):
                self.bestedge[b] = k

    def expand_blossom(self, b: int, endstage: bool) -> None:
        childs = self.blossomchilds[b]
        endps = self.blossomendps[b]
        assert childs is not None and endps is not None
        for s in childs:
            self.blossomparent[s] = -1
            if s < self.nvertex:
                self.inblossom[s] = s
            elif endstage and self.dualvar[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for v in self.leaves(s):
                    self.inblossom[v] = s
        if not endstage and self.label[b] == 2:
            entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]]
            j = childs.index(entrychild)
            if j & 1:
                j -= len(childs)
                jstep, endptrick = 1, 0
            else:
                jstep, endptrick = -1, 1
            p = self.labelend[b]
            while j != 0:
                self.label[self.endpoint[p ^ 1]] = 0
                self.label[self.endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
                self.assign_label(self.endpoint[p ^ 1], 2, p)
                self.allowedge[endps[j - endptrick] // 2] = True
                j += jstep
                p = endps[j - endptrick] ^ endptrick
                self.allowedge[p // 2] = True
                j += jstep
            bv = childs[j]
            self.label[self.endpoint[p ^ 1]] = self.label[bv] = 2
            self.labelend[self.endpoint[p ^ 1]] = self.labelend[bv] = p
            self.bestedge[bv] = -1
            j += jstep
            while childs[j] != entrychild:
                bv = childs[j]
                if self.label[bv] == 1:
                    j += jstep
                    continue
                v = -1
                for v in self.leaves(bv):
                    if self.label[v] != 0:
                        break
                if self.label[v] != 0:
                    self.label[v] = 0
                    self.label[self.endpoint[self.mate[self.blossombase[bv]]]] = 0
                    self.assign_label(v, 2, self.labelend[v])
                j += jstep
        self.label[b] = self.labelend[b] = -1
        self.blossomchilds[b] = self.blossomendps[b] = None
        self.blossombase[b] = -1
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.unusedblossoms.append(b)

    def augment_blossom(self, b: int, v: int) -> None:
        nvertex, endpoint, mate, blossomparent, blossomchilds, blossombase, blossomendps = (
            self.nvertex,
            self.endpoint,
            self.mate,
            self.blossomparent,
            self.blossomchilds,
            self.blossombase,
            self.blossomendps,
        )
        t = v
        while blossomparent[t] != b:
            t = blossomparent[t]
        if t >= nvertex:
            self.augment_blossom(t, v)
        childs = blossomchilds[b]
        endps = blossomendps[b]
        assert childs is not None and endps is not None
        i = j = childs.index(t)
        if i & 1:
            j -= len(childs)
            jstep, endptrick = 1, 0
        else:
            jstep, endptrick = -1, 1
        while j != 0:
            j += jstep
            t = childs[j]
            p = endps[j - endptrick] ^ endptrick
            if t >= nvertex:
                self.augment_blossom(t, endpoint[p])
            j += jstep
            t = childs[j]
            if t >= nvertex:
                self.augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = childs[i:] + childs[:i]
        blossomendps[b] = endps[i:] + endps[:i]
        blossombase[b] = blossombase[childs[i]]

    def augment_matching(self, k: int) -> None:
        nvertex, edges, endpoint, mate, labelend, inblossom = self.nvertex, self.edges, self.endpoint, self.mate, self.labelend, self.inblossom
        v, w, _ = edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    self.augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= nvertex:
                    self.augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1

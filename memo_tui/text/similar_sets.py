"""Every pair of sets at Jaccard >= t among many sets of numbers, the sets held in arrays.

The join is AllPairs' prefix filter. Under one global order of the tokens, two sets at Jaccard >= t
share one of the first |s| - ceil(t |s|) + 1 tokens of each. The order here is rarest first: a token
no other set holds comes first, by value (it counts as held once); then by how many sets hold it,
ties by value. A token one set alone holds cannot be shared, so it is neither indexed nor compared:
each set is reduced to its size and its shared tokens, which is all an exact Jaccard needs. Sets
visited from small to large probe with their first |x| - ceil(t |x|) + 1 tokens and are indexed under
their first |y| - ceil(2t / (1 + t) |y|) + 1: a pair at Jaccard >= t shares one of those, its smaller
side visited first. Every pair proposed is verified exactly.

The tokens live in numpy arrays, and counting, ordering and pairing are sorts of those arrays: a
search of 100,000 passages holds six million 3-grams, and a Python object for each cost more than
the search itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain

import numpy as np

from memo_tui.runtime.codec import PAIR_LOW, PAIR_SHIFT

_MIX = tuple(np.uint64(m) for m in (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9))
_SHIFT = np.uint64(32)
_STEP = 8192  # lists turned into 3-grams at a time (bounds the temporaries)
_PAIRS_STEP = 1 << 22  # candidate pairs expanded at a time
_LOW = np.int64(PAIR_LOW)
CHEAP_CANDIDATES = 8  # candidates per set below which a family's own index drives the join alone


@dataclass(frozen=True)
class Packed:
    """Sets of int64 tokens as two arrays: token k is in set owners[k], owners ascending. A set may
    hold a token more than once here; the plan counts it once."""

    owners: np.ndarray
    tokens: np.ndarray
    count: int  # how many sets

    @classmethod
    def of(cls, sets: Sequence[Iterable[int]]) -> Packed:
        sizes = np.fromiter(map(len, sets), np.int64, len(sets))
        tokens = np.fromiter(chain.from_iterable(sets), np.int64, int(sizes.sum()))
        return cls(np.repeat(np.arange(len(sets), dtype=np.int64), sizes), tokens, len(sets))

    def sets(self) -> list[set[int]]:
        bounds = np.searchsorted(self.owners, np.arange(self.count + 1)).tolist()
        tokens = self.tokens.tolist()
        return [set(tokens[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]


def grams(id_lists: Sequence[Sequence[int]]) -> Packed:
    """Each list's 3-grams (three numbers in a row, each under 2**64) hashed to one int64: the same
    in every process and every run, so that a search can keep them for the next one."""
    owners, tokens = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    for start in range(0, len(id_lists), _STEP):
        lists = id_lists[start : start + _STEP]
        lengths = np.fromiter(map(len, lists), np.int64, len(lists))
        ids = np.fromiter(chain.from_iterable(lists), np.uint64, int(lengths.sum()))
        per = np.maximum(lengths - 2, 0)
        mine = np.repeat(np.arange(start, start + len(lists), dtype=np.int64), per)
        # the place of each 3-gram's first number: its list's start, plus its place among the list's 3-grams
        at = np.arange(len(mine)) + np.repeat(np.cumsum(lengths) - lengths - (np.cumsum(per) - per), per)
        hashed = ids[at] * _MIX[0]
        for k in (1, 2):  # a product's high bits folded down first: multiplying leaves the top bit alone
            hashed ^= hashed >> _SHIFT
            hashed ^= ids[at + k]
            hashed *= _MIX[k]
        hashed ^= hashed >> _SHIFT
        owners.append(mine)
        tokens.append(hashed.view(np.int64))
    return Packed(np.concatenate(owners), np.concatenate(tokens), len(id_lists))


def _first_places(owners: np.ndarray, count: int) -> np.ndarray:
    """Each entry's place among its set's entries (`owners` ascending)."""
    return np.arange(len(owners)) - np.searchsorted(owners, np.arange(count))[owners]


def _ceil(values: np.ndarray) -> np.ndarray:
    return np.ceil(values - 1e-9).astype(np.int64)


class Plan:
    """The prefix filter's plan for one family of sets at one threshold: each set's size, its shared
    tokens (as their ranks in the order), the tokens it probes with and those it is indexed under.
    `common`: the tokens two sets or more hold, with how many hold each; `cost`: the candidate pairs
    the index hands out."""

    def __init__(self, packed: Packed, threshold: float) -> None:
        count = self.count = packed.count
        self.threshold = threshold
        by_token = np.argsort(packed.tokens, kind="stable")  # stable: a set's repeats of a token stay side by side
        tokens, owners = packed.tokens[by_token], packed.owners[by_token]
        del by_token
        fresh = np.ones(len(tokens), bool)  # the first entry of its token
        np.not_equal(tokens[1:], tokens[:-1], out=fresh[1:])
        once = fresh.copy()
        once[1:] |= owners[1:] != owners[:-1]
        tokens, owners, fresh = tokens[once], owners[once], fresh[once]
        token_at = np.cumsum(fresh) - 1  # each entry's token, as its place among the distinct tokens by value
        distinct = tokens[fresh]
        held = np.bincount(token_at, minlength=len(distinct))
        common = np.flatnonzero(held > 1)
        by_order = np.lexsort((common, held[common]))  # rarest first, ties by value
        self.common = (distinct[common[by_order]], held[common[by_order]])
        rank = np.full(len(distinct), -1, np.int64)
        rank[common[by_order]] = np.arange(len(common))
        entry_rank = rank[token_at]
        del token_at, rank, fresh, once, distinct, held  # as long as the entries, or the tokens: let go
        shared = entry_rank >= 0
        sizes = self.sizes = np.bincount(owners, minlength=count)
        unique = sizes - np.bincount(owners[shared], minlength=count)
        self.room = np.where(sizes > 0, sizes - _ceil(threshold * sizes) + 1, 0)
        probing = self.room - unique
        tight = 2 * threshold / (1 + threshold)
        indexing = sizes - _ceil(tight * sizes) + 1 - unique
        keys = owners[shared]  # made in place: each temporary is as long as the shared entries
        keys <<= PAIR_SHIFT  # (owner, rank) as one number (`codec`'s pairs), sorted as the pairs would be
        keys |= entry_rank[shared]
        keys.sort()
        self.shared_owners, self.shared_ranks = keys >> PAIR_SHIFT, keys & _LOW
        place = _first_places(self.shared_owners, count)
        probe = place < probing[self.shared_owners]
        index = place < indexing[self.shared_owners]
        self.probes = (self.shared_owners[probe], self.shared_ranks[probe])
        self.indexed = (self.shared_owners[index], self.shared_ranks[index])
        self._alone = (owners[~shared], tokens[~shared])  # the tokens one set alone holds, by value

    @cached_property  # read twice when a family's own index is dear (`similar_pairs`)
    def cost(self) -> int:
        held = len(self.common[0])
        probed, indexed = np.bincount(self.probes[1], minlength=held), np.bincount(self.indexed[1], minlength=held)
        return int(np.dot(probed, indexed)) // 2

    def kept(self) -> tuple[dict[int, int], np.ndarray, np.ndarray]:
        """What a later search needs to compare new sets with these: the tokens two sets or more hold,
        with their counts, and each set's first |s| - ceil(t |s|) + 1 tokens in the order (set k's are
        tokens[ends[k - 1]:ends[k]]): those no other set holds first, by value, then the probes."""
        owners, tokens = self._alone
        by_owner = np.argsort(owners, kind="stable")  # tokens stay by value within a set
        owners, tokens = owners[by_owner], tokens[by_owner]
        first = _first_places(owners, self.count) < self.room[owners]
        owners = np.concatenate([owners[first], self.probes[0]])
        tokens = np.concatenate([tokens[first], self.common[0][self.probes[1]]])
        by_owner = np.argsort(owners, kind="stable")  # a set's own tokens before its probes
        ends = np.cumsum(np.bincount(owners, minlength=self.count))
        return dict(zip(self.common[0].tolist(), self.common[1].tolist(), strict=True)), tokens[by_owner], ends

    def candidates(self) -> tuple[np.ndarray, np.ndarray]:
        """The pairs (left < right) the index hands out: a set's probe met in the index of a set
        visited before it (smaller, or as large and earlier) that is large enough to reach t."""
        visit = np.empty(self.count, np.int64)
        visit[np.lexsort((np.arange(self.count), self.sizes))] = np.arange(self.count)
        by_token = np.argsort(self.indexed[1], kind="stable")
        indexed_owners, indexed_ranks = self.indexed[0][by_token], self.indexed[1][by_token]
        probe_owners, probe_ranks = self.probes
        low = np.searchsorted(indexed_ranks, probe_ranks, "left")
        met = np.searchsorted(indexed_ranks, probe_ranks, "right") - low
        found = [np.zeros(0, np.int64)]
        ends = np.cumsum(met)
        start = 0
        while start < len(met):  # a step of probes at a time, so that a template's millions of pairs fit
            stop = max(start + 1, int(np.searchsorted(ends, (ends[start - 1] if start else 0) + _PAIRS_STEP, "right")))
            lengths = met[start:stop]
            probers = np.repeat(probe_owners[start:stop], lengths)
            at = np.arange(len(probers)) + np.repeat(low[start:stop] - (np.cumsum(lengths) - lengths), lengths)
            others = indexed_owners[at]
            reach = self.sizes[others] >= self.threshold * self.sizes[probers] - 1e-9
            keep = (visit[others] < visit[probers]) & reach
            left, right = np.minimum(probers[keep], others[keep]), np.maximum(probers[keep], others[keep])
            found.append(np.unique(left * self.count + right))
            start = stop
        pairs = np.unique(np.concatenate(found))
        return pairs // max(self.count, 1), pairs % max(self.count, 1)

    def shared_sets(self, wanted: np.ndarray) -> dict[int, frozenset[int]]:
        """The shared tokens (as ranks) of each wanted set."""
        starts = np.searchsorted(self.shared_owners, wanted, "left").tolist()
        stops = np.searchsorted(self.shared_owners, wanted, "right").tolist()
        ranks = self.shared_ranks
        return {k: frozenset(ranks[a:b].tolist()) for k, a, b in zip(wanted.tolist(), starts, stops, strict=True)}


def similar_pairs(
    packed: Packed,
    threshold: float,
    also: tuple[list[set[int]], float] | None = None,
    kept: list | None = None,
) -> dict[tuple[int, int], float]:
    """Every pair (i < j) of sets with Jaccard >= threshold, with its score. `also` (other sets of the
    same items, another threshold): the pair must pass that too; the candidates then come from
    whichever index hands out fewer (both are exact), so that texts written from one template, which
    all look alike, are paired by what else they have in common. `kept`: a list to append
    `Plan.kept()` to, for a later search that compares new sets only."""
    plan = Plan(packed, threshold)
    del packed  # the plan holds what it needs: the 3-grams and their owners are let go before the join
    if kept is not None:
        kept.append(plan.kept())
    driver = plan
    if also is not None and plan.cost > CHEAP_CANDIDATES * plan.count:  # a template: try the other index
        other = Plan(Packed.of(also[0]), also[1])
        driver = other if other.cost < plan.cost else plan
    lefts, rights = driver.candidates()
    shared = plan.shared_sets(np.unique(np.concatenate([lefts, rights])))
    sizes = plan.sizes.tolist()
    found: dict[tuple[int, int], float] = {}
    for i, j in zip(lefts.tolist(), rights.tolist(), strict=True):
        if not (sizes[i] and sizes[j]):
            continue
        inter = len(shared[i] & shared[j])
        score = inter / (sizes[i] + sizes[j] - inter)
        if score < threshold - 1e-12:
            continue
        if also is not None:
            left, right = also[0][i], also[0][j]
            inter = len(left & right)
            if not (left and right) or inter / (len(left) + len(right) - inter) < also[1] - 1e-12:
                continue
        found[(i, j)] = score
    return found

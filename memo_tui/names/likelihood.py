"""The store's own share of same-pairs per pattern: the Fellegi–Sunter mixing weight, fitted by EM.

A candidate pair's likelihood is `logit(likelihood) = logit(share(pattern)) + x`, where `x` is what
the pair's own evidence adds (`evidence.weigh`: the sum of the pooled features' weights, each a log
likelihood ratio) and `share` is how many of the store's pairs of that pattern are the same. The
pooled share (`calibration.json`, fitted on hand-labelled kinds of text) is where the fit starts and
what it is pulled towards; every candidate pair of the store counts by how likely it is the same
under the current share (the E step), until the shares settle (the M step). The pooled share weighs
as much as the store's pairs (SHARE_PAIRS at least), so they move it at most halfway: when every pair
of a pattern carries the same mild doubt (written side by side, say), the fit alone would read that
as "none is the same", which is the model's blind spot, not the store's answer. The store's answers
are pairs whose class is known: they move the fitted share as much as SHARE_PAIRS pairs weigh against
them. So a small store keeps the pooled figures, and a store whose pairs of a pattern carry more (or
less) evidence of sameness than the labelled kinds did moves that pattern's share.

A name is one thing: of a pattern's pairs, a name is the same as a few others at most, its other
spellings (SPELLINGS), however many names the rule joins it to (`Python` and every package named
`Python ...`). So the same-pairs of a pattern are at most, over its pairs each given to its name
with more of them, the pairs each name got, SPELLINGS at most (`cover`), and the fitted share is at
most that over the pairs. Where a few names are joined to thousands, most of those pairs are
different things, whatever the pooled share says; pairs of names that meet no other are not bounded.

A store says how many things it spells twice; that says how many of its loose pairs (one name
inside another, a few edits apart, initials, a prefix) can be the same, where their own evidence says
nothing (one-line passages share no rare neighbour). Its anchors are its pairs of one name's spellings
(ANCHORS: case, spaces, hyphens), each counted by its fitted share, and the pairs reviewers merged of
them (not the folds made unasked: they are no pair of the store's any more, so the count stays put
from one pass to the next). A loose pattern's same-pairs are about the anchors times a pooled ratio
(`calibration.json`'s `anchor_ratios`: its judged same-pairs per judged same-pair of the anchors, in
the labelled stores), and its share is that over the store's pairs of the pattern (`anchored`).
Where names are many and duplicates few (fifty thousand package summaries), the loose pairs are
mostly different things; the estimate weighs as many pairs as the anchors it rests on, so a small
store keeps the pooled share.

Only the shares are fitted: fitting the features' ratios too (their m and u) was tried on the
labelled stores and sank half the true pairs below the floor (the store's mass of different pairs
pulls a feature's ratio wherever they lie). Deterministic: pairs are counted by (pattern, x) and the
fit visits those counts in sorted order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain

SHARE_PAIRS = 20.0  # how many pairs a pattern's pooled share weighs as against the store's own
ROUNDS = 50  # EM rounds at most; a round that moves no share by 1e-6 ends the fit
SETTLED = 1e-6
SPELLINGS = 2  # a name is the same as this many others of one pattern at most (`Deb`: `Debbie`, `Deborah`)
# the patterns of one name's spellings, nearly always the same: how many things a store spells twice
ANCHORS = ("same-merge-key", "case-lowercase", "joined-words")


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


@dataclass(frozen=True)
class Shares:
    """A store's fitted share of same-pairs per pattern, and what it was fitted on."""

    share: dict[str, float]  # pattern -> share of same-pairs in this store
    pairs: dict[str, int]  # pattern -> how many of the store's pairs it was fitted on
    pooled: Callable[[str], float]  # pattern -> the share pooled across kinds of text
    # pattern -> how many of its pairs can be the same at most (`cover`), where that held the share down
    bounded: dict[str, int] = field(default_factory=dict)
    # pattern -> how many of its pairs the store's anchors say are the same (`anchored`), where they said it
    expected: dict[str, int] = field(default_factory=dict)
    anchors: int = 0  # the store's same-pairs of its anchor patterns (ANCHORS), as they were counted

    def of(self, pattern: str) -> float:
        found = self.share.get(pattern)
        return self.pooled(pattern) if found is None else found


def cover(pairs: Iterable[tuple[int, int]]) -> int:
    """How many of these pairs (an entity id pair each) can be the same at most, when a name is the
    same as at most SPELLINGS others: each pair goes to its name with more of them (the larger id on
    a tie), and each name counts the pairs it got, SPELLINGS at most."""
    listed = list(pairs)
    degree = Counter(chain.from_iterable(listed))
    # as max(pair) by (degree, id), without a key function's call a pair: a large store has 10^5 of them
    touched = Counter(a if (degree[a], a) >= (degree[b], b) else b for a, b in listed)
    return sum(min(SPELLINGS, n) for n in touched.values())


def anchored(anchors: float, ratio: float, pairs: int) -> float:
    """A loose pattern's share by the store's anchors: the same-pairs they say it holds (`anchors`
    times the pooled `ratio`) over the store's `pairs` of it, a whole share at most."""
    return min(1.0, anchors * ratio / pairs)


def fit(
    observed: Mapping[tuple[str, float], int],
    answers: Mapping[str, tuple[int, int]],
    pooled: Callable[[str], float],
    covers: Mapping[str, int] | None = None,
    ratios: Mapping[str, float] | None = None,
) -> Shares:
    """Fit each pattern's share on the store's pairs (`observed`: (pattern, x) -> how many pairs), its
    answers (pattern -> (merged, answered)) and the pooled shares, at most each pattern's cover of
    its pairs (`covers`, `cover`) over the pairs. A pattern with a pooled ratio (`ratios`, pattern ->
    its same-pairs per same-pair of the anchors) starts from its share by the store's anchors
    (`anchored`) instead, weighed as many pairs as the anchors against the pooled share's SHARE_PAIRS."""
    by_pattern: dict[str, list[tuple[float, int]]] = {}
    for (pattern, x), count in sorted(observed.items()):
        by_pattern.setdefault(pattern, []).append((x, count))
    share: dict[str, float] = {}
    pairs: dict[str, int] = {}
    bounded: dict[str, int] = {}
    expected: dict[str, int] = {}

    def one(pattern: str, start: float) -> None:
        rows = by_pattern.get(pattern, [])
        n = sum(count for _, count in rows)
        most = min(1.0, covers[pattern] / n) if covers and n and pattern in covers else 1.0
        start = min(start, most)
        weight = max(SHARE_PAIRS, n)  # the pairs alone move the starting share at most halfway
        now = start
        for _ in range(ROUNDS):
            same = sum(count * _sigmoid(_logit(now) + x) for x, count in rows)
            new = min(most, (same + weight * start) / (n + weight))
            settled = abs(new - now) < SETTLED
            now = new
            if settled:
                break
        if most < 1.0 and now >= most:
            bounded[pattern] = covers[pattern] if covers else 0
        merged, answered = answers.get(pattern, (0, 0))
        share[pattern] = round((SHARE_PAIRS * now + merged) / (SHARE_PAIRS + answered), 4)
        pairs[pattern] = n

    patterns = sorted(set(by_pattern) | set(answers))
    for pattern in patterns:  # the anchors first: the loose patterns start from what they count
        if pattern in ANCHORS:
            one(pattern, pooled(pattern))
    anchors = sum(share[p] * pairs[p] + answers.get(p, (0, 0))[0] for p in ANCHORS if p in share)
    for pattern in patterns:
        if pattern in ANCHORS:
            continue
        ratio, n = (ratios or {}).get(pattern), sum(count for _, count in by_pattern.get(pattern, []))
        if ratio is None or not n:
            one(pattern, pooled(pattern))
            continue
        expected[pattern] = round(anchors * ratio)
        start = (SHARE_PAIRS * pooled(pattern) + anchors * anchored(anchors, ratio, n)) / (SHARE_PAIRS + anchors)
        one(pattern, start)
    return Shares(share, pairs, pooled, bounded, expected, round(anchors))

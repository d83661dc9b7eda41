"""The store's own likelihood model: Fellegi–Sunter, fitted by EM over the store's candidate pairs.

Each candidate pair (an ask) is described by its pattern and a few comparison levels read from its
evidence: how strongly the two names share rare neighbours (none / some / much), whether a passage
sets the two spellings side by side, whether one author wrote both, whether either side has no
neighbour at all, whether one spelling is rare beside the other. Per level, `m` is how often a
same-pair lands there and `u` how often a different pair does; per pattern, `share` is how many of
the store's pairs of that pattern are the same. A pair's likelihood is

    logit(likelihood) = logit(share(pattern)) + sum over levels of log(m / u)

EM fits `share`, `m` and `u` on the store's own pairs, starting from, and pulled towards, the
figures pooled across kinds of text (`calibration.json`: a pattern's prior, a feature's weight as
its likelihood ratio), which weigh as much as PRIOR_PAIRS pairs. The store's answers are pairs whose
class is known. So a small store keeps the pooled figures, and a store where a feature says nothing
(every pair of a chat log lacks neighbours) learns that it says nothing here. Deterministic: the
pairs are counted by their description, and the fit visits those counts in sorted order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

PRIOR_PAIRS = 20.0  # how many pairs the pooled figures weigh as, for a pattern's share and for each level
ROUNDS = 40  # EM iterations: the fit moves less than 1e-4 a round long before this on the stores measured
STRONG_NEIGHBOURS = 0.25  # a neighbour score at or above this is "much" shared company
FEATURES = ("neighbours", "contrasted", "shared_source", "no_neighbours", "rare_variant")
LEVELS = (3, 2, 2, 2, 2)  # how many levels each feature has
TYPICAL_SCORE = (0.0, 0.1, 0.5)  # the neighbour score each level stands for, to turn the pooled weight into a ratio

Levels = tuple[int, int, int, int, int]


def levels_of(neighbour_score: float, contrasted: bool, shared_sources: int, no_neighbours: bool,
              rare_variant: bool) -> Levels:  # fmt: skip
    """A pair's comparison levels, from what its evidence was made of."""
    shared = 0 if neighbour_score <= 0 else (2 if neighbour_score >= STRONG_NEIGHBOURS else 1)
    return (shared, int(contrasted), int(shared_sources > 0), int(no_neighbours), int(rare_variant))


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


@dataclass(frozen=True)
class Model:
    """A store's fitted shares per pattern and log likelihood ratios per feature level."""

    share: dict[str, float]  # pattern -> share of same-pairs (the pattern's prior in this store)
    pairs: dict[str, int]  # pattern -> how many of the store's pairs it was fitted on
    ratio: tuple[tuple[float, ...], ...]  # feature -> level -> log(m / u)
    pooled: Callable[[str], float]  # pattern -> the prior pooled across kinds it started from

    def lift(self, levels: Levels) -> float:
        """What a pair's levels add to its pattern's share, in log-odds."""
        return sum(self.ratio[k][level] for k, level in enumerate(levels))

    def likelihood(self, pattern: str, levels: Levels) -> float:
        return round(_sigmoid(_logit(self.share_of(pattern)) + self.lift(levels)), 4)

    def share_of(self, pattern: str) -> float:
        found = self.share.get(pattern)
        return self.pooled(pattern) if found is None else found


def _pooled_levels(weights: Mapping[str, float], seen: list[list[float]]) -> tuple[list[list[float]], ...]:
    """The pooled m and u of each level: u is how often the store's pairs land there (most pairs are
    different), m the same reweighted by the pooled likelihood ratio and normalised."""
    m0, u0 = [], []
    for k, feature in enumerate(FEATURES):
        total = sum(seen[k]) or 1.0
        u = [max(0.02, count / total) for count in seen[k]]
        u = [x / sum(u) for x in u]
        weight = weights.get(feature, 0.0)
        if feature == "neighbours":
            ratios = [math.exp(weight * score) for score in TYPICAL_SCORE]
        else:
            ratios = [1.0, math.exp(weight)]
        m = [x * r for x, r in zip(u, ratios, strict=True)]
        m0.append([x / sum(m) for x in m])
        u0.append(u)
    return m0, u0


def fit(
    observed: Mapping[tuple[str, Levels], int],
    answers: Mapping[str, tuple[int, int]],
    pooled: Callable[[str], float],
    weights: Mapping[str, float],
) -> Model:
    """Fit the model on the store's pairs (`observed`: (pattern, levels) -> how many pairs), its answers
    (pattern -> (merged, answered)) and the pooled figures (`pooled`: a pattern's prior; `weights`:
    feature -> pooled weight, its log likelihood ratio)."""
    rows = sorted(observed.items())
    patterns = sorted({pattern for (pattern, _), _ in rows} | set(answers))
    seen = [[0.0] * n for n in LEVELS]
    for (_, levels), count in rows:
        for k, level in enumerate(levels):
            seen[k][level] += count
    m0, u0 = _pooled_levels(weights, seen)
    m = [list(x) for x in m0]
    u = [list(x) for x in u0]
    pairs_of: Counter[str] = Counter()
    for (pattern, _), count in rows:
        pairs_of[pattern] += count
    start = {p: pooled(p) for p in patterns}
    share = dict(start)
    for _ in range(ROUNDS):
        ratio = [[math.log(a / b) for a, b in zip(mk, uk, strict=True)] for mk, uk in zip(m, u, strict=True)]
        same_at = [[0.0] * n for n in LEVELS]
        other_at = [[0.0] * n for n in LEVELS]
        same_of: Counter[str] = Counter()
        for (pattern, levels), count in rows:
            post = _sigmoid(_logit(share[pattern]) + sum(ratio[k][level] for k, level in enumerate(levels)))
            same_of[pattern] += post * count
            for k, level in enumerate(levels):
                same_at[k][level] += post * count
                other_at[k][level] += (1 - post) * count
        for pattern in patterns:
            merged, answered = answers.get(pattern, (0, 0))
            share[pattern] = (same_of[pattern] + merged + PRIOR_PAIRS * start[pattern]) / (
                pairs_of[pattern] + answered + PRIOR_PAIRS
            )
        for k in range(len(FEATURES)):
            same, other = sum(same_at[k]), sum(other_at[k])
            m[k] = [(same_at[k][v] + PRIOR_PAIRS * m0[k][v]) / (same + PRIOR_PAIRS) for v in range(LEVELS[k])]
            u[k] = [(other_at[k][v] + PRIOR_PAIRS * u0[k][v]) / (other + PRIOR_PAIRS) for v in range(LEVELS[k])]
    return Model(
        share={p: round(s, 4) for p, s in share.items()},
        pairs=dict(pairs_of),
        ratio=tuple(
            tuple(round(math.log(a / b), 4) for a, b in zip(mk, uk, strict=True)) for mk, uk in zip(m, u, strict=True)
        ),
        pooled=pooled,
    )

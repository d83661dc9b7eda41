"""The evidence layer: how likely two names are one thing, from what the store knows about them.

The name rules (`rules.py`) say which pairs look alike and why. This layer turns a rule's verdict
into a calibrated likelihood that the two are the same, from:

- the **prior** of the rule's pattern: the share of same-pairs among hand-labelled pairs of that
  pattern (`calibration.json`), moved by this store's own answers to the same pattern;
- **shared neighbours**: names that passages of both sides also name, each weighted by its rarity
  (log of live passages over the passages naming it), so that a shared `Debian` or `SDK` says little;
- **shared sources**: authors who wrote passages with each spelling;
- **defined together**: a passage that spells one as the other in parentheses (`Model Context
  Protocol (MCP)`) or with "aka" / "also known as";
- **contrasted**: a passage that uses both spellings without defining one by the other — writers who
  use two spellings side by side usually mean two things (`use JOIN. instead of JOIN_`).

Everything is deterministic. The weights in log-odds come from `calibration.json`, which
`benchmarks/calibrate.py` fits on the labelled real-text stores; ARCHITECTURE.md describes the model.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from functools import cache
from itertools import chain
from pathlib import Path
from typing import NamedTuple, TypeAlias

from memo_tui.errors import MemoError
from memo_tui.names import likelihood
from memo_tui.names.rules import FOLD

CALIBRATION = Path(__file__).with_name("calibration.json")  # the packaged one, fitted on every labelled kind
# names another calibration file for the pass to read: the real-text evaluation runs each kind of text
# with the one fitted without it (`memo-tui eval --kinds`)
CALIBRATION_ENV = "MEMO_TUI_CALIBRATION"
TABLES = ("priors", "weights", "conflict_priors")  # what a calibration file holds
RATIOS = "anchor_ratios"  # and may hold: pattern -> its same-pairs per same-pair of the anchors (`likelihood`)
# Below this a question is more than three times as likely wrong as right: not asked, but as a teaching
# question (`admission.TEACH_EVERY`). Impact never hides a question (it only ranks it); the cap handles volume.
MIN_LIKELIHOOD = 0.25
MIN_TEACH = 0.1  # below this (nine times as likely wrong as right) not even a teaching question is worth asking
# identical merge keys fold unasked when both names share this many rare neighbours (on the labelled
# real-text stores one shared rare neighbour was right 31 times of 31, none 243 of 263 on package summaries)
CERTAIN_NEIGHBOURS = 1
USUAL_PASSAGES = 3  # live passages that make a spelling the store's usual one (`usual_spelling`)
LEARN_AFTER = 15  # a pattern whose standing answers are this many merges and nothing else folds unasked
LEARNED = "learned:"  # the rule of a fold applied because reviewers here merged every question like it
RARE_SHARE = 0.01  # a neighbour named by at most this share of live passages is rare
# rules about two spellings of one word, where a rare spelling beside a common one looks like a typo
SPELLING_RULES = frozenset({"edit-distance", "trigrams", "plural", "prefix", "same-merge-key", "accents"})
NEIGHBOUR_PASSAGES = 200  # passages per name looked at for neighbours (a hub is sampled, by id)
SOURCE_SLICE = 64  # passages whose sources are read at a time, until every source of the store is found
Calibration: TypeAlias = dict[str, dict[str, float]]  # table (TABLES) -> pattern, feature or rule -> number
# what evidence is made of but the prior: pattern, log-odds unrounded, shared sources, rare variant, no
# neighbours, defined in, contrasted in (`remade`)
Made: TypeAlias = tuple[str, float, int, bool, bool, str | None, str | None]
# an entity's neighbours (`neighbours`): its one passage's names, itself among them, or a Counter of them
Neighbours: TypeAlias = Set[int] | Counter[int]
NO_NAMES: frozenset[int] = frozenset()
# a verdict's fields: kind, score, rule, and its reason if any


def calibration_path() -> Path:
    return Path(os.environ.get(CALIBRATION_ENV) or CALIBRATION)


def calibration() -> Calibration:
    # looked up by the variable's text: a pass asks hundreds of thousands of times, and making a Path
    # each time cost more than the rest of the evidence's arithmetic
    return _read_calibration(os.environ.get(CALIBRATION_ENV) or "")


@cache
def _read_calibration(named: str) -> Calibration:
    path = Path(named) if named else CALIBRATION
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MemoError(f"cannot read the calibration {path}: {exc}") from None
    if not isinstance(table, dict) or not all(isinstance(table.get(k), dict) for k in TABLES):
        raise MemoError(f'calibration {path}: needs "priors", "weights" and "conflict_priors" tables')
    return table


def logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@dataclass
class StoreFacts:
    """What the evidence layer reads from a store, as plain data."""

    passages_of: dict[int, list[int]]  # entity id -> live passage ids naming it (ascending)
    entities_of: dict[int, set[int]]  # passage id -> entity ids it names (those neighbours are read from)
    source_of: dict[int, str | None]  # passage id -> source
    text_of: dict[int, str] = field(default_factory=dict)  # passage id -> text, filled for joint passages
    external_of: dict[int, str] = field(default_factory=dict)  # passage id -> external id, the same ones
    surfaces: dict[int, set[str]] = field(default_factory=dict)  # entity id -> spellings used for it
    frequency: dict[int, int] = field(default_factory=dict)  # entity id -> live passages naming it (all names)
    answers: dict[str, tuple[int, int]] = field(default_factory=dict)  # pattern -> (merged, answered)
    live_passages: int = 0  # live passages naming anything (0: every one is in entities_of)
    passage_sets: dict[int, frozenset[int]] = field(default_factory=dict)  # the same as sets: given, or made when asked
    # entity id -> neighbour -> how many of its passages name it, for names more than one passage names
    neighbour_cache: dict[int, Counter[int]] = field(default_factory=dict)
    _rarity_sums: dict[int, float] = field(default_factory=dict)
    _rarity: dict[int, float] = field(default_factory=dict)  # passages naming an entity -> its rarity
    _sources: dict[int, frozenset[str]] = field(default_factory=dict)
    _source_sets: dict[frozenset[str], frozenset[str]] = field(default_factory=dict)  # equal ones are one set
    _source_counts: dict[int, Counter[str | None]] = field(default_factory=dict)
    _authors_in_all: int | None = None  # how many distinct sources `source_of` holds (None: not counted)
    _source_lift: float | None = None  # the most a shared source can say in this store (`source_lift`)
    _remade: dict[Made, Evidence] = field(default_factory=dict)  # `remade`'s, for `answers` (set before any)
    _named_elsewhere: dict[int, frozenset[int]] = field(default_factory=dict)  # passage id -> `named_elsewhere`
    _weights: dict[str, float] | None = None  # the calibration's, read at the first pair weighed (`weights`)

    @property
    def live(self) -> int:
        return self.live_passages or len(self.entities_of)

    def rarity(self, entity_id: int) -> float:
        """log(live passages / passages naming it): 0 for a name in every passage (or in none). Kept by
        the count, not by the entity: a store has a million entities and a few hundred counts."""
        return self.rarity_of(self.frequency.get(entity_id, 0))

    def rarity_of(self, count: int) -> float:
        """The rarity of a name that `count` live passages name."""
        found = self._rarity.get(count)
        if found is None:
            found = self._rarity[count] = math.log(max(1, self.live) / count) if count else 0.0
        return found

    def let_go(self) -> None:
        """Forget the passages and all that was found of them, once nothing more is weighed: a large
        pass need not hold them to its end. `frequency` and `answers` are the caller's counts and
        answers, which live on anyway; the rarities by count are a few hundred numbers."""
        self.passages_of, self.entities_of, self.source_of, self.passage_sets = {}, {}, {}, {}
        self.text_of, self.external_of, self.surfaces, self.neighbour_cache = {}, {}, {}, {}
        self._sources, self._source_sets, self._source_counts, self._rarity_sums = {}, {}, {}, {}
        self._authors_in_all = None
        self._source_lift = None
        self._remade, self._named_elsewhere = {}, {}

    def source_lift(self) -> float:
        """The most that an author who wrote both spellings can add to a pair's log-odds here: -ln u,
        where u is the chance that two of the store's passages have the same source. A likelihood
        ratio m / u is at most 1 / u (m is a share), so where one source wrote every passage (a package
        index: u = 1) a shared author says nothing, whatever it said in stores of many authors."""
        if self._source_lift is None:
            counts = Counter(self.source_of.values())
            total = sum(counts.values())
            chance = sum(n * n for n in counts.values()) / (total * total) if total else 0.0
            self._source_lift = -math.log(chance) if chance else math.inf
        return self._source_lift

    def want(self, entity_ids: Iterable[int]) -> None:
        """Hold the passages of these entities too (`passages_of`, from `passage_sets`)."""
        held, sets = self.passages_of, self.passage_sets
        for entity_id in entity_ids:
            if entity_id not in held and entity_id in sets:
                held[entity_id] = sorted(sets[entity_id])

    def passage_set(self, entity_id: int) -> frozenset[int]:
        found = self.passage_sets.get(entity_id)
        if found is None:
            found = self.passage_sets[entity_id] = frozenset(self.passages_of.get(entity_id, ()))
        return found

    def sources(self, entity_id: int, joint: frozenset[int]) -> frozenset[str]:
        """The authors of the entity's passages other than `joint` ones (which are among them): from
        how many of its passages each author wrote, counted once per entity (and only when a pair of it
        has joint passages: most have none)."""
        if not self.source_of:  # a store whose passages name no source
            return frozenset()
        authors = self._sources.get(entity_id)
        if authors is None:
            authors = self._authors(self.passages_of.get(entity_id, ()))
            authors = self._sources[entity_id] = self._source_sets.setdefault(authors, authors)
        if not joint or not authors:
            return authors
        counted = self._source_counts.get(entity_id)
        if counted is None:
            counted = Counter(map(self.source_of.get, self.passages_of.get(entity_id, ())))
            self._source_counts[entity_id] = counted
        return frozenset(filter(None, counted - Counter(self.source_of.get(p) for p in joint)))

    def _authors(self, passages: Sequence[int]) -> frozenset[str]:
        """The sources of these passages, read a slice at a time until all of the store's are among
        them: where a few authors wrote everything, a hub's first passages name them all."""
        if len(passages) == 1:  # most names
            return frozenset(filter(None, (self.source_of.get(passages[0]),)))
        if self._authors_in_all is None:
            self._authors_in_all = len(set(self.source_of.values()) - {None, ""})
        found: set[str] = set()
        for start in range(0, len(passages), SOURCE_SLICE):
            found.update(filter(None, map(self.source_of.get, passages[start : start + SOURCE_SLICE])))
            if len(found) >= self._authors_in_all:
                break
        return frozenset(found)

    def is_rare(self, entity_id: int) -> bool:
        """Named by at most 1% of the live passages (at least 2): a neighbour worth sharing."""
        return self.frequency.get(entity_id, 0) <= max(2, RARE_SHARE * self.live)

    def rarity_sum(self, entity_id: int, neighbours: Neighbours, lost: Set[int]) -> float:
        """The rarities of the entity's neighbours (`neighbours`' of it), but the `lost` ones."""
        total = self._rarity_sums.get(entity_id)
        if total is None:  # by count: a hub's neighbours are a thousand names, of a few dozen counts
            by_count = Counter(self.frequency.get(e, 0) for e in neighbours if e != entity_id)
            total = self._rarity_sums[entity_id] = sum(self.rarity_of(count) * n for count, n in by_count.items())
        return total - sum(self.rarity(e) for e in lost if e != entity_id and e in neighbours)

    def named_elsewhere(self, passage: int) -> Set[int]:
        """The names the passage names that other passages name too: all that a name this passage
        alone names can share with a name of other passages (a pass weighs 10^5 pairs, most of
        which share nothing: a large store's passages are mostly of names they alone name)."""
        found = self._named_elsewhere.get(passage)
        if found is None:
            found = frozenset(e for e in self.entities_of.get(passage, NO_NAMES) if self.frequency.get(e, 0) > 1)
            found = self._named_elsewhere[passage] = found or NO_NAMES
        return found

    def weights(self) -> dict[str, float]:
        """The features' weights (`calibration`), read once: a pass weighs 10^5 pairs with them."""
        if self._weights is None:
            self._weights = calibration()["weights"]
        return self._weights

    def remade(self, made: Made) -> Evidence:
        """The evidence made of `made` and the store's answers, once for each distinct one (`remade`)."""
        found = self._remade.get(made)
        if found is None:
            found = self._remade[made] = remade(made, self.answers)
        return found


class Evidence(NamedTuple):
    """A question's likelihood and what it was made of (a tuple: a pass makes tens of thousands, and a
    frozen dataclass is far dearer to make)."""

    pattern: str
    likelihood: float
    logit: float  # what the store's facts add to the prior, in log-odds
    shared_neighbours: tuple[str, ...] = ()
    neighbour_score: float = 0.0
    shared_sources: int = 0
    rare_variant: bool = False
    no_neighbours: bool = False
    defined_in: str | None = None
    contrasted_in: str | None = None
    prior: float = 0.5
    answered: tuple[int, int] = (0, 0)
    pooled: float | None = None  # the prior pooled across kinds, when this store's own fit moved it
    fitted_on: int = 0  # how many of this store's pairs of the pattern the fit saw
    bounded: int = 0  # how many of those can be the same at most, when that held the share down
    # how many of those the store's anchors say are the same, and the anchors (`likelihood.anchored`)
    anchored: tuple[int, int] = (0, 0)
    # when the two share no neighbour: what the evidence is made of but the prior (its pattern, the
    # log-odds unrounded, shared sources, rare variant, no neighbours, defined in, contrasted in)
    local: Made | None = None

    def words(self) -> str:
        """The evidence in a reviewer's words."""
        parts = []
        if self.defined_in:
            parts.append(f"defined together in {self.defined_in}")
        if self.contrasted_in and not self.defined_in:
            parts.append(f"both spellings used side by side in {self.contrasted_in}")
        if self.shared_neighbours:
            parts.append(f"shares {_shared(self)}")
        elif not self.defined_in:
            parts.append("no rare neighbour in common")
        if self.rare_variant:
            parts.append("one spelling is rare beside the other, as a typo is")
        if self.shared_sources:
            parts.append(f"{self.shared_sources} author{'s' if self.shared_sources > 1 else ''} wrote both")
        if self.pooled is not None:
            parts.append(store_note(self.prior, self.pooled, self.fitted_on, self.bounded, self.anchored))
        text = "; ".join(filter(None, parts))
        merged, answered = self.answered
        if answered:  # last, so that a later pass can restate it (shares.ANSWERED)
            text += f"; reviewers here merged {merged} of {answered} questions like this"
        return text


STORE_NOTE = re.compile(r"; this store's pairs like this look the same [^;(]*\([^)]*\)")


def store_note(
    share: float, pooled: float, fitted_on: int, bounded: int = 0, anchored: tuple[int, int] = (0, 0)
) -> str:
    """What a reason says of the store's own share of a pattern, when the fit moved it (and when how
    few things the pairs' names can be held it down: `likelihood.cover`; what the store's names
    spelled twice say of it: `likelihood.anchored`, as (same-pairs expected, anchors))."""
    if abs(share - pooled) < 0.01:
        return ""
    most = f", {bounded} of them at most: their names are few things" if bounded else ""
    expected, anchors = anchored
    said = f", about {expected} the same by its {anchors} names spelled two ways" if anchors else ""
    return (
        f"this store's pairs like this look the same {share:.0%} of the time"
        f" (fitted on {fitted_on}{most}{said}; {pooled:.0%} across kinds of text)"
    )


def pattern_of(rule: str, defined: bool = False) -> str:
    """What questions are counted by: the rule, and whether a passage defines one name by the other
    (an acronym spelled out beside it is a different question from a bare acronym)."""
    return f"{rule}+defined" if defined else rule


def pooled_prior(pattern: str) -> float:
    """The share of same-pairs among hand-labelled pairs of this pattern, pooled across kinds of text."""
    table = calibration()["priors"]
    fallback = table.get("+defined", table["default"]) if pattern.endswith("+defined") else table["default"]
    return table.get(pattern, fallback)


def prior(pattern: str, answers: dict[str, tuple[int, int]]) -> tuple[float, tuple[int, int]]:
    """The pooled prior of a pattern, moved by this store's answers alone (the store's share of the
    pattern before any of its pairs is weighed). What a pass decides which pairs to read by; what
    it ranks them by is the share fitted on them too (`store_shares`)."""
    merged, answered = answers.get(pattern, (0, 0))
    weight = likelihood.SHARE_PAIRS
    return (pooled_prior(pattern) * weight + merged) / (weight + answered), (merged, answered)


def learned(answers: dict[str, tuple[int, int]]) -> dict[str, int]:
    """The rules this store's reviewers have taught: every standing answer to questions of the rule's
    plain pattern is a merge, and there are at least LEARN_AFTER of them (rule -> merges). One reject,
    or a reverted learned fold, stops it."""
    return {
        pattern: merged
        for pattern, (merged, answered) in answers.items()
        if merged == answered >= LEARN_AFTER and not pattern.endswith("+defined")
    }


def learned_verdict(score: float, rule: str, reason: str, merges: int) -> tuple[str, float, str, str]:
    """An ask verdict's score, rule and reason as a learned fold's fields (kind, score, rule, reason)."""
    return (FOLD, score, LEARNED + rule, f"{reason}; reviewers here merged all {merges} questions like this")


def store_shares(
    observed: Mapping[tuple[str, float], int], answers: Mapping[str, tuple[int, int]], covers: Mapping[str, int]
) -> likelihood.Shares:
    """This store's share of same-pairs per pattern, fitted on its candidate pairs and answers
    (`likelihood.fit`): observed is (pattern, what the pair's evidence adds) -> how many pairs;
    covers, pattern -> `likelihood.cover` of those pairs. The loose patterns start from what the
    store's anchors say of them, by the calibration's `anchor_ratios` (a calibration without that
    table keeps the pooled shares)."""
    return likelihood.fit(observed, answers, pooled_prior, covers, calibration().get(RATIOS))


def rescored(found: Evidence, shares: likelihood.Shares) -> Evidence:
    """The evidence with its pattern's share in this store as its prior."""
    share = shares.of(found.pattern)
    return found._replace(
        likelihood=round(sigmoid(logit(share) + found.logit), 4),
        prior=share,
        pooled=pooled_prior(found.pattern),
        fitted_on=shares.pairs.get(found.pattern, 0),
        bounded=shares.bounded.get(found.pattern, 0),
        anchored=anchored(shares, found.pattern),
    )


def anchored(shares: likelihood.Shares, pattern: str) -> tuple[int, int]:
    """What the store's anchors said of the pattern's pairs: (same-pairs expected, anchors), or (0, 0)."""
    expected = shares.expected.get(pattern)
    return (0, 0) if expected is None else (expected, shares.anchors)


def conflict_likelihood(rule: str) -> float:
    """How likely a passage conflict of this rule is real (`single-valued:owner` counts as single-valued)."""
    table = calibration()["conflict_priors"]
    return table.get(rule.split(":", 1)[0], min(table.values()))


def yield_of(likelihood: float, impact: int) -> float:
    """Expected yield of a question: the chance the answer changes the graph, times how much it changes
    (mentions moved, on a log scale so that one hub cannot outrank every likely question)."""
    return round(likelihood * math.log2(1 + max(1, impact)), 4)


def neighbours(facts: StoreFacts, entity_id: int, joint: frozenset[int]) -> tuple[Neighbours, Set[int]]:
    """The names the entity's passages also name, and those that only passages naming both sides of
    the pair (`joint`) name: they do not count. For a name one passage names (most), that passage's
    names, the entity among them (`named_by`): the passage's own set, not a copy (a dict for each name
    was most of a large pass's memory once every ask was weighed); for others, a Counter of how many
    of its passages name each, without the entity."""
    passages = facts.passages_of.get(entity_id, ())
    found: Neighbours
    if len(passages) == 1:
        found = facts.entities_of.get(passages[0], NO_NAMES)
    else:
        counted = facts.neighbour_cache.get(entity_id)
        if counted is None:
            named = facts.entities_of.get
            counted = Counter(chain.from_iterable(named(pid, ()) for pid in passages[:NEIGHBOUR_PASSAGES]))
            counted.pop(entity_id, None)
            facts.neighbour_cache[entity_id] = counted
        found = counted
    if not joint:
        return found, NO_NAMES
    lost: Counter[int] = Counter()
    for pid in joint.intersection(passages[:NEIGHBOUR_PASSAGES]):
        lost.update(facts.entities_of.get(pid, ()))
    return found, {e for e, n in lost.items() if named_by(found, e, entity_id) <= n}


def named_by(found: Neighbours, neighbour: int, entity_id: int) -> int:
    """How many of the entity's passages name `neighbour` (`found`: `neighbours`' of the entity)."""
    if isinstance(found, Counter):
        return found.get(neighbour, 0)
    return int(neighbour != entity_id and neighbour in found)


def _company(found: Neighbours, entity_id: int) -> int:
    """How many names `neighbours` found beside the entity."""
    return len(found) - (entity_id in found)


def weigh(facts: StoreFacts, left: int, right: int, left_names: set[str], right_names: set[str], rule: str,
          names_of: Mapping[int, str]) -> Evidence:  # fmt: skip
    """The likelihood that entities `left` and `right` are one thing."""
    weights = facts.weights()
    joint = facts.passage_set(left) & facts.passage_set(right)
    defined = contrasted = None
    for pid in sorted(joint) if joint else ():
        text = facts.text_of.get(pid, "")
        named = facts.external_of.get(pid, f"#{pid}")
        if defines(text, left_names, right_names):
            defined = defined or named
        else:
            contrasted = contrasted or named
    pattern = pattern_of(rule, defined is not None)
    n_left, lost_left = neighbours(facts, left, joint)
    n_right, lost_right = neighbours(facts, right, joint)
    company_left, company_right = _company(n_left, left), _company(n_right, right)
    small, large = (n_left, n_right) if company_left <= company_right else (n_right, n_left)
    if joint:
        common = _names(small) & _names(large)
    else:  # what the two share is named by a passage of each, two passages: of those names only
        common = _named_elsewhere(facts, left, n_left)
        common = common & _named_elsewhere(facts, right, n_right) if common else common
    if common:  # the sides themselves are among them
        common = common - {left, right} - lost_left - lost_right
    shared = [e for e in small if e in common] if common else []  # in `small`'s order: the sums add up alike
    score = 0.0
    shown: tuple[str, ...] = ()
    if shared:
        rare = {e: facts.rarity(e) for e in shared}
        # shared rarity over the geometric mean of both sides' totals: a hub shares something with
        # everything, so its many neighbours weigh against it
        total = math.sqrt(facts.rarity_sum(left, n_left, lost_left) * facts.rarity_sum(right, n_right, lost_right))
        score = min(1.0, sum(rare.values()) / total) if total else 0.0
        ranked = sorted((e for e in rare if facts.is_rare(e)), key=lambda e: (-rare[e], names_of.get(e, "")))
        shown = tuple(names_of.get(e, f"#{e}") for e in ranked)
    shared_sources = len(facts.sources(left, joint) & facts.sources(right, joint))
    no_neighbours = not company_left or not company_right
    fewer, more = facts.frequency.get(left, 0), facts.frequency.get(right, 0)
    fewer, more = (fewer, more) if fewer <= more else (more, fewer)
    # a typo is rare beside its original (for spelling rules only: a hub beside a rare longer name is not a typo)
    rare_variant = rule in SPELLING_RULES and fewer <= 2 and more >= 10 * max(1, fewer)
    x = (
        weights["neighbours"] * score
        + (weights["rare_variant"] if rare_variant else 0.0)
        + (weights["contrasted"] if contrasted and not defined else 0.0)
        + (min(weights["shared_source"], facts.source_lift()) if shared_sources else 0.0)
        + (weights["no_neighbours"] if no_neighbours else 0.0)
    )
    made: Made = (pattern, x, shared_sources, rare_variant, no_neighbours, defined, contrasted)
    if not shared:  # what it is made of is all it is: pairs made alike share one evidence
        return facts.remade(made)
    return remade(made, facts.answers, shown, score, True)


def _names(found: Neighbours) -> Set[int]:
    return found.keys() if isinstance(found, Counter) else found


def _named_elsewhere(facts: StoreFacts, entity_id: int, found: Neighbours) -> Set[int]:
    """Of the entity's neighbours (`neighbours`'), those other passages than its one passage name
    too (`StoreFacts.named_elsewhere`), or all of them for a name several passages name."""
    if isinstance(found, Counter):
        return found.keys()
    return facts.named_elsewhere(facts.passages_of[entity_id][0])


def remade(
    made: Made,
    answers: dict[str, tuple[int, int]],
    shown: tuple[str, ...] = (),
    score: float = 0.0,
    shares: bool = False,
) -> Evidence:
    """The evidence from what it is made of (pattern, log-odds unrounded, shared sources, rare
    variant, no neighbours, defined in, contrasted in), the store's answers and the neighbours the
    two share. A pair that shares none keeps what it was made of (`Evidence.local`): while the facts
    `weigh` read stand, this is what it finds."""
    pattern, x, shared_sources, rare_variant, no_neighbours, defined, contrasted = made
    base, answered = prior(pattern, answers)
    return Evidence(
        pattern=pattern,
        likelihood=round(sigmoid(logit(base) + x), 4),
        logit=round(x, 4),
        shared_neighbours=shown,
        neighbour_score=round(score, 4),
        shared_sources=shared_sources,
        rare_variant=rare_variant,
        no_neighbours=no_neighbours,
        defined_in=defined,
        contrasted_in=contrasted,
        prior=round(base, 4),
        answered=answered,
        local=None if shares else made,
    )


_DEFINING_WORDS = ("aka ", "a.k.a. ", "also known as ", "short for ", "or ")


def defines(text: str, left: set[str], right: set[str]) -> bool:
    """One spelling followed by the other in parentheses (`Model Context Protocol (MCP)`), or
    with aka / also known as / short for / or."""
    for a_names, b_names in ((left, right), (right, left)):
        for a in a_names:
            at = text.find(a)
            while at >= 0:
                rest = text[at + len(a) :].lstrip(" ,")
                if rest.startswith("("):
                    inner = rest[1:].lstrip()
                    if any(inner.startswith(b) and inner[len(b) : len(b) + 1].strip() in ("", ")", ",", ";")
                           for b in b_names):  # fmt: skip
                        return True
                for word in _DEFINING_WORDS:
                    if rest.startswith(word) and any(rest[len(word) :].startswith(b) for b in b_names):
                        return True
                at = text.find(a, at + 1)
    return False


def reachable(rule: str, answers: dict[str, tuple[int, int]]) -> bool:
    """Whether any evidence could lift a question of this rule to the likelihood floor, when no
    passage names both (none can then define one by the other): the most the facts add is every
    positive weight."""
    lift = sum(max(0.0, w) for w in calibration()["weights"].values())
    return sigmoid(logit(prior(rule, answers)[0]) + lift) >= MIN_LIKELIHOOD


Usual: TypeAlias = tuple[str, int, str, int]  # (the usual spelling, its passages, the other, its passages)


def is_certain(found: Evidence, prose_variants: bool = False, usual: Usual | None = None) -> bool:
    """Whether a fold verdict is applied unasked (`certain_because`)."""
    return certain_because(found, prose_variants, usual) is not None


def certain_because(found: Evidence, prose_variants: bool = False, usual: Usual | None = None) -> str | None:
    """Why a fold verdict is applied unasked, in a reviewer's words; None when it is not. It is when
    no passage sets the two spellings side by side, and either they keep the same rare company, or
    they are one prose name written with other capitals, spaces or hyphens (`rules.prose_variants`),
    or one is the store's usual spelling of a name and the other the same word without its inner
    capitals (`usual`, when `rules.inner_capitals` and `usual_spelling` hold): nothing then argues
    against it."""
    if found.contrasted_in:
        return None
    if len(found.shared_neighbours) >= CERTAIN_NEIGHBOURS:
        because = f"they share {_shared(found)}"
    elif prose_variants:
        because = "one prose name written with other capitals, spaces or hyphens"
    elif usual is not None:
        name, many, other, few = usual
        because = (
            f"'{name}' is how this store writes the name ({many} passages); '{other}' ({few}) is the same"
            " word without its inner capitals"
        )
    else:
        return None
    return f"{because}; no passage sets the two side by side"


def lowercase_because(found: Evidence, usual: Usual | None, as_code: bool = False) -> str | None:
    """Why a prose name and its lowercase spelling (`rules.prose_lowercase`) fold unasked, in a
    reviewer's words; None when they do not. They do when they keep the same rare company, the prose
    name is how the store usually writes it (`usual`: `usual_spelling`, the prose name the more
    written) and no passage sets the two side by side, but as the name and its command (`as_code`:
    the passages that name both write the lowercase spelling only as code, `only_as_code`). On the
    four labelled kinds of text such pairs were the same 16 times of 16; sharing a rare neighbour
    alone, 41 of 44 on changelogs and package summaries (`mbox` the kernel's mailbox and `Mbox` a
    sound card; a `work-queue` and an idxd `Work Queue`)."""
    if (found.contrasted_in and not as_code) or usual is None or len(found.shared_neighbours) < CERTAIN_NEIGHBOURS:
        return None
    name, many, other, few = usual
    beside = (
        f"the passages that name both write '{other}' only as code" if found.contrasted_in else
        "no passage sets the two side by side"
    )  # fmt: skip
    return (
        f"'{name}' is how this store writes the name ({many} passages), '{other}' ({few}) its lowercase"
        f" spelling; they share {_shared(found)}; {beside}"
    )


# code in a markdown passage: a fenced block, an indented line (quoted too), an inline span, a link's target, an
# address
_CODE = re.compile(r"```.*?```|^(?:> ?)*(?: {4}|\t)[^\n]*|`[^`\n]*`|\]\([^)\s]*\)|https?://\S+", re.S | re.M)


def only_as_code(texts: Sequence[str], spellings: Iterable[str]) -> bool:
    """Whether these passages write these spellings only as code: in backticks or a fenced block, or
    in a link (`install Datasette with `pipx install datasette``): a name and its command or package,
    not two names set side by side."""
    words = [re.compile(rf"(?<![\w./@-]){re.escape(s)}(?![\w/-]|\.\w)") for s in spellings]
    return all(not word.search(_CODE.sub(" ", text)) for text in texts for word in words)


def code_beside_word(in_code: tuple[int, int], passages: tuple[int, int]) -> bool:
    """Whether the store's usual spelling of a name is a code identifier and the other spelling a word:
    of their live passages (`passages`: the usual spelling's, the other's), the ones that write each
    in backticks (`in_code`) are most of the first's and at most half of the other's. A code
    identifier's capitals are its own: the fastapi docs write `Param` (a class) beside "a body param"
    (a parameter), and `Enum` beside "the enum"; a notes folder `Dockerfile` beside "a dockerfile":
    the same 2 times of 3, too few to fold unasked. Two spellings both written as code are one
    identifier written two ways (`Content-Type`, `content-type`)."""
    (code, other_code), (many, few) = in_code, passages
    return 2 * code > many and 2 * other_code <= few


def mostly_attribute(texts: Sequence[str], spellings: Iterable[str]) -> bool:
    """Whether most of these passages (a lowercase spelling's own) write it only as an attribute's
    name (`<details markdown="1">`: the fastapi docs write `markdown` so 4 times of 5, beside the
    prose name Markdown): markup's or code's word, not the name the prose spelling is."""
    names = "|".join(map(re.escape, spellings))
    word = re.compile(rf"(?<![\w./@-])(?:{names})(?![\w/-]|\.\w)")
    attribute = re.compile(rf"(?<![\w./@-])(?:{names})\s*=(?!=)")  # `markdown="1"`, `f(param=1)`; not `==`
    only = sum(1 for t in texts if (n := len(word.findall(t))) and n == len(attribute.findall(t)))
    return 2 * only > len(texts)


def _shared(found: Evidence) -> str:
    """The rare neighbours two names share, in a reviewer's words (the first three named)."""
    shown = ", ".join(found.shared_neighbours[:3])
    more = len(found.shared_neighbours) - 3
    many = len(found.shared_neighbours)
    return f"{many} rare neighbour{'s' if many > 1 else ''}: {shown}{f' +{more}' if more > 0 else ''}"


def usual_spelling(passages: tuple[int, int]) -> bool:
    """Whether one of two spellings (`passages`: how many live passages name each) is how this store
    usually writes the name: in at least USUAL_PASSAGES passages, and in more than the other. Two
    stylings each written once or twice are as often two things as one (`MiniMax` the company and
    `Minimax` the algorithm, `ArtEmis` and `Artemis`: two packages); a name the store writes again and
    again, beside a stray capitalisation of it, is one."""
    fewer, more = sorted(passages)
    return more >= USUAL_PASSAGES and more > fewer

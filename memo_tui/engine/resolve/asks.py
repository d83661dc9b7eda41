"""The questions a pass may ask: their sides, their evidence, and the rules no fact can lift."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, NamedTuple, TypeGuard, TypeVar

from memo_tui.names import evidence
from memo_tui.names.evidence import Evidence, StoreFacts
from memo_tui.names.rules import ASK, FOLD, Verdict

FOLD_RULE = "same-merge-key"  # what the evidence on a fold verdict is weighed as
NO_PASSAGES: frozenset[int] = frozenset()  # the passages of an entity no live passage names


class Side(NamedTuple):
    """One side of a question: what the queue and the evidence need of an entity (the rules need a `Name`)."""

    id: int
    name: str
    type: str | None


E = TypeVar("E", bound=Evidence | None)


class Ask(NamedTuple, Generic[E]):
    """A question a pass may ask (a tuple, as `Side` is: a pass makes tens of thousands). Its evidence
    is None until it is weighed (`weighed`); ranking and admission take only a `Weighed` ask."""

    left: Side
    right: Side
    verdict: Verdict
    impact: int
    evidence: E


Weighed = Ask[Evidence]  # an ask with its evidence


def is_weighed(ask: Ask[Evidence | None]) -> TypeGuard[Weighed]:
    """Whether the ask has its evidence (a check on `ask.evidence` alone narrows the field, not the ask)."""
    return ask.evidence is not None


def priority(ask: Weighed) -> float:
    """The rank of a weighed ask in the queue."""
    return evidence.yield_of(ask.evidence.likelihood, ask.impact)


Weigh = Callable[[Side, Side, str], Evidence]  # the evidence on a pair, weighed as a rule's


class NamesOf(Mapping):
    """Entity id -> name, read from the entity rows by id (`live`): not a second dict of every name."""

    def __init__(self, live: dict[int, tuple[int, str, str | None]]) -> None:
        self._live = live

    def __getitem__(self, entity_id: int) -> str:
        return self._live[entity_id][1]

    def __iter__(self) -> Iterator[int]:
        return iter(self._live)

    def __len__(self) -> int:
        return len(self._live)


class Verdicts:
    """The remembered verdicts as `Verdict`s: one for each distinct set of fields (a few hundred for
    millions of pairs), made when first asked about. A pass remembers a verdict as a plain tuple
    (kind, score, rule[, reason]): millions are marshalled at once."""

    def __init__(self) -> None:
        self._made: dict[tuple, Verdict] = {}

    def __call__(self, said: tuple) -> Verdict:
        made = self._made.get(said)
        if made is None:
            made = self._made[said] = Verdict(*said)
        return made

    def unfolded(self, said: Verdict) -> Verdict:
        """A fold verdict on a pair whose fold a reviewer reverted is an ask."""
        if said.kind != FOLD:
            return said
        return self((ASK, said.score, said.rule, "; a fold of these was reverted"))

    def learned(self, said: Verdict, merges: int) -> Verdict:
        """An ask verdict as a learned fold's (`evidence.learned_verdict`)."""
        return self(evidence.learned_verdict(said.score, said.rule, said.reason, merges))


def hopeless(rule: str, answers, priors: dict[str, Evidence | None]) -> Evidence | None:
    """The prior of a rule no fact could lift to the likelihood floor, when no passage names both
    sides (none can then define one by the other); None when some fact could. `priors`: rule -> what
    this returned before."""
    if rule not in priors:
        base = evidence.prior(rule, answers)[0]
        priors[rule] = None if evidence.reachable(rule, answers) else Evidence(rule, base, 0.0, prior=base)
    return priors[rule]


def weighed(ask: Ask[Evidence | None], weigh: Weigh, facts: StoreFacts, priors: dict[str, Evidence | None]) -> Weighed:
    """The ask with its evidence; a rule no fact could lift to the thresholds keeps its prior, unweighed."""
    if is_weighed(ask):
        return ask
    rule = ask.verdict.rule
    found = hopeless(rule, facts.answers, priors)
    if found is not None:
        if facts.passage_set(ask.left.id).isdisjoint(facts.passage_set(ask.right.id)):  # none can define one
            return Ask(ask.left, ask.right, ask.verdict, ask.impact, found)
    return Ask(ask.left, ask.right, ask.verdict, ask.impact, weigh(ask.left, ask.right, rule))

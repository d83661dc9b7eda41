"""Remembered asks weighed while the names are judged in the second process, before the visit needs them."""

from __future__ import annotations

from itertools import chain

from memo_tui.engine.resolve.asks import NO_PASSAGES, Ask, Verdicts, hopeless, weighed
from memo_tui.engine.resolve.pass_memory import Judging
from memo_tui.engine.resolve.reads import Reading, joint_texts
from memo_tui.names import evidence
from memo_tui.names.evidence import Evidence, StoreFacts
from memo_tui.names.rules import ASK

EARLY_BATCH = 256  # asks weighed early between looks at whether the names are judged yet


class Early:
    """The evidence on remembered asks weighed while the names were judged in the second process
    (`weigh_early`): pair -> (rule, evidence). The visit takes it for the pairs it weighs with that
    rule (the evidence is the pair's facts and its rule's, read before the pass folds anything, as
    the visit's own weighing reads them)."""

    def __init__(self) -> None:
        self.weighed: dict[tuple[int, int], tuple[str, Evidence]] = {}
        self.used: set[tuple[int, int]] = set()
        self.spelled: set[int] = set()  # the entities whose spellings were read for it

    def take(self, pair: tuple[int, int], rule: str) -> Evidence | None:
        found = self.weighed.get(pair)
        if found is None or found[0] != rule:
            return None
        self.used.add(pair)
        return found[1]

    def forget_unread(self, facts: StoreFacts, read: list[tuple[int, int]]) -> None:
        """Forget the spellings read for the entities that the visit reads none for (`read`: the pairs
        it reads the joint texts of): a pass reads them only when a fold makes a pair of them, after
        the fold."""
        if not self.spelled:  # nothing was weighed early (a full pass)
            return
        joint = [pair for pair in chain(read, self.used) if not facts.passage_set(pair[0]).isdisjoint(
            facts.passage_set(pair[1]))]  # fmt: skip
        for entity_id in self.spelled - {x for pair in joint for x in pair}:
            facts.surfaces.pop(entity_id, None)


def weigh_early(judging: Judging, reading: Reading, verdicts: Verdicts) -> Early:
    """While the names are judged in the second process, weigh the asks the last pass visited and
    did not keep, as their remembered verdicts ask (the visit weighs them with the rule it finds:
    a pair with a renamed side may have another), until the names are judged."""
    early = Early()
    if not judging.busy():
        return early
    said_of = judging.remembered()
    batch: list[Ask[Evidence | None]] = []
    live, marked, unmoved, passages = reading.live, reading.marked, reading.unmoved, reading.passages
    answers, priors, weighed_before = reading.answers, reading.priors, reading.known.weighed
    for pair in reading.known.rest or ():
        low, high = pair
        said = said_of(pair)
        if said is None:
            continue
        verdict = verdicts(said)
        if verdict.kind != ASK or pair in marked or low not in live or high not in live:
            continue
        if hopeless(verdict.rule, answers, priors) is not None and passages.get(low, NO_PASSAGES).isdisjoint(
            passages.get(high, NO_PASSAGES)
        ):
            continue  # unread
        local = weighed_before.get(pair) if low in unmoved and high in unmoved else None
        if local is not None and local[0] in (verdict.rule, evidence.pattern_of(verdict.rule, True)):
            continue  # remade
        batch.append(Ask(reading.side(low), reading.side(high), verdict, reading.impact(low, high), None))
        if len(batch) == EARLY_BATCH:
            _weigh_batch(early, batch, reading)
            batch = []
            if not judging.busy():
                break
    if batch and judging.busy():
        _weigh_batch(early, batch, reading)
    early.spelled = set(reading.facts.surfaces)
    return early


def _weigh_batch(early: Early, batch: list[Ask[Evidence | None]], reading: Reading) -> None:
    facts = reading.facts
    pairs = [(ask.left.id, ask.right.id) for ask in batch]
    facts.want({x for pair in pairs for x in pair})
    joint_texts(facts, pairs)
    for pair, ask in zip(pairs, batch, strict=True):
        early.weighed[pair] = (ask.verdict.rule, weighed(ask, reading.weigh_now, facts, reading.priors).evidence)

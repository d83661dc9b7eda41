"""This store's own shares of same-pairs per pattern: fitted on its candidate pairs each pass, and
taken into the pending questions' likelihood, rank and reason."""

from __future__ import annotations

from collections import Counter, defaultdict
from operator import itemgetter

from peewee import fn

from memo_tui.engine.resolve.asks import Weighed, hopeless
from memo_tui.engine.resolve.pass_memory import Kept, PairList
from memo_tui.engine.resolve.reads import Reading
from memo_tui.names import evidence, likelihood
from memo_tui.store import Question
from memo_tui.store.kinds import ENTITY_PAIR
from memo_tui.store.locks import writing
from memo_tui.store.rows import tuples

ANSWERED = "; reviewers here merged "  # what a question's reason says of its pattern's answers, last


def store_shares(
    namespace: str, asks: list[Weighed], kept: dict[Kept, PairList], reading: Reading
) -> likelihood.Shares:
    """This store's share of same-pairs per pattern, fitted on every candidate pair it holds: the
    asks visited (`asks`), those kept from the last pass (`kept`) and the pending questions, but
    those left unread (no fact was read for them)."""
    answers, priors = reading.answers, reading.priors
    unread = {id(found) for found in priors.values() if found is not None}
    observed: Counter = Counter()
    edges: dict[str, list] = defaultdict(list)  # pattern -> its pairs, for the bound a matching sets
    # counted by evidence first: asks weighed alike share one (`StoreFacts.remade`)
    evidences = list(map(itemgetter(4), asks))
    by_id = dict(zip(map(id, evidences), evidences, strict=True))
    for at, n in Counter(map(id, evidences)).items():
        if at not in unread:
            observed[by_id[at].pattern, by_id[at].logit] += n
    for q in asks:
        if id(q.evidence) not in unread:
            edges[q.evidence.pattern].append((q.left.id, q.right.id))
    for (rule, _, local, meet), pairs in kept.items():
        if pairs and local is not None and (meet or hopeless(rule, answers, priors) is None):
            observed[local[0], round(local[1], 4)] += len(pairs)
            edges[local[0]].extend(pairs)
    asked = Question.select(
        fn.COALESCE(Question.pattern, Question.rule), Question.evidence, Question.left_id, Question.right_id
    ).where((Question.namespace == namespace) & (Question.kind == ENTITY_PAIR) & (Question.status == "pending"))
    for pattern, x, left, right in tuples(asked):
        observed[pattern, round(x or 0.0, 4)] += 1
        edges[pattern].append((left, right))
    covers = {pattern: likelihood.cover(pairs) for pattern, pairs in edges.items()}
    return evidence.store_shares(observed, answers, covers)


def reweigh_pending(namespace: str, answers: dict[str, tuple[int, int]], shares: likelihood.Shares) -> None:
    """Pending name questions take the store's latest fit and answers into their likelihood, rank and
    reason (what their own pair's evidence added is kept as it was when they were asked)."""
    pattern = fn.COALESCE(Question.pattern, Question.rule)
    rows = Question.select(
        Question.id, pattern, Question.evidence, Question.impact, Question.likelihood, Question.reason
    ).where((Question.namespace == namespace) & (Question.kind == ENTITY_PAIR) & (Question.status == "pending"))
    changed = []
    for qid, rule, extra, impact, old, reason in tuples(rows):
        merged, answered = answers.get(rule, (0, 0))
        share = shares.of(rule)
        new = round(evidence.sigmoid(evidence.logit(share) + (extra or 0.0)), 4)
        note = evidence.store_note(
            share,
            evidence.pooled_prior(rule),
            shares.pairs.get(rule, 0),
            shares.bounded.get(rule, 0),
            evidence.anchored(shares, rule),
        )
        said = evidence.STORE_NOTE.sub("", reason.split(ANSWERED)[0]) + (f"; {note}" if note else "")
        said += f"{ANSWERED}{merged} of {answered} questions like this" if answered else ""
        if new != old or said != reason:
            changed.append((qid, new, evidence.yield_of(new, impact), said))
    with writing(namespace):
        for qid, new, priority, said in changed:
            Question.update(likelihood=new, priority=priority, reason=said).where(Question.id == qid).execute()

"""What a pass puts in the queue: the best-ranked asks up to the cap, one place in TEACH_EVERY for the
question that would teach the store most; and the pending questions it takes out as moot."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from operator import itemgetter

from peewee import fn

from memo_tui.engine.resolve.asks import Weighed, priority
from memo_tui.engine.resolve.kept_asks import KeptGroup
from memo_tui.engine.resolve.reads import AUTO, Homes, Pair
from memo_tui.engine.review import decisions
from memo_tui.names import evidence
from memo_tui.names.evidence import Evidence
from memo_tui.names.rules import Name, told
from memo_tui.store import Mention, Passage, Question, utcnow
from memo_tui.store.kinds import ENTITY_PAIR
from memo_tui.store.locks import writing
from memo_tui.store.rows import tuples
from memo_tui.store.statements import rows_of

# Under the floor and over MIN_TEACH, a question is plausible: a small store (fewer pending questions
# than this) gets them all, by rank. A large store does not: judged on changelogs and a commit history,
# 1 in 10 of them was the same (in conversations 7 in 9, whose stores are small)
SMALL_QUEUE = 30
TEACH_EVERY = 10  # one admitted question in this many is the one that would teach the store most
TEACHES = "; asked to learn how this store answers questions like it"

AskOf = Callable[[Pair, int, Evidence], Weighed]  # the ask about a kept pair, of this impact and evidence


def admit(
    namespace: str,
    asks: list[Weighed],
    *,
    cap: int,
    dry_run: bool,
    name_of: Callable[[int], Name],
    kept: Iterable[KeptGroup],
    ask_of: AskOf,
    unlikely: list[Weighed],
) -> tuple[int, int]:
    """Queue the best-ranked questions up to the cap, one place in TEACH_EVERY for the question that
    would teach the store most (`_teaching`); returns how many were queued and how many deferred.
    `kept`: more likely asks (`kept_asks.kept_asks`), made asks by `ask_of` only when they might be
    admitted; `unlikely`: asks under the floor a teaching question may serve (one of each kept group
    stands for it); `name_of`: an entity's `Name`, for the reasons of those admitted (`told`)."""
    slots, taught, pending = _free_places(namespace, cap)
    total = len(asks) + sum(len(group.pairs) for group in kept)
    unexpanded = _expand(asks, kept, slots, ask_of)
    asks.sort(key=_ask_order)
    ranked = slots - slots // TEACH_EVERY
    others = asks[ranked:] + [ask_of(min(group.pairs), group.impact, group.evidence) for group in unexpanded]
    teaching = _teaching(others + unlikely, slots - ranked, taught)
    teaches = {id(q) for q in teaching}
    admitted = asks[:ranked] + teaching
    admitted += islice((q for q in islice(asks, ranked, None) if id(q) not in teaches), slots - len(admitted))
    # rank, don't hide: a small store's queue takes the plausible questions too
    budget = SMALL_QUEUE - pending - len(admitted)
    if budget > 0 and len(admitted) < slots:
        chosen = {id(q) for q in admitted}
        plausible = sorted((q for q in unlikely if id(q) not in chosen), key=_ask_order)
        admitted += plausible[: min(budget, slots - len(admitted))]
    under = sum(q.evidence.likelihood < evidence.MIN_LIKELIHOOD for q in admitted)
    if not dry_run and admitted:
        _queue(namespace, admitted, teaches, name_of)
    return len(admitted), max(0, total - (len(admitted) - under))


def _free_places(namespace: str, cap: int) -> tuple[int, set[str], int]:
    """The places left under the cap, the patterns a teaching question is pending for, and how many
    name questions are pending. A question this store's answers have sunk below the floor stays (a
    reviewer may have seen it) but does not hold a place that a likelier question could take; nor does
    a teaching question."""
    pending = Question.select(Question.likelihood, Question.reason, fn.COALESCE(Question.pattern, Question.rule)).where(
        (Question.namespace == namespace) & (Question.kind == ENTITY_PAIR) & (Question.status == "pending")
    )
    waiting, taught, every = 0, set(), 0
    for found, reason, pattern in tuples(pending):
        every += 1
        if TEACHES in reason:
            taught.add(pattern)
        elif found >= evidence.MIN_LIKELIHOOD:
            waiting += 1
    return max(0, cap - waiting), taught, every


def _expand(asks: list[Weighed], kept: Iterable[KeptGroup], slots: int, ask_of: AskOf) -> list[KeptGroup]:
    """Add to `asks` the kept groups that may be admitted: the best, until they hold more than the
    slots (and every group as good as the last). Returns the groups left as they are."""
    unexpanded = list(kept)
    if not slots:
        return unexpanded
    made, last = 0, None
    for group in sorted(
        kept, key=lambda k: (-evidence.yield_of(k.evidence.likelihood, k.impact), -k.evidence.likelihood)
    ):
        found, impact, pairs = group
        rank = (evidence.yield_of(found.likelihood, impact), found.likelihood)
        if made >= slots and rank != last:
            break
        asks += [ask_of(pair, impact, found) for pair in pairs]
        made, last = made + len(pairs), rank
        unexpanded.remove(group)
    return unexpanded


def _queue(namespace: str, admitted: list[Weighed], teaches: set[int], name_of: Callable[[int], Name]) -> None:
    """Write the admitted asks as pending questions (`teaches`: the ids of the teaching ones)."""
    now = utcnow()
    rows = [
        {
            "namespace": namespace,
            "kind": ENTITY_PAIR,
            "left_id": q.left.id,
            "right_id": q.right.id,
            "left_name": q.left.name,
            "right_name": q.right.name,
            "score": q.verdict.score,
            "rule": q.verdict.rule,
            "reason": f"{_told(q, name_of)}{_addressed(q)}; {q.evidence.words()}{TEACHES if id(q) in teaches else ''}",
            "impact": q.impact,
            "pattern": q.evidence.pattern,
            "likelihood": q.evidence.likelihood,
            "evidence": q.evidence.logit,
            "priority": priority(q),
            "created_at": now,
        }
        for q in admitted
    ]
    with writing(namespace):
        for start in range(0, len(rows), 500):
            Question.insert_many(rows[start : start + 500]).execute()


def _ask_order(q: Weighed) -> tuple:
    return (-priority(q), -q.evidence.likelihood, min(q.left.id, q.right.id), max(q.left.id, q.right.id))


def _teaching(asks: list[Weighed], places: int, taught: set[str]) -> list[Weighed]:
    """The asks that would teach the store most, one a pattern, for `places` places: patterns with
    fewer answers here than it takes to learn one, likelihood nearest a half first (the reviewer's
    answer is then least foreseeable), then fewer answers, then rank (`_ask_order`; then place in
    `asks`). They may lie under the likelihood floor: how else would a store show that its pairs of a
    pattern are the same? A pattern with a teaching question pending (`taught`) waits for its answer."""
    if not places:
        return []
    best: dict[str, tuple[tuple, Weighed]] = {}
    yields: dict[tuple[float, int], float] = {}  # a large store has 10^5 asks here, of a few yields
    for at, q in enumerate(asks):
        found = q.evidence
        answered = found.answered[1]
        if answered >= evidence.LEARN_AFTER or found.pattern in taught:
            continue
        near = (round(abs(found.likelihood - 0.5), 4), answered)
        held = best.get(found.pattern)
        if held is not None and near > held[0][:2]:
            continue
        worth = yields.get((found.likelihood, q.impact))
        if worth is None:
            worth = yields[found.likelihood, q.impact] = priority(q)
        low, high = (q.left.id, q.right.id) if q.left.id <= q.right.id else (q.right.id, q.left.id)
        key = (*near, (-worth, -found.likelihood, low, high), at)  # as `_ask_order`
        if held is None or key < held[0]:
            best[found.pattern] = (key, q)
    return [q for _, q in sorted(best.values(), key=itemgetter(0))[:places]]


def _addressed(q: Weighed) -> str:
    """For a person's short name, who calls them by it: the evidence a reviewer looks for (`Deb` in
    Jolene's lines, about Deborah). Only the few short-name questions a pass admits read this."""
    if q.verdict.rule != "short-name":
        return ""
    short, person = sorted((q.left, q.right), key=lambda side: len(side.name))  # `Deb` is the start of `Deborah`
    query = (
        Passage.select(Passage.source, fn.COUNT(fn.DISTINCT(Passage.id)))
        .join(Mention, on=(Mention.passage == Passage.id))
        .where((Mention.entity == short.id) & Mention.active & Passage.retired_at.is_null())
        .group_by(Passage.source)
    )
    others = sorted((-n, source) for source, n in rows_of(query) if source and source != person.name)
    if not others:
        return f"; no one else calls {person.name} '{short.name}' here"
    said = ", ".join(f"{source} ({-n})" for n, source in others[:3])
    return f"; '{short.name}' is said by others than {person.name}: {said}"


def _told(q: Weighed, name_of: Callable[[int], Name]) -> str:
    """The reason of an ask's verdict, told again when the pass remembered it (judged low id first)."""
    low, high = sorted((q.left.id, q.right.id))
    return told(name_of(low), name_of(high), q.verdict)


def settle_moot_questions(namespace: str, home: Homes, dry_run: bool) -> int:
    """Pending questions whose two sides are already one entity are settled as moot."""
    rows = Question.select(Question.id, Question.left_id, Question.right_id).where(
        (Question.namespace == namespace) & (Question.kind == ENTITY_PAIR) & (Question.status == "pending")
    )
    moot = [qid for qid, a, b in tuples(rows) if home(a) is not None and home(a) == home(b)]
    if moot and not dry_run:
        for qid in moot:
            decisions.settle_moot(namespace, qid, AUTO, AUTO)
    return len(moot)

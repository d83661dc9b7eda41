"""The review queue as plain data: pending questions, ranked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from typing import NamedTuple

from peewee import fn

from memo_tui.engine.graph.folds import canonical_rank, follow_aliases
from memo_tui.store import Alias, Decision, Entity, Mention, Meta, Passage, Question, graph_version
from memo_tui.store.kinds import CONTRADICTION, DUPLICATE, ENTITY_PAIR, NAME_CLUSTER, PASSAGE_FAMILY
from memo_tui.store.rows import tuples
from memo_tui.store.statements import slices


@dataclass(frozen=True)
class QuestionView:
    id: int
    kind: str
    left_id: int
    right_id: int
    left_name: str
    right_name: str
    score: float
    rule: str
    reason: str
    impact: int
    likelihood: float
    priority: float
    status: str
    proposed_by: str | None = None  # the agent that proposed it (None: the resolver's question)
    unsure: str | None = None  # a reviewer's note when they left it for later, unsure (ranked last)
    # a cluster (kind name_cluster / passage_family, `core.clusters`): its members, canonical first,
    # and the pending questions it stands for; empty for a single question
    members: tuple[Member, ...] = ()
    questions: tuple[int, ...] = ()

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Member:
    """One member of a cluster: an entity (a spelling) or a passage."""

    id: int
    name: str  # the entity's name, or the passage's external id
    type: str | None  # the entity's type (None for a passage)
    passages: int  # live passages naming the entity (1 for a passage)
    likelihood: float  # that it is the same as the canonical, along the likeliest chain of questions
    reason: str  # the reason of the question that joins it on that chain
    question_id: int  # that question
    via: str | None = None  # the member that chain passes through (None: asked beside the canonical)
    kept_apart: bool = False  # a reviewer said it differs from the canonical, or from a member folded before it
    apart_from: str | None = None  # which one (unchecked by default, never folded into it)


_STORED = tuple(f.name for f in fields(QuestionView) if f.name not in ("members", "questions"))


def rank(q: QuestionView) -> tuple:
    """The queue's order (as `pending` sorts): unsure last, then by expected yield."""
    return (q.unsure is not None, -q.priority, -q.likelihood, q.id)


def view(question: Question) -> QuestionView:
    return QuestionView(**{name: getattr(question, name) for name in _STORED})


def pending(namespace: str, proposed: bool = False) -> list[QuestionView]:
    """Pending questions, highest expected yield first (likelihood x what the answer changes), then id;
    those a reviewer left for later, unsure, after all the others.
    A name question shows where its sides live now: a side folded into another entity since the
    question was asked is shown as that entity, by id and name. `proposed`: agents' proposals only."""
    query = (
        Question.select(*(getattr(Question, name) for name in _STORED))
        .where((Question.namespace == namespace) & (Question.status == "pending"))
        .order_by(Question.unsure.is_null(False), Question.priority.desc(), Question.likelihood.desc(), Question.id)
    )
    if proposed:
        query = query.where(Question.proposed_by.is_null(False))
    return at_homes([QuestionView(*row) for row in tuples(query)], _Folded(namespace))


class _Folded:
    """Where a folded entity id lives now, from the alias table alone: an id no fold absorbed stays
    itself (the queue does not need to read every entity to learn which ones were folded)."""

    def __init__(self, namespace: str) -> None:
        self.attached = dict(
            tuples(
                Alias.select(Alias.original_id, Alias.attached_to).where(
                    (Alias.namespace == namespace) & Alias.original_id.is_null(False)
                )
            )
        )

    def __call__(self, entity_id: int) -> int | None:
        return follow_aliases(entity_id, lambda e: e not in self.attached, self.attached.get)


def at_homes(views: list[QuestionView], home: Callable[[int], int | None]) -> list[QuestionView]:
    """Name questions shown where their sides live now (`home`: an entity id to where it lives): a
    side folded into another entity since the question was asked becomes that entity, by id and name."""
    moved = {side: home(side) for q in views if q.kind == ENTITY_PAIR for side in (q.left_id, q.right_id)}
    moved = {side: now for side, now in moved.items() if now != side}
    if not moved:
        return views
    found = sorted({i for i in moved.values() if i is not None})
    names: dict[int, str] = {}
    for part in slices(found):
        names.update(tuples(Entity.select(Entity.id, Entity.name).where(Entity.id.in_(part))))

    def now(entity_id: int, name: str) -> tuple[int, str]:
        current = moved.get(entity_id, entity_id)
        return (current, names[current]) if current in names else (entity_id, name)

    out = []
    for q in views:
        if q.kind == ENTITY_PAIR and (q.left_id in moved or q.right_id in moved):
            (left_id, left_name), (right_id, right_name) = now(q.left_id, q.left_name), now(q.right_id, q.right_name)
            q = replace(q, left_id=left_id, left_name=left_name, right_id=right_id, right_name=right_name)
        out.append(q)
    return out


def kept_sides(views: list[QuestionView]) -> dict[int, int]:
    """For each name pair, the side `m` keeps (the entity id `folds.canonical_order` would choose):
    the sides' live mentions counted in one query for the whole queue."""
    pairs = [q for q in views if q.kind == ENTITY_PAIR and not q.members]
    ids = sorted({side for q in pairs for side in (q.left_id, q.right_id)})
    counts: dict[int, int] = {}
    for part in slices(ids):
        rows = (
            Mention.select(Mention.entity, fn.COUNT(fn.DISTINCT(Mention.passage)))
            .join(Passage)
            .where(Mention.entity.in_(part) & Mention.active & Passage.retired_at.is_null())
            .group_by(Mention.entity)
        )
        counts.update(tuples(rows))
    sides = {}
    for q in pairs:
        left, right = (q.left_id, q.left_name), (q.right_id, q.right_name)
        sides[q.id] = min(left, right, key=lambda side: canonical_rank(side[0], side[1], counts.get(side[0], 0)))[0]
    return sides


def _waiting_key(namespace: str) -> str:
    return f"waiting:{namespace}"


def remember_waiting(namespace: str, count: int) -> None:
    """What the last pass found worth asking but left for a later pass (the cap was full)."""
    Meta.insert(key=_waiting_key(namespace), value=str(count)).on_conflict(
        conflict_target=[Meta.key], update={Meta.value: str(count)}
    ).execute()


def waiting(namespace: str) -> int:
    """Questions the last pass left for a later one (0 before any pass)."""
    row = Meta.get_or_none(Meta.key == _waiting_key(namespace))
    return int(row.value) if row else 0


def pending_count(namespace: str) -> int:
    return Question.select().where((Question.namespace == namespace) & (Question.status == "pending")).count()


class Signature(NamedTuple):
    """What changes when anyone (a reviewer, the CLI, an agent, a pass) changes the namespace."""

    version: int  # the graph version
    pending: int  # pending questions
    last_decision: int


def signature(namespace: str) -> Signature:
    """The namespace's signature now; cheap enough to poll every few seconds."""
    last = Decision.select(fn.MAX(Decision.id)).where(Decision.namespace == namespace).scalar() or 0
    return Signature(graph_version(namespace), pending_count(namespace), last)


MEMORY_KINDS = (DUPLICATE, CONTRADICTION, PASSAGE_FAMILY)  # items about passages, not names

# how a question's kind is shown (the queue's kind column) and can be searched for
KIND_LABELS = {
    ENTITY_PAIR: "names",
    DUPLICATE: DUPLICATE,
    CONTRADICTION: "conflict",
    NAME_CLUSTER: "spellings",
    PASSAGE_FAMILY: "passages",
}


def matches(question: QuestionView, text: str) -> bool:
    """Does the question's kind (as stored or as shown), rule, names or reason contain the text (any case)?"""
    wanted = text.casefold()
    label = KIND_LABELS.get(question.kind, question.kind)
    fields = (question.kind, label, question.rule, question.left_name, question.right_name, question.reason)
    return any(wanted in value.casefold() for value in fields)

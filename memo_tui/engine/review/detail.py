"""What a reviewer needs to answer one question, as plain data (the TUI's detail pane, `queue --json`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime

from memo_tui.engine.conflicts import differing_words
from memo_tui.engine.graph.folds import canonical_order, home_of
from memo_tui.engine.graph.links import also_see
from memo_tui.engine.review.queue import QuestionView, view
from memo_tui.errors import MemoError
from memo_tui.store import Alias, Entity, Mention, Passage, Question, Relation
from memo_tui.store.kinds import ENTITY_PAIR
from memo_tui.store.rows import tuples

PASSAGES_PER_SIDE = 3


@dataclass(frozen=True)
class Excerpt:
    external_id: str
    text: str
    source: str | None
    created_at: datetime
    retired: bool = False
    also_see: list[str] = field(default_factory=list)  # linked passages, strongest first


def excerpt(p: Passage) -> Excerpt:
    links = [link.external_id for link in also_see(p.id, limit=3)]
    return Excerpt(p.external_id, p.text, p.source, p.created_at, p.retired_at is not None, links)


@dataclass(frozen=True)
class EntitySide:
    id: int
    name: str
    type: str | None
    mentions: int
    aliases: list[str]
    passages: list[Excerpt]  # newest first, live only
    spellings: list[str]  # how the passages write it, for highlighting


@dataclass(frozen=True)
class PassageSide:
    passage: Excerpt
    differing: list[str]  # words this passage has that the other does not, at that place


@dataclass(frozen=True)
class Detail:
    question: QuestionView
    entities: tuple[EntitySide, EntitySide] | None  # for entity pairs
    passages: tuple[PassageSide, PassageSide] | None  # for duplicates and contradictions
    merge_effect: str  # what `m` would do, in words
    about: list[tuple[int, str]] = field(default_factory=list)  # entities both passages name, most named first

    def as_dict(self) -> dict:
        return asdict(self)


def question_detail(namespace: str, question_id: int, passages: int = PASSAGES_PER_SIDE) -> Detail:
    """The question's detail; `passages`: how many of each side's latest passages to show."""
    question = Question.get_or_none((Question.id == question_id) & (Question.namespace == namespace))
    if question is None:
        raise MemoError(f"no question {question_id} in namespace {namespace!r}")
    if question.kind == ENTITY_PAIR:
        return _entity_detail(question, passages)
    return _passage_detail(question)


def _live_mentions(entity_id: int):
    return (
        Mention.select(Mention.passage, Mention.surface)
        .join(Passage)
        .where((Mention.entity == entity_id) & Mention.active & Passage.retired_at.is_null())
    )


def entity_side(entity: Entity, passages: int = PASSAGES_PER_SIDE) -> EntitySide:
    rows = list(tuples(_live_mentions(entity.id)))
    passage_ids = list(dict.fromkeys(pid for pid, _ in rows))
    named = _live_mentions(entity.id).select(Mention.passage)  # a subquery: a hub names thousands
    recent = (
        Passage.select()
        .where(Passage.id.in_(named))
        .order_by(Passage.created_at.desc(), Passage.id.desc())
        .limit(passages)
    )
    aliases = [a.name for a in Alias.select(Alias.name).where(Alias.entity == entity.id).order_by(Alias.name)]
    spellings = sorted({surface for _, surface in rows} | {entity.name} | set(aliases), key=lambda s: (-len(s), s))
    return EntitySide(
        entity.id,
        entity.name,
        entity.type,
        len(passage_ids),
        aliases,
        [excerpt(p) for p in recent],
        spellings,
    )


def _entity_detail(question: Question, passages: int) -> Detail:
    left_id, right_id = home_of(question.left_id), home_of(question.right_id)
    if left_id is None or right_id is None:
        return Detail(view(question), None, None, "one side was deleted; reject it or revert the delete")
    left, right = Entity.get_by_id(left_id), Entity.get_by_id(right_id)
    sides = (entity_side(left, passages), entity_side(right, passages))
    if left_id == right_id:
        return Detail(view(question), sides, None, "already one entity (the question is moot)")
    canonical, absorbed = canonical_order(left, right)
    moved = next(s for s in sides if s.id == absorbed.id)
    relations = (
        Relation.select()
        .where(((Relation.src == absorbed.id) | (Relation.dst == absorbed.id)) & Relation.active)
        .count()
    )
    effect = (
        f"m folds {absorbed.name!r} into {canonical.name!r}: {_count(moved.mentions, 'passage')}, "
        f"{_count(relations, 'relation')} and {_count(len(moved.aliases), 'alias', 'aliases')} move; "
        f"{absorbed.name!r} stays as an alias (M folds the other way)"
    )
    return Detail(view(question), sides, None, effect)


def _passage_detail(question: Question) -> Detail:
    left, right = Passage.get_by_id(question.left_id), Passage.get_by_id(question.right_id)
    only_left, only_right = differing_words(left.text, right.text)

    newer, older = (left, right) if (left.created_at, left.id) > (right.created_at, right.id) else (right, left)
    effect = f"m keeps the newer {newer.external_id!r} and retires {older.external_id!r} (M keeps the older)"
    sides = (PassageSide(excerpt(left), only_left), PassageSide(excerpt(right), only_right))
    return Detail(view(question), None, sides, effect, _shared_entities(left.id, right.id))


def _shared_entities(left_id: int, right_id: int) -> list[tuple[int, str]]:
    named = [
        {e for (e,) in tuples(Mention.select(Mention.entity).where((Mention.passage == pid) & Mention.active))}
        for pid in (left_id, right_id)
    ]
    shared = Entity.select(Entity.id, Entity.name).where(Entity.id.in_(list(named[0] & named[1]) or [0]))
    ranked = [(entity.id, entity.name, _live_passage_count(entity.id)) for entity in shared]
    return [(eid, name) for eid, name, _ in sorted(ranked, key=lambda r: (-r[2], r[1], r[0]))]


def _live_passage_count(entity_id: int) -> int:
    return len({pid for pid, _ in tuples(_live_mentions(entity_id))})


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"

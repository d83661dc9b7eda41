"""Consistency checks of a namespace's graph: what should never be, found and named."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from memo_tui.store import Alias, Entity, Fold, Mention, Passage, Relation
from memo_tui.store.rows import tuples


@dataclass(frozen=True)
class Problem:
    check: str  # orphan_entity / dangling_alias / shadowed_alias / broken_fold / dangling_edge
    subject: str
    detail: str

    def as_dict(self) -> dict:
        return asdict(self)


def lint(namespace: str) -> list[Problem]:
    """Every problem found, in a stable order (check, then subject)."""
    entities = {
        e.id: e for e in Entity.select(Entity.id, Entity.name, Entity.identity_key).where(Entity.namespace == namespace)
    }
    passages = Passage.select(Passage.id).where(Passage.namespace == namespace)
    problems = (
        _orphans(entities, passages)
        + _aliases(namespace, entities)
        + _folds(namespace, entities)
        + _edges(entities, passages)
    )
    return sorted(problems, key=lambda p: (p.check, p.subject, p.detail))


def _orphans(entities: dict[int, Entity], passages) -> list[Problem]:
    """Entities no passage names, live or retired. One named only by retired passages (a conflict
    merged, a passage forgotten) is not broken: reverting that decision brings it back."""
    mentions = Mention.select(Mention.entity).where(Mention.active & Mention.passage.in_(passages)).distinct()
    named = {entity_id for (entity_id,) in tuples(mentions)}
    for src, dst in tuples(
        Relation.select(Relation.src, Relation.dst).where(Relation.active & Relation.passage.in_(passages))
    ):
        named.update((src, dst))
    return [
        Problem("orphan_entity", f"{entity.name} (#{entity.id})", "no active mention in any passage, no stated edge")
        for entity_id, entity in entities.items()
        if entity_id not in named
    ]


def _aliases(namespace: str, entities: dict[int, Entity]) -> list[Problem]:
    problems = []
    keys = {e.identity_key: e for e in entities.values()}
    for alias in Alias.select(Alias.id, Alias.name, Alias.entity, Alias.identity_key).where(
        Alias.namespace == namespace
    ):
        if alias.entity_id not in entities:
            problems.append(Problem("dangling_alias", alias.name, f"its canonical #{alias.entity_id} is gone"))
        elif alias.identity_key in keys:
            other = keys[alias.identity_key]
            problems.append(Problem("shadowed_alias", alias.name, f"also the name of live entity #{other.id}"))
    return problems


def _folds(namespace: str, entities: dict[int, Entity]) -> list[Problem]:
    problems = []
    for fold in Fold.select().where(Fold.namespace == namespace).order_by(Fold.id):
        subject = f"fold {fold.id} ({fold.absorbed_name})"
        aliases = Alias.select().where(Alias.fold == fold.id).count()
        try:
            json.loads(fold.record)
        except ValueError:
            problems.append(Problem("broken_fold", subject, "its record is not readable"))
        if fold.reverted_at is None:
            if fold.absorbed_id in entities:
                problems.append(Problem("broken_fold", subject, f"standing, but absorbed #{fold.absorbed_id} is live"))
            if not aliases:
                problems.append(Problem("broken_fold", subject, "standing, but its alias row is missing"))
        else:
            if aliases:
                problems.append(Problem("broken_fold", subject, "reverted, but its alias row remains"))
            for model, label in ((Mention, "mentions"), (Relation, "relations")):
                left = model.select().where((model.fold == fold.id) & ~model.active).count()
                if left:
                    problems.append(
                        Problem("broken_fold", subject, f"reverted, but {left} {label} it deactivated are still off")
                    )
    return problems


def _edges(entities: dict[int, Entity], passages) -> list[Problem]:
    problems = []
    mentions = Mention.select(Mention.id, Mention.entity).where(Mention.passage.in_(passages))
    for mention_id, entity_id in tuples(mentions):
        if entity_id not in entities:
            problems.append(Problem("dangling_edge", f"mention {mention_id}", f"points at missing entity #{entity_id}"))
    relations = Relation.select(Relation.id, Relation.src, Relation.dst).where(Relation.passage.in_(passages))
    for relation_id, src, dst in tuples(relations):
        for end in (src, dst):
            if end not in entities:
                problems.append(Problem("dangling_edge", f"relation {relation_id}", f"points at missing entity #{end}"))
    return problems

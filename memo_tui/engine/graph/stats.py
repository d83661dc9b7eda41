"""Counts that describe a namespace of the store."""

from __future__ import annotations

from memo_tui.store import Alias, Entity, Fold, Mention, Passage, Question, Relation, graph_version


def store_stats(namespace: str) -> dict[str, int]:
    live = Passage.select(Passage.id).where((Passage.namespace == namespace) & Passage.retired_at.is_null())
    entities = Entity.select(Entity.id).where(Entity.namespace == namespace)
    return {
        "passages_live": live.count(),
        "passages_retired": Passage.select()
        .where((Passage.namespace == namespace) & Passage.retired_at.is_null(False))
        .count(),
        "entities": entities.count(),
        "aliases": Alias.select().where(Alias.namespace == namespace).count(),
        "mentions_active": Mention.select()
        .where(Mention.active & Mention.passage.in_(live) & Mention.entity.in_(entities))
        .count(),
        "relations_active": Relation.select().where(Relation.active & Relation.passage.in_(live)).count(),
        "folds_standing": Fold.select().where((Fold.namespace == namespace) & Fold.reverted_at.is_null()).count(),
        "questions_pending": Question.select()
        .where((Question.namespace == namespace) & (Question.status == "pending"))
        .count(),
        "graph_version": graph_version(namespace),
    }

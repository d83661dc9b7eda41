"""Helpers for tests: the graph's rows as comparable tuples, and questions made by hand."""

from memo_tui.store import Alias, Entity, Mention, Question, Relation


def graph_rows():
    """Every entity, mention, relation and alias row, as sorted tuples."""
    return {
        "entities": sorted(
            Entity.select(Entity.id, Entity.name, Entity.identity_key, Entity.type, Entity.created_at).tuples()
        ),
        "mentions": sorted(
            Mention.select(Mention.id, Mention.passage, Mention.entity, Mention.surface, Mention.active).tuples()
        ),
        "relations": sorted(
            Relation.select(Relation.id, Relation.src, Relation.predicate, Relation.dst, Relation.active).tuples()
        ),
        "aliases": sorted(Alias.select(Alias.id, Alias.entity, Alias.name).tuples()),
    }


def ask(left: str, right: str, kind: str = "entity_pair", namespace: str = "default") -> int:
    """A pending question between two named entities, as the resolver would write it."""
    a = Entity.get((Entity.namespace == namespace) & (Entity.name == left))
    b = Entity.get((Entity.namespace == namespace) & (Entity.name == right))
    return question_between(a, b, kind)


def question_between(a: Entity, b: Entity, kind: str = "entity_pair") -> int:
    """The pending question between a and b (either order), made if there is none: a pair is never
    pending twice (the schema says so)."""
    same_pair = ((Question.left_id == a.id) & (Question.right_id == b.id)) | (
        (Question.left_id == b.id) & (Question.right_id == a.id)
    )
    existing = Question.get_or_none(
        (Question.namespace == a.namespace) & (Question.kind == kind) & (Question.status == "pending") & same_pair
    )
    if existing is not None:
        return existing.id
    return Question.create(
        namespace=a.namespace,
        kind=kind,
        left_id=a.id,
        right_id=b.id,
        left_name=a.name,
        right_name=b.name,
        score=0.8,
        rule="test",
        reason="made by a test",
    ).id

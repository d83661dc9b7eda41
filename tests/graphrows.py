"""Helpers for tests: the graph's rows as comparable tuples, questions made by hand, and a family
of spellings that the queue shows as one cluster."""

from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.store import Alias, Entity, Mention, Question, Relation
from memo_tui.text.sources import PassageRecord, parse_time

DASHBOARD = [
    ("a1", "The Ops Dashboard shows p99 latency for checkout.", "wiki"),
    ("a2", "Open the Ops Dashboard before the deploy.", "chat"),
    ("a3", "The ops-dashboard link is pinned in #sre.", "chat"),
    ("a4", "OpsDashboard now has a panel for queue depth.", "wiki"),
    ("a5", "Ops Dashboard alerts go to the on-call rotation.", "wiki"),
    ("a6", "The ops_dashboard config lives in the infra repo.", "chat"),
]


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
        likelihood=0.8,
        rule="test",
        reason="made by a test",
    ).id


def dashboard_family(namespace: str = "default") -> None:
    """Four spellings of one dashboard: three asked about among themselves; the fourth beside one of
    the others only, as a later pass or an agent would leave it. The queue shows one name cluster."""
    records = [
        PassageRecord(i, text, src, created_at=parse_time(f"2026-01-0{n + 1}"))
        for n, (i, text, src) in enumerate(DASHBOARD)
    ]
    ingest_records(namespace, records)
    resolve(namespace)
    # the pass asks about every pair; the family wants one member reached only through another (a
    # chain, as a later pass or an agent leaves one): ops_dashboard is asked beside ops-dashboard alone
    far = Entity.get((Entity.namespace == namespace) & (Entity.name == "ops_dashboard")).id
    Question.delete().where((Question.left_id == far) | (Question.right_id == far)).execute()
    ask("ops_dashboard", "ops-dashboard", namespace=namespace)

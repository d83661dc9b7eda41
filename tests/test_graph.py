"""related(), explore(), as_of and the graph cache on a small story store."""

from datetime import datetime

import pytest

from memo_tui.engine.graph.neighbourhood import explore, graph_for, related
from memo_tui.engine.ingest import forget, ingest_records
from memo_tui.engine.review import decisions
from memo_tui.errors import MemoError
from memo_tui.runtime import metrics
from memo_tui.text.sources import PassageRecord

NS = "default"


def at(day: str) -> datetime:
    return datetime.fromisoformat(day)


def story() -> list[PassageRecord]:
    """A team's year: ownership moves, a service is renamed, a note is revised."""
    owns = [{"src": "Alice Smith", "predicate": "owns", "dst": "Acme Gateway", "confidence": 0.9}]
    moved = [{"src": "Bob Okafor", "predicate": "owns", "dst": "Acme Gateway", "confidence": 1.0}]
    depends = [{"src": "Acme Gateway", "predicate": "depends_on", "dst": "Postgres", "confidence": 0.8}]
    people = [{"name": "Alice Smith", "type": "person"}, {"name": "Bob Okafor", "type": "person"}]
    return [
        PassageRecord("s1", "Alice Smith owns the Acme Gateway.", "chat", at("2026-01-05"), people[:1], owns),
        PassageRecord("s2", "The Acme Gateway keeps sessions in Postgres.", "wiki", at("2026-01-10"), [], depends),
        PassageRecord("s3", "Alice Smith and Bob Okafor paired on Postgres tuning.", "chat", at("2026-02-01"), people),
        PassageRecord("s4", "Bob Okafor now owns the Acme Gateway.", "chat", at("2026-03-01"), people[1:], moved),
        PassageRecord("s5", "Bob Okafor rotated the Acme Gateway keys with Alice Smith.", "chat", at("2026-03-15")),
        PassageRecord(
            "s6", "Dashboards for the Acme Gateway live in Grafana Cloud and Sentry.", "wiki", at("2026-04-01")
        ),
    ]


@pytest.fixture
def story_store(store):
    ingest_records(NS, story())
    return store


def test_related_keeps_stated_edges_and_co_mentions_apart(story_store):
    result = related(NS, "Acme Gateway")
    stated = {(s.predicate, s.direction, s.entity.name, s.passage, s.confidence) for s in result.stated}
    assert stated == {
        ("owns", "in", "Alice Smith", "s1", 0.9),
        ("owns", "in", "Bob Okafor", "s4", 1.0),
        ("depends_on", "out", "Postgres", "s2", 0.8),
    }
    shared = {c.entity.name: (c.shared, c.stated) for c in result.co_mentions}
    assert shared["Bob Okafor"] == (2, True)  # s4, s5
    assert shared["Alice Smith"] == (2, True)  # s1, s5
    assert shared["Grafana Cloud"] == (1, False)


def test_co_mentions_are_ordered_stated_then_shared_then_mentions_then_name(story_store):
    names = [c.entity.name for c in related(NS, "Acme Gateway").co_mentions]
    # stated neighbours first; Bob (3 passages) before Alice (3) by name; then Postgres (stated, 1 shared)
    assert names[:3] == ["Alice Smith", "Bob Okafor", "Postgres"]
    assert names[3:] == ["Grafana Cloud", "Sentry"]


def test_related_through_an_absorbed_spelling_answers_for_the_canonical(story_store):
    ingest_records(
        NS, [PassageRecord("s7", "We take nightly PostgreSQL backups for Acme Gateway.", "ops", at("2026-04-02"))]
    )
    decisions.manual_fold(NS, "PostgreSQL", "Postgres", "alice", "cli")
    result = related(NS, "postgresql")
    assert result.target.name == "Postgres" and result.matched_alias == "PostgreSQL"
    assert {c.entity.name: c.shared for c in result.co_mentions}["Acme Gateway"] == 2  # s2 and s7


def test_unknown_name_suggests_a_close_spelling(story_store):
    with pytest.raises(MemoError, match="did you mean 'Acme Gateway'"):
        related(NS, "Acme Gatewy")


def test_type_filter_and_limit(story_store):
    result = related(NS, "Acme Gateway", kind="person", limit=1)
    assert [c.entity.name for c in result.co_mentions] == ["Alice Smith"]
    assert result.co_mentions_total == 2 and result.stated_total == 2


def test_as_of_sees_only_passages_live_then(story_store):
    before_move = related(NS, "Acme Gateway", as_of=at("2026-02-15"))
    assert {s.entity.name for s in before_move.stated if s.predicate == "owns"} == {"Alice Smith"}
    assert "Grafana Cloud" not in {c.entity.name for c in before_move.co_mentions}
    forget(NS, "s1")  # retired now: still live in January's graph, gone from today's
    assert {s.entity.name for s in related(NS, "Acme Gateway").stated if s.predicate == "owns"} == {"Bob Okafor"}
    january = related(NS, "Acme Gateway", as_of=at("2026-01-31"))
    assert {s.entity.name for s in january.stated if s.predicate == "owns"} == {"Alice Smith"}


def test_a_revision_replaces_the_old_text_from_its_own_time_on(story_store):
    revised = PassageRecord("s6", "Dashboards for the Acme Gateway moved to Datadog.", "wiki", at("2026-05-01"))
    ingest_records(NS, [revised])
    assert "Datadog" in {c.entity.name for c in related(NS, "Acme Gateway").co_mentions}
    april = related(NS, "Acme Gateway", as_of=at("2026-04-15"))
    assert "Grafana Cloud" in {c.entity.name for c in april.co_mentions}
    assert "Datadog" not in {c.entity.name for c in april.co_mentions}


def cache_counts() -> dict[str, float]:
    return {
        labels.split('"')[1]: value
        for (name, labels), value in metrics.totals().items()
        if name == "memo_graph_cache_total" and 'namespace="default"' in labels
    }


def test_cache_is_reused_until_the_version_moves_even_when_mention_count_does_not(story_store):
    first = graph_for(NS)
    assert graph_for(NS) is first
    before = cache_counts()
    # s3 names both spellings' entities once each: folding Bob into Alice moves mentions but the
    # number of mention rows stays the same; the version must still invalidate the cache.
    decisions.manual_fold(NS, "Bob Okafor", "Alice Smith", "alice", "cli")
    after_fold = graph_for(NS)
    assert after_fold is not first
    assert "Bob Okafor" not in {name for name, _ in after_fold.names.values()}
    counts = cache_counts()
    assert counts.get("build", 0) == before.get("build", 0) + 1


def test_as_of_graphs_are_never_cached(story_store):
    before = cache_counts()
    one = graph_for(NS, at("2026-02-01"))
    two = graph_for(NS, at("2026-02-01"))
    assert one is not two
    assert cache_counts().get("build_asof", 0) == before.get("build_asof", 0) + 2


def test_explore_walks_hop_by_hop_with_connecting_passages(story_store):
    result = explore(NS, "Alice Smith", hops=2)
    assert [p.external_id for p in result.passages] == ["s5", "s3", "s1"]  # newest first
    first = {n.entity.name: n for n in result.hops[0].neighbours}
    assert first["Acme Gateway"].link == "stated" and first["Acme Gateway"].predicates == ["owns ->"]
    assert first["Acme Gateway"].passages[0].external_id == "s1"  # the evidence comes first
    assert set(first) == {"Acme Gateway", "Bob Okafor", "Postgres"}
    second = {n.entity.name: n for n in result.hops[1].neighbours}
    assert set(second) == {"Grafana Cloud", "Sentry"}
    assert all(n.via.name == "Acme Gateway" for n in second.values())
    assert "Dashboards" in second["Sentry"].passages[0].text


def test_explore_caps_a_hub(store):
    hub = [PassageRecord(f"h{i}", f"Nimbus Core talks to Service{i:02d}Api daily.", "x") for i in range(40)]
    ingest_records(NS, hub)
    result = explore(NS, "Nimbus Core", hops=1, per_node=5, own_passages=4)
    assert len(result.hops[0].neighbours) == 5 and result.hops[0].more == 35
    assert len(result.passages) == 4


def test_explore_rejects_more_than_three_hops(story_store):
    with pytest.raises(MemoError, match="--hops"):
        explore(NS, "Alice Smith", hops=4)

"""Ingest: passages, mentions, declared entities and relations, revisions, forget."""

import json

import pytest

from memo_tui.engine import ingest
from memo_tui.engine.ingest import forget, ingest_paths, ingest_records
from memo_tui.store import Entity, Mention, Passage, Relation, dialect, graph_version
from memo_tui.store.dialects import sqlite
from memo_tui.store.models import db
from memo_tui.text.sources import PassageRecord


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def entity_names():
    return sorted(e.name for e in Entity.select())


def test_jsonl_passages_mentions_and_declared_parts(store, tmp_path):
    src = write_jsonl(
        tmp_path / "a.jsonl",
        [
            {
                "id": "p1",
                "text": "We moved the Acme Gateway from Postgres to PostgreSQL.",
                "source": "chat",
                "created_at": "2026-01-02T10:00:00+02:00",
                "entities": [{"name": "Alice Smith", "type": "person"}],
                "relations": [
                    {"src": "Alice Smith", "predicate": "works_on", "dst": "Acme Gateway", "confidence": 0.9}
                ],
                "tags": ["infra"],
            }
        ],
    )
    report = ingest_paths("default", [str(src)])
    assert report.passages_new == 1 and report.skipped == 0
    passage = Passage.get()
    assert passage.source == "chat"
    assert passage.created_at.isoformat() == "2026-01-02T08:00:00"  # stored as UTC
    assert entity_names() == ["Acme Gateway", "Alice Smith", "PostgreSQL", "Postgres", "infra"]
    assert Entity.get(Entity.name == "Alice Smith").type == "person"
    sources = {m.entity.name: m.source for m in Mention.select()}
    assert sources["Alice Smith"] == "declared" and sources["infra"] == "tag"
    assert sources["PostgreSQL"] == "identifier" and sources["Postgres"] == "capitalised"
    rel = Relation.get()
    assert (rel.src.name, rel.predicate, rel.dst.name, rel.confidence) == (
        "Alice Smith",
        "works_on",
        "Acme Gateway",
        0.9,
    )


def test_same_identity_key_is_one_entity_across_passages(store):
    ingest_records(
        "default", [PassageRecord("a", "We use Claude  Code daily.", "s"), PassageRecord("b", "Ask @Claude Code.", "s")]
    )
    assert entity_names() == ["Claude Code"]
    assert Mention.select().count() == 2


def test_an_ingest_gives_the_connection_its_page_cache_back(store, monkeypatch):
    """A bulk write holds a larger SQLite page cache while it writes, and only then (`bulk_write_cache`)."""
    if dialect().name == "postgresql":
        pytest.skip("PostgreSQL keeps its own buffers")
    sizes = []
    monkeypatch.setattr(ingest.PassageWriter, "_write", lambda *_: sizes.append(cache_size()))
    before = cache_size()
    ingest_records("default", [PassageRecord("a", "We use Claude Code daily.", "s")])
    assert sizes == [-sqlite.BULK_CACHE_KIB] and cache_size() == before != sizes[0]
    monkeypatch.setattr(ingest.PassageWriter, "_write", lambda *_: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        ingest_records("default", [PassageRecord("b", "Ask Claude Code.", "s")])
    assert cache_size() == before


def cache_size() -> int:
    return db.execute_sql("PRAGMA cache_size").fetchone()[0]


def test_letter_case_makes_different_entities(store):
    ingest_records("default", [PassageRecord("a", "ship it with SHIP and with Ship too", "s")])
    assert entity_names() == ["SHIP", "Ship"]


def test_reingest_same_text_is_a_noop(store, tmp_path):
    src = write_jsonl(tmp_path / "a.jsonl", [{"id": "x", "text": "Postgres runs the Acme Gateway."}])
    ingest_paths("default", [str(src)])
    version = graph_version("default")
    report = ingest_paths("default", [str(src)])
    assert (report.passages_new, report.passages_unchanged, report.passages_revised) == (0, 1, 0)
    assert Passage.select().count() == 1
    assert graph_version("default") == version


def test_reingest_with_new_text_retires_the_old_revision(store, tmp_path):
    ingest_paths(
        "default",
        [str(write_jsonl(tmp_path / "a.jsonl", [{"id": "x", "text": "Timeout is 30 seconds in Acme Gateway."}]))],
    )
    report = ingest_paths(
        "default",
        [str(write_jsonl(tmp_path / "b.jsonl", [{"id": "x", "text": "Timeout is 60 seconds in Acme Gateway."}]))],
    )
    assert report.passages_revised == 1
    old, new = Passage.select().order_by(Passage.id)
    assert old.retired_at is not None and new.retired_at is None
    assert new.revision_of_id == old.id


def test_supersedes_retires_the_named_passage(store):
    ingest_records("default", [PassageRecord("old", "Acme Gateway owner is Alice.", "s")])
    ingest_records("default", [PassageRecord("new", "Acme Gateway owner is Bob.", "s", supersedes=["old"])])
    assert Passage.get(Passage.external_id == "old").retired_at is not None


def test_forget_retires_and_bumps_the_graph_version(store):
    ingest_records("default", [PassageRecord("x", "We run Postgres here.", "s")])
    version = graph_version("default")
    forget("default", "x")
    assert Passage.get().retired_at is not None
    assert graph_version("default") == version + 1


def test_markdown_is_split_at_headings(store, tmp_path):
    md = tmp_path / "notes.md"
    md.write_text(
        "intro about Acme Gateway\n\n# Postgres Setup\nuse PostgreSQL 16\n\n"
        "## Postgres Setup\nagain\n```\n# not a heading\n```\n"
    )
    report = ingest_paths("default", [str(md)])
    ids = sorted(p.external_id for p in Passage.select())
    assert report.passages_new == 3
    assert ids == [f"{md}#postgres-setup", f"{md}#postgres-setup-2", f"{md}#top"]
    assert "# not a heading" in Passage.get(Passage.external_id == f"{md}#postgres-setup-2").text


def test_directories_are_walked_recursively_in_order(store, tmp_path):
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "b.md").write_text("Acme Gateway notes")
    (tmp_path / "d" / "sub" / "a.txt").write_text("Postgres notes")
    (tmp_path / "d" / "skip.bin").write_bytes(b"\0\1")
    (tmp_path / "d" / ".hidden.md").write_text("Hidden Thing")
    report = ingest_paths("default", [str(tmp_path / "d")])
    assert report.files == 2 and report.passages_new == 2 and report.skipped == 0


def test_namespaces_are_separate(store):
    ingest_records("one", [PassageRecord("x", "We run Postgres here.", "s")])
    ingest_records("two", [PassageRecord("x", "We run Postgres here.", "s")])
    assert Entity.select().where(Entity.namespace == "one").count() == 1
    assert Entity.select().where(Entity.namespace == "two").count() == 1


def test_an_ingest_that_doubles_the_passages_tells_sqlite_how_the_rows_spread(store):
    """With statistics, SQLite reads one namespace's entities (every one here) by a scan of the
    table, not row by row through the namespace index. An ingest that does not double the passages
    leaves the statistics as they were; one that does refreshes them."""
    if dialect().name == "postgresql":
        pytest.skip("PostgreSQL keeps its own statistics")

    def records(start: int, count: int) -> list[PassageRecord]:
        return [
            PassageRecord(f"p{i}", f"Tool{i} runs on Host{i % 7} with Kafka.", "s") for i in range(start, start + count)
        ]

    def plan() -> str:
        sql = "EXPLAIN QUERY PLAN SELECT id, name, type FROM entity WHERE namespace = ? ORDER BY id"
        return " ".join(row[3] for row in db.execute_sql(sql, ("default",)).fetchall())

    def passages_seen() -> int:
        return int(db.execute_sql("SELECT stat FROM sqlite_stat1 WHERE tbl = 'passage'").fetchone()[0].split()[0])

    assert "USING INDEX" in plan()  # no statistics yet: the index, row by row
    ingest_records("default", records(0, 300))
    assert plan() == "SCAN entity" and passages_seen() == 300
    ingest_records("default", records(300, 200))
    assert passages_seen() == 300
    ingest_records("default", records(500, 100))
    assert passages_seen() == 600

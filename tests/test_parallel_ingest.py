"""Large ingests extract in a second process; the store must come out the same as a serial ingest."""

import sys
from pathlib import Path

from memo_tui.engine import ingest
from memo_tui.engine.graph.opening import open_store
from memo_tui.store import Entity, Mention, Passage, Relation, db
from memo_tui.text.sources import parse_object

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from corpus import passages  # noqa: E402


def snapshot(path):
    database = open_store(str(path))
    try:
        return (
            sorted(Passage.select(Passage.external_id, Passage.text).tuples()),
            sorted(Entity.select(Entity.name, Entity.identity_key, Entity.type).tuples()),
            sorted(
                Mention.select(Passage.external_id, Entity.identity_key, Mention.source)
                .join_from(Mention, Passage)
                .join_from(Mention, Entity)
                .tuples()
            ),
            sorted(
                Relation.select(Relation.src_key, Relation.predicate, Relation.dst_key, Relation.confidence).tuples()
            ),
        )
    finally:
        database.close()
        db.initialize(None)


def ingest_into(path, records):
    database = open_store(str(path))
    try:
        ingest.ingest_records("default", records)
    finally:
        database.close()
        db.initialize(None)


def prose(at: int, text: str) -> dict:
    return {"id": f"prose-{at}", "text": text, "source": "notes"}


def test_parallel_extraction_writes_what_serial_extraction_writes(tmp_path, monkeypatch):
    """Prose spellings too: the second process keeps the names known as the chunks go by (a name
    first seen in a later chunk, in the same chunk as its prose spelling, or in the store already)."""
    rows = list(passages(1200, names_in_pool=300))
    rows.insert(10, prose(1, "We moved the ledger to Zephyrine last week."))
    rows.insert(700, prose(2, "Ops say zephyrine is faster, and the team adopted Quillmark for docs."))
    rows.insert(702, prose(3, "The quillmark build passed, and zephyrine too."))
    rows.insert(1150, prose(4, "Nobody misses the old setup since quillmark."))
    declared = {  # what a record declares reaches the second process too
        "entities": [{"name": "Harbor Ledger", "type": "project"}, "Tidewater"],
        "tags": ["ledger-migration"],
        "relations": [{"src": "Harbor Ledger", "predicate": "owned_by", "dst": "Mira Okafor", "confidence": 0.8}],
    }
    rows.insert(900, prose(6, "The ledger moved under the platform team.") | declared)
    records = [parse_object(row, "bench") for row in rows]
    monkeypatch.setattr(ingest, "CHUNK", 500)  # the spellings above fall in three chunks
    later = [parse_object(prose(5, "A late note: zephyrine and quillmark both held up."), "bench")]
    for name, parallel in (("serial.db", False), ("parallel.db", True)):
        if parallel:  # the second process, whatever the machine's cores
            monkeypatch.setattr(ingest, "PARALLEL_MIN", 1)
            monkeypatch.setattr(ingest.os, "cpu_count", lambda: 2)
        ingest_into(tmp_path / name, records)
        ingest_into(tmp_path / name, later)  # the names known come from the store this time
    serial, parallel = snapshot(tmp_path / "serial.db"), snapshot(tmp_path / "parallel.db")
    assert len(serial[2]) > 5000
    found = sorted((external_id, key) for external_id, key, source in serial[2] if source == "prose")
    assert found == [
        ("prose-2", "zephyrine"), ("prose-3", "quillmark"), ("prose-3", "zephyrine"), ("prose-4", "quillmark"),
        ("prose-5", "quillmark"), ("prose-5", "zephyrine"),
    ]  # fmt: skip
    assert ("Harbor Ledger", "Harbor Ledger", "project") in serial[1] and serial[3]
    assert serial == parallel

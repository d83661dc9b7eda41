"""Large ingests extract in a second process; the store must come out the same as a serial ingest."""

import sys
from pathlib import Path

from memo_tui.core import ingest
from memo_tui.core.opening import open_store
from memo_tui.core.sources import parse_object
from memo_tui.store import Entity, Mention, Passage, db

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from corpus import passages  # noqa: E402


def snapshot(path):
    database = open_store(str(path))
    try:
        return (
            sorted(Passage.select(Passage.external_id, Passage.text).tuples()),
            sorted(Entity.select(Entity.name, Entity.identity_key).tuples()),
            sorted(
                Mention.select(Passage.external_id, Entity.identity_key, Mention.source)
                .join_from(Mention, Passage)
                .join_from(Mention, Entity)
                .tuples()
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


def test_parallel_extraction_writes_what_serial_extraction_writes(tmp_path, monkeypatch):
    records = [parse_object(row, "bench") for row in passages(1200, names_in_pool=300)]
    ingest_into(tmp_path / "serial.db", records)
    monkeypatch.setattr(ingest, "PARALLEL_MIN", 1)
    ingest_into(tmp_path / "parallel.db", records)
    serial, parallel = snapshot(tmp_path / "serial.db"), snapshot(tmp_path / "parallel.db")
    assert len(serial[2]) > 5000
    assert serial == parallel

"""No statement grows with the store: every list of ids goes to the database in slices."""

import sqlite3

import pytest

from memo_tui.engine.graph.lint import lint
from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.resolve.resolver import resolve
from memo_tui.engine.review import clusters
from memo_tui.engine.review.detail import entity_side, question_detail
from memo_tui.engine.review.queue import pending
from memo_tui.store import Entity, db, dialect
from memo_tui.store.statements import SLICE
from memo_tui.text.sources import PassageRecord

NS = "default"
LIMIT = 8000  # SQLite's variable limit for the test: a slice of ids, or 500 rows of 15 columns, fit
ENTITIES = 2 * 9000  # two spellings per passage; the hub is named by 9,000 passages, more than LIMIT


@pytest.fixture
def big(store):
    if dialect().name == "postgresql":
        pytest.skip("the variable limit is SQLite's (PostgreSQL allows 65,535 and runs the same statements)")
    records = []
    for i in range(ENTITIES // 2):
        # two spellings of each part number, and a hub every passage names
        names = [f"Part {i} Gizmo", f"part-{i}-gizmo" if i % 3 else f"Part {i} Gizmos", "Acme Hub"]
        records.append(PassageRecord(f"p{i}", f"Order {i} is about {names[0]} and {names[1]}.", "a",
                                     entities=[{"name": n} for n in names]))  # fmt: skip
    ingest_records(NS, records)
    raw = db.connection()
    assert SLICE < LIMIT  # the store layer's slices must fit
    raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, LIMIT)
    return store


def test_a_pass_the_queue_and_a_hubs_detail_run_when_id_lists_are_longer_than_the_variable_limit(big):
    assert Entity.select().count() > ENTITIES - 10
    report = resolve(NS, cap=ENTITIES)
    assert report.folded + report.queued > ENTITIES // 4
    queue = clusters.group(NS, pending(NS))
    assert len(queue) > LIMIT // 2
    assert question_detail(NS, queue[0].id).question.id == queue[0].id
    hub = Entity.get(Entity.name == "Acme Hub")
    assert entity_side(hub).mentions == ENTITIES // 2  # its passages are read through a subquery
    assert lint(NS) == []

"""The store: location, pragmas, schema version and in-place upgrade."""

import math
import sqlite3

import peewee as pw
import pytest

from memo_tui.engine.graph import opening
from memo_tui.engine.graph.opening import open_store
from memo_tui.errors import MemoError
from memo_tui.store import Meta, Question, db, migrations, resolve_location
from memo_tui.store.connect import bound_location
from memo_tui.store.dialects import dialect_of, for_location


def test_sqlite_runs_in_wal_with_foreign_keys(tmp_path):
    open_store(str(tmp_path / "wal.db"))
    assert db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute_sql("PRAGMA busy_timeout").fetchone()[0] >= 5000


def test_a_part_written_over_is_logged_once_not_zeroed_page_by_page_too(tmp_path):
    # Debian's SQLite zeroes every freed page (secure_delete): writing a part of the pass memory over
    # logged its old pages as zeros beside its new ones, twice the writes and twice the copying back
    from memo_tui.engine.resolve import pass_memory

    path = tmp_path / "part.db"
    database = open_store(str(path))
    try:
        part = bytes(range(256)) * (8 << 12)  # 8 MB
        pass_memory.keep_data("default", "x", "t", part)
        db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        pass_memory.keep_data("default", "x", "t", part + b"grown")  # another size: not overwritten in place
        logged = (tmp_path / "part.db-wal").stat().st_size
        assert len(part) < logged < 1.25 * len(part)
    finally:
        database.close()


def test_schema_version_is_recorded(store):
    assert Meta.get(Meta.key == "schema_version").value == str(migrations.SCHEMA_VERSION)


def test_location_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMO_TUI_DB", str(tmp_path / "env.db"))
    assert resolve_location(str(tmp_path / "flag.db")) == str(tmp_path / "flag.db")
    assert resolve_location(None) == str(tmp_path / "env.db")
    monkeypatch.delenv("MEMO_TUI_DB")
    assert resolve_location(None).endswith("memo.db")


def test_another_process_is_told_where_the_bound_store_is_when_it_can_open_it(tmp_path):
    # a pass's second process opens the store where the pass did (an incremental passage search)
    for location in (str(tmp_path / "a.db"), f"sqlite:///{tmp_path}/b.db", ":memory:"):
        database = open_store(location)
        try:
            assert bound_location() == (None if location == ":memory:" else location)
        finally:
            database.close()
    other = pw.SqliteDatabase(str(tmp_path / "c.db"))
    db.initialize(other)  # bound some other way: no location to tell
    assert bound_location() is None
    db.initialize(None)


def test_each_location_is_opened_by_one_dialect_and_each_database_has_one():
    assert for_location("notes/memo.db").name == "sqlite"
    assert for_location("sqlite:///:memory:").name == "sqlite"
    assert for_location("postgresql://u@host/db").name == "postgresql"
    assert for_location("postgres://u@host/db").name == "postgresql"
    assert for_location("mysql://u@host/db") is None
    assert dialect_of(pw.SqliteDatabase(":memory:")).name == "sqlite"
    assert dialect_of(pw.PostgresqlDatabase("db")).name == "postgresql"
    with pytest.raises(TypeError, match="no dialect"):
        dialect_of(pw.MySQLDatabase("db"))


def test_sqlite_url_form(tmp_path):
    database = open_store(f"sqlite:///{tmp_path}/url.db")
    try:
        assert (tmp_path / "url.db").exists()
        assert db.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        database.close()


def test_an_older_store_is_upgraded_in_place(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    open_store(str(path)).close()
    ran = []
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", migrations.SCHEMA_VERSION + 1)
    monkeypatch.setitem(opening.DATA_STEPS, migrations.SCHEMA_VERSION - 1, lambda: ran.append("migrated"))
    open_store(str(path)).close()
    assert ran == ["migrated"]
    assert sqlite3.connect(path).execute("select value from meta").fetchone()[0] == str(migrations.SCHEMA_VERSION)


def test_a_newer_store_is_refused(tmp_path):
    path = tmp_path / "new.db"
    open_store(str(path)).close()
    sqlite3.connect(path).execute("update meta set value='999'").connection.commit()
    with pytest.raises(MemoError, match="schema version 999"):
        open_store(str(path))


def test_a_directory_is_not_a_store(tmp_path):
    with pytest.raises(MemoError, match="is a directory"):
        open_store(str(tmp_path))


def test_a_version_2_store_gets_likelihoods_and_ranks_on_one_scale(tmp_path):
    path = tmp_path / "v2.db"
    open_store(str(path)).close()
    con = sqlite3.connect(path)
    for column in ("pattern", "likelihood", "evidence", "priority"):
        con.execute(f"alter table question drop column {column}")
    common = (
        "namespace, kind, left_id, right_id, left_name, right_name, score, rule, reason, impact, status, created_at"
    )
    con.execute(
        f"insert into question ({common}) values "
        "('default', 'contradiction', 1, 2, 'p1', 'p2', 1.0, 'single-valued:owner', 'r', 14, 'pending', '2026-01-01'),"
        "('default', 'entity_pair', 3, 4, 'Gitlab', 'GitLab', 1.0, 'same-merge-key', 'r', 1, 'pending', '2026-01-01')"
    )
    con.execute("update meta set value = '2' where key = 'schema_version'")
    con.commit()
    con.close()
    open_store(str(path))
    rows = {q.kind: q for q in Question.select()}
    conflict, names = rows["contradiction"], rows["entity_pair"]
    assert conflict.pattern == "single-valued" and 0 < conflict.likelihood <= 1
    assert conflict.priority == pytest.approx(conflict.likelihood * math.log2(15), abs=1e-3)
    assert names.pattern == "same-merge-key" and names.priority == pytest.approx(names.likelihood, abs=1e-3)
    assert Meta.get(Meta.key == "schema_version").value == str(migrations.SCHEMA_VERSION)


def pending(namespace, left, right, kind="entity_pair"):
    return Question.create(
        namespace=namespace,
        kind=kind,
        left_id=left,
        right_id=right,
        left_name=f"e{left}",
        right_name=f"e{right}",
        score=1.0,
        rule="case",
        reason="r",
    )


def test_one_pending_question_per_pair_is_a_schema_constraint(store):
    first = pending("default", 3, 4)
    with pytest.raises(pw.IntegrityError), db.atomic():
        pending("default", 4, 3)  # the same pair in the other order
    pending("other", 3, 4)  # another namespace
    pending("default", 3, 4, kind="duplicate")  # another kind of question
    Question.update(status="rejected").where(Question.id == first.id).execute()
    pending("default", 3, 4)  # once answered, a new question may ask again


def test_a_version_3_store_keeps_the_oldest_of_duplicate_pending_questions(tmp_path):
    path = tmp_path / "v3.db"
    open_store(str(path)).close()
    con = sqlite3.connect(path)
    con.execute(f"drop index {migrations.ONE_PENDING_INDEX}")
    common = "namespace, kind, left_id, right_id, left_name, right_name, score, rule, reason, status, created_at"
    filled = "impact, likelihood, evidence, priority"
    con.execute(
        f"insert into question ({common}, {filled}) values "
        "('default', 'entity_pair', 3, 4, 'a', 'b', 1.0, 'case', 'r', 'pending', '2026-01-01', 1, 0.5, 0, 0.5),"
        "('default', 'entity_pair', 4, 3, 'b', 'a', 1.0, 'case', 'r', 'pending', '2026-01-02', 1, 0.5, 0, 0.5),"
        "('default', 'entity_pair', 5, 6, 'c', 'd', 1.0, 'case', 'r', 'pending', '2026-01-02', 1, 0.5, 0, 0.5)"
    )
    con.execute("update meta set value = '3' where key = 'schema_version'")
    con.commit()
    con.close()
    open_store(str(path))
    assert [(q.id, q.status) for q in Question.select().order_by(Question.id)] == [
        (1, "pending"),
        (2, "moot"),
        (3, "pending"),
    ]
    with pytest.raises(pw.IntegrityError), db.atomic():
        pending("default", 5, 6)


def test_inserted_ids_are_the_rows_and_an_id_is_never_given_twice(store):
    """`Inserter.ids` hands out ids itself on SQLite, as AUTOINCREMENT would: the ids are the rows'
    in order, and the id of a deleted newest row is not given again."""
    from memo_tui.store import Passage, utcnow
    from memo_tui.store.locks import writing
    from memo_tui.store.statements import Inserter

    fields = ("namespace", "external_id", "text", "source", "created_at", "ingested_at", "revision_of", "declared")
    inserter, now = Inserter(Passage, fields), utcnow()

    def rows(names):
        return [("ns", name, f"text of {name}", None, now, now, None, None) for name in names]

    with writing("ns"):
        first = inserter.ids(rows(["a", "b", "c"]))
    assert dict(Passage.select(Passage.id, Passage.external_id).tuples()) == dict(zip(first, "abc", strict=True))
    Passage.delete().where(Passage.id == first[-1]).execute()
    with writing("ns"):
        second = inserter.ids(rows(["d", "e"]))
    assert min(second) > max(first) and second == sorted(second)
    assert dict(Passage.select(Passage.id, Passage.external_id).where(Passage.id.in_(second)).tuples()) == dict(
        zip(second, "de", strict=True)
    )


def test_inserted_times_are_each_rows_own_when_rows_share_some(store):
    """SQLite gets a datetime as text, the last one made kept for the next row that shares it: rows
    that alternate between times, or share one, each read back their own."""
    from datetime import datetime, timedelta

    from memo_tui.store import Passage
    from memo_tui.store.locks import writing
    from memo_tui.store.statements import Inserter

    inserter = Inserter(Passage, ("namespace", "external_id", "text", "created_at", "ingested_at"))
    now, then = datetime(2026, 3, 4, 5, 6, 7, 890), datetime(2025, 1, 2, 3, 4, 5)
    times = [then, now, then + timedelta(0), now, None]
    with writing("ns"):
        inserter.ids([("ns", f"p{at}", "text", when or now, now) for at, when in enumerate(times)])
        inserter.many([("ns", "q", "text", then, then)])
    found = {p.external_id: (p.created_at, p.ingested_at) for p in Passage.select()}
    assert found == {**{f"p{at}": (when or now, now) for at, when in enumerate(times)}, "q": (then, then)}


def test_a_version_6_store_gets_passage_search_over_the_passages_it_holds(tmp_path):
    from memo_tui.engine.ingest import forget, ingest_records
    from memo_tui.engine.review import passage_reads
    from memo_tui.text.sources import PassageRecord

    path = tmp_path / "v6.db"
    open_store(str(path))
    ingest_records("default", [PassageRecord("p1", "Atlas Sync runs the billing export.", "notes")])
    db.close()
    con = sqlite3.connect(path)
    con.execute(f"drop table {migrations.PASSAGE_SEARCH}")  # its triggers go with it
    con.execute("update meta set value = '6' where key = 'schema_version'")
    con.commit()
    con.close()
    open_store(str(path))
    assert [p.external_id for p in passage_reads.search("default", "billing EXPORT", 5)] == ["p1"]
    ingest_records("default", [PassageRecord("p2", "Orion Relay feeds the billing export.", "notes")])
    assert {p.external_id for p in passage_reads.search("default", "billing export", 5)} == {"p1", "p2"}
    forget("default", "p1")
    assert [p.external_id for p in passage_reads.search("default", "billing", 5)] == ["p2"]

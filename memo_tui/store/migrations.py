"""The schema's versions and how a store moves from one to the next, on SQLite and PostgreSQL.

A store records its `schema_version` in `meta`. `upgrade` creates what is missing, then runs, for
each version the store is behind, the schema step (here) and the engine's data step (passed in by
the caller: `memo_tui.engine.graph.opening`), all in one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import peewee as pw
from playhouse.migrate import SchemaMigrator, migrate

from memo_tui.errors import MemoError
from memo_tui.store.dialects import dialect_of
from memo_tui.store.models import MODELS, Meta, Passage, Question, db, dialect

SCHEMA_VERSION = 8

ONE_PENDING_INDEX = "question_one_pending_per_pair"
PASSAGE_SEARCH = "passage_text_search"  # SQLite: the FTS5 table; PostgreSQL: the tsvector index


def _add_question_likelihood() -> None:
    """Version 2 -> 3: a question's pattern, likelihood, evidence and priority."""
    migrator = SchemaMigrator.from_database(db.obj)
    have = {column.name for column in db.get_columns(Question._meta.table_name)}
    fields = (
        ("pattern", Question.pattern),
        ("likelihood", Question.likelihood),
        ("evidence", Question.evidence),
        ("priority", Question.priority),
    )
    migrate(
        *(migrator.add_column(Question._meta.table_name, name, field) for name, field in fields if name not in have)
    )


def _one_pending_question_per_pair() -> None:
    """Version 3 -> 4: at most one pending question per pair of sides (either order). Where a store
    already holds several, the oldest stays pending and the later copies go moot."""
    low, high = dialect().pair_bounds("left_id", "right_id")
    table = Question._meta.table_name
    db.execute_sql(
        f"UPDATE {table} SET status = 'moot' WHERE status = 'pending' AND id NOT IN ("
        f"SELECT MIN(id) FROM {table} WHERE status = 'pending' GROUP BY namespace, kind, {low}, {high})"
    )
    _create_one_pending_index()


def _create_one_pending_index() -> None:
    low, high = dialect().pair_bounds("left_id", "right_id")
    db.execute_sql(
        f"CREATE UNIQUE INDEX IF NOT EXISTS {ONE_PENDING_INDEX} ON {Question._meta.table_name} "
        f"(namespace, kind, {low}, {high}) WHERE status = 'pending'"
    )


def _add_proposed_by() -> None:
    """Version 4 -> 5: which agent proposed a question (agents propose over MCP; a person answers)."""
    have = {column.name for column in db.get_columns(Question._meta.table_name)}
    if "proposed_by" not in have:
        migrate(
            SchemaMigrator.from_database(db.obj).add_column(
                Question._meta.table_name, "proposed_by", Question.proposed_by
            )
        )


def _create_passage_search() -> None:
    """Version 6 -> 7: full-text search of passages, kept in step with the passage table by the
    database itself (triggers on SQLite; an expression index on PostgreSQL), so that ingest, forget,
    rebuild and copy need not know of it. Whole words, any case, no stemming on both backends."""
    dialect().create_text_search(db, PASSAGE_SEARCH, Passage._meta.table_name)


def _add_unsure() -> None:
    """Version 7 -> 8: a reviewer's note on a question left pending, unsure (the not_a_name table is new)."""
    have = {column.name for column in db.get_columns(Question._meta.table_name)}
    if "unsure" not in have:
        migrate(SchemaMigrator.from_database(db.obj).add_column(Question._meta.table_name, "unsure", Question.unsure))


# SCHEMA_STEPS[n] changes the tables of a version-n store for version n + 1 (new tables need no
# step: `create_tables(safe=True)` makes them).
SCHEMA_STEPS: dict[int, Callable[[], None]] = {
    2: _add_question_likelihood,
    3: _one_pending_question_per_pair,
    4: _add_proposed_by,
    6: _create_passage_search,
    7: _add_unsure,
}


def _version(database: pw.Database) -> int | None:
    if not database.table_exists(Meta._meta.table_name):
        return None
    row = Meta.get_or_none(Meta.key == "schema_version")
    return int(row.value) if row else None


def upgrade(database: pw.Database, data_steps: Mapping[int, Callable[[], None]]) -> None:
    """Create the tables a store lacks and bring it to SCHEMA_VERSION, in one transaction.

    A store already at this version is only read: DDL, even `CREATE ... IF NOT EXISTS`, takes table
    locks on PostgreSQL that would queue every opening process behind a running pass."""
    if _version(database) == SCHEMA_VERSION:
        return
    with database.atomic():
        dialect_of(database).lock_schema(database)
        database.create_tables(MODELS, safe=True)
        row = Meta.get_or_none(Meta.key == "schema_version")
        if row is None:
            _create_one_pending_index()
            _create_passage_search()
            Meta.create(key="schema_version", value=str(SCHEMA_VERSION))
            return
        version = int(row.value)
        if version > SCHEMA_VERSION:
            raise MemoError(f"this store has schema version {version}; this memo-tui knows up to {SCHEMA_VERSION}")
        while version < SCHEMA_VERSION:
            for step in (SCHEMA_STEPS.get(version), data_steps.get(version)):
                if step is not None:
                    step()
            version += 1
        Meta.update(value=str(version)).where(Meta.key == "schema_version").execute()

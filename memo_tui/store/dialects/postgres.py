"""PostgreSQL: a store on a server, its writers serialised per namespace by row and advisory locks."""

from __future__ import annotations

import sys
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import peewee as pw
from playhouse.db_url import connect as connect_url

from memo_tui.errors import MemoError
from memo_tui.store.dialects.base import Dialect, IdWriter

SCHEMES = ("postgres://", "postgresql://")
LOCK_CLASS = 0x6D656D6F  # "memo": the first key of memo-tui's advisory locks
SCHEMA_LOCK_CLASS = 0x6D656D73  # "mems": the advisory lock a schema change holds


def _key(namespace: str) -> int:
    return zlib.crc32(namespace.encode()) - 2**31  # a signed 32-bit int, as the two-key form wants


class PostgreSQL(Dialect):
    name = "postgresql"
    database_class = pw.PostgresqlDatabase
    opening_errors = (ValueError,)  # a port that is not a number, or out of range
    datetimes_as_text = False
    disk_full = "53100"
    read_only = "25006"

    def opens(self, location: str) -> bool:
        return location.startswith(SCHEMES)

    def connect(self, location: str) -> pw.Database:
        try:
            import psycopg  # noqa: F401  (the driver of the [postgres] extra; Peewee picks it up)
        except ImportError:
            raise MemoError("a PostgreSQL store needs the driver: pip install 'memo-tui[postgres]'") from None
        # no server-side prepared statements: a plan made while a table is small (a sequential scan)
        # would be kept as it grows, and an ingest would slow down passage by passage
        return connect_url(location, prefer_psycopg3=True, prepare_threshold=None)

    def shared(self, database: pw.Database) -> bool:
        return True

    def errors(self) -> tuple[type[BaseException], ...]:
        if "psycopg" in sys.modules:  # loaded with a PostgreSQL store, and only then
            return (sys.modules["psycopg"].Error,)
        return ()

    def error_code(self, error: BaseException) -> str | None:
        return getattr(error, "sqlstate", None)

    def stable_id(self, ddl: pw.Node) -> pw.Node:
        return ddl  # a sequence never hands out an id twice

    def pair_bounds(self, left: str, right: str) -> tuple[str, str]:
        return f"LEAST({left}, {right})", f"GREATEST({left}, {right})"

    def create_text_search(self, database: pw.Database, name: str, table: str) -> None:
        database.execute_sql(f"CREATE INDEX IF NOT EXISTS {name} ON {table} USING GIN (to_tsvector('simple', text))")

    def lock_schema(self, database: pw.Database) -> None:
        # two first openings at once: one creates, one waits
        database.execute_sql("SELECT pg_advisory_xact_lock(%s, 0)", (SCHEMA_LOCK_CLASS,))

    def passages_matching(
        self, name: str, table: str, words: Sequence[str], namespace: str, limit: int
    ) -> tuple[str, tuple]:
        query = "plainto_tsquery('simple', %s)"
        sql = (
            f"SELECT p.id FROM {table} p WHERE to_tsvector('simple', p.text) @@ {query} "
            "AND p.namespace = %s AND p.retired_at IS NULL "
            f"ORDER BY ts_rank(to_tsvector('simple', p.text), {query}) DESC, p.id LIMIT %s"
        )
        return sql, (" ".join(words), namespace, " ".join(words), limit)

    def id_writer(self, name: str, table: str, key: str, columns: str, params: str) -> IdWriter:
        # one pipelined executemany, not a round trip to the server per row
        returning = f"INSERT INTO {table} ({columns}) VALUES ({params}) RETURNING {key}"

        def write(cursor, rows: Sequence[Sequence]) -> list[int]:
            cursor.executemany(returning, rows, returning=True)
            found = [cursor.fetchone()[0]]
            while cursor.nextset():
                found.append(cursor.fetchone()[0])
            return found

        return write

    def lock_namespace(self, database: pw.Database, namespace: str) -> None:
        # the namespace's `namespace_state` row, FOR UPDATE
        database.execute_sql(
            "INSERT INTO namespace_state (namespace, version) VALUES (%s, 0) ON CONFLICT DO NOTHING", (namespace,)
        )
        database.execute_sql("SELECT version FROM namespace_state WHERE namespace = %s FOR UPDATE", (namespace,))

    def for_update(self, query: pw.Select) -> pw.Select:
        return query.for_update()

    @contextmanager
    def pass_lock(self, database: pw.Database, namespace: str) -> Iterator[bool]:
        # A session-level advisory lock on the pass's connection; the server drops it when the
        # session ends, a killed process included.
        if database.in_transaction():  # the lock must outlive the pass's many short transactions
            raise RuntimeError("the pass lock is taken before any transaction begins, not inside one")
        (got,) = database.execute_sql("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, _key(namespace))).fetchone()
        if not got:
            yield False
            return
        try:
            yield True
        finally:
            database.execute_sql("SELECT pg_advisory_unlock(%s, %s)", (LOCK_CLASS, _key(namespace)))

    def lock_scope(self, namespace: str) -> str:
        return f"namespace {namespace!r}"

    def refresh_statistics(self, database: pw.Database) -> None:
        pass  # autovacuum keeps them

    @contextmanager
    def bulk_write_cache(self, database: pw.Database) -> Iterator[None]:
        yield  # the server keeps its own buffers

    def snapshot(self, database: pw.Database):
        return database.atomic(isolation_level="REPEATABLE READ")

    def sequence_value(self, database: pw.Database, table: str) -> int:
        (sequence,) = database.execute_sql("SELECT pg_get_serial_sequence(%s, 'id')", (table,)).fetchone()
        value, called = database.execute_sql(f"SELECT last_value, is_called FROM {sequence}").fetchone()
        return value if called else 0

    def raise_sequence(self, database: pw.Database, table: str, value: int) -> None:
        value = max(value, self.sequence_value(database, table))  # never backwards: its own ids count too
        database.execute_sql(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), GREATEST(%s, "
            f"(SELECT COALESCE(MAX(id), 0) FROM {table})))",
            (table, value),
        )

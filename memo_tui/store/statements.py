"""Statements for the hot paths (ingest, folds, graph reads): SQL built once, then run with parameters.

Peewee builds SQL anew for every query; on the ingest path, where it is paid for every row, that
cost dominated. The statements here are plain, portable SQL (RETURNING works on SQLite >= 3.35 and on
PostgreSQL) with the bound database's own quoting and parameter style, cached per dialect (never per
connection object: a closed database's id can be reused by one of another kind); where the SQL must
differ, the dialect (`memo_tui.store.dialects`) gives it. Lists of ids are always sent in slices, so
no statement grows with the store.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

import peewee as pw

from memo_tui.store.models import db, dialect


def quote(name: str) -> str:
    """A table or column name quoted for the bound database."""
    return db.get_sql_context().sql(pw.Entity(name)).query()[0]


def as_datetime(value: datetime | str | None) -> datetime | None:
    """A time read from a raw row: SQLite gives the stored text, PostgreSQL a datetime."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value)


class Inserter:
    """INSERT INTO model (fields...) VALUES (...), prepared once."""

    def __init__(self, model: type[pw.Model], fields: Sequence[str]) -> None:
        meta = model._meta
        bound = dialect()
        self._times = (  # where the driver adapts datetimes itself, none to convert
            [at for at, name in enumerate(fields) if isinstance(meta.fields[name], pw.DateTimeField)]
            if bound.datetimes_as_text
            else []
        )
        self._last: tuple[datetime | None, str] = (None, "")  # the last datetime made text, and its text
        columns = ", ".join(quote(meta.fields[name].column_name) for name in fields)
        params = ", ".join([db.param] * len(fields))
        self._sql = f"INSERT INTO {quote(meta.table_name)} ({columns}) VALUES ({params})"
        key, table = quote(meta.primary_key.column_name), quote(meta.table_name)
        self._returning = f"{self._sql} RETURNING {key}"
        self._write_ids = bound.id_writer(meta.table_name, table, key, columns, params)

    def _convert(self, values: Sequence) -> Sequence:
        """A row as the driver takes it. Where raw rows carry datetimes as text (SQLite) a datetime is
        the 'YYYY-MM-DD HH:MM:SS[.ffffff]' text Peewee itself reads back, the last one made kept: a
        chunk's rows share their write time, and str() then runs once a chunk, not once a row.
        Every other value the hot paths write (str, int, float, bool, None) goes as it is."""
        if not self._times:
            return values
        row = list(values)
        for at in self._times:
            value = row[at]
            if isinstance(value, datetime):
                last = self._last  # read once: threads may share an inserter
                if value is not last[0]:
                    last = self._last = (value, str(value))
                row[at] = last[1]
        return row

    def one(self, values: Sequence) -> int:
        """Insert one row and return its id."""
        cursor = db.cursor()
        cursor.execute(self._returning, self._convert(values))
        return cursor.fetchall()[0][0]  # drain: a RETURNING statement completes on its last step

    def ids(self, rows: Sequence[Sequence]) -> list[int]:
        """Insert rows and return their ids, in order, in one executemany (`Dialect.id_writer`); the
        caller holds the store's write lock (a `writing` transaction)."""
        if not rows:
            return []
        return self._write_ids(db.cursor(), [self._convert(row) for row in rows])

    def many(self, rows: Iterable[Sequence]) -> None:
        """Insert many rows in one executemany call."""
        db.cursor().executemany(self._sql, map(self._convert, rows))


class LazyInserter:
    """An Inserter built on first use, once per dialect."""

    def __init__(self, model, fields) -> None:
        self._args = (model, fields)
        self._by_dialect: dict[str, Inserter] = {}

    def _inserter(self) -> Inserter:
        name = dialect().name
        inserter = self._by_dialect.get(name)
        if inserter is None:
            inserter = self._by_dialect[name] = Inserter(*self._args)
        return inserter

    def one(self, values) -> int:
        return self._inserter().one(values)

    def many(self, rows) -> None:
        self._inserter().many(rows)


def select_in(sql_head: str, column: str, values: Sequence, fixed: Sequence = (), size: int = 500) -> list[tuple]:
    """Rows of `sql_head AND column IN (values)`, run in slices; `fixed` fills the head's own params."""
    rows: list[tuple] = []
    cursor = db.cursor()
    for start in range(0, len(values), size):
        part = values[start : start + size]
        cursor.execute(f"{sql_head} AND {column} IN ({', '.join([db.param] * len(part))})", [*fixed, *part])
        rows.extend(cursor.fetchall())
    return rows


def first_column(query: pw.Query) -> list:
    """The first column of a Peewee query's rows, read straight from the cursor (no row objects)."""
    sql, params = query.sql()
    return [row[0] for row in db.execute_sql(sql, params).fetchall()]


SLICE = 5000  # ids per IN list: no statement grows with the store


def slices(ids: Sequence, size: int = SLICE) -> Iterator[Sequence]:
    """An id list in slices, one IN list each."""
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def update_ids(model: type[pw.Model], ids: Sequence[int], size: int = 5000, **values) -> int:
    """UPDATE model SET values WHERE id IN (ids), in slices, without building SQL per id."""
    meta = model._meta
    columns = list(values)
    sets = ", ".join(f"{quote(meta.fields[name].column_name)} = {db.param}" for name in columns)
    head = f"UPDATE {quote(meta.table_name)} SET {sets} WHERE {quote(meta.primary_key.column_name)} IN "
    params = [values[name] for name in columns]
    changed = 0
    for start in range(0, len(ids), size):
        part = list(ids[start : start + size])
        cursor = db.execute_sql(head + f"({', '.join([db.param] * len(part))})", [*params, *part])
        changed += cursor.rowcount
    return changed


_PREPARED: dict[tuple[str, str], str] = {}


def prepared(name: str, build) -> str:
    """A statement built once per dialect by `build(t, c, p)`: t(model) quotes a table,
    c(model, field) a column, p is the parameter placeholder."""
    key = (dialect().name, name)
    if key not in _PREPARED:

        def table(model: type[pw.Model]) -> str:
            return quote(model._meta.table_name)

        def column(model: type[pw.Model], field: str) -> str:
            return quote(model._meta.fields[field].column_name)

        _PREPARED[key] = build(table, column, db.param)
    return _PREPARED[key]


def run(sql: str, params: Sequence = ()) -> list[tuple]:
    """Execute a prepared statement and return its rows (none for writes)."""
    cursor = db.cursor()
    cursor.execute(sql, list(params))
    return cursor.fetchall() if cursor.description is not None else []


def run_count(sql: str, params: Sequence = ()) -> int:
    """Execute a prepared write and return how many rows it changed."""
    cursor = db.cursor()
    cursor.execute(sql, list(params))
    return cursor.rowcount


def refresh_statistics() -> None:
    """Let the planner know how the rows spread (SQLite: ANALYZE once the passages have doubled since
    it last looked). Without it a pass reads a namespace through the namespace index row by row, even
    when the namespace is the whole table, where a scan reads far less. PostgreSQL keeps its own
    (autovacuum)."""
    dialect().refresh_statistics(db)


def rows_of(query: pw.Query) -> list[tuple]:
    """A Peewee query's rows as plain tuples straight from the cursor (no per-value conversion)."""
    return db.execute_sql(*query.sql()).fetchall()


_gc_lock = threading.Lock()
_gc_pauses = [0, False]  # steps running with the collector paused; whether it was on before the first


def bulk_write_cache():
    """A larger page cache on this connection while a bulk write runs (SQLite), its own size again
    after it. The mention index takes each chunk's rows scattered by entity: with its pages held, a
    chunk's inserts stop reading back the pages the last chunk's wrote. PostgreSQL keeps its own
    buffers."""
    return dialect().bulk_write_cache(db)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Bulk writes and passes allocate millions of objects and few cycles; with a large heap the
    cyclic collector's full sweeps walk all of it again and again for nothing. Pause it while
    any such step runs (in any thread); the last one to finish starts it again. A process pool's
    worker that only computes starts with it off (`processes.second_process`)."""
    with _gc_lock:
        if _gc_pauses[0] == 0:
            _gc_pauses[1] = gc.isenabled()
            gc.disable()
        _gc_pauses[0] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pauses[0] -= 1
            if _gc_pauses[0] == 0 and _gc_pauses[1]:
                gc.enable()

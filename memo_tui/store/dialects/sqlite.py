"""SQLite: a store in one file (or in memory), its writers serialised by the file's one write lock."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

import peewee as pw
from platformdirs import user_data_dir
from playhouse.db_url import connect as connect_url

from memo_tui.errors import MemoError
from memo_tui.store.dialects.base import Dialect, IdWriter

# Transactions begin IMMEDIATE: a writer takes the lock up front and waits its turn (busy timeout)
# instead of failing when its read snapshot turns stale under another writer. The write-ahead log
# is copied into the store (and synced) once it holds 16,000 pages (64 MB at 4 KB) rather than
# SQLite's 1,000: each copy syncs the disk, so fewer, larger copies sync it less often.
# Freed pages are zeroed only where that costs no write (`fast`): some builds (Debian's) zero every
# one, so that writing a pass's memory over logged its old pages as zeros beside its new ones.
PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "busy_timeout": 10000,
    "synchronous": "normal",
    "wal_autocheckpoint": 16000,
    "secure_delete": "fast",
}
BULK_CACHE_KIB = 65536  # the page cache while a bulk write runs (SQLite's default is 2,000 KiB)


def default_db_path() -> Path:
    """The store used when neither --db nor MEMO_TUI_DB names one."""
    return Path(user_data_dir("memo-tui", appauthor=False)) / "memo.db"


def store_file(database: pw.Database) -> Path | None:
    """The file of a SQLite store (None for one in memory)."""
    if database.database in ("", ":memory:"):
        return None
    return Path(database.database)


def _own_file(location: str, path: Path) -> None:
    """Make a new store file for its owner alone (0600: SQLite gives its -wal and -shm the store's
    mode), in a folder that exists; only the default data folder is made, for its owner alone
    (0700). A folder that is missing otherwise is more likely a typing slip than a wish."""
    if path.is_dir():
        raise MemoError(f"cannot open store {location}: it is a directory")
    folder = path.parent
    if not folder.is_dir():
        if folder != default_db_path().parent:
            raise MemoError(f"cannot open store {location}: no folder {folder}")
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


def _owner_only(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)  # as the store itself (`_own_file`)


class SQLite(Dialect):
    name = "sqlite"
    database_class = pw.SqliteDatabase
    opening_errors = (RuntimeError, ValueError, ImportError)
    datetimes_as_text = True
    disk_full = "SQLITE_FULL"
    read_only = "SQLITE_READONLY"

    def opens(self, location: str) -> bool:
        return "://" not in location or location.startswith("sqlite")

    def connect(self, location: str) -> pw.Database:
        if "://" in location:
            if location.startswith("sqlite:///") and location != "sqlite:///:memory:":
                _own_file(location, Path(location[len("sqlite:///") :]).expanduser())
            return connect_url(location, pragmas=PRAGMAS, lock_type="IMMEDIATE")
        path = Path(location).expanduser()
        if str(path) != ":memory:":
            _own_file(location, path)
        return pw.SqliteDatabase(str(path), pragmas=PRAGMAS, timeout=10, lock_type="IMMEDIATE")

    def shared(self, database: pw.Database) -> bool:
        return store_file(database) is not None

    def errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.Error,)

    def error_code(self, error: BaseException) -> str | None:
        return getattr(error, "sqlite_errorname", None)

    def stable_id(self, ddl: pw.Node) -> pw.Node:
        # a plain INTEGER PRIMARY KEY takes the highest id plus one, so a deleted highest id comes back
        return pw.NodeList((ddl, pw.SQL("AUTOINCREMENT")))

    def pair_bounds(self, left: str, right: str) -> tuple[str, str]:
        return f"MIN({left}, {right})", f"MAX({left}, {right})"

    def create_text_search(self, database: pw.Database, name: str, table: str) -> None:
        # an external-content FTS5 table, kept in step by triggers
        database.execute_sql(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5(text, content='{table}', "
            "content_rowid='id', tokenize='unicode61 remove_diacritics 2')"
        )
        database.execute_sql(f"INSERT INTO {name}({name}) VALUES ('rebuild')")
        added = f"INSERT INTO {name}(rowid, text) VALUES (new.id, new.text)"
        removed = f"INSERT INTO {name}({name}, rowid, text) VALUES ('delete', old.id, old.text)"
        for suffix, event, body in (
            ("added", "AFTER INSERT", added),
            ("removed", "AFTER DELETE", removed),
            ("changed", "AFTER UPDATE OF text", f"{removed}; {added}"),
        ):
            database.execute_sql(f"CREATE TRIGGER IF NOT EXISTS {name}_{suffix} {event} ON {table} BEGIN {body}; END")

    def lock_schema(self, database: pw.Database) -> None:
        pass  # the transaction's BEGIN IMMEDIATE holds the store's one write lock already

    def passages_matching(
        self, name: str, table: str, words: Sequence[str], namespace: str, limit: int
    ) -> tuple[str, tuple]:
        sql = (
            f"SELECT p.id FROM {name} s JOIN {table} p ON p.id = s.rowid "
            f"WHERE {name} MATCH ? AND p.namespace = ? AND p.retired_at IS NULL ORDER BY bm25({name}), p.id LIMIT ?"
        )
        return sql, (" ".join(f'"{word}"' for word in words), namespace, limit)

    def id_writer(self, name: str, table: str, key: str, columns: str, params: str) -> IdWriter:
        # The ids AUTOINCREMENT would give, written in one executemany: the order of a multi-row
        # RETURNING is not defined here, and one statement a row pays a statement's overhead for
        # each. The id it gives next is past every id in the table and every id it ever gave.
        next_id = (
            f"SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = '{name}'), 0),"
            f" coalesce((SELECT max({key}) FROM {table}), 0)) + 1"
        )
        keyed = f"INSERT INTO {table} ({key}, {columns}) VALUES (?, {params})"

        def write(cursor, rows: Sequence[Sequence]) -> list[int]:
            first = cursor.execute(next_id).fetchone()[0]
            cursor.executemany(keyed, [(first + at, *row) for at, row in enumerate(rows)])
            return list(range(first, first + len(rows)))

        return write

    def lock_namespace(self, database: pw.Database, namespace: str) -> None:
        pass  # BEGIN IMMEDIATE holds the store's one write lock from the transaction's start

    def for_update(self, query: pw.Select) -> pw.Select:
        return query  # IMMEDIATE transactions already hold the store's one write lock

    @contextmanager
    def pass_lock(self, database: pw.Database, namespace: str) -> Iterator[bool]:
        # An exclusive flock on a file beside the store (one for all its namespaces): the kernel
        # drops it when the process ends, a killed one included. A store in memory belongs to one
        # process alone.
        path = store_file(database)
        if path is None:
            yield True
            return
        import fcntl

        with open(f"{path}.pass-lock", "a+b", opener=_owner_only) as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                held = False
            else:
                held = True
            if not held:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def lock_scope(self, namespace: str) -> str:
        return "this store"

    def refresh_statistics(self, database: pw.Database) -> None:
        # ANALYZE once the passages have doubled since it last looked; a store too busy to take it
        # keeps the statistics it had: they are only a hint
        try:
            analysed = database.execute_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone()
            stat = analysed and database.execute_sql("SELECT stat FROM sqlite_stat1 WHERE tbl = 'passage'").fetchone()
            (rows,) = database.execute_sql("SELECT coalesce(max(id), 0) FROM passage").fetchone()
            if rows and rows >= 2 * (int(stat[0].split()[0]) if stat else 0):
                database.execute_sql("ANALYZE")
        except pw.OperationalError:
            pass

    @contextmanager
    def bulk_write_cache(self, database: pw.Database) -> Iterator[None]:
        # a larger page cache on this connection, its own size again after
        (before,) = database.execute_sql("PRAGMA cache_size").fetchone()
        database.execute_sql(f"PRAGMA cache_size = -{BULK_CACHE_KIB}")
        try:
            yield
        finally:
            with suppress(pw.DatabaseError):  # a connection that failed keeps its cache and the write's error
                database.execute_sql(f"PRAGMA cache_size = {int(before)}")

    def snapshot(self, database: pw.Database):
        return database.atomic(lock_type="DEFERRED")  # a deferred transaction reads one WAL snapshot

    def sequence_value(self, database: pw.Database, table: str) -> int:
        row = database.execute_sql("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
        return row[0] if row else 0

    def raise_sequence(self, database: pw.Database, table: str, value: int) -> None:
        database.execute_sql("UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", (value, table))
        database.execute_sql(
            "INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS "
            "(SELECT 1 FROM sqlite_sequence WHERE name = ?)",
            (table, value, table),
        )

"""Where a store is and how to open it: SQLite files and URLs, PostgreSQL URLs, the dialect asked.

`open_database` binds the models' proxy to a store and brings its schema to this version, running
the engine's data steps (given by the caller, so that the store layer never imports the engine).
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import peewee as pw
from platformdirs import user_data_dir
from playhouse.db_url import connect as connect_url

from memo_tui.errors import MemoError
from memo_tui.store.migrations import upgrade
from memo_tui.store.models import db

# Transactions begin IMMEDIATE: a writer takes the lock up front and waits its turn (busy timeout)
# instead of failing when its read snapshot turns stale under another writer. The write-ahead log
# is copied into the store (and synced) once it holds 16,000 pages (64 MB at 4 KB) rather than
# SQLite's 1,000: each copy syncs the disk, so fewer, larger copies sync it less often.
# Freed pages are zeroed only where that costs no write (`fast`): some builds (Debian's) zero every
# one, so that writing a pass's memory over logged its old pages as zeros beside its new ones.
SQLITE_PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "busy_timeout": 10000,
    "synchronous": "normal",
    "wal_autocheckpoint": 16000,
    "secure_delete": "fast",
}
POSTGRES_SCHEMES = ("postgres://", "postgresql://")


def default_db_path() -> Path:
    """The store used when neither --db nor MEMO_TUI_DB names one."""
    return Path(user_data_dir("memo-tui", appauthor=False)) / "memo.db"


def resolve_location(location: str | None) -> str:
    """--db, then MEMO_TUI_DB, then the platformdirs default."""
    return location or os.environ.get("MEMO_TUI_DB") or str(default_db_path())


def is_postgres() -> bool:
    """Is the bound store a PostgreSQL one (else SQLite)?"""
    return isinstance(db.obj, pw.PostgresqlDatabase)


def bound_location() -> str | None:
    """Where the bound store was opened from (`open_database`), for another process to open it too;
    None when the models were bound some other way, or to a store in memory (no other process sees it)."""
    database, location = _opened
    if database is None or db.obj is not database or not (is_postgres() or sqlite_path()):
        return None
    return location


def sqlite_path() -> Path | None:
    """The file of the bound SQLite store (None for PostgreSQL or an in-memory store)."""
    if is_postgres() or db.database in ("", ":memory:"):
        return None
    return Path(db.database)


def _connect(location: str) -> pw.Database:
    try:
        return _connect_database(location)
    except OSError as exc:
        raise MemoError(f"cannot open store {shown(location)}: {exc.strerror or exc}") from None


def _connect_database(location: str) -> pw.Database:
    if location.startswith(POSTGRES_SCHEMES):
        try:
            import psycopg  # noqa: F401  (the driver of the [postgres] extra; Peewee picks it up)
        except ImportError:
            raise MemoError("a PostgreSQL store needs the driver: pip install 'memo-tui[postgres]'") from None
        # no server-side prepared statements: a plan made while a table is small (a sequential scan)
        # would be kept as it grows, and an ingest would slow down passage by passage
        try:
            return connect_url(location, prefer_psycopg3=True, prepare_threshold=None)
        except ValueError as exc:  # a port that is not a number, or out of range
            raise MemoError(f"cannot open store {shown(location)}: {exc}") from None
    if "://" in location:
        if location.startswith("sqlite:///") and location != "sqlite:///:memory:":
            _own_file(location, Path(location[len("sqlite:///") :]).expanduser())
        elif not location.startswith("sqlite"):
            raise MemoError(f"cannot open store {shown(location)}: a store is a path, sqlite:/// or postgresql://")
        try:
            kwargs = {"pragmas": SQLITE_PRAGMAS, "lock_type": "IMMEDIATE"} if location.startswith("sqlite") else {}
            return connect_url(location, **kwargs)
        except (RuntimeError, ValueError, ImportError) as exc:
            raise MemoError(f"cannot open store {shown(location)}: {exc}") from None
    path = Path(location).expanduser()
    if str(path) != ":memory:":
        _own_file(location, path)
    return pw.SqliteDatabase(str(path), pragmas=SQLITE_PRAGMAS, timeout=10, lock_type="IMMEDIATE")


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


_opened: tuple[pw.Database | None, str] = (None, "")  # the database `open_database` last bound, and its location


def open_database(location: str | None, data_steps: Mapping[int, Callable[[], None]]) -> pw.Database:
    """Bind the models to a store, creating or upgrading its schema in place."""
    location = resolve_location(location)
    database = _connect(location)
    db.initialize(database)
    global _opened
    _opened = (database, location)
    try:
        database.connect(reuse_if_open=True)
        upgrade(database, data_steps)
    except pw.DatabaseError as exc:
        database.close()
        raise MemoError(f"cannot open store {shown(location)}: {_first_line(exc)}") from None
    return database


def shown(location: str) -> str:
    """A location fit to print or show: a URL's secrets are not (a `user:pass@` password, and a
    query parameter such as `?password=` or `sslpassword=`). Every place that shows a store's URL
    shows it through this."""
    if "://" not in location:
        return location
    scheme, rest = location.split("://", 1)
    rest, _, query = rest.partition("?")
    if "@" in rest.split("/", 1)[0]:
        credentials, host = rest.split("/", 1)[0].rsplit("@", 1)
        tail = rest[len(credentials) + 1 + len(host) :]
        if ":" in credentials:
            credentials = credentials.split(":", 1)[0] + ":***"
        rest = f"{credentials}@{host}{tail}"
    if query:
        rest += "?" + _SECRET_PARAMETER.sub(r"\1***", query)
    return f"{scheme}://{rest}"


_SECRET_PARAMETER = re.compile(r"((?:^|[&;])[^=&;]*(?:pass|secret|token)[^=&;]*=)[^&;]*", re.IGNORECASE)


def store_errors() -> tuple[type[BaseException], ...]:
    """The store's errors: Peewee's, and its drivers' own, which a raw cursor raises (`statements`)."""
    errors: list[type[BaseException]] = [pw.DatabaseError, sqlite3.Error]
    if "psycopg" in sys.modules:  # loaded with a PostgreSQL store, and only then
        errors.append(sys.modules["psycopg"].Error)
    return tuple(errors)


def failure(exc: BaseException) -> str:
    """What went wrong in the store, in one line. A full disk says so: SQLite has already rolled the
    transaction back then, and the rollback that follows fails, hiding the cause behind "cannot
    rollback - no transaction is active"; the cause is the error that rollback was handling."""
    while "cannot rollback" in str(exc) and exc.__context__ is not None:
        exc = exc.__context__
    if _is(exc, "SQLITE_FULL", "53100"):
        return f"the disk is full ({_first_line(exc)})"
    if read_only(exc):
        return f"the store is read-only ({_first_line(exc)})"
    return _first_line(exc)


def read_only(exc: BaseException) -> bool:
    """Did the store refuse a write because it may only be read (file mode, mount, server setting)?"""
    return _is(exc, "SQLITE_READONLY", "25006")


def _is(exc: BaseException, sqlite_error: str, sqlstate: str) -> bool:
    """Is the error, or the driver's error Peewee's wraps, this SQLite error or PostgreSQL state?"""
    return any(
        getattr(error, "sqlite_errorname", None) == sqlite_error or getattr(error, "sqlstate", None) == sqlstate
        for error in (exc, exc.__cause__, exc.__context__)
    )


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]

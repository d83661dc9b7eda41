"""Where a store is and how to open it (SQLite files and URLs, PostgreSQL URLs: each dialect opens
its own), and what its errors mean.

`open_database` binds the models' proxy to a store and brings its schema to this version, running
the engine's data steps (given by the caller, so that the store layer never imports the engine).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping

import peewee as pw

from memo_tui.errors import MemoError
from memo_tui.store.dialects import DIALECTS, for_location
from memo_tui.store.dialects.sqlite import default_db_path
from memo_tui.store.migrations import upgrade
from memo_tui.store.models import db, dialect


def resolve_location(location: str | None) -> str:
    """--db, then MEMO_TUI_DB, then the platformdirs default."""
    return location or os.environ.get("MEMO_TUI_DB") or str(default_db_path())


def bound_location() -> str | None:
    """Where the bound store was opened from (`open_database`), for another process to open it too;
    None when the models were bound some other way, or to a store in memory (no other process sees it)."""
    database, location = _opened
    if database is None or db.obj is not database or not dialect().shared(database):
        return None
    return location


def _connect(location: str) -> pw.Database:
    try:
        return _connect_database(location)
    except OSError as exc:
        raise MemoError(f"cannot open store {shown(location)}: {exc.strerror or exc}") from None


def _connect_database(location: str) -> pw.Database:
    chosen = for_location(location)
    if chosen is None:
        raise MemoError(f"cannot open store {shown(location)}: a store is a path, sqlite:/// or postgresql://")
    try:
        return chosen.connect(location)
    except chosen.opening_errors as exc:
        raise MemoError(f"cannot open store {shown(location)}: {exc}") from None


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
    return (pw.DatabaseError, *(error for each in DIALECTS for error in each.errors()))


def failure(exc: BaseException) -> str:
    """What went wrong in the store, in one line. A full disk says so: SQLite has already rolled the
    transaction back then, and the rollback that follows fails, hiding the cause behind "cannot
    rollback - no transaction is active"; the cause is the error that rollback was handling."""
    while "cannot rollback" in str(exc) and exc.__context__ is not None:
        exc = exc.__context__
    if _is(exc, "disk_full"):
        return f"the disk is full ({_first_line(exc)})"
    if read_only(exc):
        return f"the store is read-only ({_first_line(exc)})"
    return _first_line(exc)


def read_only(exc: BaseException) -> bool:
    """Did the store refuse a write because it may only be read (file mode, mount, server setting)?"""
    return _is(exc, "read_only")


def _is(exc: BaseException, what: str) -> bool:
    """Is the error, or the driver's error Peewee's wraps, what a driver reports by its code `what`
    (`Dialect.disk_full`, `Dialect.read_only`)? Any driver's: the store that failed may not be bound."""
    return any(
        error is not None and each.error_code(error) == getattr(each, what)
        for error in (exc, exc.__cause__, exc.__context__)
        for each in DIALECTS
    )


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]

"""Locks: the per-namespace lock a resolution pass or rebuild holds, and row locks for answers.

A pass runs in many short transactions (so that a reviewer's answer never waits long behind it), so
its lock must outlive a transaction:

- PostgreSQL: a session-level advisory lock (`pg_try_advisory_lock`) on the pass's connection; the
  server drops it when the session ends, a killed process included.
- SQLite: an exclusive `flock` on a file beside the store (`STORE.pass-lock`, one for all its
  namespaces); the kernel drops it when the process ends, a killed one included. An in-memory
  store belongs to one process alone.

Answers and reverts re-check what they change inside their transaction: on SQLite the transaction
itself holds the write lock from its first statement (BEGIN IMMEDIATE); on PostgreSQL `for_update`
locks the row read, so that a second reviewer waits and then sees the first one's answer.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

import peewee as pw

from memo_tui.errors import MemoError
from memo_tui.store.connect import is_postgres, sqlite_path
from memo_tui.store.models import db

LOCK_CLASS = 0x6D656D6F  # "memo": the first key of memo-tui's advisory locks


class Busy(MemoError):
    """Another process holds the namespace's pass lock."""


@contextmanager
def writing(namespace: str) -> Iterator[None]:
    """A transaction that changes the namespace's graph or queue. On PostgreSQL it begins by taking the
    namespace's write lock (its `namespace_state` row, FOR UPDATE), so that graph writers of one
    namespace run one at a time, as every writer does on SQLite (BEGIN IMMEDIATE holds the store's
    one write lock). Taken first, always, so that writers never wait on each other in a cycle."""
    with db.atomic():
        if is_postgres():
            db.execute_sql(
                "INSERT INTO namespace_state (namespace, version) VALUES (%s, 0) ON CONFLICT DO NOTHING", (namespace,)
            )
            db.execute_sql("SELECT version FROM namespace_state WHERE namespace = %s FOR UPDATE", (namespace,))
        yield


def _owner_only(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)  # as the store itself (`connect._own_file`)


def for_update(query: pw.Select) -> pw.Select:
    """The query, locking the rows it reads until the transaction ends (PostgreSQL; SQLite's
    IMMEDIATE transactions already hold the store's one write lock)."""
    return query.for_update() if is_postgres() else query


def _key(namespace: str) -> int:
    return zlib.crc32(namespace.encode()) - 2**31  # a signed 32-bit int, as the two-key form wants


@contextmanager
def pass_lock(namespace: str, what: str = "a resolution pass") -> Iterator[None]:
    """Hold the namespace's pass lock for the block, or raise Busy at once if another process has it."""
    if is_postgres():
        if db.in_transaction():  # the lock must outlive the pass's many short transactions
            raise RuntimeError("the pass lock is taken before any transaction begins, not inside one")
        (got,) = db.execute_sql("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, _key(namespace))).fetchone()
        if not got:
            raise Busy(f"another pass or rebuild is running on namespace {namespace!r}: {what} was not started")
        try:
            yield
        finally:
            db.execute_sql("SELECT pg_advisory_unlock(%s, %s)", (LOCK_CLASS, _key(namespace)))
        return
    path = sqlite_path()
    if path is None:
        yield
        return
    import fcntl

    with open(f"{path}.pass-lock", "a+b", opener=_owner_only) as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy(f"another pass or rebuild is running on this store: {what} was not started") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)

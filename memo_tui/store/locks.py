"""Locks: the per-namespace lock a resolution pass or rebuild holds, and row locks for answers.

A pass runs in many short transactions (so that a reviewer's answer never waits long behind it), so
its lock must outlive a transaction: a session-level advisory lock on PostgreSQL, an exclusive
`flock` on a file beside a SQLite store (`Dialect.pass_lock`); both are dropped when the process
ends, a killed one included.

Answers and reverts re-check what they change inside their transaction: on SQLite the transaction
itself holds the write lock from its first statement (BEGIN IMMEDIATE); on PostgreSQL `for_update`
locks the row read, so that a second reviewer waits and then sees the first one's answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import peewee as pw

from memo_tui.errors import MemoError
from memo_tui.store.models import db, dialect


class Busy(MemoError):
    """Another process holds the namespace's pass lock."""


@contextmanager
def writing(namespace: str) -> Iterator[None]:
    """A transaction that changes the namespace's graph or queue. On PostgreSQL it begins by taking the
    namespace's write lock (its `namespace_state` row, FOR UPDATE), so that graph writers of one
    namespace run one at a time, as every writer does on SQLite (BEGIN IMMEDIATE holds the store's
    one write lock). Taken first, always, so that writers never wait on each other in a cycle."""
    with db.atomic():
        dialect().lock_namespace(db, namespace)
        yield


def for_update(query: pw.Select) -> pw.Select:
    """The query, locking the rows it reads until the transaction ends (PostgreSQL; SQLite's
    IMMEDIATE transactions already hold the store's one write lock)."""
    return dialect().for_update(query)


@contextmanager
def pass_lock(namespace: str, what: str = "a resolution pass") -> Iterator[None]:
    """Hold the namespace's pass lock for the block, or raise Busy at once if another process has it."""
    current = dialect()
    with current.pass_lock(db, namespace) as held:
        if not held:
            raise Busy(f"another pass or rebuild is running on {current.lock_scope(namespace)}: {what} was not started")
        yield

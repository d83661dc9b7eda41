"""What differs between the databases a store can live in: one `Dialect` per backend.

The rest of the store asks the bound database's dialect (`memo_tui.store.models.dialect`) and never
the database's class. A dialect holds no state: it acts on the database it is given, so that copying
between two stores (`memo_tui.store.copy`) can ask each its own. A new backend is one module with
one subclass, listed in `memo_tui.store.dialects.DIALECTS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import peewee as pw

# inserts rows through a cursor (its first argument) and returns their new ids in order; the caller
# holds the store's write lock
IdWriter = Callable[[Any, Sequence[Sequence]], list[int]]


class Dialect(ABC):
    """The SQL, locks and connection details one kind of database needs."""

    name: str  # what statements built once are cached under (their quoting and placeholder)
    database_class: type[pw.Database]  # the Peewee database class (subclasses included) it speaks for
    opening_errors: tuple[type[Exception], ...]  # what `connect` raises for a malformed location
    datetimes_as_text: bool  # raw rows carry datetimes as text (the driver adapts none)

    # -- opening a store

    @abstractmethod
    def opens(self, location: str) -> bool:
        """Is the location (a path or URL) a store of this kind?"""

    @abstractmethod
    def connect(self, location: str) -> pw.Database:
        """A database for the location, not yet connected."""

    @abstractmethod
    def shared(self, database: pw.Database) -> bool:
        """Can another process open this database by its location (not a store in memory)?"""

    @abstractmethod
    def errors(self) -> tuple[type[BaseException], ...]:
        """The driver's own errors (a raw cursor raises them, not Peewee's), if its driver is loaded."""

    disk_full: str  # the driver's code for a full disk
    read_only: str  # and for a store that may only be read

    @abstractmethod
    def error_code(self, error: BaseException) -> str | None:
        """The driver's code for an error of its own (None for any other error)."""

    # -- schema

    @abstractmethod
    def stable_id(self, ddl: pw.Node) -> pw.Node:
        """The DDL of an id column whose ids are never handed out twice (`models.StableIdField`)."""

    @abstractmethod
    def pair_bounds(self, left: str, right: str) -> tuple[str, str]:
        """SQL for the lower and the higher of two columns, usable in an index."""

    @abstractmethod
    def create_text_search(self, database: pw.Database, name: str, table: str) -> None:
        """Full-text search over the table's `text` column, called `name`, kept in step by the database."""

    @abstractmethod
    def lock_schema(self, database: pw.Database) -> None:
        """Inside a schema change's transaction: make a second opening process wait for it."""

    @abstractmethod
    def passages_matching(
        self, name: str, table: str, words: Sequence[str], namespace: str, limit: int
    ) -> tuple[str, tuple]:
        """SQL and parameters for the ids of the namespace's live passages holding every word, best first,
        through the text search `name` over `table` (aliased `p`)."""

    # -- writing

    @abstractmethod
    def id_writer(self, name: str, table: str, key: str, columns: str, params: str) -> IdWriter:
        """How rows go into the table `name` when their new ids are wanted in order, its statements
        built once: table, key and columns quoted, params the columns' placeholders."""

    @abstractmethod
    def lock_namespace(self, database: pw.Database, namespace: str) -> None:
        """At the start of a transaction that changes a namespace's graph: wait for, then hold, its
        write lock until the transaction ends."""

    @abstractmethod
    def for_update(self, query: pw.Select) -> pw.Select:
        """The query, locking the rows it reads until the transaction ends."""

    @abstractmethod
    def pass_lock(self, database: pw.Database, namespace: str) -> AbstractContextManager[bool]:
        """Try the namespace's pass lock, held for the block if taken: True if it is, False if
        another process holds it."""

    @abstractmethod
    def lock_scope(self, namespace: str) -> str:
        """What a pass lock covers, as a message names it."""

    @abstractmethod
    def refresh_statistics(self, database: pw.Database) -> None:
        """Let the planner know how the rows spread, where the database does not see to it itself."""

    @abstractmethod
    def bulk_write_cache(self, database: pw.Database) -> AbstractContextManager[None]:
        """The connection tuned for a bulk write while the block runs."""

    # -- copying between stores

    @abstractmethod
    def snapshot(self, database: pw.Database) -> AbstractContextManager:
        """A read transaction that sees one state of the database, whatever commits meanwhile."""

    @abstractmethod
    def sequence_value(self, database: pw.Database, table: str) -> int:
        """The highest id the database has handed out for the table (deleted rows included)."""

    @abstractmethod
    def raise_sequence(self, database: pw.Database, table: str, value: int) -> None:
        """Make the table's next id come after `value` (never moving it backwards)."""

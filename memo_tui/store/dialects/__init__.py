"""The backends a store can live in, one module each, behind one interface (`base.Dialect`).

`dialect_of` gives a database's dialect, `for_location` the dialect that opens a path or URL. A new
backend is a module with a `Dialect` subclass, listed in DIALECTS.
"""

from __future__ import annotations

import peewee as pw

from memo_tui.store.dialects.base import Dialect
from memo_tui.store.dialects.postgres import PostgreSQL
from memo_tui.store.dialects.sqlite import SQLite

DIALECTS: tuple[Dialect, ...] = (SQLite(), PostgreSQL())

_BY_CLASS: dict[type, Dialect] = {}


def dialect_of(database: pw.Database) -> Dialect:
    """The dialect of a database (an unwrapped one: not a proxy)."""
    kind = type(database)
    found = _BY_CLASS.get(kind)
    if found is None:
        for candidate in DIALECTS:
            if isinstance(database, candidate.database_class):
                found = _BY_CLASS[kind] = candidate
                break
        else:
            raise TypeError(f"memo-tui has no dialect for {kind.__name__}")
    return found


def for_location(location: str) -> Dialect | None:
    """The dialect that opens a store at this path or URL (None if none does)."""
    return next((candidate for candidate in DIALECTS if candidate.opens(location)), None)


__all__ = ["DIALECTS", "Dialect", "dialect_of", "for_location"]

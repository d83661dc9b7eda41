"""A query's rows as plain tuples or dicts, typed as such.

peewee's stubs type `.tuples()` and `.dicts()` as returning the query itself, and a model select
iterates as model instances; at run time such a query yields tuples (or dicts). These functions
are those calls with the row type the rows have.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from peewee import BaseQuery


def tuples(query: BaseQuery) -> Iterable[tuple[Any, ...]]:
    """`query.tuples()`: its rows as tuples of the selected columns."""
    return cast("Iterable[tuple[Any, ...]]", query.tuples())


def dicts(query: BaseQuery) -> Iterable[dict[str, Any]]:
    """`query.dicts()`: its rows as dicts of column name -> value."""
    return cast("Iterable[dict[str, Any]]", query.dicts())

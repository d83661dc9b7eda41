"""Bulk reads of the live graph as plain tuples (the graph cache loads a namespace through these).

Written as SQL over raw cursors: the Peewee row machinery costs more than the read itself at a few
hundred thousand rows. Times come back as datetimes on both backends.
"""

from __future__ import annotations

from datetime import datetime

from memo_tui.store.models import Mention, Passage, Relation, db
from memo_tui.store.statements import as_datetime, prepared


def _table(model) -> str:
    return prepared(f"table_{model.__name__}", lambda t, c, p: t(model))


def _col(model, name: str) -> str:
    return prepared(f"column_{model.__name__}_{name}", lambda t, c, p: c(model, name))


def _live(alias: str, as_of: datetime | None) -> tuple[str, list]:
    """The condition (and its parameters) for a passage live now, or live at `as_of`."""
    if as_of is None:
        return f"{alias}.{_col(Passage, 'retired_at')} IS NULL", []
    created, retired = _col(Passage, "created_at"), _col(Passage, "retired_at")
    condition = f"{alias}.{created} <= {db.param} AND ({alias}.{retired} IS NULL OR {alias}.{retired} > {db.param})"
    return condition, [as_of, as_of]


def live_passages(namespace: str, as_of: datetime | None) -> list[tuple[int, str, datetime]]:
    """(id, external id, created at) of the namespace's live passages."""
    live, params = _live("p", as_of)
    pid, ext, created, ns = (_col(Passage, f) for f in ("id", "external_id", "created_at", "namespace"))
    rows = db.execute_sql(
        f"SELECT p.{pid}, p.{ext}, p.{created} FROM {_table(Passage)} p WHERE p.{ns} = {db.param} AND {live}",
        [namespace, *params],
    ).fetchall()
    return [(passage_id, external_id, as_datetime(at)) for passage_id, external_id, at in rows]


def live_mention_pairs(namespace: str, as_of: datetime | None) -> list[tuple[int, int]]:
    """(passage, entity) of every active mention in a live passage (a pair may repeat)."""
    live, params = _live("p", as_of)
    pid, ns = _col(Passage, "id"), _col(Passage, "namespace")
    return db.execute_sql(
        f"SELECT m.{_col(Mention, 'passage')}, m.{_col(Mention, 'entity')} FROM {_table(Mention)} m "
        f"JOIN {_table(Passage)} p ON p.{pid} = m.{_col(Mention, 'passage')} "
        f"WHERE p.{ns} = {db.param} AND m.{_col(Mention, 'active')} = {db.param} AND {live}",
        [namespace, True, *params],
    ).fetchall()


def live_relations(namespace: str, as_of: datetime | None) -> list[tuple[int, str, int, float, int]]:
    """(src, predicate, dst, confidence, passage) of every active relation stated by a live passage, by id."""
    live, params = _live("p", as_of)
    pid, ns = _col(Passage, "id"), _col(Passage, "namespace")
    r = {f: _col(Relation, f) for f in ("src", "predicate", "dst", "confidence", "passage", "active")}
    return db.execute_sql(
        f"SELECT r.{r['src']}, r.{r['predicate']}, r.{r['dst']}, r.{r['confidence']}, r.{r['passage']} "
        f"FROM {_table(Relation)} r JOIN {_table(Passage)} p ON p.{pid} = r.{r['passage']} "
        f"WHERE p.{ns} = {db.param} AND r.{r['active']} = {db.param} AND {live} ORDER BY r.{_col(Relation, 'id')}",
        [namespace, True, *params],
    ).fetchall()

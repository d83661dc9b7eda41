"""Copying namespaces between stores (SQLite <-> PostgreSQL) with every id, fold, decision and history row intact.

Rows keep their ids, so a fold's record (which names the ids it moved) reverts exactly on the copy.
Tables are copied parents first, in id order and in slices, inside one transaction on the target;
afterwards the target's id sequences are set past both the copied ids and the source's own sequence
(a fold deletes the absorbed entity, whose id a revert gives back: no new row may take it meanwhile).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import peewee as pw

from memo_tui.errors import MemoError
from memo_tui.store.dialects import dialect_of
from memo_tui.store.models import (
    MODELS,
    Alias,
    Decision,
    Entity,
    Fold,
    KeepApart,
    Mention,
    NamespaceState,
    NotAName,
    Passage,
    PassageLink,
    Question,
    Relation,
)

SLICE = 1000

# parents before children; each with how its rows are chosen for a set of namespaces
_BY_NAMESPACE = (Passage, Entity, Fold, Alias, Question, Decision, KeepApart, NotAName)
_BY_PASSAGE = (Mention, Relation, PassageLink)
ORDER = (
    NamespaceState,
    Passage,
    Entity,
    Fold,
    Alias,
    Mention,
    Relation,
    Question,
    Decision,
    KeepApart,
    NotAName,
    PassageLink,
)


@dataclass
class CopyReport:
    namespaces: list[str]
    rows: dict[str, int] = field(default_factory=dict)


def namespaces_of(database: pw.Database) -> list[str]:
    """Every namespace with a row anywhere (passages, entities, questions, decisions, its version)."""
    found: set[str] = set()
    with database.bind_ctx(MODELS):
        for model in (NamespaceState, *_BY_NAMESPACE):
            found |= {ns for (ns,) in model.select(model.namespace).distinct().tuples()}
    return sorted(found)


def _snapshot(database: pw.Database):
    """A read transaction: every table read from one state of the source, whatever commits meanwhile
    (SQLite: a deferred transaction's WAL snapshot; PostgreSQL: REPEATABLE READ)."""
    return dialect_of(database).snapshot(database)


def _where(model: type[pw.Model], namespaces: list[str]):
    if model in _BY_PASSAGE:
        passages = Passage.select(Passage.id).where(Passage.namespace.in_(namespaces))
        return model.passage.in_(passages)
    return model.namespace.in_(namespaces)


def _sequence_value(database: pw.Database, model: type[pw.Model]) -> int:
    """The highest id the database has handed out for the model's table (deleted rows included)."""
    return dialect_of(database).sequence_value(database, model._meta.table_name)


def _set_sequence(database: pw.Database, model: type[pw.Model], value: int) -> None:
    """Never backwards: the target's own ids count too."""
    if value <= 0:
        return
    dialect_of(database).raise_sequence(database, model._meta.table_name, value)


def copy_namespaces(
    source: pw.Database,
    target: pw.Database,
    namespaces: list[str],
    progress: Callable[[str, int], None] | None = None,
) -> CopyReport:
    """Copy the namespaces' rows from source to target (both open, schema current); all or nothing,
    from one snapshot of the source."""
    report = CopyReport(namespaces)
    # checked in the target's transaction (on SQLite it holds the write lock from its start; on
    # PostgreSQL a writer of the namespace waits on the namespace_state row the copy writes first)
    with target.atomic(), _snapshot(source):
        with target.bind_ctx(MODELS):
            clash = Passage.select().where(Passage.namespace.in_(namespaces)).exists() or (
                Entity.select().where(Entity.namespace.in_(namespaces)).exists()
            )
        if clash:
            raise MemoError(f"the target already holds namespace {', '.join(namespaces)}; copy into a store without it")
        for model in ORDER:
            copied = 0
            last = None
            key = model._meta.primary_key
            while True:
                with source.bind_ctx(MODELS):
                    query = model.select().where(_where(model, namespaces)).order_by(key).limit(SLICE)
                    if last is not None:
                        query = query.where(key > last)
                    rows = list(query.dicts())
                if not rows:
                    break
                try:
                    with target.bind_ctx(MODELS):
                        model.insert_many(rows).execute()
                except pw.IntegrityError as exc:
                    raise MemoError(
                        f"cannot copy {model._meta.table_name}: the target holds rows with the same ids "
                        f"({str(exc).splitlines()[0]}); copy into an empty store"
                    ) from None
                copied += len(rows)
                last = rows[-1][key.name]
                if progress is not None:
                    progress(model._meta.table_name, copied)
            report.rows[model._meta.table_name] = copied
        for model in ORDER:
            if isinstance(model._meta.primary_key, pw.AutoField):
                _set_sequence(target, model, _sequence_value(source, model))
    return report

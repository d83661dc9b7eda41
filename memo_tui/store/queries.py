"""The named statements of the hot paths (ingest, links, folds), as functions over plain values.

Each is SQL built once per dialect (`statements.prepared`) and sent with lists in slices, so no
statement grows with the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from memo_tui.store.models import Alias, Entity, Fold, Mention, Passage, Relation, db, dialect
from memo_tui.store.statements import prepared, quote, select_in


def entities_by_key(namespace: str, keys: Sequence[str]) -> list[tuple[str, int, str | None]]:
    """(identity key, entity id, type) of the namespace's entities with these identity keys."""
    head = prepared(
        "entities_by_key",
        lambda t, c, p: (
            f"SELECT e.{c(Entity, 'identity_key')}, e.{c(Entity, 'id')}, e.{c(Entity, 'type')} "
            f"FROM {t(Entity)} e WHERE e.{c(Entity, 'namespace')} = {p}"
        ),
    )
    return select_in(head, "e." + quote(Entity.identity_key.column_name), list(keys), fixed=(namespace,))


def entities_by_alias_key(namespace: str, keys: Sequence[str]) -> list[tuple[str, int, str | None]]:
    """(alias identity key, entity id, entity type) of the namespace's aliases with these keys."""
    head = prepared(
        "entities_by_alias_key",
        lambda t, c, p: (
            f"SELECT a.{c(Alias, 'identity_key')}, e.{c(Entity, 'id')}, e.{c(Entity, 'type')} "
            f"FROM {t(Alias)} a JOIN {t(Entity)} e ON e.{c(Entity, 'id')} = a.{c(Alias, 'entity')} "
            f"WHERE a.{c(Alias, 'namespace')} = {p}"
        ),
    )
    return select_in(head, "a." + quote(Alias.identity_key.column_name), list(keys), fixed=(namespace,))


def live_passages_by_external_id(namespace: str, external_ids: Sequence[str]) -> list[tuple]:
    """(id, external id, text, declared) of the namespace's live passages with these external ids."""
    head = prepared(
        "live_passages",
        lambda t, c, p: (
            f"SELECT {c(Passage, 'id')}, {c(Passage, 'external_id')}, {c(Passage, 'text')}, "
            f"{c(Passage, 'declared')} FROM {t(Passage)} WHERE {c(Passage, 'namespace')} = {p} "
            f"AND {c(Passage, 'retired_at')} IS NULL"
        ),
    )
    return select_in(head, quote(Passage.external_id.column_name), list(external_ids), fixed=(namespace,))


def _mention_weights_sql(column: str) -> str:
    return prepared(
        f"link_mentions_{column}",
        lambda t, c, p: (
            f"SELECT {c(Mention, 'passage')}, {c(Mention, 'entity')}, {c(Mention, 'weight')} "
            f"FROM {t(Mention)} WHERE {c(Mention, 'active')} = {p}"
        ),
    )


def mention_weights_of_entities(entity_ids: Sequence[int]) -> list[tuple[int, int, float]]:
    """(passage, entity, weight) of every active mention of these entities."""
    column = quote(Mention.entity.column_name)
    return select_in(_mention_weights_sql("entity"), column, list(entity_ids), fixed=(True,))


def mention_weights_of_passages(passage_ids: Sequence[int]) -> list[tuple[int, int, float]]:
    """(passage, entity, weight) of every active mention in these passages."""
    column = quote(Mention.passage.column_name)
    return select_in(_mention_weights_sql("passage"), column, list(passage_ids), fixed=(True,))


def retired_among(passage_ids: Sequence[int]) -> set[int]:
    """Which of these passages are retired."""
    head = prepared(
        "link_retired",
        lambda t, c, p: f"SELECT {c(Passage, 'id')} FROM {t(Passage)} WHERE {c(Passage, 'retired_at')} IS NOT NULL",
    )
    return {row[0] for row in select_in(head, quote(Passage.id.column_name), list(passage_ids))}


def fold_statements() -> dict[str, str]:
    """The statements of a fold (`core.folds.fold`), by name; parameters in the order they read."""

    def build(t, c, p) -> dict[str, str]:
        m, r, a = t(Mention), t(Relation), t(Alias)
        mid, ment, mact, mpas = c(Mention, "id"), c(Mention, "entity"), c(Mention, "active"), c(Mention, "passage")
        rid, rsrc, rdst = c(Relation, "id"), c(Relation, "src"), c(Relation, "dst")
        return {
            "mentions": f"SELECT {mid} FROM {m} WHERE {ment} = {p}",
            "twins": f"SELECT {mid} FROM {m} WHERE {ment} = {p} AND {mact} = {p} AND {mpas} IN "
            f"(SELECT {mpas} FROM {m} WHERE {ment} = {p} AND {mact} = {p})",
            "src": f"SELECT {rid} FROM {r} WHERE {rsrc} = {p}",
            "dst": f"SELECT {rid} FROM {r} WHERE {rdst} = {p}",
            "aliases": f"SELECT {c(Alias, 'id')} FROM {a} WHERE {c(Alias, 'entity')} = {p}",
            "move_mentions": f"UPDATE {m} SET {ment} = {p} WHERE {ment} = {p}",
            "move_src": f"UPDATE {r} SET {rsrc} = {p} WHERE {rsrc} = {p}",
            "move_dst": f"UPDATE {r} SET {rdst} = {p} WHERE {rdst} = {p}",
            "move_aliases": f"UPDATE {a} SET {c(Alias, 'entity')} = {p} WHERE {c(Alias, 'entity')} = {p}",
            "delete_entity": f"DELETE FROM {t(Entity)} WHERE {c(Entity, 'id')} = {p}",
            "record": f"UPDATE {t(Fold)} SET {c(Fold, 'record')} = {p} WHERE {c(Fold, 'id')} = {p}",
        }

    return prepared("fold", build)


def passages_matching(namespace: str, words: Sequence[str], limit: int) -> list[int]:
    """Ids of the namespace's live passages that hold every word, best first (bm25 / ts_rank)."""
    from memo_tui.store.migrations import PASSAGE_SEARCH

    sql, params = dialect().passages_matching(PASSAGE_SEARCH, Passage._meta.table_name, words, namespace, limit)
    return [pid for (pid,) in db.execute_sql(sql, params).fetchall()]

"""Fold, revert, delete and rename: the graph mechanics (ARCHITECTURE.md, "Folds and reverts").

A fold moves every mention, relation and alias of the absorbed entity onto the canonical, turns the
absorbed spelling into an alias that keeps its original id, type and created_at, and records the
exact row ids it moved and deactivated, so that `revert_fold` is exact, in any order. These
functions run inside the caller's transaction; `decisions.py` wraps them with the audit log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from memo_tui.engine.graph.entities import id_for_key
from memo_tui.errors import MemoError
from memo_tui.names.keys import identity_key, merge_key
from memo_tui.store import Alias, Entity, Fold, Mention, Passage, Relation, bump_version, utcnow
from memo_tui.store.queries import fold_statements
from memo_tui.store.rows import tuples
from memo_tui.store.statements import LazyInserter, first_column, run, update_ids


@dataclass(frozen=True)
class FoldSummary:
    """What one fold did, in plain data."""

    fold_id: int
    canonical_id: int
    canonical_name: str
    absorbed_id: int
    absorbed_name: str
    moved_mentions: int
    moved_relations: int
    deactivated: int
    moved_aliases: int


def active_mention_count(entity_id: int) -> int:
    """Live passages that mention the entity through an active mention."""
    return (
        Mention.select(Mention.passage)
        .join(Passage)
        .where((Mention.entity == entity_id) & Mention.active & Passage.retired_at.is_null())
        .distinct()
        .count()
    )


def canonical_rank(entity_id: int, name: str, mentions: int, as_code: frozenset[int] = frozenset()) -> tuple:
    """The one canonical policy (smallest first): a proper spelling before a lowercase one, unless the
    store writes that one as code (`as_code`: `written_as_code`) - `Flask` over `flask` in prose, as a
    reviewer picks it; then more active mentions, the longer name, more capitals, the smaller id.
    Folds by hand, the resolver's folds and the clusters' proposed canonical all rank by it."""
    command_form = name == name.casefold() and name != name.upper() and entity_id not in as_code
    return (command_form, -mentions, -len(name), -sum(ch.isupper() for ch in name), entity_id)


def written_as_code(entities: dict[int, str]) -> frozenset[int]:
    """Of these entities (id -> name), the lowercase ones the store writes as code: in backticks or as
    an identifier in some live passage. Only lowercase names are looked up (the rest never need it)."""
    lower = sorted(e for e, name in entities.items() if name == name.casefold() and name != name.upper())
    if not lower:
        return frozenset()
    query = (
        Mention.select(Mention.entity)
        .join(Passage)
        .where(
            Mention.entity.in_(lower) & Mention.active & Mention.source.in_(CODE_SOURCES) & Passage.retired_at.is_null()
        )
        .distinct()
    )
    return frozenset(first_column(query))


CODE_SOURCES = ("backtick", "identifier")  # the extractor's sources of a name written as code


def canonical_order(a: Entity, b: Entity) -> tuple[Entity, Entity]:
    """(canonical, absorbed) by `canonical_rank`."""
    code = written_as_code({a.id: a.name, b.id: b.name})
    first, second = sorted((a, b), key=lambda e: canonical_rank(e.id, e.name, active_mention_count(e.id), code))
    return first, second


def follow_aliases(entity_id: int, is_live, attached_to) -> int | None:
    """The one alias-following policy: where an entity id lives now. Itself if live, else, through
    the alias kept for it (`attached_to`: the entity it was folded into), wherever that one lives;
    None if the chain ends at an entity deleted outright. `is_live` and `attached_to` say how to
    look (the store, or maps read once for a whole pass)."""
    seen: set[int] = set()
    while entity_id not in seen:
        if is_live(entity_id):
            return entity_id
        seen.add(entity_id)
        entity_id = attached_to(entity_id)
        if entity_id is None:
            return None
    return None


def home_of(entity_id: int) -> int | None:
    """Where an entity id lives now (`follow_aliases`, looked up in the store)."""

    def attached_to(absorbed: int) -> int | None:
        alias = Alias.get_or_none(Alias.original_id == absorbed)
        return None if alias is None else alias.attached_to

    return follow_aliases(entity_id, lambda e: Entity.select().where(Entity.id == e).exists(), attached_to)


def fold(canonical: Entity, absorbed: Entity, decided_by: str, channel: str, rule=None, score=None) -> FoldSummary:
    """Fold `absorbed` into `canonical`. Call inside a transaction.

    Runs on prepared SQL: the resolver's automatic folds come by the thousand."""
    if canonical.id == absorbed.id:
        raise MemoError(f"cannot fold {canonical.name!r} into itself")
    if canonical.namespace != absorbed.namespace:
        raise MemoError("cannot fold entities of different namespaces")
    sql = fold_statements()
    namespace, keep, gone = canonical.namespace, canonical.id, absorbed.id
    fold_id = _FOLD_INSERT.one(
        (
            namespace,
            keep,
            gone,
            absorbed.name,
            absorbed.type,
            absorbed.created_at,
            decided_by,
            channel,
            rule,
            score,
            "{}",
            utcnow(),
        )
    )
    moved_mentions = [row[0] for row in run(sql["mentions"], (gone,))]
    twins = [row[0] for row in run(sql["twins"], (gone, True, keep, True))]
    moved_src = [row[0] for row in run(sql["src"], (gone,))]
    moved_dst = [row[0] for row in run(sql["dst"], (gone,))]
    moved_aliases = [row[0] for row in run(sql["aliases"], (gone,))]

    run(sql["move_mentions"], (keep, gone))
    update_ids(Mention, twins, active=False, fold=fold_id)
    dead_relations: list[int] = []
    if moved_src or moved_dst:
        run(sql["move_src"], (keep, gone))
        run(sql["move_dst"], (keep, gone))
        dead_relations = _relations_to_deactivate(keep, sorted(set(moved_src) | set(moved_dst)))
        update_ids(Relation, dead_relations, active=False, fold=fold_id)
    if moved_aliases:
        run(sql["move_aliases"], (keep, gone))
    _ALIAS_INSERT.one(
        (namespace, keep, absorbed.name, absorbed.identity_key, keep, gone, absorbed.type, absorbed.created_at, fold_id)
    )
    run(sql["delete_entity"], (gone,))
    record = {
        "mentions": moved_mentions,
        "relations_src": moved_src,
        "relations_dst": moved_dst,
        "deactivated_mentions": twins,
        "deactivated_relations": dead_relations,
        "aliases": moved_aliases,
    }
    run(sql["record"], (json.dumps(record), fold_id))
    bump_version(namespace)
    return FoldSummary(
        fold_id=fold_id,
        canonical_id=keep,
        canonical_name=canonical.name,
        absorbed_id=gone,
        absorbed_name=absorbed.name,
        moved_mentions=len(moved_mentions),
        moved_relations=len(set(moved_src) | set(moved_dst)),
        deactivated=len(twins) + len(dead_relations),
        moved_aliases=len(moved_aliases),
    )


_FOLD_INSERT = LazyInserter(
    Fold,
    (
        "namespace",
        "canonical_id",
        "absorbed_id",
        "absorbed_name",
        "absorbed_type",
        "absorbed_created_at",
        "decided_by",
        "channel",
        "rule",
        "score",
        "record",
        "created_at",
    ),
)
_ALIAS_INSERT = LazyInserter(
    Alias,
    (
        "namespace",
        "entity",
        "name",
        "identity_key",
        "attached_to",
        "original_id",
        "original_type",
        "original_created_at",
        "fold",
    ),
)


def _relations_to_deactivate(canonical_id: int, moved: list[int]) -> list[int]:
    """Of the moved, active relations (now on the canonical): self-loops, and twins of a relation the
    canonical already had (same predicate, other end and passage)."""
    if not moved:
        return []
    rows = list(
        tuples(
            Relation.select(Relation.id, Relation.src, Relation.predicate, Relation.dst, Relation.passage).where(
                ((Relation.src == canonical_id) | (Relation.dst == canonical_id)) & Relation.active
            )
        )
    )
    moved_set = set(moved)
    existing = {tuple(shape) for rid, *shape in rows if rid not in moved_set}
    dead = []
    for rid, src, predicate, dst, passage in sorted(r for r in rows if r[0] in moved_set):
        shape = (src, predicate, dst, passage)
        if src == dst or shape in existing:
            dead.append(rid)
        else:
            existing.add(shape)
    return dead


def revert_fold(fold_id: int, namespace: str) -> Fold:
    """Undo a fold exactly, whatever folds came or went after it. Call inside a transaction.

    An edge goes back to the restored entity when it sits on the fold's canonical (or wherever a
    later fold took that) and is written with one of the absorbed entity's spellings: its own name
    and the aliases returning with it. That is every edge this fold moved which still belongs to
    it, plus those that arrived through the alias since; an edge the fold moved that a later revert
    took elsewhere (and perhaps another fold brought back) is left where it is.
    """
    record = Fold.get_or_none((Fold.id == fold_id) & (Fold.namespace == namespace))
    if record is None:
        raise MemoError(f"no fold {fold_id} in namespace {namespace!r}")
    if record.reverted_at is not None:
        raise MemoError(f"fold {fold_id} was already reverted at {record.reverted_at:%Y-%m-%d %H:%M:%S}")
    home = home_of(record.canonical_id)
    if home is None:
        raise MemoError(f"fold {fold_id}: its canonical entity {record.canonical_id} is gone; run `memo-tui lint`")
    data = json.loads(record.record)
    absorbed = record.absorbed_id
    key = identity_key(record.absorbed_name)
    Alias.delete().where(Alias.fold == record.id).execute()
    Entity.insert(
        id=absorbed,
        namespace=namespace,
        name=record.absorbed_name,
        identity_key=key,
        merge_key=merge_key(key),
        type=record.absorbed_type,
        created_at=record.absorbed_created_at,
    ).execute()
    returning = [a.id for a in Alias.select().where(Alias.entity == home) if home_of(a.attached_to) == absorbed]
    update_ids(Alias, returning, entity=absorbed)
    spellings = [key] + first_column(Alias.select(Alias.identity_key).where(Alias.id.in_(returning)))

    mentions = _spelled(Mention, Mention.entity, Mention.surface_key, home, spellings)
    update_ids(Mention, sorted(mentions), entity=absorbed)
    _reactivate(Mention, record.id, data["deactivated_mentions"], Mention.entity == absorbed)

    src = _spelled(Relation, Relation.src, Relation.src_key, home, spellings)
    dst = _spelled(Relation, Relation.dst, Relation.dst_key, home, spellings)
    update_ids(Relation, sorted(src), src=absorbed)
    update_ids(Relation, sorted(dst), dst=absorbed)
    _reactivate(
        Relation, record.id, data["deactivated_relations"], (Relation.src == absorbed) | (Relation.dst == absorbed)
    )

    record.reverted_at = utcnow()
    record.save()
    bump_version(namespace)
    return record


def _spelled(model, column, key_column, home: int, spellings: list[str]) -> set[int]:
    """Rows on `home` written with one of the absorbed spellings (they arrived through the alias)."""
    return set(first_column(model.select(model.id).where((column == home) & key_column.in_(spellings))))


def _reactivate(model, fold_id: int, deactivated: list[int], back_on_absorbed) -> None:
    """Reactivate what this fold deactivated, and what went back to the absorbed entity after a later
    fold deactivated it (its reason, a twin or a self-loop on that canonical, no longer holds)."""
    update_ids(model, deactivated, active=True, fold=None)
    stale = first_column(
        model.select(model.id).where(back_on_absorbed & model.fold.is_null(False) & (model.fold != fold_id))
    )
    update_ids(model, stale, active=True, fold=None)


def standing_folds_into(entity_id: int) -> list[Fold]:
    """Unreverted folds whose alias points at this entity."""
    return list(
        Fold.select()
        .join(Alias, on=(Alias.fold == Fold.id))
        .where((Alias.entity == entity_id) & Fold.reverted_at.is_null())
        .order_by(Fold.id)
    )


def delete_entity(entity: Entity) -> dict:
    """Delete an entity with its mentions, relations and plain aliases; returns the rows for a restore."""
    folds = standing_folds_into(entity.id)
    if folds:
        names = ", ".join(f"fold {f.id} ({f.absorbed_name})" for f in folds)
        raise MemoError(f"{entity.name!r} has folds pointing at it: {names}; revert them first, then delete")
    rows = {
        "entity": _row(entity),
        "mentions": [_row(m) for m in Mention.select().where(Mention.entity == entity.id).order_by(Mention.id)],
        "relations": [
            _row(r)
            for r in Relation.select()
            .where((Relation.src == entity.id) | (Relation.dst == entity.id))
            .order_by(Relation.id)
        ],
        "aliases": [_row(a) for a in Alias.select().where(Alias.entity == entity.id).order_by(Alias.id)],
    }
    Entity.delete().where(Entity.id == entity.id).execute()  # mentions, relations, aliases cascade
    bump_version(entity.namespace)
    return rows


def restore_deleted(rows: dict) -> None:
    """Put back what `delete_entity` removed, with the same ids.

    The far end of each relation is found again by its spelling, since folds made or reverted after
    the delete may have moved that name; a deactivation stamped by a fold reverted since is lifted.
    """
    entity = rows["entity"]
    namespace = entity["namespace"]
    taken = (Entity.namespace == namespace) & (Entity.identity_key == entity["identity_key"])
    if Entity.select().where(taken).exists():
        raise MemoError(f"cannot restore {entity['name']!r}: that name is in use again")
    relations = [dict(r) for r in rows["relations"]]
    missing = set()
    for relation in relations:
        for end in ("src", "dst"):
            if relation[end] != entity["id"]:
                relation[end] = id_for_key(namespace, relation[f"{end}_key"])
                missing.add(relation[f"{end}_key"]) if relation[end] is None else None
    if missing:
        raise MemoError(
            f"cannot restore {entity['name']!r}: its relations need {sorted(missing)}, deleted after it; "
            "revert those deletes first"
        )
    Entity.insert(**entity).execute()
    mentions = [dict(m) for m in rows["mentions"]]
    reverted = set(first_column(Fold.select(Fold.id).where(Fold.reverted_at.is_null(False))))
    for row in mentions + relations:
        if row["fold"] in reverted:
            row.update(active=True, fold=None)
    for model, batch in ((Mention, mentions), (Relation, relations), (Alias, rows["aliases"])):
        if batch:
            model.insert_many(batch).execute()
    bump_version(namespace)


def rename_entity(entity: Entity, new_name: str) -> int:
    """Give an entity a new spelling; the old one stays as an alias (returned) so new mentions of it
    still land here. Refused when the name is taken by a live entity or an alias."""
    key = identity_key(new_name)
    if not key:
        raise MemoError("the new name is empty")
    if key == entity.identity_key:  # " X ", a full-width X or @X: the same name, which would alias itself
        raise MemoError(f"{entity.name!r} already has the name {new_name!r}; nothing renamed")
    taken = Entity.get_or_none((Entity.namespace == entity.namespace) & (Entity.identity_key == key))
    if taken is not None and taken.id != entity.id:
        raise MemoError(f"cannot rename to {new_name!r}: entity {taken.id} already has that name; fold them instead")
    alias = Alias.get_or_none((Alias.namespace == entity.namespace) & (Alias.identity_key == key))
    if alias is not None:
        raise MemoError(f"cannot rename to {new_name!r}: it is an alias of {alias.entity.name!r}")
    Entity.update(name=new_name.strip(), identity_key=key, merge_key=merge_key(key)).where(
        Entity.id == entity.id
    ).execute()
    old = Alias.create(
        namespace=entity.namespace,
        entity=entity.id,
        attached_to=entity.id,
        name=entity.name,
        identity_key=entity.identity_key,
    )
    bump_version(entity.namespace)
    return old.id


def undo_rename(entity_id: int, old_name: str, alias_id: int) -> None:
    """Put the old spelling back and drop the alias the rename left."""
    Alias.delete().where(Alias.id == alias_id).execute()
    key = identity_key(old_name)
    entity = Entity.get_by_id(entity_id)
    Entity.update(name=old_name, identity_key=key, merge_key=merge_key(key)).where(Entity.id == entity_id).execute()
    bump_version(entity.namespace)


def _row(instance) -> dict:
    """A model instance as column -> value, for an exact re-insert."""
    return {field.name: getattr(instance, field.column_name) for field in instance._meta.sorted_fields}

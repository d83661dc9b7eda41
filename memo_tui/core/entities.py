"""Finding entities by name: identity key first, then the alias table (DESIGN §3)."""

from __future__ import annotations

from dataclasses import dataclass

from memo_tui.core.errors import MemoError
from memo_tui.core.keys import identity_key, merge_key
from memo_tui.core.models import Alias, Entity, utcnow


@dataclass(frozen=True)
class Found:
    """An entity found for a spelling; `matched_alias` is the absorbed spelling that was asked, if any."""

    entity: Entity
    matched_alias: str | None = None


def find(namespace: str, target: str) -> Found | None:
    """The live entity a name, an alias or a numeric id (`#12` or `12`) stands for."""
    key = identity_key(target)
    if not key:
        return None
    entity = Entity.get_or_none((Entity.namespace == namespace) & (Entity.identity_key == key))
    if entity is not None:
        return Found(entity)
    alias = Alias.get_or_none((Alias.namespace == namespace) & (Alias.identity_key == key))
    if alias is not None:
        return Found(alias.entity, matched_alias=alias.name)
    digits = key[1:] if key.startswith("#") else key
    if digits.isdigit():
        entity = Entity.get_or_none((Entity.namespace == namespace) & (Entity.id == int(digits)))
        if entity is not None:
            return Found(entity)
    return None


def require(namespace: str, target: str) -> Found:
    """Like `find`, but a missing name is a MemoError that the CLI prints as one line."""
    found = find(namespace, target)
    if found is None:
        raise MemoError(f"no entity named {target!r} in namespace {namespace!r}")
    return found


class EntityCache:
    """Identity key -> (entity id, type) for one namespace, filled in bulk, used by ingest."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self._ids: dict[str, int] = {}
        self._types: dict[int, str | None] = {}
        self.created = 0

    def prefetch(self, keys: set[str]) -> None:
        """Look up every key not yet cached, in a few queries."""
        missing = [k for k in keys if k not in self._ids]
        for start in range(0, len(missing), 500):
            chunk = missing[start : start + 500]
            rows = Entity.select(Entity.id, Entity.identity_key, Entity.type).where(
                (Entity.namespace == self.namespace) & (Entity.identity_key.in_(chunk))
            )
            for row in rows.tuples():
                self._ids[row[1]] = row[0]
                self._types[row[0]] = row[2]
            rest = [k for k in chunk if k not in self._ids]
            if rest:
                aliases = (
                    Alias.select(Alias.identity_key, Entity.id, Entity.type)
                    .join(Entity)
                    .where((Alias.namespace == self.namespace) & (Alias.identity_key.in_(rest)))
                )
                for key, entity_id, kind in aliases.tuples():
                    self._ids[key] = entity_id
                    self._types[entity_id] = kind

    def resolve(self, key: str, surface: str, kind: str | None) -> int:
        """The entity id for an identity key, created when new; a declared type fills an empty one."""
        entity_id = self._ids.get(key)
        if entity_id is None:
            entity_id = Entity.insert(
                namespace=self.namespace,
                name=surface.strip(),
                identity_key=key,
                merge_key=merge_key(key),
                type=kind,
                created_at=utcnow(),
            ).execute()
            self._ids[key] = entity_id
            self._types[entity_id] = kind
            self.created += 1
        elif kind and not self._types.get(entity_id):
            Entity.update(type=kind).where(Entity.id == entity_id).execute()
            self._types[entity_id] = kind
        return entity_id

    def forget(self) -> None:
        """Drop every cached key (after a rollback the cached ids may not exist)."""
        self._ids.clear()
        self._types.clear()

"""Finding entities by name: identity key first, then the alias table."""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz, process

from memo_tui.errors import MemoError
from memo_tui.names.keys import identity_key, merge_key
from memo_tui.store import Alias, Entity, utcnow
from memo_tui.store.queries import entities_by_alias_key, entities_by_key
from memo_tui.store.rows import tuples
from memo_tui.store.statements import Inserter


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
    if digits.isdigit() and int(digits) < 2**63:  # a larger number is no id either backend keeps
        entity = Entity.get_or_none((Entity.namespace == namespace) & (Entity.id == int(digits)))
        if entity is not None:
            return Found(entity)
    return None


def id_for_key(namespace: str, key: str) -> int | None:
    """The live entity id an identity key stands for now (directly or through an alias)."""
    entity = Entity.get_or_none((Entity.namespace == namespace) & (Entity.identity_key == key))
    if entity is not None:
        return entity.id
    alias = Alias.get_or_none((Alias.namespace == namespace) & (Alias.identity_key == key))
    return alias.entity_id if alias is not None else None


def require(namespace: str, target: str) -> Found:
    """Like `find`, but a missing name is a MemoError that the CLI prints as one line."""
    found = find(namespace, target)
    if found is None:
        raise MemoError(f"no entity named {target!r} in namespace {namespace!r}{suggestion(namespace, target)}")
    return found


def suggestion(namespace: str, target: str, names: list[str] | None = None) -> str:
    """`; did you mean 'X'?` for the closest spelling the namespace knows (entity names, or `names`
    when the caller holds them, and aliases), or nothing when none is close."""
    if names is None:
        names = [name for (name,) in tuples(Entity.select(Entity.name).where(Entity.namespace == namespace))]
    spellings = names + [name for (name,) in tuples(Alias.select(Alias.name).where(Alias.namespace == namespace))]
    best = process.extractOne(target, spellings, scorer=fuzz.WRatio, score_cutoff=80)
    return f"; did you mean {best[0]!r}?" if best else ""


class EntityCache:
    """Identity key -> entity id for one namespace, filled and created in bulk; used by ingest.

    Its keys are looked up in the store before they are created, unless the cache holds every key
    of the namespace: when the namespace held no entity when it was first asked (a first ingest),
    every entity since is one it made, until `forget` (another writer moved the graph)."""

    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self._ids: dict[str, int] = {}
        self._types: dict[int, str | None] = {}
        self._via_alias: set[str] = set()
        self._whole: bool | None = None  # every key of the namespace is here (None: not asked yet)
        self.created = 0
        self._insert = Inserter(Entity, ("namespace", "name", "identity_key", "merge_key", "type", "created_at"))

    def prepare(self, spellings: dict[str, tuple[str, str | None]]) -> list[int]:
        """Make sure every identity key has an entity: look up in bulk, create the rest in bulk; returns
        the ids of the entities it created. Run inside the writing transaction that uses the ids.

        `spellings` maps identity key -> (first surface seen, declared type or None).
        """
        if self._whole is None:
            self._whole = not _holds_names(self.namespace)
        if not self._whole:
            self._load(entities_by_key(self.namespace, [k for k in spellings if k not in self._ids]))
            self._load(entities_by_alias_key(self.namespace, [k for k in spellings if k not in self._ids]), True)
        new = [k for k in spellings if k not in self._ids]
        made: list[int] = []
        if new:
            now = utcnow()
            rows = [(self.namespace, spellings[k][0].strip(), k, merge_key(k), spellings[k][1], now) for k in new]
            made = self._insert.ids(rows)
            self._load([(k, entity_id, spellings[k][1]) for k, entity_id in zip(new, made, strict=True)])
            self.created += len(new)
        for key, (_, kind) in spellings.items():
            entity_id = self._ids[key]
            # A type declared for an absorbed spelling is not written onto the canonical: a revert
            # could not tell it apart from the canonical's own type.
            if kind and not self._types.get(entity_id) and key not in self._via_alias:
                Entity.update(type=kind).where(Entity.id == entity_id).execute()
                self._types[entity_id] = kind
        return made

    def _load(self, rows: list[tuple[str, int, str | None]], via_alias: bool = False) -> None:
        for key, entity_id, kind in rows:
            self._ids[key] = entity_id
            self._types[entity_id] = kind
            if via_alias:
                self._via_alias.add(key)

    def __getitem__(self, key: str) -> int:
        return self._ids[key]

    def forget(self) -> None:
        """Drop every cached key (after a rollback the cached ids may not exist)."""
        self._ids.clear()
        self._types.clear()
        self._via_alias.clear()
        self._whole = None


def _holds_names(namespace: str) -> bool:
    """Whether the namespace has an entity or an alias."""
    return (
        Entity.select(Entity.id).where(Entity.namespace == namespace).exists()
        or Alias.select(Alias.id).where(Alias.namespace == namespace).exists()
    )

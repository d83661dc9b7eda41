"""Every spelling a namespace knows, for finding an entity by name (the TUI's finder)."""

from __future__ import annotations

from dataclasses import dataclass

from peewee import JOIN, fn
from rapidfuzz import fuzz, process

from memo_tui.store import Alias, Entity, Mention, Passage


@dataclass(frozen=True)
class Spelling:
    text: str
    entity_id: int
    canonical: str | None  # the entity's name when this spelling is an alias of it
    type: str | None
    passages: int  # live passages naming the entity


def spellings(namespace: str) -> list[Spelling]:
    """Entity names and aliases, sorted, each with its entity's type and live passage count."""
    live = (
        Mention.select(Mention.entity, fn.COUNT(fn.DISTINCT(Mention.passage)).alias("n"))
        .join(Passage)
        .where((Passage.namespace == namespace) & Passage.retired_at.is_null() & Mention.active)
        .group_by(Mention.entity)
    )
    counts = {entity_id: n for entity_id, n in live.tuples()}
    entities = {
        entity_id: (name, kind)
        for entity_id, name, kind in Entity.select(Entity.id, Entity.name, Entity.type)
        .where(Entity.namespace == namespace)
        .tuples()
    }
    found = [Spelling(name, eid, None, kind, counts.get(eid, 0)) for eid, (name, kind) in entities.items()]
    aliases = Alias.select(Alias.name, Alias.entity).join(Entity, JOIN.INNER).where(Alias.namespace == namespace)
    for name, eid in aliases.tuples():
        canonical, kind = entities[eid]
        found.append(Spelling(name, eid, canonical, kind, counts.get(eid, 0)))
    return sorted(found, key=lambda s: (s.text, s.entity_id))


def has_passages(namespace: str) -> bool:
    return Passage.select().where(Passage.namespace == namespace).exists()


def passages_naming(entity_id: int) -> int:
    """Live passages with an active mention of the entity."""
    return (
        Mention.select(fn.COUNT(fn.DISTINCT(Mention.passage)))
        .join(Passage)
        .where((Mention.entity == entity_id) & Mention.active & Passage.retired_at.is_null())
        .scalar()
    )


def search(namespace: str, query: str, limit: int = 10) -> list[tuple[Spelling, float]]:
    """Spellings closest to the query (rapidfuzz WRatio, 0-100), one per entity, best first."""
    known = spellings(namespace)
    hits = process.extract(query, [s.text for s in known], scorer=fuzz.WRatio, limit=limit * 4, score_cutoff=50)
    out: dict[int, tuple[Spelling, float]] = {}
    for _, score, index in hits:
        spelling = known[index]
        if spelling.entity_id not in out:
            out[spelling.entity_id] = (spelling, score)
    return sorted(out.values(), key=lambda hit: (-hit[1], hit[0].text))[:limit]

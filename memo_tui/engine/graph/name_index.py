"""Every spelling a namespace knows, for finding an entity by name (the TUI's finder, `search_entities`)."""

from __future__ import annotations

import threading
import weakref
from collections import defaultdict
from dataclasses import dataclass

from peewee import JOIN, fn
from rapidfuzz import fuzz, process

from memo_tui.store import Alias, Entity, Mention, Passage, db, graph_version

# the spellings sharing most 3-grams with a query that `search` scores: WRatio over every spelling
# would grow with the store, and a query should not
CANDIDATES = 1000


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


class _Finder:
    """A namespace's spellings at one graph version, with the spellings each 3-gram occurs in."""

    def __init__(self, known: list[Spelling]) -> None:
        import numpy as np  # only a search needs it: the TUI's start does not pay for it

        self.known = known
        postings: dict[str, list[int]] = defaultdict(list)
        for index, spelling in enumerate(known):
            for gram in _grams(spelling.text):
                postings[gram].append(index)
        self.postings = {gram: np.array(ids, dtype=np.int32) for gram, ids in postings.items()}

    def candidates(self, query: str) -> dict[int, str]:
        """The spellings sharing most 3-grams with the query (at most CANDIDATES), by index."""
        import numpy as np

        lists = [self.postings[gram] for gram in _grams(query) if gram in self.postings]
        if not lists:
            return {}
        # a 3-gram in a tenth of the spellings says little and costs most: counted only when the
        # query has none rarer
        rare = [ids for ids in lists if len(ids) * 10 <= len(self.known)]
        lists = rare or lists
        shared = np.bincount(np.concatenate(lists), minlength=len(self.known))
        found = np.flatnonzero(shared)
        if len(found) > CANDIDATES:
            found = found[np.argpartition(-shared[found], CANDIDATES)[:CANDIDATES]]
        return {index: self.known[index].text for index in found.tolist()}


def _grams(text: str) -> set[str]:
    """Lowercase 3-grams, words padded with a space: a two-letter query still finds words it opens."""
    padded = f" {' '.join(text.lower().split())} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


# the bound database -> namespace -> (graph version, finder), as the graph cache keys (`graph_for`)
_FINDERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_finding = threading.Lock()


def _finder(namespace: str) -> _Finder:
    with _finding:  # the server's worker threads: one builds, the others wait for it
        version = graph_version(namespace)
        finders = _FINDERS.setdefault(db.obj, {})
        held = finders.get(namespace)
        if held is None or held[0] != version:
            held = finders[namespace] = (version, _Finder(spellings(namespace)))
        return held[1]


def search(namespace: str, query: str, limit: int = 10) -> list[tuple[Spelling, float]]:
    """Spellings closest to the query (rapidfuzz WRatio, 0-100), one per entity, best first; scored
    among the spellings that share most 3-grams with it, kept until the graph changes."""
    finder = _finder(namespace)
    hits = process.extract(query, finder.candidates(query), scorer=fuzz.WRatio, limit=limit * 4, score_cutoff=50)
    out: dict[int, tuple[Spelling, float]] = {}
    for _, score, index in hits:
        spelling = finder.known[index]
        if spelling.entity_id not in out:
            out[spelling.entity_id] = (spelling, score)
    return sorted(out.values(), key=lambda hit: (-hit[1], hit[0].text))[:limit]

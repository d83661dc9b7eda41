"""The graph around a name: related entities, explore, as_of, and the per-namespace cache.

The in-memory graph holds ids only (passage texts are read when an answer needs them). It is cached
per namespace and store, and rebuilt when the namespace's version has moved: every ingest, forget,
fold, revert and rebuild bumps it, so a fold that leaves the mention count as it was still counts.
Graphs at a point in time (`as_of`) are built for the one call and never cached.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from datetime import datetime

from memo_tui.engine.graph.entities import find, suggestion
from memo_tui.engine.graph.links import also_see
from memo_tui.errors import MemoError
from memo_tui.names.keys import merge_key
from memo_tui.runtime import metrics
from memo_tui.store import Alias, Entity, Passage, db, graph_version
from memo_tui.store.reads import live_mention_pairs, live_passages, live_relations
from memo_tui.store.rows import tuples


@dataclass(frozen=True)
class EntityRef:
    id: int
    name: str
    type: str | None
    mentions: int  # live passages that name it


@dataclass(frozen=True)
class Stated:
    """A typed edge as a passage stated it; `direction` is out (target -> entity) or in."""

    predicate: str
    direction: str
    entity: EntityRef
    confidence: float
    passage_id: int
    passage: str  # external id of the evidence passage


@dataclass(frozen=True)
class CoMention:
    entity: EntityRef
    shared: int  # live passages naming both
    stated: bool  # a stated edge joins them too


@dataclass(frozen=True)
class Related:
    target: EntityRef
    asked: str
    matched_alias: str | None
    as_of: datetime | None
    stated: list[Stated]
    co_mentions: list[CoMention]
    stated_total: int
    co_mentions_total: int

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class PassageView:
    id: int
    external_id: str
    text: str
    source: str | None
    created_at: datetime
    also_see: list[dict] = field(default_factory=list)


@dataclass(frozen=True)
class Neighbour:
    entity: EntityRef
    via: EntityRef
    link: str  # "stated" or "co-mention"
    predicates: list[str]  # "works_on ->" / "<- owned_by" for stated links
    shared: int
    passages: list[PassageView]


@dataclass(frozen=True)
class Hop:
    number: int
    neighbours: list[Neighbour]
    more: int  # neighbours left out by the caps


@dataclass(frozen=True)
class Exploration:
    target: EntityRef
    asked: str
    matched_alias: str | None
    as_of: datetime | None
    passages: list[PassageView]
    hops: list[Hop]

    def as_dict(self) -> dict:
        return asdict(self)


class Graph:
    """Entities, the live passages naming them, and stated edges, as plain ids."""

    def __init__(self, namespace: str, as_of: datetime | None = None) -> None:
        self.namespace = namespace
        self.as_of = as_of
        self.names: dict[int, tuple[str, str | None]] = {}
        self.passages_of: dict[int, list[int]] = defaultdict(list)
        self.entities_of: dict[int, list[int]] = defaultdict(list)
        self.created: dict[int, tuple[datetime, str]] = {}  # passage id -> (created_at, external id)
        self.edges: dict[int, list[tuple[str, str, int, float, int]]] = defaultdict(list)
        self._load()

    def _load(self) -> None:
        for entity_id, name, kind in tuples(
            Entity.select(Entity.id, Entity.name, Entity.type).where(Entity.namespace == self.namespace)
        ):
            self.names[entity_id] = (name, kind)
        for passage_id, external_id, at in live_passages(self.namespace, self.as_of):
            self.created[passage_id] = (at, external_id)
        names = self.names
        # a passage may name an entity twice (via an alias)
        for passage_id, entity_id in dict.fromkeys(live_mention_pairs(self.namespace, self.as_of)):
            if entity_id in names:
                self.passages_of[entity_id].append(passage_id)
                self.entities_of[passage_id].append(entity_id)
        for src, predicate, dst, confidence, passage_id in live_relations(self.namespace, self.as_of):
            if src != dst:
                self.edges[src].append((predicate, "out", dst, confidence, passage_id))
                self.edges[dst].append((predicate, "in", src, confidence, passage_id))

    def ref(self, entity_id: int) -> EntityRef:
        name, kind = self.names[entity_id]
        return EntityRef(entity_id, name, kind, len(self.passages_of.get(entity_id, ())))

    def shared_counts(self, entity_id: int) -> Counter:
        counts: Counter = Counter()
        for passage_id in self.passages_of.get(entity_id, ()):
            counts.update(self.entities_of[passage_id])
        counts.pop(entity_id, None)
        return counts

    def neighbours(self, entity_id: int) -> list[tuple[int, bool, int]]:
        """(neighbour, has a stated link, shared passages), stated links first, then by shared passages."""
        counts = self.shared_counts(entity_id)
        stated = {other for _, _, other, _, _ in self.edges.get(entity_id, ()) if other in self.names}
        ids = set(counts) | stated
        return sorted(
            ((other, other in stated, counts.get(other, 0)) for other in ids),
            key=lambda row: (not row[1], -row[2], -len(self.passages_of.get(row[0], ())), self.names[row[0]][0]),
        )

    def shared_passages(self, a: int, b: int, limit: int) -> list[int]:
        """Newest live passages naming both."""
        both = set(self.passages_of.get(a, ())) & set(self.passages_of.get(b, ()))
        return sorted(both, key=lambda pid: (self.created[pid][0], pid), reverse=True)[:limit]


# Keyed by the database object itself (weakly), not by id(): a store opened after another one was
# closed may get the same id and the same version number, and must not see the other's graph.
_cache: weakref.WeakKeyDictionary[object, dict[str, tuple[int, Graph]]] = weakref.WeakKeyDictionary()
_build_lock = threading.Lock()


def graph_for(namespace: str, as_of: datetime | None = None) -> Graph:
    """The namespace's graph: cached until its version moves; `as_of` graphs are always built fresh."""
    if as_of is not None:
        return _build(namespace, as_of, "build_asof")
    with _build_lock:
        version = graph_version(namespace)
        graphs = _cache.setdefault(db.obj, {})
        cached = graphs.get(namespace)
        if cached is not None and cached[0] == version:
            metrics.count("memo_graph_cache_total", event="hit", namespace=namespace)
            return cached[1]
        graph = _build(namespace, None, "build")
        graphs[namespace] = (version, graph)
        return graph


def _build(namespace: str, as_of: datetime | None, event: str) -> Graph:
    started = time.perf_counter()
    graph = Graph(namespace, as_of)
    metrics.count("memo_graph_cache_total", event=event, namespace=namespace)
    metrics.observe("memo_graph_build_duration_seconds", time.perf_counter() - started, namespace=namespace)
    return graph


def _target(namespace: str, target: str, graph: Graph) -> tuple[int, str | None]:
    found = find(namespace, target)
    if found is None:
        # Keys keep letter case on purpose; a person typing `postgresql` still means the one entity
        # spelled that way up to case and punctuation, when there is exactly one.
        wanted = merge_key(target)
        same = Entity.select(Entity.id).where((Entity.namespace == namespace) & (Entity.merge_key == wanted))
        matches = {entity_id: None for (entity_id,) in tuples(same.limit(2))}
        for name, entity_id in tuples(Alias.select(Alias.name, Alias.entity).where(Alias.namespace == namespace)):
            if merge_key(name) == wanted:
                matches.setdefault(entity_id, name)
        if len(matches) == 1:
            return next(iter(matches.items()))
        close = suggestion(namespace, target, [name for name, _ in graph.names.values()])
        raise MemoError(f"no entity named {target!r} in namespace {namespace!r}{close}")
    return found.entity.id, found.matched_alias


def _type_matches(graph: Graph, entity_id: int, kind: str | None) -> bool:
    return kind is None or (graph.names[entity_id][1] or "").casefold() == kind.casefold()


def related(
    namespace: str, target: str, limit: int = 20, kind: str | None = None, as_of: datetime | None = None
) -> Related:
    """Stated edges and co-mentions of an entity (by id, name or alias), as two separate groups."""
    graph = graph_for(namespace, as_of)
    entity_id, matched_alias = _target(namespace, target, graph)
    stated_rows = [edge for edge in graph.edges.get(entity_id, ()) if _type_matches(graph, edge[2], kind)]
    counts = graph.shared_counts(entity_id)
    stated = sorted(
        (
            Stated(predicate, direction, graph.ref(other), confidence, pid, graph.created[pid][1])
            for predicate, direction, other, confidence, pid in stated_rows
        ),
        key=lambda s: (-counts.get(s.entity.id, 0), -s.entity.mentions, s.entity.name, s.predicate, s.passage_id),
    )
    linked = {s.entity.id for s in stated}
    co = sorted(
        (
            CoMention(graph.ref(other), shared, other in linked)
            for other, shared in counts.items()
            if _type_matches(graph, other, kind)
        ),
        key=lambda c: (not c.stated, -c.shared, -c.entity.mentions, c.entity.name),
    )
    return Related(graph.ref(entity_id), target, matched_alias, as_of, stated[:limit], co[:limit], len(stated), len(co))


def explore(
    namespace: str,
    target: str,
    hops: int = 1,
    as_of: datetime | None = None,
    per_node: int = 6,
    per_hop: int = 24,
    own_passages: int = 10,
    passages_per_link: int = 2,
) -> Exploration:
    """The entity's own passages, then its neighbours hop by hop with the passages that connect them.
    Caps per node and per hop keep a hub from flooding the answer; `more` counts what they left out."""
    if not 1 <= hops <= 3:
        raise MemoError("--hops is 1, 2 or 3")
    graph = graph_for(namespace, as_of)
    entity_id, matched_alias = _target(namespace, target, graph)
    own = sorted(graph.passages_of.get(entity_id, ()), key=lambda pid: (graph.created[pid][0], pid), reverse=True)
    visited = {entity_id}
    frontier = [entity_id]
    plan: list[tuple[int, list[tuple[int, int, bool, int, list[int]]], int]] = []
    for number in range(1, hops + 1):
        found: list[tuple[int, int, bool, int, list[int]]] = []
        more = 0
        for node in frontier:
            fresh = [n for n in graph.neighbours(node) if n[0] not in visited]
            room = min(per_node, per_hop - len(found))
            for other, stated, shared in fresh[: max(room, 0)]:
                visited.add(other)
                found.append((other, node, stated, shared, _connecting(graph, node, other, stated, passages_per_link)))
            more += max(len(fresh) - max(room, 0), 0)
        plan.append((number, found, more))
        frontier = [row[0] for row in found]
        if not frontier:
            break
    wanted = own[:own_passages] + [pid for _, found, _ in plan for row in found for pid in row[4]]
    texts = _passages(wanted)
    own_views = [_with_links(texts[pid], graph) for pid in own[:own_passages]]
    hop_views = [
        Hop(
            number,
            [
                Neighbour(
                    graph.ref(other),
                    graph.ref(via),
                    "stated" if stated else "co-mention",
                    _predicates(graph, via, other),
                    shared,
                    [texts[pid] for pid in pids],
                )
                for other, via, stated, shared, pids in found
            ],
            more,
        )
        for number, found, more in plan
    ]
    return Exploration(graph.ref(entity_id), target, matched_alias, as_of, own_views, hop_views)


def _connecting(graph: Graph, a: int, b: int, stated: bool, limit: int) -> list[int]:
    evidence = [pid for _, _, other, _, pid in graph.edges.get(a, ()) if other == b] if stated else []
    shared = [pid for pid in graph.shared_passages(a, b, limit) if pid not in evidence]
    return (evidence + shared)[:limit]


def _predicates(graph: Graph, a: int, b: int) -> list[str]:
    labels = {
        f"{predicate} ->" if direction == "out" else f"<- {predicate}"
        for predicate, direction, other, _, _ in graph.edges.get(a, ())
        if other == b
    }
    return sorted(labels)


def _with_links(view: PassageView, graph: Graph) -> PassageView:
    links = [
        {"id": link.passage_id, "external_id": link.external_id, "shared": link.shared, "text": link.text}
        for link in also_see(view.id, limit=3)
        if link.passage_id in graph.created
    ]
    return PassageView(view.id, view.external_id, view.text, view.source, view.created_at, links)


def _passages(ids: list[int]) -> dict[int, PassageView]:
    rows: dict[int, PassageView] = {}
    unique = list(dict.fromkeys(ids))
    for start in range(0, len(unique), 500):
        query = Passage.select(Passage.id, Passage.external_id, Passage.text, Passage.source, Passage.created_at)
        for p in query.where(Passage.id.in_(unique[start : start + 500])):
            rows[p.id] = PassageView(p.id, p.external_id, p.text, p.source, p.created_at)
    return rows

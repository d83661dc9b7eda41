"""Passage-to-passage `relates_to` links ("also see"), written as passages are.

Two live passages that name at least two of the same entities are related. Each new passage keeps
its strongest links only (most shared entities, then the weight of how they were named: author
tags and declared entities count above extracted terms). A name found in very many passages (a hub
such as the team's own product) says little about two passages belonging together and would make
every write scan thousands of rows, so it does not count towards a link.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from memo_tui.store import Passage, PassageLink
from memo_tui.store.locks import writing
from memo_tui.store.queries import mention_weights_of_entities, mention_weights_of_passages, retired_among
from memo_tui.store.statements import LazyInserter, first_column, paused_gc

FAN_OUT = 8
MIN_SHARED = 2
HUB = 1000  # passages; a name in more of them than this does not link passages
CHUNK = 500
_INSERT = LazyInserter(PassageLink, ("passage", "other", "shared", "strength"))


@dataclass(frozen=True)
class Link:
    passage_id: int
    external_id: str
    text: str
    shared: int
    strength: float


def weights_of(rows) -> dict[int, dict[int, float]]:
    """passage -> entity -> the heaviest way the passage names it."""
    named: dict[int, dict[int, float]] = defaultdict(dict)
    for passage_id, entity_id, weight in rows:
        if weight > named[passage_id].get(entity_id, 0.0):
            named[passage_id][entity_id] = weight
    return named


class Linker:
    """Links passages as they are written. It remembers which passages name each entity it has
    looked up, so a long ingest reads each entity's passages once, not once per chunk."""

    def __init__(self) -> None:
        self._holders: dict[int, dict[int, float]] = {}  # entity -> passage -> weight

    def forget(self) -> None:
        """Drop what was remembered (the caller's transaction rolled back)."""
        self._holders.clear()

    def link(self, new: dict[int, dict[int, float]], made: Collection[int] = ()) -> None:
        """Write the links of passages (passage -> entity -> weight) just written in this transaction.
        `made`: entities created in it, whose every mention is among these (they are not read)."""
        unknown = sorted({e for named in new.values() for e in named if e not in self._holders})
        for entity_id in unknown:
            self._holders[entity_id] = {}
        made = set(made)
        rows = mention_weights_of_entities([entity_id for entity_id in unknown if entity_id not in made])
        for passage_id, entity_id, weight in rows:
            holders = self._holders[entity_id]
            holders[passage_id] = max(weight, holders.get(passage_id, 0.0))
        for passage_id, named in new.items():
            for entity_id, weight in named.items():
                self._holders[entity_id][passage_id] = weight
        self._write({passage_id: self._overlaps(passage_id, named) for passage_id, named in new.items()})

    def _overlaps(self, passage_id: int, named: dict[int, float]) -> dict[int, list]:
        """Passages sharing at least MIN_SHARED entities with this one: [shared, strength]."""
        lists = [(weight, self._holders[e]) for e, weight in named.items() if len(self._holders[e]) <= HUB]
        # the passages in two lists or more (few, beside those in one): each list, shortest first, met
        # with the union of those before it, through the smaller of the two (the longest, a name in
        # hundreds of passages, is walked only where it is shorter than the others together): k - 1
        # meetings, where meeting each pair of lists would be k (k - 1) / 2
        views = sorted((holders.keys() for _, holders in lists), key=len)
        again: set[int] = set()
        if len(views) > 1:
            seen = set(views[0])
            for view in views[1:-1]:
                again |= view & seen
                seen.update(view)
            again |= views[-1] & seen
        again.discard(passage_id)
        out = {}
        for other in again:  # each in two lists or more: both tallies in one walk of the lists
            shared, strength = 0, 0
            for w, holders in lists:
                theirs = holders.get(other)
                if theirs is not None:
                    shared += 1
                    strength += (w + theirs) / 2
            if shared >= MIN_SHARED:
                out[other] = [shared, strength]
        return out

    def _write(self, overlaps: dict[int, dict[int, list]]) -> None:
        candidates = sorted({other for tally in overlaps.values() for other in tally})
        retired = retired_among(candidates)
        rows = []
        for passage_id, tally in overlaps.items():
            live = [(entry[0], entry[1], other) for other, entry in tally.items() if other not in retired]
            rows += [
                (passage_id, other, shared, strength)
                for shared, strength, other in sorted(live, reverse=True)[:FAN_OUT]
            ]
        _INSERT.many(rows)


def link_passages(passage_ids: Sequence[int]) -> None:
    """Write the links of stored passages (restored ones); joins the caller's transaction."""
    ids = list(passage_ids)
    if ids:
        Linker().link(weights_of(mention_weights_of_passages(ids)))


def unlink(passage_ids: Sequence[int]) -> None:
    """Retired passages lose their links, both ways."""
    ids = list(passage_ids)
    for start in range(0, len(ids), CHUNK):
        part = ids[start : start + CHUNK]
        PassageLink.delete().where(PassageLink.passage.in_(part) | PassageLink.other.in_(part)).execute()


def relink_all(namespace: str, progress: Callable[[int, int], None] | None = None) -> int:
    """Rebuild every link of a namespace in one transaction; returns the number of links."""
    with writing(namespace), paused_gc():
        passages = Passage.select(Passage.id).where(Passage.namespace == namespace)
        PassageLink.delete().where(PassageLink.passage.in_(passages)).execute()
        live = first_column(passages.where(Passage.retired_at.is_null()).order_by(Passage.id))
        linker = Linker()
        for start in range(0, len(live), CHUNK):
            linker.link(weights_of(mention_weights_of_passages(live[start : start + CHUNK])))
            if progress is not None:
                progress(min(start + CHUNK, len(live)), len(live))
        return count_links(namespace)


def count_links(namespace: str) -> int:
    passages = Passage.select(Passage.id).where(Passage.namespace == namespace)
    return PassageLink.select().where(PassageLink.passage.in_(passages)).count()


def also_see(passage_id: int, limit: int = FAN_OUT) -> list[Link]:
    """Live passages linked to this one in either direction, strongest first."""
    rows: dict[int, tuple[int, float]] = {}
    query = PassageLink.select(PassageLink.other, PassageLink.shared, PassageLink.strength).where(
        PassageLink.passage == passage_id
    )
    back = PassageLink.select(PassageLink.passage, PassageLink.shared, PassageLink.strength).where(
        PassageLink.other == passage_id
    )
    for other, shared, strength in [*query.tuples(), *back.tuples()]:
        rows[other] = max(rows.get(other, (0, 0.0)), (shared, strength))
    if not rows:
        return []
    live = {
        p.id: p
        for p in Passage.select(Passage.id, Passage.external_id, Passage.text).where(
            Passage.id.in_(list(rows)) & Passage.retired_at.is_null()
        )
    }
    ranked = sorted(live, key=lambda pid: (-rows[pid][0], -rows[pid][1], -pid))[:limit]
    return [Link(pid, live[pid].external_id, live[pid].text, *rows[pid]) for pid in ranked]

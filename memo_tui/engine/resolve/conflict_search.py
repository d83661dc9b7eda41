"""Which passages a search compares, and queueing what it finds.

A full search (`conflicts.find_conflicts`) compares every live passage with every other through the
prefix filter. It also leaves a memory: each passage's prefix 3-grams under an order it fixes (the
3-grams' frequencies then, rarest first), its entities' signature and its title's, and every
look-alike pair it found. The next search compares only the passages that are new, restored or name
other entities since (folds re-point mentions): their prefixes are looked up among the remembered
ones, which is exact for the same reason the full search is (two sets at Jaccard >= t share one of
their first |s| - ceil(t |s|) + 1 3-grams in any one fixed order); pairs of unchanged passages keep
what was found of them. Declared, reverted and single-valued conflicts are read again each time,
from the few passages they come from: those that declare one or revert another (the memory keeps
which: a passage's text never changes), the ones they name, and those with single-valued relations.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import zlib
from array import array
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from itertools import accumulate, chain, compress
from typing import TYPE_CHECKING

from memo_tui import __version__
from memo_tui.engine import conflicts
from memo_tui.engine.conflicts import (
    DUPLICATE_JACCARD,
    NEAR_JACCARD,
    REVERT,
    SAME_ENTITIES,
    ConflictReport,
    Finding,
    Live,
    assemble,
    classify,
    jaccard,
    passage_sets,
)
from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.resolve.pass_memory import keep_data, kept, signature_of
from memo_tui.names.evidence import conflict_likelihood, yield_of
from memo_tui.runtime import codec
from memo_tui.runtime.codec import float_bytes, floats_of, int_bytes, ints_of
from memo_tui.runtime.config import section
from memo_tui.store import Meta, Passage, PassMemory, Question, Relation, db, graph_version, utcnow
from memo_tui.store.connect import bound_location
from memo_tui.store.kinds import CONTRADICTION, DUPLICATE, PASSAGE_KINDS
from memo_tui.store.locks import writing
from memo_tui.store.rows import tuples
from memo_tui.store.statements import as_datetime, rows_of, slices

if TYPE_CHECKING:  # similar_sets imports numpy: only the searches that use it load it
    from memo_tui.text.similar_sets import Kept

FORMAT = 2  # raise it with any change to the parts kept, or to what the detector finds (`conflicts`)
REBUILD_SHARE = 0.1  # the passages searched since the base are folded into it when they are this share of it
THRESHOLDS = (DUPLICATE_JACCARD, NEAR_JACCARD)


def _tag() -> str:
    settings = hashlib.sha1(json.dumps(section("conflicts"), sort_keys=True, default=str).encode()).hexdigest()[:12]
    python = ".".join(map(str, sys.version_info[:2]))
    return f"{FORMAT}:memo-tui-{__version__}:{settings}:python-{python}"


def title_of(text: str) -> str:
    return text.strip().split("\n", 1)[0].strip()


def title_hash(title: str) -> int:
    data = title.encode()
    return zlib.crc32(data) ^ zlib.adler32(data) << 31  # under 2**63: kept in a signed array


def prefix(tokens: Iterable[int], order: dict[int, int], threshold: float) -> list[int]:
    """The first |s| - ceil(t |s|) + 1 3-grams of a set, rarest first by the kept order (a 3-gram it
    does not count as common counts once), ties by value."""
    ranked = sorted(tokens, key=lambda token: (order.get(token, 1), token))
    return ranked[: len(ranked) - math.ceil(threshold * len(ranked) - 1e-9) + 1] if ranked else []


@dataclass
class Entry:
    """What the memory keeps of one passage."""

    entities: int  # the signature of the entities it names
    title: int
    prefixes: tuple[list[int], list[int]]  # duplicate 3-grams, masked 3-grams


@dataclass
class Base:
    """The passages as the last full search (or rebuild) kept them, as arrays: entry k's prefixes are
    tokens[f][ends[f][k - 1]:ends[f][k]] for each family f."""

    ids: array
    entities: array
    titles: array
    tokens: tuple[array, array]
    ends: tuple[array, array]

    @classmethod
    def of(cls, entries: dict[int, Entry]) -> Base:
        ids = sorted(entries)
        tokens, ends = (array("q"), array("q")), (array("q"), array("q"))
        for pid in ids:
            for family in (0, 1):
                tokens[family].extend(entries[pid].prefixes[family])
                ends[family].append(len(tokens[family]))
        return cls(
            array("q", ids),
            array("q", (entries[p].entities for p in ids)),
            array("q", (entries[p].title for p in ids)),
            tokens,
            ends,
        )

    def entry(self, k: int) -> Entry:
        def part(family: int) -> list[int]:
            ends = self.ends[family]
            return list(self.tokens[family][ends[k - 1] if k else 0 : ends[k]])

        return Entry(self.entities[k], self.titles[k], (part(0), part(1)))

    def holders(self, family: int, wanted: set[int]) -> list[tuple[int, int]]:
        """(passage id, 3-gram) for every prefix 3-gram of the family in `wanted`."""
        tokens, ends = self.tokens[family], self.ends[family]
        hits = compress(range(len(tokens)), map(wanted.__contains__, tokens))
        return [(self.ids[bisect_right(ends, at)], tokens[at]) for at in hits]

    def dumps(self) -> tuple:
        return tuple(a.tobytes() for a in (self.ids, self.entities, self.titles, *self.tokens, *self.ends))

    @classmethod
    def loads(cls, value: tuple) -> Base:
        ids, entities, titles, dup, near, dup_ends, near_ends = (ints_of(v) for v in value)
        return cls(ids, entities, titles, (dup, near), (dup_ends, near_ends))


@dataclass
class SearchMemory:
    orders: tuple[dict[int, int], dict[int, int]]  # per family: 3-gram -> how many sets held it (if > 1)
    base: Base
    forgotten: set[int]  # base passages gone, or searched again, since
    searched: dict[int, Entry]  # passages searched since the base
    found: list[Finding]  # every look-alike pair found among the remembered passages
    flagged: set[int]  # remembered passages that declare a contradiction or revert another (`_flagged`)
    rebuilt: bool = False

    def known(self) -> dict[int, int]:
        """Passage id -> its entities' signature, for every remembered passage."""
        out = {p: e for p, e in zip(self.base.ids, self.base.entities, strict=True) if p not in self.forgotten}
        out.update((p, entry.entities) for p, entry in self.searched.items())
        return out

    def forget(self, passage_ids: set[int]) -> None:
        self.forgotten |= passage_ids
        self.flagged -= passage_ids
        for pid in passage_ids:
            self.searched.pop(pid, None)
        self.found = [f for f in self.found if f.left not in passage_ids and f.right not in passage_ids]

    def holders(self, family: int, wanted: set[int]) -> list[tuple[int, int]]:
        out = [(p, t) for p, t in self.base.holders(family, wanted) if p not in self.forgotten]
        out += [(p, t) for p, entry in self.searched.items() for t in entry.prefixes[family] if t in wanted]
        return out

    def titled(self, wanted: set[int]) -> list[int]:
        """Remembered passages whose title has one of these hashes."""
        titles = self.base.titles
        hits = compress(range(len(titles)), map(wanted.__contains__, titles))
        out = [self.base.ids[k] for k in hits if self.base.ids[k] not in self.forgotten]
        return out + [p for p, entry in self.searched.items() if entry.title in wanted]

    def rebuild(self) -> None:
        entries = {pid: self.base.entry(k) for k, pid in enumerate(self.base.ids) if pid not in self.forgotten}
        entries.update(self.searched)
        self.base, self.forgotten, self.searched, self.rebuilt = Base.of(entries), set(), {}, True


def _findings_dumps(found: list[Finding]) -> tuple:
    return (
        int_bytes(f.left for f in found),
        int_bytes(f.right for f in found),
        float_bytes(f.score for f in found),
        [(f.kind, f.rule, f.reason) for f in found],
    )


def _findings_loads(value: tuple) -> list[Finding]:
    left, right, scores, said = value
    return [
        Finding(kind, a, b, s, rule, reason)
        for a, b, s, (kind, rule, reason) in zip(ints_of(left), ints_of(right), floats_of(scores), said, strict=True)
    ]


def load(namespace: str) -> SearchMemory | None:
    tag = _tag()
    base, since = kept(namespace, "search", tag), kept(namespace, "searched", tag)
    if base is None or since is None:
        return None
    orders, stored = base
    forgotten, searched, found, flagged = since
    entries = {pid: Entry(e, t, (list(d), list(n))) for pid, (e, t, d, n) in searched.items()}
    return SearchMemory(
        tuple(orders), Base.loads(stored), set(ints_of(forgotten)), entries, _findings_loads(found), set(flagged)
    )


def remembered(namespace: str) -> bool:
    """Whether a search left a memory this code can read (its rows' tags; their values are not read)."""
    tags = dict(
        tuples(
            PassMemory.select(PassMemory.key, PassMemory.tag).where(
                PassMemory.key.in_([f"search:{namespace}", f"searched:{namespace}"])
            )
        )
    )
    tag = _tag()
    # a part written in several rows has the first one's tag marked with their count (`keep_data`)
    base, since = tags.get(f"search:{namespace}", ""), tags.get(f"searched:{namespace}", "")
    return tag in (base, base.rpartition("#")[0]) and tag in (since, since.rpartition("#")[0])


def kept_parts(memory: SearchMemory) -> list[tuple[str, bytes]]:
    """The memory's parts as `save` keeps them, marshalled: the base only when it was made anew (the
    passages searched since are folded into it once they are REBUILD_SHARE of it)."""
    if len(memory.searched) > REBUILD_SHARE * max(1, len(memory.base.ids)):
        memory.rebuild()
    searched = {p: (e.entities, e.title, e.prefixes[0], e.prefixes[1]) for p, e in memory.searched.items()}
    forgotten = int_bytes(sorted(memory.forgotten))
    parts = [("search", codec.dumps((list(memory.orders), memory.base.dumps())))] if memory.rebuilt else []
    since = (forgotten, searched, _findings_dumps(memory.found), sorted(memory.flagged))
    return [*parts, ("searched", codec.dumps(since))]


def save(namespace: str, parts: list[tuple[str, bytes]]) -> None:
    with db.atomic():  # the parts are read together
        for part, data in parts:
            keep_data(namespace, part, _tag(), data)


# --- the passages ----------------------------------------------------------------------------------


def _passages(ids: Iterable[int]) -> dict[int, Live]:
    out = {}
    for part in slices(sorted(set(ids))):
        query = Passage.select(
            Passage.id, Passage.external_id, Passage.text, Passage.source, Passage.created_at, Passage.declared
        ).where(Passage.id.in_(part))
        for pid, ext, text, src, at, dec in rows_of(query):
            out[pid] = Live(pid, ext, text, src, as_datetime(at), json.loads(dec) if dec else {})
    return out


_NAMES_NOTHING = signature_of(())  # the signature of a live passage that names no entity


def _entry(passage: Live, sets: tuple[set[int], set[int]], named: Mapping[int, set[int]], orders) -> Entry:
    prefixes = (prefix(sets[0], orders[0], THRESHOLDS[0]), prefix(sets[1], orders[1], THRESHOLDS[1]))
    return Entry(signature_of(named.get(passage.id, ())), title_hash(title_of(passage.text)), prefixes)


def _sets(passages: Mapping[int, Live], named: Mapping[int, set[int]]) -> dict[int, tuple[set[int], set[int]]]:
    """Each passage's two 3-gram sets (a passage that names nothing contradicts none: no masked set)."""
    found = passage_sets([p.text for p in passages.values()], [bool(named.get(pid)) for pid in passages])
    return dict(zip(passages, found, strict=True))


def remember_full(
    passages: list[Live], signatures: dict[int, int], found: list[Finding], kept: list[Kept]
) -> SearchMemory:
    """The memory a full search leaves (`kept`: what its two families kept, as `Plan.kept` gives it,
    for the passages in id order)."""
    (dup_order, dup_tokens, dup_ends), (near_order, near_tokens, near_ends) = kept
    base = Base(
        array("q", (p.id for p in passages)),
        array("q", (signatures.get(p.id, _NAMES_NOTHING) for p in passages)),
        array("q", (title_hash(title_of(p.text)) for p in passages)),
        (_array(dup_tokens), _array(near_tokens)),
        (_array(dup_ends), _array(near_ends)),
    )
    flagged = {p.id for p in passages if _flagged(p)}
    return SearchMemory((dup_order, near_order), base, set(), {}, list(found), flagged, rebuilt=True)


def _array(values) -> array:
    """A numpy array of int64 as an array of 'q'."""
    return ints_of(values.astype("int64").tobytes())


def _flagged(passage: Live) -> bool:
    """Whether a passage declares a contradiction or reverts another: a declared or revert conflict
    always has one such side."""
    return "contradicts" in passage.declared or REVERT.match(title_of(passage.text)) is not None


def look_alikes(
    namespace: str, memory: SearchMemory, live: set[int], named: Mapping[int, set[int]], signatures: dict[int, int]
) -> tuple[list[Finding], dict[int, Live]]:
    """Bring the memory up to date with the `live` passages, comparing only those that changed since
    it was left (`memory.found` then holds every look-alike pair a full search would find); and the
    declared and reverted conflicts. Returns those, and every passage a finding names. Reads only
    passages (their texts never change) and the memory: nothing a fold writes, so this may run
    beside the pass's folds (`Search`)."""
    known = memory.known()
    changed = {pid for pid in live if known.get(pid) != signatures.get(pid, _NAMES_NOTHING)}
    memory.forget((known.keys() - live) | (changed & known.keys()))
    fresh = _passages(changed)
    sets = _sets(fresh, named)
    asked: tuple[dict[int, list[int]], dict[int, list[int]]] = (defaultdict(list), defaultdict(list))
    for pid, passage in fresh.items():
        entry = memory.searched[pid] = _entry(passage, sets[pid], named, memory.orders)
        for family in (0, 1):
            for token in entry.prefixes[family]:
                asked[family][token].append(pid)
    candidates: set[tuple[int, int]] = set()
    for family in (0, 1):
        for holder, token in memory.holders(family, set(asked[family])):
            candidates.update((min(p, holder), max(p, holder)) for p in asked[family][token] if p != holder)
    others = _passages({x for pair in candidates for x in pair} - fresh.keys())
    sets.update(_sets(others, named))
    by_id = {**fresh, **others}
    found = []
    for a, b in sorted(candidates):
        (dup_a, near_a), (dup_b, near_b) = sets[a], sets[b]
        duplicate = _score(dup_a, dup_b, THRESHOLDS[0])
        near = _score(near_a, near_b, THRESHOLDS[1])
        if near is not None:
            ents_a, ents_b = named.get(a, set()), named.get(b, set())
            if not (ents_a and ents_b) or jaccard(ents_a, ents_b) < SAME_ENTITIES - 1e-12:
                near = None
        if duplicate is not None or near is not None:
            finding = classify(by_id[a], by_id[b], named, duplicate, near)
            if finding is not None:
                found.append(finding)
    memory.found += found
    memory.flagged.update(pid for pid, passage in fresh.items() if _flagged(passage))
    special = _declared_and_reverted(namespace, memory, live)
    named_in = {x for f in memory.found + special for x in (f.left, f.right)}
    by_id.update(_passages(named_in - by_id.keys()))
    return special, {pid: by_id[pid] for pid in named_in}


def _score(a: set[int], b: set[int], threshold: float) -> float | None:
    if not (a and b):
        return None
    found = jaccard(a, b)
    return found if found >= threshold - 1e-12 else None


def _declared_and_reverted(namespace: str, memory: SearchMemory, live: set[int]) -> list[Finding]:
    """Declared and reverted conflicts, read from the few passages they come from: the flagged ones
    (`_flagged`) and the passages they name (by external id, by commit id, or by title)."""
    flagged = _passages(memory.flagged & live)
    said = {pid: p for pid, p in flagged.items() if "contradicts" in p.declared}
    targets = {str(t) for p in said.values() for t in p.declared["contradicts"]}
    for part in slices(sorted(targets)):
        query = Passage.select(Passage.id).where(
            (Passage.namespace == namespace) & Passage.retired_at.is_null() & Passage.external_id.in_(part)
        )
        said.update(_passages(pid for (pid,) in tuples(query)))
    undoing = {pid: match for pid, p in flagged.items() if (match := REVERT.match(title_of(p.text)))}
    reverts = {pid: flagged[pid] for pid in undoing}
    commits = {pid: conflicts.reverted_commit(p.text) for pid, p in reverts.items()}
    titles = {title_hash(undoing[pid].group(1).strip()) for pid, commit in commits.items() if commit is None}
    named = set(memory.titled(titles)) | _commits(namespace, {c for c in commits.values() if c is not None}, live)
    reverts.update(_passages(named - reverts.keys()))  # what they undo
    return conflicts.declared_conflicts(sorted(said.values(), key=lambda p: p.id)) + conflicts.revert_conflicts(
        sorted(reverts.values(), key=lambda p: p.id)
    )


def _commits(namespace: str, commits: set[str], live: set[int]) -> set[int]:
    """The live passages whose external id is one of these commit ids, in full or abbreviated."""
    found: set[int] = set()
    for commit in sorted(commits):
        spelled = [commit[:end] for end in range(conflicts.SHORT_COMMIT, len(commit) + 1)]
        query = Passage.select(Passage.id, Passage.external_id).where(
            (Passage.namespace == namespace)
            & Passage.retired_at.is_null()
            & (Passage.external_id.in_(spelled) | Passage.external_id.startswith(commit))
        )
        found.update(pid for pid, external_id in tuples(query) if conflicts.is_commit(external_id, commit))
    return found & live


def _single_valued(namespace: str, live: set[int]) -> tuple[list[Finding], dict[int, Live]]:
    """Single-valued conflicts, from the passages with relations of such predicates, and those passages.
    Relations move with folds: read before the pass folds anything."""
    predicates = conflicts.single_valued()
    stated = Relation.select(Relation.passage).where(Relation.active & Relation.predicate.in_(predicates))
    by_id = _passages({pid for (pid,) in tuples(stated)} & live)  # of every namespace: `live` are this one's
    return conflicts.single_valued_conflicts(by_id), by_id


class Named(Mapping):
    """Passage id -> the entities it names, from `named_part`'s arrays, each set made when asked for:
    a second process is handed a store's worth of them and looks at a few thousand."""

    def __init__(self, part: tuple[bytes, bytes, bytes]) -> None:
        ids, self._ends, self._entities = (ints_of(data) for data in part)
        self._at = dict(zip(ids, range(len(ids)), strict=True))

    def __getitem__(self, pid: int) -> set[int]:
        k = self._at[pid]
        return set(self._entities[self._ends[k - 1] if k else 0 : self._ends[k]])

    def __iter__(self) -> Iterator[int]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)


def named_part(named: dict[int, set[int]]) -> tuple[bytes, bytes, bytes]:
    """`named` as three arrays' bytes (ids, ends, entities): quick to hand to another process (`Named`)."""
    ends, entities = array("q", accumulate(map(len, named.values()))), array("q", chain.from_iterable(named.values()))
    return int_bytes(named), ends.tobytes(), entities.tobytes()


def look_alikes_elsewhere(location: str, namespace: str, live: bytes, named: tuple, signatures: tuple) -> tuple | None:
    """`look_alikes` in a second process, on the store at `location` (the pass's, as it left it):
    the look-alikes, the declared and reverted conflicts, the passages they name, and the memory's
    parts to keep (`kept_parts`); None when no memory can be read."""
    database = open_store(location)
    try:
        memory = load(namespace)
        if memory is None:
            return None
        kept_signatures = dict(zip(ints_of(signatures[0]), ints_of(signatures[1]), strict=True))
        special, by_id = look_alikes(namespace, memory, set(ints_of(live)), Named(named), kept_signatures)
        return memory.found, special, by_id, kept_parts(memory)
    finally:
        database.close()


# --- queueing --------------------------------------------------------------------------------------


@dataclass
class Search:
    """A passage search, begun while a pass reads (`begin`) and queued near its end (`finish`). An
    incremental one may run in the pass's second process (`elsewhere`), beside the pass's folds: it
    reads only passages and its memory; the single-valued conflicts, which read relations, are
    found at `begin`."""

    namespace: str
    key: str  # what the findings depend on, read before the search (`_search_key`)
    report: ConflictReport
    live: set[int]
    named: dict[int, set[int]]
    counts: dict[int, int]
    signatures: dict[int, int]
    dry_run: bool
    findings: list[Finding] = field(default_factory=list)
    parts: list[tuple[str, bytes]] = field(default_factory=list)  # the memory's, to keep
    single: list[Finding] | None = None  # the single-valued conflicts, once read (before the pass folds)
    passages: dict[int, Live] = field(default_factory=dict)  # theirs
    pending: Future | None = None  # `look_alikes_elsewhere`'s

    def found(self, found: list[Finding], special: list[Finding], by_id: dict[int, Live]) -> None:
        """The findings made of the look-alikes, the declared and reverted conflicts and the single-valued ones."""
        by_id.update(self.passages)
        if self.single is None:
            raise RuntimeError("the single-valued conflicts are read before a search's findings are made")
        self.findings = assemble(found, special + self.single, by_id, self.named, self.counts, len(self.live))

    def from_memory(self) -> bool:
        """Search in this process, from the memory (False when none can be read)."""
        memory = load(self.namespace)
        if memory is None:
            return False
        special, by_id = look_alikes(self.namespace, memory, self.live, self.named, self.signatures)
        self.found(memory.found, special, by_id)  # as the search left it
        self.parts = kept_parts(memory)
        return True

    def in_full(self) -> None:
        """Compare every live passage with every other, and remember what was found (the single-valued
        conflicts as read, when they were)."""
        passages = conflicts.live_passages(self.namespace)
        kept: list[Kept] = []
        found, self.findings = conflicts.search_all(passages, self.named, self.counts, kept, self.single)
        self.parts = kept_parts(remember_full(passages, self.signatures, found, kept))


def begin(
    namespace: str,
    live: set[int],
    named: dict[int, set[int]],
    counts: dict[int, int],
    signatures: dict[int, int],
    dry_run: bool = False,
    full: bool = False,
    elsewhere: Callable[..., Future | None] = lambda *_: None,
) -> Search:
    """Search the passages for conflicts (`finish` queues what it finds). `live`: the live passages'
    ids; `named`: passage id -> the entities its active mentions name, for every live passage naming
    any; `counts`: entity id -> how many of those name it; `signatures`: `pass_memory.passage_signatures`;
    `elsewhere(fn, *args)`: a future of fn(*args) run in another process, or None (run here).

    The search is skipped when the namespace's graph version, the detector's code and its settings
    are what they were when it last ran (`full` searches anyway): every finding it could make was
    asked then, and every write that retires, restores, adds or re-links a passage, or renames or
    folds an entity, moves the graph version. Otherwise only what changed is searched, unless
    `full` or nothing usable is remembered."""
    key = _search_key(namespace)  # read before the search: a write meanwhile makes the next one search again
    search = Search(namespace, key, ConflictReport(), live, named, counts, signatures, dry_run)
    if not (full or dry_run) and _last_search(namespace) == key:
        search.report.unchanged = True  # nothing a search reads has changed since it last ran: it would find no more
        return search
    if not full and remembered(namespace):
        search.single, search.passages = _single_valued(namespace, live)
        location = bound_location()
        if location is not None:
            signatures_part = (int_bytes(signatures), int_bytes(signatures.values()))
            search.pending = elsewhere(
                look_alikes_elsewhere, location, namespace, int_bytes(live), named_part(named),
                signatures_part,
            )  # fmt: skip
            if search.pending is not None:
                return search
        if search.from_memory():
            return search
    search.in_full()
    return search


def finish(search: Search) -> ConflictReport:
    """Queue every new finding of the search beside the entity questions (no cap); settle questions
    whose passage is gone as moot. A pair asked before, however it was answered, is not asked again."""
    report, namespace, live = search.report, search.namespace, search.live
    if report.unchanged:
        return report
    if search.pending is not None:
        try:
            done = search.pending.result()
        except Exception:  # the second process could not search (its store, its memory, the process itself)
            done = None
        if done is not None:
            found, special, by_id, search.parts = done
            search.found(found, special, by_id)
        elif not search.from_memory():  # here (it reads passages and its memory: no fold moved them)
            search.in_full()  # or in full, with the single-valued conflicts read before the pass folded
    asked = Question.select(Question.id, Question.left_id, Question.right_id, Question.status).where(
        (Question.namespace == namespace) & Question.kind.in_(PASSAGE_KINDS)
    )
    seen = set()
    report.passages = len(live)
    moot = []
    for qid, left, right, status in tuples(asked):
        seen.add(frozenset((left, right)))
        if status == "pending" and not (left in live and right in live):
            moot.append(qid)
    report.moot = len(moot)
    new = []
    for finding in search.findings:
        if frozenset((finding.left, finding.right)) in seen:
            report.skipped_settled += 1
        else:
            new.append(finding)
    report.duplicates = sum(f.kind == DUPLICATE for f in new)
    report.contradictions = sum(f.kind == CONTRADICTION for f in new)
    report.findings = new
    if search.dry_run:
        return report
    from memo_tui.engine.review.decisions import settle_moot

    for qid in moot:
        settle_moot(namespace, qid, "auto", "auto", why="a passage is no longer live")
    now = utcnow()
    rows = [
        {
            "namespace": namespace,
            "kind": f.kind,
            "left_id": f.left,
            "right_id": f.right,
            "left_name": f.left_name,
            "right_name": f.right_name,
            "score": round(f.score, 3),
            "rule": f.rule,
            "pattern": f.rule.split(":", 1)[0],
            "reason": f.reason,
            "impact": f.impact,
            "likelihood": conflict_likelihood(f.rule),
            "priority": yield_of(conflict_likelihood(f.rule), f.impact),
            "created_at": now,
        }
        for f in new
    ]
    with writing(namespace):
        for start in range(0, len(rows), 500):
            Question.insert_many(rows[start : start + 500]).execute()
        Meta.insert(key=_SEARCHED.format(namespace), value=search.key).on_conflict(
            conflict_target=[Meta.key], update={Meta.value: search.key}
        ).execute()
    save(namespace, search.parts)
    return report


_SEARCHED = "conflicts-searched:{}"
_DETECTOR = f"{FORMAT}:memo-tui-{__version__}"  # another detector finds other things


def _search_key(namespace: str) -> str:
    """What a search's findings depend on: the graph version, the detector's code, its settings."""
    settings = hashlib.sha1(json.dumps(section("conflicts"), sort_keys=True, default=str).encode()).hexdigest()[:12]
    return f"{graph_version(namespace)}:{_DETECTOR}:{settings}"


def _last_search(namespace: str) -> str | None:
    row = Meta.get_or_none(Meta.key == _SEARCHED.format(namespace))
    return row.value if row else None

"""What the last resolution pass saw of a namespace, kept in the store, so that the next one does
again only what its changes call for (incremental resolution): the names (`name_memory`: their
tokens and verdicts), and of the evidence, which entities' passages and which passages' names are
what they were, the asks kept by what their evidence was made of, and the hopeless ones left unread.

It is kept in the store (`PassMemory`) in parts, each a marshalled value (quick to read and write
whole; `memo_tui.runtime.codec` describes the formats), all written in one transaction at the end of
a pass. Each part carries a tag naming the format (`FORMAT`: raised by any change to what is kept or
to the rules that made it), the release and the Python that wrote it (marshal's format is Python's
own); a part with another tag is never read, and the pass is then a full one.
"""

from __future__ import annotations

import hashlib
import os
import sys
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib.metadata import version
from itertools import compress
from operator import eq, ne, not_
from typing import NamedTuple

from peewee import EXCLUDED

from memo_tui import __version__
from memo_tui.engine.graph.opening import open_store
from memo_tui.errors import MemoError
from memo_tui.names import evidence, rules
from memo_tui.names.name_memory import Changes, Pair, drop_verdicts, judge_all, judge_changes
from memo_tui.runtime import codec
from memo_tui.runtime.codec import int_bytes, ints_of
from memo_tui.runtime.processes import second_process
from memo_tui.store import Entity, PassMemory, db
from memo_tui.store.connect import bound_location
from memo_tui.store.rows import tuples

FORMAT = 5  # raise it with any change to the parts, or to the keys, rules and blocking that make them
# an ask's key in the evidence memory: (rule, impact, what its evidence was made of, or None for a
# hopeless ask left unread, whether a passage named both sides)
Kept = tuple[str, int, tuple | None, bool]


def _tag() -> str:
    python = ".".join(map(str, sys.version_info[:2]))
    return f"{FORMAT}:memo-tui-{__version__}:wordfreq-{version('wordfreq')}:python-{python}"


def kept(namespace: str, part: str, tag: str):
    """The value a pass kept under this part of the memory, or None (nothing kept, or another tag)."""
    data = _kept_data(namespace, part, tag)
    return None if data is None else codec.loads(data)


def is_kept(namespace: str, part: str, tag: str) -> bool:
    """Whether `_kept_data` would find the part (its rows' tags read, not their data)."""
    head = PassMemory.select(PassMemory.tag).where(PassMemory.key == _row_key(namespace, part, 0)).scalar()
    if head is None or head == tag:
        return head is not None
    first, rows = _rows_of(head)
    more = [_row_key(namespace, part, at) for at in range(1, rows)]
    return first == tag and PassMemory.select().where(PassMemory.key.in_(more)).count() == len(more)


def _kept_data(namespace: str, part: str, tag: str) -> bytes | bytearray | None:
    """The part's marshalled value, from its rows (`keep`), or None."""
    row = PassMemory.get_or_none(PassMemory.key == f"{part}:{namespace}")
    if row is None:
        return None
    if row.tag == tag:
        return bytes(row.data)
    head, rows = _rows_of(row.tag)
    if head != tag:
        return None
    data = bytearray(row.data)
    for at in range(1, rows):
        more = PassMemory.get_or_none(PassMemory.key == _row_key(namespace, part, at))
        if more is None:
            return None
        data += more.data
    return data


CHUNK = 1 << 24  # bytes a row holds: the driver copies what it writes, and SQLite the row it makes


def keep(namespace: str, part: str, tag: str, value) -> None:
    """Write a part's value (marshalled: `keep_data`)."""
    keep_data(namespace, part, tag, codec.dumps(value))


def keep_data(namespace: str, part: str, tag: str, marshalled: bytes) -> None:
    """Write a part's marshalled value as one row, or as rows of CHUNK bytes (the first one's tag says
    how many); the rows a longer value of the part left are deleted."""
    data = memoryview(marshalled)
    count = max(1, -(-len(data) // CHUNK))
    before = PassMemory.select(PassMemory.tag).where(PassMemory.key == _row_key(namespace, part, 0)).scalar()
    for at in range(count):
        key, chunk = _row_key(namespace, part, at), data[at * CHUNK : (at + 1) * CHUNK]
        PassMemory.insert(key=key, tag=tag if count == 1 else f"{tag}#{count}", data=chunk).on_conflict(
            conflict_target=[PassMemory.key], update={PassMemory.tag: EXCLUDED.tag, PassMemory.data: EXCLUDED.data}
        ).execute()  # each value bound once
    left = [_row_key(namespace, part, at) for at in range(count, _rows_of(before)[1] if before else 0)]
    if left:
        PassMemory.delete().where(PassMemory.key.in_(left)).execute()


STAGED = "next-"  # a part written before the save that keeps it (`stage`)


def stage(namespace: str, part: str, tag: str, marshalled: bytes) -> None:
    """Write a part's value ahead of the save, where no pass reads it: a large pass need not hold it
    until its end (the names part of a million names is a quarter of a GB). `_unstage`, in the save's
    transaction, makes it the part; a pass that stops first leaves it to be written over."""
    keep_data(namespace, STAGED + part, tag, marshalled)


def _unstage(namespace: str, part: str) -> None:
    """Make the part staged by this pass the kept one, in place of what the part held."""
    first = _row_key(namespace, STAGED + part, 0)
    tag = PassMemory.select(PassMemory.tag).where(PassMemory.key == first).scalar()
    before = PassMemory.select(PassMemory.tag).where(PassMemory.key == _row_key(namespace, part, 0)).scalar()
    rows, held = _rows_of(tag)[1], _rows_of(before)[1] if before else 0
    PassMemory.delete().where(PassMemory.key.in_([_row_key(namespace, part, at) for at in range(held)])).execute()
    for at in range(rows):
        PassMemory.update(key=_row_key(namespace, part, at)).where(
            PassMemory.key == _row_key(namespace, STAGED + part, at)
        ).execute()


def _drop_staged(namespace: str) -> None:
    _delete_rows(namespace, lambda key: key.startswith(STAGED))


def _delete_rows(namespace: str, chosen: Callable[[str], bool] = lambda _: True) -> None:
    """Delete the namespace's rows whose key is `chosen`: its own only (a pattern would take those of
    a namespace named like it, in another case or holding wildcards)."""
    keys = tuples(PassMemory.select(PassMemory.key).where(PassMemory.key.contains(f":{namespace}")))
    mine = [key for (key,) in keys if key.partition(":")[2] == namespace and chosen(key)]
    for start in range(0, len(mine), 500):
        PassMemory.delete().where(PassMemory.key.in_(mine[start : start + 500])).execute()


def _row_key(namespace: str, part: str, at: int) -> str:
    return f"{part}:{namespace}" if at == 0 else f"{part}#{at}:{namespace}"


def _rows_of(tag: str) -> tuple[str, int]:
    """A first row's tag without its count of rows, and that count."""
    head, mark, count = tag.rpartition("#")
    return (head, int(count)) if mark and count.isdigit() else (tag, 1)


def _save_names(namespace: str, recent: dict[Pair, tuple], changes: Changes) -> None:
    """Between rebuilds only what changed since the base is written: names learned and forgotten,
    and their verdicts (`recent`: `Judged.recent`)."""
    if changes.staged:  # a names part written anew, and the verdicts with it (`Judging`)
        _unstage(namespace, "names")
        _unstage(namespace, "verdicts")
    keep(namespace, "learned", _tag(), (int_bytes(changes.forgotten), changes.learned, recent))


class PairList:
    """Pairs of entity ids (low, high) as two arrays: quick to keep, and to sift by the ids they touch
    (the sifting runs in C: a pass keeps hundreds of thousands of them)."""

    def __init__(self, lows: Iterable[int] = (), highs: Iterable[int] = ()) -> None:
        self.lows, self.highs = array("q", lows), array("q", highs)

    def __len__(self) -> int:
        return len(self.lows)

    def __iter__(self) -> Iterator[Pair]:
        return zip(self.lows, self.highs, strict=True)

    def append(self, pair: Pair) -> None:
        self.lows.append(pair[0])
        self.highs.append(pair[1])

    def touching(self, ids: set[int]) -> list[int]:
        """The places of the pairs with a side among `ids`, ascending."""
        if not ids:
            return []
        places = range(len(self.lows))
        hits = set(compress(places, map(ids.__contains__, self.lows)))
        hits.update(compress(places, map(ids.__contains__, self.highs)))
        return sorted(hits)

    def among(self, pairs) -> list[int]:
        """The places of the pairs that are among `pairs` (a set or dict of them), ascending."""
        return list(compress(range(len(self.lows)), map(pairs.__contains__, zip(self.lows, self.highs, strict=True))))

    def leaving(self, ids: set[int]) -> list[int]:
        """The places of the pairs with a side not among `ids`, ascending."""
        places = range(len(self.lows))
        hits = set(compress(places, map(not_, map(ids.__contains__, self.lows))))
        hits.update(compress(places, map(not_, map(ids.__contains__, self.highs))))
        return sorted(hits)

    def without(self, places: list[int]) -> PairList:
        if not places:
            return self
        keep_ = bytearray(b"\x01") * len(self.lows)
        for at in places:
            keep_[at] = 0
        return PairList(compress(self.lows, keep_), compress(self.highs, keep_))

    def dumps(self) -> tuple[array, array]:
        """The two arrays, as marshal writes them (as their bytes: no copy of them is made first)."""
        return self.lows, self.highs

    @classmethod
    def loads(cls, value: tuple[bytes, bytes]) -> PairList:
        pairs = cls()
        pairs.lows, pairs.highs = ints_of(value[0]), ints_of(value[1])  # as read: not copied
        return pairs


class Sweep:
    """Lists of pairs by key (`Known.kept`'s), swept as one for the pairs that touch a set of ids: a
    pass keeps thousands of keys, most of a few pairs, and a sweep of each list cost more than its
    pairs did."""

    def __init__(self, groups: dict) -> None:
        self._keys, self._ends, self._all = list(groups), array("q"), PairList()
        for pairs in groups.values():
            self._all.lows.extend(pairs.lows)
            self._all.highs.extend(pairs.highs)
            self._ends.append(len(self._all))

    def touching(self, ids: set[int]) -> dict:
        """Key -> the places in its list of the pairs with a side among `ids`, ascending (`PairList.touching`);
        a key with none is left out."""
        return self._by_key(self._all.touching(ids))

    def leaving(self, ids: set[int]) -> dict:
        """Key -> the places in its list of the pairs with a side not among `ids` (`PairList.leaving`)."""
        return self._by_key(self._all.leaving(ids))

    def among(self, pairs) -> dict:
        """Key -> the places in its list of the pairs among `pairs` (`PairList.among`)."""
        return self._by_key(self._all.among(pairs))

    def _by_key(self, hits: list[int]) -> dict:
        out: dict = {}
        keys, ends = self._keys, self._ends
        k, start = -1, 0
        places: list[int] = []
        for at in hits:
            if k < 0 or at >= ends[k]:  # the next key with a place (the places ascend)
                k = bisect_right(ends, at)
                start, places = ends[k - 1] if k else 0, []
                out[keys[k]] = places
            places.append(at - start)
        return out


class Signatures(NamedTuple):
    """Entity ids and the signatures of their passages, as two arrays: a million entities are held
    to the end of a pass, a fifth of the room a dict of them takes."""

    ids: array
    values: array

    @classmethod
    def of(cls, passages: dict[int, frozenset[int]]) -> Signatures:
        return cls(array("q", passages), array("q", each_signature(passages.values())))

    def as_dict(self) -> dict[int, int]:
        return dict(zip(self.ids, self.values, strict=True))


@dataclass
class Known:
    """The evidence layer's memory of the last pass: each entity's passages and each passage's
    entities as signatures (a hash of the ids); and the asks it visited, by what their
    evidence was made of.

    While an entity's passages stand, a pair of two such shares no passage still, so a hopeless rule
    stays hopeless without its facts being read. While moreover no passage of either side names
    other entities than it did, the two neighbourhoods are what they were and still share nothing:
    the evidence is what it was but for the prior, which the store's answers move (no rarity enters
    it, so no count elsewhere in the store can change it). Such asks are kept by that key (`kept`),
    and a pass reads only those whose key no longer holds."""

    entities: Signatures  # of the live passages naming each entity
    passages: dict[int, int]  # passage id -> the hash of the entities it names
    weighed: dict[Pair, tuple]  # of the pairs in fold groups, what their evidence was made of (as in `Kept`)
    kept: dict[Kept, PairList] = field(default_factory=dict)  # the asks kept by key
    # the other pairs with a verdict that the last pass visited; None: it kept none of this (visit them all)
    rest: PairList | None = None

    @classmethod
    def nothing(cls) -> Known:
        return cls(Signatures(array("q"), array("q")), {}, {})

    def standing(self, now: Signatures) -> set[int]:
        """The entities whose passages are what they were."""
        kept_ = self.entities.as_dict()
        return set(compress(now.ids, map(eq, map(kept_.get, now.ids), now.values)))

    def settled(self, standing: set[int], now: dict[int, int], named: dict[int, set[int]]) -> set[int]:
        """Of those, the ones none of whose passages names other entities than it did."""
        changed = compress(now, map(ne, map(self.passages.get, now), now.values()))
        return standing.difference(*map(named.__getitem__, changed))


def add_pair(groups: dict, key, pair: Pair) -> None:
    """Append a pair to its key's list, made when the key first comes (not once a pair)."""
    pairs = groups.get(key)
    if pairs is None:
        pairs = groups[key] = PairList()
    pairs.append(pair)


def joined(*parts: dict[Kept, PairList]) -> dict[Kept, PairList]:
    """The kept asks of every part, by key."""
    out: dict[Kept, PairList] = {}
    for part in parts:
        for key, pairs in part.items():
            have = out.get(key)
            out[key] = pairs if have is None else PairList(have.lows + pairs.lows, have.highs + pairs.highs)
    return out


def signature_of(ids: Iterable[int]) -> int:
    """The hash of a set of ids: the same in every process (Python salts the hashes of text only)."""
    return hash(frozenset(ids))


def each_signature(sets: Iterable[Iterable[int]]) -> Iterator[int]:
    """`signature_of` each set, in C (a pass signs every entity's passages and every passage's entities)."""
    return map(hash, map(frozenset, sets))


def passage_signatures(named: dict[int, set[int]]) -> dict[int, int]:
    """Passage id -> the signature of the entities it names."""
    return dict(zip(named, each_signature(named.values()), strict=True))


def _evidence_tag() -> str:
    """The names' tag and the calibration that weighed what evidence is kept (whichever file the pass reads)."""
    calibration = hashlib.sha1(repr(evidence.calibration()).encode()).hexdigest()[:12]
    return f"{_tag()}:{calibration}"


def load_known(namespace: str) -> Known:
    """What the last pass knew (nothing, when it kept nothing or other code wrote it)."""
    value = kept(namespace, "evidence", _evidence_tag())
    if value is None:
        return Known.nothing()
    entities, passages, weighed, kept_, rest = value
    return Known(
        Signatures(ints_of(entities[0]), ints_of(entities[1])),
        _signatures_of(passages),
        weighed,
        {key: PairList.loads(v) for key, v in kept_},
        PairList.loads(rest),
    )


def _signatures_dumps(signatures: dict[int, int]) -> tuple[array, array]:
    """Ids and signatures as two arrays (marshal writes their bytes): marshalling a dict of numbers
    holds a table of every one shared with the rest of the pass."""
    return array("q", signatures), array("q", signatures.values())


def _signatures_of(dumped: tuple[bytes, bytes]) -> dict[int, int]:
    return dict(zip(ints_of(dumped[0]), ints_of(dumped[1]), strict=True))


def save(namespace: str, found: Judged, known: Known) -> None:
    """Keep what this pass saw of the names and of the evidence, in one transaction: the next pass
    trusts the one because the other was written with it (a pass that stops early keeps neither)."""
    changes = found.changes
    with db.atomic():
        if not changes.keepable:  # a name holds the separator (never one the extractor makes): its
            drop(namespace)  # passes are full ones
            return
        if changes.fresh or changes.stale:  # names folded away since: worth writing down too
            _save_names(namespace, found.recent, changes)
        _drop_staged(namespace)  # what a pass that stopped before its save staged
        words = changes.words | rules.known_frequencies()  # the second process's and this one's
        if len(words) > found.words_kept:
            keep(namespace, "words", _tag(), words)
        # the pairs as a list: marshal sorts a set's items, work a list is spared
        kept_ = [(key, pairs.dumps()) for key, pairs in known.kept.items() if pairs]
        rest = (known.rest or PairList()).dumps()
        entities, passages = tuple(known.entities), _signatures_dumps(known.passages)
        value = (entities, passages, known.weighed, kept_, rest)
        keep(namespace, "evidence", _evidence_tag(), value)


def drop(namespace: str) -> None:
    _delete_rows(namespace)


def _judge_changes_at(location: str, namespace: str, tag: str, learned_part: bytes | bytearray, rows_part: bytes,
                      words: dict[str, float]) -> Changes | None:  # fmt: skip
    """`judge_changes` in a second process, which reads the names part from the pass's store (at
    `location`, as the pass opened it): the pass need not read it and hand it over (35 MB at 160,000
    names). None when it is not there."""
    database = open_store(location)
    try:
        names_part = _kept_data(namespace, "names", tag)
    finally:
        database.close()
    return None if names_part is None else judge_changes(names_part, learned_part, rows_part, words)


def ready() -> None:
    """Nothing: a second process that will judge runs it first, so that it has imported this module
    (and what it judges with) before the names are handed over."""


@dataclass
class Judged:
    """The verdicts a pass works from: every pair of live names that is not a plain no."""

    verdicts: dict[Pair, tuple[str, float, str]]  # (low id, high id) -> a fold or ask `Verdict`'s fields, no reason
    judged: int  # pairs the rules looked at in this pass
    rejected: int  # of those, plain noes
    changed: int  # names new or renamed since the last pass (every name on a full pass)
    incremental: bool
    fresh: set[int]  # their ids, when judged against the memory (a full judging sets them against none: empty)
    changes: Changes  # what `save` keeps of the names
    words_kept: int = 0  # word frequencies the memory held: `save` writes them again only when there are more
    recent: dict[Pair, tuple] = field(default_factory=dict)  # the verdicts touching a name learned since the base


PARALLEL_MIN = 50_000  # a namespace's names from which they are judged in a second process, beside the pass's reads


class Judging:
    """Block and judge the namespace's names: only the pairs that touch a name the last pass did not
    see as it is now, unless `full` or nothing usable is kept.

    On a large store the work runs in a second process (it reads only the names' memory: the names
    part from the store, where the pass opened it, the others handed over as they are stored),
    started on entering, so that it has started up by the time the caller has read the names and
    hands them over (`judge`); the caller reads the rest of the store meanwhile, and `result()` waits
    for it (`save` keeps what it found, with the evidence, at the end of the pass). A full pass
    judges when handed the names, before the caller's reads: its names and indexes, the peak of a
    pass, are let go before the mention sets are built. A names part made anew is staged at once
    when the pass `writes`, and the verdicts with it once they are all known (a dry run writes nothing)."""

    def __init__(self, namespace: str, full: bool, writes: bool) -> None:
        self._namespace, self._writes = namespace, writes
        self._rows: list[tuple[int, str, str | None]] = []
        self._tag = tag = _tag()
        # the names part, the largest, is read where the names are judged (`_judge_changes_at`)
        learned, verdicts = (None, None) if full else (_kept_data(namespace, p, tag) for p in ("learned", "verdicts"))
        self._parts = (
            (learned, verdicts)
            if learned is not None and verdicts is not None and is_kept(namespace, "names", tag)
            else None
        )
        self._words = kept(namespace, "words", tag) or {}  # a full pass may use them too: the same wordfreq
        rules.learn_frequencies(self._words)  # for the names the pass judges itself (fold groups)
        self._pool: ProcessPoolExecutor | None = None
        self._future: Future[Changes] | Future[Changes | None] | None = None
        self._kept_verdicts: tuple[dict[Pair, tuple], bytes, dict[Pair, tuple]] | None = None
        self._all: Changes | None = None

    def __enter__(self) -> Judging:
        if self._parts is not None and (os.cpu_count() or 1) >= 2:
            if Entity.select().where(Entity.namespace == self._namespace).count() >= PARALLEL_MIN:
                self._pool = second_process()
                self._pool.submit(ready)  # it starts, and imports what it judges with
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def judge(self, rows: list[tuple[int, str, str | None]]) -> None:
        """Start judging the namespace's names (`rows`: id, name, type, in id order)."""
        self._rows = rows
        if self._parts is None:
            self._all = judge_all(rows, self._stage if self._writes else None)
            self._stage_verdicts(self._all, self._all.said)
        elif self._pool is not None:
            # the rows marshalled: plain values cost a second process less to take than pickled ones
            rows_part, location = codec.dumps(rows), bound_location()
            learned, words = self._parts[0], self._words
            if location is None:  # a store only this process sees
                self._future = self._pool.submit(judge_changes, self._names_part(), learned, rows_part, words)
            else:
                args = (location, self._namespace, self._tag, learned, rows_part, words)
                self._future = self._pool.submit(_judge_changes_at, *args)

    def _names_part(self) -> bytes | bytearray:
        names = _kept_data(self._namespace, "names", self._tag)
        if names is None:
            raise MemoError("the pass memory was dropped while the pass ran; run the pass again")
        return names

    def busy(self) -> bool:
        """Whether the names are being judged in the second process still."""
        return self._future is not None and not self._future.done()

    def _kept(self) -> tuple[dict[Pair, tuple], bytes, dict[Pair, tuple]]:
        """The verdicts the memory holds: the base's, the ids of its names forgotten since, and the
        verdicts touching the names learned since (read once)."""
        if self._kept_verdicts is None:
            learned, verdicts = self._memory()
            forgotten, _, recent = codec.loads(learned)
            self._kept_verdicts = codec.loads(verdicts), forgotten, recent
        return self._kept_verdicts

    def _memory(self) -> tuple[bytes | bytearray, bytes | bytearray]:
        """The learned and verdicts parts an incremental judging reads (`result` lets them go)."""
        if self._parts is None:
            raise RuntimeError("no pass memory: the names were judged in full, or their result was taken")
        return self._parts

    def remembered(self) -> Callable[[Pair], tuple | None]:
        """The verdict the memory holds for a pair, as the last pass left it (before this one's judging)."""
        verdicts, _, recent = self._kept()
        return lambda pair: recent.get(pair) or verdicts.get(pair)

    def elsewhere(self, fn, *args) -> Future | None:
        """A future of fn(*args) run in the second process once it has judged the names (it runs the
        tasks it is handed in turn), or None when the pass has no second process."""
        return None if self._pool is None else self._pool.submit(fn, *args)

    @property
    def incremental(self) -> bool:
        """Whether the names are judged against the memory (else every name is: the evidence memory
        is then not read either, as nothing says which names it saw)."""
        return self._parts is not None

    def _stage(self, names_part: bytes) -> None:
        stage(self._namespace, "names", _tag(), names_part)

    def _staged(self, changes: Changes) -> Changes:
        """The names part made anew, written ahead when the pass writes, and let go."""
        if changes.base is not None and self._writes:
            self._stage(changes.base)
            changes.base, changes.staged = None, True
        return changes

    def _stage_verdicts(self, changes: Changes, verdicts: dict[Pair, tuple]) -> None:
        """With a names part staged, the verdicts it goes with, once they are all known: marshalled
        here, where the pass holds the least, not at the save (millions of them take a tenth of a GB
        to marshal)."""
        if changes.staged:
            stage(self._namespace, "verdicts", _tag(), codec.dumps(verdicts))

    def result(self) -> Judged:
        if self._all is not None:
            changes, self._all = self._all, None
            return Judged(changes.said, changes.judged, changes.rejected, len(changes.fresh), False, set(), changes,
                          len(self._words))  # fmt: skip
        learned_part = self._memory()[0]
        verdicts, forgotten, recent = self._kept()
        found = None
        if self._future is not None:
            try:
                found = self._future.result()  # None: the second process found no names part
            except Exception:  # it could not judge them (its store, the process itself): here, then
                found = None
        if found is None:
            found = judge_changes(self._names_part(), learned_part, codec.dumps(self._rows), self._words)
        self._parts = self._kept_verdicts = None  # tens of MB on a large store: let go once read
        changes = self._staged(found)
        # less those of names forgotten since the base or stale now (one sweep of the base's); then this pass's
        stale = set(changes.stale)
        drop_verdicts(verdicts, set(ints_of(forgotten)) | stale)
        drop_verdicts(recent, stale)
        verdicts.update(recent)
        verdicts.update(changes.said)
        self._stage_verdicts(changes, verdicts)
        fresh = set(changes.fresh)
        # the verdicts touching a name learned since the base: the base's touch none (a name learned
        # anew was forgotten from it first, and ids are never given twice), so they are the recent
        # ones that stand and this pass's (each touches a name judged anew, which it learned)
        recent.update(changes.said)
        return Judged(verdicts, changes.judged, changes.rejected, len(fresh), True, fresh, changes, len(self._words),
                      recent if changes.learned else {})  # fmt: skip

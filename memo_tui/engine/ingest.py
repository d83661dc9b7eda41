"""Sources -> passages -> mentions.

Writes are batched: one transaction per chunk of passages, so a passage and its mentions land
together or not at all, and entity lookups go through a per-run cache.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial
from operator import itemgetter
from typing import BinaryIO, NamedTuple

from memo_tui.engine.graph.entities import EntityCache
from memo_tui.engine.graph.links import Linker, weights_of
from memo_tui.engine.graph.passages import retire
from memo_tui.engine.review.decisions import not_names, settle_questions_of_passage
from memo_tui.errors import MemoError
from memo_tui.names.extract import WEIGHTS, Extracted, extract
from memo_tui.names.keys import identity_key
from memo_tui.names.prose import KnownSpellings
from memo_tui.runtime import codec
from memo_tui.runtime.processes import second_process
from memo_tui.store import Mention, Passage, Relation, bump_version, graph_version, utcnow
from memo_tui.store.connect import failure, store_errors
from memo_tui.store.locks import writing
from memo_tui.store.queries import live_passages_by_external_id
from memo_tui.store.statements import Inserter, bulk_write_cache, paused_gc, refresh_statistics
from memo_tui.text.sources import PassageRecord, SourceFile, walk

# passages a transaction: each commit writes out every index page its mentions touched (scattered by
# entity), so fewer, larger transactions write each page out fewer times
CHUNK = 2000
PARALLEL_MIN = 5000
# records read from files before they are written: a folder of notes is many small files, and one
# write a file (a transaction, a read of every known name) would pay that overhead for every small file
HELD = 20_000


@dataclass
class IngestReport:
    """What an ingest did; `errors` holds one `path:line: what is wrong` line per skipped item."""

    files: int = 0
    passages_new: int = 0
    passages_unchanged: int = 0
    passages_revised: int = 0
    passages_retired: int = 0
    mentions: int = 0
    relations: int = 0
    entities_new: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def ingest_paths(
    namespace: str,
    paths: list[str],
    strict: bool = False,
    stdin: BinaryIO | None = None,
    progress: Callable[[int, int], None] | None = None,
    author: str | None = None,
) -> IngestReport:
    """Ingest files, directories and '-' (standard input). `progress(done, total)` is called per chunk.
    `author`: who wrote the markdown and text files whose front matter names no author."""
    report = IngestReport()
    writer = PassageWriter(namespace, report)
    held: list[PassageRecord] = []
    # reading a file makes its records, a few objects each and no cycles: the collector would sweep
    # them over and over and free nothing
    with paused_gc():
        for source in walk(paths, stdin=stdin, author=author):
            report.files += 1
            _report_errors(source, strict, report)
            if source.errors and strict:
                continue
            held.extend(source.records)
            if len(held) >= HELD:
                _write(writer, held, progress, report)
                held = []
        if held:
            _write(writer, held, progress, report)
    return report


def _write(writer: PassageWriter, records: list[PassageRecord], progress, report: IngestReport) -> None:
    try:
        writer.write(records, progress)
    except store_errors() as exc:  # a full disk, say: what is committed stays, and is said
        raise MemoError(
            f"store error: {failure(exc)}; committed before it: {report.passages_new} new and "
            f"{report.passages_revised} revised passages (an ingest again keeps them and goes on)"
        ) from exc


def _report_errors(source: SourceFile, strict: bool, report: IngestReport) -> None:
    report.errors.extend(source.errors)
    report.skipped += len(source.errors)
    if source.errors and strict and source.records:
        report.errors.append(f"{source.path}: --strict: none of its {len(source.records)} good passages ingested")
        report.skipped += len(source.records)


def ingest_records(namespace: str, records: Iterable[PassageRecord]) -> IngestReport:
    """Ingest records built in code (tests, the demo, benchmarks)."""
    report = IngestReport()
    PassageWriter(namespace, report).write(list(records))
    return report


def forget(namespace: str, external_id: str) -> int:
    """Retire the live passage with this id; returns its row id."""
    with writing(namespace):
        passage = Passage.get_or_none(
            (Passage.namespace == namespace) & (Passage.external_id == external_id) & (Passage.retired_at.is_null())
        )
        if passage is None:
            raise MemoError(f"no live passage with id {external_id!r} in namespace {namespace!r}")
        retire(passage.id)
        settle_questions_of_passage(namespace, passage.id, "auto")
        bump_version(namespace)
    return passage.id


_CHUNK_COUNTS = ("passages_new", "passages_unchanged", "passages_revised", "passages_retired", "mentions", "relations")


class PassageWriter:
    """Writes passage records for one namespace, one transaction a chunk."""

    def __init__(self, namespace: str, report: IngestReport) -> None:
        self.namespace = namespace
        self.report = report
        self.entities = EntityCache(namespace)
        self.linker = Linker()
        self._retired: set[int] = set()  # the passages retired in the chunk being written
        self._not_names: frozenset[str] = frozenset()  # spellings a reviewer said are no names
        self._version: int | None = None  # the graph version the caches were filled at
        self._passages = Inserter(
            Passage,
            ("namespace", "external_id", "text", "source", "created_at", "ingested_at", "revision_of", "declared"),
        )
        self._mentions = Inserter(
            Mention, ("passage", "entity", "surface", "surface_key", "source", "weight", "active")
        )
        self._relations = Inserter(
            Relation, ("src", "predicate", "dst", "src_key", "dst_key", "passage", "confidence", "active")
        )

    def write(self, records: list[PassageRecord], progress: Callable[[int, int], None] | None = None) -> None:
        with paused_gc(), bulk_write_cache():
            self._write(records, progress)
        self.report.entities_new = self.entities.created
        refresh_statistics()

    def _write(self, records: list[PassageRecord], progress: Callable[[int, int], None] | None) -> None:
        records = self._not_stored(records)
        chunks = [records[start : start + CHUNK] for start in range(0, len(records), CHUNK)]
        done = 0
        for chunk, extracted in zip(chunks, extract_chunks(chunks, known_keys(self.namespace)), strict=True):
            before = self.entities.created
            counted = {name: getattr(self.report, name) for name in _CHUNK_COUNTS}
            try:
                with writing(self.namespace):
                    seen = graph_version(self.namespace)
                    if seen != self._version:  # another writer changed the graph: cached ids may be gone
                        self.entities.forget()
                        self.linker.forget()
                    if self._write_chunk(chunk, extracted):
                        bump_version(self.namespace)
                    self._version = graph_version(self.namespace)
            except BaseException:
                self.entities.forget()
                self.linker.forget()
                self.entities.created = before
                self.report.__dict__.update(counted)  # the chunk was rolled back: so is its count
                raise
            done += len(chunk)
            if progress is not None:
                progress(done, len(records))

    def _not_stored(self, records: list[PassageRecord]) -> list[PassageRecord]:
        """The records that are not exact copies of live passages, which are counted unchanged here,
        before anything is extracted: an unchanged folder ingested again costs one read. A record
        whose id comes more than once is kept, for the chunk to write its revisions in order."""
        times = Counter(record.external_id for record in records)
        once = [external_id for external_id, n in times.items() if n == 1]
        live = self._live_passages(once) if once else {}
        kept = []
        for record in records:
            old = live.get(record.external_id)
            if old is not None and old[1] == record.text and old[2] == _declared_json(record):
                self.report.passages_unchanged += 1
            else:
                kept.append(record)
        return kept

    def _write_chunk(self, chunk: list[PassageRecord], extracted: list[list[Extracted]]) -> bool:
        """Write one chunk; True when anything in the store changed."""
        now = utcnow()
        self._retired = set()
        extracted = self._names_only(extracted)
        live = self._live_passages([r.external_id for r in chunk])
        todo = []
        for record, found in zip(chunk, extracted, strict=True):
            declared = _declared_json(record)
            old = live.get(record.external_id)
            if old is not None and old[1] == record.text and old[2] == declared:
                self.report.passages_unchanged += 1
                continue
            live[record.external_id] = (None, record.text, declared)
            todo.append((record, found, declared))
        made = self._prepare_entities([found for _, found, _ in todo])
        live = self._live_passages([record.external_id for record, _, _ in todo])
        mention_rows: list[tuple] = []
        relation_rows: list[tuple] = []
        batch: list[tuple] = []  # (record, found, row) waiting for their ids: one round trip per batch
        batched: set[str] = set()  # their external ids

        def write_batch() -> None:
            for (record, found, row), passage_id in zip(batch, self._passages.ids([r for *_, r in batch]), strict=True):
                live[record.external_id] = (passage_id, record.text, row[7])  # row[7]: declared
                mention_rows.extend(self._mention_rows(passage_id, found))
                relation_rows.extend(self._relation_rows(passage_id, record))
            batch.clear()
            batched.clear()

        for record, found, declared in todo:
            if record.external_id in batched:
                write_batch()  # a second revision in one chunk revises the first: it needs its id
            old = live.get(record.external_id)
            if old is not None:
                self._retire(old[0], now)
                self.report.passages_revised += 1
            else:
                self.report.passages_new += 1
            row = (
                self.namespace,
                record.external_id,
                record.text,
                record.source,
                record.created_at or now,
                now,
                old[0] if old is not None else None,
                declared,
            )
            batch.append((record, found, row))
            batched.add(record.external_id)
            if record.supersedes:  # retires passages as the records come, so the order stays the records'
                write_batch()
                passage_id = live[record.external_id][0]
                for superseded in record.supersedes:
                    target = self._live_passages([superseded]).get(superseded)
                    if target is not None and target[0] != passage_id:
                        self._retire(target[0], now)
        write_batch()
        self._write_mentions(mention_rows)
        self._relations.many(relation_rows)
        # not the passages a second revision in this chunk retired: a retired passage has no links (`unlink`)
        written = (row for row in mention_rows if row[0] not in self._retired)
        self.linker.link(weights_of((row[0], row[1], row[5]) for row in written), made)
        self.report.mentions += len(mention_rows)
        self.report.relations += len(relation_rows)
        return bool(todo)

    def rewrite(self, passages: list[tuple[int, PassageRecord]], extracted: list[list[Extracted]]) -> None:
        """Replace the mentions and relations of stored passages with freshly extracted ones."""
        ids = [passage_id for passage_id, _ in passages]
        extracted = self._names_only(extracted)
        for model in (Mention, Relation):
            for start in range(0, len(ids), CHUNK):
                model.delete().where(model.passage.in_(ids[start : start + CHUNK])).execute()
        self._prepare_entities(extracted)
        mention_rows = [
            row for (pid, _), found in zip(passages, extracted, strict=True) for row in self._mention_rows(pid, found)
        ]
        relation_rows = [row for pid, record in passages for row in self._relation_rows(pid, record)]
        self._write_mentions(mention_rows)
        self._relations.many(relation_rows)
        self.report.mentions += len(mention_rows)
        self.report.relations += len(relation_rows)

    def _names_only(self, extracted: list[list[Extracted]]) -> list[list[Extracted]]:
        """Without the spellings a reviewer said are no names (read in the chunk's transaction)."""
        self._not_names = not_names(self.namespace)
        if not self._not_names:
            return extracted
        return [[m for m in found if m.key not in self._not_names] for found in extracted]

    def _write_mentions(self, rows: list[tuple]) -> None:
        """By entity (a stable sort): the entity index then takes each entity's rows together, its
        pages in order rather than jumped between."""
        self._mentions.many(sorted(rows, key=itemgetter(1)))

    def _prepare_entities(self, extracted: list[list[Extracted]]) -> list[int]:
        """Look up (or create) every entity these mentions need in one go; a declared type wins.
        Returns the ids of the entities created."""
        spellings: dict[str, tuple[str, str | None]] = {}
        for found in extracted:
            for m in found:
                if m.key not in spellings or (m.type and not spellings[m.key][1]):
                    spellings[m.key] = (spellings.get(m.key, (m.surface,))[0], m.type)
        return self.entities.prepare(spellings)

    def _live_passages(self, external_ids: list[str]) -> dict[str, tuple[int, str, str | None]]:
        rows = live_passages_by_external_id(self.namespace, external_ids)
        return {ext: (pid, text, declared) for pid, ext, text, declared in rows}

    def _retire(self, passage_id: int, now) -> None:
        retire(passage_id, now)
        self._retired.add(passage_id)
        settle_questions_of_passage(self.namespace, passage_id, "auto")  # a new revision: moot at once
        self.report.passages_retired += 1

    def _mention_rows(self, passage_id: int, found: list[Extracted]) -> list[tuple]:
        return [
            (
                passage_id,
                self.entities[m.key],
                m.surface,
                m.key,
                m.source,
                m.weight,
                True,
            )
            for m in found
        ]

    def _relation_rows(self, passage_id: int, record: PassageRecord) -> list[tuple]:
        rows = []
        for rel in record.relations:
            src_key, dst_key = identity_key(rel["src"]), identity_key(rel["dst"])
            if src_key and dst_key and not {src_key, dst_key} & self._not_names:
                src, dst = self.entities[src_key], self.entities[dst_key]
                rows.append((src, rel["predicate"], dst, src_key, dst_key, passage_id, rel["confidence"], True))
        return rows


def _declared_json(record: PassageRecord) -> str | None:
    """What a record declares, as its passage stores it."""
    return json.dumps(record.declared(), sort_keys=True) if record.declared() else None


def known_keys(namespace: str) -> list[str]:
    """Identity keys of the namespace's entities and aliases, for prose spellings."""
    from memo_tui.store import Alias, Entity

    rows = Entity.select(Entity.identity_key).where(Entity.namespace == namespace).tuples()
    aliases = Alias.select(Alias.identity_key).where(Alias.namespace == namespace).tuples()
    return [key for (key,) in rows] + [key for (key,) in aliases]


def extract_chunks(chunks: list[list[PassageRecord]], known: list[str]) -> Iterator[list[list[Extracted]]]:
    """Mentions of every record, chunk by chunk: the extractor's, then the prose spellings of the
    names known so far (`known`: the namespace's identity keys, `known_keys`; each chunk's own names
    join them before its prose is read). Large inputs are extracted in a second process, which
    keeps the names known, while this one writes (the two sides are about equal work)."""
    if sum(map(len, chunks)) < PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        spellings = KnownSpellings(known)
        for chunk in chunks:
            yield _extract_chunk(chunk, spellings)
        return
    # one worker: it sees the chunks in order, as the names known grow. Both ways the chunks go
    # marshalled, as plain values: pickling records and named tuples costs each process far more
    with second_process(_start_extracting, known) as pool:
        for found in pool.map(_extract_next, map(_readable_part, chunks)):
            yield [list(map(_as_extracted, mentions)) for mentions in codec.loads(found)]


class _Readable(NamedTuple):
    """What extraction reads of a record (`_mentions_of`), as the extraction process is handed it."""

    text: str
    entities: list[dict]
    relations: list[dict]
    tags: list[str]


def _readable_part(chunk: list[PassageRecord]) -> bytes:
    return codec.dumps([(r.text, r.entities, r.relations, r.tags) for r in chunk])


_as_extracted = partial(tuple.__new__, Extracted)  # an Extracted from its fields' plain tuple, as marshal gives it
_KNOWN: list[KnownSpellings] = []  # in the extraction process: the names known so far


def _start_extracting(known: list[str]) -> None:
    _KNOWN.append(KnownSpellings(known))


def _extract_next(part: bytes) -> bytes:
    found = _extract_chunk([_Readable(*fields) for fields in codec.loads(part)], _KNOWN[0])
    return codec.dumps([list(map(tuple, mentions)) for mentions in found])


def _extract_chunk(chunk: list[PassageRecord] | list[_Readable], spellings: KnownSpellings) -> list[list[Extracted]]:
    found = [_mentions_of(record) for record in chunk]
    spellings.add(m.key for mentions in found for m in mentions)
    return [mentions + spellings.mentions(record.text, mentions) for record, mentions in zip(chunk, found, strict=True)]


def _mentions_of(record: PassageRecord | _Readable) -> list[Extracted]:
    """Extracted mentions plus declared entities, tags and relation ends, one per identity key."""
    found: dict[str, Extracted] = {}
    declared = [(e["name"], "declared", e.get("type")) for e in record.entities]
    declared += [(tag, "tag", None) for tag in record.tags]
    for rel in record.relations:
        declared += [(rel["src"], "declared", None), (rel["dst"], "declared", None)]
    for name, source, kind in declared:
        key = identity_key(name)
        if key and key not in found:
            found[key] = Extracted(name.strip(), key, source, WEIGHTS[source], kind)
        elif key and kind and not found[key].type:
            found[key] = Extracted(found[key].surface, key, found[key].source, found[key].weight, kind)
    for mention in extract(record.text):
        found.setdefault(mention.key, mention)
    return list(found.values())

"""Sources -> passages -> mentions (DESIGN §5, §9; issue 2).

Writes are batched: one transaction per chunk of passages, so a passage and its mentions land
together or not at all, and entity lookups go through a per-run cache.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import BinaryIO, Callable, Iterable

from memo_tui.core.entities import EntityCache
from memo_tui.core.errors import MemoError
from memo_tui.core.extract import WEIGHTS, Extracted, extract
from memo_tui.core.keys import identity_key
from memo_tui.core.models import Mention, Passage, Relation, bump_version, db, utcnow
from memo_tui.core.sources import PassageRecord, SourceFile, walk

CHUNK = 500


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
) -> IngestReport:
    """Ingest files, directories and '-' (standard input). `progress(done, total)` is called per chunk."""
    report = IngestReport()
    writer = PassageWriter(namespace, report)
    for source in walk(paths, stdin=stdin):
        report.files += 1
        _report_errors(source, strict, report)
        if source.errors and strict:
            continue
        writer.write(source.records, progress)
    return report


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
    with db.atomic():
        passage = Passage.get_or_none(
            (Passage.namespace == namespace) & (Passage.external_id == external_id) & (Passage.retired_at.is_null())
        )
        if passage is None:
            raise MemoError(f"no live passage with id {external_id!r} in namespace {namespace!r}")
        Passage.update(retired_at=utcnow()).where(Passage.id == passage.id).execute()
        bump_version(namespace)
    return passage.id


class PassageWriter:
    """Writes passage records for one namespace, one transaction a chunk."""

    def __init__(self, namespace: str, report: IngestReport) -> None:
        self.namespace = namespace
        self.report = report
        self.entities = EntityCache(namespace)

    def write(self, records: list[PassageRecord], progress: Callable[[int, int], None] | None = None) -> None:
        for start in range(0, len(records), CHUNK):
            chunk = records[start : start + CHUNK]
            before = self.entities.created
            try:
                with db.atomic():
                    if self._write_chunk(chunk):
                        bump_version(self.namespace)
            except BaseException:
                self.entities.forget()
                self.entities.created = before
                raise
            if progress is not None:
                progress(start + len(chunk), len(records))
        self.report.entities_new = self.entities.created

    def _write_chunk(self, chunk: list[PassageRecord]) -> bool:
        """Write one chunk; True when anything in the store changed."""
        now = utcnow()
        changed = False
        live = self._live_passages([r.external_id for r in chunk])
        extracted = [_mentions_of(record) for record in chunk]
        self.entities.prefetch({m.key for found in extracted for m in found} | _relation_keys(chunk))
        mention_rows: list[dict] = []
        relation_rows: list[dict] = []
        for record, found in zip(chunk, extracted):
            declared = json.dumps(record.declared(), sort_keys=True) if record.declared() else None
            old = live.get(record.external_id)
            if old is not None and old[1] == record.text and old[2] == declared:
                self.report.passages_unchanged += 1
                continue
            changed = True
            if old is not None:
                self._retire(old[0], now)
                self.report.passages_revised += 1
            else:
                self.report.passages_new += 1
            passage_id = Passage.insert(
                namespace=self.namespace,
                external_id=record.external_id,
                text=record.text,
                source=record.source,
                created_at=record.created_at or now,
                ingested_at=now,
                revision_of=old[0] if old is not None else None,
                declared=declared,
            ).execute()
            live[record.external_id] = (passage_id, record.text, declared)
            for superseded in record.supersedes:
                target = self._live_passages([superseded]).get(superseded)
                if target is not None and target[0] != passage_id:
                    self._retire(target[0], now)
            mention_rows.extend(self._mention_rows(passage_id, found))
            relation_rows.extend(self._relation_rows(passage_id, record))
        for start in range(0, len(mention_rows), 2000):
            Mention.insert_many(mention_rows[start : start + 2000]).execute()
        for start in range(0, len(relation_rows), 2000):
            Relation.insert_many(relation_rows[start : start + 2000]).execute()
        self.report.mentions += len(mention_rows)
        self.report.relations += len(relation_rows)
        return changed

    def _live_passages(self, external_ids: list[str]) -> dict[str, tuple[int, str, str | None]]:
        rows = Passage.select(Passage.id, Passage.external_id, Passage.text, Passage.declared).where(
            (Passage.namespace == self.namespace)
            & (Passage.external_id.in_(external_ids))
            & (Passage.retired_at.is_null())
        )
        return {ext: (pid, text, declared) for pid, ext, text, declared in rows.tuples()}

    def _retire(self, passage_id: int, now) -> None:
        Passage.update(retired_at=now).where(Passage.id == passage_id).execute()
        self.report.passages_retired += 1

    def _mention_rows(self, passage_id: int, found: list[Extracted]) -> list[dict]:
        return [
            {
                "passage": passage_id,
                "entity": self.entities.resolve(mention.key, mention.surface, mention.type),
                "surface": mention.surface,
                "surface_key": mention.key,
                "source": mention.source,
                "weight": mention.weight,
                "active": True,
            }
            for mention in found
        ]

    def _relation_rows(self, passage_id: int, record: PassageRecord) -> list[dict]:
        rows = []
        for rel in record.relations:
            src_key, dst_key = identity_key(rel["src"]), identity_key(rel["dst"])
            if not src_key or not dst_key:
                continue
            rows.append(
                {
                    "src": self.entities.resolve(src_key, rel["src"], None),
                    "predicate": rel["predicate"],
                    "dst": self.entities.resolve(dst_key, rel["dst"], None),
                    "src_key": src_key,
                    "dst_key": dst_key,
                    "passage": passage_id,
                    "confidence": rel["confidence"],
                    "active": True,
                }
            )
        return rows


def _mentions_of(record: PassageRecord) -> list[Extracted]:
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


def _relation_keys(chunk: list[PassageRecord]) -> set[str]:
    return {identity_key(rel[end]) for record in chunk for rel in record.relations for end in ("src", "dst")}

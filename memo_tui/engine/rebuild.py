"""Re-extract every live passage of a namespace, keeping folds, aliases and decisions.

Entity rows are kept, so keep-apart pairs and questions, which name entity ids, stay valid; new
mentions of an absorbed spelling land on its canonical through the alias, so every fold stands.
What the last pass kept is dropped: the next one is a full one.
The whole rebuild is one transaction: interrupted, it leaves the old graph.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from memo_tui.engine.graph.links import relink_all
from memo_tui.engine.ingest import CHUNK, IngestReport, PassageWriter, extract_chunks, known_keys
from memo_tui.engine.resolve import pass_memory
from memo_tui.store import Passage, bump_version
from memo_tui.store.locks import pass_lock, writing
from memo_tui.store.statements import paused_gc
from memo_tui.text.sources import PassageRecord


def rebuild(namespace: str, progress: Callable[[int, int], None] | None = None) -> IngestReport:
    """Replace every live passage's mentions and relations, then its links; returns the counts."""
    with pass_lock(namespace, "the rebuild"):
        return _rebuild(namespace, progress)


def _rebuild(namespace: str, progress: Callable[[int, int], None] | None) -> IngestReport:
    report = IngestReport()
    writer = PassageWriter(namespace, report)
    query = (
        Passage.select(
            Passage.id, Passage.external_id, Passage.text, Passage.source, Passage.created_at, Passage.declared
        )
        .where((Passage.namespace == namespace) & Passage.retired_at.is_null())
        .order_by(Passage.id)
    )
    passages = [
        (p.id, PassageRecord(p.external_id, p.text, p.source or "", p.created_at, **json.loads(p.declared or "{}")))
        for p in query
    ]
    chunks = [passages[start : start + CHUNK] for start in range(0, len(passages), CHUNK)]
    with writing(namespace), paused_gc():
        done = 0
        for chunk, extracted in zip(
            chunks, extract_chunks([[r for _, r in c] for c in chunks], known_keys(namespace)), strict=True
        ):
            writer.rewrite(chunk, extracted)
            done += len(chunk)
            if progress is not None:
                progress(done, len(passages))
        relink_all(namespace)
        bump_version(namespace)
        pass_memory.drop(namespace)  # mentions are new: the next pass reads every fact again
    report.passages_unchanged = len(passages)
    report.entities_new = writer.entities.created
    return report

"""Changing what a store holds in bulk: ingest (a person's files, or an agent's passages), forget, a
resolution pass, a rebuild of the extraction, the passage links."""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

from memo_tui.engine.ingest import IngestReport
from memo_tui.engine.resolve.resolver import PassReport
from memo_tui.text.sources import MAX_LINE_BYTES, PassageRecord, parse_object

__all__ = [
    "MAX_PASSAGE_BYTES",
    "count_links",
    "forget",
    "ingest_as_agent",
    "ingest_paths",
    "passage_record",
    "rebuild",
    "relink",
    "resolve",
]

Progress = Callable[[int, int], None] | None

MAX_PASSAGE_BYTES = MAX_LINE_BYTES  # a passage with the rest of its object, as a JSONL line holds it


def ingest_paths(
    namespace: str, paths: list[str], strict: bool, stdin: BinaryIO, progress: Progress, author: str | None
) -> IngestReport:
    """Ingest JSONL, markdown and text files ('-': `stdin`); a bad line is named and skipped (`strict`:
    its whole file is)."""
    from memo_tui.engine.ingest import ingest_paths as ingest

    return ingest(namespace, paths, strict=strict, stdin=stdin, progress=progress, author=author)


def passage_record(obj: object) -> PassageRecord:
    """A JSONL object (the README's schema) as a passage; ValueError says what is wrong with it."""
    return parse_object(obj, default_source="")


def ingest_as_agent(namespace: str, records: list[PassageRecord], agent: str) -> tuple[IngestReport, list[int]]:
    """An agent's passages; a revision of a person's passage is written beside it and queued for a
    person (the questions asked are returned beside the report)."""
    from memo_tui.engine.proposals import ingest_as_agent as ingest

    return ingest(namespace, records, agent)


def forget(namespace: str, external_id: str) -> int:
    """Retire a passage by its id; its row's id is returned."""
    from memo_tui.engine.ingest import forget as retire

    return retire(namespace, external_id)


def resolve(
    namespace: str,
    cap: int | None = None,
    dry_run: bool = False,
    progress: Progress = None,
    cancelled: Callable[[], bool] | None = None,
    full: bool = False,
) -> PassReport:
    """A resolution pass: fold what the rules are certain of, queue the rest (at most `cap` pending
    name questions); `cancelled` is asked now and then, and a True stops the pass (`Cancelled`)."""
    from memo_tui.engine.resolve.resolver import DEFAULT_CAP
    from memo_tui.engine.resolve.resolver import resolve as run

    cap = DEFAULT_CAP if cap is None else cap
    return run(namespace, cap=cap, dry_run=dry_run, progress=progress, cancelled=cancelled, full=full)


def rebuild(namespace: str, progress: Progress = None) -> IngestReport:
    """Extract every live passage again; folds and answers stay."""
    from memo_tui.engine.rebuild import rebuild as run

    return run(namespace, progress=progress)


def relink(namespace: str, progress: Progress = None) -> int:
    """Compute every passage link ("also see") of the namespace again; how many there are."""
    from memo_tui.engine.graph.links import relink_all

    return relink_all(namespace, progress=progress)


def count_links(namespace: str) -> int:
    from memo_tui.engine.graph.links import count_links as count

    return count(namespace)

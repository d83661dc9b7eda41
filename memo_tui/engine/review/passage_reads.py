"""Reading passages for agents: by id, the newest, and full-text search (the store's text index)."""

from __future__ import annotations

import re
from datetime import datetime

from memo_tui.engine.review.detail import Excerpt, excerpt
from memo_tui.errors import MemoError
from memo_tui.store import Passage
from memo_tui.store.queries import passages_matching

_WORD = re.compile(r"\w+")


def by_external_id(namespace: str, external_ids: list[str]) -> dict[str, Excerpt]:
    """Each id's live passage, else its latest revision (marked retired); ids found nowhere are left out."""
    rows = Passage.select().where((Passage.namespace == namespace) & Passage.external_id.in_(external_ids))
    latest: dict[str, Passage] = {}
    for p in rows.order_by(Passage.id):
        held = latest.get(p.external_id)
        if held is None or held.retired_at is not None:
            latest[p.external_id] = p
    return {ext: excerpt(p) for ext, p in latest.items()}


def recent(namespace: str, source: str | None, since: datetime | None, limit: int) -> list[Excerpt]:
    """The newest live passages by creation time, of one source and since a time when given."""
    where = (Passage.namespace == namespace) & Passage.retired_at.is_null()
    if source is not None:
        where &= Passage.source == source
    if since is not None:
        where &= Passage.created_at >= since
    rows = Passage.select().where(where).order_by(Passage.created_at.desc(), Passage.id.desc()).limit(limit)
    return [excerpt(p) for p in rows]


def search(namespace: str, query: str, limit: int) -> list[Excerpt]:
    """Live passages holding every word of the query, best first."""
    words = _WORD.findall(query)
    if not words:
        raise MemoError("the query has no words to search for")
    ids = passages_matching(namespace, words[:32], limit)
    found = {p.id: p for p in Passage.select().where(Passage.id.in_(ids))}
    return [excerpt(found[pid]) for pid in ids]

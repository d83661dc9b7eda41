"""A passage's life: retiring it (forget, revision, supersede, a merge answer) and restoring it."""

from __future__ import annotations

from datetime import datetime

from memo_tui.engine.graph.links import link_passages, unlink
from memo_tui.store import Passage, utcnow


def retire(passage_id: int, at: datetime | None = None) -> None:
    """The passage leaves the live graph: its mentions stop counting and it loses its links."""
    Passage.update(retired_at=at or utcnow()).where(Passage.id == passage_id).execute()
    unlink([passage_id])


def restore(passage_id: int) -> None:
    """The passage is live again, with its mentions and freshly computed links."""
    Passage.update(retired_at=None).where(Passage.id == passage_id).execute()
    link_passages([passage_id])

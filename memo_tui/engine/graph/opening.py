"""Opening a store for the engine: connect, create or upgrade the schema, run the engine's data steps."""

from __future__ import annotations

import peewee as pw

from memo_tui.store import Passage, Question, db
from memo_tui.store.connect import open_database
from memo_tui.store.kinds import ENTITY_PAIR
from memo_tui.store.rows import tuples


def _relink_existing_passages() -> None:
    """Version 1 -> 2: links of existing passages, so that an upgraded store answers "also see" like a new one."""
    from memo_tui.engine.graph.links import relink_all

    for (namespace,) in tuples(Passage.select(Passage.namespace).distinct()):
        relink_all(namespace)


def _weigh_existing_questions() -> None:
    """Version 2 -> 3: older questions get the likelihood of their rule's pattern (name questions are
    weighed again by the next pass) and their expected yield, so that they rank among new ones."""
    from memo_tui.names.evidence import conflict_likelihood, prior, yield_of

    rows = tuples(Question.select(Question.id, Question.kind, Question.rule, Question.impact))
    for qid, kind, rule, impact in rows:
        likelihood = prior(rule, {})[0] if kind == ENTITY_PAIR else conflict_likelihood(rule)
        pattern = rule if kind == ENTITY_PAIR else rule.split(":", 1)[0]
        Question.update(pattern=pattern, likelihood=likelihood, priority=yield_of(likelihood, impact)).where(
            Question.id == qid
        ).execute()


# DATA_STEPS[n] runs after the schema step that takes a store from version n to n + 1.
DATA_STEPS = {1: _relink_existing_passages, 2: _weigh_existing_questions}


def open_store(location: str | None = None) -> pw.Database:
    """Bind the models to a store (a SQLite path, `sqlite:///...` or `postgresql://...`), creating or
    upgrading its schema in place."""
    return open_database(location, DATA_STEPS)


def open_second_store(location: str) -> pw.Database:
    """Open (create or upgrade) another store beside the bound one, which stays bound: for copies."""
    bound = db.obj
    try:
        return open_database(location, DATA_STEPS)
    finally:
        db.initialize(bound)

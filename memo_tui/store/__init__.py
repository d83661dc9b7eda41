"""The store layer: the schema, connections, dialect differences, statements, locks and migrations.

The engine (`memo_tui.engine`) reads and writes through the models and the functions exported here;
every raw SQL statement, cursor and lock lives in this package. Nothing here imports the engine or
the UI (import contracts in pyproject.toml, checked by `lint-imports`).
"""

from memo_tui.store.connect import resolve_location
from memo_tui.store.models import (
    DEFAULT_NAMESPACE,
    MODELS,
    Alias,
    Decision,
    Entity,
    Fold,
    KeepApart,
    Mention,
    Meta,
    Metric,
    NamespaceState,
    NotAName,
    Passage,
    PassageLink,
    PassMemory,
    Question,
    Relation,
    db,
    dialect,
    utcnow,
)
from memo_tui.store.state import bump_version, graph_version

__all__ = [
    "DEFAULT_NAMESPACE",
    "MODELS",
    "Alias",
    "Decision",
    "Entity",
    "Fold",
    "KeepApart",
    "Mention",
    "Meta",
    "Metric",
    "NamespaceState",
    "NotAName",
    "Passage",
    "PassageLink",
    "PassMemory",
    "Question",
    "Relation",
    "bump_version",
    "db",
    "dialect",
    "graph_version",
    "resolve_location",
    "utcnow",
]

"""The per-namespace graph version: bumped by every write that changes the graph, read by caches."""

from __future__ import annotations

from memo_tui.store.models import NamespaceState
from memo_tui.store.statements import prepared, run_count


def bump_version(namespace: str) -> None:
    """Mark the namespace's graph as changed (invalidates cached graphs). It is on every write path,
    so its statement is built once per dialect."""
    sql = prepared(
        "bump_version",
        lambda t, c, p: (
            f"UPDATE {t(NamespaceState)} SET {c(NamespaceState, 'version')} = "
            f"{c(NamespaceState, 'version')} + 1 WHERE {c(NamespaceState, 'namespace')} = {p}"
        ),
    )
    if not run_count(sql, [namespace]):
        NamespaceState.insert(namespace=namespace, version=1).on_conflict_ignore().execute()


def graph_version(namespace: str) -> int:
    row = NamespaceState.get_or_none(NamespaceState.namespace == namespace)
    return row.version if row else 0

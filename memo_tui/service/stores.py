"""Stores as the interfaces see them: open one, show where it is, copy it, build the demo, and the
errors a store can raise. Kept light: the command line imports it before every command."""

from __future__ import annotations

from memo_tui.engine.graph.opening import open_store
from memo_tui.errors import MemoError
from memo_tui.store import DEFAULT_NAMESPACE, resolve_location
from memo_tui.store.connect import failure, shown, store_errors
from memo_tui.store.copy import CopyReport
from memo_tui.store.locks import Busy

__all__ = [
    "DEFAULT_NAMESPACE",
    "Busy",
    "CopyReport",
    "copy_to",
    "demo_decisions",
    "demo_location",
    "build_demo",
    "failure",
    "has_passages",
    "open_store",
    "resolve_location",
    "shown",
    "store_errors",
    "unstorable",
]


def copy_to(namespace: str, location: str, every: bool = False) -> CopyReport:
    """Copy a namespace (`every`: all of them) of the bound store to the store at `location`, ids intact."""
    from memo_tui.engine.graph.opening import open_second_store
    from memo_tui.store import db
    from memo_tui.store.copy import copy_namespaces, namespaces_of

    source = db.obj
    namespaces = namespaces_of(source) if every else [namespace]
    if not every and namespace not in namespaces_of(source):
        held = ", ".join(namespaces_of(source)) or "none"
        raise MemoError(f"no namespace {namespace!r} in this store; it has {held}")
    target = open_second_store(location)
    try:
        return copy_namespaces(source, target, namespaces)
    finally:
        target.close()


def demo_location(given: str | None) -> str:
    """The demo store: the one given, else the user's demo store."""
    from memo_tui.engine.demo import default_demo_path

    return given or str(default_demo_path())


def demo_decisions(location: str) -> int:
    """How many decisions a person made in the demo store at `location` (0: none, or not the demo)."""
    from memo_tui.engine.demo import reviewers_decisions

    return reviewers_decisions(location)


def build_demo(location: str, namespace: str):
    """(Re)build the demo store and run its first pass; a store that is not the demo is refused."""
    from memo_tui.engine.demo import build_demo as build

    return build(location, namespace)


def has_passages(namespace: str) -> bool:
    from memo_tui.engine.graph.name_index import has_passages as any_passage

    return any_passage(namespace)


def unstorable(arguments: list[str]) -> str | None:
    """What is wrong with the first argument no store could take (bytes that are not UTF-8), if one is."""
    from memo_tui.text.sources import storable

    for number, argument in enumerate(arguments, 1):
        try:
            storable(argument, f"argument {number}")
        except ValueError as exc:
            return str(exc)
    return None

"""The demo store: a team's four months of notes, chats, docs and agent memories, resolved once."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

from platformdirs import user_data_dir

from memo_tui.engine.graph.opening import open_store
from memo_tui.engine.ingest import ingest_paths
from memo_tui.engine.resolve.resolver import PassReport, resolve
from memo_tui.errors import MemoError
from memo_tui.store import MODELS, Decision, Meta, Passage, db
from memo_tui.store.connect import shown

DEMO_MARK = "demo"


def default_demo_path() -> Path:
    return Path(user_data_dir("memo-tui", appauthor=False)) / "demo.db"


def _exists(location: str) -> bool:
    return "://" in location or Path(location).expanduser().exists()


def reviewers_decisions(location: str) -> int:
    """How many decisions a person (not the resolver) made in the demo store at `location` (0 when
    there is no such store, or it is not the demo: `build_demo` refuses those anyway)."""
    if not _exists(location):
        return 0
    open_store(location)
    try:
        if Meta.get_or_none(Meta.key == DEMO_MARK) is None:
            return 0
        return Decision.select().where((Decision.channel != "auto") & (Decision.action != "moot")).count()
    finally:
        db.close()


def build_demo(location: str | None = None, namespace: str = "default") -> PassReport:
    """(Re)build the demo store at `location` (a path or a URL); a store that holds anything but the
    demo is left alone."""
    location = location or str(default_demo_path())
    if _exists(location):
        open_store(location)
        is_demo = Meta.get_or_none(Meta.key == DEMO_MARK) is not None
        is_empty = not Passage.select().exists()
        if not (is_demo or is_empty):
            db.close()
            raise MemoError(f"{shown(location)} holds a store that is not the demo; give the demo another --db")
        if "://" in location:
            with db.atomic():
                db.drop_tables(MODELS, safe=True)
        db.close()
        if "://" not in location:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{Path(location).expanduser()}{suffix}").unlink(missing_ok=True)
    open_store(location)
    Meta.insert(key=DEMO_MARK, value="1").on_conflict(conflict_target=[Meta.key], update={Meta.value: "1"}).execute()
    with as_file(files("memo_tui") / "demo") as corpus:
        report = ingest_paths(namespace, [str(corpus)])
    if report.errors:
        raise MemoError(f"the demo corpus has bad lines: {report.errors[0]}")
    return resolve(namespace)

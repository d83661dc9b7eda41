"""The demo store: a team's four months of notes, chats, docs and agent memories, resolved once."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

from platformdirs import user_data_dir

from memo_tui.core.ingest import ingest_paths
from memo_tui.core.opening import open_store
from memo_tui.core.resolver import PassReport, resolve
from memo_tui.errors import MemoError
from memo_tui.store import Decision, Meta, Passage, db

DEMO_MARK = "demo"


def default_demo_path() -> Path:
    return Path(user_data_dir("memo-tui", appauthor=False)) / "demo.db"


def reviewers_decisions(location: str) -> int:
    """How many decisions a person (not the resolver) made in the demo store at `location` (0 when
    there is no such store, or it is not the demo: `build_demo` refuses those anyway)."""
    path = Path(location).expanduser()
    if "://" in location or not path.exists():
        return 0
    open_store(str(path))
    try:
        if Meta.get_or_none(Meta.key == DEMO_MARK) is None:
            return 0
        return Decision.select().where((Decision.channel != "auto") & (Decision.action != "moot")).count()
    finally:
        db.close()


def build_demo(location: str | None = None, namespace: str = "default") -> PassReport:
    """(Re)build the demo store at `location`; a store that holds anything but the demo is left alone."""
    path = Path(location).expanduser() if location else default_demo_path()
    if "://" in str(location or ""):
        raise MemoError("the demo is built in a SQLite file; give --db a path")
    if path.exists():
        open_store(str(path))
        is_demo = Meta.get_or_none(Meta.key == DEMO_MARK) is not None
        is_empty = not Passage.select().exists()
        db.close()
        if not (is_demo or is_empty):
            raise MemoError(f"{path} holds a store that is not the demo; give the demo another --db path")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    open_store(str(path))
    Meta.insert(key=DEMO_MARK, value="1").on_conflict_replace().execute()
    with as_file(files("memo_tui") / "demo") as corpus:
        report = ingest_paths(namespace, [str(corpus)])
    if report.errors:
        raise MemoError(f"the demo corpus has bad lines: {report.errors[0]}")
    return resolve(namespace)

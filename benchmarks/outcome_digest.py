"""A digest of what a resolution pass leaves in each real-text store: its questions, folds, aliases and
history, without times or the pass's own cache. Two commits that print the same digests behave the
same on these stores: a move or a split must not change them.

It goes through the command line only, so it runs unchanged on either side of a move:

    python benchmarks/outcome_digest.py [KIND ...]      # kinds: changelogs commits notes chats summaries
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "real"
CHATS = DATA.parent.parent.parent.parent / "shared" / "corpora" / "locomo-dev"
SKIPPED_TABLES = {"pass_memory", "metric", "namespace_state", "meta"}  # the pass's cache, counters, versions
TIMELY = ("_at", "time", "when", "date", "created", "updated", "seconds")


def memo(db: Path, *args: str) -> None:
    env = dict(os.environ, MEMO_TUI_DB=str(db))
    subprocess.run([sys.executable, "-m", "memo_tui", *args], check=True, env=env, stdout=subprocess.DEVNULL)


def sources(kind: str, scratch: Path) -> dict[str, list[str]]:
    if kind == "chats":
        return {p.stem: [str(p)] for p in sorted(CHATS.glob("*.jsonl"))}
    if kind == "notes":
        with tarfile.open(DATA / "notes.tar.gz", "r:gz") as tar:
            tar.extractall(scratch, filter="data")
            folders = sorted({name.split("/")[0] for name in tar.getnames()})
        return {"default": [str(scratch / f) for f in folders]}
    corpus = scratch / f"{kind}.jsonl"
    with gzip.open(DATA / f"{kind}.jsonl.gz", "rb") as src, corpus.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return {"default": [str(corpus)]}


def digest(db: Path, scratch: Path, kind: str) -> str:
    """The stores' rows hashed; the scratch folder written as one fixed path (sources name it)."""
    code = hashlib.sha256()
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute("select name from sqlite_master where type='table' order by name")]
    for table in tables:
        if table.lower() in SKIPPED_TABLES or table.startswith(("sqlite_", "passage_text_search")):
            continue
        columns = [r[1] for r in con.execute(f'pragma table_info("{table}")')]
        kept = [c for c in columns if c != "at" and not any(t in c.lower() for t in TIMELY)]
        rows = sorted(map(repr, con.execute(f'select {", ".join(chr(34) + c + chr(34) for c in kept)} from "{table}"')))
        code.update(f"{table}:{','.join(kept)}:{len(rows)}\n".encode())
        for row in rows:
            code.update(row.replace(str(scratch), f"/tmp/memo-outcome-digest/{kind}").encode() + b"\n")
    con.close()
    return code.hexdigest()[:16]


def main(kinds: list[str]) -> None:
    for kind in kinds:
        with tempfile.TemporaryDirectory() as folder:  # one a run: two runs at once keep apart
            scratch = Path(folder)
            db = scratch / "store.db"
            for ns, paths in sources(kind, scratch).items():
                memo(db, "--ns", ns, "ingest", *paths)
                memo(db, "--ns", ns, "resolve", "--cap", "100000")
            print(f"{kind:<11} {digest(db, scratch, kind)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["changelogs", "commits", "notes", "chats"])

"""A folder of markdown notes beside a JSONL file of the same passages: first ingest, and the
folder again unchanged.

Run:  .venv/bin/python benchmarks/bench_notes_folder.py FOLDER
      (FOLDER: any folder of notes, e.g. a public "today I learned" repository's files)
Each run gets new temporary SQLite stores; the JSONL file is written from the folder's own passages
(ids, texts and sources as the folder gives them), so that both ingest the same passages.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memo_tui.text.sources import walk


def memo_tui(store: Path, *args: str) -> float:
    """One CLI run in its own process (as a user runs it); its wall time in seconds."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "memo_tui", "--db", str(store), *args], check=True, capture_output=True)
    return time.perf_counter() - started


def as_jsonl(folder: Path, target: Path) -> int:
    """The folder's passages as one JSONL file; returns how many."""
    count = 0
    with target.open("w") as out:
        for source in walk([str(folder)]):
            for r in source.records:
                out.write(json.dumps({"id": r.external_id, "text": r.text, "source": r.source}) + "\n")
                count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    args = parser.parse_args()
    files = sum(1 for _ in args.folder.rglob("*.md"))
    with tempfile.TemporaryDirectory() as tmp:
        jsonl = Path(tmp) / "notes.jsonl"
        passages = as_jsonl(args.folder, jsonl)
        folder_first = memo_tui(Path(tmp) / "folder.db", "ingest", str(args.folder))
        folder_again = memo_tui(Path(tmp) / "folder.db", "ingest", str(args.folder))
        jsonl_first = memo_tui(Path(tmp) / "jsonl.db", "ingest", str(jsonl))
    print(f"{files} markdown files, {passages} passages")
    print(f"folder, first ingest:     {folder_first:6.2f} s")
    print(f"folder, again unchanged:  {folder_again:6.2f} s ({folder_again / folder_first:.0%} of the first)")
    print(f"JSONL of the same passages: {jsonl_first:6.2f} s (the folder takes {folder_first / jsonl_first:.1f}x)")


if __name__ == "__main__":
    main()

"""Real text nobody here wrote: changelogs, package summaries, chats, commits and a notes folder.

    python benchmarks/realtext.py changelogs OUT.jsonl [--docs /usr/share/doc]
    python benchmarks/realtext.py summaries OUT.jsonl [--tsv PATH] [--limit 50000] [--skip ROWS]
    python benchmarks/realtext.py chats OUT_FOLDER [--corpus ../shared/corpora/locomo-dev]
    python benchmarks/realtext.py commits OUT.jsonl --git FLASK_GIT_DIR
    python benchmarks/realtext.py notes OUT.tar.gz --git SIMONW_TIL_GIT_DIR --git JBRANCHAUD_TIL_GIT_DIR

A changelog entry (one version block) is one passage: its source is the maintainer who signed it,
its date the signature's. A package summary is one passage `NAME: summary`, source `pypi`.
A chat turn is one passage, its source the speaker, its date the session's: one JSONL per
conversation (each is different people: ingest each into its own namespace, named after the file).
These passages stay out of the repository. A commit (subject and body) is one passage, its source
the author, its date the author date. A notes folder is every markdown note of the git trees, one
folder per repository, packed as a tar to unpack and ingest as a folder (`memo-tui ingest FOLDER`).
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import subprocess
import sys
import tarfile
from email.utils import parsedate_to_datetime
from pathlib import Path

_HEAD = re.compile(r"^(\S+) \(([^)]+)\) ([^;]*);")
_SIGN = re.compile(r"^ -- (.+?) <[^>]*>  (.+)$")


def changelog_entries(path: Path) -> list[dict]:
    """The version blocks of one changelog.Debian.gz, oldest last as written."""
    try:
        lines = gzip.open(path, "rt", encoding="utf-8", errors="replace").read().splitlines()
    except (OSError, EOFError):
        return []
    out, head, body = [], None, []
    for line in lines:
        match = _HEAD.match(line)
        if match and head is None:
            head, body = match, []
            continue
        sign = _SIGN.match(line)
        if sign and head is not None:
            try:
                when = parsedate_to_datetime(sign.group(2).strip()).isoformat()
            except (TypeError, ValueError):
                when = None
            text = "\n".join(body).strip()
            if text:
                package, version = head.group(1), head.group(2)
                record = {
                    "id": f"{package}/{version}",
                    "text": f"{package} ({version}) {head.group(3).strip()}\n\n{text}",
                    "source": sign.group(1).strip(),
                }
                if when:
                    record["created_at"] = when
                out.append(record)
            head = None
            continue
        if head is not None:
            body.append(line)
    return out


def changelogs(docs: Path) -> list[dict]:
    seen, out = set(), []
    for path in sorted(docs.glob("*/changelog.Debian.gz")):
        for record in changelog_entries(path):
            if record["id"] not in seen:  # binary packages of one source share a changelog
                seen.add(record["id"])
                out.append(record)
    return out


def summaries(tsv: Path, limit: int, skip: int = 0) -> list[dict]:
    out = []
    with tsv.open(encoding="utf-8", errors="replace") as handle:
        next(handle)
        for number, line in enumerate(handle):
            if number < skip:
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 5 or len(parts[4].split()) < 3:
                continue
            name, summary = parts[0], parts[4].strip()
            out.append({"id": f"pypi/{name}", "text": f"{name}: {summary}", "source": "pypi"})
            if len(out) >= limit:
                break
    return out


def chats(corpus: Path) -> dict[str, list[dict]]:
    """The conversations of the corpus by name (`locomo26`), their turns as written."""
    out = {}
    for path in sorted(corpus.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            out[path.stem] = [json.loads(line) for line in handle if line.strip()]
    return out


def commits(git_dir: Path) -> list[dict]:
    """Every commit reachable from HEAD, newest first: subject and body, author, author date."""
    log = subprocess.run(
        ["git", "--git-dir", str(git_dir), "log", "--format=%H%x1f%an%x1f%aI%x1f%B%x1e"],
        capture_output=True, text=True, check=True, encoding="utf-8", errors="replace",
    ).stdout  # fmt: skip
    out = []
    for entry in log.split("\x1e"):
        parts = entry.strip("\n").split("\x1f")
        if len(parts) == 4 and parts[3].strip():
            commit, author, when, message = parts
            out.append({"id": commit[:12], "text": message.strip(), "source": author, "created_at": when})
    return out


def notes(git_dirs: list[Path], out: str) -> int:
    """Pack every markdown note of the git trees (not the generated top-level index) as one tar:
    `REPO/PATH.md`, where REPO is the repository's folder name. Returns how many notes."""
    count = 0
    # no time in the gzip header and none in the members: the same trees pack to the same bytes
    with gzip.GzipFile(out, "wb", mtime=0) as packed, tarfile.open(fileobj=packed, mode="w") as tar:
        for git_dir in git_dirs:
            folder = (git_dir.parent.name if git_dir.name in ("repo", ".git") else git_dir.stem).replace("+", "-")
            git = ["git", "--git-dir", str(git_dir)]
            paths = subprocess.run([*git, "ls-tree", "-r", "--name-only", "HEAD"], capture_output=True, text=True,
                                   check=True).stdout.splitlines()  # fmt: skip
            for path in sorted(p for p in paths if p.endswith(".md") and "/" in p):
                data = subprocess.run([*git, "show", f"HEAD:{path}"], capture_output=True, check=True).stdout
                info = tarfile.TarInfo(f"notes/{folder}/{path}")
                info.size, info.mode = len(data), 0o644
                tar.addfile(info, io.BytesIO(data))
                count += 1
    return count


def _write_jsonl(path: Path, records: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("changelogs", "summaries", "chats", "commits", "notes"))
    parser.add_argument("out")
    parser.add_argument("--docs", default="/usr/share/doc")
    parser.add_argument("--tsv", default=str(Path(__file__).resolve().parents[2] / ".library/env/packages/pypi.tsv"))
    parser.add_argument("--limit", type=int, default=50000)
    parser.add_argument("--skip", type=int, default=0, help="rows of the list to skip first (a held-out slice)")
    parser.add_argument("--corpus", default=str(Path(__file__).resolve().parents[2] / "shared/corpora/locomo-dev"))
    parser.add_argument("--git", action="append", default=[], help="a git directory (commits: one; notes: each)")
    args = parser.parse_args(argv)
    if args.kind in ("commits", "notes") and not args.git:
        parser.error(f"{args.kind} needs --git GIT_DIR")
    if args.kind == "chats":
        conversations = chats(Path(args.corpus))
        if not conversations:
            print(f"no conversations in {args.corpus}", file=sys.stderr)
            return 1
        Path(args.out).mkdir(parents=True, exist_ok=True)
        for name, records in conversations.items():
            _write_jsonl(Path(args.out) / f"{name}.jsonl", records)
        total = sum(map(len, conversations.values()))
        print(f"{total} passages in {len(conversations)} conversations -> {args.out}", file=sys.stderr)
        return 0
    if args.kind == "notes":
        print(f"{notes([Path(g) for g in args.git], args.out)} notes -> {args.out}", file=sys.stderr)
        return 0
    if args.kind == "changelogs":
        records = changelogs(Path(args.docs))
    elif args.kind == "commits":
        records = commits(Path(args.git[0]))
    else:
        records = summaries(Path(args.tsv), args.limit, args.skip)
    _write_jsonl(Path(args.out), records)
    print(f"{len(records)} passages -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

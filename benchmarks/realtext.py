"""Real text nobody here wrote, as JSONL passages: Debian changelogs and package summaries.

    python benchmarks/realtext.py changelogs OUT.jsonl [--docs /usr/share/doc]
    python benchmarks/realtext.py summaries OUT.jsonl [--tsv PATH] [--limit 50000] [--skip ROWS]

A changelog entry (one version block) is one passage: its source is the maintainer who signed it,
its date the signature's. A package summary is one passage `NAME: summary`, source `pypi`.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("changelogs", "summaries"))
    parser.add_argument("out")
    parser.add_argument("--docs", default="/usr/share/doc")
    parser.add_argument("--tsv", default=str(Path(__file__).resolve().parents[2] / ".library/env/packages/pypi.tsv"))
    parser.add_argument("--limit", type=int, default=50000)
    parser.add_argument("--skip", type=int, default=0, help="rows of the list to skip first (a held-out slice)")
    args = parser.parse_args(argv)
    records = (
        changelogs(Path(args.docs)) if args.kind == "changelogs" else summaries(Path(args.tsv), args.limit, args.skip)
    )
    with open(args.out, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"{len(records)} passages -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

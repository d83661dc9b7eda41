"""Reading sources into passage records: JSONL, markdown and text files, directories, standard input.

Nothing here touches the store. Every problem becomes a `path:line: what is wrong` string, and a
file is either read into records or reported; `ingest.py` decides what to write.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO, TypedDict

MAX_LINE_BYTES = 1_000_000
JSONL_SUFFIXES = {".jsonl", ".ndjson"}
TEXT_SUFFIXES = {".md", ".markdown", ".mdx", ".txt", ".text", ".rst", ".org"}
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_SLUG = re.compile(r"[^\w]+")
# what no store keeps the same way: PostgreSQL refuses NUL in text, and a lone surrogate (valid
# JSON as an escape) is no character at all, so neither store can encode it
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
Line = tuple[int, bytes | None, int]  # line number, its bytes (None when over the limit), its size


class DeclaredEntity(TypedDict):
    name: str
    type: str | None


class DeclaredRelation(TypedDict):
    src: str
    predicate: str
    dst: str
    confidence: float


@dataclass
class PassageRecord:
    """One passage as read from a source, before it is written."""

    external_id: str
    text: str
    source: str
    created_at: datetime | None = None
    entities: list[DeclaredEntity] = field(default_factory=list)
    relations: list[DeclaredRelation] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    supersedes: list[str] = field(default_factory=list)
    contradicts: list[str] = field(default_factory=list)

    def declared(self) -> dict[str, list[DeclaredEntity] | list[DeclaredRelation] | list[str]]:
        """The declared parts, as stored on the passage (kept for rebuilds)."""
        parts: dict[str, list[DeclaredEntity] | list[DeclaredRelation] | list[str]] = {
            "entities": self.entities,
            "relations": self.relations,
            "tags": self.tags,
            "supersedes": self.supersedes,
            "contradicts": self.contradicts,
        }
        return {name: value for name, value in parts.items() if value}


@dataclass
class SourceFile:
    """The records read from one file, and what was wrong with the rest of it."""

    path: str
    records: list[PassageRecord] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def walk(paths: list[str], stdin: BinaryIO | None = None, author: str | None = None) -> Iterator[SourceFile]:
    """Every source file under `paths` ('-' is standard input), in a stable order. `author`: who wrote
    the markdown and text whose front matter names no author (else it is unknown)."""
    for raw in paths:
        if raw == "-":
            if stdin is None:
                yield SourceFile("-", errors=["-: standard input is not available"])
                continue
            yield read_stream("-", stdin, sniff=True, author=author)
            continue
        path = Path(raw)
        try:
            is_dir, exists = path.is_dir(), path.exists()
        except OSError as exc:  # a name too long, say
            shown = raw if len(raw) <= 200 else f"{raw[:200]}… ({len(raw)} characters)"
            yield SourceFile(raw, errors=[f"{shown}: cannot read ({exc.strerror})"])
            continue
        if is_dir:
            yield from _walk_dir(path, author)
        elif exists:
            yield read_file(path, explicit=True, author=author)
        else:
            yield SourceFile(raw, errors=[f"{raw}: no such file or directory"])


def _walk_dir(top: Path, author: str | None) -> Iterator[SourceFile]:
    try:
        entries = sorted(os.scandir(top), key=lambda entry: entry.name)
    except PermissionError:
        yield SourceFile(str(top), errors=[f"{top}: permission denied"])
        return
    except OSError as exc:
        yield SourceFile(str(top), errors=[f"{top}: cannot read directory ({exc.strerror})"])
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            yield from _walk_dir(path, author)
        elif path.suffix.lower() in JSONL_SUFFIXES | TEXT_SUFFIXES:
            yield read_file(path, explicit=False, author=author)


def read_file(path: Path, explicit: bool, author: str | None = None) -> SourceFile:
    """Read one file; `explicit` files of unknown suffix are read as text unless binary. Its passages
    are keyed by its absolute path, the same whichever way the path was written."""
    if _UNSTORABLE.search(str(path)):  # a name of bytes that are not UTF-8, or a NUL
        shown = os.fsencode(path).decode("utf-8", "backslashreplace").replace("\x00", "\\x00")
        return SourceFile(shown, errors=[f"{shown}: its name is not valid UTF-8; not ingested"])
    try:
        with open(path, "rb") as fh:
            sniff = path.suffix.lower() not in JSONL_SUFFIXES | TEXT_SUFFIXES
            return read_stream(str(path), fh, sniff=sniff, key=os.path.abspath(path), author=author)
    except PermissionError:
        return SourceFile(str(path), errors=[f"{path}: permission denied"])
    except OSError as exc:
        return SourceFile(str(path), errors=[f"{path}: cannot read ({exc.strerror})"])


def read_stream(name: str, fh: BinaryIO, sniff: bool, key: str | None = None, author: str | None = None) -> SourceFile:
    """Read a stream named `name` in errors; its passages' ids start with `key` (the name), and a
    markdown passage's author is its front matter's or `author`."""
    key = key or name
    head = fh.read(8192)
    if not head.strip() and len(head) < 8192:
        return SourceFile(name, errors=[f"{name}: empty file, nothing to ingest"])
    suffix = Path(name).suffix.lower()
    if b"\0" in head and suffix not in JSONL_SUFFIXES:  # in JSONL, a line with a NUL is one bad line
        return SourceFile(name, errors=[f"{name}: binary file, not ingested"])
    lines = _lines(head, fh)
    if suffix in JSONL_SUFFIXES or (sniff and head.lstrip().startswith(b"{")):
        return _read_jsonl(name, key, lines)
    return _read_markdown(name, key, lines, author)


def _lines(head: bytes, fh: BinaryIO) -> Iterator[Line]:
    """(line number, bytes or None when over the limit, size) for each line, reading lazily."""
    buffer = _Prepend(head, fh)
    number = 0
    while True:
        line = buffer.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            size = len(line)
            while chunk := buffer.readline(1 << 20):
                size += len(chunk)
                if chunk.endswith(b"\n"):
                    break
            yield number, None, size
        else:
            yield number, line, len(line)


class _Prepend:
    """A binary stream with some already-read bytes put back in front."""

    def __init__(self, head: bytes, fh: BinaryIO) -> None:
        self._head, self._fh = head, fh

    def readline(self, limit: int) -> bytes:
        if self._head:
            cut = self._head.find(b"\n", 0, limit)
            if cut >= 0:
                line, self._head = self._head[: cut + 1], self._head[cut + 1 :]
                return line
            line, self._head = self._head[:limit], self._head[limit:]
            if len(line) < limit and not self._head:
                line += self._fh.readline(limit - len(line))
            return line
        return self._fh.readline(limit)


def _too_long(name: str, number: int, size: int) -> str:
    return f"{name}:{number}: line is {size / 1e6:.1f} MB, over the {MAX_LINE_BYTES / 1e6:.0f} MB limit; skipped"


def _read_jsonl(name: str, key: str, lines: Iterable[Line]) -> SourceFile:
    out = SourceFile(name)
    for number, raw, size in lines:
        if raw is None:
            out.errors.append(_too_long(name, number, size))
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            out.errors.append(f"{name}:{number}: invalid UTF-8 at byte {exc.start}; line skipped")
            continue
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            said = exc.msg.removesuffix(" at")  # json's "Unterminated string starting at"
            out.errors.append(f"{name}:{number}: malformed JSON ({said} at column {exc.colno}); line skipped")
            continue
        except RecursionError:
            out.errors.append(f"{name}:{number}: JSON nested too deep; line skipped")
            continue
        except ValueError as exc:  # a number of more digits than Python reads
            out.errors.append(f"{name}:{number}: malformed JSON ({exc}); line skipped")
            continue
        try:
            out.records.append(parse_object(obj, default_source=key))
        except ValueError as exc:
            out.errors.append(f"{name}:{number}: {exc}; line skipped")
    return out


def parse_object(obj: object, default_source: str) -> PassageRecord:
    """A JSONL object as a passage record; ValueError says what is wrong with it."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    text = obj.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ValueError('missing "text" (a non-empty string is required)')
    storable(text, '"text"')
    ext_id = obj.get("id")
    if ext_id is None:
        ext_id = "sha1:" + _digest(text)
    elif isinstance(ext_id, (str, int)) and not isinstance(ext_id, bool) and str(ext_id).strip():
        ext_id = storable(str(ext_id).strip(), '"id"')
    else:
        raise ValueError('"id" must be a non-empty string or an integer')
    source = obj.get("source", default_source)
    if not isinstance(source, str):
        raise ValueError('"source" must be a string')
    storable(source, '"source"')
    return PassageRecord(
        external_id=ext_id,
        text=text,
        source=source,
        created_at=_parse_time(obj.get("created_at")),
        entities=_entities(obj.get("entities")),
        relations=_relations(obj.get("relations")),
        tags=_strings(obj.get("tags"), "tags"),
        supersedes=_strings(obj.get("supersedes"), "supersedes"),
        contradicts=_strings(obj.get("contradicts"), "contradicts"),
    )


def storable(value: str, what: str) -> str:
    """The string, if both stores keep it as it is; ValueError naming `what` if not."""
    match = _UNSTORABLE.search(value) if "\x00" in value or not value.isascii() else None
    if match is not None:
        found = match.group()
        kind = "a NUL character" if found == "\x00" else f"a lone surrogate ({found!r})"
        raise ValueError(f"{what} holds {kind}, which no store keeps")
    return value


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def parse_time(value: str) -> datetime:
    """An ISO 8601 time as naive UTC; ValueError if it is not one."""
    parsed = datetime.fromisoformat(value.strip())
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone(UTC).replace(tzinfo=None)
        except OverflowError:  # 0001-01-01T00:00+05:00 is before year 1 in UTC
            raise ValueError(f"{value!r} is out of range in UTC") from None
    return parsed


def _parse_time(value: object) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError('"created_at" must be an ISO 8601 string')
    try:
        return parse_time(value)
    except ValueError as exc:
        if "out of range" in str(exc):
            raise ValueError(f'"created_at" {exc}') from None
        raise ValueError(f'"created_at" is not an ISO 8601 time: {value!r}') from None


def _strings(value: object, field_name: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f'"{field_name}" must be a list of strings')
    return [storable(v, f'"{field_name}"') for v in value if v.strip()]


def _entities(value: object) -> list[DeclaredEntity]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError('"entities" must be a list')
    out: list[DeclaredEntity] = []
    for item in value:
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
            raise ValueError('each of "entities" needs a "name" string')
        kind = item.get("type")
        if not isinstance(kind, str | None):
            raise ValueError('an entity "type" must be a string')
        out.append(
            {
                "name": storable(item["name"], "an entity name"),
                "type": storable(kind, "an entity type") if kind else None,
            }
        )
    return out


def _relations(value: object) -> list[DeclaredRelation]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError('"relations" must be a list')
    out: list[DeclaredRelation] = []
    for item in value:
        if not isinstance(item, dict):
            raise ValueError("each relation must be an object")
        parts = [p for p in (item.get(k) for k in ("src", "predicate", "dst")) if isinstance(p, str) and p.strip()]
        if len(parts) < 3:
            raise ValueError('each relation needs "src", "predicate" and "dst" strings')
        confidence = item.get("confidence", 1.0)
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1:
            raise ValueError('a relation "confidence" must be a number between 0 and 1')
        src, predicate, dst = (storable(part, "a relation") for part in parts)
        out.append({"src": src, "predicate": predicate.strip(), "dst": dst, "confidence": float(confidence)})
    return out


def _read_markdown(name: str, key: str, lines: Iterable[Line], author: str | None = None) -> SourceFile:
    """Split a markdown or text file at its headings, one passage a section. Its author (each
    passage's source) is its front matter's `author`, else `author`, else unknown: never its path,
    which would make every file a person of its own in the evidence."""
    out = SourceFile(name)
    lines, front = _front_matter(lines)
    author = front.get("author") or author
    sections: list[tuple[str, list[str], bool]] = []  # heading, lines, valid
    heading, valid = "", True
    body: list[str] = []
    in_fence = False
    for number, raw, size in lines:
        if raw is None:
            out.errors.append(_too_long(name, number, size) + " (its section too)")
            valid = False
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            out.errors.append(f"{name}:{number}: invalid UTF-8 at byte {exc.start}; its section skipped")
            valid = False
            continue
        if "\x00" in line:
            out.errors.append(f"{name}:{number}: a NUL character, which no store keeps; its section skipped")
            valid = False
            continue
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        match = None if in_fence else _HEADING.match(line.rstrip("\r\n"))
        if match:
            sections.append((heading, body, valid))
            heading, body, valid = match.group(2).strip(), [], True
        body.append(line)
    sections.append((heading, body, valid))
    used: set[str] = set()
    for heading, body, valid in sections:
        text = "".join(body).strip()
        if not text:
            continue
        # a skipped section keeps its id too, so that the sections after it keep theirs
        section = _section_id(_SLUG.sub("-", heading.casefold()).strip("-") or "top", used)
        if valid:
            out.records.append(PassageRecord(external_id=f"{key}#{section}", text=text, source=author or ""))
    return out


def _section_id(slug: str, used: set[str]) -> str:
    """The slug, or its first `slug-N` (N = 2, 3, ...) not used yet in the file: headings A, A, A-2
    get a, a-2, a-2-2, never one id twice (the later section would revise the earlier one)."""
    section, number = slug, 1
    while section in used:
        number += 1
        section = f"{slug}-{number}"
    used.add(section)
    return section


def _front_matter(lines: Iterable[Line]) -> tuple[Iterator[Line], dict[str, str]]:
    """The lines after a leading `---` ... `---` block, and that block's `key: value` lines (a plain
    reading of YAML's simplest form; anything else in it is left alone)."""
    lines = iter(lines)
    first = next(lines, None)
    if first is None:
        return iter(()), {}
    if first[1] is None or first[1].rstrip(b"\r\n") != b"---":
        return itertools.chain([first], lines), {}
    held = [first]
    found: dict[str, str] = {}
    for line in lines:
        held.append(line)
        raw = line[1]
        if raw is not None and raw.rstrip(b"\r\n") in (b"---", b"..."):
            return lines, found
        key, colon, value = (raw or b"").decode("utf-8", "replace").partition(":")
        if colon and key.strip().isidentifier():
            found[key.strip().casefold()] = value.strip().strip("'\"")
    return iter(held), {}  # no closing line: not front matter, the file as it is

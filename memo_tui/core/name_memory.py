"""What the last resolution pass saw of a namespace's names, so that the next one blocks and judges
only the names that are new or renamed since (incremental resolution).

Blocking and the name rules are pure functions of the names and their types: a pair of names both
seen by the last pass, unchanged, gets the verdict it got then. So the memory holds every name the
last pass saw, the blocking tokens of each (`blocking.name_tokens`) and the verdicts of the pairs
that were not a plain no. A pass finds the partners of the new names through the tokens, runs the
blocking families on those few names, and judges only the pairs that touch a new name; the evidence,
folds and admission that follow run over every remembered pair, as on a full pass.

It is kept in the store (`PassMemory`) in parts, each a marshalled value of a few long strings and
arrays (quick to read and write whole): the names, the verdicts, the token index as of the last
full pass, and the token lists changed since (folded into the index when they grow large). Each part
carries a tag naming the format, the source of the modules that decide what it holds and the Python
that wrote it (marshal's format is Python's own); a part with another tag is never read, and the pass
is then a full one.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from itertools import accumulate
from pathlib import Path

from memo_tui.core import blocking, keys, rules
from memo_tui.core.blocking import SPELLING_TOKENS, gram_order, name_probes, name_tokens, spelling_close
from memo_tui.core.rules import Name, Verdict, judge_pair, spelling_key
from memo_tui.store import PassMemory

FORMAT = 1
COMPACT_SHARE = 0.1  # the changed token lists are folded into the index when they hold this share of it
SEP = "\x00"  # joins the strings of a part; a name holding it is never remembered (its pass is a full one)
Pair = tuple[int, int]


def _tag() -> str:
    code = hashlib.sha1()
    for module in (keys, rules, blocking):
        code.update(Path(module.__file__).read_bytes())
    python = ".".join(map(str, sys.version_info[:2]))
    return f"{FORMAT}:{code.hexdigest()[:12]}:wordfreq-{version('wordfreq')}:python-{python}"


def _ids(values: Iterable[int]) -> bytes:
    return array("q", values).tobytes()


def _unids(data: bytes) -> array:
    out = array("q")
    out.frombytes(data)
    return out


def _split(text: str, count: int) -> list[str]:
    """The `count` strings joined into `text` (an empty text is one empty string, or none)."""
    return text.split(SEP) if count else []


class TokenIndex:
    """Blocking token -> entity ids: the index as the last full pass (or compaction) wrote it, sorted
    for bisection, and the lists changed since, whole."""

    def __init__(self, tokens: list[str], ids: array, ends: list[int], changed: dict[str, list[int]]) -> None:
        self._tokens, self._ids, self._ends = tokens, ids, ends
        self.changed = changed

    @classmethod
    def build(cls, lists: dict[str, list[int]]) -> TokenIndex:
        tokens = sorted(lists)
        return cls(
            tokens,
            array("q", (i for t in tokens for i in lists[t])),
            list(accumulate(len(lists[t]) for t in tokens)),
            {},
        )

    def get(self, token: str) -> Sequence[int]:
        found = self.changed.get(token)
        if found is not None:
            return found
        at = bisect_left(self._tokens, token)
        if at < len(self._tokens) and self._tokens[at] == token:
            return self._ids[self._ends[at - 1] if at else 0 : self._ends[at]]
        return ()

    def _own(self, token: str) -> list[int]:
        found = self.changed.get(token)
        if found is None:
            found = self.changed[token] = list(self.get(token))
        return found

    def add(self, token: str, entity_id: int) -> None:
        self._own(token).append(entity_id)

    def remove(self, token: str, entity_id: int) -> None:
        own = self._own(token)
        if entity_id in own:
            own.remove(entity_id)

    def should_compact(self) -> bool:
        return sum(map(len, self.changed.values())) > COMPACT_SHARE * max(1, len(self._ids))

    def compacted(self) -> TokenIndex:
        lists = {t: list(self.get(t)) for t in self._tokens}
        lists.update(self.changed)
        return TokenIndex.build({t: ids for t, ids in lists.items() if ids})

    def base_part(self) -> tuple:
        return (SEP.join(self._tokens), self._ids.tobytes(), _ids(self._ends))

    @classmethod
    def from_parts(cls, base: tuple, changed: dict[str, list[int]]) -> TokenIndex:
        tokens, ids, ends = base
        ends = list(_unids(ends))
        return cls(_split(tokens, len(ends)), _unids(ids), ends, changed)


@dataclass
class NameMemory:
    seen: dict[int, tuple[str, str | None]]  # entity id -> (name, type)
    order: dict[str, int]  # the trigram order the index's G tokens are cut by
    index: TokenIndex
    verdicts: dict[Pair, Verdict]  # (low id, high id) -> a fold or ask verdict
    rebuilt: bool = False  # the index was built or compacted in this pass: write it whole

    def forget(self, entity_ids: Iterable[int]) -> None:
        """Drop what was remembered of these entities: their names, tokens and verdicts."""
        gone = set()
        for entity_id in entity_ids:
            name = self.seen.pop(entity_id, None)
            if name is not None:
                gone.add(entity_id)
                for token in name_tokens(Name(entity_id, *name), self.order):
                    self.index.remove(token, entity_id)
        if gone:
            self.verdicts = {
                pair: v for pair, v in self.verdicts.items() if pair[0] not in gone and pair[1] not in gone
            }

    def learn(self, names: Iterable[Name]) -> dict[int, set[str]]:
        """Remember these names and their tokens; returns each one's tokens."""
        out = {}
        for n in names:
            self.seen[n.id] = (n.name, n.type)
            out[n.id] = found = name_tokens(n, self.order)
            for token in found:
                self.index.add(token, n.id)
        return out

    def partners(self, names: dict[int, Name], tokens: dict[int, set[str]], live: dict[int, tuple]) -> set[int]:
        """Entity ids that some blocking family could pair with one of `names` (`live`: id -> (name,
        type)). A partner found only by a spelling token is kept when the two keys are close (their
        lists are long: a common segment or trigram)."""
        out: set[int] = set()
        for entity_id, n in names.items():
            spelling: set[int] = set()
            for probe in name_probes(n, tokens[entity_id]):
                found = self.index.get(probe)
                if found:
                    (spelling if probe[probe.index("|") + 1] in SPELLING_TOKENS else out).update(found)
            for other in spelling - out:
                key = spelling_key(live[other][0]) if other in live else None
                if key is not None and spelling_close(n.merge, key):
                    out.add(other)
        return out


def _row(namespace: str, part: str) -> PassMemory | None:
    row = PassMemory.get_or_none(PassMemory.key == f"{part}:{namespace}")
    return row if row is not None and row.tag == _tag() else None


def _write(namespace: str, part: str, value) -> None:
    data, tag = marshal.dumps(value), _tag()
    PassMemory.insert(key=f"{part}:{namespace}", tag=tag, data=data).on_conflict(
        conflict_target=[PassMemory.key], update={PassMemory.tag: tag, PassMemory.data: data}
    ).execute()


def load(namespace: str) -> NameMemory | None:
    rows = [_row(namespace, part) for part in ("names", "verdicts", "tokens", "changed")]
    if any(row is None for row in rows):
        return None
    ids, names, types = marshal.loads(bytes(rows[0].data))
    ids = _unids(ids)
    kinds_of = (t or None for t in _split(types, len(ids)))
    seen = dict(zip(ids, zip(_split(names, len(ids)), kinds_of, strict=True), strict=True))
    low, high, scores, kinds, rules_used, reasons = marshal.loads(bytes(rows[1].data))
    low, high, kinds, score = _unids(low), _unids(high), _unids(kinds), array("d")
    score.frombytes(scores)
    rule_of = rules_used.split(SEP)
    verdicts = {
        (a, b): Verdict("fold" if k < 0 else "ask", s, rule_of[abs(k) - 1], why)
        for a, b, s, k, why in zip(low, high, score, kinds, _split(reasons, len(low)), strict=True)
    }
    order_text, count, base = marshal.loads(bytes(rows[2].data))
    order = {g: r for r, g in enumerate(_split(order_text, count), 1)}
    index = TokenIndex.from_parts(base, marshal.loads(bytes(rows[3].data)))
    return NameMemory(seen, order, index, verdicts)


def save(namespace: str, memory: NameMemory) -> None:
    strings = [name for name, _ in memory.seen.values()] + [v.reason for v in memory.verdicts.values()]
    if any(SEP in text for text in strings):
        drop(namespace)
        return
    if memory.index.should_compact():
        memory.index, memory.rebuilt = memory.index.compacted(), True
    _write(
        namespace,
        "names",
        (
            _ids(memory.seen),
            SEP.join(n for n, _ in memory.seen.values()),
            SEP.join(t or "" for _, t in memory.seen.values()),
        ),
    )
    rules_used = sorted({v.rule for v in memory.verdicts.values()})
    number = {rule: at for at, rule in enumerate(rules_used, 1)}
    pairs = list(memory.verdicts)
    values = [memory.verdicts[p] for p in pairs]
    _write(
        namespace,
        "verdicts",
        (
            _ids(a for a, _ in pairs),
            _ids(b for _, b in pairs),
            array("d", (v.score for v in values)).tobytes(),
            _ids(-number[v.rule] if v.kind == "fold" else number[v.rule] for v in values),
            SEP.join(rules_used),
            SEP.join(v.reason for v in values),
        ),
    )
    if memory.rebuilt:
        grams = sorted(memory.order, key=memory.order.get)
        _write(namespace, "tokens", (SEP.join(grams), len(grams), memory.index.base_part()))
    _write(namespace, "changed", memory.index.changed)


def drop(namespace: str) -> None:
    PassMemory.delete().where(PassMemory.key.endswith(f":{namespace}")).execute()


@dataclass
class Judged:
    """The verdicts a pass works from: every pair of live names that is not a plain no."""

    verdicts: dict[Pair, Verdict]  # (low id, high id) -> fold / ask
    built: dict[int, Name]  # the names built while blocking (the rest are built when needed)
    judged: int  # pairs the rules looked at in this pass
    rejected: int  # of those, plain noes
    changed: int  # names new or renamed since the last pass (every name on a full pass)
    incremental: bool


def judged(namespace: str, rows: list[tuple[int, str, str | None]], full: bool, dry_run: bool) -> Judged:
    """Block and judge the namespace's names (`rows`: id, name, type, in id order): only the pairs that
    touch a name the last pass did not see as it is now, unless `full` or nothing usable is remembered.
    The memory is brought up to date and kept (not on a dry run)."""
    memory = None if full else load(namespace)
    if memory is None:
        with blocking.EditPairs([name for _, name, _ in rows]) as edits:
            ordered = [Name(*row) for row in rows]
            positions = blocking.other_pairs(ordered) | edits.result()
        names = {n.id: n for n in ordered}
        pairs = {(ordered[i].id, ordered[j].id) for i, j in positions}
        memory = NameMemory({}, gram_order(ordered), TokenIndex.build({}), {}, rebuilt=True)
        lists: dict[str, list[int]] = {}
        for n in ordered:
            memory.seen[n.id] = (n.name, n.type)
            for token in name_tokens(n, memory.order):
                lists.setdefault(token, []).append(n.id)
        memory.index = TokenIndex.build(lists)
        changed, incremental, forgot = len(ordered), False, False
    else:
        live = {entity_id: (name, kind) for entity_id, name, kind in rows}
        fresh = {
            entity_id: Name(entity_id, *now) for entity_id, now in live.items() if memory.seen.get(entity_id) != now
        }
        stale = [entity_id for entity_id in memory.seen if entity_id not in live or entity_id in fresh]
        memory.forget(stale)
        tokens = memory.learn(fresh.values())
        near = sorted((memory.partners(fresh, tokens, live) & live.keys()) | fresh.keys())
        names = {entity_id: fresh.get(entity_id) or Name(entity_id, *live[entity_id]) for entity_id in near}
        ordered = [names[entity_id] for entity_id in near]
        pairs = {
            (ordered[i].id, ordered[j].id)
            for i, j in blocking.candidate_pairs(ordered)
            if ordered[i].id in fresh or ordered[j].id in fresh
        }
        changed, incremental = len(fresh), True
        forgot = bool(stale)  # names folded away since: worth writing down even with no new name
    said = {pair: judge_pair(names[pair[0]], names[pair[1]]) for pair in pairs}
    memory.verdicts.update((pair, v) for pair, v in said.items() if v.kind != "no")
    if not dry_run and (changed or forgot):
        save(namespace, memory)
    rejected = sum(v.kind == "no" for v in said.values())
    return Judged(memory.verdicts, names, len(said), rejected, changed, incremental)

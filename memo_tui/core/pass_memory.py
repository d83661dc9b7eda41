"""What the last resolution pass saw of a namespace, so that the next one does again only what its
changes call for (incremental resolution): the names, and which pairs' sides shared no passage.

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
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from importlib.metadata import version
from itertools import compress
from pathlib import Path

from memo_tui.core import blocking, evidence, keys, rules
from memo_tui.core.blocking import SPELLING_TOKENS, gram_order, name_probes, name_tokens
from memo_tui.core.rules import Name, judge_pair, spelling_key
from memo_tui.store import PassMemory, db

FORMAT = 2
REBUILD_SHARE = 0.1  # the names learned since the base are folded into it when they are this share of it
SEP = "\x00"  # joins the strings of a part; a name holding it is never remembered (its pass is a full one)
Pair = tuple[int, int]


def _tag() -> str:
    code = hashlib.sha1()
    for path in (keys.__file__, rules.__file__, blocking.__file__, __file__):  # and this one's format
        code.update(Path(path).read_bytes())
    python = ".".join(map(str, sys.version_info[:2]))
    return f"{FORMAT}:{code.hexdigest()[:12]}:wordfreq-{version('wordfreq')}:python-{python}"


def _ids(values: Iterable[int]) -> bytes:
    return array("q", values).tobytes()


def ints_of(data: bytes) -> array:
    """The 64-bit integers an array's bytes hold (as `array("q").tobytes()` wrote them)."""
    out = array("q")
    out.frombytes(data)
    return out


def _split(text: str, count: int) -> list[str]:
    """The `count` strings joined into `text` (an empty text is one empty string, or none)."""
    return text.split(SEP) if count else []


@dataclass
class Names:
    """Names with their blocking tokens, in entity id order, as one part of the memory keeps them: the
    tokens of entity k are tokens[ends[k - 1]:ends[k]]. Found by scanning (no inverted index to build
    or keep: a pass asks about the few tokens of its new names)."""

    ids: array
    names: list[str]
    types: list[str | None]
    tokens: list[str]
    ends: array

    @classmethod
    def of(cls, rows: list[tuple[int, str, str | None, list[str]]]) -> Names:
        ends, count = array("q"), 0
        for *_, tokens in rows:
            count += len(tokens)
            ends.append(count)
        return cls(
            array("q", (r[0] for r in rows)),
            [r[1] for r in rows],
            [r[2] for r in rows],
            [t for r in rows for t in r[3]],
            ends,
        )

    def rows(self) -> list[tuple[int, str, str | None, list[str]]]:
        starts = [0, *self.ends[:-1]]
        return [
            (i, n, t, self.tokens[a:b])
            for i, n, t, a, b in zip(self.ids, self.names, self.types, starts, self.ends, strict=True)
        ]

    def holders(self, wanted: set[str]) -> list[tuple[int, str]]:
        """(entity id, token) for every token in `wanted` that a name here has."""
        hits = compress(range(len(self.tokens)), map(wanted.__contains__, self.tokens))
        return [(self.ids[bisect_right(self.ends, at)], self.tokens[at]) for at in hits]

    def dumps(self) -> tuple:
        if any(SEP in text for text in self.names):
            raise ValueError("a name holds the separator")
        types = SEP.join(t or "" for t in self.types)
        return (
            self.ids.tobytes(),
            SEP.join(self.names),
            types,
            SEP.join(self.tokens),
            self.ends.tobytes(),
            len(self.tokens),
        )

    @classmethod
    def loads(cls, value: tuple) -> Names:
        ids, names, types, tokens, ends, count = value
        ids = ints_of(ids)
        kinds = [t or None for t in _split(types, len(ids))]
        return cls(ids, _split(names, len(ids)), kinds, _split(tokens, count), ints_of(ends))


@dataclass
class NameMemory:
    """What the last pass saw: the names of the base (written whole by a full pass, or when the names
    learned since grow large) less those forgotten since, plus those learned since."""

    order: dict[str, int]  # the trigram order every G token is cut by
    base: Names
    forgotten: set[int]  # base entities gone or renamed since
    learned: dict[int, tuple[str, str | None, list[str]]]  # entity id -> name, type, tokens
    verdicts: dict[Pair, tuple[str, float, str, str]]  # (low id, high id) -> a fold or ask `Verdict`'s fields
    rebuilt: bool = False  # write the base too

    @cached_property
    def seen(self) -> dict[int, tuple[str, str | None]]:
        out = {i: (n, t) for i, n, t in zip(self.base.ids, self.base.names, self.base.types, strict=True)}
        for entity_id in self.forgotten:
            out.pop(entity_id, None)
        out.update((i, (n, t)) for i, (n, t, _) in self.learned.items())
        return out

    def forget(self, entity_ids: Iterable[int]) -> None:
        """Drop what was remembered of these entities: their names, tokens and verdicts."""
        gone = {entity_id for entity_id in entity_ids if self.seen.pop(entity_id, None) is not None}
        for entity_id in gone:
            self.forgotten.add(entity_id)
            self.learned.pop(entity_id, None)
        _drop_verdicts(self.verdicts, gone)

    def learn(self, names: Iterable[Name]) -> dict[int, set[str]]:
        """Remember these names and their tokens; returns each one's tokens."""
        out = {}
        for n in names:
            self.seen[n.id] = (n.name, n.type)
            out[n.id] = found = name_tokens(n, self.order)
            self.learned[n.id] = (n.name, n.type, sorted(found))
        return out

    def partners(self, names: dict[int, Name], tokens: dict[int, set[str]], live: dict[int, tuple]) -> set[int]:
        """Entity ids that some blocking family could pair with one of `names` (`live`: id -> (name,
        type)). A partner found only by a spelling token is kept when the two keys are close (their
        lists are long: a common segment or trigram)."""
        asked: dict[str, list[int]] = defaultdict(list)  # probe -> the names asking
        for entity_id, n in names.items():
            for probe in name_probes(n, tokens[entity_id]):
                asked[probe].append(entity_id)
        held = [(i, t) for i, t in self.base.holders(set(asked)) if i not in self.forgotten]
        held += [(i, t) for i, (_, _, found) in self.learned.items() for t in found if t in asked]
        out: set[int] = set()
        found_by = {kind: defaultdict(set) for kind in SPELLING_TOKENS}  # kind -> name asking -> holders
        for holder, token in held:
            kind = token[token.index("|") + 1]
            if kind in SPELLING_TOKENS:
                for entity_id in asked[token]:
                    found_by[kind][entity_id].add(holder)
            else:
                out.add(holder)
        edits, close = found_by["E"], found_by["G"]  # edit segments, prefix trigrams
        merged: dict[int, tuple[str, frozenset[str] | None]] = {}  # the candidates' merge keys (and trigrams)
        for entity_id in edits.keys() | close.keys():
            n = names[entity_id]
            by_edit, by_gram = edits.get(entity_id, set()), close.get(entity_id, set())
            for other in (by_edit | by_gram) - out:
                if other not in live:
                    continue
                found = merged.get(other)
                if found is None:
                    found = merged[other] = (keys.merge_key(live[other][0]), None)
                key = found[0]
                if len(key) < 5:
                    continue
                # a pair either family finds shares a token of that family's kind: one test each
                if other in by_edit and blocking.within_edits(n.merge, key):
                    near = True
                elif other in by_gram:
                    if found[1] is None:
                        found = merged[other] = (key, keys.trigrams(key))
                    near = blocking.grams_close(n.grams, found[1])
                else:
                    near = False
                if near and spelling_key(live[other][0]) is not None:
                    out.add(other)
        return out

    def rebuild(self) -> None:
        """Fold the names learned since into the base."""
        rows = [r for r in self.base.rows() if r[0] not in self.forgotten and r[0] not in self.learned]
        rows += [(i, n, t, found) for i, (n, t, found) in self.learned.items()]
        self.base = Names.of(sorted(rows))
        self.forgotten, self.learned, self.rebuilt = set(), {}, True


def _drop_verdicts(verdicts: dict[Pair, tuple], gone: set[int]) -> None:
    """Drop, in place, the verdicts about any of these entities."""
    if gone:
        for pair in [pair for pair in verdicts if pair[0] in gone or pair[1] in gone]:
            del verdicts[pair]


def kept(namespace: str, part: str, tag: str):
    """The value a pass kept under this part of the memory, or None (nothing kept, or another tag)."""
    row = PassMemory.get_or_none(PassMemory.key == f"{part}:{namespace}")
    return marshal.loads(bytes(row.data)) if row is not None and row.tag == tag else None


def keep(namespace: str, part: str, tag: str, value) -> None:
    data = marshal.dumps(value)
    PassMemory.insert(key=f"{part}:{namespace}", tag=tag, data=data).on_conflict(
        conflict_target=[PassMemory.key], update={PassMemory.tag: tag, PassMemory.data: data}
    ).execute()


def _base_of(rows: list[tuple[int, str, str | None]]) -> tuple[dict[str, int], Names]:
    """The gram order of these names and each one's tokens: a full pass's base."""
    built = [Name(*row) for row in rows]
    order = gram_order(built)
    return order, Names.of([(n.id, n.name, n.type, sorted(name_tokens(n, order))) for n in built])


def load(namespace: str) -> NameMemory | None:
    tag = _tag()
    parts = [kept(namespace, part, tag) for part in ("names", "learned", "verdicts")]
    if any(part is None for part in parts):
        return None
    order_text, count, base = parts[0]
    order = {g: r for r, g in enumerate(_split(order_text, count), 1)}
    forgotten, learned, recent = parts[1]
    verdicts, gone = parts[2], set(ints_of(forgotten))  # the base's, less those of names forgotten since
    _drop_verdicts(verdicts, gone)
    verdicts.update(recent)
    return NameMemory(order, Names.loads(base), gone, learned, verdicts)


def save(namespace: str, memory: NameMemory) -> None:
    """Write the memory down, in one transaction (its parts are read together). Between rebuilds
    only what changed since the base is written: names learned and forgotten, and their verdicts."""
    if len(memory.learned) > REBUILD_SHARE * max(1, len(memory.base.ids)):
        memory.rebuild()
    try:
        with db.atomic():
            if memory.rebuilt:
                grams = sorted(memory.order, key=memory.order.get)
                keep(namespace, "names", _tag(), (SEP.join(grams), len(grams), memory.base.dumps()))
                keep(namespace, "verdicts", _tag(), memory.verdicts)
            learned = memory.learned
            recent = {pair: v for pair, v in memory.verdicts.items() if pair[0] in learned or pair[1] in learned}
            keep(namespace, "learned", _tag(), (_ids(sorted(memory.forgotten)), learned, recent))
    except ValueError:  # never in names the extractor makes; such a store's passes are full ones
        drop(namespace)


@dataclass
class Known:
    """The evidence layer's memory of the last pass: each entity's passages and each passage's
    entities as signatures (a count and a hash of the ids); the remembered pairs whose sides shared
    no passage then; and, for pairs whose sides shared no neighbour, what their evidence was made of.

    While an entity's passages stand, a pair of two such shares no passage still, so a hopeless rule
    stays hopeless without its facts being read. While moreover no passage of either side names
    other entities than it did, the two neighbourhoods are what they were and still share nothing:
    the evidence is what it was but for the prior, which the store's answers move (no rarity enters
    it, so no count elsewhere in the store can change it)."""

    entities: dict[int, tuple[int, int]]  # entity id -> (live passages naming it, the hash of their ids)
    passages: dict[int, int]  # passage id -> the hash of the entities it names
    apart: set[Pair]  # of the pairs asked about
    weighed: dict[Pair, tuple]  # (pattern, log-odds, shared sources, rare variant, no neighbours, defined, contrasted)
    # the hopeless asks left unread, by (rule, impact): their sides shared no passage either
    skipped: dict[tuple[str, int], list[Pair]] = field(default_factory=dict)

    def standing(self, now: dict[int, tuple[int, int]]) -> set[int]:
        """The entities whose passages are what they were."""
        kept_ = self.entities
        return {entity_id for entity_id, signature in now.items() if kept_.get(entity_id) == signature}

    def settled(self, standing: set[int], now: dict[int, int], named: dict[int, set[int]]) -> set[int]:
        """Of those, the ones none of whose passages names other entities than it did."""
        moved = set()
        for pid, signature in now.items():
            if self.passages.get(pid) != signature:
                moved |= named[pid]
        return standing - moved


def entity_signatures(passages: dict[int, set[int]]) -> dict[int, tuple[int, int]]:
    """Entity id -> (number of its passages, the hash of their ids): the hash of numbers is the same
    in every process."""
    return {eid: (len(pids), signature_of(pids)) for eid, pids in passages.items()}


def signature_of(ids: Iterable[int]) -> int:
    """The hash of a set of ids: the same in every process (Python salts the hashes of text only)."""
    return hash(frozenset(ids))


def passage_signatures(named: dict[int, set[int]]) -> dict[int, int]:
    """Passage id -> the signature of the entities it names."""
    return {pid: signature_of(eids) for pid, eids in named.items()}


def _evidence_tag() -> str:
    """The names' tag, and the code and calibration that make and read what evidence is kept."""
    code = hashlib.sha1()
    for path in (evidence.__file__, evidence.CALIBRATION, Path(__file__).with_name("resolver.py")):
        code.update(Path(path).read_bytes())
    return f"{_tag()}:{code.hexdigest()[:12]}"


def load_known(namespace: str) -> Known:
    """What the last pass knew (nothing, when it kept nothing or other code wrote it)."""
    value = kept(namespace, "evidence", _evidence_tag())
    if value is None:
        return Known({}, {}, set(), {})
    entities, passages, apart, weighed, skipped = value
    return Known(entities, passages, set(apart), weighed, skipped)


def save_known(namespace: str, known: Known) -> None:
    # the pairs as a list: marshal sorts a set's items, which takes longer than all the rest
    value = (known.entities, known.passages, list(known.apart), known.weighed, known.skipped)
    keep(namespace, "evidence", _evidence_tag(), value)


def drop(namespace: str) -> None:
    PassMemory.delete().where(PassMemory.key.endswith(f":{namespace}")).execute()


@dataclass
class Judged:
    """The verdicts a pass works from: every pair of live names that is not a plain no."""

    verdicts: dict[Pair, tuple[str, float, str, str]]  # (low id, high id) -> a fold or ask `Verdict`'s fields
    judged: int  # pairs the rules looked at in this pass
    rejected: int  # of those, plain noes
    changed: int  # names new or renamed since the last pass (every name on a full pass)
    incremental: bool
    fresh: set[int]  # their ids


def judged(namespace: str, rows: list[tuple[int, str, str | None]], full: bool, dry_run: bool) -> Judged:
    """Block and judge the namespace's names (`rows`: id, name, type, in id order): only the pairs that
    touch a name the last pass did not see as it is now, unless `full` or nothing usable is remembered.
    The memory is brought up to date and kept (not on a dry run)."""
    memory = None if full else load(namespace)
    if memory is None:
        with blocking.EditPairs([name for _, name, _ in rows]) as edits:
            remembered = edits.then(_base_of, rows)  # the tokens of every name, beside this process's work
            ordered = [Name(*row) for row in rows]
            positions = blocking.other_pairs(ordered) | edits.result()
            order, base = remembered()
        names = {n.id: n for n in ordered}
        pairs = {(ordered[i].id, ordered[j].id) for i, j in positions}
        memory = NameMemory(order, base, set(), {}, {}, rebuilt=True)
        changed, incremental, forgot, fresh = len(ordered), False, False, set(names)
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
    memory.verdicts.update((pair, (v.kind, v.score, v.rule, v.reason)) for pair, v in said.items() if v.kind != "no")
    if not dry_run and (changed or forgot):
        save(namespace, memory)
    rejected = sum(v.kind == "no" for v in said.values())
    return Judged(memory.verdicts, len(said), rejected, changed, incremental, set(fresh))

"""The names' half of what a resolution pass keeps (incremental resolution), as plain data: pure,
it reads no store (`pass_memory` keeps it there), so that a second process can do this work.

Blocking and the name rules are pure functions of the names and their types: a pair of names both
seen by the last pass, unchanged, gets the verdict it got then. So the memory holds every name the
last pass saw, the blocking tokens of each (`blocking.name_tokens`) and the verdicts of the pairs
that were not a plain no. A pass finds the partners of the new names through the tokens, runs the
blocking families on those few names, and judges only the pairs that touch a new name; the evidence,
folds and admission that follow run over every remembered pair, as on a full pass.

Its parts are marshalled values of a few long strings and arrays (quick to read and write whole;
the formats are `memo_tui.runtime.codec`'s): the names with their tokens as of the last rebuild (the
base), the names learned and forgotten since (folded into the base when they grow large), and the
verdicts.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from typing import TypeAlias, TypeVar

from memo_tui.names import blocking, keys
from memo_tui.names.blocking import SPELLING_TOKENS, gram_order, name_probes, name_tokens
from memo_tui.names.rules import NO, Name, judge_pair, known_frequencies, learn_frequencies, spelling_key
from memo_tui.runtime import codec
from memo_tui.runtime.codec import ints_of, joined, split

REBUILD_SHARE = 0.1  # the names learned since the base are folded into it when they are this share of it
Pair = tuple[int, int]
Row = tuple[int, str, str | None, str, list[str]]  # a name remembered: id, name, type, merge key, tokens
Said: TypeAlias = tuple[str, float, str]  # a verdict that is not a plain no: kind, score, rule
# a `Names` as its part keeps it: ids, names, types, merge keys, tokens, token ends, token count (`_dumped`)
Part: TypeAlias = tuple[bytes, str, str, str, str, bytes, int]
_V = TypeVar("_V")


@dataclass
class Names:
    """Names with their merge keys and blocking tokens, in entity id order, as one part of the memory
    keeps them: the tokens of entity k are tokens[ends[k - 1]:ends[k]]. Found by scanning (no inverted
    index to build or keep: a pass asks about the few tokens of its new names)."""

    ids: array[int]
    names: list[str]
    types: list[str | None]
    merges: list[str]
    tokens: list[str]
    ends: array[int]

    @classmethod
    def of(cls, rows: list[Row]) -> Names:
        ends, count = array("q"), 0
        for *_, tokens in rows:
            count += len(tokens)
            ends.append(count)
        return cls(
            array("q", (r[0] for r in rows)),
            [r[1] for r in rows],
            [r[2] for r in rows],
            [r[3] for r in rows],
            [t for r in rows for t in r[4]],
            ends,
        )

    def rows(self) -> list[Row]:
        starts = [0, *self.ends[:-1]]
        return [
            (i, n, t, m, self.tokens[a:b])
            for i, n, t, m, a, b in zip(self.ids, self.names, self.types, self.merges, starts, self.ends, strict=True)
        ]

    def holders(self, wanted: set[str]) -> list[tuple[int, str]]:
        """(entity id, token) for every token in `wanted` that a name here has."""
        hits = compress(range(len(self.tokens)), map(wanted.__contains__, self.tokens))
        return [(self.ids[bisect_right(self.ends, at)], self.tokens[at]) for at in hits]

    def dumps(self) -> Part:
        tokens = joined(self.tokens)
        return _dumped(self.ids, self.names, self.types, self.merges, tokens, self.ends, len(self.tokens))

    @classmethod
    def loads(cls, value: Part) -> Names:
        id_bytes, names, types, merges, tokens, ends, count = value
        ids = ints_of(id_bytes)
        size = len(ids)
        kinds = [t or None for t in split(types, size)]
        return cls(ids, split(names, size), kinds, split(merges, size), split(tokens, count), ints_of(ends))


def _dumped(ids: array[int], names: list[str], types: list[str | None], merges: Iterable[str], tokens: str,
            ends: array[int], count: int) -> Part:  # fmt: skip
    """A `Names` as its part keeps it (`tokens`: all of them joined, `count` of them); ValueError if
    a name holds the separator (a name the extractor never makes: its passes are full ones)."""
    names_text = joined(names, checked=True)
    return ids.tobytes(), names_text, joined(t or "" for t in types), joined(merges), tokens, ends.tobytes(), count


def _id(n: Name) -> int:
    """The entity id of a name a pass built (every one has one)."""
    if n.id is None:
        raise TypeError(f"{n!r} has no entity id")
    return n.id


@dataclass
class NameMemory:
    """What the last pass saw: the names of the base (written whole by a full pass, or when the names
    learned since grow large) less those forgotten since, plus those learned since."""

    order: dict[str, int]  # the trigram order every G token is cut by
    base: Names
    forgotten: set[int]  # base entities gone or renamed since
    learned: dict[int, tuple[str, str | None, str, list[str]]]  # entity id -> name, type, merge key, tokens

    @cached_property
    def seen(self) -> dict[int, tuple[str, str | None]]:
        out = {i: (n, t) for i, n, t in zip(self.base.ids, self.base.names, self.base.types, strict=True)}
        for entity_id in self.forgotten:
            out.pop(entity_id, None)
        out.update((i, (n, t)) for i, (n, t, _, _) in self.learned.items())
        return out

    @cached_property
    def merges(self) -> dict[int, str]:
        """The merge key of every name remembered (but those forgotten since)."""
        out = dict(zip(self.base.ids, self.base.merges, strict=True))
        for entity_id in self.forgotten:
            out.pop(entity_id, None)
        out.update((i, m) for i, (_, _, m, _) in self.learned.items())
        return out

    def forget(self, entity_ids: Iterable[int]) -> None:
        """Drop what was remembered of these entities' names and tokens (their verdicts are the caller's:
        `drop_verdicts`)."""
        gone = {entity_id for entity_id in entity_ids if self.seen.pop(entity_id, None) is not None}
        for entity_id in gone:
            self.forgotten.add(entity_id)
            self.learned.pop(entity_id, None)

    def learn(self, names: dict[int, Name]) -> dict[int, set[str]]:
        """Remember these names (entity id -> name) and their tokens; returns each one's tokens."""
        out = {}
        for entity_id, n in names.items():
            self.seen[entity_id] = (n.name, n.type)
            out[entity_id] = found = name_tokens(n, self.order)
            self.learned[entity_id] = (n.name, n.type, n.merge, sorted(found))
            self.merges[entity_id] = n.merge
        return out

    def partners(
        self, names: dict[int, Name], tokens: dict[int, set[str]], live: dict[int, tuple[str, str | None]]
    ) -> set[int]:
        """Entity ids that some blocking family could pair with one of `names` (`live`: id -> (name,
        type)). A partner found only by a spelling token is kept when the two keys are close (their
        lists are long: a common segment or trigram)."""
        asked: dict[str, list[int]] = defaultdict(list)  # probe -> the names asking
        for entity_id, n in names.items():
            for probe in name_probes(n, tokens[entity_id]):
                asked[probe].append(entity_id)
        held = [(i, t) for i, t in self.base.holders(set(asked)) if i not in self.forgotten]
        held += [(i, t) for i, (*_, found) in self.learned.items() for t in found if t in asked]
        out: set[int] = set()
        # kind -> name asking -> holders
        found_by: dict[str, dict[int, set[int]]] = {kind: defaultdict(set) for kind in SPELLING_TOKENS}
        for holder, token in held:
            kind = token[token.index("|") + 1]
            if kind in SPELLING_TOKENS:
                for entity_id in asked[token]:
                    found_by[kind][entity_id].add(holder)
            else:
                out.add(holder)
        edits, close = found_by["E"], found_by["G"]  # edit segments, prefix trigrams
        merges = self.merges  # the candidates' merge keys (held since they were learned)
        grams: dict[int, frozenset[str]] = {}  # and their trigrams, as they are needed
        for entity_id in edits.keys() | close.keys():
            n = names[entity_id]
            by_edit, by_gram = edits.get(entity_id, set()), close.get(entity_id, set())
            for other in (by_edit | by_gram) - out:
                if other not in live:
                    continue
                key = merges[other]
                if len(key) < 5:
                    continue
                # a pair either family finds shares a token of that family's kind: one test each
                if other in by_edit and blocking.within_edits(n.merge, key):
                    near = True
                elif other in by_gram:
                    theirs = grams.get(other)
                    if theirs is None:
                        theirs = grams[other] = keys.trigrams(key, held=False)
                    near = blocking.grams_close(n.grams, theirs)
                else:
                    near = False
                if near and spelling_key(live[other][0]) is not None:
                    out.add(other)
        return out

    def rebuild(self) -> None:
        """Fold the names learned since into the base."""
        rows = [r for r in self.base.rows() if r[0] not in self.forgotten and r[0] not in self.learned]
        rows += [(i, *learned) for i, learned in self.learned.items()]
        self.base = Names.of(sorted(rows))
        self.forgotten, self.learned = set(), {}


def drop_verdicts(verdicts: dict[Pair, _V], gone: set[int]) -> None:
    """Drop, in place, the verdicts about any of these entities."""
    if gone:
        for pair in [pair for pair in verdicts if pair[0] in gone or pair[1] in gone]:
            del verdicts[pair]


def _base_part_of(built: list[Name]) -> tuple[bytes | None, bool]:
    """A full pass's names part, as it is kept (`_base_part`), made from the names blocking built:
    each name's tokens are joined as they are made (millions of token strings held at once took a
    fifth of the pass's peak), and the part is marshalled at once (a quarter of a GB on a million
    names: held as its strings until the pass saved it, it was there twice at the save)."""
    order = gram_order(built)
    ends, count, each = array("q"), 0, []
    join = codec.SEP.join  # `joined`, bound once: a call a name adds up over a million names
    for n in built:
        tokens = sorted(name_tokens(n, order))
        count += len(tokens)
        ends.append(count)
        if tokens:
            each.append(join(tokens))
    every_token = joined(each)
    del each
    ids, names, types = array("q", map(_id, built)), [n.name for n in built], [n.type for n in built]
    try:
        base = _dumped(ids, names, types, (n.merge for n in built), every_token, ends, count)
    except ValueError:
        return None, False
    return codec.dumps((joined(sorted(order, key=order.__getitem__)), len(order), base)), True


def _base_part(memory: NameMemory) -> tuple[bytes | None, bool]:
    """The names part of the memory, marshalled, and whether it can be kept (no name holds the separator)."""
    grams = sorted(memory.order, key=memory.order.__getitem__)
    try:
        return codec.dumps((joined(grams), len(grams), memory.base.dumps())), True
    except ValueError:
        return None, False


@dataclass
class Changes:
    """What blocking and judging found (`Judging`): the verdicts of the pairs judged, and the memory's
    parts as they now are, but for the verdicts (the caller keeps those)."""

    said: dict[Pair, Said]  # the pairs judged that are not a plain no (`_verdicts_of`)
    judged: int
    rejected: int
    fresh: list[int]  # names the last pass did not see as they are now
    stale: list[int]  # remembered names gone or renamed since: their verdicts no longer hold
    forgotten: list[int]  # the base's names gone or renamed since it was written
    learned: dict[int, tuple[str, str | None, str, list[str]]]  # names learned since: `NameMemory.learned`
    base: bytes | None = None  # the names part, marshalled, when it was made anew (None: it stands, or is staged)
    staged: bool = False  # the names part made anew is written, waiting for the save (`pass_memory.stage`)
    keepable: bool = True  # False: a name holds the separator (never one the extractor makes): keep nothing
    words: dict[str, float] = field(default_factory=dict)  # the word frequencies the rules looked up, or were handed


def _verdicts_of(pairs: Iterable[Pair], names: dict[int, Name]) -> tuple[dict[Pair, Said], int]:
    """The verdicts on these pairs (distinct) that are not a plain no, as (kind, score, rule), and how
    many were. Not their reasons (`rules.told`): of millions of verdicts there are a few hundred such
    fields, each held once."""
    said: dict[Pair, Said] = {}
    judged = 0
    shared: dict[Said, Said] = {}
    for pair in pairs:
        judged += 1
        verdict = judge_pair(names[pair[0]], names[pair[1]])
        if verdict.kind != NO:
            fields = (verdict.kind, verdict.score, verdict.rule)
            said[pair] = shared.setdefault(fields, fields)
    return said, judged - len(said)


def judge_all(rows: list[tuple[int, str, str | None]], stage: Callable[[bytes], None] | None = None) -> Changes:
    """Every name blocked and judged, and a base of them all (a full pass). `stage` is handed the
    names part as soon as it is made, which is then not held while the pairs are judged."""
    with blocking.EditPairs([name for _, name, _ in rows]) as edits:
        ordered = [Name(*row) for row in rows]
        positions = blocking.other_pairs(ordered)
        base_part, keepable = _base_part_of(ordered)  # the tokens of every name, while the edits are found
        staged = False
        if stage is not None and base_part is not None:
            stage(base_part)
            base_part, staged = None, True
        positions.update(edits.result())
    names = {row[0]: n for row, n in zip(rows, ordered, strict=True)}
    shift, low = codec.PAIR_SHIFT, codec.PAIR_LOW  # unpacked inline (`codec.pair_of`): millions of pairs
    said, rejected = _verdicts_of(((rows[p >> shift][0], rows[p & low][0]) for p in positions), names)
    changes = Changes(said, len(positions), rejected, list(names), [], [], {}, words=known_frequencies())
    changes.base, changes.keepable, changes.staged = base_part, keepable, staged
    return changes


def judge_changes(names_part: bytes | bytearray, learned_part: bytes | bytearray, rows_part: bytes,
                  words: dict[str, float]) -> Changes:  # fmt: skip
    """The pairs that touch a name the memory did not see as it is now, judged; and the memory's
    names brought up to date (rebuilt when those learned since grew large). Reads no store
    (`rows_part`: the namespace's names, id, name and type, marshalled; `words`: the word
    frequencies the pass memory kept)."""
    learn_frequencies(words)
    rows = codec.loads(rows_part)
    order_text, count, base = codec.loads(names_part)
    order = {g: r for r, g in enumerate(split(order_text, count), 1)}
    forgotten, learned, _ = codec.loads(learned_part)
    memory = NameMemory(order, Names.loads(base), set(ints_of(forgotten)), learned)
    live = {entity_id: (name, kind) for entity_id, name, kind in rows}
    fresh = {entity_id: Name(entity_id, *now) for entity_id, now in live.items() if memory.seen.get(entity_id) != now}
    stale = [entity_id for entity_id in memory.seen if entity_id not in live or entity_id in fresh]
    memory.forget(stale)
    tokens = memory.learn(fresh)
    near = sorted((memory.partners(fresh, tokens, live) & live.keys()) | fresh.keys())
    names = {entity_id: fresh.get(entity_id) or Name(entity_id, *live[entity_id]) for entity_id in near}
    ordered = [names[entity_id] for entity_id in near]
    pairs = {(near[i], near[j]) for i, j in blocking.candidate_pairs(ordered) if near[i] in fresh or near[j] in fresh}
    said, rejected = _verdicts_of(pairs, names)
    changes = Changes(said, len(pairs), rejected, sorted(fresh), stale, sorted(memory.forgotten), memory.learned,
                      words=known_frequencies())  # fmt: skip
    if len(memory.learned) > REBUILD_SHARE * max(1, len(memory.base.ids)):
        memory.rebuild()
        changes.forgotten, changes.learned = [], {}
        changes.base, changes.keepable = _base_part(memory)
    return changes

"""Candidate pairs from indexes, never from all pairs.

Names whose digit runs differ are never variants (`Opus 4.7` / `Opus 4.8`, `Part 12` / `Part 13`: the
rules say no before anything else), so every index is built within one group of names that carry the
same digit runs: names full of version and part numbers make many small groups, not one big one.

Each index covers one family of rules completely, so no pair the rules would fold or ask about is
lost (a test compares with a brute-force pass):

- identical merge keys (rule 5) and identical accent-free or written-out keys (rule 6);
- a dotted file suffix on the casefolded identity key (rule 4, `Vue.js` / `Vue`);
- contiguous token runs one or two tokens shorter (rule 7);
- for rule 8: short keys and the keys one letter longer; exact prefixes up to three characters
  shorter, a PassJoin segment index for edit distance 1 or 2, and a rarest-first prefix filter on
  pairs of trigrams for Jaccard >= 0.8.
"""

from __future__ import annotations

import math
import os
import re
from array import array
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from functools import lru_cache
from itertools import chain, combinations
from typing import TypeVar

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from memo_tui.names.keys import digits_of, identity_key, merge_of, written_out
from memo_tui.names.rules import (
    SHORT_KEY_LETTERS,
    Name,
    caps_plural_of,
    one_letter_less,
    one_word_of_name,
    person_first_word,
    plural_keys,
    short_name_of,
    spelling_key,
)
from memo_tui.runtime import codec
from memo_tui.runtime.codec import PAIR_LOW, PAIR_SHIFT, pair_of
from memo_tui.runtime.processes import second_process

_SUFFIX = re.compile(r"^(.+)\.[a-z0-9]{1,4}$")
Pair = tuple[int, int]
# While blocking, a pair of positions (i, j), i < j, is the one number i << PAIR_SHIFT | j (`codec`),
# made inline in the loops below: a call a pair would cost more than the packing itself.
_K = TypeVar("_K")
_V = TypeVar("_V", int, str)  # what an index files: a name's position or a key, never a list


PARALLEL_MIN = 20_000


def candidate_pairs(names: list[Name]) -> set[Pair]:
    """Index positions (i, j), i < j, of the pairs worth judging."""
    with EditPairs([n.name for n in names]) as edits:
        found = other_pairs(names)
        found.update(edits.result())
        return set(map(pair_of, found))


class EditPairs:
    """The edit-distance family, the costliest index, built from the raw names; on large inputs in
    a second process, so the caller can build its `Name`s and the other indexes meanwhile. The
    names go to it as one marshalled string, which it lets go of as a list once their keys are made,
    and the pairs come back as an array of their numbers: sets and lists of a million objects were
    most of that process."""

    def __init__(self, raw_names: list[str]) -> None:
        self._raw = raw_names
        self._pool: ProcessPoolExecutor | None = None
        self._future: Future[array[int]] | None = None

    def __enter__(self) -> EditPairs:
        if len(self._raw) >= PARALLEL_MIN and (os.cpu_count() or 1) >= 2:
            self._pool = second_process()
            self._future = self._pool.submit(_edit_distance_pairs, codec.dumps(self._raw))
        return self

    def result(self) -> array[int]:
        """The pairs' numbers (`pair_of`), each once."""
        if self._future is not None:
            return self._future.result()
        return _edit_distance_pairs(codec.dumps(self._raw))

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def digit_groups(digits: Iterable[tuple[str, ...]]) -> list[list[int]]:
    """Positions of the names that carry the same digit runs, ascending, in groups of two or more:
    only names of one group can be variants (rule 3)."""
    groups: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, runs in enumerate(digits):
        groups[runs].append(i)
    return [members for members in groups.values() if len(members) > 1]


def _within_groups(pairs: set[int], members: list[int], found: set[int]) -> None:
    """Pairs found among a group's own positions, as positions of the whole list (order kept)."""
    pairs.update(members[code >> PAIR_SHIFT] << PAIR_SHIFT | members[code & PAIR_LOW] for code in found)


def _edit_distance_pairs(packed: bytes) -> array[int]:
    names = codec.loads(packed)
    keys = [spelling_key(name) for name in names]
    groups = digit_groups(digits_of(identity_key(name)) for name in names)
    del names
    pairs = array("Q")
    for members in groups:
        holders: dict[str, int | list[int]] = {}
        for i in members:
            key = keys[i]
            if key is not None:
                _file(holders, key, i)
        _edit_distance(pairs, holders)
    return pairs


def other_pairs(names: list[Name]) -> set[int]:
    """Every family but edit distance (pairs as numbers: `pair_of`)."""
    pairs: set[int] = set()
    for members in digit_groups(n.digits for n in names):
        group = [names[i] for i in members]
        eligible = [x for x, n in enumerate(group) if n.spelling_eligible]
        found: set[int] = set()
        _other_pairs(found, group, eligible, {x: group[x].merge for x in eligible})
        _within_groups(pairs, members, found)
    return pairs


def _other_pairs(pairs: set[int], names: list[Name], eligible: list[int], keys: dict[int, str]) -> None:
    _same_key(pairs, (n.merge for n in names))
    # accent-free keys only matter where some name has accents (Café / Cafe)
    accented = {n.plain for n in names if n.plain != n.merge}
    _same_key(pairs, (n.plain if n.plain in accented else "" for n in names))
    # and umlauts written out (Günther / Guenther): a name's merge key beside an accented name's written-out key
    written = {out for n in names if (out := written_out(n.merge)) not in (n.merge, n.plain)}
    if written:
        _same_key(pairs, (key if (key := written_out(n.merge)) in written else "" for n in names))
    _file_suffix(pairs, names)
    _token_runs(pairs, names)
    _company_suffixes(pairs, names)
    _acronyms(pairs, names)
    _people(pairs, names)
    _plurals(pairs, names)
    _short_names(pairs, names)
    _one_letter_more(pairs, names)
    _prefixes(pairs, keys)
    _swaps(pairs, keys)
    _trigram_prefix_filter(pairs, {i: names[i].grams for i in eligible})


def _add(pairs: set[int], i: int, j: int) -> None:
    if i != j:
        pairs.add(i << PAIR_SHIFT | j if i < j else j << PAIR_SHIFT | i)


def _all_pairs(pairs: set[int], members: list[int]) -> None:
    for x in range(len(members)):
        for y in range(x + 1, len(members)):
            _add(pairs, members[x], members[y])


def _same_key(pairs: set[int], keys: Iterable[str]) -> None:
    buckets: dict[str, list[int]] = defaultdict(list)
    for i, key in enumerate(keys):
        if key:
            buckets[key].append(i)
    for members in buckets.values():
        if len(members) > 1:
            _all_pairs(pairs, members)


def _file_suffix(pairs: set[int], names: list[Name]) -> None:
    by_key = _by_value({i: n.folded for i, n in enumerate(names)})
    for i, n in enumerate(names):
        match = _SUFFIX.match(n.folded)
        if match:
            for j in by_key.get(match.group(1), ()):
                _add(pairs, i, j)


def _token_runs(pairs: set[int], names: list[Name]) -> None:
    """Rule 7 needs the shorter name's tokens as a contiguous run of a name 1-2 tokens longer."""
    whole: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, n in enumerate(names):
        if n.words:
            whole[n.words].append(i)
    for i, n in enumerate(names):
        count = len(n.words)
        for length in (count - 1, count - 2):
            if length < 1:
                continue
            for start in range(count - length + 1):
                for j in whole.get(n.words[start : start + length], ()):
                    # a one-token short side counts between two people (Ada / Ada Lovelace), or as
                    # the first or last word of a prose name (Kafka / Apache Kafka)
                    other = names[j]
                    if length > 1 or (n.type == "person" and other.type == "person") or one_word_of_name(other, n):
                        _add(pairs, i, j)


def _by_value(keys: dict[int, str]) -> dict[str, list[int]]:
    index: dict[str, list[int]] = defaultdict(list)
    for i, key in keys.items():
        index[key].append(i)
    return index


def _prefixes(pairs: set[int], keys: dict[int, str]) -> None:
    by_key = _by_value(keys)
    for i, key in keys.items():
        for cut in (1, 2, 3):
            for j in by_key.get(key[:-cut], ()) if len(key) - cut >= 5 else ():
                _add(pairs, i, j)


def _one_letter_more(pairs: set[int], names: list[Name]) -> None:
    """Short keys and the keys one letter longer (`LGBT` / `LGBTQ`, `Mel` / `Mell`): rule 8 leaves them out."""
    by_key = _by_value({i: n.merge for i, n in enumerate(names) if len(n.merge) in SHORT_KEY_LETTERS})
    if not by_key:
        return
    for i, n in enumerate(names):
        if len(n.merge) - 1 in SHORT_KEY_LETTERS:
            for shorter in one_letter_less(n.merge):
                for j in by_key.get(shorter, ()):
                    _add(pairs, i, j)


def _limit(length: int) -> int:
    """Edit distance rule 8 allows, by the shorter key's length."""
    return 2 if length >= 8 else 1


@lru_cache(maxsize=1024)
def _segments(length: int, parts: int) -> tuple[tuple[int, int], ...]:
    """(start, size) of `parts` near-equal segments covering a string of `length`."""
    base, extra = divmod(length, parts)
    out, start = [], 0
    for index in range(parts):
        size = base + (1 if index >= parts - extra else 0)
        out.append((start, size))
        start += size
    return tuple(out)


def _edit_distance(pairs: array[int], holders: dict[str, int | list[int]]) -> None:
    """PassJoin: a string within k edits of a string of length L contains one of the L-string's k+1
    segments, the i-th at most i positions from where it stands and at most k - i from where it would
    stand counted from the end (pigeonhole); each such candidate is then checked exactly. Indexes and
    candidates are the distinct keys, so gathering them and checking them stay in C.

    The indexed side is the shorter (or equal) one, so the keys of one length are indexed, probed by
    the keys of that length and the k longer ones, and let go: the index holds one length's segments
    at a time (all of them at once were most of a large pass's edit process). It is one dict of
    segments for each part, and an entry is one key or a list of them (most segments are one key's);
    `holders` gives the names that have each key the same way (ascending); each pair is appended
    once: of two keys of one length, the smaller one finds the other."""
    append = pairs.append
    by_length: dict[int, list[str]] = defaultdict(list)
    for key, mine in holders.items():
        if type(mine) is list:
            for i, j in combinations(mine, 2):
                append(i << PAIR_SHIFT | j)
        by_length[len(key)].append(key)
    for length in sorted(by_length):
        k = _limit(length)
        segmented = _segments(length, k + 1)
        index: list[dict[str, str | list[str]]] = [{} for _ in segmented]
        for key in by_length[length]:
            for part, (start, size) in enumerate(segmented):
                _file(index[part], key[start : start + size], key)
        for delta in range(k + 1):
            for key in by_length.get(length + delta, ()):
                found: set[str] = set()
                for part, (start, size) in enumerate(segmented):
                    segments = index[part]
                    for shift in range(max(-part, delta - (k - part)), min(part, delta + (k - part)) + 1):
                        at = start + shift
                        if 0 <= at and at + size <= len(key):
                            entry = segments.get(key[at : at + size])
                            if isinstance(entry, str):
                                found.add(entry)
                            elif entry is not None:
                                found.update(entry)
                others = [other for other in found if other > key] if delta == 0 else list(found)
                if not others:
                    continue
                close = process.extract(key, others, scorer=Levenshtein.distance, score_cutoff=k, limit=None)
                mine = _listed(holders[key])
                for other, _, _ in close:
                    for i in mine:
                        for j in _listed(holders[other]):
                            append(i << PAIR_SHIFT | j if i < j else j << PAIR_SHIFT | i)


def _swaps(pairs: set[int], keys: dict[int, str]) -> None:
    """Short keys (edit limit 1) one adjacent transposition apart."""
    by_key = _by_value(keys)
    for i, key in keys.items():
        if len(key) < 8:
            for at in range(len(key) - 1):
                for j in by_key.get(key[:at] + key[at + 1] + key[at] + key[at + 2 :], ()):
                    _add(pairs, i, j)


def _company_suffixes(pairs: set[int], names: list[Name]) -> None:
    buckets: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, n in enumerate(names):
        if n.core:
            buckets[n.core].append(i)
    for members in buckets.values():
        if len(members) > 1 and any(names[i].core != names[i].words for i in members):
            _all_pairs(pairs, members)


def _acronyms(pairs: set[int], names: list[Name]) -> None:
    by_initials: dict[str, list[int]] = defaultdict(list)
    for i, n in enumerate(names):
        for initials in n.initials:
            by_initials[initials].append(i)
    for i, n in enumerate(names):
        if n.acronym:
            for j in by_initials.get(n.folded, ()):
                _add(pairs, i, j)


def _people(pairs: set[int], names: list[Name]) -> None:
    """People sharing a name token, or an initial / short form of one (J. Smith, Hiro Tanaka)."""
    people = [i for i, n in enumerate(names) if n.type == "person" and len(n.words) >= 2]
    by_head: dict[str, list[int]] = defaultdict(list)
    for i in people:
        for word in set(names[i].words):
            by_head[word[:1] if len(word) < 3 else word[:3]].append(i)
    for i in people:
        for word in set(names[i].words):
            heads = {word[:1]} if len(word) < 3 else {word[:1], word[:3]}
            for head in heads:
                for j in by_head.get(head, ()):
                    _add(pairs, i, j)


def _plurals(pairs: set[int], names: list[Name]) -> None:
    """A name and its plural by merge keys (`URL` / `URLs`, `IRQ` / `irqs`, `Policy` / `Policies`):
    a short name's, or an ending beyond the edits rule 8 allows."""
    by_key = _by_value({i: n.merge for i, n in enumerate(names)})
    for i, n in enumerate(names):
        for plural in plural_keys(n.merge):
            for j in by_key.get(plural, ()):
                _add(pairs, i, j)


def _short_names(pairs: set[int], names: list[Name]) -> None:
    """A person and a short form of their first name (`Deborah` / `Deb`): the person's first name's
    starts, looked up among short forms."""
    shorts = _by_value({i: n.merge for i, n in enumerate(names) if short_name_of(n)})
    for i, n in enumerate(names):
        first = person_first_word(n) or ""
        for end in range(2, min(len(first), 7)):
            for j in shorts.get(first[:end], ()):
                _add(pairs, i, j)


def _trigram_prefix_filter(pairs: set[int], grams: dict[int, Collection[str]]) -> None:
    """AllPairs for Jaccard >= 0.8 with two shared tokens (an l-prefix filter, l = 2). A pair sharing
    80% of its union shares at least `need` = ceil(0.8 / 1.8 (|x| + |y|)) trigrams, at most |x| - need
    of the larger set's are not shared, so the first two shared trigrams (rarest first) stand among its
    first |x| - ceil(0.8 |x|) + 2 and among the smaller one's first |y| - ceil(1.6 / 1.8 |y|) + 2.
    Visiting sets from small to large, each indexes the pairs of its own such prefix and probes with
    the pairs of the longer one; a candidate is one with |y| >= 0.8 |x| (index lists grow in size
    order, so that is a bisect). One shared trigram alone made ten times the candidates on common
    syllables. A spelling key has at least two trigrams.

    Before the exact check, a candidate must pass its marks: each set's trigrams as bits of a
    128-bit word. A bit of x's that y lacks is a trigram of x's that y lacks, and y may lack no more
    than |x| - ceil(0.8 |x|) of x's trigrams (the two share 80% of their union, which is at least x).

    An index entry is one name, or a list of them in visiting order (most pairs of rare trigrams are
    one name's: a million names make millions of entries), and a set's trigram ranks are let go once
    it is visited: the filter was a third of a large pass's peak."""
    frequency = Counter(chain.from_iterable(grams.values()))
    rank = {g: r for r, g in enumerate(sorted(frequency, key=lambda g: (frequency[g], g)))}
    width = len(rank)
    ranked = {i: sorted(map(rank.__getitem__, gs)) for i, gs in grams.items()}
    span = max(grams, default=-1) + 1  # marks and sizes by position: lists take a fifth of a dict's room
    marks, size_of = [0] * span, [0] * span
    for i, ranks in ranked.items():
        marks[i], size_of[i] = sum(1 << r for r in {r & 127 for r in ranks}), len(ranks)
    index: dict[int, int | list[int]] = {}
    for i in sorted(ranked, key=lambda i: (size_of[i], i)):
        tokens, size = ranked.pop(i), size_of[i]
        least = 0.8 * size
        found: set[int] = set()
        slack = size - -(-8 * size // 10)
        for a, b in combinations(tokens[: slack + 2], 2):
            entry = index.get(a * width + b)
            if isinstance(entry, int):
                if size_of[entry] >= least:
                    found.add(entry)
            elif entry is not None:
                found.update(entry[bisect_left(entry, least, key=size_of.__getitem__) :])
        mine, mark = grams[i], marks[i]
        for j in found:
            if (mark & ~marks[j]).bit_count() <= slack and grams_close(mine, grams[j]):
                _add(pairs, i, j)
        for a, b in combinations(tokens[: size - -(-16 * size // 18) + 2], 2):
            _file(index, a * width + b, i)


def _listed(entry: _V | list[_V]) -> list[_V]:
    """An entry `_file` made, as a list."""
    return entry if isinstance(entry, list) else [entry]


def _file(index: dict[_K, _V | list[_V]], key: _K, value: _V) -> None:
    """Index `value` (never a list) under `key`: an entry is one value, or a list of them once there
    are more (most entries of a large index hold one)."""
    entry = index.get(key)
    if entry is None:
        index[key] = value
    elif isinstance(entry, list):
        entry.append(value)
    else:
        index[key] = [entry, value]


# Incremental blocking. Each family above pairs two names only when they share something exact: a
# key, a word run, an initial, a segment of the spelling key. A name's *tokens* say what it has, its
# *probes* what a partner must have (a token typed by the letter before it): every pair a family
# makes has a probe of one side among the tokens of the other (a test checks it against every pair
# blocking makes). So a pass that kept every name's tokens finds the partners of the names new since,
# and runs the families on those few names only.
#
#   m merge key (and accent-free key)      S the casefolded key's stem before a file suffix
#   W the words   R runs of them 1-2 words shorter   c the core of a name with a company suffix
#   A an acronym  I initials   H a person's 3-letter word head   L / N a person's long / short word's initial
#   C the spelling key 1-3 characters shorter, or a short key less one letter
#   E a segment of the spelling key (edit distance)
#   P a start of a person's first name   Q a short form a person may be called by (`Deb`)
#   G a trigram of the spelling key's prefix, rarest first by a gram order kept beside the tokens, and
#     how many trigrams the key has (the probes ask for every count a Jaccard of 0.8 allows)
_PARTNERS = {
    "m": "mC", "S": "", "W": "Rc", "R": "W", "c": "cW", "A": "I", "I": "A", "H": "H", "L": "N", "N": "LN",
    "C": "m", "P": "Q", "Q": "P",
}  # fmt: skip


def gram_order(names: Iterable[Name]) -> dict[str, int]:
    """Trigrams by how many of these names have them, rarest first: the order the G tokens are cut by
    (a gram it does not know comes first; any one order serves, as long as both sides use it)."""
    frequency = Counter(g for n in names for g in n.grams)
    return {g: r for r, g in enumerate(sorted(frequency, key=lambda g: (frequency[g], g)), 1)}


def name_tokens(n: Name, order: dict[str, int]) -> set[str]:
    """What the name has, as typed tokens, each under its digit runs (only names of one group pair)."""
    out: set[str] = set()
    add = out.add
    if n.merge:
        add("m" + n.merge)
    if n.plain and n.plain != n.merge:
        add("m" + n.plain)
    written = written_out(n.merge)
    if written not in (n.merge, n.plain):
        add("m" + written)
    match = _SUFFIX.match(n.folded)
    if match:
        add("S" + match.group(1))
    words = n.words
    if words:
        add("W" + "\x1f".join(words))
        count = len(words)
        for length in (count - 1, count - 2):
            for start in range(count - length + 1) if length >= 1 else ():
                add("R" + "\x1f".join(words[start : start + length]))
    if n.core and n.core != words:
        add("c" + "\x1f".join(n.core))
    if n.acronym:
        add("A" + n.folded)
    for initials in n.initials:
        add("I" + initials)
    if n.type == "person" and len(words) >= 2:
        for word in words:
            if len(word) >= 3:
                add("H" + word[:3])
                add("L" + word[:1])
            else:
                add("N" + word[:1])
    first = person_first_word(n) or ""
    for end in range(2, min(len(first), 7)):
        add("P" + first[:end])
    if short_name_of(n):
        add("Q" + n.merge)
    for shorter in one_letter_less(n.merge):
        add("C" + shorter)
    if n.spelling_eligible:
        key = n.merge
        for cut in (1, 2, 3):
            if len(key) - cut >= 5:
                add("C" + key[:-cut])
        try:  # every gram known to the order (ranks are distinct): the quick sort
            grams = sorted(n.grams, key=order.__getitem__)
        except KeyError:  # new grams first, by themselves
            grams = sorted(n.grams, key=lambda g: (order.get(g, 0), g))
        for gram in grams[: len(grams) - math.ceil(0.8 * len(grams) - 1e-9) + 1]:
            add(f"G{len(grams)}:{gram}")
        k = _limit(len(key))
        for part, (start, size) in enumerate(_segments(len(key), k + 1)):
            add(f"E{len(key)}:{part}:{key[start : start + size]}")
    group = ".".join(n.digits)
    return {f"{group}|{token}" for token in out}


def within_edits(key: str, other: str) -> bool:
    """What the edit-distance family keeps: two keys within the edits rule 8 allows."""
    limit = _limit(min(len(key), len(other)))
    return abs(len(key) - len(other)) <= limit and Levenshtein.distance(key, other, score_cutoff=limit) <= limit


def grams_close(mine: Collection[str], theirs: Collection[str]) -> bool:
    """What the trigram family keeps: two names' distinct trigrams sharing 80% of their union."""
    shared = len(frozenset(mine).intersection(theirs))
    return shared >= 0.8 * (len(mine) + len(theirs) - shared)


SPELLING_TOKENS = "EG"  # the token kinds of the edit-distance and trigram families: what `within_edits` and
# `grams_close` check (a pair either family finds shares a token of that family's kind)


def name_probes(n: Name, tokens: set[str]) -> set[str]:
    """Tokens one of which every partner of the name has. From this side only: the name's own
    spelling key and its swaps and stems as merge keys, and the spelling key's substrings where a
    segment of a key within k edits must stand (a key within k edits of another holds one of the
    other's k + 1 segments near its place, whichever of the two is longer)."""
    out = set()
    for token in tokens:
        group, _, body = token.partition("|")
        for kind in _PARTNERS[body[0]] if body[0] in _PARTNERS else ():
            out.add(f"{group}|{kind}{body[1:]}")
    group = ".".join(n.digits)
    out.add(f"{group}|S{n.folded}")  # names that are this one with a file suffix
    stem = caps_plural_of(n.key)  # an acronym's plural and the acronym (`URLs` / `URL`)
    if stem:
        out.add(f"{group}|m{merge_of(stem)}")
    for plural in plural_keys(n.merge):  # and the name's plurals (`Policy` / `Policies`)
        out.add(f"{group}|m{plural}")
    match = _SUFFIX.match(n.folded)
    if match:  # and the name this one is without its suffix
        out.add(f"{group}|m{merge_of(match.group(1))}")
    if n.spelling_eligible:
        key, size = n.merge, len(n.grams)
        for token in tokens:
            body = token.partition("|")[2]
            if body[0] == "G":
                gram = body.partition(":")[2]
                for other in range(math.ceil(0.8 * size - 1e-9), math.floor(size / 0.8 + 1e-9) + 1):
                    out.add(f"{group}|G{other}:{gram}")
        if len(key) < 8:  # two adjacent characters swapped
            for at in range(len(key) - 1):
                out.add(f"{group}|m{key[:at]}{key[at + 1]}{key[at]}{key[at + 2 :]}")
        for length in range(max(5, len(key) - 2), len(key) + 3):
            delta = len(key) - length
            if abs(delta) > _limit(min(length, len(key))):
                continue
            k = _limit(length)  # the other key is cut into k + 1 segments by its own length
            for part, (start, size) in enumerate(_segments(length, k + 1)):
                for shift in range(max(-part, delta - (k - part)), min(part, delta + (k - part)) + 1):
                    at = start + shift
                    if 0 <= at and at + size <= len(key):
                        out.add(f"{group}|E{length}:{part}:{key[at : at + size]}")
    return out

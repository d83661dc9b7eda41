"""Duplicate and contradicting passages, found without comparing all pairs.

Passages are compared as sets of word 3-grams. An exact prefix-filter join (AllPairs) proposes only
pairs whose sets share one of their rarest 3-grams; it cannot miss a pair above the threshold, because
two sets with Jaccard >= t must share one of the first |s| - ceil(t·|s|) + 1 tokens of each in any
fixed global order. Every proposed pair is then verified exactly.

- duplicate: >= 8 words each, different sources, 3-gram Jaccard >= 0.75;
- contradiction: near-duplicates once numbers are masked and negations dropped, naming the same
  entities, whose words differ only in a value (a number, a measure, a plain version) or in a
  negation; or two values of a single-valued predicate for one subject; or declared with
  `"contradicts": [ids]`; or a `Revert "..."` passage and the commit it names.

Templates are not conflicts. Ids, hashes, dates and package versions inside a name
(`antchain-ak-16850fb7…`, `cloudauth20200618`, `libxrandr 2:1.3.1-2`) and issue numbers (`#4922`)
are not values; passages whose other words differ (another package, another subject) do not
contradict each other; a family of three or more passages on one masked template is a series (a
generated listing, or updates one after another), worth at most one finding; two updates where
the newer starts from the older's value (`from 4.2.0 to 5.0.0` / `from 5.0.0 to 6.0.0`) are a
history, not a conflict. A series of one statement whose value changed more than once (`timeout is
30 s` / `45 s` / `90 s`, written at different times) is a timeline: one question, which value is
current. Entities named by a large share of the passages (sign-offs, link texts) give no impact.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from difflib import SequenceMatcher
from itertools import chain, pairwise
from typing import TYPE_CHECKING

from memo_tui.errors import MemoError
from memo_tui.runtime.config import section
from memo_tui.runtime.processes import second_process
from memo_tui.store import Entity, Mention, Passage, Relation
from memo_tui.store.kinds import CONTRADICTION, DUPLICATE, PassageKind
from memo_tui.store.rows import tuples
from memo_tui.store.statements import as_datetime, paused_gc, rows_of, slices

if TYPE_CHECKING:  # similar_sets imports numpy: only the searches that use it load it
    from memo_tui.text.similar_sets import Kept

DUPLICATE_JACCARD = 0.75
DUPLICATE_MIN_WORDS = 8
NEAR_JACCARD = 0.7  # 3-grams of the masked text, for contradictions
NEAR_MIN_WORDS = 5
SAME_ENTITIES = 0.5  # Jaccard of the two passages' entity sets
SINGLE_VALUED = ("owned_by", "owner", "version", "status", "lead", "located_in")
NEGATIONS = frozenset({"not", "never", "no", "none", "nobody", "cannot", "deprecated", "removed", "disabled"})
PARALLEL_MIN = 5000  # live passages from which the two searches run in two processes
FAMILY = 3  # passages on one template from which they are a series, not a pair
TIMELINE = "timeline"  # the rule of the questions a timeline is asked with
TIMELINE_MAX = 12  # values one timeline holds: a queue item shows up to `clusters.MAX_MEMBERS` passages
Scores = dict[tuple[int, int], float]  # look-alike pairs (positions i < j) -> Jaccard (`similar_pairs`)
BOILERPLATE_SHARE = 0.01  # an entity named by more than this share of live passages gives no impact
# A value: a number, a decimal or a plain version, with an optional unit (30, 1.5, 60s, 10ms, 4.2.0, 15%)
_VALUE = re.compile(r"^v?\d+(?:[.,]\d+)*(?:%|[a-z]{1,3})?$")
_NUMBERED = re.compile(r"#(\d+)\b")  # an issue or a pull request, by its number
_DATE = re.compile(r"^(?:19|20)\d{2}(?:[-/.]?\d{2}){2}$")  # 20150928, 2015-09-28
REVERT = re.compile(r'^\s*Revert\s+["“](.+?)["”]\s*$', re.MULTILINE)
REVERTS_COMMIT = re.compile(r"\bThis reverts commit ([0-9a-f]{7,40})\b")  # git revert's body
SHORT_COMMIT = 7  # the shortest commit id git abbreviates to

WORD = re.compile(r"\w+(?:[.'’:/-]\w+)*")
NUMBER = "0"


def words(text: str) -> list[str]:
    return WORD.findall(text.casefold())


def _is_negation(word: str) -> bool:
    return word in NEGATIONS or "n't" in word or "n’t" in word


_NEGATION = re.compile(r"\b(?:no longer|" + "|".join(sorted(NEGATIONS)) + r")\b|\b\w+n['’]t\b")
_NUMBERS = re.compile(r"\b\w*\d[\w.'’:/-]*")


def _word_id(word: str) -> int:
    """A word's number, the same in every process (its two checksums): a search keeps 3-grams for
    the next one."""
    data = word.encode()
    return zlib.crc32(data) | zlib.adler32(data) << 32


_WORD_IDS: dict[str, int] = {}


def _word_ids(words_: list[str]) -> list[int]:
    known = _WORD_IDS
    try:  # most words are known after the first passages
        return list(map(known.__getitem__, words_))
    except KeyError:
        return [known[word] if word in known else known.setdefault(word, _word_id(word)) for word in words_]


class _Masked(dict):
    """word -> the numbers of the words it leaves once masked (none, or one as a rule), learned once
    a word: a negation is dropped, and a run that holds a digit turned into one token."""

    def __missing__(self, word: str) -> tuple[int, ...]:
        if word.isalpha() and word not in NEGATIONS:  # most words: letters only, no negation, left as they are
            left = self[word] = (_word_id(word),)
        else:
            left = self[word] = tuple(map(_word_id, WORD.findall(_NUMBERS.sub(NUMBER, _NEGATION.sub(" ", word)))))
        return left


_MASKED = _Masked()


def masked_ids(text: str, folded_words: list[str] | None = None) -> list[int]:
    """The numbers of the words with every number turned into one token and negations dropped ("no
    longer" as a whole), so that two passages saying the same thing with another number or polarity
    look alike. Masked word by word (`folded_words`: `words(text)`, when the caller has them): the
    text is read through once, and each distinct word masked once. It differs from masking the text
    as a whole only where a number runs on through two marks into the next word (`1..10`, `2--3`)."""
    if "no longer" in text.casefold():  # the one negation of two words
        folded_words = words(_NEGATION.sub(" ", text.casefold()))
    elif folded_words is None:
        folded_words = words(text)
    return list(chain.from_iterable(map(_MASKED.__getitem__, folded_words)))


def _plain_ids(plain: list[str]) -> list[int]:
    """The numbers of a passage's words as the duplicate search compares them (none below 8 words)."""
    return _word_ids(plain) if len(plain) >= DUPLICATE_MIN_WORDS else []


def _masked_ids(text: str, plain: list[str]) -> list[int]:
    """The numbers of a passage's masked words as the contradiction search compares them (none below 5 words)."""
    return masked_ids(text, plain) if len(plain) >= NEAR_MIN_WORDS else []


def jaccard(a: set, b: set) -> float:
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared) if a or b else 0.0


def passage_sets(texts: Sequence[str], near: Sequence[bool] | None = None) -> list[tuple[set[int], set[int]]]:
    """Passages' 3-grams as the two searches compare them: their words (8 or more of them) for
    duplicates, their masked words (5 or more words) for contradictions (none where `near` says no);
    empty when a passage is too short."""
    from memo_tui.text.similar_sets import grams  # numpy: imported by a search, not by every command

    plain = list(map(words, texts))
    masked = [
        _masked_ids(text, mine) if near is None or near[k] else []
        for k, (text, mine) in enumerate(zip(texts, plain, strict=True))
    ]
    dup, near_sets = grams(list(map(_plain_ids, plain))).sets(), grams(masked).sets()
    return list(zip(dup, near_sets, strict=True))


def differing_words(left: str, right: str) -> tuple[list[str], list[str]]:
    """The words of each text that the other does not have at that place (for reasons and highlights)."""
    return _differing(words(left), words(right))


def _differing(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    only_left: list[str] = []
    only_right: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op != "equal":
            only_left += a[i1:i2]
            only_right += b[j1:j2]
    return only_left, only_right


# words that join a subject to its value ("the timeout IS 30"): left out of the subject a reason names
_LINKING = frozenset("a an the is are was were be been to at of now set from by for on in as".split())


def _said(left_text: str, right_text: str) -> list[tuple[list[str], list[str], list[str], list[str]]]:
    """For each place the texts differ: (words before it in the older text, the older words, the
    newer words, words after it in the newer text), in the texts' own spelling."""
    a, b = WORD.findall(left_text), WORD.findall(right_text)
    matcher = SequenceMatcher(a=[w.casefold() for w in a], b=[w.casefold() for w in b], autojunk=False)
    return [
        (a[max(0, i1 - 6) : i1], a[i1:i2], b[j1:j2], b[j2 : j2 + 4])
        for op, i1, i2, j1, j2 in matcher.get_opcodes()
        if op != "equal"
    ]


def _subject_and_unit(before: list[str], after: list[str]) -> tuple[str, str]:
    """What a value is of (the last words before it, but linking words) and its unit (the word after it)."""
    subject = " ".join([w for w in before if w.casefold() not in _LINKING][-4:])
    unit = f" {after[0]}" if after and after[0].isalpha() and after[0].casefold() not in _LINKING else ""
    return subject, unit


def _value_change(left_text: str, right_text: str) -> str:
    """`Acme Gateway request timeout: 30 → 60 seconds`: the subject, the old and new value, the unit."""
    parts = []
    for before, old, new, after in _said(left_text, right_text):
        subject, unit = _subject_and_unit(before, after)
        change = f"{' '.join(old) or '—'} → {' '.join(new) or '—'}{unit}"
        parts.append(f"{subject}: {change}" if subject else change)
    return "; ".join(parts)


def _day(when: datetime | str) -> str:
    return when.strftime("%Y-%m-%d") if isinstance(when, datetime) else str(when)[:10]


def _timeline_reason(members: list[Live]) -> str:
    """`Acme Gateway job timeout took 3 values from 2026-01-10 to 2026-03-01: 30 s (2026-01-10) →
    45 s (2026-02-02) → 90 s (2026-03-01); which is current?` (`members`: oldest first)."""
    first, last = members[0], members[-1]
    before, _, newest, after = _said(first.text, last.text)[0]
    subject, unit = _subject_and_unit(before, after)
    values = [_said(m.text, last.text)[0][1] for m in members[:-1]] + [newest]
    said = " → ".join(f"{' '.join(v)}{unit} ({_day(m.created_at)})" for v, m in zip(values, members, strict=True))
    span = f"{len(members)} values from {_day(first.created_at)} to {_day(last.created_at)}"
    return f"{subject + ' took ' if subject else ''}{span}: {said}; which is current?"


def _negation_change(left_text: str, right_text: str, added: bool) -> str:
    """`"no longer use Redis Cluster…": the newer passage negates the older one` (or drops its negation)."""
    before, _, new, after = _said(left_text, right_text)[0]
    quoted = " ".join((new if added else before[-2:]) + after) + ("…" if len(after) == 4 else "")
    if added:
        return f'"{quoted}": the newer passage negates the older one'
    return f'"{quoted}": the newer passage drops the older one\'s negation'


@dataclass
class Finding:
    kind: PassageKind
    left: int  # passage row ids, older first
    right: int
    score: float
    rule: str
    reason: str
    impact: int = 0
    left_name: str = ""  # external ids
    right_name: str = ""


@dataclass
class ConflictReport:
    duplicates: int = 0
    contradictions: int = 0
    skipped_settled: int = 0
    moot: int = 0
    passages: int = 0
    unchanged: bool = False  # skipped: nothing the search reads changed since it last ran
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True)
class Live:
    id: int
    external_id: str
    text: str
    source: str | None
    created_at: datetime
    declared: dict


def live_passages(namespace: str) -> list[Live]:
    query = (
        Passage.select(
            Passage.id, Passage.external_id, Passage.text, Passage.source, Passage.created_at, Passage.declared
        )
        .where((Passage.namespace == namespace) & Passage.retired_at.is_null())
        .order_by(Passage.id)
    )
    rows = rows_of(query)  # raw rows: no per-value conversion for 100k passages
    return [
        Live(pid, ext, text, src, as_datetime(at), json.loads(dec) if dec else {})
        for pid, ext, text, src, at, dec in rows
    ]


def _entities_of(namespace: str) -> dict[int, set[int]]:
    live = Passage.select(Passage.id).where((Passage.namespace == namespace) & Passage.retired_at.is_null())
    named: dict[int, set[int]] = defaultdict(set)
    query = Mention.select(Mention.passage, Mention.entity).where(Mention.active & Mention.passage.in_(live))
    for pid, eid in rows_of(query):
        named[pid].add(eid)
    return named


def single_valued() -> tuple[str, ...]:
    value = section("conflicts").get("single_valued", list(SINGLE_VALUED))
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MemoError("settings: [conflicts] single_valued must be a list of predicate names")
    return tuple(value)


def find_conflicts(namespace: str) -> list[Finding]:
    """Every duplicate and contradiction among the namespace's live passages, strongest first (the
    full search a pass makes, as `conflict_search.begin` runs it, collector paused too)."""
    with paused_gc():
        named = _entities_of(namespace)
        counts = Counter(eid for eids in named.values() for eid in eids)
        return search_all(live_passages(namespace), named, counts)[1]


def search_all(
    passages: list[Live],
    named: dict[int, set[int]],
    counts: dict[int, int],
    kept: list[Kept] | None = None,
    single: list[Finding] | None = None,
) -> tuple[list[Finding], list[Finding]]:
    """Compare every passage with every other: the look-alike pairs found, and the findings made of
    them and of the declared, reverted and single-valued conflicts (`named`: passage id -> the
    entities it names; `counts`: entity id -> live passages naming it; `kept`: as `_pairs` keeps it;
    `single`: the single-valued conflicts when they were read already, before a fold moved relations)."""
    dup_pairs, near = _pairs([p.text for p in passages], [named.get(p.id, set()) for p in passages], kept)
    found = [
        finding
        for i, j in sorted(set(dup_pairs) | set(near))
        if (finding := classify(passages[i], passages[j], named, dup_pairs.get((i, j)), near.get((i, j))))
    ]
    by_id = {p.id: p for p in passages}
    single = single_valued_conflicts(by_id) if single is None else single
    special = declared_conflicts(passages) + revert_conflicts(passages) + single
    return found, assemble(found, special, by_id, named, counts, len(passages))


def assemble(
    found: list[Finding],
    special: list[Finding],
    by_id: dict[int, Live],
    named: dict[int, set[int]],
    counts: dict[int, int],
    live: int,
) -> list[Finding]:
    """The findings a search makes of its look-alike pairs (`found`, each a duplicate or a
    contradiction) and of the declared, reverted and single-valued ones (`special`), with their
    impact: a family of FAMILY or more look-alike passages is a series, one finding at most.
    `by_id`: every passage a finding names; `named`, `counts`: their entities and how many live
    passages name each; `live`: how many passages are live. Copies: `found` is left as it was."""
    family = _families([(f.left, f.right) for f in found])  # of what was found: a rejected look-alike is no kin
    findings: dict[frozenset[int], Finding] = {}
    series: dict[int, list[Finding]] = defaultdict(list)  # family root -> its findings
    for finding in found:
        members = family[finding.left]
        if len(members) >= FAMILY:
            series[members[0]].append(finding)
        else:
            findings[frozenset((finding.left, finding.right))] = replace(finding)
    for members_findings in series.values():
        # a series: one statement whose value changed is a timeline; else its repeats are one finding
        # (the newest pair), and its changing values (a template's) none
        timeline = _timeline(members_findings, by_id)
        if timeline:
            findings.update((frozenset((f.left, f.right)), f) for f in timeline)
            continue
        repeats = [f for f in members_findings if f.kind == DUPLICATE]
        if repeats:
            newest = max(repeats, key=lambda f: (by_id[f.right].created_at, f.right, by_id[f.left].created_at, f.left))
            size = len({x for f in members_findings for x in (f.left, f.right)})
            newest = replace(newest, reason=f"{newest.reason}; one of {size} near-identical passages")
            findings[frozenset((newest.left, newest.right))] = newest
    for finding in special:
        findings[frozenset((finding.left, finding.right))] = replace(finding)
    boilerplate = max(20, BOILERPLATE_SHARE * live)
    for finding in findings.values():
        shared = named.get(finding.left, set()) & named.get(finding.right, set())
        finding.impact = max((counts[eid] for eid in shared if counts[eid] <= boilerplate), default=1)
        finding.left_name, finding.right_name = by_id[finding.left].external_id, by_id[finding.right].external_id
    return sorted(findings.values(), key=lambda f: (f.kind != CONTRADICTION, -f.impact, -f.score, f.left, f.right))


def _timeline(series: list[Finding], by_id: dict[int, Live]) -> list[Finding]:
    """A series that is one statement whose value changed over time, as a chain of its passages,
    oldest to newest (one queue item: which value is current?); empty for any other series. Every
    two of its passages contradict each other by a value at one place (a bump that starts from the
    last one's value, or a counter beside the value, is no timeline), each was written at another
    time (a template's passages are written at once), and they are few."""
    members = sorted({x for f in series for x in (f.left, f.right)}, key=lambda m: (by_id[m].created_at, m))
    pairs = {frozenset((f.left, f.right)): f for f in series}
    if not (len(members) <= TIMELINE_MAX and len(pairs) == len(members) * (len(members) - 1) // 2):
        return []
    if len({by_id[m].created_at for m in members}) < len(members):
        return []
    if not all(f.rule == "differs-number" and len(_said(by_id[f.left].text, by_id[f.right].text)) == 1 for f in series):
        return []
    reason = _timeline_reason([by_id[m] for m in members])
    return [
        replace(pairs[frozenset((old, new))], left=old, right=new, rule=TIMELINE, reason=reason)
        for old, new in pairwise(members)
    ]


def duplicate_pairs(texts: list[str], kept: list[Kept] | None = None) -> Scores:
    """Pairs of texts of 8+ words sharing at least 75% of their word 3-grams."""
    from memo_tui.text.similar_sets import grams, similar_pairs

    return similar_pairs(grams([_plain_ids(words(text)) for text in texts]), DUPLICATE_JACCARD, kept=kept)


def near_pairs(texts: list[str], entity_sets: list[set[int]], kept: list[Kept] | None = None) -> Scores:
    """Pairs of texts of 5+ words that look alike once numbers are masked and negations dropped, and
    that name nearly the same entities (only those can contradict each other: a text that names none
    pairs with none, and its masked 3-grams are not made, nor indexed)."""
    from memo_tui.text.similar_sets import grams, similar_pairs

    # the id lists and their 3-grams are held by no name here: each is let go once the next is made
    # (the join lets the 3-grams go once its plan is made)
    return similar_pairs(
        grams(
            [_masked_ids(text, words(text)) if named else [] for text, named in zip(texts, entity_sets, strict=True)]
        ),
        NEAR_JACCARD,
        also=(entity_sets, SAME_ENTITIES),
        kept=kept,
    )


def _near_kept(texts: list[str], entity_sets: list[set[int]]) -> tuple[Scores, Kept]:
    kept: list[Kept] = []
    return near_pairs(texts, entity_sets, kept), kept[0]


def _pairs(texts: list[str], entity_sets: list[set[int]], kept: list[Kept] | None = None) -> tuple[Scores, Scores]:
    """Both kinds of candidate pairs; on a large store the second kind is found in a second process
    at the same time (the two kinds are about equal work). `kept`: as `similar_pairs` keeps it,
    for both kinds."""
    if len(texts) < PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        return duplicate_pairs(texts, kept), near_pairs(texts, entity_sets, kept)
    with second_process() as pool:
        if kept is None:
            near = pool.submit(near_pairs, texts, entity_sets)
            return duplicate_pairs(texts), near.result()
        near_and_kept = pool.submit(_near_kept, texts, entity_sets)
        duplicates = duplicate_pairs(texts, kept)
        found, near_kept = near_and_kept.result()
        kept.append(near_kept)
        return duplicates, found


def _ordered(a: Live, b: Live) -> tuple[Live, Live]:
    return (a, b) if (a.created_at, a.id) <= (b.created_at, b.id) else (b, a)


def is_value(word: str) -> bool:
    """A number that can be a value: not a date, a hash, an id or a package version."""
    return bool(_VALUE.match(word)) and not _DATE.match(word.replace(",", ""))


def classify(a: Live, b: Live, named, duplicate: float | None, near: float | None) -> Finding | None:
    left, right = _ordered(a, b)
    if near is not None:
        ents_l, ents_r = named.get(left.id, set()), named.get(right.id, set())
        if ents_l and ents_r and jaccard(ents_l, ents_r) >= SAME_ENTITIES:
            finding = _contradiction(left, right, near)
            if finding is not None:
                return finding
    if duplicate is not None and (left.source or "") != (right.source or ""):
        reason = f"{duplicate:.0%} of their word 3-grams are shared; sources {left.source} and {right.source}"
        return Finding(DUPLICATE, left.id, right.id, duplicate, "duplicate-3gram", reason)
    return None


def _contradiction(left: Live, right: Live, near: float) -> Finding | None:
    """One subject, another value: every word that differs is a value or a negation."""
    a, b = words(left.text), words(right.text)
    if not all(map(_may_be_said, set(a) ^ set(b))):
        return None  # a word only one text has (what the counts below find first, at a fraction of the cost)
    counted_a, counted_b = Counter(a), Counter(b)
    if not all(map(_may_be_said, (counted_a - counted_b).keys() | (counted_b - counted_a).keys())):
        return None  # a word one text has more often than the other differs wherever the texts differ
    only_left, only_right = _differing(a, b)
    changed = only_left + only_right
    negated = "no" in changed  # "no longer" is one negation
    if not changed or not all(is_value(w) or _is_negation(w) or (negated and w == "longer") for w in changed):
        return None  # another name, id, date or subject differs too: not the same statement
    if any(is_value(w) for w in changed):
        if set(changed) & {n for text in (left.text, right.text) for n in _NUMBERED.findall(text)}:
            return None  # an issue's or pull request's number (`#4922`, `(#5336)`): an id, not a value
        if set(only_left) & set(only_right):
            return None  # a value moved along (`from 4.2.0 to 5.0.0` / `from 5.0.0 to 6.0.0`): a history
        what = _value_change(left.text, right.text)
        return Finding(CONTRADICTION, left.id, right.id, near, "differs-number", what)
    added = any(_is_negation(w) for w in only_right)
    reason = _negation_change(left.text, right.text, added)
    return Finding(CONTRADICTION, left.id, right.id, near, "differs-negation", reason)


def _may_be_said(word: str) -> bool:
    """Whether a word that differs may belong to a contradiction: a value, a negation or "longer"
    (of "no longer": whether "no" differs too is checked once the differing words are known)."""
    return is_value(word) or _is_negation(word) or word == "longer"


def _families(pairs: list[tuple[int, int]]) -> dict[int, list[int]]:
    """Connected groups of look-alike passages (by position), each as a sorted member list."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    for i, j in pairs:
        ri, rj = root(i), root(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = defaultdict(list)
    for x in sorted({x for pair in pairs for x in pair}):
        groups[root(x)].append(x)
    return {x: members for members in groups.values() for x in members}


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def reverted_commit(text: str) -> str | None:
    """The commit id a revert's body names (`This reverts commit <id>.`, as git writes it), or None."""
    match = REVERTS_COMMIT.search(text)
    return match.group(1) if match else None


def is_commit(external_id: str, commit: str) -> bool:
    """Whether a passage's external id is that commit's id, in full or abbreviated either way."""
    return len(external_id) >= SHORT_COMMIT and (commit.startswith(external_id) or external_id.startswith(commit))


def revert_conflicts(passages: list[Live]) -> list[Finding]:
    """`Revert "subject"` negates the commit its body names (`This reverts commit <id>.`: the passage
    whose external id is that id); a revert that names none, the newest passage before it whose
    first line is that subject. Never a later passage: a change is undone after it was made."""
    by_title: dict[str, list[Live]] = defaultdict(list)
    reverting = []
    for p in passages:
        title = p.text.strip().split("\n", 1)[0].strip()
        by_title[title].append(p)
        match = REVERT.match(title)
        if match:
            reverting.append((p, match.group(1).strip()))
    by_commit: dict[str, list[Live]] = defaultdict(list)  # the first letters of an external id
    if any(reverted_commit(p.text) for p, _ in reverting):
        for p in passages:
            by_commit[p.external_id[:SHORT_COMMIT]].append(p)
    out = []
    for p, title in reverting:
        commit = reverted_commit(p.text)
        if commit is None:
            named = by_title.get(title, [])
        else:
            named = [o for o in by_commit.get(commit[:SHORT_COMMIT], []) if is_commit(o.external_id, commit)]
        earlier = [o for o in named if o.id != p.id and o.created_at <= p.created_at]
        if earlier:
            original = max(earlier, key=lambda o: (o.created_at, o.id))
            undone = f'"{_short(title)}" ({original.external_id})'
            reason = f"{p.external_id} undoes {undone}: the change it made no longer holds"
            left, right = _ordered(original, p)
            out.append(Finding(CONTRADICTION, left.id, right.id, 1.0, "revert", reason))
    return out


def declared_conflicts(passages: list[Live]) -> list[Finding]:
    by_external = {p.external_id: p for p in passages}
    out = []
    for p in passages:
        for target in p.declared.get("contradicts", []):
            other = by_external.get(str(target))
            if other is not None and other.id != p.id:
                left, right = _ordered(p, other)
                out.append(
                    Finding(
                        CONTRADICTION,
                        left.id,
                        right.id,
                        1.0,
                        "declared",
                        f"{p.external_id} says it contradicts {target}",
                    )
                )
    return out


def single_valued_conflicts(by_id: dict[int, Live]) -> list[Finding]:
    """Two values of a single-valued predicate for one subject, among the passages of `by_id` (the live ones
    of a namespace)."""
    predicates = single_valued()
    if not predicates:
        return []
    stated: dict[tuple[int, str], dict[int, Live]] = defaultdict(dict)
    # every namespace's, not joined to the passages: the planner then read every passage of the
    # namespace to look for relations (most stores have few); not an IN list of every live passage
    rows = Relation.select(Relation.src, Relation.predicate, Relation.dst, Relation.passage).where(
        Relation.active & Relation.predicate.in_(predicates)
    )
    for src, predicate, dst, pid in tuples(rows):
        if pid not in by_id:  # a live passage of the namespace
            continue
        newest = stated[(src, predicate)].get(dst)
        passage = by_id[pid]
        if newest is None or (passage.created_at, passage.id) > (newest.created_at, newest.id):
            stated[(src, predicate)][dst] = passage
    ids = sorted({src for src, _ in stated} | {dst for values in stated.values() for dst in values})
    names: dict[int, str] = {}
    for part in slices(ids):
        names.update(tuples(Entity.select(Entity.id, Entity.name).where(Entity.id.in_(part))))
    out = []
    for (src, predicate), values in sorted(stated.items()):
        ordered = sorted(values.items(), key=lambda item: (item[1].created_at, item[1].id))
        for k, (old, a) in enumerate(ordered):
            for new, b in ordered[k + 1 :]:
                if a.id != b.id:
                    reason = (
                        f"{names.get(src, src)} {predicate.replace('_', ' ')}: {names.get(old, old)} → "
                        f"{names.get(new, new)} ('{predicate}' takes one value; {a.external_id}, then {b.external_id})"
                    )
                    out.append(Finding(CONTRADICTION, a.id, b.id, 1.0, f"single-valued:{predicate}", reason))
    return out

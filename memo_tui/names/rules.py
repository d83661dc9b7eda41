"""The verdict rules: `judge_pair(a, b)` -> fold, ask or no, with a score and a reason.

Rules run in order and the first that matches decides. The "no" rules come first because the pairs
that look most alike (versions, file names) are often the ones that must stay apart.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from sys import intern
from typing import Final, Literal, TypeVar

from rapidfuzz.distance import Levenshtein

from memo_tui.names.keys import digits_of, identity_key, merge_of, strip_accents, tokens_of, trigrams, written_out

COMMON_WORD_ZIPF = 3.0
EVERYDAY_WORD_ZIPF = 3.7  # react, agents, arctic - but not github (3.2), javascript (3.5)
_DOT_SUFFIX = re.compile(r"^(.+)\.([a-z0-9]{1,4})$")
# Marks of a code identifier: an underscore, a path or scope separator, a call, a dot between letters
# (`requests.Session`, `Model.select`), or a lowercase start with an inner capital (`getUserId`).
_CODE_MARK = re.compile(r"_|/|::|\(|[A-Za-z]\.[A-Za-z]|^[a-z]+[A-Z]")
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_]+")  # words, camel humps, digit runs
_SEPARATED = re.compile(r"[\W_]+")
# Suffixes that make a web site of a name (`httpbin.org`), not a file.
SITE_SUFFIXES = frozenset("org com net io dev ai app".split())
# Suffixes of a text document in another format (README.md, NEWS.gz, NOTICE.txt).
DOCUMENT_SUFFIXES = frozenset("md txt rst markdown adoc gz".split())
_T = TypeVar("_T")


VerdictKind = Literal["fold", "ask", "no"]
FOLD: Final = "fold"  # the same entity: fold the two unasked (when the store's evidence is certain)
ASK: Final = "ask"  # maybe the same: ask a reviewer
NO: Final = "no"  # not the same
LOWERCASE = "case-lowercase"  # the rule that asks about a name and its all-lowercase spelling


@dataclass(frozen=True, slots=True)
class Verdict:
    kind: VerdictKind
    score: float
    rule: str
    reason: str = ""  # empty, or only notes added since (each "; ..."), on a verdict a pass remembered: `told`


def told(a: Name, b: Name, verdict: Verdict) -> str:
    """The verdict's reason. A pass remembers its verdicts without theirs (millions are held at once,
    a few are written as questions): the rules give it again, from the names it was judged on (`a`
    the lower id, as every remembered verdict was judged), followed by the notes added since."""
    if verdict.reason and not verdict.reason.startswith("; "):
        return verdict.reason
    return judge_pair(a, b).reason + verdict.reason


class Name:
    """Everything the rules need about one entity's name, computed once (a plain class with slots:
    the resolver builds one per entity, a million on big stores)."""

    __slots__ = (
        "id", "name", "type", "key", "folded", "merge", "plain", "words", "digits", "grams", "core", "acronym",
        "initials", "spelling_eligible", "code", "_parts", "_marks",
    )  # fmt: skip

    def __init__(self, id: int | None, name: str, type: str | None = None) -> None:  # noqa: A002
        self.id, self.name, self.type = id, name, type
        # equal strings and tuples are one object: a million names are held at once
        self.key = key = identity_key(name)
        self.folded = folded = _same(key, key.casefold())
        self.merge = merge = _same(folded, merge_of(key))
        self.plain = strip_accents(merge)  # merge key without accents
        words = tuple(intern(t.casefold()) for t in tokens_of(key))  # casefolded tokens
        self.words = words = (folded,) if words == (folded,) else words
        self.digits = digits_of(key)
        self.spelling_eligible = _eligible(merge)  # rule 8 asks only about long, varied enough names
        self.grams = tuple(trigrams(merge)) if self.spelling_eligible else ()  # a tuple: a sixth of a set's size
        self.core = _same(words, tuple(w for w in words if w not in COMPANY_SUFFIXES))  # without Inc, Corp, ...
        # one token of 2-6 letters with two or more capitals: AWS, RoR, EU; not an acronym's plural (`APs`
        # is more access points than `AfterLink Protocol SDK`)
        self.acronym = (
            len(words) == 1
            and 2 <= len(key) <= 6
            and key.isalpha()
            and sum(map(str.isupper, key)) >= 2
            and caps_plural_of(key) is None
        )
        # initials only of prose names whose words are capitalised: `Amazon Web Services`, not `create_index`
        prose_words = all(w[:1].isupper() or w.casefold() in SMALL_WORDS for w in _SEPARATED.split(key) if w)
        self.code = bool(_CODE_MARK.search(key))
        self.initials = _initials(words) if prose_words and not self.code else ()
        self._parts: tuple[str, ...] | None = None  # computed when a rule first asks (most names never are)
        self._marks: str | None = None

    @property
    def parts(self) -> tuple[str, ...]:
        """Words and camel humps, casefolded: `ReAct` -> (re, act), `scroll_x` -> (scroll, x)."""
        if self._parts is None:
            self._parts = tuple(p.casefold() for p in _PARTS.findall(self.key))
        return self._parts

    @property
    def marks(self) -> str:
        """The punctuation of the name other than spaces and hyphens, sorted."""
        if self._marks is None:
            self._marks = "".join(sorted(ch for ch in self.key if not ch.isalnum() and ch not in " -"))
        return self._marks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Name) and (self.id, self.name, self.type) == (other.id, other.name, other.type)

    def __hash__(self) -> int:
        return hash((self.id, self.name, self.type))

    def __repr__(self) -> str:
        return f"Name({self.id!r}, {self.name!r}, {self.type!r})"


# Legal and institutional suffixes of organisation names: a closed, well-known set.
COMPANY_SUFFIXES = frozenset(
    "inc incorporated corp corporation co company llc ltd limited plc gmbh ag sa nv bv pbc group holdings "
    "foundation university".split()
)
SMALL_WORDS = frozenset("of on the and for de der la le".split())


def _same(value: _T, other: _T) -> _T:
    """`value` when `other` equals it, else `other`."""
    return value if other == value else other


def _initials(words: tuple[str, ...]) -> tuple[str, ...]:
    """Initials of a multi-token name, with and without small words ('ror', 'rr' for Ruby on Rails)."""
    if len(words) < 2:
        return ()
    letters = "".join(w[0] for w in words if w[0].isalpha())
    content = "".join(w[0] for w in words if w[0].isalpha() and w not in SMALL_WORDS)
    return tuple(intern(x) for x in dict.fromkeys((letters, content)) if len(x) >= 2)


def _eligible(merge: str) -> bool:
    return len(merge) >= 5 and entropy(merge) >= 1.5


def spelling_key(name: str) -> str | None:
    """The merge key rule 8 judges a name by, or None when the name is too short or too repetitive."""
    merge = merge_of(identity_key(name))
    return merge if _eligible(merge) else None


def entropy(text: str) -> float:
    """Shannon entropy of the characters of `text`, in bits."""
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in map(text.count, set(text))) if total else 0.0


_ZIPF: dict[str, float] = {}  # word -> its frequency, looked up or handed over (`known_frequencies`)
ZIPF_KEPT = 200_000  # words whose frequency a process keeps: the vocabulary of names and prose, bounded


def zipf(word: str) -> float:
    """How common a word is in English, by a maintained frequency list (wordfreq's Zipf scale; the
    whole list is slow to load for a few words, so a pass hands over the frequencies its rules looked up)."""
    found = _ZIPF.get(word)
    if found is None:
        from wordfreq import zipf_frequency

        found = zipf_frequency(word, "en")
        if len(_ZIPF) < ZIPF_KEPT:
            _ZIPF[word] = found
    return found


def known_frequencies() -> dict[str, float]:
    """The word frequencies this process has looked up or been handed."""
    return dict(_ZIPF)


def learn_frequencies(found: dict[str, float]) -> None:
    """Frequencies looked up elsewhere (by the same wordfreq: the pass memory's tag names it)."""
    for word, value in found.items():
        if len(_ZIPF) >= ZIPF_KEPT:
            break
        _ZIPF.setdefault(word, value)


def is_common_word(word: str) -> bool:
    """A common word of English (Zipf >= 3.0)."""
    return zipf(word) >= COMMON_WORD_ZIPF


def _type_note(a: Name, b: Name) -> str:
    if a.type and b.type and a.type != b.type:
        return f"; types differ ({a.type} / {b.type})"
    return ""


def judge_pair(a: Name, b: Name, settled: bool = False) -> Verdict:
    """The verdict for two names; `settled` is true when a keep-apart decision covers the pair."""
    if (a.id is not None and a.id == b.id) or not a.merge or not b.merge:
        return Verdict(NO, 0.0, "same-or-empty", "the same entity, or a name with no letters or digits")
    if settled:
        return Verdict(NO, 0.0, "settled", "a reviewer already decided this pair")
    if a.digits != b.digits:
        return Verdict(NO, 0.0, "numbers-differ", _digits_reason(a, b))
    note = _type_note(a, b)
    verdict = _file_suffix(a, b, note)
    if verdict is not None:
        return verdict
    if a.merge == b.merge:
        return _identical_merge_keys(a, b, note)
    if (a.key[0] in ".-") != (b.key[0] in ".-") and a.key[0].isalnum() != b.key[0].isalnum():
        # `.tables` / `TABLE`, `--force` / `Force`: a command, a file or an option beside a word
        return Verdict(NO, 0.0, "sigil", "only one name starts with punctuation: a command, file or option")
    if a.plain == b.plain or written_out(a.merge) == written_out(b.merge):
        # `Guido Günther` / `Guido Guenther`: an umlaut written out is the same letter
        return Verdict(ASK, 0.9, "accents", f"the names differ only in accents{note}")
    rules = (
        _caps_plural, _containment, _company_suffix, _acronym, _person_variant, _short_name, _plural_form,
        _one_letter_more,
        _spelling_variant,
    )  # fmt: skip
    for rule in rules:
        verdict = rule(a, b, note)
        if verdict is not None:
            return verdict
    return Verdict(NO, 0.0, "different", "the names are not spelling variants of each other")


def _digits_reason(a: Name, b: Name) -> str:
    if a.digits and b.digits:
        return f"the numbers differ ({'.'.join(a.digits)} / {'.'.join(b.digits)}): versions stay apart"
    return "only one name carries a number: a version stays apart from the unversioned name"


def _file_suffix(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 4: `memloom.ts` / `memloom`, `CLAUDE.md` / `Claude` are a file and a thing; `Vue.js` asks."""
    short, long = (a, b) if len(a.key) <= len(b.key) else (b, a)
    if "." not in long.folded or not long.folded.startswith(short.folded):
        return None
    match = _DOT_SUFFIX.match(long.folded)
    if match is None or match.group(1) != short.folded:
        return None
    suffix = match.group(2)
    if suffix == "js":
        return Verdict(ASK, 0.7, "js-suffix", f"'{long.key}' may be the JavaScript name of '{short.key}'{note}")
    if suffix in SITE_SUFFIXES:
        return Verdict(ASK, 0.65, "site", f"'{long.key}' may be the web site of '{short.key}'{note}")
    if _all_capitals(short.key) and len(short.key) >= 4 and suffix in DOCUMENT_SUFFIXES:
        # README / README.md, NEWS / NEWS.gz: a stem in capitals is the conventional name of the document
        # itself; `SYSCTL` / `sysctl.c`, `PYTHON` / `python.mk` are a symbol and a source file
        return Verdict(ASK, 0.75, "file-stem", f"'{short.key}' may be the file '{long.key}' written short{note}")
    return Verdict(NO, 0.0, "file-suffix", f"'{long.key}' names a file, not '{short.key}' itself")


def _identical_merge_keys(a: Name, b: Name, note: str) -> Verdict:
    """Rule 5: same letters and digits once case and punctuation are set aside; folds, with escapes."""
    if len(a.merge) < 3:
        return Verdict(ASK, 0.65, "short-key", f"the names agree but are too short to be sure (C# / C){note}")
    a_punct, b_punct = not a.key[0].isalnum(), not b.key[0].isalnum()
    if a_punct != b_punct:
        return Verdict(ASK, 0.65, "leading-punctuation", f"only one name starts with punctuation (.next / Next){note}")
    if a.type and b.type and a.type != b.type:
        return Verdict(ASK, 0.8, "types-differ", f"same spelling, but declared as {a.type} and {b.type}")
    lowercase = a.key == a.key.casefold() and b.key == b.key.casefold()
    caps = [n for n in (a, b) if _all_capitals(n.key)]
    if a.code or b.code or a.marks != b.marks:
        if a.key.casefold() == b.key.casefold():
            if len(caps) == 1:
                # `VIRTIO_PMEM` / `virtio_pmem`: a constant or config symbol, and the function or module
                return Verdict(
                    ASK, 0.6, "code-constant", f"'{caps[0].key}' in capitals reads as a constant of its own{note}"
                )
            # `requests.session` / `requests.Session`, `xt_RATEEST` / `xt_rateest`
            return Verdict(ASK, 0.7, "code-case", f"the same identifier in another letter case{note}")
        # `OnConflict` / `on_conflict`, `Model.select` / `ModelSelect`, `fs/dax` / `FS_DAX`: in code, the
        # punctuation is part of the name, and the two are often different objects
        return Verdict(
            ASK, 0.6, "same-letters-code", f"the same letters, but spelled as different code identifiers{note}"
        )
    if lowercase and a.key != b.key:
        # `cryptsetup reencrypt` / `cryptsetup-reencrypt`: commands and packages keep their punctuation
        return Verdict(
            ASK, 0.6, "command-spacing", f"both in lowercase, as commands are written, spaced differently{note}"
        )
    if len(caps) == 1:  # SHIP / Ship, ACME GATEWAY / Acme-Gateway
        return Verdict(ASK, 0.75, "case-acronym", f"'{caps[0].key}' may be an acronym of its own{note}")
    if a.key != b.key and a.key.casefold() == b.key.casefold():
        lower = [n for n in (a, b) if n.key == n.key.casefold()]
        if lower and len(lower[0].words) == 1 and is_common_word(lower[0].key):
            return Verdict(ASK, 0.7, "case-common-word", f"'{lower[0].key}' is also a common word{note}")
    if a.parts != b.parts:
        # the capitals or hyphens cut the name into other words: `ReAct` / `React`, `AgentS` / `Agents`;
        # when the plain spelling is an everyday word, the styled one is usually a product of its own
        plain = a if len(a.parts) < len(b.parts) else b
        if len(plain.parts) == 1 and zipf(plain.merge) >= EVERYDAY_WORD_ZIPF:
            return Verdict(ASK, 0.65, "case-styled", f"'{plain.key}' is an everyday word; the other is styled{note}")
    if (a.key == a.key.casefold()) != (b.key == b.key.casefold()):
        # `openproject` / `OpenProject`, `dcache` / `D-cache`: commands, modules, packages and plain
        # words are written in lowercase
        return Verdict(ASK, 0.85, LOWERCASE, f"one spelling is all lowercase, as commands are written{note}")
    if _joined_vs_spaced(a, b):
        # `AgentMesh` / `Agent Mesh`: one word is often a product's name, the spaced words a phrase
        return Verdict(ASK, 0.85, "joined-words", f"one is written as one word, the other as separate words{note}")
    return Verdict(FOLD, 1.0, "same-merge-key", "the names differ only in case, spaces or hyphens")


_PROSE_WORD = re.compile(r"[^\W\d_][^\W\d_A-Z]*")  # a word of letters, capitalised at most at its start
_SPACE_OR_HYPHEN = re.compile(r"[ -]")


def prose_variants(a: Name, b: Name) -> bool:
    """One prose name written with other capitals, or with spaces for hyphens (`Claude Code` /
    `Claude-Code`, `Secure boot` / `Secure Boot`): the same words, each of plain letters capitalised at
    most at its start, differing in letter case or in separators but not both (`Agent To Agent` /
    `Agent-to-Agent` are two packages). A styled or all-capitals word (`MiniMax`, `REST`) is not prose:
    such names are products, and two stylings are often two of them."""
    if a.key == b.key or a.merge != b.merge or a.code or b.code:
        return False
    words_a, words_b = _SPACE_OR_HYPHEN.split(a.key), _SPACE_OR_HYPHEN.split(b.key)
    if len(words_a) != len(words_b) or not all(_PROSE_WORD.fullmatch(w) for w in words_a + words_b):
        return False
    same_case = words_a == words_b
    same_separators = [ch for ch in a.key if ch in " -"] == [ch for ch in b.key if ch in " -"]
    return same_case != same_separators


def prose_lowercase(a: Name, b: Name) -> bool:
    """One prose name and its all-lowercase spelling, with the same separators or hyphens for its
    spaces (`Datasette` / `datasette`, `Claude Code` / `claude-code`): how running text, a command or
    a package writes the name. The rules ask about it (`case-lowercase`: `mbox` / `Mbox`, `cortex code`
    / `Cortex Code` are two things); a pass folds it unasked only where the store's evidence is
    certain (`evidence.lowercase_because`)."""
    lower, upper = (a, b) if a.key == a.key.casefold() else (b, a)
    if upper.key == upper.key.casefold() or lower.key != lower.key.casefold() or a.code or b.code:
        return False
    if not all(_PROSE_WORD.fullmatch(w) for w in _SPACE_OR_HYPHEN.split(upper.key)):
        return False
    folded = upper.key.casefold()
    return lower.key in (folded, folded.replace(" ", "-"))


def inner_capitals(a: Name, b: Name) -> bool:
    """One name written with capitals inside a word and once without (`GitHub` / `Github`,
    `CodeSandbox` / `Codesandbox`, `M2 MacBook Pro` / `M2 Macbook Pro`): the same words and separators,
    and each word that differs is one capitalised word in one name and the same letters cut into
    capitalised humps in the other. A run of capitals (`SIMTech` / `SimTech`, `AletheIA`, `APPy`) is
    not of this shape: such names are acronyms of their own, and two stylings are often two things.
    Whether the store says enough to fold it unasked is the evidence's to tell (`evidence.usual_spelling`)."""
    if a.key == b.key or a.merge != b.merge or a.code or b.code:
        return False
    if [ch for ch in a.key if ch in " -"] != [ch for ch in b.key if ch in " -"]:
        return False
    differ = [
        (x, y) for x, y in zip(_SPACE_OR_HYPHEN.split(a.key), _SPACE_OR_HYPHEN.split(b.key), strict=True) if x != y
    ]
    return bool(differ) and all(sorted((_humps(x), _humps(y)))[0] == 1 < max(_humps(x), _humps(y)) for x, y in differ)


def _humps(word: str) -> int:
    """How many capitalised humps a word of letters is made of (`Github` 1, `GitHub` 2); 0 when it is
    not made of them alone (`SIMTech`, `iPhone`, `Py3`)."""
    if not word.isalpha() or not word[0].isupper() or word[-1].isupper():
        return 0
    if any(x.isupper() and y.isupper() for x, y in zip(word, word[1:], strict=False)):
        return 0
    return sum(map(str.isupper, word))


def _joined_vs_spaced(a: Name, b: Name) -> bool:
    marks_a = {ch for ch in a.key if not ch.isalnum()}
    marks_b = {ch for ch in b.key if not ch.isalnum()}
    return (not marks_a and marks_b == {" "}) or (not marks_b and marks_a == {" "})


def _all_capitals(key: str) -> bool:
    letters = [ch for ch in key if ch.isalpha()]
    return len(letters) > 1 and all(ch.isupper() for ch in letters)


def _containment(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 7: `Claude Opus 4.8` / `Opus 4.8`; `Ada` / `Ada Lovelace` only when both are people."""
    short, long = (a, b) if len(a.words) <= len(b.words) else (b, a)
    extra = len(long.words) - len(short.words)
    people = a.type == "person" and b.type == "person"
    if not 1 <= extra <= 2 or a.code or b.code:
        return None  # an identifier inside a longer one (`set_context` / `gru_set_context_option`) is another
    n = len(short.words)
    at = next((i for i in range(extra + 1) if long.words[i : i + n] == short.words), None)
    if at is None:
        return None
    if not people:
        verdict = _activity_or_period(short, long, long.words[:at] + long.words[at + n :])
        if verdict is not None:
            return verdict
    if n == 1 and not people:
        # `Kafka` / `Apache Kafka`, `Azure` / `Microsoft Azure`: a product without its maker's name -
        # or `Boot` / `Secure Boot`, a different thing; only what the store knows can tell them apart
        if not one_word_of_name(short, long):
            return None
        return Verdict(
            ASK,
            0.6,
            "word-of-name",
            f"'{short.key}' may be '{long.key}' without its first word{note}"
            if long.words[-1] == short.words[0]
            else f"'{short.key}' may be '{long.key}' written short{note}",
        )
    what = "the same person written short and long" if people and n == 1 else "a shorter form of the longer name"
    return Verdict(ASK, round(0.6 + 0.2 * n / len(long.words), 3), "contained", f"'{short.key}' may be {what}{note}")


# Words that make a name of a period out of what it is named after: `Pride Month` is not `Pride`.
PERIOD_WORDS = frozenset("day days week weeks weekend month months year years night eve season".split())


def _activity_or_period(short: Name, long: Name, extra: tuple[str, ...]) -> Verdict | None:
    """Rule 7, kept apart: the longer name is the shorter one with an -ing verb, a doing of it
    (`Learning German` is not `German`, `JUST DOING` is not `Just`, `Machine Learning` not `Machine`),
    or with a word of the calendar, a period named after it (`Pride Month` is not `Pride`)."""
    doing = next((w for w in extra if gerund(w)), None)
    if doing is not None:
        return Verdict(NO, 0.0, "activity", f"'{long.key}' names a doing ('{doing}'), not '{short.key}'")
    period = next((w for w in extra if w in PERIOD_WORDS), None)
    if period is not None:
        return Verdict(NO, 0.0, "period", f"'{long.key}' names a {period} named after '{short.key}', not it")
    return None


def gerund(word: str) -> bool:
    """A casefolded word that is the -ing form of a common verb: `learning`, `doing`, `making`,
    `swimming`. The stem holds a vowel: `thing`, `spring`, `string` are words of their own."""
    if len(word) < 5 or not word.endswith("ing") or not word.isalpha() or zipf(word) < COMMON_WORD_ZIPF:
        return False
    stem = word[:-3]
    if not any(ch in "aeiouy" for ch in stem):
        return False
    stems = (stem, stem + "e") + ((stem[:-1],) if len(stem) >= 3 and stem[-1] == stem[-2] else ())
    return any(zipf(s) >= COMMON_WORD_ZIPF for s in stems)


def one_word_of_name(short: Name, long: Name) -> bool:
    """A capitalised word of 3+ letters that is the first or the last of a prose name of 2-3 words."""
    return (
        len(short.words) == 1
        and 2 <= len(long.words) <= 3
        and short.words[0] in (long.words[0], long.words[-1])
        and len(short.merge) >= 3
        and short.key[:1].isupper()
        and not (short.code or long.code)
    )


def _company_suffix(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 7b: `Acme Corp` / `Acme Corporation` / `Acme`: the same words once company suffixes go."""
    if a.core == b.core and a.core and (a.core != a.words or b.core != b.words):
        return Verdict(ASK, 0.8, "company-suffix", f"the names differ only by a company suffix{note}")
    return None


def _acronym(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 7c: `AWS` / `Amazon Web Services`, `MIT` / `Massachusetts Institute of Technology`."""
    short, long = (a, b) if a.acronym else (b, a)
    if short.acronym and short.folded in long.initials:
        rule = "acronym" if len(short.key) >= 3 else "short-acronym"  # two letters are the initials of anything
        return Verdict(
            ASK, 0.7 if len(short.key) >= 3 else 0.6, rule, f"'{short.key}' may be the initials of '{long.key}'{note}"
        )
    return None


def caps_plural_of(key: str) -> str | None:
    """The acronym a plural in capitals is made of (`URLs` -> `URL`, `IDs` -> `ID`), or None."""
    stem = key[:-1]
    return stem if key.endswith("s") and 2 <= len(stem) <= 6 and stem.isalpha() and stem.isupper() else None


def _caps_plural(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 7e: `URLs` / `URL`, `APIs` / `API`: an acronym and its plural, as notes write them."""
    if caps_plural_of(a.key) == b.key or caps_plural_of(b.key) == a.key:
        return Verdict(ASK, 0.8, "caps-plural", f"one is the plural of the other, an acronym{note}")
    return None


def short_name_of(n: Name) -> bool:
    """A short form a person may be called by: one capitalised word of 2-6 letters (`Deb`, `Jo`, `Cal`)."""
    key = n.key
    shaped = 2 <= len(key) <= 6 and key.isalpha() and key[0].isupper() and key[1:].islower()
    return shaped and n.type in (None, "person")


def person_first_word(n: Name) -> str | None:
    """The first word of a person's name, casefolded, when a short form of it can be told (3+ letters)."""
    return n.words[0] if n.type == "person" and n.words and len(n.words[0]) >= 3 and n.words[0].isalpha() else None


def _short_name(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 7f, people: `Deb` / `Deborah`, `Cal` / `Calvin`, `Jo` / `Joanna`: what the person is called
    for short, the start of their first name (`Bob` / `Robert` is not: no rule can tell it)."""
    for short, person in ((a, b), (b, a)):
        first = person_first_word(person)
        if first and short_name_of(short) and len(short.merge) < len(first) and first.startswith(short.merge):
            reason = f"'{short.key}' may be what '{person.key}' is called for short{note}"
            return Verdict(ASK, 0.6, "short-name", reason)
    return None


SHORT_KEY_LETTERS = range(3, 5)  # the shorter key's length for `_one_letter_more`: rule 8 judges 5 and more


def one_letter_less(key: str) -> tuple[str, ...]:
    """The merge keys `_one_letter_more` pairs a merge key with: the key less one of its letters,
    when that leaves a short key (`mell` -> `ell`, `mll`, `mel`)."""
    if len(key) - 1 not in SHORT_KEY_LETTERS:
        return ()
    return tuple(dict.fromkeys(key[:at] + key[at + 1 :] for at in range(len(key))))


def _one_letter_more(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 8 for short names, which it does not judge: `LGBT` / `LGBTQ`, a well-known acronym in
    capitals and the same with one more capital at its end but an S; `Mel` / `Mell`, a person's name (a speaker,
    or a short form of one) and the same with one more letter, when that is no common word (`Tim` /
    `Time` are a name and a word)."""
    short, long = (a, b) if len(a.merge) < len(b.merge) else (b, a)
    if len(short.merge) not in SHORT_KEY_LETTERS or short.merge not in one_letter_less(long.merge):
        return None
    if not (short.key.isalpha() and long.key.isalpha()):
        return None
    if _all_capitals(short.key) and _all_capitals(long.key) and long.key.startswith(short.key):
        if long.key.endswith("S") or not _spelled_out(short.merge) or not _spelled_out(long.merge):
            return None  # a plural, or another acronym: `PATHS`, `HTTPS`, `AAC` / `AACP`, `CAR` / `CARD`
        reason = f"'{long.key}' is the acronym '{short.key}' with one more letter{note}"
        return _variant("edit-distance", _similarity(short.merge, long.merge), reason)
    people = [n for n in (a, b) if n.type == "person"]
    if len(people) != 1 or not all(n.key[0].isupper() and n.key[1:].islower() for n in (a, b)):
        return None  # two people are two people (`Jon` / `Joan` talking to each other)
    person, other = (a, b) if people[0] is a else (b, a)
    if other.type is not None or is_common_word(other.merge):
        return None
    reason = f"'{other.key}' may be '{person.key}' mistyped{note}"
    return _variant("edit-distance", _similarity(short.merge, long.merge), reason)


def _spelled_out(merge: str) -> bool:
    """An acronym English writes often and says letter by letter (`lgbt`, `html`): one with a vowel is
    a word in capitals (`CARD`), and a rare one is one of many (`AAC`, `AACP`)."""
    return not any(ch in "aeiou" for ch in merge) and is_common_word(merge)


def _person_variant(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 7d, people only: `J. Smith` / `John Smith`, `Grace Hopper` / `Grace Murray Hopper`, `Tanaka Hiro`."""
    if a.type != "person" or b.type != "person":
        return None
    short, long = (a, b) if len(a.words) <= len(b.words) else (b, a)
    if len(short.words) < 2:
        return None
    if sorted(short.words) == sorted(long.words) or _in_order(short.words, long.words):
        return Verdict(ASK, 0.7, "person-variant", f"'{short.key}' may be '{long.key}' written another way{note}")
    return None


def _in_order(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """Every token of `short` matches a later token of `long` in order; an initial matches a name."""
    position = 0
    for token in short:
        while position < len(long) and not _token_matches(token, long[position]):
            position += 1
        if position == len(long):
            return False
        position += 1
    return True


def _token_matches(token: str, other: str) -> bool:
    """Equal, an initial of the other (`J.` / `John`), or a short form of it (`Hiro` / `Hiroshi`)."""
    short, long = (token, other) if len(token) <= len(other) else (other, token)
    return long.startswith(short) and (len(short) == 1 or len(short) >= 3)


def _spelling_variant(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 8: typos and near spellings (`memlom` / `memloom`, `Postgres` / `PostgreSQL`, `Mongo` / `MongoDB`)."""
    if not (a.spelling_eligible and b.spelling_eligible):
        return None
    if _siblings(a, b) or _longer_path(a, b):
        return None
    short, long = (a.merge, b.merge) if len(a.merge) <= len(b.merge) else (b.merge, a.merge)
    shorter, longer = (a, b) if len(a.merge) <= len(b.merge) else (b, a)
    if adjective_of(shorter, longer):
        return Verdict(NO, 0.0, "adjective", f"'{longer.key}' is the adjective of '{shorter.key}', not it{note}")
    if len(short) == len(long) >= 6 and _one_swap(short, long):  # `Dashbaord` / `Dashboard`: a slip of the fingers
        return _variant("transposed", _similarity(short, long), f"two neighbouring letters are swapped{note}")
    if (longer.merge.startswith(shorter.merge) and not shorter.key.islower()
            and _cut_in_capitals(longer.key, len(shorter.merge))):  # fmt: skip
        # `Postgres` / `PostgreSQL`: a long name written short, cut inside its capital ending (a word
        # before a whole capital word is another thing: `Light` / `LightRAG`, `Power` / `PowerPC`; and
        # a lowercase one often a command or format: `fasta` / `FastACP`)
        reason = f"'{shorter.key}' may be '{longer.key}' written short{note}"
        return _variant("short-spelling", _similarity(short, long), reason)
    limit = 2 if len(short) >= 8 else 1
    distance = Levenshtein.distance(short, long, score_cutoff=limit)
    if distance > limit and limit == 1 and _one_swap(short, long):
        distance = 1  # an adjacent transposition is one typo (Micheal / Michael), though two Levenshtein edits
    if distance <= limit:
        plural = "s" if distance > 1 else ""
        return _variant(
            "edit-distance", _similarity(short, long), f"the spellings are {distance} edit{plural} apart{note}"
        )
    small, large = sorted((len(a.grams), len(b.grams)))
    if small >= 0.8 * large:
        shared = len(frozenset(a.grams).intersection(b.grams))
        jaccard = shared / (len(a.grams) + len(b.grams) - shared)
        if jaccard >= 0.8:
            return _variant("trigrams", jaccard, f"the spellings share {jaccard:.0%} of their letter triples{note}")
    if len(long) - len(short) <= 3 and long.startswith(short):
        extra = len(long) - len(short)
        if _adds_a_word(a, b):
            longer = a if len(a.merge) > len(b.merge) else b
            return Verdict(
                ASK, 0.6, "longer-name", f"'{longer.key}' may be a more specific thing than the shorter name{note}"
            )
        return _variant("prefix", _similarity(short, long), f"'{long}' is '{short}' with {extra} more letters{note}")
    return None


# Endings that make an adjective or a demonym of a place's name: Korea-n, Europe-an, Brazil-ian,
# Midwest-ern, Japan-ese, Turk-ish, Israel-i (a bare `n` only after a vowel: Asia-n, not Kotli-n).
ADJECTIVE_ENDINGS = frozenset("n an ian ern ese ish i".split())


def adjective_of(short: Name, long: Name) -> bool:
    """`Midwest` / `Midwestern`, `Korea` / `Korean`: a place (or people) and the adjective made of it,
    both capitalised words of English (a typo is no word: `Debia` / `Debian` stays a spelling)."""
    ending = long.merge[len(short.merge) :]
    return (
        ending in ADJECTIVE_ENDINGS
        and long.merge.startswith(short.merge)
        and (ending != "n" or short.merge[-1] in "aeiou")
        and short.key.isalpha()
        and long.key.isalpha()
        and short.key[:1].isupper()
        and long.key[:1].isupper()
        and not long.key.isupper()
        and is_common_word(short.merge)
        and is_common_word(long.merge)
    )


def _cut_in_capitals(key: str, letters: int) -> bool:
    """`key` is one word whose first `letters` letters end inside a run of capitals that goes on to its
    end, 1-3 letters later (`PostgreSQL`, 8: `Postgre` + `S` | `QL`)."""
    head, tail = key[:letters], key[letters:]
    return (
        key.isalpha()
        and 1 <= len(tail) <= 3
        and tail.isupper()
        and len(head) >= 2
        and head[-1].isupper()
        and head[-2].islower()
    )


def plural_keys(key: str) -> list[str]:
    """The plurals English may make of a casefolded word or key (`plural_ending`)."""
    out = [key + "s"]
    if key.endswith(_TAKES_ES):
        out.append(key + "es")
    if len(key) >= 2 and key[-1] == "y" and key[-2] not in "aeiouy":
        out.append(key[:-1] + "ies")
    return out


_TAKES_ES = ("s", "x", "z", "ch", "sh", "o")


def plural_ending(single: str, plural: str) -> str | None:
    """How `plural` ends where it is a plural of `single` (casefolded): `s`; `es` after s, x, z, ch,
    sh or o (`fixes`, `classes`); `ies` for a y after a consonant (`dependencies`); else None."""
    if plural == single + "s":
        return "s"
    if plural == single + "es" and single.endswith(_TAKES_ES):
        return "es"
    if plural == single[:-1] + "ies" and plural in plural_keys(single):
        return "ies"
    return None


def _plural(a: Name, b: Name) -> bool:
    """`Framework` / `Frameworks`, `tool/function` / `tools/functions`, `Policy` / `Policies`: the
    merge keys, the parts, or the words differ only by a plural ending (`LLM API` / `LLM APIs`,
    `dataframe` / `DataFrames`: the capitals cut `APIs` into `ap`, `is`; `PCI ID` / `PCI IDs`); the
    keys and words only of names with the same marks, not in code beside prose (`free_irq` / `Free
    IRQs`: a function, and freeing them; `timeZone` / `timezones`: an option, and the zones). Where a
    hump of camel case starts a word (`GitHub`) the parts are the words."""
    longer = abs(len(a.merge) - len(b.merge))  # each plural ending adds one or two letters
    if not longer or longer > 2 * max(len(a.words), len(b.words), len(a.parts), len(b.parts)):
        return False
    (short, _), (long, written) = sorted(((a.merge, a.key), (b.merge, b.key)), key=lambda x: len(x[0]))
    ending = plural_ending(short, long) if a.marks == b.marks and a.code == b.code and len(short) >= 3 else None
    if ending is not None and (written.endswith(ending) or _all_capitals(written)):
        return True
    if _differ_by_plurals(a.parts, b.parts):
        return True
    if a.marks != b.marks or _CAMEL_WORD.search(a.key) or _CAMEL_WORD.search(b.key):
        return False
    return _differ_by_plurals(tokens_of(a.key), tokens_of(b.key))


_CAMEL_WORD = re.compile(r"[a-z][A-Z][a-z]")  # a capitalised word after a lowercase letter: `timeZone`


def _differ_by_plurals(xs: Sequence[str], ys: Sequence[str]) -> bool:
    """The words differ, each where the `ys` one is a plural of the `xs` one, or each the other way
    (`Acknowledges NMU` is no plural of `Acknowledge NMUs`)."""
    if len(xs) != len(ys):
        return False
    differ = [(x, y) for x, y in zip(xs, ys, strict=True) if x.casefold() != y.casefold()]
    longer = {len(y) > len(x) for x, y in differ}
    return len(longer) == 1 and all(_plural_words(x, y) for x, y in differ)


def _plural_words(x: str, y: str) -> bool:
    """One word is a plural of the other, the singular of 3+ letters, or an acronym's (`IDs` / `ID`)."""
    if caps_plural_of(x) == y or caps_plural_of(y) == x:
        return True
    single, plural = (x.casefold(), y.casefold()) if len(x) < len(y) else (y.casefold(), x.casefold())
    return len(single) >= 3 and plural_ending(single, plural) is not None


def _plural_form(a: Name, b: Name, note: str) -> Verdict | None:
    """Rule 7g: a name and its plural (`Snowflake` / `Snowflakes`, `PCI ID` / `PCI IDs`,
    `build-dependency` / `build-dependencies`, `IRQ` / `irqs`). Within the edits rule 8 allows, as
    rule 8 finds them; past them only a plural of the whole name, spelled with the same marks (not
    `/posts` of `post`), its ending in lowercase unless all is in capitals (`Smart AIS`). A short or
    repetitive name's plural only as the singular and its ending written in lowercase (`RCS` is not
    the plural of `RC`, nor `cmds` of `Cmd -`), of a singular that is no common word: the plural of
    an everyday word is often another thing in code (a model `User` and its table `users`, the
    method `POST` and the `posts`), of an acronym or a coined word seldom (`vCPU`s)."""
    if not _plural(a, b):
        return None
    single, plural = (a, b) if len(a.merge) < len(b.merge) else (b, a)
    reason = f"one is the plural of the other{note}"
    eligible = a.spelling_eligible and b.spelling_eligible
    if eligible:
        limit = 2 if len(single.merge) >= 8 else 1
        if Levenshtein.distance(single.merge, plural.merge, score_cutoff=limit) <= limit:
            return _variant("plural", _similarity(single.merge, plural.merge), reason)
    ending = plural_ending(single.merge, plural.merge)
    if ending is None or a.marks != b.marks or not (a.key[0].isalnum() and b.key[0].isalnum()):
        return None
    if not (plural.key.endswith(ending) or _all_capitals(plural.key)):
        return None  # `Smart AIS` is another acronym: a plural ends so, or is all in capitals
    if not eligible and (_stem(plural.key, ending) != single.key.casefold() or is_common_word(single.merge)):
        return None
    return _variant("plural", _similarity(single.merge, plural.merge), reason)


def _stem(key: str, ending: str) -> str | None:
    """The casefolded singular a plural key is written on, when it ends in `ending` in lowercase
    (`irqs` -> `irq`, `vCPUs` -> `vcpu`, `Policies` -> `policy`), else None."""
    if not key.endswith(ending):
        return None
    return key[: -len(ending)].casefold() + ("y" if ending == "ies" else "")


def _siblings(a: Name, b: Name) -> bool:
    """Names of the same shape that differ in one whole part: `get_id` / `set_id`, `scroll_x` /
    `scroll_y`, `requests.post` / `requests.put`, `Alibaba Cloud Ims` / `Sts`, `OpenAI` / `OpenAPI`,
    `Python` / `Cython` (a one-word name whose first letter differs)."""
    if len(a.parts) != len(b.parts):
        return False
    differ = [(x, y) for x, y in zip(a.parts, b.parts, strict=True) if x != y]
    if len(differ) != 1:
        return False
    x, y = differ[0]
    if x[0] != y[0]:
        return len(a.parts) > 1 or min(len(x), len(y)) < 8
    # one typo in a part of three letters or more is a misspelling (`Jon Smith`, `config.yml`)
    return len(a.parts) > 1 and not (min(len(x), len(y)) >= 3 and Levenshtein.distance(x, y, score_cutoff=1) <= 1)


def _longer_path(a: Name, b: Name) -> bool:
    """`debian/control.in` / `debian/control.in/main`, `perf/x86/intel` / `perf/x86/intel/pt`: a path
    and a path below it are two places."""
    short, long = (a.key, b.key) if len(a.key) <= len(b.key) else (b.key, a.key)
    return long.startswith(short) and long[len(short) : len(short) + 1] in ("/", ".", "_", "-") and "/" in long


def _adds_a_word(a: Name, b: Name) -> bool:
    """The longer name is the shorter plus a separate word: `Gemini` / `Gemini CLI`, `SQLite` /
    `sqlite_ext`, `Database` / `DATABASE_URL` - a more specific thing, not a spelling."""
    short, long = (a, b) if len(a.merge) <= len(b.merge) else (b, a)
    words = [w.casefold() for w in _SEPARATED.split(long.key) if w]
    return len(words) > 1 and "".join(words[:-1]) == short.merge


def _one_swap(a: str, b: str) -> bool:
    """`b` is `a` with two neighbouring characters swapped."""
    if len(a) != len(b):
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _similarity(a: str, b: str) -> float:
    return 1 - Levenshtein.normalized_distance(a, b)


def _variant(rule: str, similarity: float, reason: str) -> Verdict:
    return Verdict(ASK, round(min(0.95, 0.6 + 0.35 * similarity), 3), rule, reason)

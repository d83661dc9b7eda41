"""Deterministic, heuristic extraction of entity mentions from passage text.

Order matters: tags, backticks, URLs and identifiers are taken first and blanked out so the
capitalised-run pass does not see them again; headings are recorded whole and their words still
feed the other passes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

from memo_tui.names.keys import identity_key

WEIGHTS = {
    "declared": 4.0,
    "tag": 3.0,
    "heading": 3.0,
    "backtick": 3.0,
    "identifier": 2.0,
    "capitalised": 1.0,
    "prose": 1.0,  # a known name written in lowercase or kebab-case in running text (spellings.py)
}


class Extracted(NamedTuple):
    """One entity named by a passage: the spelling used, where it came from, and a weight.
    (A named tuple: large ingests send their fields between processes as plain tuples.)"""

    surface: str
    key: str
    source: str
    weight: float
    type: str | None = None


def _upper_class() -> str:
    """A regex character class body for every upper- and title-case letter (re has no \\p{Lu})."""
    ranges: list[list[int]] = []
    for code in range(0x1F000):  # no cased letters live above the Adlam block
        if unicodedata.category(chr(code)) in ("Lu", "Lt"):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges)


_CALL = re.compile(r"^([@\w./-]+)\(.*\)?$")
_NUMBERING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[ivx]+\.)\s+", re.IGNORECASE)  # "1. ", "2.3 ", "iv. "
_TAGS = re.compile(r"\[tags?:\s*([^\]\n]*)\]", re.IGNORECASE)
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_BACKTICK = re.compile(r"(?<!`)`([^`\n]{1,80})`(?!`)")
_FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.MULTILINE | re.DOTALL)
_URL = re.compile(r"\b(?:https?|ftp)://\S+|\bwww\.\S+|\b[\w.+-]+@[\w-]+\.[\w.-]+")
# @dana; @Dana Smith is a capitalised run; `my @debian.org address` is half an e-mail address
_HANDLE = re.compile(r"(?<![\w@/.])@[a-z][\w-]*\w(?![\w/@]|\.\w)")
_SCOPED = re.compile(r"(?<![\w@/])@[a-z0-9][\w.-]*/[\w.-]*\w")
_PATH = re.compile(r"(?<![\w/@.-])(?:\.{0,2}/)?[A-Za-z_][\w.-]*(?:/[\w.-]*\w)+(?![\w/])")
_DOTTED = re.compile(r"(?<![\w.@])[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+(?![\w])")
# possessive runs (*+, ++): a shorter run would end before a word character, which neither pattern
# allows next, so giving characters back only tried every length of each word in vain. Runs of one
# class only: a possessive repeat of a group kept a `_` its failed last repeat took before 3.11.5
_SNAKE = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)+(?![\w-])")
# a word character, a dot, a letter: found from the dot (a pattern that opens with a literal is looked
# for as one; `\w\.` was tried at every character, even in a passage that has no dot)
_DOTTED_HINT = re.compile(r"\.(?<=\w\.)[A-Za-z_]")
_CAMEL_HINT = re.compile(r"[a-z][A-Z]")
_CAMEL = re.compile(r"(?<![\w-])[a-z]++[A-Z][A-Za-z0-9]*+(?![\w-])")
# A capitalised word: an upper-case letter, then word characters, hyphen or dot joins (GPT-4, Vue.js).
_CAP_WORD = rf"[{_upper_class()}]\w*(?:[-.'’]\w+)*"
_VERSION = r"v?\d+(?:\.\d+){0,2}[a-z]?"  # 4.8, 3.11.2 - not an IP address
_CAP_RUN = re.compile(rf"(?<![\w#$/.-])@?{_CAP_WORD}(?:[ \t]+(?:{_CAP_WORD}|{_VERSION}(?!\w|\.\d)))*")
# The same runs in ASCII text, where an upper-case letter is A-Z: a pattern that opens with a small set
# is searched for its characters, one that opens with a look-behind is tried at every character (and
# the set of every upper-case letter is too large to search with). The look-behind, over the first
# character, and the `@` are checked once a run's first character is found.
_CAP_WORD_ASCII = r"[A-Z]\w*(?:[-.'’]\w+)*"
_CAP_RUN_ASCII = re.compile(
    rf"[@A-Z](?<![\w#$/.-].)(?:(?<=@)[A-Z]|(?<!@))\w*(?:[-.'’]\w+)*"
    rf"(?:[ \t]+(?:{_CAP_WORD_ASCII}|{_VERSION}(?!\w|\.\d)))*"
)
_POSSESSIVE = ("'s", "’s")

# Words trimmed from the start of a capitalised run anywhere ("The Acme Gateway" -> "Acme Gateway").
FUNCTION_WORDS = frozenset(
    """
    a an the this that these those there here it its i we you he she they me us him her them my our your their
    his hers theirs mine ours yours if when while where whenever whether why how what which who whom whose
    and or but so yet nor for with without then than also too both either neither each every all any some
    no not yes ok okay note notes example examples e.g i.e etc todo fixme tbd fyi nb ps re vs via per
    is are was were be been being do does did done has have had will would can could should shall may might must
    after before during since until once again however therefore thus hence because although though
    on off in out up down over under into onto from to of at by about above below between through
    today yesterday tomorrow tonight now later soon never always sometimes often usually
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    hi hello hey thanks thank please sorry dear regards cheers best
    mr mrs ms dr sir i'm i'll i've i'd im til imo imho lol afaik btw eta asap cc true false none null
    """.split()
)
# Words that start sentences but rarely names: trimmed only as the first word of a sentence
# ("Updated Postgres" -> "Postgres"), so that "New York" in mid-sentence stays whole.
# The verbs that open commit messages, changelog entries and to-do items ("Bump Standards-Version",
# "Fix SQL", "Add JSONField"): a closed class of imperative verbs, with their -s, -ed and -ing forms.
# Not "render" nor "format": `Render Group` (RenderGroup) and the copyright file's `Format URL` are names.
COMMIT_VERBS = """
    add adjust allow amend apply avoid backport bump build call change check clarify clean cleanup close
    convert correct create declare decrease define delete depend deprecate disable display document drop
    enable enhance ensure exclude expand export expose extend fix generate handle ignore implement import
    improve include increase install introduce keep limit make mark merge migrate modify move note optimise
    optimize pass polish prefer prevent provide pull push raise re-enable rebuild reduce refactor refresh
    regenerate release reload remove rename reorder rephrase replace require resolve restore restrict retry
    return revert reword rework rewrite run set ship show simplify skip sort split start stop support
    switch sync test tidy try turn tweak unify update upgrade upload use validate wrap write
""".split()


def _inflections(verbs: list[str]) -> frozenset[str]:
    out: set[str] = set()
    for verb in verbs:
        if verb[-1] == "y" and verb[-2] not in "aeiou":
            # clarifies, modifying; not the -ied forms, which name things: `Unified CLI`, `Simplified
            # Chinese`, `Applied Robotics`
            out.update((verb, verb[:-1] + "ies", verb + "ing"))
            continue
        stem = verb[:-1] if verb.endswith("e") else verb
        out.update(
            (verb, verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s"), stem + "ed", stem + "ing")
        )
        if len(verb) <= 4 and verb[-1] in "bdgmnpt" and verb[-2] in "aeiou" and verb[-3] not in "aeiou":
            out.update((verb + verb[-1] + "ed", verb + verb[-1] + "ing"))  # dropped, stopping, shipped
    return frozenset(out)


OPENING_VERBS = _inflections(COMMIT_VERBS)  # trimmed from the start of a sentence only: "Ship" is a name
# Interjections and replies that open a line of chat before the name of the person addressed ("Wow
# Mel", "Bye Joanna", "Yeah John"): trimmed from the start of a sentence only.
INTERJECTIONS = frozenset(
    """
    wow woah whoa woohoo yay yeah yep yup yes nope bye goodbye congrats congratulations yo oh ooh aw aww
    awesome anytime absolutely definitely glad haha hehe omg nice cool great sure totally exactly indeed
    morning evening afternoon night
    """.split()
)
STOP_WORDS = FUNCTION_WORDS | frozenset(
    """
    let lets let's update updated fixed added removed see use used using step steps first next last new old
    ask asked ping check tell told call email meet met talk
    """.split()
)
_ALWAYS_SKIP = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april june july august "
    "september october november december i todo fixme tbd ok".split()
)
# A token led by one of these is a placeholder, a back-reference or an editor's or shell's command
# (`$1`, `\\1`, `:table`, `:wq`), not a name; a leading dot or hyphen is a file or an option (`.env`).
SIGILS = frozenset(":$\\%")
_GIVEN_NAMES = frozenset(("Will", "May"))  # function words that are also given names
_SLASH_WORDS = frozenset(
    "and/or either/or he/she his/her him/her s/he yes/no on/off read/write input/output w/o".split()
)


def extract(text: str) -> list[Extracted]:
    """Every entity the text names, one per identity key, strongest source first kept."""
    found: dict[str, Extracted] = {}

    def add(surface: str, source: str) -> None:
        surface = surface.strip().lstrip("\"'([{<").rstrip(".,;:!?\"')]}>")
        key = identity_key(surface)
        if not key or len(key) > 120 or not any(map(str.isalnum, key)):
            return
        if key.casefold() in STOP_WORDS or len(key) < 2 or not any(map(str.isalpha, key)) or key[0] in SIGILS:
            return  # single characters, numbers (`-1`, `4.8`) and sigil tokens (`$1`, `:table`) name nothing
        current = found.get(key)
        if current is None or WEIGHTS[source] > current.weight:
            found[key] = Extracted(surface if current is None else current.surface, key, source, WEIGHTS[source])

    def take(
        pattern: re.Pattern[str],
        source: str | None,
        group: int = 0,
        keep: Callable[[str], bool] | None = None,
        clean: Callable[[str], str | None] | None = None,
    ) -> None:
        """Record every match as a mention (`clean` may turn it into a name, or None) and blank it
        out of the text."""
        nonlocal text
        chunks: list[str] = []
        last = 0
        for match in pattern.finditer(text):
            if keep is not None and not keep(match.group(group)):
                continue
            name = match.group(group) if clean is None else clean(match.group(group))
            if source is not None and name:
                add(name, source)
            chunks.append(text[last : match.start()])
            chunks.append(" " * (match.end() - match.start()))
            last = match.end()
        if chunks:
            chunks.append(text[last:])
            text = "".join(chunks)

    if "[" in text:
        for match in _TAGS.finditer(text):
            for tag in match.group(1).split(","):
                add(tag, "tag")
        take(_TAGS, None)
    if "`" in text or "~~~" in text:
        take(_FENCE, None)
        take(_BACKTICK, "backtick", 1, clean=_code_name)
    headings: list[tuple[int, int]] = []
    if "#" in text:
        for match in _HEADING.finditer(text):
            headings.append((match.start(), match.end()))
            heading = _NUMBERING.sub("", match.group(1).strip())
            if len(heading.split()) <= 5:
                add(heading, "heading")
        text = _HEADING.sub(lambda m: " " * (m.start(1) - m.start()) + m.group(1), text)
    if "@" in text or "://" in text or "www." in text:
        take(_URL, None)
        take(_SCOPED, "identifier")
        take(_HANDLE, "identifier")
    if "/" in text:
        take(_PATH, "identifier", keep=_is_path)
    if "_" in text:
        take(_SNAKE, "identifier")
    if "." in text and _DOTTED_HINT.search(text):
        take(_DOTTED, "identifier")
    if _CAMEL_HINT.search(text):
        take(_CAMEL, "identifier")
    for match in (_CAP_RUN_ASCII if text.isascii() else _CAP_RUN).finditer(text):
        # in a Title Case heading every word is capitalised: a lone plain word there names nothing
        in_heading = any(start <= match.start() < end for start, end in headings)
        _add_capitalised_run(text, match, add, in_heading)
    return list(found.values())


def _code_name(span: str) -> str | None:
    """The name in a code span: `os.path.join()` -> os.path.join; an expression or a span that
    starts or ends with a space (backticks paired across a broken line) names nothing."""
    if span != span.strip():
        return None
    call = _CALL.match(span)
    if call:
        return call.group(1)
    if any(ch in span for ch in "=,;{}<>()") or len(span.split()) > 4 or span.count("[") != span.count("]"):
        return None
    return span


def _is_path(candidate: str) -> bool:
    if candidate.casefold() in _SLASH_WORDS or "//" in candidate:
        return False
    if candidate[:2].casefold() in ("w/", "b/", "c/") and candidate.count("/") == 1:
        return False  # w/postgres, b/c: shorthand for "with", "because", not a path
    segments = [s for s in candidate.split("/") if s and s not in (".", "..")]
    return len(segments) >= 2 and not all(s.isdigit() for s in segments)


def _starts_sentence(text: str, start: int) -> bool:
    """True when only whitespace, a bullet, a table cell border or sentence punctuation stands before
    `start` (emphasis marks and pictographs in between are looked through: "📝 Add CONTRIBUTORS"), or
    a bracketed tag that itself opens a sentence ("[inspect] Replace ASCII", "* [efeb33c] Set
    Standards-version")."""
    i = start - 1
    while i >= 0 and (text[i] in " \t*_" or _is_pictograph(text[i])):
        i -= 1
    if i >= 0 and text[i] == "]":
        opening = text.rfind("[", max(0, i - _TAG_LENGTH), i)
        return (
            opening >= 0 and not any(ch in "[]\n" for ch in text[opening + 1 : i]) and _starts_sentence(text, opening)
        )
    if i < 0 or text[i] in '\n.!?:;"“(>)|':
        return True
    if text[i] in "-*+":
        line_start = text.rfind("\n", 0, i) + 1
        return not text[line_start:i].strip()
    return False


_TAG_LENGTH = 40  # the longest "[scope]" tag before a commit subject looked through


def _is_pictograph(char: str) -> bool:
    """An emoji or other pictograph (a gitmoji before a commit subject), with its joiners and
    variation selectors."""
    return unicodedata.category(char) == "So" or char in "\u200d\ufe0f"


def _is_compound(word: str) -> bool:
    """PostgreSQL, HashMap, API, GPT4: a word whose shape alone marks it as a name."""
    word = word.lstrip("@")
    letters = [ch for ch in word if ch.isalpha()]
    inner_upper = any(ch.isupper() for ch in word[1:])
    return inner_upper or any(ch.isdigit() for ch in word) or (len(letters) > 1 and all(c.isupper() for c in letters))


_Add = Callable[[str, str], None]  # records one name with its source


def _add_capitalised_run(text: str, match: re.Match[str], add: _Add, in_heading: bool) -> None:
    """Split a run at possessives ("Alice's HashMap"), then add each part."""
    words: list[str] = []
    at_start = in_heading or _starts_sentence(text, match.start())
    for word in match.group(0).split():
        possessive = word.endswith(_POSSESSIVE)
        words.append(word[:-2] if possessive else word)
        if possessive:
            _add_words(words, at_start, add, in_heading)
            words, at_start = [], in_heading
    _add_words(words, at_start, add, in_heading)


def _add_words(words: list[str], at_sentence_start: bool, add: _Add, in_heading: bool = False) -> None:
    first = words[0] if words else ""
    # Trim from the start: any stop word opening a sentence, then function words and bare numbers.
    opening = words[0].casefold() if words else ""
    if at_sentence_start and (opening in STOP_WORDS or opening in OPENING_VERBS or opening in INTERJECTIONS):
        words.pop(0)
    while words and (words[0].casefold() in FUNCTION_WORDS or words[0][0].isdigit()):
        if not at_sentence_start and words[0] in _GIVEN_NAMES and len(words) > 1:
            break  # a modal is not capitalised mid-sentence: "thanks to Will McGugan" names a person
        words.pop(0)
    while words and words[-1].casefold() in STOP_WORDS:
        words.pop()
    if not words:
        return
    words = words[:4]
    if len(words) == 1:
        word = words[0]
        if word.casefold() in _ALWAYS_SKIP:
            return
        if _is_compound(word):
            add(word, "identifier")
            return
        if in_heading or (at_sentence_start and word == first):
            return
    add(" ".join(words), "capitalised")

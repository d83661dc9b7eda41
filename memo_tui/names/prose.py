"""Prose spellings of known names: `postgres` in a sentence, beside a store that knows `Postgres`.

The extractor finds names by their shape (capitals, code marks), so a name written in lowercase or
kebab-case in running text (`we moved to postgres`, `try claude-code`) has no shape to find. Once
the namespace knows the name in another spelling, such a word is a mention of its own spelling
(`postgres`), which the resolver then pairs with `Postgres` like any other variant. Everyday words
(`release` beside `Release`) are left alone, and so is a passage that already names the known
spelling (`aethershell: AetherShell is a shell`): it is in the graph already.

Which names are known depends on what was ingested before: a passage ingested before the name
first appeared is caught up by `graph rebuild`.
"""

from __future__ import annotations

import re

from memo_tui.names.extract import WEIGHTS, Extracted
from memo_tui.names.keys import identity_key, merge_of
from memo_tui.names.rules import zipf

# a lowercase word or kebab-case compound standing alone in prose (not inside a path, address or identifier)
_PROSE = re.compile(r"(?<![\w@/.#-])[a-z][a-z0-9]{2,}(?:-[a-z0-9]+)*(?![\w@/#-]|\.\w)")
# runs of the characters such a word is made of: each word above is one of them, whole (nothing it may
# stand beside is one of those characters), and a pattern without look-arounds checks less at each place
_RUNS = re.compile(r"[a-z][a-z0-9-]{2,}")
MIN_LETTERS = 4
# How common a word may be and still be taken for a name written in lowercase (wordfreq's Zipf scale):
# `postgres` 2.0, `sqlite` 2.1, `changelog` 2.3 are names; `backend` 2.9, `parser` 2.6 are prose.
PROSE_WORD_ZIPF = 2.5
# A kebab compound of everyday words is a phrase (`real-time`, `open-source`: every part >= 4.0),
# not a name (`claude-code`: claude 3.8).
PHRASE_PART_ZIPF = 4.0


def _everyday(word: str) -> bool:
    if "-" in word:
        return min(map(zipf, word.split("-"))) >= PHRASE_PART_ZIPF
    return zipf(word) >= PROSE_WORD_ZIPF


class KnownSpellings:
    """Merge keys of the names a namespace knows with a capital letter or a space in them."""

    def __init__(self, keys: list[str] | None = None) -> None:
        self._merge: set[str] = set()
        self.add(keys or [])

    def add(self, keys) -> None:
        for key in keys:
            if key != key.casefold() or " " in key:
                merge = merge_of(key)
                if len(merge) >= MIN_LETTERS:
                    self._merge.add(merge)

    def mentions(self, text: str, found: list[Extracted]) -> list[Extracted]:
        """The prose spellings of known names in `text` that the extractor did not find."""
        if not self._merge:
            return []
        runs = _RUNS.findall(text)
        if self._merge.isdisjoint(runs) and ("-" not in text or not any(
                "-" in run and run.replace("-", "") in self._merge for run in runs)):  # fmt: skip
            return []  # no word is a known name's (a set's look-up of them all, in C): most passages
        out: dict[str, Extracted] = {}
        have: set[str] | None = None
        for word in _PROSE.findall(text):
            merge = word.replace("-", "")  # the merge key of a lowercase ASCII word
            if merge not in self._merge or word in out:
                continue
            if have is None:
                have = {m.key for m in found}
                named = {merge_of(key) for key in have}
            if word in have or merge in named or _everyday(word):
                continue
            out[word] = Extracted(word, identity_key(word), "prose", WEIGHTS["prose"])
        return list(out.values())

"""Name keys: identity key, merge key, tokens, digit runs, trigrams."""

from __future__ import annotations

import re
import unicodedata
from sys import intern

_WS = re.compile(r"\s+")
_WS_NOT_SPACE = re.compile(r"\s\s|[^\S ]")
_TOKEN_SPLIT = re.compile(r"[^\w.]|_")
_DIGITS = re.compile(r"\d+")


def identity_key(name: str) -> str:
    """NFKC, trimmed, one leading '@' dropped, whitespace runs collapsed; case is kept."""
    key = name if name.isascii() else unicodedata.normalize("NFKC", name)
    key = key.strip()
    if key.startswith("@"):
        key = key[1:].lstrip()
    return _WS.sub(" ", key) if _WS_NOT_SPACE.search(key) else key


def merge_key(name: str) -> str:
    """Identity key casefolded, with everything that is not a letter or a number removed."""
    return merge_of(identity_key(name))


def merge_of(key: str) -> str:
    """The merge key of an identity key (str.isalnum is exactly Unicode categories L* and N*)."""
    return "".join(filter(str.isalnum, key.casefold()))


def strip_accents(key: str) -> str:
    """The key with combining marks removed (Café -> Cafe)."""
    if key.isascii():
        return key
    decomposed = unicodedata.normalize("NFKD", key)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# The letters German writes out in ASCII with an e (Günther / Guenther, Jörg / Joerg), casefolded
# (ß casefolds to ss already)
_WRITTEN_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def written_out(key: str) -> str:
    """The key with umlauts written out as ASCII does (`guido günther` -> `guido guenther`), then
    without accents: the other spelling an accented name has beside `strip_accents`'."""
    if key.isascii():
        return key
    return strip_accents(key.translate(_WRITTEN_OUT))


def tokens(name: str) -> list[str]:
    """Identity key split on anything not a letter, digit or dot; dots trimmed from token ends."""
    return tokens_of(identity_key(name))


def tokens_of(key: str) -> list[str]:
    parts = (part.strip(".") for part in _TOKEN_SPLIT.split(key))
    return [part for part in parts if part]


def digit_runs(name: str) -> tuple[str, ...]:
    """The maximal runs of digits in the identity key, in order ('claude-opus-4-8' -> ('4', '8'))."""
    return digits_of(identity_key(name))


def digits_of(key: str) -> tuple[str, ...]:
    return tuple(_DIGITS.findall(key))


def trigrams(key: str, held: bool = True) -> frozenset[str]:
    """Padded character 3-grams of a merge key, interned when `held`: a million names hold some 15
    million of them, of a few tens of thousands distinct (800 MB as strings of their own). Grams
    looked at once and let go are not (interning costs time and would save no memory)."""
    padded = f"  {key} "
    if not held:
        return frozenset([padded[i : i + 3] for i in range(len(padded) - 2)])
    return frozenset([intern(padded[i : i + 3]) for i in range(len(padded) - 2)])

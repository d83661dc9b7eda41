"""The packed formats a pass keeps in the store and hands to its second process. Pure: no store.

Each is chosen because a pass moves millions of values through it, and Python objects for each
(tuples, ints in sets, lists of strings) cost more memory and time than the work they carry:

- **Parts** (`dumps` / `loads`): a value made of plain types (None, bool, int, float, str, bytes,
  tuple, list, dict, set) written with `marshal`, which reads and writes whole values quickly. Its
  format is Python's own: whoever keeps a part tags it with the Python version (`pass_memory._tag`)
  and reads none with another tag. An `array` inside a value is written as its bytes (marshal takes
  any buffer as bytes) and read back as bytes: turn it back with `ints_of`.
- **Int arrays** (`int_bytes` / `ints_of`, `float_bytes` / `floats_of`): signed 64-bit integers
  (`array("q")`) or doubles (`array("d")`) as their native bytes, 8 a value; read back without a
  copy per value. Parts are kept by the machine that wrote them (native byte order).
- **Joined strings** (`joined` / `split`): many strings as one, joined by NUL (`SEP`); the count
  is kept beside the text, since an empty text is one empty string or none. A string that holds NUL
  cannot be joined (`joined(..., checked=True)` raises ValueError: the caller then keeps nothing).
- **Pairs as numbers** (`pair_of`): two non-negative numbers below 2**32, i < j, as the one int
  `i << PAIR_SHIFT | j`: a set of millions of tuples, each with its two ints, took a tenth of a large
  pass's peak. Numbers sort as their pairs do. Packed inline where they are made (blocking's loops,
  where a call a pair would cost more than the packing), and on numpy arrays as sort keys
  (`similar_sets`); never kept.

A change to any layout that a part keeps must raise the FORMAT of the module that keeps it
(`pass_memory.FORMAT`, `conflict_search.FORMAT`), so that no pass reads a part written the old way.
"""

from __future__ import annotations

import marshal
from array import array
from collections.abc import Iterable, Sequence

SEP = "\x00"
PAIR_SHIFT = 32
PAIR_LOW = (1 << PAIR_SHIFT) - 1


# A part: the value marshalled, and back. Marshal itself, not a function calling it: marshal marks
# an object referenced more than once (for back-references), so a wrapper's own reference to the
# value would change the bytes a part is written as.
dumps = marshal.dumps
loads = marshal.loads


def int_bytes(values: Iterable[int]) -> bytes:
    """64-bit integers as their bytes."""
    return array("q", values).tobytes()


def ints_of(data: bytes | bytearray) -> array:
    """The 64-bit integers bytes hold (`int_bytes`, or an `array("q")` marshalled)."""
    out = array("q")
    out.frombytes(data)
    return out


def float_bytes(values: Iterable[float]) -> bytes:
    """Doubles as their bytes."""
    return array("d", values).tobytes()


def floats_of(data: bytes | bytearray) -> array:
    """The doubles bytes hold (`float_bytes`)."""
    out = array("d")
    out.frombytes(data)
    return out


def joined(strings: Iterable[str], *, checked: bool = False) -> str:
    """The strings as one text, NUL between them. `checked`: raise ValueError if one holds NUL (any
    string not made by joining: a joined one, joined again, holds them by design)."""
    if not checked:
        return SEP.join(strings)
    strings = strings if isinstance(strings, Sequence) else list(strings)
    text = SEP.join(strings)
    if text.count(SEP) != max(len(strings) - 1, 0):  # counted in C: a pass joins a million names
        raise ValueError("a string holds the separator")
    return text


def split(text: str, count: int) -> list[str]:
    """The `count` strings joined into `text` (an empty text is one empty string, or none)."""
    return text.split(SEP) if count else []


def pair_of(number: int) -> tuple[int, int]:
    """The pair (i, j) a number holds (`i << PAIR_SHIFT | j`)."""
    return number >> PAIR_SHIFT, number & PAIR_LOW

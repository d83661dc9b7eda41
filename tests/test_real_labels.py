"""The mined, hand-judged pairs of the real-text stores are well formed and name what the stores hold.

A label whose name no passage writes would be skipped by the evaluation without a word, and the
recall it was judged for would quietly shrink; a pair judged twice would count twice.
"""

import gzip
import json
import tarfile
from pathlib import Path

import pytest

from memo_tui.quality.evaluate import read_pairs

REAL = Path(__file__).parent / "data" / "real"
CHATS = Path(__file__).parents[2] / "shared" / "corpora" / "locomo-dev"
MINERS = {"key", "plural", "transposition", "edit", "acronym", "short_name", "containment"}
KINDS = ("chats", "commits", "notes", "changelogs", "summaries")
# the judged files of the new kinds: every mined pair, and the product's folds and questions judged
JUDGED = [f"{kind}.mined.jsonl" for kind in KINDS] + ["commits.labels.jsonl", "notes.labels.jsonl"]


def committed_text(kind: str) -> dict[str, str]:
    """{namespace: every passage's text} of a kind whose passages are committed."""
    if kind == "notes":
        with tarfile.open(REAL / "notes.tar.gz") as packed:
            files = [packed.extractfile(m) for m in packed.getmembers() if m.isfile()]
            return {"default": "\n".join(f.read().decode("utf-8", "replace") for f in files)}
    with gzip.open(REAL / f"{kind}.jsonl.gz", "rt", encoding="utf-8") as handle:
        return {"default": "\n".join(json.loads(line)["text"] for line in handle)}


def chat_text() -> dict[str, str]:
    if not CHATS.is_dir():
        pytest.skip(f"{CHATS} is absent: the chat passages are never committed")
    out = {}
    for path in sorted(CHATS.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            out[path.stem] = "\n".join(json.loads(line)["text"] for line in handle if line.strip())
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_mined_labels_are_well_formed(kind):
    pairs = read_pairs(str(REAL / f"{kind}.mined.jsonl"), unsure=True)
    assert len(pairs) >= 50
    assert all(p["mined"] in MINERS and p["why"].strip() for p in pairs)
    assert all(("ns" in p) == (kind == "chats") for p in pairs)
    keys = [(p.get("ns"), frozenset((p["a"], p["b"]))) for p in pairs]
    assert len(set(keys)) == len(keys), "a pair judged twice"
    assert sum(p["same"] is True for p in pairs) >= 40


@pytest.mark.parametrize("judged", JUDGED)
def test_every_labelled_name_is_written_in_its_store(judged):
    kind = judged.split(".")[0]
    text = chat_text() if kind == "chats" else committed_text(kind)
    pairs = read_pairs(str(REAL / judged), unsure=True)
    absent = [n for p in pairs for n in (p["a"], p["b"]) if n not in text[p.get("ns", "default")]]
    assert not absent

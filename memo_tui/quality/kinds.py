"""The kinds of real text the pass is evaluated on, and how each kind's stores are built.

The data folder (`tests/data/real/` in the repository) holds, per kind NAME: its passages, its labels
`NAME.labels.jsonl` (the product's folds and questions, judged by reading the passages: the calibration
is fitted on these), its mined pairs `NAME.mined.jsonl` (pairs found without the product's rules,
judged the same way: the recall is measured on these) and `calibration/without-NAME.json`, the
calibration fitted on every other kind (`benchmarks/calibrate.py --write`). The conversations are not
the project's to commit: they are read from `../shared/corpora/locomo-dev` beside the repository, and
their kind is absent without it.

A kind is evaluated by building its stores and running the pass with a given calibration file
(`evidence.CALIBRATION_ENV`): the one fitted without it (held out) or the packaged one (in sample).
"""

from __future__ import annotations

import gzip
import os
import shutil
import tarfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from memo_tui.errors import MemoError
from memo_tui.names import evidence
from memo_tui.quality.evaluate import StoreEvaluation, evaluate_store, read_pairs

CAP = 100_000  # every question the pass would ask: the figures are about the whole queue
CHATS = Path("..", "shared", "corpora", "locomo-dev")  # beside the repository that holds the data folder


@dataclass(frozen=True)
class Kind:
    name: str
    passages: str  # in the data folder: JSONL (gzipped) or a notes folder (a gzipped tar); chats: CHATS
    about: str

    def where(self, data: Path) -> Path:
        if self.name == "chats":  # DIR is REPOSITORY/tests/data/real
            return data.resolve().joinpath("..", "..", "..", CHATS)
        return data / self.passages

    def present(self, data: Path) -> bool:
        return self.where(data).exists()

    def labels(self, data: Path) -> list[dict]:
        """Every judged pair of this kind: the product's folds and questions, then the mined pairs."""
        return self.asked(data) + self.mined(data)

    def asked(self, data: Path) -> list[dict]:
        """The product's folds and questions, judged: what the calibration is fitted on."""
        return _pairs(data / f"{self.name}.labels.jsonl")

    def mined(self, data: Path) -> list[dict]:
        """Pairs mined without the product's rules, judged: what the recall is measured on (a sample
        stratified by miner, so their share of same-pairs is the sampler's, not the store's)."""
        return _pairs(data / f"{self.name}.mined.jsonl")

    def held_out(self, data: Path) -> Path:
        """The calibration fitted on every kind but this one."""
        return data / "calibration" / f"without-{self.name}.json"


KINDS = (
    Kind("changelogs", "changelogs.jsonl.gz", "Debian changelog entries of one machine's packages"),
    Kind("summaries", "summaries.jsonl.gz", "50,000 PyPI package summaries"),
    Kind("commits", "commits.jsonl.gz", "the commit history of a public project"),
    Kind("notes", "notes.tar.gz", "a folder of markdown notes, ingested as a folder"),
    Kind("chats", "", "five long-term conversations between two people, one store each (LoCoMo)"),
)


def kind_named(name: str) -> Kind:
    for kind in KINDS:
        if kind.name == name:
            return kind
    raise MemoError(f"no kind of text named {name!r} (kinds: {', '.join(k.name for k in KINDS)})")


def _pairs(path: Path) -> list[dict]:
    return read_pairs(str(path), unsure=True) if path.exists() else []


def unpack(kind: Kind, data: Path, scratch: Path) -> dict[str, list[str]]:
    """Namespace -> the paths to ingest into it, unpacked into `scratch` where the data is packed."""
    source = kind.where(data)
    if kind.name == "chats":  # each conversation is different people: a store of its own
        return {path.stem: [str(path)] for path in sorted(source.glob("*.jsonl"))}
    if source.name.endswith(".tar.gz"):
        with tarfile.open(source, "r:gz") as tar:
            tar.extractall(scratch, filter="data")
            folders = sorted({name.split("/")[0] for name in tar.getnames()})
        return {"default": [str(scratch / folder) for folder in folders]}
    corpus = scratch / source.name.removesuffix(".gz")
    with gzip.open(source, "rb") as src, corpus.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return {"default": [str(corpus)]}


def build(kind: Kind, data: Path, scratch: Path) -> list[str]:
    """Ingest the kind's passages into the open store; its namespaces."""
    from memo_tui.engine.ingest import ingest_paths

    namespaces = unpack(kind, data, scratch)
    for namespace, paths in namespaces.items():
        report = ingest_paths(namespace, paths)
        if report.errors:
            raise MemoError(f"{kind.name}: {len(report.errors)} passages could not be ingested ({report.errors[0]})")
    return list(namespaces)


@contextmanager
def calibrated(path: Path | None) -> Iterator[None]:
    """The pass reads the calibration file `path` inside the block (None: the packaged one)."""
    if path is not None and not path.exists():
        raise MemoError(f"no calibration {path}: `python benchmarks/calibrate.py --write` fits it")
    before = os.environ.pop(evidence.CALIBRATION_ENV, None)
    if path is not None:
        os.environ[evidence.CALIBRATION_ENV] = str(path)
    try:
        yield
    finally:
        os.environ.pop(evidence.CALIBRATION_ENV, None)
        if before is not None:
            os.environ[evidence.CALIBRATION_ENV] = before


def evaluate_kind(kind: Kind, data: Path, folder: Path, calibration: Path | None) -> StoreEvaluation:
    """Build the kind's stores in `folder` (a fresh SQLite store), run the pass with `calibration`
    and score every namespace against the kind's labels, summed over its stores."""
    from memo_tui.engine.graph.opening import open_store
    from memo_tui.engine.resolve.resolver import resolve
    from memo_tui.runtime import metrics
    from memo_tui.store import db

    labels, mined = kind.labels(data), kind.mined(data)
    open_store(str(folder / "store.db"))
    try:
        namespaces = build(kind, data, folder)
        found = []
        with calibrated(calibration):
            for namespace in namespaces:
                resolve(namespace, cap=CAP)
                found.append(evaluate_store(namespace, _in(labels, namespace), _in(mined, namespace)))
        return StoreEvaluation.summed(found)
    finally:
        metrics.flush()  # the passes' counts go to the scratch store, not to whichever store is opened next
        db.close()
        db.initialize(None)


def _in(pairs: list[dict], namespace: str) -> list[dict]:
    """The pairs judged in this namespace (a conversation's pairs name its `ns`)."""
    return [p for p in pairs if p.get("ns", namespace) == namespace]


def figures(data: Path, scratch: Path, kinds: list[Kind], in_sample: bool = True) -> dict[str, dict]:
    """Kind -> {"held_out": figures, "in_sample": figures} for each kind whose passages are here."""
    out: dict[str, dict] = {}
    for kind in kinds:
        if not kind.present(data):
            continue
        runs = {"held_out": kind.held_out(data)} | ({"in_sample": None} if in_sample else {})
        out[kind.name] = {}
        for run, calibration in runs.items():
            folder = scratch / kind.name / run
            folder.mkdir(parents=True)
            out[kind.name][run] = evaluate_kind(kind, data, folder, calibration).as_dict()
    return out

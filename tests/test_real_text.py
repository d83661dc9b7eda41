"""The queue on real text nobody here wrote, against hand labels (the real-text evaluation).

Two stores are built from passages committed in tests/data/real/: 9,597 Debian changelog entries
(one per version block, the maintainer who signed it as source) and 50,000 PyPI package summaries.
Their labels were judged by reading the passages (see ARCHITECTURE.md, "Real-text evaluation"); a
pair a judge could not decide is labelled null and counted apart. The floors are the product's.
"""

import gzip
import shutil
from pathlib import Path

import pytest

from memo_tui.core.evaluate import evaluate_store, read_pairs
from memo_tui.core.ingest import ingest_paths
from memo_tui.core.opening import open_store
from memo_tui.core.resolver import resolve
from memo_tui.store import db

pytestmark = pytest.mark.slow

REAL = Path(__file__).parent / "data" / "real"
NS = "default"
CONFLICT_CEILING = {"changelogs": 5, "summaries": 50}


@pytest.fixture(scope="module", params=["changelogs", "summaries"])
def evaluated(request, tmp_path_factory):
    name = request.param
    folder = tmp_path_factory.mktemp(name)
    corpus = folder / f"{name}.jsonl"
    with gzip.open(REAL / f"{name}.jsonl.gz", "rb") as src, corpus.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    open_store(str(folder / "store.db"))
    try:
        report = ingest_paths(NS, [str(corpus)])
        assert not report.errors
        resolve(NS, cap=100_000)
        yield name, evaluate_store(NS, read_pairs(str(REAL / f"{name}.labels.jsonl"), unsure=True))
    finally:
        db.close()
        db.initialize(None)


def test_automatic_folds_are_right(evaluated):
    name, found = evaluated
    judged = found.folds.same + found.folds.different
    assert judged >= 5 and found.folds.unlabelled <= 0.05 * judged + 2, found.unlabelled
    assert found.folds.precision >= 0.97, name


def test_the_first_questions_served_are_mostly_the_same_thing(evaluated):
    name, found = evaluated
    assert found.first.unlabelled <= 10, found.unlabelled
    assert found.first.precision >= 0.5, name


def test_a_reviewer_is_asked_little(evaluated):
    name, found = evaluated
    assert found.questions_per_1000_entities <= 120, name  # issue 44's floor for package summaries
    assert found.conflicts <= CONFLICT_CEILING[name]


def test_labelled_same_pairs_are_folded_or_asked(evaluated):
    name, found = evaluated
    assert found.same_labelled >= 200
    assert found.surfaced_share >= 0.8, name


def test_a_clusters_members_are_mostly_its_canonical(evaluated):
    """A cluster card folds every member it checks into the canonical: on real text most are the same
    thing (the card shows each one's likelihood for the rest)."""
    name, found = evaluated
    members = found.cluster_members
    assert found.clusters >= 50 and members.same + members.different >= 100, name
    assert members.precision >= 0.75, name

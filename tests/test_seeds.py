"""The seed documents' own examples, in a 24-passage store written for this test (tests/data/seeds.jsonl):
a real pass asks about or folds every pair that names one thing, and never proposes the pairs no
spelling rule can tell (`Opus 4.7` / `Opus 4.8` are two models, `Bob` / `Robert` a nickname)."""

from pathlib import Path

from memo_tui.engine.resolve.resolver import resolve
from memo_tui.names.rules import Name, judge_pair
from memo_tui.store import Alias, Entity, Question

SEEDS = Path(__file__).parent / "data" / "seeds.jsonl"
NS = "default"
PERSON = "person"
# the pairs that name one thing, with the types the store gives them (declared, or a speaker)
SAME = [
    ("Postgres", "PostgreSQL", None, None),
    ("Dashbaord", "Dashboard", None, None),
    ("claude-code", "Claude Code", None, None),
    ("URL", "URLs", None, None),
    ("Deb", "Deborah", None, PERSON),
]
# named by a rule whose labelled prior (`contained`, 0.13) is below the queue's floor: plausible, not likely
SAME_BELOW_THE_FLOOR = [
    ("Opus 4.8", "Claude Opus 4.8", None, None),
    ("Ada", "Ada Lovelace", PERSON, PERSON),
]
NEVER = [("Opus 4.7", "Opus 4.8"), ("Bob", "Robert")]


def surfaced(run_cli) -> set[frozenset[str]]:
    """The pairs of names a pass folded or asked about."""
    code, _, err = run_cli("ingest", str(SEEDS))
    assert code == 0, err
    resolve(NS)
    names = dict(Entity.select(Entity.id, Entity.name).tuples())
    asked = {frozenset((q.left_name, q.right_name)) for q in Question.select().where(Question.kind == "entity_pair")}
    folded = {frozenset((a.name, names[a.entity_id])) for a in Alias.select() if a.fold_id is not None}
    return asked | folded


def test_the_seed_examples_are_asked_and_the_nicknames_and_versions_never(run_cli):
    found = surfaced(run_cli)
    assert [pair for pair in SAME if frozenset(pair[:2]) not in found] == []
    assert [pair for pair in NEVER if frozenset(pair) in found] == []
    names = {name for pair in found for name in pair}
    assert not names & {"$1", ":-1", "Wow Priya", "Morning Deb"}  # sigils and interjections are not names
    for a, b, type_a, type_b in SAME_BELOW_THE_FLOOR:  # a rule asks: only the queue's floor holds them back
        assert judge_pair(Name(1, a, type_a), Name(2, b, type_b)).kind == "ask"
    for a, b in NEVER:
        assert judge_pair(Name(1, a, PERSON), Name(2, b, PERSON)).kind == "no"


def test_every_seed_example_is_asked_or_folded(run_cli):
    """The pairs under the floor too: a small store's queue has room for every plausible question."""
    found = surfaced(run_cli)
    assert [pair for pair in SAME + SAME_BELOW_THE_FLOOR if frozenset(pair[:2]) not in found] == []

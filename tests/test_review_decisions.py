"""Not a name and unsure: decisions a reviewer of real stores needs, recorded and revertible."""

import pytest
from graphrows import ask, graph_rows

from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.rebuild import rebuild
from memo_tui.engine.review import decisions, undo
from memo_tui.engine.review.queue import pending
from memo_tui.errors import MemoError
from memo_tui.store import Entity, Mention, NotAName, Question
from memo_tui.text.sources import PassageRecord

NS = "default"


@pytest.fixture
def changelog(store):
    ingest_records(
        NS,
        [
            PassageRecord("c1", "Fixes #2361 / Replaces #2362 in the Redis pool.", "git"),
            PassageRecord("c2", "Wow Mel, Replaces is done for Redis.", "git"),
            PassageRecord("c3", "The Replace step and Redis both moved.", "git"),
        ],
    )
    return store


def entity(name: str) -> Entity | None:
    return Entity.get_or_none((Entity.namespace == NS) & (Entity.name == name))


def test_not_a_name_drops_the_name_its_mentions_and_its_questions(changelog):
    question = ask("Replaces", "Replace")
    decision = decisions.not_a_name(NS, "Replaces", "alice", "cli")
    assert entity("Replaces") is None and not Mention.select().where(Mention.surface == "Replaces").exists()
    assert Question.get_by_id(question).status == "moot"
    assert question not in {q.id for q in pending(NS)}
    assert decision.action == "not_a_name" and decisions.history(NS, limit=1)[0].id == decision.id
    assert entity("Redis") is not None  # nothing else moves


def test_extraction_skips_a_junk_spelling_from_then_on_in_that_namespace_only(changelog):
    decisions.not_a_name(NS, "Replaces", "alice", "cli")
    ingest_records(NS, [PassageRecord("c4", "See #2500 / Replaces #12 for Redis.", "git")])
    ingest_records("other", [PassageRecord("o1", "See #2500 / Replaces #12 for Redis.", "git")])
    rebuild(NS)
    assert entity("Replaces") is None
    assert Entity.get_or_none((Entity.namespace == "other") & (Entity.name == "Replaces")) is not None


def test_reverting_not_a_name_puts_every_row_back_and_lets_extraction_see_it_again(changelog):
    question = ask("Replaces", "Replace")
    before = graph_rows()
    decision = decisions.not_a_name(NS, "Replaces", "alice", "cli")
    reverted = decisions.revert(NS, decision.id, "alice", "cli")
    assert graph_rows() == before
    assert Question.get_by_id(question).status == "pending"
    assert not NotAName.select().exists()
    assert reverted.payload["questions"] == [question]  # where a review app puts its cursor
    ingest_records(NS, [PassageRecord("c4", "See #2500 / Replaces #12 too.", "git")])
    assert Mention.select().join(Entity).where(Entity.name == "Replaces").count() == 3


def test_undo_and_redo_of_not_a_name(changelog):
    decisions.not_a_name(NS, "Replaces", "alice", "cli")
    undo.undo_last(NS, "alice", "cli")
    assert entity("Replaces") is not None
    undo.redo_last(NS, "alice", "cli")
    assert entity("Replaces") is None and NotAName.select().count() == 1


def test_not_a_name_of_an_unknown_name_is_refused(changelog):
    with pytest.raises(MemoError, match="no entity named"):
        decisions.not_a_name(NS, "Nothing Like It", "alice", "cli")


def test_unsure_keeps_the_question_pending_behind_the_others_with_the_note(changelog):
    first, second = ask("Redis", "Replace"), ask("Replaces", "Replace")
    ranked = [q.id for q in pending(NS)]
    decision = decisions.unsure(NS, ranked[0], "which Redis?", "alice", "tui")
    after = pending(NS)
    assert [q.id for q in after][-1] == ranked[0] and after[-1].unsure == "which Redis?"
    assert Question.get_by_id(ranked[0]).status == "pending"  # nothing settled
    decisions.revert(NS, decision.id, "alice", "cli")
    assert Question.get_by_id(ranked[0]).unsure is None and [q.id for q in pending(NS)] == ranked
    assert {first, second} <= set(ranked)


def test_unsure_of_a_settled_question_is_refused(changelog):
    question = ask("Replaces", "Replace")
    decisions.answer(NS, question, "reject", "alice", "cli")
    with pytest.raises(decisions.AlreadyDecided):
        decisions.unsure(NS, question, "", "bob", "cli")

"""Answering questions, reverting decisions, undo and the audit log."""

import peewee as pw
import pytest
from graphrows import ask, graph_rows

from memo_tui.engine.ingest import ingest_records
from memo_tui.engine.review import decisions, undo
from memo_tui.engine.review.decisions import AlreadyDecided, current_actor
from memo_tui.errors import MemoError
from memo_tui.store import Entity, KeepApart, Passage, Question, db
from memo_tui.text.sources import PassageRecord, parse_time

NS = "default"


@pytest.fixture
def pairs(store):
    ingest_records(
        NS,
        [
            PassageRecord("p1", "We run Postgres and PostgreSQL and Postgres again.", "a"),
            PassageRecord("p2", "Still on Postgres for billing.", "a"),
            PassageRecord("p3", "Claude Code and `claude-code`, also ClaudeCode.", "a"),
        ],
    )
    return store


def status(question_id):
    return Question.get_by_id(question_id).status


def names():
    return sorted(e.name for e in Entity.select())


def test_merge_folds_into_the_proposed_canonical(pairs):
    q = ask("PostgreSQL", "Postgres")
    decision = decisions.answer(NS, q, "merge", "alice", "cli")
    assert status(q) == "merged" and decision.question_id == q
    assert "PostgreSQL" not in names() and "Postgres" in names()  # Postgres has more passages


def test_merge_with_swap_folds_the_other_way(pairs):
    q = ask("PostgreSQL", "Postgres")
    decisions.answer(NS, q, "merge", "alice", "cli", swap=True)
    assert "Postgres" not in names() and "PostgreSQL" in names()


def test_reject_records_a_keep_apart_and_revert_removes_it(pairs):
    q = ask("PostgreSQL", "Postgres")
    decision = decisions.answer(NS, q, "reject", "alice", "cli")
    assert status(q) == "rejected"
    assert [(k.kind, k.decision_id) for k in KeepApart.select()] == [("reject", decision.id)]
    decisions.revert(NS, decision.id, "alice", "cli")
    assert status(q) == "pending" and KeepApart.select().count() == 0


def test_keep_both_settles_without_a_verdict(pairs):
    q = ask("PostgreSQL", "Postgres")
    decisions.answer(NS, q, "keep_both", "alice", "cli")
    assert status(q) == "keep_both"
    assert KeepApart.get().kind == "keep_both"
    assert "PostgreSQL" in names() and "Postgres" in names()


def test_a_decided_question_says_who_decided_it(pairs):
    q = ask("PostgreSQL", "Postgres")
    decisions.answer(NS, q, "reject", "alice", "cli")
    with pytest.raises(AlreadyDecided, match=r"already decided by alice at \d{4}-\d\d-\d\d .*\(rejected\)"):
        decisions.answer(NS, q, "merge", "bob", "cli")
    assert "PostgreSQL" in names()


def test_answers_follow_aliases_and_a_settled_pair_is_moot(pairs):
    q1 = ask("Claude Code", "claude-code")
    q2 = ask("claude-code", "ClaudeCode")
    q3 = ask("Claude Code", "ClaudeCode")
    decisions.answer(NS, q1, "merge", "alice", "cli")
    decisions.answer(NS, q2, "merge", "alice", "cli")  # one side was folded away: followed through its alias
    assert len([n for n in names() if n.casefold().replace("-", "").replace(" ", "") == "claudecode"]) == 1
    assert status(q3) == "moot"  # its sides became one entity: settled with the merge that did it
    with pytest.raises(AlreadyDecided, match="moot"):
        decisions.answer(NS, q3, "merge", "alice", "cli")


def test_a_pair_is_pending_once_and_a_question_settled_some_other_way_is_not_answered_again(pairs):
    q1 = ask("Claude Code", "claude-code")
    with pytest.raises(pw.IntegrityError), db.atomic():
        first = Question.get_by_id(q1)  # the same pair twice (a race of two passes): the schema refuses it
        Question.create(**{**first.__data__, "id": None, "left_id": first.right_id, "right_id": first.left_id})
    decisions.manual_fold(NS, "claude-code", "Claude Code", "bob", "cli")  # settled some other way
    assert status(q1) != "pending"
    with pytest.raises(decisions.AlreadyDecided):
        decisions.answer(NS, q1, "merge", "alice", "cli")


def test_revert_of_a_merge_restores_rows_and_reopens_the_question(pairs):
    before = graph_rows()
    q = ask("PostgreSQL", "Postgres")
    decision = decisions.answer(NS, q, "merge", "alice", "cli")
    decisions.revert(NS, decision.id, "alice", "cli")
    assert graph_rows() == before
    assert status(q) == "pending"
    decisions.answer(NS, q, "reject", "alice", "cli")  # answerable again
    assert status(q) == "rejected"


def test_undo_reverts_the_reviewers_own_last_decision(pairs):
    q1, q2 = ask("PostgreSQL", "Postgres"), ask("Claude Code", "claude-code")
    decisions.answer(NS, q1, "reject", "alice", "cli")
    decisions.answer(NS, q2, "merge", "bob", "cli")
    undone = undo.undo_last(NS, "alice", "tui")
    assert undone.channel == "tui" and "reverted" in undone.summary
    assert status(q1) == "pending" and status(q2) == "merged"
    again = undo.undo_last(NS, "alice", "tui")  # undoes the undo: the reject is made again
    assert again.action == "reject" and status(q1) == "rejected" and status(q2) == "merged"


def test_history_is_newest_first_and_filters_by_channel(pairs):
    q1, q2 = ask("PostgreSQL", "Postgres"), ask("Claude Code", "claude-code")
    decisions.answer(NS, q1, "reject", "alice", "cli")
    decisions.answer(NS, q2, "merge", "resolver", "auto")
    log = decisions.history(NS)
    assert [v.action for v in log] == ["merge", "reject"]
    assert [v.actor for v in decisions.history(NS, who="auto")] == ["resolver"]
    assert [v.actor for v in decisions.history(NS, who="human")] == ["alice"]
    assert log[0].payload["absorbed"]["name"] in ("claude-code", "Claude Code")


def test_duplicate_passages_merge_keeps_the_newer_and_revert_restores(store):
    ingest_records(
        NS,
        [
            PassageRecord(
                "old", "The Acme Gateway timeout is 30 seconds.", "wiki", created_at=parse_time("2026-01-01")
            ),
            PassageRecord(
                "new", "The Acme Gateway timeout is 60 seconds.", "chat", created_at=parse_time("2026-02-01")
            ),
        ],
    )
    old, new = Passage.get(Passage.external_id == "old"), Passage.get(Passage.external_id == "new")
    q = Question.create(
        namespace=NS,
        kind="contradiction",
        left_id=old.id,
        right_id=new.id,
        left_name="old",
        right_name="new",
        score=0.9,
        rule="number",
        reason="30 vs 60",
    ).id
    decision = decisions.answer(NS, q, "merge", "alice", "cli")
    assert Passage.get_by_id(old.id).retired_at is not None and Passage.get_by_id(new.id).retired_at is None
    decisions.revert(NS, decision.id, "alice", "cli")
    assert Passage.get_by_id(old.id).retired_at is None
    decisions.answer(NS, q, "merge", "alice", "cli", keep="left")
    assert Passage.get_by_id(new.id).retired_at is not None


def test_unknown_answer_and_question_are_clear_errors(pairs):
    with pytest.raises(MemoError, match="unknown answer"):
        decisions.answer(NS, 1, "maybe", "alice", "cli")
    with pytest.raises(MemoError, match="no question 999"):
        decisions.answer(NS, 999, "merge", "alice", "cli")


def test_actor_comes_from_flag_then_environment_then_login(monkeypatch):
    monkeypatch.setenv("MEMO_TUI_USER", "carol")
    assert current_actor("dave") == "dave"
    assert current_actor(None) == "carol"
    monkeypatch.delenv("MEMO_TUI_USER")
    assert current_actor(None)


@pytest.fixture
def priya(store):
    people = [{"name": n, "type": "person"} for n in ("Priya Raman", "PR", "Priya R.")]
    ingest_records(NS, [PassageRecord("p1", "Ask her about the ledger.", "a", entities=people)])
    return {
        "raman_pr": ask("Priya Raman", "PR"),
        "pr_short": ask("PR", "Priya R."),
        "raman_short": ask("Priya Raman", "Priya R."),
    }


def test_a_keep_apart_holds_across_a_fold_through_a_third_spelling(priya):
    decisions.answer(NS, priya["raman_pr"], "reject", "alice", "cli")
    merge = decisions.answer(NS, priya["raman_short"], "merge", "alice", "cli")
    # PR / Priya R. now falls on the kept-apart pair: settled at once, not at the next pass
    assert status(priya["pr_short"]) == "moot"
    decisions.revert(NS, merge.id, "alice", "cli")
    assert status(priya["pr_short"]) == "pending"  # the fold's consequence goes with it


def test_no_answer_folds_a_kept_apart_pair_through_another_spelling(priya):
    decisions.answer(NS, priya["raman_pr"], "reject", "alice", "cli")
    decisions.answer(NS, priya["pr_short"], "merge", "bob", "cli")  # Priya R. and PR are one now
    assert status(priya["raman_short"]) == "moot"  # Priya Raman / (PR holding Priya R.) is kept apart
    Question.update(status="pending").where(Question.id == priya["raman_short"]).execute()  # as if raced
    with pytest.raises(MemoError, match="kept apart by decision"):
        decisions.answer(NS, priya["raman_short"], "merge", "bob", "cli")
    assert len(names()) == 2 and "Priya Raman" in names()  # still apart from the one that holds PR


def test_a_manual_fold_settles_the_questions_it_answers_and_its_revert_reopens_them(priya):
    fold = decisions.manual_fold(NS, "Priya R.", "Priya Raman", "bob", "cli")
    assert status(priya["raman_short"]) == "moot"
    decisions.revert(NS, fold.id, "bob", "cli")
    assert status(priya["raman_short"]) == "pending"


def test_the_queue_shows_a_folded_side_as_the_entity_it_lives_in_now(priya):
    from memo_tui.engine.review.queue import pending

    decisions.manual_fold(NS, "PR", "Priya R.", "bob", "cli")  # not an answer to any question here
    shown = {q.id: q for q in pending(NS)}
    raman_pr = shown[priya["raman_pr"]]
    holder = Entity.get(Entity.name == "Priya R.")
    assert (raman_pr.right_id, raman_pr.right_name) == (holder.id, "Priya R.")
    assert Question.get_by_id(priya["raman_pr"]).right_name == "PR"  # the stored question is unchanged


def test_a_fold_that_makes_two_questions_ask_the_same_pair_keeps_the_older(priya):
    decisions.manual_fold(NS, "PR", "Priya R.", "bob", "cli")
    # Priya Raman / PR now asks what Priya Raman / Priya R. asks
    assert status(priya["raman_pr"]) == "pending" and status(priya["raman_short"]) == "moot"


def test_undo_after_a_revert_makes_the_reverted_decision_again_and_touches_nothing_older(priya):
    older = decisions.answer(NS, priya["raman_pr"], "reject", "alice", "cli")
    kept = decisions.answer(NS, priya["raman_short"], "keep_both", "alice", "cli")
    decisions.revert(NS, kept.id, "alice", "cli")
    again = undo.undo_last(NS, "alice", "cli")  # undoes the revert
    assert again.action == "keep_both" and status(priya["raman_short"]) == "keep_both"
    assert status(priya["raman_pr"]) == "rejected" and decision_row(older.id).undone_at is None


def test_redo_makes_again_what_undo_undid_the_same_way(priya):
    merged = decisions.answer(NS, priya["raman_short"], "merge", "alice", "cli", swap=True)
    absorbed = merged.payload["absorbed"]["name"]
    undo.undo_last(NS, "alice", "cli")
    assert status(priya["raman_short"]) == "pending"
    redone = undo.redo_last(NS, "alice", "cli")
    assert redone.action == "merge" and redone.payload["absorbed"]["name"] == absorbed  # --swap kept
    with pytest.raises(MemoError, match="nothing to redo"):
        undo.redo_last(NS, "alice", "cli")


def decision_row(decision_id: int):
    from memo_tui.store import Decision

    return Decision.get_by_id(decision_id)


def test_undo_says_when_there_is_nothing_to_undo(priya):
    with pytest.raises(MemoError, match="nothing to undo"):
        undo.undo_last(NS, "alice", "cli")
    decision = decisions.answer(NS, priya["raman_pr"], "reject", "alice", "cli")
    assert undo.undo_last(NS, "alice", "cli").payload["decision"] == decision.id


def test_a_batch_answers_as_one_decision_that_reverts_undoes_and_redoes_as_one(pairs):
    before = graph_rows()
    q1, q2 = ask("PostgreSQL", "Postgres"), ask("Claude Code", "claude-code")
    batch = decisions.answer_batch(NS, [q1, q2], "merge", "alice", "tui")
    assert batch.action == "batch" and status(q1) == status(q2) == "merged"
    assert graph_rows() != before
    undo.undo_last(NS, "alice", "tui")  # one undo for the whole batch
    assert status(q1) == status(q2) == "pending" and graph_rows() == before
    undo.redo_last(NS, "alice", "tui")
    assert status(q1) == status(q2) == "merged"
    again = decisions.history(NS)[0]
    assert again.action == "batch"
    decisions.revert(NS, again.id, "bob", "cli")  # anyone may revert it, as one
    assert status(q1) == status(q2) == "pending" and graph_rows() == before


def test_a_batch_is_all_or_none_and_one_answer_of_it_reverts_alone(pairs):
    q1, q2 = ask("PostgreSQL", "Postgres"), ask("Claude Code", "claude-code")
    decisions.answer(NS, q2, "reject", "bob", "cli")
    with pytest.raises(AlreadyDecided):
        decisions.answer_batch(NS, [q1, q2], "reject", "alice", "cli")
    assert status(q1) == "pending"  # nothing of the batch was kept
    decisions.revert(NS, decisions.history(NS)[0].id, "bob", "cli")
    batch = decisions.answer_batch(NS, [q1, q2], "reject", "alice", "cli")
    first = batch.payload["decisions"][0]
    decisions.revert(NS, first, "alice", "cli")  # one answer of the batch, from the history
    assert status(q1) == "pending" and status(q2) == "rejected"
    decisions.revert(NS, batch.id, "alice", "cli")  # the rest of the batch
    assert status(q2) == "pending"


def test_questions_like_this_one_share_its_pattern(store):
    names = [{"name": n, "type": None} for n in ("Redis", "redis", "Kafka", "kafka", "Vault", "Vaults")]
    ingest_records(NS, [PassageRecord("p", "Three tools.", "a", entities=names)])
    like = []
    for a, b, rule in (("Redis", "redis", "case-lowercase"), ("Kafka", "kafka", "case-lowercase"),
                       ("Vault", "Vaults", "plural")):  # fmt: skip
        q = Question.get_by_id(ask(a, b))
        Question.update(rule=rule, pattern=rule).where(Question.id == q.id).execute()
        like.append(q.id)
    assert decisions.questions_like(NS, like[1]) == [like[1], like[0]]


def test_the_cli_answers_several_questions_and_every_one_like_this(pairs, run_cli):
    q1, q2 = ask("PostgreSQL", "Postgres"), ask("Claude Code", "claude-code")
    for q in (q1, q2):
        Question.update(pattern="case-lowercase", rule="case-lowercase").where(Question.id == q).execute()
    code, out, _ = run_cli("graph", "reject", str(q1), "--like")
    assert code == 0 and out.strip() == f"would reject 2 pending questions like #{q1}; add --yes to do it"
    assert status(q1) == status(q2) == "pending"
    code, out, _ = run_cli("graph", "reject", str(q1), "--like", "--yes", "--as", "alice")
    assert code == 0 and status(q1) == status(q2) == "rejected"
    assert run_cli("graph", "undo", "--as", "alice")[0] == 0
    assert status(q1) == status(q2) == "pending"
    code, _, err = run_cli("graph", "merge", str(q1), str(q2), "--swap")
    assert code == 2 and "answer one item; give one N" in err
    assert run_cli("graph", "merge", str(q1), str(q2), "--as", "alice")[0] == 0
    assert status(q1) == status(q2) == "merged"

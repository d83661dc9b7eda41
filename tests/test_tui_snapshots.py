"""What the reviewer sees, pinned as SVG snapshots (pytest-textual-snapshot; fixed size, fixed clock).

Update after reviewing a change: `.venv/bin/python -m pytest tests/test_tui_snapshots.py --snapshot-update`.
"""

import pytest
from textual.command import CommandList
from tuistore import REVIEWER, demo_app, select_question, settle, wait_for

from memo_tui.engine.review import decisions
from memo_tui.store import Question
from memo_tui.tui.app import MemoApp

WIDE = (120, 36)


def test_a_cluster_card_first_in_the_queue(demo_store, snap_compare):
    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=settle)


def test_a_cluster_card_with_a_member_unchecked(demo_store, snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("tab", "j", "j", "space")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_a_cluster_card_at_80x24_says_the_highlighted_members_why_in_full(demo_store, snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("tab", "j")  # past the canonical: the table cuts a member's why at this width
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=(80, 24), run_before=run_before)


def test_memory_conflict_with_what_differs(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "w080", "w081")

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_name_pair_with_detail(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "GitHub Actions", "github-actions")

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_after_merge(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("m")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_after_reject(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "Priya Raman", "Priya R.")
        await pilot.press("r")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_after_keep_both_on_a_duplicate(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "w132", "s133")
        await pilot.press("b")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_neighbourhood_after_following_two_hops(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "Dmitri Novak", "D. Novak")
        await pilot.press("e")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("j", "enter")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_history_with_a_reverted_fold(demo_store, snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        await pilot.press("j", "u")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_find_an_entity(demo_store, snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("slash", *"postg")
        palette = pilot.app.screen
        await wait_for(pilot, lambda: palette.query_one(CommandList).option_count == 6, "six search results")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_help_describes_the_focused_pane(demo_store, snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


@pytest.fixture
def backend():
    """Snapshots are of the UI, which is the same on every backend: SQLite only."""
    return "sqlite"


def test_empty_store_welcomes(store, snap_compare):
    assert snap_compare(MemoApp("store.db", actor=REVIEWER), terminal_size=(100, 24))


def test_narrow_terminal(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "GitHub Actions", "github-actions")

    assert snap_compare(demo_app(), terminal_size=(80, 24), run_before=run_before)


def test_already_decided_by_someone_else(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "GitHub Actions", "github-actions")
        question = pilot.app.screen.question_id
        decisions.answer("default", question, "reject", "bob", "cli")
        await pilot.press("m")
        await settle(pilot)
        assert Question.get_by_id(question).status == "rejected"

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_resolution_pass_from_the_tui(demo_store, snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_an_agents_proposal_in_the_queue_filtered_to_proposals(demo_store, snap_compare):
    from memo_tui.engine.proposals import propose

    propose("default", "Bob Okafor", "Robert Okafor", "merge", "the standup notes call him both", "scribe")

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("P")
        await select_question(pilot, "Robert Okafor", "Bob Okafor")

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_the_rename_prompt(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("e")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_the_queue_filtered_by_a_text(demo_store, snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("ctrl+f", *"conflict", "enter")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_the_batch_preview_of_every_question_like_this(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "Redis", "redis")
        await pilot.press("X")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_two_questions_marked_for_a_batch_answer(demo_store, snap_compare):
    async def run_before(pilot):
        await select_question(pilot, "Redis", "redis")
        await pilot.press("space", "space")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_the_history_at_80x24_says_the_highlighted_decision_in_full(demo_store, snap_compare):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("m")  # the first item: a cluster of three spellings, folded as one decision
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=(80, 24), run_before=run_before)


def test_a_family_of_passages_as_one_card(demo_store, snap_compare):
    from memo_tui.store import Passage

    older, newer = (Passage.get(Passage.external_id == name) for name in ("w120", "s134"))
    Question.create(namespace="default", kind="contradiction", left_id=older.id, right_id=newer.id, left_name="w120",
                    right_name="s134", score=0.7, rule="differs-number", likelihood=0.7, priority=1.4,
                    reason="Gateway rate limiter allows: 100 → 250 requests")  # fmt: skip

    async def run_before(pilot):
        await settle(pilot)
        pane = pilot.app.screen.query_one("QueuePane")
        row = next(i for i, q in enumerate(pane.questions) if q.kind == "passage_family")
        pilot.app.screen.query_one("#queue-table").move_cursor(row=row)
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)


def test_a_timeline_card_says_each_value_with_its_date(demo_store, snap_compare):
    from datetime import datetime

    from memo_tui.engine.ingest import ingest_records
    from memo_tui.engine.resolve.resolver import resolve
    from memo_tui.text.sources import PassageRecord

    said = [(30, "2026-04-10"), (45, "2026-04-20"), (90, "2026-05-01")]
    ingest_records("default", [
        PassageRecord(f"j{n}", f"The Harbor job timeout is {seconds} s for the nightly export.", "wiki",
                      datetime.fromisoformat(day)) for n, (seconds, day) in enumerate(said, 1)
    ])  # fmt: skip
    resolve("default")

    async def run_before(pilot):
        await settle(pilot)
        pane = pilot.app.screen.query_one("QueuePane")
        row = next(i for i, q in enumerate(pane.questions) if q.rule.startswith("timeline"))
        pilot.app.screen.query_one("#queue-table").move_cursor(row=row)
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=WIDE, run_before=run_before)

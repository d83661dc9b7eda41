"""Keys pressed in the TUI change the store exactly as the command line would."""

import io
import re
import time

from graphrows import graph_rows
from rich.console import Console
from textual.command import CommandList
from tuistore import REVIEWER, demo_app, pilot_test, select_question, settle, wait_for

from memo_tui.engine.ingest import ingest_records
from memo_tui.store import Decision, Entity, Fold, KeepApart, Passage, Question
from memo_tui.text.sources import PassageRecord
from memo_tui.tui.app import MemoApp
from memo_tui.tui.widgets.detail_pane import render_detail

WIDE = (120, 36)


def passage(external_id: str) -> Passage:
    return Passage.get(Passage.external_id == external_id)


@pilot_test
async def test_m_folds_the_pair_and_ctrl_z_restores_the_rows(demo_store):
    before = graph_rows()
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        question = pilot.app.screen.question_id
        await pilot.press("m")
        await settle(pilot)
        fold = Fold.get(Fold.absorbed_name == "github-actions")
        assert fold.reverted_at is None and fold.decided_by == REVIEWER and fold.channel == "tui"
        assert Question.get_by_id(question).status == "merged"
        assert not Entity.select().where(Entity.name == "github-actions").exists()
        await pilot.press("ctrl+z")
        await settle(pilot)
    assert Fold.get_by_id(fold.id).reverted_at is not None
    assert graph_rows() == before
    assert Question.get_by_id(question).status == "pending"


@pilot_test
async def test_capital_m_folds_the_other_way(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("M")
        await settle(pilot)
    assert Fold.get(Fold.channel == "tui").absorbed_name == "GitHub Actions"


@pilot_test
async def test_r_keeps_the_pair_apart_and_b_settles_a_duplicate(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Priya Raman", "Priya R.")
        await pilot.press("r")
        await settle(pilot)
        await select_question(pilot, "w132", "s133")
        await pilot.press("b")
        await settle(pilot)
        shown = {(q.left_name, q.right_name) for q in pilot.app.screen.query_one("QueuePane").questions}
    assert KeepApart.select().where(KeepApart.kind == "reject").count() == 1
    assert passage("w132").retired_at is None and passage("s133").retired_at is None
    assert ("Priya Raman", "Priya R.") not in shown and ("w132", "s133") not in shown


@pilot_test
async def test_merging_a_contradiction_retires_the_older_passage(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "w013", "w062")
        await pilot.press("m")
        await settle(pilot)
        assert passage("w013").retired_at is not None and passage("w062").retired_at is None
        await pilot.press("ctrl+z")
        await settle(pilot)
    assert passage("w013").retired_at is None


@pilot_test
async def test_reverting_an_auto_fold_from_the_history(demo_store):
    fold = Fold.get(Fold.absorbed_name == "Github")
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        table = pilot.app.screen.query_one("#history-table")
        decision = Decision.get(Decision.fold == fold.id)
        table.move_cursor(row=table.get_row_index(str(decision.id)))
        await pilot.press("u")
        await settle(pilot)
    restored = Entity.get_by_id(fold.absorbed_id)
    assert restored.name == "Github"
    assert sorted(m.passage.external_id for m in restored.mentions) == ["g011", "s159"]


@pilot_test
async def test_explore_follows_a_neighbour_and_backspace_goes_back(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Dmitri Novak", "D. Novak")
        await pilot.press("e")
        await settle(pilot)
        pane = pilot.app.screen.query_one("NeighbourhoodPane")
        assert [name for _, name in pane.trail] == ["Dmitri Novak"]
        await pilot.press("enter")
        await settle(pilot)
        assert len(pane.trail) == 2
        await pilot.press("backspace")
        await settle(pilot)
        assert [name for _, name in pane.trail] == ["Dmitri Novak"]
        await pilot.press("e")  # the other side
        await settle(pilot)
        assert [name for _, name in pane.trail] == ["D. Novak"]


@pilot_test
async def test_find_opens_the_neighbourhood_of_an_alias(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"Pgbounc")
        palette = pilot.app.screen
        await wait_for(pilot, lambda: palette.query_one(CommandList).option_count >= 1, "a search result")
        await pilot.press("enter")
        await settle(pilot)
        pane = pilot.app.screen.query_one("NeighbourhoodPane")
        assert [name for _, name in pane.trail] == ["PgBouncer"]


@pilot_test
async def test_a_resolution_pass_from_the_tui_queues_new_questions(demo_store):
    ingest_records(
        "default",
        [
            PassageRecord("new1", "The Helix Router restarted.", "x"),
            PassageRecord("new2", "Both Helix Routers failed.", "y"),
        ],
    )
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        before = len(pilot.app.screen.query_one("QueuePane").questions)
        await pilot.press("R")
        await settle(pilot)
        after = pilot.app.screen.query_one("QueuePane").questions
    assert len(after) > before
    assert any({q.left_name, q.right_name} == {"Helix Router", "Helix Routers"} for q in after)


@pilot_test
async def test_r_again_cancels_a_running_pass_and_answers_go_on_meanwhile(demo_store, monkeypatch):
    from memo_tui.engine.resolve.resolver import Cancelled
    from memo_tui.tui.screens import review

    started = []

    def long_pass(namespace, progress, cancelled):  # stands for a pass on a large store
        started.append(namespace)
        while not cancelled():
            time.sleep(0.01)
        raise Cancelled("the resolution pass was cancelled; folds made before it stopped stand")

    monkeypatch.setattr(review, "resolve", long_pass)
    titles = []
    monkeypatch.setattr(MemoApp, "notify", lambda self, message, **options: titles.append(options.get("title")))
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        question = pilot.app.screen.question_id
        await pilot.press("R")
        await wait_for(pilot, lambda: started, "the pass to start")
        await pilot.press("r")  # an answer while the pass runs is not refused
        await wait_for(pilot, lambda: Question.get_by_id(question).status == "rejected", "the answer")
        await pilot.press("R")
        await wait_for(pilot, lambda: not pilot.app.screen.resolving, "the pass to stop")
        await settle(pilot)
    assert "Resolution pass cancelled" in titles


@pilot_test
async def test_key_overrides_from_the_settings_file(demo_store, tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text('[keys]\nmerge = "x"\n')
    monkeypatch.setenv("MEMO_TUI_CONFIG", str(config))
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("m")
        await settle(pilot)
        assert not Fold.select().where(Fold.channel == "tui").exists()
        await pilot.press("x")
        await settle(pilot)
    assert Fold.select().where(Fold.channel == "tui").count() == 1


@pilot_test
async def test_an_empty_store_shows_the_welcome(store):
    async with MemoApp("store.db", actor=REVIEWER).run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert type(pilot.app.screen).__name__ == "WelcomeScreen"
        await pilot.press("q")


@pilot_test
async def test_explore_on_a_memory_conflict_opens_what_both_passages_are_about(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "w013", "w062")
        await pilot.press("e")
        await settle(pilot)
        pane = pilot.app.screen.query_one("NeighbourhoodPane")
        assert [name for _, name in pane.trail] == ["Acme Gateway"]


@pilot_test
async def test_an_unknown_binding_id_in_the_settings_is_named_in_a_warning(demo_store, tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text('[keys]\nmerj = "x"\nmerge = "m"\n')
    monkeypatch.setenv("MEMO_TUI_CONFIG", str(config))
    told = []
    monkeypatch.setattr(MemoApp, "notify", lambda self, message, **kw: told.append((message, kw.get("severity"))))
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
    warnings = [message for message, severity in told if severity == "warning"]
    assert len(warnings) == 1 and "has no binding merj" in warnings[0] and "merge" in warnings[0]


@pilot_test
async def test_the_neighbourhood_is_shown_again_after_a_decision(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("e")  # the neighbourhood of Claude Code
        await settle(pilot)
        pane = pilot.app.screen.query_one("NeighbourhoodPane")
        before = pane.query_one("#trail").render()
        await pilot.press("m")  # from the neighbourhood: the question is shown first, nothing is answered
        await settle(pilot)
        assert pilot.app.screen.query_one("ContentSwitcher").current == "detail"
        assert not Fold.select().where(Fold.channel == "tui").exists()
        await pilot.press("m")  # now it folds github-actions into GitHub Actions
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        after = pane.query_one("#trail").render()
        assert [name for _, name in pane.trail] == ["GitHub Actions"]
        assert str(before) != str(after)  # more passages now: the fold is in the graph shown


@pilot_test
async def test_the_welcome_names_the_store_the_app_opened(store):
    location = "/srv/team stores/memo.db"
    async with MemoApp("memo.db", actor=REVIEWER, location=location).run_test(size=WIDE) as pilot:
        await pilot.pause()
        text = pilot.app.screen.query_one("Markdown").source
        assert f"memo-tui --db '{location}' ingest" in text and "--db memo.db" not in text


@pilot_test
async def test_enter_merges_when_the_settings_give_it_to_merge(demo_store, tmp_path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text('[keys]\nmerge = "m,enter"\n')  # the README's own example
    monkeypatch.setenv("MEMO_TUI_CONFIG", str(config))
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("enter")
        await settle(pilot)
    assert Fold.select().where(Fold.channel == "tui").count() == 1


@pilot_test
async def test_ctrl_y_redoes_what_ctrl_z_undid(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert not Fold.select().where((Fold.channel == "tui") & Fold.reverted_at.is_null()).exists()
        await pilot.press("ctrl+y")
        await settle(pilot)
    assert Fold.select().where((Fold.channel == "tui") & Fold.reverted_at.is_null()).count() == 1


@pilot_test
async def test_g_and_G_go_to_the_ends_s_wraps_and_undo_lands_on_the_restored_question(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        table = screen.query_one("#queue-table")
        rows = table.row_count
        await pilot.press("G")
        assert table.cursor_row == rows - 1
        await pilot.press("s")  # past the last question: back to the first, and the status says so
        assert table.cursor_row == 0
        assert "that was the last question" in str(screen.query_one("#status").render())
        await pilot.press("end")
        await pilot.press("home")
        assert table.cursor_row == 0
        await select_question(pilot, "GitHub Actions", "github-actions")
        question = screen.question_id
        await pilot.press("r")
        await wait_for(pilot, lambda: Question.get_by_id(question).status == "rejected", "the answer")
        await settle(pilot)
        assert "reject:" in str(screen.query_one("#status").render())  # said in the status line
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: Question.get_by_id(question).status == "pending", "the undo")
        await settle(pilot)
        assert screen.question_id == question  # the cursor is on the question the undo put back


@pilot_test
async def test_a_decision_made_elsewhere_shows_up_without_a_key(demo_store, monkeypatch):
    from memo_tui.engine.review import decisions
    from memo_tui.tui.screens import review

    monkeypatch.setattr(review, "LIVE_SECONDS", 0.2)
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        pane = pilot.app.screen.query_one("QueuePane")
        target = next(q for q in pane.questions if q.kind == "entity_pair")
        decisions.answer("default", target.id, "reject", "bob", "cli")  # another reviewer, from the CLI
        await wait_for(pilot, lambda: all(q.id != target.id for q in pane.questions), "the queue to follow")


@pilot_test
async def test_plus_shows_more_passages_and_j_k_scroll_the_focused_detail(demo_store):
    async with demo_app(
    ).run_test(size=WIDE) as pilot:  # fmt: skip
        await select_question(pilot, "Redis", "redis")
        detail = pilot.app.screen.query_one("DetailPane")
        shown = [len(side.passages) for side in detail.detail.entities]
        totals = [side.mentions for side in detail.detail.entities]
        assert shown == [min(3, total) for total in totals] and max(totals) > 3
        await pilot.press("plus")
        await wait_for(pilot, lambda: [len(s.passages) for s in detail.detail.entities] == totals, "more passages")
        await pilot.press("tab")
        assert pilot.app.focused is detail
        await pilot.press("j", "j")
        await settle(pilot)
        assert detail.scroll_y > 0
        await pilot.press("k", "k")
        await settle(pilot)
        assert detail.scroll_y == 0


@pilot_test
async def test_the_queue_height_changes_and_ctrl_p_opens_the_command_palette(demo_store):
    from textual.command import CommandPalette

    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        queue = pilot.app.screen.query_one("QueuePane")
        before = queue.size.height
        await pilot.press("right_square_bracket", "right_square_bracket")
        await settle(pilot)
        assert queue.size.height > before
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await settle(pilot)
        assert queue.size.height < before
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, CommandPalette), "the command palette")


@pilot_test
async def test_the_help_scrolls_with_j_and_k_at_80_by_24(demo_store):
    async with demo_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        box = pilot.app.screen.query_one("#help-box")
        assert box.max_scroll_y > 0  # at 80x24 the help is longer than the screen
        await pilot.press("j", "j", "j")
        await settle(pilot)
        assert box.scroll_y == 3
        await pilot.press("k")
        await settle(pilot)
        assert box.scroll_y == 2


@pilot_test
async def test_n_renames_and_F_folds_the_entity_of_the_neighbourhood(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("e")  # the neighbourhood of the left name
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("ctrl+u", *"Claude Code CLI", "enter")
        await wait_for(pilot, lambda: Entity.get_or_none(Entity.name == "Claude Code CLI") is not None, "the rename")
        await settle(pilot)
        renamed = Entity.get(Entity.name == "Claude Code CLI")
        await pilot.press("F")
        await settle(pilot)
        await pilot.press(*"Redis", "enter")
        await wait_for(pilot, lambda: Entity.get_or_none(Entity.id == renamed.id) is None, "the fold")
        fold = Fold.get(Fold.absorbed_id == renamed.id)
        assert Entity.get_by_id(fold.canonical_id).name == "Redis" and fold.channel == "tui"
        await settle(pilot)
        await pilot.press("escape")  # nothing open: no harm
        await pilot.press("1")
        await pilot.press("n")  # not on the neighbourhood: says where n works, does nothing
        await settle(pilot)
        assert not any(type(s).__name__ == "AskScreen" for s in pilot.app.screen_stack)


@pilot_test
async def test_colon_jumps_to_a_question_and_ctrl_f_filters_the_queue(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        pane = screen.query_one("QueuePane")
        last = pane.questions[-1].id
        await pilot.press("colon", *str(last), "enter")
        await settle(pilot)
        assert screen.question_id == last
        await pilot.press("ctrl+f", *"lowercase", "enter")
        await settle(pilot)
        assert pane.questions and all(q.rule == "case-lowercase" for q in pane.questions)
        assert "filter 'lowercase'" in str(screen.query_one("#queue-title").render())
        await pilot.press("ctrl+f", "ctrl+u", "enter")  # empty: the whole queue again
        await settle(pilot)
        assert any(q.kind != "entity_pair" for q in pane.questions)


@pilot_test
async def test_space_marks_questions_that_one_key_answers_and_one_undo_restores(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Redis", "redis")
        pane = pilot.app.screen.query_one("QueuePane")
        first = pilot.app.screen.question_id
        await pilot.press("space")  # marks Redis / redis, the cursor moves on
        await settle(pilot)
        second = pilot.app.screen.question_id
        await pilot.press("space")
        assert pane.marked == {first, second}
        await pilot.press("r")
        await wait_for(
            pilot, lambda: {Question.get_by_id(q).status for q in (first, second)} == {"rejected"}, "the batch"
        )
        await settle(pilot)
        assert Decision.select().where(Decision.action == "batch").count() == 1 and not pane.marked
        await pilot.press("ctrl+z")
        await wait_for(
            pilot, lambda: {Question.get_by_id(q).status for q in (first, second)} == {"pending"}, "one undo"
        )


@pilot_test
async def test_x_rejects_every_question_like_this_after_saying_how_many(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Redis", "redis")
        question = Question.get_by_id(pilot.app.screen.question_id)
        like = Question.select().where(
            (Question.status == "pending") & (Question.pattern == question.pattern) & (Question.kind == "entity_pair")
        )
        count = like.count()
        assert count > 1
        await pilot.press("X")
        await settle(pilot)
        prompt = pilot.app.screen.query_one("Static")
        assert f"Reject all {count} pending questions like #{question.id}" in str(prompt.render())
        await pilot.press(*"yes", "enter")
        await wait_for(pilot, lambda: not like.exists(), "every question like it to be rejected")


async def select_cluster(pilot, canonical: str) -> None:
    await settle(pilot)
    pane = pilot.app.screen.query_one("QueuePane")
    index = next(i for i, q in enumerate(pane.questions) if q.members and q.left_name == canonical)
    pilot.app.screen.query_one("#queue-table").move_cursor(row=index)
    await settle(pilot)


def card_names(pilot) -> list[str]:
    card = pilot.app.screen.query_one("ClusterCard")
    return [m.name for m in card.detail.cluster.members]


@pilot_test
async def test_a_cluster_card_folds_the_checked_members_as_one_decision(demo_store):
    before = graph_rows()
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_cluster(pilot, "Claude Code")
        assert card_names(pilot)[0] == "Claude Code" and len(card_names(pilot)) == 3
        await pilot.press("tab")
        assert pilot.app.focused.id == "card-members"
        await pilot.press("j", "space")  # uncheck the second member
        unchecked = card_names(pilot)[1]
        await pilot.press("m")
        await settle(pilot)
        [cluster] = Decision.select().where(Decision.action == "cluster")
        assert cluster.channel == "tui"
        assert Entity.select().where(Entity.name == unchecked).exists()
        folded = {f.absorbed_name for f in Fold.select().where(Fold.channel == "tui")}
        assert folded == {"claude-code", "ClaudeCode"} - {unchecked}
        await pilot.press("ctrl+z")
        await settle(pilot)
    assert graph_rows() == before


@pilot_test
async def test_c_makes_a_member_the_canonical_and_d_marks_the_rest_different(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_cluster(pilot, "Claude Code")
        await pilot.press("tab", "j")
        chosen = card_names(pilot)[1]
        await pilot.press("c")
        await settle(pilot)
        assert card_names(pilot)[0] == chosen  # the card is read again around the new canonical
        await pilot.press("a")  # all checked -> none
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
    assert not Fold.select().where(Fold.channel == "tui").exists()
    assert KeepApart.select().where(KeepApart.kind == "reject").count() >= 1
    ids = {e.name: e.id for e in Entity.select()}
    assert all(ids.get(name) for name in ("Claude Code", "claude-code", "ClaudeCode"))


@pilot_test
async def test_a_key_typed_while_a_decision_is_applied_is_refused_visibly(demo_store, monkeypatch):
    import threading

    from memo_tui.engine.review import decisions

    release, answer = threading.Event(), decisions.answer

    def slow_answer(*args, **kwargs):
        release.wait(5)
        return answer(*args, **kwargs)

    monkeypatch.setattr(decisions, "answer", slow_answer)
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Redis", "redis")
        first = pilot.app.screen.question_id
        await pilot.press("m", "r")  # r typed while m is still being applied
        status = str(pilot.app.screen.query_one("#status").render())
        assert "not done: still applying the last decision" in status
        release.set()
        await settle(pilot)
    assert Question.get_by_id(first).status == "merged"
    assert Decision.select().count() == Decision.select().where(Decision.channel == "auto").count() + 1


@pilot_test
async def test_marked_questions_are_answered_even_when_a_cluster_is_highlighted(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Redis", "redis")
        await pilot.press("space")
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("space")
        await select_cluster(pilot, "Claude Code")
        await pilot.press("m")
        await settle(pilot)
    assert not Decision.select().where(Decision.action == "cluster").exists()
    [batch] = Decision.select().where(Decision.action == "batch")
    assert batch.channel == "tui" and Entity.select().where(Entity.name == "claude-code").exists()


@pilot_test
async def test_a_cluster_that_changes_elsewhere_is_shown_again_before_it_is_answered(demo_store):
    from graphrows import ask

    from memo_tui.engine.ingest import ingest_records
    from memo_tui.text.sources import PassageRecord

    async with demo_app().run_test(size=WIDE) as pilot:
        await select_cluster(pilot, "Claude Code")
        ingest_records("default", [PassageRecord("x1", "Claude-Codes everywhere.", "a",
                                                 entities=[{"name": "Claude-Codes"}])])  # fmt: skip
        ask("Claude-Codes", "ClaudeCode")  # another reviewer's pass, say: a fourth spelling joins
        await wait_for(pilot, lambda: len(card_names(pilot)) == 4, "the card to show the new member")


@pilot_test
async def test_the_focus_is_back_on_the_queue_after_every_kind_of_decision(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        focused = lambda: pilot.app.focused.id  # noqa: E731
        await select_cluster(pilot, "Claude Code")
        await pilot.press("tab")
        assert focused() == "card-members"
        await pilot.press("m")  # a cluster folded from its card
        await settle(pilot)
        assert focused() == "queue-table"
        await pilot.press("ctrl+z")  # an undo from the queue
        await settle(pilot)
        await select_cluster(pilot, "Claude Code")
        await pilot.press("tab", "j", "space", "d")  # d: fold the checked, the rest different
        await settle(pilot)
        assert focused() == "queue-table"
        await select_question(pilot, "Redis", "redis")
        await pilot.press("tab")  # the detail, to scroll it
        assert focused() == "detail"
        await pilot.press("r")  # a pair answered from the detail
        await settle(pilot)
        assert focused() == "queue-table"
        await select_question(pilot, "w132", "s133")
        await pilot.press("space", "space", "b")  # a batch
        await settle(pilot)
        assert focused() == "queue-table"
        await pilot.press("ctrl+z", "ctrl+y")  # an undo and a redo
        await settle(pilot)
        assert focused() == "queue-table"


@pilot_test
async def test_undoing_a_cluster_or_a_batch_puts_the_cursor_on_what_it_restored(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        screen = pilot.app.screen
        await select_cluster(pilot, "Claude Code")
        lead = screen.question_id
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("G")  # the reviewer moved on
        await settle(pilot)
        assert screen.question_id != lead
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert screen.question_id == lead  # the cluster is back, and under the cursor
        await select_question(pilot, "Redis", "redis")
        first = screen.question_id
        await pilot.press("space", "space", "r")
        await settle(pilot)
        await pilot.press("G")
        await settle(pilot)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert screen.question_id == first  # the first question of the batch


@pilot_test
async def test_the_history_at_80x24_is_readable_and_its_cursor_follows_the_newest_entry(demo_store):
    from memo_tui.engine.review import decisions

    async with demo_app().run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        table = pilot.app.screen.query_one("#history-table")
        widths = {str(column.label): column.width for column in table.columns.values()}
        assert widths["action"] >= len("keep_both") and widths["what"] >= 20
        assert table.size.height >= 8  # the header and several rows
        await pilot.press("G")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("g")
        assert table.cursor_row == 0
        await pilot.press("end")
        assert table.cursor_row == table.row_count - 1  # the oldest entry: what u would revert
        pane = pilot.app.screen.query_one("QueuePane")
        for question in [q for q in pane.questions if q.kind == "entity_pair"][:3]:
            decisions.answer("default", question.id, "reject", "bob", "cli")  # made elsewhere, seen live
        pilot.app.screen.on_store_changed(None)
        await settle(pilot)
        newest = decisions.history("default", limit=1)[0]
        assert table.cursor_row == 0 and table.selected_key() == str(newest.id)
        assert f"#{newest.id} reject by bob" in str(pilot.app.screen.query_one("#history-said").render())


@pilot_test
async def test_a_short_terminal_still_shows_history_rows(demo_store):
    async with demo_app().run_test(size=(60, 15)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        table = pilot.app.screen.query_one("#history-table")
        assert table.row_count >= 2 and table.size.height >= 3  # the header and two rows at least


@pilot_test
async def test_undoing_a_rename_shows_the_old_name_again_without_an_error(demo_store, monkeypatch):
    told = []
    monkeypatch.setattr(MemoApp, "notify", lambda self, message, **kw: told.append((message, kw.get("severity"))))
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "GitHub Actions", "github-actions")
        await pilot.press("e")
        await settle(pilot)
        pane = pilot.app.screen.query_one("NeighbourhoodPane")
        [(entity_id, name)] = pane.trail
        await pilot.press("n", *" CLI", "enter")  # typing adds to the name offered
        await wait_for(pilot, lambda: Entity.get_by_id(entity_id).name == f"{name} CLI", "the rename")
        await settle(pilot)
        assert pane.trail[-1] == (entity_id, f"{name} CLI")
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: Entity.get_by_id(entity_id).name == name, "the undo")
        await settle(pilot)
        assert pane.trail[-1] == (entity_id, name)
        assert name in str(pane.query_one("#trail").render())
    assert not [message for message, severity in told if severity == "error"]


@pilot_test
async def test_x_names_the_questions_it_would_reject(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Redis", "redis")
        like = decisions_like(pilot.app.screen.question_id)
        await pilot.press("X")
        await settle(pilot)
        prompt = str(pilot.app.screen.query_one("Static").render())
        assert len(like) > 2 and all(re.search(rf"#{qid}\b", prompt) for qid in like)
        assert "#10 Redis / redis" in prompt


def decisions_like(question_id: int) -> list[int]:
    from memo_tui.engine.review.decisions import questions_like

    return questions_like("default", question_id)


@pilot_test
async def test_help_and_palette_name_the_apps_own_keys(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        titles = [command.title for command in pilot.app.get_system_commands(pilot.app.screen)]
        assert {"Merge", "Reject", "Keep both", "Undo", "History"} <= set(titles)
        await pilot.press("question_mark")
        await settle(pilot)
        about = " ".join(str(s.render()) for s in pilot.app.screen.query("Static"))
        assert all(key in about for key in ("f filters", "a checks all", "c makes one the canonical", "ctrl+p"))


@pilot_test
async def test_the_neighbourhood_says_one_passage_and_what_the_star_means(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        pilot.app.show_entity("Billing service")  # one passage names it
        await settle(pilot)
        trail = str(pilot.app.screen.query_one("#trail").render())
        assert "— 1 passage ·" in trail
        pilot.app.show_entity("Dmitri Novak")
        await settle(pilot)
        assert "(* also stated)" in str(pilot.app.screen.query_one("#trail").render())


@pilot_test
async def test_x_drops_a_junk_name_and_ctrl_z_brings_it_back_under_the_cursor(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Priya Raman", "Priya R.")
        question = pilot.app.screen.question_id
        await pilot.press("x")
        await settle(pilot)
        prompt = str(pilot.app.screen.query_one("Static").render())
        assert "'Priya Raman'" in prompt and "'Priya R.'" in prompt
        await pilot.press("r", "enter")
        await wait_for(pilot, lambda: Entity.get_or_none(Entity.name == "Priya R.") is None, "the name to go")
        await settle(pilot)
        assert Question.get_by_id(question).status == "moot"
        assert Decision.select().where(Decision.action == "not_a_name").get().channel == "tui"
        assert pilot.app.focused.id == "queue-table"
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: Question.get_by_id(question).status == "pending", "the undo")
        await settle(pilot)
        assert pilot.app.screen.question_id == question
    assert Entity.get(Entity.name == "Priya R.")


@pilot_test
async def test_capital_u_leaves_a_question_for_later_with_a_note(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await select_question(pilot, "Redis", "redis")
        question = pilot.app.screen.question_id
        await pilot.press("U", *"cache or client?", "enter")
        await wait_for(pilot, lambda: Question.get_by_id(question).unsure == "cache or client?", "the note")
        await settle(pilot)
        pane = pilot.app.screen.query_one("QueuePane")
        assert pane.questions[-1].id == question and Question.get_by_id(question).status == "pending"
        table = pilot.app.screen.query_one("#queue-table")
        assert table.get_row(str(question))[0] == f"?{question}"
        table.move_cursor(row=table.get_row_index(str(question)))
        await settle(pilot)
        console = Console(record=True, width=120, file=io.StringIO())
        console.print(render_detail(pilot.app.screen.query_one("DetailPane").detail))
        assert "left for later, unsure: cache or client?" in console.export_text()


@pilot_test
async def test_a_pair_row_marks_the_side_m_keeps(demo_store):
    async with demo_app().run_test(size=WIDE) as pilot:
        await settle(pilot)
        table = pilot.app.screen.query_one("#queue-table")
        pane = pilot.app.screen.query_one("QueuePane")
        for q in [q for q in pane.questions if q.kind == "entity_pair"][:3]:
            left, right = table.get_row(str(q.id))[2:4]
            assert [left.startswith("★ "), right.startswith("★ ")].count(True) == 1, (left, right)
        await select_question(pilot, "GitHub Actions", "github-actions")
        left, right = table.get_row(str(pilot.app.screen.question_id))[2:4]
        kept = (left if left.startswith("★ ") else right).removeprefix("★ ")
        await pilot.press("m")
        await settle(pilot)
    fold = Fold.get(Fold.channel == "tui")
    assert Entity.get_by_id(fold.canonical_id).name == kept


def test_a_conflict_row_says_its_subject_and_what_differs():
    from memo_tui.engine.review.queue import QuestionView
    from memo_tui.tui.widgets.queue_pane import _sides

    def row(rule: str, reason: str) -> tuple[str, str]:
        q = QuestionView(
            1, "contradiction", 1, 2, "peewee:3df16a", "peewee:9ab2c", 1.0, rule, reason, 1, 0.9, 1.0, "pending"
        )
        return _sides(q)

    reverted = row("revert", 'peewee:9ab2c undoes "Add the pool" (peewee:3df16a): the change it made no longer holds')
    assert reverted == ("Add the pool", "reverted by peewee:9ab2c")
    negated = row("differs-negation", '"no longer use Redis": the newer passage negates the older one')
    assert negated == ('"no longer use Redis"', "now negated")

"""The review screen: the queue on top; detail, neighbourhood or history below (keys 1, 2, 3).

Every store call runs in a thread worker and comes back as a message; the screen routes messages
between panes, so no pane reaches into another.
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable, Footer, Header, Static
from textual.worker import Worker, WorkerState, get_current_worker

from memo_tui.service import reads, review
from memo_tui.service.views import (
    MEMORY_KINDS,
    PASSAGES_PER_SIDE,
    AlreadyDecided,
    Cancelled,
    ClusterDetail,
    Detail,
    MemoError,
    Signature,
)
from memo_tui.service.work import resolve
from memo_tui.tui.host import host
from memo_tui.tui.messages import (
    CanonicalChosen,
    Decided,
    DetailLoaded,
    FollowEntity,
    HistoryFilter,
    HistoryLoaded,
    NeighbourhoodLoaded,
    QuestionHighlighted,
    QueueLoaded,
    ResolveProgress,
    RevertRequested,
    StoreChanged,
)
from memo_tui.tui.screens.ask import AskScreen
from memo_tui.tui.widgets.cluster_card import ClusterCard
from memo_tui.tui.widgets.detail_pane import DetailPane
from memo_tui.tui.widgets.history_pane import HistoryPane
from memo_tui.tui.widgets.neighbourhood_pane import NeighbourhoodPane
from memo_tui.tui.widgets.queue_pane import QueuePane

PANES = {"1": "detail", "2": "neighbourhood", "3": "history"}
MORE_PASSAGES = 10  # what + adds to each side's passages in the detail
QUEUE_ROWS = 500  # items the queue table holds: it is refilled after every decision, so not all of them
LIVE_SECONDS = 3.0  # how often the screen looks for changes made elsewhere (another reviewer, an agent)


class ReviewScreen(Screen):
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]  # app.tcss: a short terminal still shows rows
    BINDINGS = [
        Binding("m", "answer('merge')", "Merge", id="merge"),
        Binding("M", "answer('merge', True)", "Merge other way", id="merge_other", show=False),
        Binding(
            "d", "fold_marking_rest", "Cluster: fold checked, rest different", id="fold_rest", show=False
        ),  # fmt: skip
        Binding("r", "answer('reject')", "Reject", id="reject"),
        Binding("b", "answer('keep_both')", "Keep both", id="keep_both"),
        Binding("s", "skip", "Skip", id="skip"),
        Binding("U", "unsure", "Unsure: leave it for later, with a note", id="unsure", show=False),
        Binding("x", "not_a_name", "Not a name at all: drop it", id="not_a_name", show=False),
        Binding("space", "mark", "Mark for a batch answer", id="mark", show=False),
        Binding("X", "reject_like", "Reject every question like this", id="reject_like", show=False),
        Binding("plus", "more_passages", "More passages", id="more_passages", show=False),
        Binding("n", "rename", "Rename the entity shown", id="rename", show=False),
        Binding("colon", "jump", "Go to question #", id="jump", show=False),
        Binding("ctrl+f", "filter", "Filter the queue (kind, rule, name)", id="filter_queue", show=False),
        Binding("F", "fold_into", "Fold the entity shown into another", id="fold_into", show=False),
        Binding("right_square_bracket", "queue_height(1)", "Taller queue", id="queue_taller", show=False),
        Binding("left_square_bracket", "queue_height(-1)", "Shorter queue", id="queue_shorter", show=False),
        Binding("e", "explore", "Explore", id="explore"),
        Binding("u", "revert", "Revert", id="revert", show=False),
        Binding("ctrl+z", "undo", "Undo", id="undo"),
        Binding("ctrl+y", "redo", "Redo", id="redo", show=False),
        Binding("1", "pane('1')", "Detail", id="pane_detail", show=False),
        Binding("2", "pane('2')", "Neighbourhood", id="pane_neighbourhood", show=False),
        Binding("3", "pane('3')", "History", id="pane_history", show=False),
        Binding("R", "resolve", "Resolve (again: cancel)", id="resolve", show=False),
        Binding("P", "proposals", "Agents' proposals only (again: all)", id="proposals", show=False),
    ]

    def __init__(self, namespace: str, actor: str, store_label: str) -> None:
        super().__init__()
        self.namespace = namespace
        self.actor = actor
        self.store_label = store_label
        self.question_id: int | None = None
        self.explored_side = 1  # the side `e` explores next: 0 left, 1 right (first press flips to left)
        self.busy = False
        self.resolving = False
        self.proposals_only = False  # the queue shows agents' proposals only
        self.last_done: str | None = None  # the last decision made here, said in the status line
        self.restored: list[int] = []  # questions an undo put back: the cursor goes to the first shown
        self.seen: Signature | None = None  # the store's signature the queue shows
        self.passages_shown = PASSAGES_PER_SIDE  # of each side, in the detail (+ shows more)
        self.queue_share = 40  # percent of the screen the queue takes ([ and ] change it)
        self.queue_filter = ""  # ctrl+f: only questions whose kind, rule or names contain this
        self.neighbourhood_stale = False  # a decision changed the store since the neighbourhood was shown

    def compose(self) -> ComposeResult:
        yield Header(icon="≡")
        with Vertical(id="main"):
            yield QueuePane(id="queue")
            with ContentSwitcher(initial="detail", id="panes"):
                yield DetailPane(id="detail")
                yield NeighbourhoodPane(id="neighbourhood")
                yield HistoryPane(id="history")
        yield Static("", id="status")
        yield Footer(show_command_palette=False)  # ctrl+p still opens it; the footer keeps room for ? and /

    def on_mount(self) -> None:
        self.title = "memo-tui"
        self.sub_title = f"{self.store_label} · {self.namespace} · reviewer {self.actor}"
        self.query_one("#queue-table").focus()
        self.load_queue()
        self.set_interval(LIVE_SECONDS, self.check_store)

    # -- workers -----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="queue", exit_on_error=False)
    def load_queue(self) -> None:
        # a family of spellings is one item (proposals stay pairs); the best-ranked QUEUE_ROWS, the
        # title says how many more are pending
        page = review.queue_page(self.namespace, QUEUE_ROWS, proposed=self.proposals_only, matching=self.queue_filter)
        self.post_message(QueueLoaded(page.items, page.pending, page.waiting, page.signature, page.kept))

    @work(thread=True, exclusive=True, group="live", exit_on_error=False)
    def check_store(self) -> None:
        """Every LIVE_SECONDS: has anyone changed the namespace since the queue was read?"""
        if self.seen is not None and review.signature(self.namespace) != self.seen:
            self.post_message(StoreChanged())

    def load_detail(self, question_id: int, passages: int = PASSAGES_PER_SIDE, canonical: int | None = None) -> None:
        """The detail of a queue item: a question's two sides, or a cluster's card."""
        shown = self._shown_question(question_id)
        self._read_detail(question_id, passages, canonical, shown is not None and bool(shown.members))

    @work(thread=True, exclusive=True, group="detail", exit_on_error=False)
    def _read_detail(self, question_id: int, passages: int, canonical: int | None, cluster: bool) -> None:
        detail: Detail | ClusterDetail
        if cluster:
            detail = review.cluster_detail(self.namespace, question_id, min(passages, 2), canonical)
        else:
            detail = review.question_detail(self.namespace, question_id, passages)
        self.post_message(DetailLoaded(detail))

    def _shown_question(self, question_id: int | None):
        """The queue's item with this number (a question or a cluster), if the queue shows it."""
        return next((q for q in self.query_one(QueuePane).questions or [] if q.id == question_id), None)

    def show_neighbourhood(self, target: str) -> None:
        """Load the neighbourhood of an entity (the first one on a big store builds the graph)."""
        self._status("loading the neighbourhood…")
        self.load_neighbourhood(target)

    @work(thread=True, exclusive=True, group="graph", exit_on_error=False)
    def load_neighbourhood(self, target: str, entity_id: int | None = None) -> None:
        """By name, or by the id of an entity shown before: where it lives now (a fold may have
        moved it, a rename or its undo renamed it)."""
        home = reads.home_of(entity_id) if entity_id is not None else None
        target = f"#{home}" if home is not None else target
        self.post_message(NeighbourhoodLoaded(reads.related(self.namespace, target, limit=50)))

    @work(thread=True, exclusive=True, group="history", exit_on_error=False)
    def load_history(self, who: str | None = None) -> None:
        self.post_message(HistoryLoaded(review.history(self.namespace, who=who, limit=200), who))

    @work(thread=True, group="decide", exit_on_error=False)
    def decide(self, call, *args) -> None:
        try:
            self.post_message(Decided(call(self.namespace, *args, self.actor, "tui")))
        finally:
            self.busy = False

    @work(thread=True, exclusive=True, group="resolve", exit_on_error=False)
    def run_resolve(self) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            self.post_message(ResolveProgress(done, total))

        try:
            report = resolve(
                self.namespace,
                progress=progress,
                cancelled=lambda: worker.is_cancelled,
            )
        except Cancelled as stopped:
            self.app.call_from_thread(self._resolve_stopped, str(stopped))
            return
        finally:
            self.resolving = False
        self.app.call_from_thread(self._resolved, report)

    # -- message handlers --------------------------------------------------------------------

    def on_store_changed(self, message: StoreChanged) -> None:
        if self.busy or self.resolving:  # our own change in flight: its reload follows
            return
        self.seen = None  # until the reload, do not report the same change again
        self.load_queue()
        if self.query_one(ContentSwitcher).current == "history":
            self.load_history(self.query_one(HistoryPane).who)

    def on_queue_loaded(self, message: QueueLoaded) -> None:
        self.seen = message.signature
        self.query_one(QueuePane).show(message.questions, message.pending, message.waiting, message.kept)
        if self.restored:  # after an undo, the cursor goes to the question (or cluster) it put back
            pane = self.query_one(QueuePane)
            item = next((q for q in message.questions if {q.id, *q.questions} & set(self.restored)), None)
            if item is not None:
                pane.move_to_question(item.id)
            self.restored = []
        if not message.questions:
            self.question_id = None
            if self.queue_filter or self.proposals_only:
                self.query_one(DetailPane).show(None, "Nothing matches what the queue is filtered to (ctrl+f, P).")
            else:
                self.query_one(DetailPane).show(None)
        self._queue_status()
        # the highlight event only fires when the row changes; load the detail of the row shown
        selected = self.query_one(QueuePane).selected_id()
        card = self.query_one(ClusterCard)
        shown = self._shown_question(selected)
        changed = (
            shown is not None
            and card.detail is not None
            and card.detail.cluster.id == selected
            and card.detail.cluster.questions != shown.questions
        )
        if shown is not None and shown.members and changed:
            self.question_id = None  # the cluster changed (a member came or went): show it afresh
        if selected is not None:
            self._select(selected)

    def on_question_highlighted(self, message: QuestionHighlighted) -> None:
        self._select(message.question_id)

    def _select(self, question_id: int) -> None:
        if question_id == self.question_id:
            return  # already shown or on its way (a rebuilt table reports its cursor row again)
        self.explored_side = 1
        self.question_id = question_id
        self.passages_shown = PASSAGES_PER_SIDE
        self.load_detail(question_id)

    def _shown_entity(self) -> tuple[int, str] | None:
        """The entity of the neighbourhood pane (opened with e or /): what n and F act on."""
        trail = self.query_one(NeighbourhoodPane).trail
        if self.query_one(ContentSwitcher).current != "neighbourhood" or not trail:
            self.notify("n and F act on the entity of the neighbourhood: open one with e or /.", severity="warning")
            return None
        return trail[-1]

    def action_rename(self) -> None:
        shown = self._shown_entity()
        if shown is None:
            return
        entity_id, name = shown

        def rename(new: str | None) -> None:
            if new and new != name:
                self._start(lambda ns, actor, channel: review.rename(ns, f"#{entity_id}", new, actor, channel))

        self.app.push_screen(AskScreen(f"New name for {name!r}:", name), rename)

    def action_not_a_name(self) -> None:
        """x: the name shown is no name at all (the neighbourhood's entity, the card's highlighted
        member, or one side of a pair, asked)."""
        if self.query_one(ContentSwitcher).current == "neighbourhood":
            shown = self._shown_entity()
            if shown is not None:
                self._drop_name(f"#{shown[0]}")
            return
        question = self._shown_question(self.question_id)
        if question is None or question.kind not in ("entity_pair", "name_cluster"):
            self.notify("x is for names: a pair of names, a cluster's member or the neighbourhood's entity.")
            return
        if question.kind == "name_cluster":
            member = self.query_one(ClusterCard).highlighted()
            if member is not None:
                self._drop_name(f"#{member}")
            return

        def side(answer: str | None) -> None:
            chosen = {"l": question.left_id, "r": question.right_id}.get((answer or "").casefold())
            if chosen is not None:
                self._drop_name(f"#{chosen}")

        prompt = (
            f"Which is not a name at all? l: {question.left_name!r}, r: {question.right_name!r}. Its mentions "
            "are dropped, its questions settled, and it is never extracted again here (ctrl+z undoes)."
        )
        self.app.push_screen(AskScreen(prompt), side)

    def _drop_name(self, target: str) -> None:
        self._start(lambda ns, actor, channel: review.not_a_name(ns, target, actor, channel))

    def action_unsure(self) -> None:
        """U: leave the question pending with a note, behind the others; it settles nothing."""
        if self.question_id is None:
            return
        question_id = self.question_id

        def leave(note: str | None) -> None:
            if note is not None:
                self._start(lambda ns, actor, channel: review.unsure(ns, question_id, note, actor, channel))

        prompt = f"Unsure of #{question_id}: a note for later (Enter leaves it pending, behind the others):"
        self.app.push_screen(AskScreen(prompt, empty=True), leave)

    def action_fold_into(self) -> None:
        shown = self._shown_entity()
        if shown is None:
            return
        entity_id, name = shown

        def fold(target: str | None) -> None:
            if target:
                self._start(lambda ns, actor, channel: review.manual_fold(ns, f"#{entity_id}", target, actor, channel))

        self.app.push_screen(AskScreen(f"Fold {name!r} into which entity? (a name, an alias or #id)"), fold)

    def action_jump(self) -> None:
        def jump(answer: str | None) -> None:
            number = (answer or "").lstrip("#")
            if not number.isdigit():
                return
            pane = self.query_one(QueuePane)
            item = next((q for q in pane.questions or [] if int(number) in (q.id, *q.questions)), None)
            if item is None:
                self.notify(f"question {number} is not in the queue shown", severity="warning")
                return
            if item.id != int(number):
                self._status(f"question {number} is part of cluster #{item.id}")
            pane.move_to_question(item.id)

        self.app.push_screen(AskScreen("Go to question number:"), jump)

    def action_filter(self) -> None:
        def apply(answer: str | None) -> None:
            self.queue_filter = answer or ""
            self.query_one(QueuePane).queue_filter = self.queue_filter
            self.load_queue()

        prompt = "Show only questions whose kind, rule or names contain (empty: all):"
        self.app.push_screen(AskScreen(prompt, self.queue_filter), apply)

    def action_queue_height(self, step: int) -> None:
        """] and [: the queue takes a tenth more or less of the screen (between 20% and 80%)."""
        self.queue_share = min(80, max(20, self.queue_share + 10 * step))
        self.query_one(QueuePane).styles.height = f"{self.queue_share}%"

    def action_more_passages(self) -> None:
        """+: ten more of each side's latest passages in the detail."""
        if self.question_id is None:
            return
        self.passages_shown += MORE_PASSAGES
        self.load_detail(self.question_id, self.passages_shown)

    def on_detail_loaded(self, message: DetailLoaded) -> None:
        detail = message.detail
        shown = detail.cluster if isinstance(detail, ClusterDetail) else detail.question
        if shown.id == self.question_id:
            self.query_one(DetailPane).show(detail)

    def on_canonical_chosen(self, message: CanonicalChosen) -> None:
        if message.lead == self.question_id:
            self.load_detail(message.lead, canonical=message.canonical)

    def on_decided(self, message: Decided) -> None:
        # said in the status line, not a toast: toasts stacked over the next question's detail
        decision = message.decision
        self.last_done = f"{decision.action}: {decision.summary}"
        if decision.action == "revert":
            self.restored = decision.payload.get("questions") or []
        self.question_id = None  # whatever is selected next, show it fresh: the decision changed the store
        self.load_queue()
        current = self.query_one(ContentSwitcher).current
        if current == "detail":  # never left in a card or the detail: the next key must act on the queue
            self.query_one("#queue-table").focus()
        if current == "history":
            self.load_history(self.query_one(HistoryPane).who)
        self.neighbourhood_stale = bool(self.query_one(NeighbourhoodPane).trail)
        if current == "neighbourhood":
            self._reload_neighbourhood()

    def _reload_neighbourhood(self) -> None:
        """Show the entity at the end of the trail again, as the store now has it."""
        pane = self.query_one(NeighbourhoodPane)
        self.neighbourhood_stale = False
        if pane.trail:
            entity_id, name = pane.trail.pop()
            self._status("loading the neighbourhood…")
            self.load_neighbourhood(name, entity_id)

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on the queue: the queue table takes Enter for itself, so a key setting that gives Enter
        to one of this screen's actions (`merge = "m,enter"`) is honoured here."""
        if event.data_table.id != "queue-table":
            return
        event.stop()
        keymap = host(self.app).keymap
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding):  # this screen's are all `Binding`s; the tuple forms have no id
                continue
            keys = keymap.get(binding.id or "", "")
            if "enter" in (key.strip() for key in keys.split(",")):
                await self.run_action(binding.action)
                return

    def on_neighbourhood_loaded(self, message: NeighbourhoodLoaded) -> None:
        self._queue_status()
        self.query_one(NeighbourhoodPane).show(message.related)
        self._show_pane("neighbourhood")

    def on_history_loaded(self, message: HistoryLoaded) -> None:
        self.query_one(HistoryPane).show(message.decisions, message.who)

    def on_follow_entity(self, message: FollowEntity) -> None:
        self.show_neighbourhood(message.target)

    def on_history_filter(self, message: HistoryFilter) -> None:
        self.load_history(message.who)

    def on_revert_requested(self, message: RevertRequested) -> None:
        self._start(review.revert, message.decision_id)

    def on_resolve_progress(self, message: ResolveProgress) -> None:
        if message.done >= message.total:
            self._status("resolving… name pairs done; looking for duplicate and contradicting passages")
        else:
            self._status(
                f"resolving… {message.done / message.total:.0%} of {message.total} name pairs judged (R to cancel)"
            )

    @on(Worker.StateChanged)
    def _worker_failed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        self._queue_status()
        if isinstance(error, AlreadyDecided):
            self.notify(str(error), title="Already decided", severity="warning")
            self.load_queue()
        elif isinstance(error, MemoError):
            self.notify(str(error), title="Not done", severity="error")
        else:
            self.notify(f"{type(error).__name__}: {error}", title="Error", severity="error")

    # -- actions -----------------------------------------------------------------------------

    def _start(self, call, *args) -> None:
        if self.busy:  # a key typed ahead: refused where the reviewer looks, never applied to a row not yet seen
            self.app.bell()
            self._status("not done: still applying the last decision; press the key again once the queue is back")
            return
        self.busy = True
        self.decide(call, *args)

    def action_answer(self, action: str, swap: bool = False) -> None:
        if self.question_id is None:
            self.notify("Nothing selected.", severity="warning")
            return
        if self.query_one(ContentSwitcher).current != "detail":
            # never answer a question the reviewer cannot see: show it, and let the next key answer it
            self._show_pane("detail")
            self.notify("The question is shown again; press the key once more to answer it.")
            return
        marked = sorted(self.query_one(QueuePane).marked)
        if marked:  # the marked questions, as one decision (one ctrl+z undoes it)
            self._start(lambda ns, actor, channel: review.answer_batch(ns, marked, action, actor, channel, pairs=True))
            return
        shown = self._shown_question(self.question_id)
        if shown is not None and shown.members:
            self._answer_cluster(action, swap=swap)
            return
        self._start(
            lambda ns, qid, actor, channel: review.answer(ns, qid, action, actor, channel, pair=True, swap=swap),
            self.question_id,
        )

    def _answer_cluster(self, action: str, swap: bool = False, mark_rest: bool = False) -> None:
        """A cluster card's answer, with the members checked and the canonical chosen on the card."""
        card = self.query_one(ClusterCard)
        if card.detail is None or card.detail.cluster.id != self.question_id:
            self.notify("The card is still loading.", severity="warning")
            return
        if swap:
            self.notify("A cluster has no other way: make another member the canonical with c.", severity="warning")
            return
        cluster = card.detail.cluster
        lead, canonical = cluster.id, card.canonical
        members = sorted(card.checked) if cluster.kind == "name_cluster" else None
        seen = [m.id for m in cluster.members]  # a cluster changed meanwhile is refused, not guessed at
        self._start(
            lambda ns, actor, channel: review.answer_card(
                ns, lead, action, actor, channel, seen=seen, canonical=canonical, members=members, mark_rest=mark_rest
            )
        )

    def action_fold_marking_rest(self) -> None:
        """d on a cluster: fold the checked members, and mark the unchecked ones different."""
        shown = self._shown_question(self.question_id)
        if shown is None or shown.kind != "name_cluster":
            self.notify("d is for a cluster of spellings: it folds the checked, marks the rest different.")
            return
        if self.query_one(ContentSwitcher).current != "detail":
            self._show_pane("detail")
            self.notify("The cluster is shown again; press d once more to answer it.")
            return
        self._answer_cluster("merge", mark_rest=True)

    def action_mark(self) -> None:
        shown = self._shown_question(self.question_id)
        if shown is not None and shown.members:
            self._status("a cluster is answered as a whole: tab to its card to check members")
            return
        self.query_one(QueuePane).toggle_mark()
        marked = len(self.query_one(QueuePane).marked)
        self._status(f"{marked} marked: m, r or b answers them together (space unmarks)" if marked else "none marked")

    def action_reject_like(self) -> None:
        """X: reject every pending question of this one's pattern, after saying how many."""
        if self.question_id is None:
            return
        question_id = self.question_id
        if self._shown_question(question_id).members:
            self.notify("X is for a single question; a cluster's r rejects all of its questions.", severity="warning")
            return

        def confirmed(answer: str | None) -> None:
            if (answer or "").casefold() in ("y", "yes"):
                self._start(
                    lambda ns, actor, channel: review.answer_batch(ns, like, "reject", actor, channel, pairs=True)
                )

        try:
            like = review.questions_like(self.namespace, question_id)
        except MemoError as exc:
            self.notify(str(exc), severity="warning")
            return
        question = self._shown_question(question_id)
        prompt = (
            f"Reject all {len(like)} pending questions like #{question_id} (rule {question.rule}) as one "
            f"decision? {self._named(like)}. Type yes to do it."
        )
        self.app.push_screen(AskScreen(prompt), confirmed)

    def _named(self, question_ids: list[int], most: int = 8) -> str:
        """`#10 Redis / redis, #11 …`: which questions, as the queue names them."""
        shown = {q.id: q for q in self.query_one(QueuePane).questions or []}
        named = [f"#{qid} {shown[qid].left_name} / {shown[qid].right_name}" if qid in shown else f"#{qid}"
                 for qid in question_ids[:most]]  # fmt: skip
        more = len(question_ids) - most
        return ", ".join(named) + (f" and {more} more" if more > 0 else "")

    def action_skip(self) -> None:
        table = self.query_one("#queue-table", DataTable)
        if table.row_count and table.cursor_row >= table.row_count - 1:
            table.move_cursor(row=0)
            self._status("that was the last question; back to the first")
            return
        table.action_cursor_down()

    def action_undo(self) -> None:
        self._start(review.undo)

    def action_redo(self) -> None:
        self._start(review.redo)

    def action_revert(self) -> None:
        if self.query_one(ContentSwitcher).current != "history":
            self.notify("u reverts the highlighted decision in the history (press 3); ctrl+z undoes your last one.")
            return
        self.query_one(HistoryPane).action_revert()

    def action_explore(self) -> None:
        if self.question_id is None:
            self.notify("Nothing selected.", severity="warning")
            return
        question = self._shown_question(self.question_id)
        if question is None:
            return
        if question.kind == "name_cluster":  # the member highlighted on the card
            key = self.query_one(ClusterCard).highlighted()
            if key is None:
                return
            target = key
        elif question.kind == "entity_pair":
            self.explored_side = 1 - self.explored_side
            target = (question.left_id, question.right_id)[self.explored_side]
        else:  # two passages: explore what they are about, the most named entity both name
            about = self.query_one(DetailPane).about
            if not about:
                self.notify("These two passages name no entity in common.", severity="warning")
                return
            target = about[0][0]
        self.query_one(NeighbourhoodPane).reset()
        self.show_neighbourhood(f"#{target}")

    def action_pane(self, number: str) -> None:
        name = PANES[number]
        self._show_pane(name)
        if name == "history":
            self.load_history(self.query_one(HistoryPane).who)
        elif name == "neighbourhood" and self.neighbourhood_stale:
            self._reload_neighbourhood()

    def _show_pane(self, name: str) -> None:
        self.query_one(ContentSwitcher).current = name
        if name == "detail":
            self.query_one("#queue-table").focus()
        else:
            self.query_one(f"#{name} RowTable").focus()

    def action_resolve(self) -> None:
        """Start a resolution pass; while one runs, the same key cancels it. Answers go on meanwhile:
        the pass folds in short transactions."""
        if self.resolving:
            self.workers.cancel_group(self, "resolve")
            self._status("cancelling the resolution pass…")
            return
        self.resolving = True
        self._status("resolving… (R again to cancel)")
        self.run_resolve()

    def action_proposals(self) -> None:
        self.proposals_only = not self.proposals_only
        self.query_one(QueuePane).proposals_only = self.proposals_only
        self.load_queue()

    def _resolve_stopped(self, why: str) -> None:
        self.notify(why, title="Resolution pass cancelled", severity="warning")
        self.load_queue()

    def _resolved(self, report) -> None:
        self.question_id = None
        memory = report.duplicates_queued + report.contradictions_queued
        summary = (
            f"{report.folded} folded, {report.queued} queued, {report.deferred} deferred, "
            f"{memory} memory conflicts queued"
        )
        self.notify(summary, title="Resolution pass")
        self.load_queue()

    def _queue_status(self) -> None:
        questions = self.query_one(QueuePane).questions or []
        memory = sum(q.kind in MEMORY_KINDS for q in questions)
        said = f"{len(questions)} shown, {memory} of them memory conflicts"
        self._status(said + (f" · {self.last_done} (ctrl+z undoes)" if self.last_done else ""))

    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def focused_help(self) -> str:
        """What the focused pane is for (the help screen shows it above the keys); the queue's help
        includes the detail's, whose question the answer keys act on."""
        node: DOMNode | None = self.focused
        while node is not None:
            if isinstance(node, (NeighbourhoodPane, HistoryPane, ClusterCard)):
                return node.HELP
            node = node.parent
        return f"{QueuePane.HELP} {DetailPane.HELP}"

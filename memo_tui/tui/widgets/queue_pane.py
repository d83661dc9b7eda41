"""The ranked review queue: one row per pending question."""

from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from memo_tui.service.views import KIND_LABELS, MEMORY_KINDS, QuestionView
from memo_tui.tui.messages import QuestionHighlighted
from memo_tui.tui.widgets.tables import RowTable, plural

COLUMNS = ("#", "kind", "left", "right", "rule", "likely", "impact")


def _short(text: str, width: int = 26) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


KEPT = "★ "  # marks the side of a name pair that `m` keeps
_REVERT = re.compile(r'^(\S+) undoes "(.+)" \(\S+\): ')  # conflicts.revert_conflicts' reason
_NEGATION = {
    "the newer passage negates the older one": "now negated",
    "the newer passage drops the older one's negation": "negation dropped",
}


def _sides(q: QuestionView, kept: int | None = None) -> tuple[str, str]:
    """What the row names: two names, the one `m` keeps marked; for a contradiction its subject and
    what differs (`Acme Gateway timeout` / `30 → 60 seconds`, `Add the pool` / `reverted by abc1`); for
    a duplicate the two passages."""
    if q.kind == "contradiction":
        reverted = _REVERT.match(q.reason)
        if reverted:
            return reverted.group(2), f"reverted by {reverted.group(1)}"
        if ": " in q.reason:
            subject, change = q.reason.split(": ", 1)
            return subject, _NEGATION.get(change, change)
    if kept is not None:
        return (KEPT + q.left_name, q.right_name) if kept == q.left_id else (q.left_name, KEPT + q.right_name)
    return q.left_name, q.right_name


class QueuePane(Vertical):
    HELP = (
        "The review queue, ranked by expected yield: how likely the answer is 'same' (or the conflict real), "
        "times how much of the graph the answer touches. The likely column is that chance, calibrated on "
        "hand-labelled real text and moved by this store's own answers. j/k move, g/G go to the first and "
        "last; the detail below shows the highlighted question. On a cluster, tab moves to its card: space "
        "checks a member, a checks all or none, c makes one the canonical. 3 shows the history (u reverts, f "
        "filters all / human / auto); ctrl+p opens the command palette, with every key's action by name."
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.questions: list[QuestionView] | None = None  # None until the first load arrives
        self.proposals_only = False  # the screen shows agents' proposals only (P)
        self._shown_widths: tuple[int, int] | None = None
        self.queue_filter = ""  # the screen's ctrl+f filter, named in the title
        self.marked: set[int] = set()  # questions marked with space, answered together
        self.kept: dict[int, int] = {}  # name pair -> the entity id `m` keeps

    def compose(self) -> ComposeResult:
        yield Static("Queue", id="queue-title", classes="pane-title")
        yield RowTable(id="queue-table")

    def on_mount(self) -> None:
        self.query_one(RowTable).fill(COLUMNS, [])

    def show(self, questions: list[QuestionView], pending: int | None = None, waiting: int = 0, kept=None) -> None:
        old, old_kept = self.questions or [], self.kept
        self.questions, self.kept = questions, kept or {}
        self.marked &= {q.id for q in questions}  # answered or gone: no longer marked
        table = self.query_one(RowTable)
        was_key, was_row = table.selected_key(), table.cursor_row
        kept = {q.id for q in questions}
        same_sides = all(old_kept.get(q.id) == self.kept.get(q.id) for q in questions)
        if old and [q for q in old if q.id in kept] == questions and same_sides:
            # only answers since the last load: drop their rows instead of redrawing the table
            for q in old:
                if q.id not in kept:
                    table.remove_row(str(q.id))
        else:
            self._fill(table, questions)
        self.query_one("#queue-title", Static).update(self._title(questions, pending, waiting))
        table.move_to_key(was_key, was_row)

    def _title(self, questions: list[QuestionView], pending: int | None, waiting: int) -> str:
        """The true counts: what is shown, what is pending, what a later pass will add."""
        covered = sum(len(q.questions) or 1 for q in questions)  # a cluster stands for several questions
        shown, pending = len(questions), covered if pending is None else pending
        memory = sum(q.kind in MEMORY_KINDS for q in questions)
        grouped = sum(bool(q.members) for q in questions)
        if self.proposals_only:
            parts = [f"{plural(shown, 'agent proposal')} shown (P: show all)", f"{pending} pending"]
        elif covered != pending:
            parts = [f"{shown} shown" + (f" ({grouped} with clusters)" if grouped else ""), f"{pending} pending"]
        else:
            as_items = f" as {plural(shown, 'item')} ({plural(grouped, 'cluster')})" if grouped else ""
            parts = [f"{pending} pending{as_items}" + (f" ({plural(memory, 'memory conflict')})" if memory else "")]
        if waiting:
            parts.append(f"{waiting} waiting for a later pass")
        if self.queue_filter:
            parts.append(f"filter {self.queue_filter!r} (ctrl+f)")
        return "Queue — " + " · ".join(parts)

    def move_to_question(self, question_id: int) -> None:
        self.query_one(RowTable).move_to_key(str(question_id), self.query_one(RowTable).cursor_row)

    def _widths(self) -> tuple[int, int]:
        """(name, rule) column widths that keep likelihood and impact on screen: at 80 columns the
        names and rules are cut shorter than at 120."""
        width = self.size.width or self.app.size.width
        rule = 22 if width >= 110 else 14
        return max(10, min(26, (width - 38 - rule) // 2)), rule

    def on_resize(self) -> None:
        if self.questions and self._widths() != self._shown_widths:
            self._fill(self.query_one(RowTable), self.questions)

    def _fill(self, table: RowTable, questions: list[QuestionView]) -> None:
        names, rules = self._shown_widths = self._widths()
        rows = []
        for q in questions:
            left, right = _sides(q, self.kept.get(q.id))
            cells = (
                self._number(q),
                KIND_LABELS.get(q.kind, q.kind),
                _short(left, names),
                _short(right, names),
                _short(f"{q.rule} · {q.proposed_by}" if q.proposed_by else q.rule, rules),
                f"{q.likelihood:.2f}",
                str(q.impact),
            )
            rows.append((str(q.id), cells))
        table.fill(COLUMNS, rows)

    def _number(self, q: QuestionView) -> str:
        """`✓12` marked for a batch answer, `?12` left for later, unsure."""
        if q.id in self.marked:
            return f"✓{q.id}"
        return f"?{q.id}" if q.unsure is not None else str(q.id)

    def toggle_mark(self) -> None:
        """Space: mark the highlighted question for a batch answer, or unmark it."""
        table = self.query_one(RowTable)
        question_id = self.selected_id()
        if question_id is None:
            return
        self.marked ^= {question_id}
        number = self._number(next(q for q in self.questions or [] if q.id == question_id))
        if table.fits("#", number):
            table.update_cell(str(question_id), "#", number)
        else:  # the mark needs a wider column: sized again, the number stays whole
            row = table.cursor_row
            self._fill(table, self.questions or [])
            table.move_cursor(row=row, animate=False)
        table.action_cursor_down()

    def selected_id(self) -> int | None:
        key = self.query_one(RowTable).selected_key()
        return int(key) if key is not None else None

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.post_message(QuestionHighlighted(int(event.row_key.value)))

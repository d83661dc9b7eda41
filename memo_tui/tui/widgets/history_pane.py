"""Folds and decisions, newest first: `u` reverts the highlighted one, `f` filters auto / human."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from memo_tui.service.views import DecisionView
from memo_tui.tui.messages import HistoryFilter, RevertRequested
from memo_tui.tui.widgets.tables import RowTable

FILTERS = (None, "human", "auto")
# fixed widths but for "what", which takes the rest: the log can be long, and its layout should
# not shift as entries come and go. Below WIDE columns, `via` goes (the line below says it) and
# the dates lose their year, so that "what" stays readable at 80 columns.
WIDE = 110
COLUMNS = {
    "wide": (("#", 5), ("when (UTC)", 16), ("by", 12), ("via", 5), ("action", 9), ("state", 15), ("what", None)),
    "narrow": (("#", 4), ("when (UTC)", 11), ("by", 8), ("action", 9), ("state", 8), ("what", None)),
}
WHAT_MIN = 20


class HistoryPane(Vertical):
    HELP = (
        "The audit log, newest first: every fold, answer, revert and delete, with who made it and how "
        "(auto folds are marked auto). The cursor goes to the newest entry whenever one is added; g / G "
        "go to the first and last. u reverts the highlighted decision exactly; f cycles the filter "
        "all / human / auto."
    )
    BINDINGS = [
        Binding("u", "revert", "Revert", id="revert"),
        Binding("f", "filter", "Filter", id="filter"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.who: str | None = None
        self.shown: dict[str, DecisionView] = {}
        self.decisions: list[DecisionView] = []
        self._layout: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("History", id="history-title", classes="pane-title")
        yield RowTable(id="history-table")
        yield Static("", id="history-said")  # the highlighted decision in full: a narrow table cuts its text

    def show(self, decisions: list[DecisionView], who: str | None) -> None:
        """The log as read; the cursor stays on its row unless the log has a newer entry than the one
        shown, which it then lands on (u must never revert an old row the reviewer no longer looks at)."""
        newer = not self.decisions or not decisions or decisions[0].id != self.decisions[0].id or who != self.who
        self.who, self.decisions = who, decisions
        label = {None: "all", "human": "human only", "auto": "auto only"}[who]
        self.query_one("#history-title", Static).update(f"History — {len(decisions)} shown, {label}")
        table = self.query_one(RowTable)
        was_key, was_row = table.selected_key(), table.cursor_row
        self._fill()
        table.move_to_key(None if newer else was_key, 0 if newer else was_row)
        self._say(table.selected_key())

    def _fill(self) -> None:
        width = self.size.width or self.app.size.width
        self._layout = "wide" if width >= WIDE else "narrow"
        columns = COLUMNS[self._layout]
        table = self.query_one(RowTable)
        padding = 2 * table.cell_padding * len(columns) + 2  # and room for the scrollbar
        what = max(WHAT_MIN, width - padding - sum(w for _, w in columns if w))
        rows = [(str(d.id), self._cells(d)) for d in self.decisions]
        table.fill([label for label, _ in columns], rows, [w or what for _, w in columns])
        self.shown = {str(d.id): d for d in self.decisions}

    def _cells(self, d: DecisionView) -> tuple[str, ...]:
        by = "auto" if d.channel == "auto" else d.actor
        if self._layout == "wide":
            state = f"reverted {d.undone_at:%m-%d %H:%M}" if d.undone_at else "standing"
            return str(d.id), f"{d.at:%Y-%m-%d %H:%M}", by, d.channel, d.action, state, d.summary
        return str(d.id), f"{d.at:%m-%d %H:%M}", by, d.action, "reverted" if d.undone_at else "", d.summary

    def on_resize(self) -> None:
        layout = "wide" if self.size.width >= WIDE else "narrow"
        if self.decisions and layout != self._layout:
            table = self.query_one(RowTable)
            key = table.selected_key()
            self._fill()
            table.move_to_key(key)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._say(event.row_key.value)

    def _say(self, key: str | None) -> None:
        d = self.shown.get(key or "")
        said = self.query_one("#history-said", Static)
        if d is None:
            said.update("")
            return
        state = f"reverted at {d.undone_at:%Y-%m-%d %H:%M}" if d.undone_at else "standing (u reverts it)"
        parts = len(d.payload.get("decisions") or [])
        made = f" · {parts} decisions, each revertible alone" if parts else ""
        said.update(f"#{d.id} {d.action} by {d.actor} via {d.channel} at {d.at:%Y-%m-%d %H:%M} · {state}{made}\n"
                    f"{d.summary}")  # fmt: skip

    def action_revert(self) -> None:
        key = self.query_one(RowTable).selected_key()
        if key is not None:
            self.post_message(RevertRequested(int(key)))

    def action_filter(self) -> None:
        self.post_message(HistoryFilter(FILTERS[(FILTERS.index(self.who) + 1) % len(FILTERS)]))

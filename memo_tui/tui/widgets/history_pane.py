"""Folds and decisions, newest first: `u` reverts the highlighted one, `f` filters auto / human."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from memo_tui.core.decisions import DecisionView
from memo_tui.tui.messages import HistoryFilter, RevertRequested
from memo_tui.tui.widgets.tables import RowTable

FILTERS = (None, "human", "auto")
COLUMNS = (("#", 5), ("when (UTC)", 16), ("by", 12), ("via", 5), ("action", 9), ("state", 15), ("what", 70))


class HistoryPane(Vertical):
    HELP = (
        "The audit log, newest first: every fold, answer, revert and delete, with who made it and how "
        "(auto folds are marked auto). u reverts the highlighted decision exactly; f cycles the filter "
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

    def compose(self) -> ComposeResult:
        yield Static("History", id="history-title", classes="pane-title")
        yield RowTable(id="history-table")
        yield Static("", id="history-said")  # the highlighted decision in full: a narrow table cuts its text

    def on_mount(self) -> None:
        table = self.query_one(RowTable)
        # fixed widths: the log can be long, and its layout should not shift as entries come and go
        for label, width in COLUMNS:
            table.add_column(label, width=width)

    def show(self, decisions: list[DecisionView], who: str | None) -> None:
        self.who = who
        label = {None: "all", "human": "human only", "auto": "auto only"}[who]
        self.query_one("#history-title", Static).update(f"History — {len(decisions)} shown, {label}")
        table = self.query_one(RowTable)
        was_key, was_row = table.selected_key(), table.cursor_row
        table.clear()
        self.shown = {str(d.id): d for d in decisions}
        for d in decisions:
            state = f"reverted {d.undone_at:%m-%d %H:%M}" if d.undone_at else "standing"
            by = "auto" if d.channel == "auto" else d.actor
            table.add_row(str(d.id), f"{d.at:%Y-%m-%d %H:%M}", by, d.channel, d.action, state, d.summary, key=str(d.id))
        table.move_to_key(was_key, was_row)
        self._say(table.selected_key())

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
        self.who = FILTERS[(FILTERS.index(self.who) + 1) % len(FILTERS)]
        self.post_message(HistoryFilter(self.who))

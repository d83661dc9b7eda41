"""Stated relations and co-mentions of one entity; Enter follows a neighbour, Backspace goes back."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from memo_tui.service.views import Related
from memo_tui.tui.messages import FollowEntity
from memo_tui.tui.widgets.tables import RowTable, plural

COLUMNS = ("group", "link", "entity", "shared", "passages", "evidence")


class NeighbourhoodPane(Vertical):
    HELP = (
        "The graph around one name: stated relations (typed, with direction and evidence) and co-mentions "
        "(entities named in the same live passages, with how many; co-mention* marks one that is also stated). "
        "Enter follows a neighbour one hop, "
        "Backspace goes back along the trail."
    )
    BINDINGS = [Binding("backspace", "back", "Back", id="back")]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.trail: list[tuple[int, str]] = []

    def compose(self) -> ComposeResult:
        yield Static("Neighbourhood — press e on a question or / to find a name", id="trail", classes="pane-title")
        yield RowTable(id="neighbour-table")

    def on_mount(self) -> None:
        self.query_one(RowTable).fill(COLUMNS, [])

    def show(self, related: Related) -> None:
        target = related.target
        if not self.trail or self.trail[-1][0] != target.id:
            self.trail.append((target.id, target.name))
        trail = " › ".join(name for _, name in self.trail[-4:])
        asked = f" (asked as {related.matched_alias})" if related.matched_alias else ""
        starred = " (* also stated)" if any(c.stated for c in related.co_mentions) else ""
        self.query_one("#trail", Static).update(
            f"{trail}{asked} — {plural(target.mentions, 'passage')} · {related.stated_total} stated · "
            f"{related.co_mentions_total} co-mentioned{starred}"
        )
        rows = []
        for index, s in enumerate(related.stated):
            arrow = f"{s.predicate} →" if s.direction == "out" else f"← {s.predicate}"
            key = f"s{index}-{s.entity.id}"  # one entity can be stated more than once
            rows.append((key, ("stated", arrow, s.entity.name, "", str(s.entity.mentions), s.passage)))
        for c in related.co_mentions:
            mark = "co-mention*" if c.stated else "co-mention"
            rows.append((f"c-{c.entity.id}", (mark, "", c.entity.name, str(c.shared), str(c.entity.mentions), "")))
        table = self.query_one(RowTable)
        table.fill(COLUMNS, rows)
        table.move_cursor(row=0)

    def reset(self) -> None:
        self.trail.clear()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value or ""
        self.post_message(FollowEntity(f"#{key.rsplit('-', 1)[1]}"))

    def action_back(self) -> None:
        if len(self.trail) > 1:
            self.trail.pop()
            entity_id, _ = self.trail[-1]
            self.post_message(FollowEntity(f"#{entity_id}"))
        else:
            self.notify("This is where the trail starts.", severity="warning")

"""A row-cursor DataTable that also moves with j and k, and sizes its columns itself."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.markup import escape
from textual.binding import Binding
from textual.widgets import DataTable


def plural(count: int, word: str) -> str:
    """`1 passage`, `2 passages`."""
    return f"{count} {word}{'' if count == 1 else 's'}"


class RowTable(DataTable):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="down"),
        Binding("k", "cursor_up", "Up", show=False, id="up"),
        Binding("g,home", "scroll_top", "First row", show=False, id="first"),
        Binding("G,end", "scroll_bottom", "Last row", show=False, id="last"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def fill(
        self,
        columns: Sequence[str],
        rows: Sequence[tuple[str, Sequence[str]]],
        widths: Sequence[int | None] | None = None,
    ) -> None:
        """Every row at once (key, cells), each column as wide as `widths` says or else as its
        widest cell (a wider cell is cut). Textual 8.2.8
        measures auto-width columns when idle but keeps the lines it rendered with the old widths
        until the table is resized (header-wide columns in a real terminal); columns whose width is
        given when they are added never change, so no line is stale."""
        self.clear(columns=True)
        for index, label in enumerate(columns):
            width = widths[index] if widths and widths[index] is not None else None
            if width is None:
                width = max([cell_len(label), *(cell_len(cells[index]) for _, cells in rows)])
            self.add_column(label, width=width, key=label)
        for key, cells in rows:
            self.add_row(*map(escape, cells), key=key)  # a name such as `[WIP] x` is text, not markup

    def fits(self, column: str, text: str) -> bool:
        """Whether this text fits the column as it was sized."""
        return cell_len(text) <= self.columns[column].width  # type: ignore[index]

    def selected_key(self) -> str | None:
        if not self.row_count:
            return None
        return self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value

    def move_to_key(self, key: str | None, fallback_row: int = 0) -> None:
        """Put the cursor on the row with this key, or near where it was when that row is gone."""
        if not self.row_count:
            return
        try:
            row = self.get_row_index(key) if key is not None else fallback_row
        except Exception:  # the row is gone (answered): stay at the same height
            row = fallback_row
        self.move_cursor(row=min(max(row, 0), self.row_count - 1))

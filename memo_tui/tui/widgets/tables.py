"""A row-cursor DataTable that also moves with j and k."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import DataTable


class RowTable(DataTable):
    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="down"),
        Binding("k", "cursor_up", "Up", show=False, id="up"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)

    def _update_dimensions(self, new_rows) -> None:
        # Textual 8.2.8 (pinned) measures new rows' column widths when idle but keeps the lines it
        # rendered before with the old widths unless the table's size changes; in a real terminal
        # the queue then showed header-wide columns until each row was redrawn. Drop those lines.
        super()._update_dimensions(new_rows)
        self._clear_caches()
        self.refresh()

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

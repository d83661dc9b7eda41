"""`?`: what the focused pane is for, and every key that works here."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class HelpScreen(ModalScreen):
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="close_help"),
        Binding("question_mark", "dismiss", "Close", show=False),
        Binding("q", "dismiss", "Close", show=False),
        Binding("j,down", "scroll(1)", "Scroll down", show=False),
        Binding("k,up", "scroll(-1)", "Scroll up", show=False),
    ]

    def __init__(self, about: str, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.about = about
        self.keys = keys

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-box", VerticalScroll).scroll_relative(y=lines, animate=False)

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        for key, description in self.keys:
            table.add_row(key, description)
        with VerticalScroll(id="help-box"):
            yield Static(Text("Help", style="bold"))
            yield Static(Text(self.about))
            yield Static(table)
            yield Static(
                Text(
                    "j / k scroll, escape closes this help. Key overrides: [keys] in config.toml (see README).",
                    style="dim",
                )  # fmt: skip
            )

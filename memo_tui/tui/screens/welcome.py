"""Shown when the store has no passages yet: how to fill it, or how to see the demo."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Footer, Markdown

WELCOME = """\
# Welcome to memo-tui

This store ({store}) has no passages yet.

* Add your own: `memo-tui --db {location} ingest notes/ memories.jsonl`
  then `memo-tui --db {location} resolve` and open `memo-tui --db {location}` again.
* Or look around first: `memo-tui demo` builds a demo store from a team's notes and opens it.

Press **q** to quit.
"""


def _quoted(location: str) -> str:
    """The location as a shell word (quoted when it holds a space)."""
    return f"'{location}'" if any(ch.isspace() for ch in location) else location


class WelcomeScreen(Screen):
    BINDINGS = [Binding("q", "app.quit", "Quit", id="quit_welcome")]

    def __init__(self, store_label: str, location: str | None = None) -> None:
        super().__init__()
        self.store_label = store_label
        self.location = location or store_label

    def compose(self) -> ComposeResult:
        with Middle(), Center(id="welcome"):
            yield Markdown(WELCOME.format(store=self.store_label, location=_quoted(self.location)))
        yield Footer(show_command_palette=False)  # ctrl+p still opens it; the footer keeps room for ? and /

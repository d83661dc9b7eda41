"""A one-line question to the reviewer (a new name, the entity to fold into): Enter answers, Escape cancels."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class AskScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel_ask")]

    def __init__(self, prompt: str, value: str = "", empty: bool = False) -> None:
        super().__init__()
        self.prompt = prompt
        self.value = value
        self.empty = empty  # an empty answer is an answer ("" rather than None)

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-box"):
            yield Static(self.prompt)
            # typing adds to the text offered (a rename edits the name), never replaces it at once
            yield Input(value=self.value, id="ask-input", select_on_focus=False)
            yield Static("Enter to confirm, Escape to cancel.", classes="dim")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or ("" if self.empty else None))

    def action_cancel(self) -> None:
        self.dismiss(None)

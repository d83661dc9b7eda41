"""The review app: opens on the queue, or on a welcome when the store is empty."""

from __future__ import annotations

from functools import partial

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette

from memo_tui.errors import MemoError
from memo_tui.runtime import metrics
from memo_tui.runtime.config import section
from memo_tui.service.review import current_actor
from memo_tui.service.stores import has_passages
from memo_tui.tui.find import EntityFinder
from memo_tui.tui.screens.help import HelpScreen
from memo_tui.tui.screens.review import ReviewScreen
from memo_tui.tui.screens.welcome import WelcomeScreen
from memo_tui.tui.widgets.tables import RowTable


def load_keymap() -> dict[str, str]:
    """User key overrides from the [keys] table of config.toml: binding id = "key[,key...]"."""
    keys = section("keys")
    bad = [name for name, value in keys.items() if not isinstance(value, str)]
    if bad:
        raise MemoError(f'settings: [keys] {bad[0]} must be a string such as "m,enter"')
    return dict(keys)


class MemoApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "memo-tui"
    # ctrl+p: Textual's command palette (themes, keys, screenshot, quit); `/` opens it on the entity finder
    COMMAND_PALETTE_BINDING = "ctrl+p"
    BINDINGS = [
        Binding("q", "quit", "Quit", id="quit"),
        Binding("question_mark", "help", "Help", id="help"),
        Binding("slash", "find", "Find", id="find"),
    ]

    def __init__(
        self, store_label: str, namespace: str = "default", actor: str | None = None, location: str | None = None
    ) -> None:
        super().__init__()
        self.store_label = store_label
        self.location = location or store_label  # the full path or URL, for commands the reviewer can copy
        self.namespace = namespace
        self.actor = current_actor(actor)
        self.keymap = load_keymap()

    def on_mount(self) -> None:
        self.set_keymap(self.keymap)
        bindings = (*self.BINDINGS, *ReviewScreen.BINDINGS, *RowTable.BINDINGS)
        known = {b.id for b in bindings if isinstance(b, Binding) and b.id}
        unknown = sorted(set(self.keymap) - known)
        if unknown:
            self.notify(
                f"settings: [keys] has no binding {', '.join(unknown)}; the ids are {', '.join(sorted(known))}",
                severity="warning",
                timeout=10,
            )
        if has_passages(self.namespace):
            self.push_screen(ReviewScreen(self.namespace, self.actor, self.store_label))
        else:
            self.push_screen(WelcomeScreen(self.store_label, self.location))

    def get_system_commands(self, screen):
        """The palette (ctrl+p) holds the review screen's own keys beside Textual's commands."""
        yield from super().get_system_commands(screen)
        if isinstance(screen, ReviewScreen):
            for binding in screen.BINDINGS:
                if isinstance(binding, Binding) and binding.description:
                    key = self.get_key_display(binding)
                    yield SystemCommand(binding.description, f"key {key}", partial(screen.run_action, binding.action))

    def on_unmount(self) -> None:
        metrics.flush()

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        about = self.screen.focused_help() if isinstance(self.screen, ReviewScreen) else ""
        keys = []
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if binding.id and binding.description:  # this app's own keys, not every widget's defaults
                keys.append((self.get_key_display(binding), binding.description))
        self.push_screen(HelpScreen(about, keys))

    def action_find(self) -> None:
        if isinstance(self.screen, ReviewScreen):
            self.push_screen(CommandPalette(providers=[EntityFinder], placeholder="Find an entity or alias…"))

    def show_entity(self, target: str) -> None:
        """Open the neighbourhood of an entity (the finder's choice)."""
        if isinstance(self.screen, ReviewScreen):
            self.screen.query_one("NeighbourhoodPane").reset()
            self.screen.show_neighbourhood(target)

"""What the screens and the finder ask of the app they run in (`MemoApp`), typed without importing it:
the app imports them."""

from __future__ import annotations

from typing import Protocol, cast

from textual.app import App


class Host(Protocol):
    namespace: str
    keymap: dict[str, str]  # binding id -> its keys, as the key settings give them

    def show_entity(self, target: str) -> None: ...


def host(app: App[object]) -> Host:
    """The running app as a `Host`: every screen and provider here runs in a `MemoApp`."""
    return cast(Host, app)

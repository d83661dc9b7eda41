"""`/`: find any entity or alias by name (a command-palette provider)."""

from __future__ import annotations

import asyncio
from functools import partial

from textual.command import Hit, Hits, Provider

from memo_tui.service.reads import spellings
from memo_tui.tui.host import host

MAX_CANDIDATES = 300


class EntityFinder(Provider):
    async def startup(self) -> None:
        self.spellings = await asyncio.to_thread(spellings, self.screen_namespace)

    @property
    def screen_namespace(self) -> str:
        return host(self.app).namespace

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        wanted = query.casefold().strip()
        shown = 0
        for spelling in self.spellings:
            if wanted and wanted not in spelling.text.casefold():
                continue
            score = matcher.match(spelling.text) if wanted else 0.5
            if score > 0:
                what = f"alias of {spelling.canonical}" if spelling.canonical else f"entity #{spelling.entity_id}"
                passages = f"{spelling.passages} passage{'s' if spelling.passages != 1 else ''}"
                help_text = f"{what} · {spelling.type or 'no type'} · {passages}"
                yield Hit(
                    score,
                    matcher.highlight(spelling.text),
                    partial(host(self.app).show_entity, f"#{spelling.entity_id}"),
                    help=help_text,
                )
                shown += 1
                if shown >= MAX_CANDIDATES:
                    return

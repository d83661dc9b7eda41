"""`/`: find any entity or alias by name (a command-palette provider)."""

from __future__ import annotations

import asyncio
from functools import partial

from textual.command import Hit, Hits, Provider

from memo_tui.store import Alias, Entity

MAX_CANDIDATES = 300


def _spellings(namespace: str) -> list[tuple[str, int, str | None]]:
    """(spelling, entity id, canonical name when the spelling is an alias)."""
    rows = [
        (name, entity_id, None)
        for entity_id, name in Entity.select(Entity.id, Entity.name).where(Entity.namespace == namespace).tuples()
    ]
    aliases = Alias.select(Alias.name, Alias.entity, Entity.name).join(Entity).where(Alias.namespace == namespace)
    rows += [(name, entity_id, canonical) for name, entity_id, canonical in aliases.tuples()]
    return sorted(rows)


class EntityFinder(Provider):
    async def startup(self) -> None:
        self.spellings = await asyncio.to_thread(_spellings, self.screen_namespace)

    @property
    def screen_namespace(self) -> str:
        return self.app.namespace

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        wanted = query.casefold().strip()
        shown = 0
        for spelling, entity_id, canonical in self.spellings:
            if wanted and wanted not in spelling.casefold():
                continue
            score = matcher.match(spelling) if wanted else 0.5
            if score > 0:
                help_text = f"alias of {canonical}" if canonical else f"entity #{entity_id}"
                yield Hit(
                    score, matcher.highlight(spelling), partial(self.app.show_entity, f"#{entity_id}"), help=help_text
                )
                shown += 1
                if shown >= MAX_CANDIDATES:
                    return

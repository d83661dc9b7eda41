"""Both sides of the selected question: names, types, counts, aliases, passages, and what a merge does."""

from __future__ import annotations

import re

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from memo_tui.core.detail import Detail, EntitySide, Excerpt, PassageSide

NAME_STYLE = "bold black on yellow"
DIFF_STYLE = "bold white on red"


_LIST_ITEM = re.compile(r"^\s*(?:[-*•+]|\d+[.)])\s")


def reflowed(text: str) -> str:
    """Spaces and line breaks inside a paragraph made one space; paragraph breaks and list items
    (changelog bullets) kept on lines of their own."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        lines: list[str] = []
        for line in paragraph.splitlines():
            if lines and not _LIST_ITEM.match(line):
                lines[-1] += " " + " ".join(line.split())
            else:
                lines.append((line[: len(line) - len(line.lstrip())] if _LIST_ITEM.match(line) else "")
                             + " ".join(line.split()))  # fmt: skip
        out.append("\n".join(lines))
    return "\n\n".join(out)


def highlighted(text: str, words: list[str], style: str, whole_words: bool = False) -> Text:
    """The text with every occurrence of the given spellings (or whole words) marked."""
    out = Text(reflowed(text))
    for word in sorted(set(words), key=len, reverse=True):
        if word:
            pattern = rf"(?<!\w){re.escape(word)}(?!\w)" if whole_words else re.escape(word)
            out.highlight_regex(re.compile(pattern, re.IGNORECASE), style)
    return out


def _excerpt_header(p: Excerpt) -> Text:
    """`2026-03-02 · wiki · ID`: one line; a long id is cut at the end, never wrapped into the text."""
    retired = "[retired] " if p.retired else ""
    line = f"{retired}{p.created_at:%Y-%m-%d} · {p.source or 'no source'} · {p.external_id}"
    return Text(line, style="dim", no_wrap=True, overflow="ellipsis")


def _entity_column(side: EntitySide) -> Group:
    lines = [
        Text(side.name, style="bold"),
        Text(
            f"#{side.id} · {side.type or 'no type'} · {side.mentions} passage{'' if side.mentions == 1 else 's'}",
            style="dim",
        ),
        Text("aliases: " + (", ".join(side.aliases) if side.aliases else "none"), style="dim"),
    ]
    for p in side.passages:
        lines += [Text(""), _excerpt_header(p), highlighted(p.text, side.spellings, NAME_STYLE), *_links(p)]
    if len(side.passages) < side.mentions:
        lines += [Text(""), Text(f"{len(side.passages)} of {side.mentions} passages shown; + shows more", style="dim")]
    return Group(*lines)


def _links(p: Excerpt) -> list[Text]:
    return [Text("also see: " + ", ".join(p.also_see), style="dim")] if p.also_see else []


def _passage_column(side: PassageSide) -> Group:
    p = side.passage
    lines = [_excerpt_header(p)]
    lines.append(highlighted(p.text, side.differing, DIFF_STYLE, whole_words=True))
    return Group(*lines, *_links(p))


def render_detail(detail: Detail) -> Group:
    q = detail.question
    grid = Table.grid(expand=True, padding=(0, 2))
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    if detail.entities is not None:
        grid.add_row(*(_entity_column(side) for side in detail.entities))
    elif detail.passages is not None:
        grid.add_row(*(_passage_column(side) for side in detail.passages))
    about = [Text("about: " + ", ".join(name for _, name in detail.about), style="dim")] if detail.about else []
    head = Text.assemble(
        (f"#{q.id} {q.kind.replace('_', ' ')}", "bold"), f"  {q.rule}, likely {q.likelihood:.2f} — {q.reason}"
    )
    return Group(head, Text(detail.merge_effect, style="italic"), *about, Text(""), grid)


class DetailPane(VerticalScroll):
    HELP = (
        "Both sides of the highlighted question. Names are marked where the passages write them; for memory "
        "conflicts the words that differ are marked. m merges, M merges the other way, r rejects (different "
        "things / not a conflict), b keeps both, s skips, e explores the left name (again: the right one) "
        "or what two passages are about; + shows more of each side's passages. Tab moves the focus here: "
        "then j / k (or the arrows) scroll it, and tab goes back to the queue."
    )
    BINDINGS = [
        Binding("j", "scroll_down", "Scroll down", show=False),
        Binding("k", "scroll_up", "Scroll up", show=False),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.question_id: int | None = None  # the question on show
        self.detail: Detail | None = None
        self.about: list[tuple[int, str]] = []  # for two passages: the entities both name

    def compose(self):
        yield Static("Nothing selected.", id="detail-body")

    def show(self, detail: Detail | None, empty: str = "Nothing pending. Press R to run a resolution pass.") -> None:
        self.detail = detail
        self.question_id = detail.question.id if detail is not None else None
        self.about = detail.about if detail is not None else []
        body = self.query_one("#detail-body", Static)
        body.update(render_detail(detail) if detail is not None else empty)
        self.scroll_home(animate=False)

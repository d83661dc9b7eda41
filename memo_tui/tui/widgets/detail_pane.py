"""Both sides of the selected question: names, types, counts, aliases, passages, and what a merge does."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from memo_tui.service.views import ClusterDetail, Detail, EntitySide, Excerpt, PassageSide
from memo_tui.tui.widgets.cluster_card import ClusterCard
from memo_tui.tui.widgets.passage_text import DIFF_STYLE, NAME_STYLE, excerpt_header, highlighted


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
        lines += [Text(""), excerpt_header(p), highlighted(p.text, side.spellings, NAME_STYLE), *_links(p)]
    if len(side.passages) < side.mentions:
        lines += [Text(""), Text(f"{len(side.passages)} of {side.mentions} passages shown; + shows more", style="dim")]
    return Group(*lines)


def _links(p: Excerpt) -> list[Text]:
    return [Text("also see: " + ", ".join(p.also_see), style="dim")] if p.also_see else []


def _passage_column(side: PassageSide) -> Group:
    p = side.passage
    lines = [excerpt_header(p)]
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
    unsure = [Text(f"left for later, unsure: {q.unsure or '(no note)'}", style="bold")] if q.unsure is not None else []
    return Group(head, *unsure, Text(detail.merge_effect, style="italic"), *about, Text(""), grid)


class DetailPane(VerticalScroll):
    HELP = (
        "Both sides of the highlighted question. Names are marked where the passages write them; for memory "
        "conflicts the words that differ are marked. m merges, M merges the other way, r rejects (different "
        "things / not a conflict), b keeps both, s skips, e explores the left name (again: the right one) "
        "or what two passages are about; + shows more of each side's passages. U leaves it for later with a note "
        "(unsure: pending, behind the others); x says one of the names is no name at all. Tab moves the focus here: "
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
        yield ClusterCard(id="card")

    def on_mount(self) -> None:
        self.query_one(ClusterCard).display = False

    def show(
        self, detail: Detail | ClusterDetail | None, empty: str = "Nothing pending. Press R to run a resolution pass."
    ) -> None:
        """A question's two sides, a cluster's card, or what to say when there is nothing to show."""
        card, body = self.query_one(ClusterCard), self.query_one("#detail-body", Static)
        is_card = isinstance(detail, ClusterDetail)
        card.display, body.display = is_card, not is_card
        self.can_focus = not is_card  # tab goes straight to the card's members
        if is_card:
            self.detail, self.question_id, self.about = None, detail.cluster.id, []
            card.show(detail)
            return
        self.detail = detail
        self.question_id = detail.question.id if detail is not None else None
        self.about = detail.about if detail is not None else []
        body.update(render_detail(detail) if detail is not None else empty)
        self.scroll_home(animate=False)

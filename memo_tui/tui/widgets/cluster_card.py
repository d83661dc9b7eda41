"""A cluster card: every spelling of one name (or every near-identical passage), answered at once.

The card keeps what the reviewer chose (which members are checked, which one is the canonical);
the screen reads it when an answer key is pressed.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from memo_tui.service.views import ClusterDetail
from memo_tui.tui.messages import CanonicalChosen
from memo_tui.tui.widgets.passage_text import NAME_STYLE, excerpt_header, highlighted, reflowed
from memo_tui.tui.widgets.tables import RowTable


def _passage_lines(detail: ClusterDetail, member_id: int, why: str) -> Group:
    """What the highlighted member is: why it is asked about, in full (the table cuts it to its
    width), and its latest passages, with its spellings marked."""
    said = [Text(why, style="italic")] if why else []
    if detail.entities is not None:
        side = next(s for s in detail.entities if s.id == member_id)
        plural = "" if side.mentions == 1 else "s"
        aliases = ", ".join(side.aliases) if side.aliases else "none"
        lines = [Text(f"{side.name} · #{side.id} · {side.type or 'no type'} · {side.mentions} passage{plural} · "
                      f"aliases: {aliases}", style="bold"), *said]  # fmt: skip
        for p in side.passages:
            lines += [excerpt_header(p), highlighted(p.text, side.spellings, NAME_STYLE)]
        return Group(*lines)
    passage = detail.passages[[m.id for m in detail.cluster.members].index(member_id)]
    return Group(*said, excerpt_header(passage), Text(reflowed(passage.text)))


class MembersTable(RowTable):
    """The card's members: space checks or unchecks one, a checks all or none, c makes it the canonical."""

    BINDINGS = [
        Binding("space", "toggle", "Check / uncheck the member", show=False, id="toggle_member"),
        Binding("a", "toggle_all", "Check all / none", show=False, id="toggle_all_members"),
        Binding("c", "canonical", "Make it the canonical", show=False, id="make_canonical"),
    ]

    def action_toggle(self) -> None:
        self.parent.toggle(self.selected_key())

    def action_toggle_all(self) -> None:
        self.parent.toggle_all()

    def action_canonical(self) -> None:
        self.parent.choose_canonical(self.selected_key())


class ClusterCard(Vertical):
    HELP = (
        "A cluster: spellings the resolver thinks are one name (or near-identical passages), asked as one item. "
        "Tab moves here: j / k pick a member, space checks or unchecks it, a checks all or none, c makes it the "
        "canonical. m folds the checked members into the canonical as one decision (ctrl+z undoes it; each fold "
        "also reverts alone from the history); d does that and marks the unchecked ones different; r says "
        "they are all different things; b keeps them all. For passages: m keeps the canonical (the newest unless "
        "c chose another) and retires the rest."
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.detail: ClusterDetail | None = None
        self.checked: set[int] = set()
        self._why: dict[int, str] = {}  # member id -> why it is asked about, uncut (none for the canonical)

    def compose(self) -> ComposeResult:
        yield Static("", id="card-head")
        yield MembersTable(id="card-members")
        yield Static("", id="card-member")

    @property
    def lead(self) -> int | None:
        return self.detail.cluster.id if self.detail is not None else None

    @property
    def canonical(self) -> int | None:
        return self.detail.cluster.left_id if self.detail is not None else None

    def show(self, detail: ClusterDetail) -> None:
        same = self.detail is not None and self.detail.cluster.id == detail.cluster.id
        names = detail.cluster.kind == "name_cluster"
        ids = [m.id for m in detail.cluster.members]
        if same:  # a new canonical: the choices made stay, the old canonical becomes a checked member
            self.checked = (self.checked | {self.canonical}) & set(ids)
        else:
            self.checked = {m.id for m in detail.cluster.members[1:] if not m.kept_apart}
        self.checked.discard(detail.cluster.left_id)
        self.detail = detail
        table = self.query_one(MembersTable)
        was = table.selected_key() if same else None
        self._why, rows = {}, []
        for index, member in enumerate(detail.cluster.members):
            if names:
                middle = (member.type or "", str(member.passages))
            else:
                passage = detail.passages[index]
                middle = (f"{passage.created_at:%Y-%m-%d}", passage.source or "")
            why = "canonical" if member.id == self.canonical else member.reason
            if member.via:
                why = f"via {member.via}: {why}"
            if member.kept_apart:
                why = f"kept apart from {member.apart_from!r} by a reviewer · {why}"
            if member.id != self.canonical:
                self._why[member.id] = why
            room = max(20, (self.size.width or self.app.size.width) - 50)
            why = why if len(why) <= room else why[: room - 1] + "…"
            cells = (self._mark(member.id), member.name, *middle, f"{member.likelihood:.2f}", why)
            rows.append((str(member.id), cells))
        # a cluster of names shows each member's type and passages; a family its date and source
        middle = ("type", "passages") if names else ("written", "source")
        table.fill((" ", "member", *middle, "likely", "why"), rows)
        table.move_to_key(was)
        self._head()
        self._show_member(table.selected_key())

    def highlighted(self) -> int | None:
        """The member under the card's cursor."""
        key = self.query_one(MembersTable).selected_key()
        return int(key) if key is not None else None

    def _mark(self, member_id: int) -> str:
        if member_id == self.canonical:
            return "★"
        if self.detail is not None and self.detail.cluster.kind == "passage_family":
            return "✗"  # retired by m
        return "✓" if member_id in self.checked else "·"

    def _head(self) -> None:
        cluster = self.detail.cluster
        chosen = len(self.checked)
        what = "spellings" if cluster.kind == "name_cluster" else "passages"
        head = Text.assemble(
            (f"#{cluster.id} {len(cluster.members)} {what}", "bold"),
            f"  likely up to {cluster.likelihood:.2f} · {len(cluster.questions)} questions answered at once",
        )
        if cluster.kind == "name_cluster":
            effect = (
                f"m folds the {chosen} checked into ★ {cluster.left_name!r}; d also marks the "
                f"{len(cluster.members) - 1 - chosen} unchecked different; r all different; b keep all"
            )
        else:
            effect = self.detail.effect
        keys = "tab, then j/k · space check · a all/none · c canonical" if cluster.kind == "name_cluster" else (
            "tab, then j/k · c keeps that passage instead")  # fmt: skip
        self.query_one("#card-head", Static).update(Group(head, Text(effect, style="italic"), Text(keys, style="dim")))

    def _show_member(self, key: str | None) -> None:
        if key is not None and self.detail is not None:
            member = int(key)
            lines = _passage_lines(self.detail, member, self._why.get(member, ""))
            self.query_one("#card-member", Static).update(lines)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_member(event.row_key.value)

    def toggle(self, key: str | None) -> None:
        if key is None or self.detail is None or self.detail.cluster.kind != "name_cluster":
            return
        member = int(key)
        if member == self.canonical:
            return
        self.checked ^= {member}
        self._refresh_marks()
        self.query_one(MembersTable).action_cursor_down()

    def toggle_all(self) -> None:
        if self.detail is None or self.detail.cluster.kind != "name_cluster":
            return
        others = {m.id for m in self.detail.cluster.members[1:]}
        self.checked = set() if self.checked == others else others
        self._refresh_marks()

    def _refresh_marks(self) -> None:
        table = self.query_one(MembersTable)
        for member in self.detail.cluster.members:
            table.update_cell(str(member.id), " ", self._mark(member.id))
        self._head()

    def choose_canonical(self, key: str | None) -> None:
        if key is not None and self.detail is not None and int(key) != self.canonical:
            self.post_message(CanonicalChosen(self.detail.cluster.id, int(key)))

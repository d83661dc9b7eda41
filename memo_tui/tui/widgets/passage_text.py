"""How passages are shown: paragraphs kept, names or differing words marked, one-line headers."""

from __future__ import annotations

import re

from rich.text import Text

from memo_tui.service.views import Excerpt

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


def excerpt_header(p: Excerpt) -> Text:
    """`2026-03-02 · wiki · ID`: one line; a long id is cut at the end, never wrapped into the text."""
    retired = "[retired] " if p.retired else ""
    line = f"{retired}{p.created_at:%Y-%m-%d} · {p.source or 'no source'} · {p.external_id}"
    return Text(line, style="dim", no_wrap=True, overflow="ellipsis")

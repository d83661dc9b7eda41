"""The kinds of review item and of keep-apart decision, as the store writes them (`Question.kind`,
`KeepApart.kind`): defined once, so that a misspelt kind is a type error, not a silent empty query."""

from __future__ import annotations

from typing import Final, Literal

QuestionKind = Literal["entity_pair", "duplicate", "contradiction", "name_cluster", "passage_family"]
PassageKind = Literal["duplicate", "contradiction"]  # what the passage search finds
ENTITY_PAIR: Final = "entity_pair"  # two names that may be one entity
DUPLICATE: Final = "duplicate"  # two passages that may say the same
CONTRADICTION: Final = "contradiction"  # two passages that may disagree
NAME_CLUSTER: Final = "name_cluster"  # a group of name questions shown as one item
PASSAGE_FAMILY: Final = "passage_family"  # a group of passage questions shown as one item

NAME_KINDS: Final = (ENTITY_PAIR,)
PASSAGE_KINDS: Final = (DUPLICATE, CONTRADICTION)

ApartKind = Literal["reject", "keep_both"]
REJECT: Final = "reject"  # not the same entity
KEEP_BOTH: Final = "keep_both"  # maybe the same, but kept as two
SETTLED_KINDS: Final = (REJECT, KEEP_BOTH)  # a reviewer's answers that settle a pair for good

"""The asks a pass keeps from the last one without visiting them, and those it must visit after all.

The last pass kept its asks by key (rule, impact, what the evidence was made of, whether a passage
names both): `pass_memory.Known.kept`. A key holds while nothing its evidence depends on changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from memo_tui.engine.resolve import pass_memory
from memo_tui.engine.resolve.asks import NO_PASSAGES, hopeless
from memo_tui.engine.resolve.pass_memory import Judged, Kept, PairList, Sweep, add_pair
from memo_tui.engine.resolve.reads import Pair, Reading
from memo_tui.names import evidence
from memo_tui.names.evidence import Evidence


def still_kept(
    reading: Reading, found: Judged, steady: set[int]
) -> tuple[dict[Kept, PairList], dict[Pair, tuple | None]]:
    """The asks the last pass kept (`Known.kept`) whose key still holds, by key; and the others, each
    with what its evidence was made of (None for a hopeless one left unread):
    this pass visits those.

    A key holds while no reviewer marked the pair and neither side was renamed (the verdict is the
    same ask: the names' memory was kept with this one); for an ask whose evidence was made of
    something, while both sides are `unmoved` (its evidence is what it was but for the prior); for a
    hopeless ask left unread, while its rule is still hopeless, both sides' passages stand (`steady`:
    so do the impact, and that they share none) or, when one side's changed, while its rule is
    hopeless and no passage names both. Asks of a rule the reviewers have taught are visited (they fold)."""
    known, unmoved, marked, passages = reading.known, reading.unmoved, reading.marked, reading.passages
    answers, priors, learned = reading.answers, reading.priors, reading.learned
    # one sweep of the pairs of every key alike, not one of each key's: whose side moved (its passages
    # changed), for an unread ask; or stirred (so did its neighbours'), for one whose evidence was made of something
    unread = {key: pairs for key, pairs in known.kept.items() if key[2] is None}
    made = {key: pairs for key, pairs in known.kept.items() if key[2] is not None}
    near_stirred = Sweep(unread).leaving(steady) | Sweep(made).leaving(unmoved)
    near_marked = Sweep(known.kept).among(marked) if marked else {}
    kept: dict[Kept, PairList] = {}
    regrouped: dict[Kept, PairList] = {}  # hopeless asks a side of which has other passages now, still unread
    dropped: dict[Pair, tuple | None] = {}
    for key, pairs in known.kept.items():
        rule, impact, local, meet = key
        if local is None and hopeless(rule, answers, priors) is None:  # the answers lifted the rule
            dropped.update(dict.fromkeys(pairs))
            continue
        if rule in learned:
            dropped.update(dict.fromkeys(pairs, local))
            continue
        stirred, near = near_stirred.get(key, ()), near_marked.get(key, ())
        if not (stirred or near):
            kept[key] = pairs
            continue
        gone = set(stirred).union(near)
        out = []  # the places of the pairs that leave this key
        for at in sorted(gone):
            pair = (pairs.lows[at], pairs.highs[at])
            if local is None and pair in found.verdicts and pair not in marked and found.fresh.isdisjoint(pair):
                now = reading.impact(*pair)
                if hopeless(rule, answers, priors) is not None and passages.get(pair[0], NO_PASSAGES).isdisjoint(
                    passages.get(pair[1], NO_PASSAGES)
                ):  # a side's passages changed, and the ask is still hopeless: unread still, in its list
                    # while its impact is what it was (most often a hub's new passages beside the other side)
                    if now != impact:
                        add_pair(regrouped, (rule, now, None, False), pair)
                        out.append(at)
                    continue
            dropped[pair] = local
            out.append(at)
        left = pairs.without(out)
        if left:
            kept[key] = left
    return pass_memory.joined(kept, regrouped), dropped


def to_visit(known: pass_memory.Known, found: Judged, dropped: dict[Pair, tuple | None]) -> list[Pair]:
    """The pairs with a verdict this pass visits, in order: every one when the last pass kept nothing;
    else those the last pass visited but did not keep, those judged anew, and those whose key no
    longer holds (`still_kept`)."""
    verdicts = found.verdicts
    if known.rest is None:
        return sorted(verdicts, key=_pair_order)
    visit = {pair for pair in known.rest if pair in verdicts}
    visit.update(found.changes.said)
    visit.update(pair for pair in dropped if pair in verdicts)
    return sorted(visit, key=_pair_order)


def _pair_order(pair: Pair) -> int:
    """A pair's place in id order, as one number (ids are below 2**63 on both backends): sorting by
    one number compares more cheaply than a tuple."""
    return pair[0] << 63 | pair[1]


def borne_on(pairs: PairList, near_touched: Iterable[int], near_folding: Iterable[int], folding: set[int]) -> list[int]:
    """The places of the pairs this pass's folds bear on: about an entity folded in this pass or grown
    by one, or about two members of a fold group (which may ask about the pair too). `near_touched`,
    `near_folding`: the places of the pairs touching the ones folded or grown, and the fold groups'
    members (`PairList.touching`)."""
    lows, highs = pairs.lows, pairs.highs
    places = set(near_touched)
    places.update(at for at in near_folding if lows[at] in folding and highs[at] in folding)
    return sorted(places)


def split_touched(
    kept: dict[Kept, PairList], near_touched: dict, near_folding: dict, folding: set[int], reading: Reading
) -> tuple[dict[Kept, PairList], list[tuple[Pair, Kept]], list[tuple[Pair, Kept]]]:
    """The kept asks this pass's folds bear on (`borne_on`; the places near them by key, as
    `pass_memory.Sweep` finds them), taken out of `kept`, as (pair, key): those whose evidence is
    remade, and those left unread (hopeless, and no passage names both). A full pass asks about them
    as it visits them: so does this one."""
    quiet: dict[Kept, PairList] = {}
    late: list[tuple[Pair, Kept]] = []
    revived: list[tuple[Pair, Kept]] = []
    for key, pairs in kept.items():
        places = borne_on(pairs, near_touched.get(key, ()), near_folding.get(key, ()), folding)
        if not places:
            quiet[key] = pairs
            continue
        rule, impact, local, meet = key
        unread = local is None or (hopeless(rule, reading.answers, reading.priors) is not None and not meet)
        (revived if unread else late).extend(((pairs.lows[at], pairs.highs[at]), key) for at in places)
        left = pairs.without(places)
        if left:
            quiet[key] = left
    return quiet, late, revived


class KeptGroup(NamedTuple):
    """Kept asks about `pairs` that share their evidence and impact: made into asks only when one may be admitted."""

    evidence: Evidence
    impact: int
    pairs: PairList


def kept_asks(
    kept: dict[Kept, PairList], reading: Reading, remake: Callable[[tuple], Evidence]
) -> tuple[list[KeptGroup], list[KeptGroup], int, int]:
    """Of the asks kept (`still_kept`): the likely ones, those under the floor that a teaching
    question may serve, how many are left unread (hopeless, and no passage names both), and how many
    had their evidence remade (by `remake`, from what it was made of)."""
    likely: list[KeptGroup] = []
    teachable: list[KeptGroup] = []
    unread = remade = 0
    for (rule, impact, local, meet), pairs in kept.items():
        if not pairs:
            continue
        if local is None or (hopeless(rule, reading.answers, reading.priors) is not None and not meet):
            unread += len(pairs)
            continue
        again = remake(local)
        remade += len(pairs)
        if again.likelihood >= evidence.MIN_LIKELIHOOD:
            likely.append(KeptGroup(again, impact, pairs))
        elif again.likelihood >= evidence.MIN_TEACH:
            teachable.append(KeptGroup(again, impact, pairs))
    return likely, teachable, unread, remade


def touching(pairs: Iterable[Pair], ids: set[int]) -> list[Pair]:
    """The pairs about any of `ids`."""
    return [pair for pair in pairs if pair[0] in ids or pair[1] in ids] if ids else []

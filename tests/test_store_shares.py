"""The store's own share of same-pairs per pattern (Fellegi-Sunter's mixing weight, fitted by EM)."""

import pytest

from memo_tui.names import evidence, likelihood


def pooled(pattern: str) -> float:
    return {"plural": 0.7, "edit-distance": 0.165}.get(pattern, 0.5)


def test_a_store_without_pairs_or_answers_keeps_the_pooled_shares():
    shares = likelihood.fit({}, {}, pooled)
    assert shares.of("plural") == 0.7 and shares.of("edit-distance") == 0.165


def test_pairs_that_carry_no_evidence_leave_the_share_where_it_was_pooled():
    shares = likelihood.fit({("edit-distance", 0.0): 500}, {}, pooled)
    assert shares.of("edit-distance") == pytest.approx(0.165, abs=1e-4)
    assert shares.pairs["edit-distance"] == 500


def test_a_store_whose_pairs_share_rare_company_raises_the_share_and_one_whose_pairs_do_not_lowers_it():
    up = likelihood.fit({("edit-distance", 0.9): 200}, {}, pooled).of("edit-distance")
    down = likelihood.fit({("edit-distance", -0.3): 200}, {}, pooled).of("edit-distance")
    assert down < 0.165 < up
    # a few pairs move it little: the pooled share weighs as much as SHARE_PAIRS pairs
    few = likelihood.fit({("edit-distance", 0.9): 2}, {}, pooled).of("edit-distance")
    assert 0.165 < few < up


def test_answers_are_pairs_whose_class_is_known():
    merged = likelihood.fit({}, {"edit-distance": (10, 10)}, pooled).of("edit-distance")
    rejected = likelihood.fit({}, {"edit-distance": (0, 10)}, pooled).of("edit-distance")
    assert merged == pytest.approx((10 + 20 * 0.165) / 30, abs=1e-4)
    assert rejected == pytest.approx(20 * 0.165 / 30, abs=1e-4)


def test_the_fit_is_the_same_whatever_order_the_pairs_come_in():
    rows = [(("plural", x / 10), n) for x, n in zip(range(-5, 6), range(1, 12), strict=True)]
    rows += [(("edit-distance", x / 7), n) for x, n in zip(range(-3, 9), range(5, 17), strict=True)]
    forward = likelihood.fit(dict(rows), {"plural": (3, 4)}, pooled)
    backward = likelihood.fit(dict(reversed(rows)), {"plural": (3, 4)}, pooled)
    assert forward.share == backward.share and forward.pairs == backward.pairs


def test_a_name_joined_to_many_can_be_the_same_as_a_few_of_them():
    star = [(1, n) for n in range(2, 102)]
    assert likelihood.cover(star) == likelihood.SPELLINGS == 2
    assert likelihood.cover([(1, 2), (3, 4), (5, 6)]) == 3  # pairs of their own: each may be the same
    assert likelihood.cover([(1, 2), (2, 3), (3, 4)]) == 3  # 2 and 3 touch them all, 2 has one pair of its own
    assert likelihood.cover([]) == 0


def test_one_name_joined_to_many_bounds_the_share_of_its_pairs():
    """`Python` against every package named `Python ...`: it is a spelling of two of them at most."""
    observed = {("word-of-name", 0.0): 100}
    bounded = likelihood.fit(observed, {}, lambda pattern: 0.6, {"word-of-name": 2})
    assert bounded.of("word-of-name") == pytest.approx(0.02, abs=1e-4)
    # pairs of names each in one pair are not bounded: the pooled share stands
    free = likelihood.fit(observed, {}, lambda pattern: 0.6, {"word-of-name": 100})
    assert free.of("word-of-name") == pytest.approx(0.6, abs=1e-4)
    # answers still count: reviewers who merged them say more than the bound's guess
    taught = likelihood.fit(observed, {"word-of-name": (20, 20)}, lambda pattern: 0.6, {"word-of-name": 1})
    assert taught.of("word-of-name") > 0.5


def test_the_bound_is_named_and_a_later_pass_restates_the_note_whole():
    bounded = likelihood.fit({("word-of-name", 0.0): 100}, {}, lambda pattern: 0.6, {"word-of-name": 2})
    assert bounded.bounded == {"word-of-name": 2}
    note = evidence.store_note(bounded.of("word-of-name"), 0.6, 100, bounded.bounded["word-of-name"])
    assert note == (
        "this store's pairs like this look the same 2% of the time"
        " (fitted on 100, 2 of them at most: their names are few things; 60% across kinds of text)"
    )
    reason = f"'A' may be a word of 'A B'; no rare neighbour in common; {note}; reviewers here merged 0 of 1"
    assert evidence.STORE_NOTE.sub("", reason) == (
        "'A' may be a word of 'A B'; no rare neighbour in common; reviewers here merged 0 of 1"
    )


ANCHORED = {"contained": 0.01}  # a store holds a hundredth of a contained same-pair per name it spells two ways


def test_a_store_with_many_loose_pairs_per_name_spelled_twice_lowers_their_share():
    """Fifty thousand one-line summaries: 1,000 case variants (nearly all the same), 5,000 pairs of a
    name inside another, none carrying evidence. The anchors say 10 of those are the same."""
    observed = {("case-lowercase", 0.0): 1000, ("contained", 0.0): 5000}
    shares = likelihood.fit(observed, {}, lambda pattern: {"case-lowercase": 0.9}.get(pattern, 0.6), None, ANCHORED)
    assert shares.anchors == 900 and shares.expected == {"contained": 9}
    start = (20 * 0.6 + 900 * likelihood.anchored(900, 0.01, 5000)) / (20 + 900)
    assert shares.of("contained") == pytest.approx(start, abs=1e-4) and shares.of("contained") < 0.02
    assert shares.of("case-lowercase") == pytest.approx(0.9, abs=1e-4)  # the anchors keep their share


def test_a_store_with_few_names_spelled_twice_keeps_the_pooled_share():
    """A conversation: no case variants, two short names inside longer ones. Nothing to anchor on."""
    shares = likelihood.fit({("contained", 0.0): 2}, {}, lambda pattern: 0.6, None, ANCHORED)
    assert shares.anchors == 0 and shares.of("contained") == pytest.approx(0.6, abs=1e-4)
    # a few anchors move it a little: the estimate weighs as many pairs as the anchors it rests on
    few = likelihood.fit({("contained", 0.0): 2, ("same-merge-key", 0.0): 4}, {}, lambda p: 0.6, None, ANCHORED)
    assert 0.4 < few.of("contained") < 0.6


def test_the_anchors_count_the_pairs_reviewers_merged_and_answers_still_move_the_share():
    observed = {("joined-words", 0.0): 100, ("contained", 0.0): 1000}
    asked = {"joined-words": (50, 50)}
    shares = likelihood.fit(observed, asked, lambda pattern: 0.5, None, ANCHORED)
    assert shares.anchors == round(shares.of("joined-words") * 100 + 50)
    taught = likelihood.fit(observed, {**asked, "contained": (30, 30)}, lambda pattern: 0.5, None, ANCHORED)
    assert taught.of("contained") > 0.5 > shares.of("contained")


def test_a_pattern_without_a_ratio_or_without_ratios_is_fitted_as_before():
    observed = {("case-lowercase", 0.0): 1000, ("contained", 0.0): 5000, ("plural", 0.0): 50}
    pooled = {"case-lowercase": 0.9, "plural": 0.7}.get
    plain = likelihood.fit(observed, {}, lambda p: pooled(p, 0.6))
    anchored = likelihood.fit(observed, {}, lambda p: pooled(p, 0.6), None, ANCHORED)
    assert plain.of("contained") == pytest.approx(0.6, abs=1e-4) and plain.expected == {}
    assert anchored.of("plural") == plain.of("plural") and anchored.of("case-lowercase") == plain.of("case-lowercase")


def test_the_reason_says_what_the_anchors_said():
    shares = likelihood.fit(
        {("case-lowercase", 0.0): 1000, ("contained", 0.0): 5000}, {}, lambda p: 0.9 if p == "case-lowercase" else 0.6,
        None, ANCHORED,
    )  # fmt: skip
    note = evidence.store_note(shares.of("contained"), 0.6, 5000, 0, evidence.anchored(shares, "contained"))
    assert note == (
        "this store's pairs like this look the same 1% of the time"
        " (fitted on 5000, about 9 the same by its 900 names spelled two ways; 60% across kinds of text)"
    )
    assert evidence.anchored(shares, "case-lowercase") == (0, 0)
    assert evidence.STORE_NOTE.sub("", f"'A' may be inside 'A B'; {note}") == "'A' may be inside 'A B'"

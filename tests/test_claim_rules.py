"""The verdict rules at their edges: a CI exactly on an edge, just inside, just outside; the
no-difference band; the fewest samples with a 95 % CI; factor claims between 1 and 2 and below 1;
rankings held in part, ties, and names not measured. Each case names the mutant it kills."""

from __future__ import annotations

import math

import pytest

from phpcb import claim_rules as rules
from phpcb.claim_rules import (
    MIN_SAMPLES,
    NO_DIFFERENCE,
    ChoiceResult,
    FactResult,
    Ranked,
    RankResult,
    RatioResult,
    Rule,
    ShareResult,
    Unavailable,
    decide,
)
from phpcb.stats import Ratio

R, C, X, N, U = rules.REPRODUCED, rules.CHANGED, rules.REFUTED, rules.INCONCLUSIVE, rules.UNTESTABLE  # N: not decided
EDGE = 1 / NO_DIFFERENCE  # the no-difference band's lower edge
EPS = 1e-6


def ratio(low: float, high: float, value: float | None = None, samples: tuple[int, int] = (20, 20)) -> RatioResult:
    middle = math.sqrt(low * high) if value is None else value
    return RatioResult("A", "B", Ratio(middle, low, high), "somewhere", samples)


# factor: claimed 21 with the default band 1.5 is 14 … 31.5.
@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        pytest.param(14.0, 31.5, R, id="CI exactly on both edges: inside (closed band)"),
        pytest.param(14.0 + EPS, 31.5 - EPS, R, id="just inside"),
        pytest.param(14.0 - EPS, 20.0, N, id="just below the lower edge: straddles, not changed"),
        pytest.param(20.0, 31.5 + EPS, N, id="just above the upper edge: straddles"),
        pytest.param(12.0, 14.0 - EPS, C, id="wholly below, measurably faster: changed"),
        pytest.param(31.5 + EPS, 40.0, C, id="wholly above: changed"),
        pytest.param(0.4, 0.5, X, id="the other way round"),
        pytest.param(EDGE, NO_DIFFERENCE, X, id="exactly the no-difference band: no measurable difference"),
        pytest.param(0.95, 1.5, X, id="no measurable difference, band excluded"),
        pytest.param(1.01, 20.0, N, id="not measurable yet reaching into the band"),
    ],
)
def test_factor_decides_by_the_whole_ci(low, high, verdict):
    assert decide(Rule("factor", claimed=21), ratio(low, high)).verdict == verdict


def test_factor_uses_the_ci_not_the_point_estimate():
    # Point estimates inside (20) and outside (13) the band; both CIs reach across its lower edge.
    assert decide(Rule("factor", claimed=21), ratio(10.0, 25.0, value=20.0)).verdict == N
    assert decide(Rule("factor", claimed=21), ratio(12.0, 14.5, value=13.0)).verdict == N


@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        pytest.param(1.1, 1.3, R, id="inside 1.0-2.25 and measurable"),
        pytest.param(0.99, 1.01, X, id="no measurable difference though the band reaches 1"),
        pytest.param(1.0, 1.3, N, id="inside the band but not measurable"),
        pytest.param(NO_DIFFERENCE, 1.3, N, id="lower end exactly at the significance edge: not measurable"),
        pytest.param(NO_DIFFERENCE + EPS, 1.3, R, id="just past the significance edge"),
        pytest.param(2.3, 2.5, C, id="measurable, above the band"),
        pytest.param(0.8, 0.9, X, id="measurably slower"),
    ],
)
def test_a_factor_claim_between_1_and_2(low, high, verdict):
    assert decide(Rule("factor", claimed=1.5), ratio(low, high)).verdict == verdict


@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        pytest.param(0.4, 0.6, R, id="slower by about half, inside 0.333-0.75"),
        pytest.param(0.1, 0.2, C, id="far slower: changed"),
        pytest.param(0.7, 0.8, N, id="reaching across 0.75"),
        pytest.param(1.5, 2.0, X, id="faster: the other way round"),
        pytest.param(0.99, 1.01, X, id="no measurable difference"),
    ],
)
def test_a_factor_claim_below_1(low, high, verdict):
    assert decide(Rule("factor", claimed=0.5), ratio(low, high)).verdict == verdict


def test_a_factor_is_printed_as_published():
    decision = decide(Rule("factor", claimed=3), ratio(2.1, 2.3))
    assert decision.reason.startswith("claimed 3x (band 2–4.5×)")
    assert "3.00" not in decision.reason
    assert decide(Rule("factor", claimed=2.62), ratio(2.1, 2.3)).reason.startswith("claimed 2.62x")
    assert decide(Rule("factor", claimed=3, published="three times"), ratio(2.1, 2.3)).reason.startswith(
        "claimed three times"
    )


@pytest.mark.parametrize(
    ("low", "high", "value", "verdict"),
    [
        pytest.param(NO_DIFFERENCE + EPS, 1.1, None, R, id="just measurable"),
        pytest.param(NO_DIFFERENCE, 1.1, None, N, id="exactly at the edge: not measurable"),
        pytest.param(0.99, 1.03, 1.01, N, id="1.01x with CI 0.99-1.03: the significance check decides"),
        pytest.param(EDGE, NO_DIFFERENCE, None, X, id="exactly the no-difference band"),
        pytest.param(EDGE - EPS, 1.0, None, N, id="just outside the no-difference band, not measurable"),
        pytest.param(0.9, EDGE - EPS, None, X, id="B measurably faster"),
    ],
)
def test_faster_needs_a_measurable_difference(low, high, value, verdict):
    assert decide(Rule("faster"), ratio(low, high, value)).verdict == verdict


@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        pytest.param(0.8, 1.25, R, id="exactly on both edges"),
        pytest.param(0.8 + EPS, 1.25 - EPS, R, id="just inside"),
        pytest.param(0.8 - EPS, 1.0, N, id="just outside below: straddles"),
        pytest.param(1.2, 1.25 + EPS, N, id="just outside above: straddles, not changed"),
        pytest.param(1.25 + EPS, 1.4, X, id="wholly outside above"),
        pytest.param(0.5, 0.8 - EPS, X, id="wholly outside below"),
    ],
)
def test_similar_decides_by_the_whole_ci(low, high, verdict):
    assert decide(Rule("similar"), ratio(low, high)).verdict == verdict


@pytest.mark.parametrize(
    ("samples", "verdict"),
    [((MIN_SAMPLES, MIN_SAMPLES), R), ((MIN_SAMPLES - 1, 40), U), ((40, MIN_SAMPLES - 1), U)],
)
def test_each_side_needs_the_fewest_samples_with_a_95_percent_ci(samples, verdict):
    decision = decide(Rule("similar"), ratio(0.9, 1.1, samples=samples))
    assert decision.verdict == verdict
    if verdict == U:
        assert "too few samples for a 95% CI" in decision.reason


def test_the_fewest_samples_is_what_a_median_ci_needs():
    import numpy as np

    from phpcb.stats import median_ci

    assert all(math.isfinite(x) for x in median_ci(np.arange(MIN_SAMPLES, dtype=float)))
    assert not all(math.isfinite(x) for x in median_ci(np.arange(MIN_SAMPLES - 1, dtype=float)))


def test_an_unbounded_ci_is_not_testable():
    assert decide(Rule("faster"), ratio(0.0, math.inf, value=2.0)).verdict == U


def test_equal_compares_facts_and_knows_what_held_then():
    fact = FactResult("1.0.1", "GCM from 1.0.1", "documented")
    assert decide(Rule("equal", claimed="1.0.1"), fact).verdict == R
    refuted = decide(Rule("equal", claimed="1.1"), fact)
    assert (refuted.verdict, "claimed 1.1, found 1.0.1" in refuted.reason) == (X, True)
    assert decide(Rule("equal", claimed="1.1", held_then=True), fact).verdict == C
    lists = FactResult([16, 4, 8], "", "")
    assert decide(Rule("equal", claimed=[4, 8, 16]), lists).verdict == R, "lists compare as sets"
    assert decide(Rule("equal", claimed=[4, 8]), lists).verdict == X
    assert decide(Rule("equal", claimed=None), FactResult(None, "", "")).verdict == R
    assert decide(Rule("equal", claimed=None), FactResult("", "", "")).verdict == X


def ranked(*spec: tuple[str, float, float]) -> RankResult:
    """Items by (name, low, high), best first; the value is the middle of the CI."""
    return RankResult(tuple(Ranked(n, (lo + hi) / 2, lo, hi) for n, lo, hi in spec), "x")


SEPARATE = ranked(("a", 1.0, 1.1), ("b", 2.0, 2.1), ("c", 3.0, 3.1), ("d", 4.0, 4.1), ("e", 5.0, 5.1))


@pytest.mark.parametrize(
    ("claimed", "verdict"),
    [
        pytest.param(["a", "b"], R, id="both certainly in place"),
        pytest.param(["a", "c"], C, id="partial hold: a in place, c one place off"),
        pytest.param(["b", "a"], C, id="swapped: each one place off"),
        pytest.param(["a", "e"], X, id="partial hold: e three places off, past the slack"),
        pytest.param(["d"], X, id="three places off"),
        pytest.param(["c"], C, id="exactly the slack (two places off)"),
        pytest.param(["a", "zz"], N, id="a name not measured could be anywhere"),
        pytest.param(["zz"], U, id="nothing claimed was measured"),
    ],
)
def test_rank_of_separated_items(claimed, verdict):
    assert decide(Rule("rank", claimed=claimed), SEPARATE).verdict == verdict


def test_rank_ties_are_inconclusive_either_way():
    tied = ranked(("a", 1.0, 1.6), ("b", 1.5, 2.0), ("c", 3.0, 3.1))
    assert decide(Rule("rank", claimed=["a"]), tied).verdict == N, "first by its median, but b may be ahead"
    assert decide(Rule("rank", claimed=["b"]), tied).verdict == N
    assert decide(Rule("rank", claimed=["a", "c"]), tied).verdict == C, "c is certainly third"
    assert decide(Rule("rank", claimed=["c"], slack=1), tied).verdict == X


SIX = ranked(("a1", 1.0, 1.1), ("a2", 2.0, 2.1), ("b1", 3.0, 3.1), ("b2", 4.0, 4.1), ("c1", 5.0, 5.1), ("c2", 6.0, 6.1))


@pytest.mark.parametrize(
    ("rule", "verdict"),
    [
        pytest.param(Rule("top_set", claimed=["a2", "a1"]), R, id="in any order"),
        pytest.param(Rule("top_set", claimed=["a1", "b1"]), C, id="half of them"),
        pytest.param(Rule("top_set", claimed=["c1", "c2"]), X, id="none"),
        pytest.param(Rule("top_set", claimed=["a1", "b1", "c1"]), C, id="two of three"),
        pytest.param(Rule("top_set", claimed=["a1", "c1", "c2"]), X, id="one of three: below half"),
        pytest.param(Rule("top_set", pattern="^c", slowest_first=True), R, id="a pattern, slowest first"),
        pytest.param(Rule("top_set", claimed=["a1", "zz"]), N, id="a name not measured is undecided"),
        pytest.param(Rule("top_set", claimed=["zz"]), U, id="nothing claimed was measured"),
    ],
)
def test_top_set_of_separated_items(rule, verdict):
    assert decide(rule, SIX).verdict == verdict


def test_top_set_counts_a_tie_with_the_nth_as_undecided():
    # a2 (2nd) overlaps b1 (3rd): it may be third, so "a1 and a2 are the two fastest" is not settled.
    tie = ranked(("a1", 1.0, 1.1), ("a2", 2.0, 2.6), ("b1", 2.5, 3.1), ("b2", 4.0, 4.1))
    assert decide(Rule("top_set", claimed=["a1", "a2"]), tie).verdict == N
    # b1 (3rd) overlapping the 2nd may be second: undecided, not inside.
    decision = decide(Rule("top_set", claimed=["a1", "b1"]), tie)
    assert (decision.verdict, "undecided: b1" in decision.reason) == (N, True)
    # b1 in would make it half (changed), out none (refuted): undecided between them.
    assert decide(Rule("top_set", claimed=["b1", "b2"]), tie).verdict == N
    # A tie inside the top three does not matter: a2 and b1 are both among the three fastest.
    assert decide(Rule("top_set", claimed=["a1", "a2", "b2"]), tie).verdict == C


def test_top_set_thresholds_are_the_claims():
    ten = ranked(*((f"x{i:02d}", float(i), i + 0.1) for i in range(13)))
    eight = [f"x{i:02d}" for i in range(8)] + ["x10", "x11"]
    seven = [f"x{i:02d}" for i in range(7)] + ["x10", "x11", "x12"]
    assert decide(Rule("top_set", claimed=eight, reproduced_at=0.8), ten).verdict == R
    assert decide(Rule("top_set", claimed=seven, reproduced_at=0.8), ten).verdict == C


@pytest.mark.parametrize(
    ("matched", "uncertain", "total", "verdict"),
    [
        (5, 0, 5, R),
        (3, 0, 5, C),
        (1, 0, 5, X),
        (0, 0, 0, U),
        (3, 2, 5, N),  # 60 % for certain, 100 % at most: the undecided decide it
        (1, 1, 5, X),  # 40 % at most: below half whatever the undecided do
        (2, 2, 4, N),
        (1, 0, 2, C),  # exactly half: changed
        (2, 0, 5, X),  # just below half
    ],
)
def test_share_is_decided_by_both_bounds(matched, uncertain, total, verdict):
    assert decide(Rule("share"), ShareResult(matched, total, (), "x", uncertain)).verdict == verdict


def test_choice_reaches_each_verdict():
    assert decide(Rule("choice"), ChoiceResult(True, True, "")).verdict == R
    assert decide(Rule("choice"), ChoiceResult(True, False, "")).verdict == C
    assert decide(Rule("choice"), ChoiceResult(False, False, "")).verdict == X
    assert decide(Rule("choice"), ChoiceResult(False, True, "")).verdict == X, "ruled out wins over picked"


def test_a_measure_that_cannot_decide_gives_not_testable_with_its_reason():
    decision = decide(Rule("factor", claimed=2), Unavailable("no clock frequency"))
    assert (decision.verdict, decision.reason) == (U, "no clock frequency")


def test_a_result_of_the_wrong_kind_is_a_bug_not_a_verdict():
    with pytest.raises(TypeError):
        decide(Rule("factor", claimed=2), ShareResult(1, 1, (), "x"))


def test_measured_text_reads_without_exponents():
    text = rules.measured(ranked(("x", 1100.0, 1200.0)))
    assert "e+0" not in text
    assert "1,150" in text

"""The verdict rules at their edges: a CI exactly on an edge, just inside, just outside; the
no-difference band; the fewest samples with a 95 % CI; factor claims between 1 and 2 and below 1;
rankings held in part, ties, and names not measured; claims judged at several conditions; and every
reason and measurement word for word (claims/wording.py, apart from the decision).

`make mutation` runs mutmut on scripts/phpcb/claims/rules.py against these tests and test_claims.py.
The mutants they let live are equivalent: `claimed > 1` as `>= 1` in factor (a factor of 1 is refused
when the ledger is loaded), `max(..., 0)` without its 0 in Places.distance (only `> 0` is asked of
it), and the mirrored value of an item in _ordered (places are read from the CIs alone)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import pytest

from phpcb.claims import rules, vocabulary, wording
from phpcb.claims.results import (
    Args,
    ArgumentError,
    ChoiceResult,
    FactResult,
    Ranked,
    RankResult,
    RatioResult,
    Ratios,
    Reference,
    Result,
    ShareResult,
    Unavailable,
)
from phpcb.claims.rules import Rule
from phpcb.claims.vocabulary import FACTOR_TOLERANCE, MIN_SAMPLES, NO_DIFFERENCE, SIMILAR_TOLERANCE
from phpcb.statistics.stats import Ratio

R, C, X, N, U = (  # N: not decided
    vocabulary.REPRODUCED,
    vocabulary.CHANGED,
    vocabulary.REFUTED,
    vocabulary.INCONCLUSIVE,
    vocabulary.UNTESTABLE,
)
EDGE = 1 / NO_DIFFERENCE  # the no-difference band's lower edge
EPS = 1e-6
F = FACTOR_TOLERANCE.factor
LOW21, HIGH21 = 21 / F, 21 * F  # the band of a claimed 21x
S = SIMILAR_TOLERANCE.factor


@dataclass(frozen=True)
class Judged:
    verdict: str
    reason: str
    references: tuple[Reference, ...]


def decide(rule: Rule, result: Result) -> Judged:
    """The decision and its words, as the ledger prints them."""
    decision = rules.decide(rule, result)
    return Judged(decision.verdict, wording.reason(decision, rule, result), decision.references)


def ratio(low: float, high: float, value: float | None = None, samples: tuple[int, int] = (20, 20)) -> RatioResult:
    middle = math.sqrt(low * high) if value is None else value
    return RatioResult("A", "B", Ratio(middle, low, high), "somewhere", samples)


# factor: claimed 21 with the factor tolerance is 21 ÷ 1.15 … 21 × 1.15.
@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        pytest.param(LOW21, HIGH21, R, id="CI exactly on both edges: inside (closed band)"),
        pytest.param(LOW21 + EPS, HIGH21 - EPS, R, id="just inside"),
        pytest.param(LOW21 - EPS, 20.0, N, id="just below the lower edge: straddles, not changed"),
        pytest.param(20.0, HIGH21 + EPS, N, id="just above the upper edge: straddles"),
        pytest.param(12.0, LOW21 - EPS, C, id="wholly below, measurably faster: changed"),
        pytest.param(HIGH21 + EPS, 40.0, C, id="wholly above: changed"),
        pytest.param(0.4, 0.5, X, id="the other way round"),
        pytest.param(EDGE, NO_DIFFERENCE, X, id="exactly the no-difference band: no measurable difference"),
        pytest.param(0.95, 1.5, X, id="no measurable difference, band excluded"),
        pytest.param(1.01, 20.0, N, id="not measurable yet reaching into the band"),
    ],
)
def test_factor_decides_by_the_whole_ci(low, high, verdict):
    assert decide(Rule("factor", claimed=21), ratio(low, high)).verdict == verdict


def test_factor_uses_the_ci_not_the_point_estimate():
    # Point estimates inside (20) and outside (17) the band; both CIs reach across its lower edge.
    assert decide(Rule("factor", claimed=21), ratio(10.0, 25.0, value=20.0)).verdict == N
    assert decide(Rule("factor", claimed=21), ratio(16.0, 18.5, value=17.0)).verdict == N


def test_one_measurement_cannot_reproduce_two_figures_of_one_article():
    """The ×1.5 band of old reproduced seed 000's "21x" and "30x" with one ratio (25×); the tolerance of a
    published factor keeps their bands apart, and no ratio reproduces both."""
    for value in (22.0, 25.0, 26.0, 24.0):
        verdicts = [decide(Rule("factor", claimed=claim), ratio(value, value)).verdict for claim in (21, 30)]
        assert R not in verdicts or verdicts.count(R) == 1, (value, verdicts)
    assert 21 * F < 30 / F
    old_band = (30 / 1.5, 21 * 1.5)  # 20 … 31.5: inside both old bands
    assert [decide(Rule("factor", claimed=c), ratio(*old_band)).verdict for c in (21, 30)] == [N, N]


@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        pytest.param(1.35, 1.6, R, id="inside 1.30-1.73 and measurable"),
        pytest.param(0.99, 1.01, X, id="no measurable difference"),
        pytest.param(1.0, 1.4, N, id="reaching into the band but not measurable"),
        pytest.param(NO_DIFFERENCE, 1.4, N, id="lower end exactly at the significance edge: not measurable"),
        pytest.param(NO_DIFFERENCE + EPS, 1.2, C, id="just measurable, wholly below the band"),
        pytest.param(1.8, 2.5, C, id="measurable, above the band"),
        pytest.param(0.8, 0.9, X, id="measurably slower"),
    ],
)
def test_a_factor_claim_between_1_and_2(low, high, verdict):
    assert decide(Rule("factor", claimed=1.5), ratio(low, high)).verdict == verdict


@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        pytest.param(0.45, 0.55, R, id="slower by about half, inside 0.435-0.575"),
        pytest.param(0.1, 0.2, C, id="far slower: changed"),
        pytest.param(0.55, 0.6, N, id="reaching across 0.575"),
        pytest.param(1.5, 2.0, X, id="faster: the other way round"),
        pytest.param(0.99, 1.01, X, id="no measurable difference"),
    ],
)
def test_a_factor_claim_below_1(low, high, verdict):
    assert decide(Rule("factor", claimed=0.5), ratio(low, high)).verdict == verdict


def test_a_factor_is_printed_as_published():
    decision = decide(Rule("factor", claimed=3), ratio(2.1, 2.3))
    assert decision.reason.startswith("claimed 3x (within ×/÷ 1.15: 2.61–3.45×)")
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
        pytest.param(1 / S, S, R, id="exactly on both edges"),
        pytest.param(1 / S + EPS, S - EPS, R, id="just inside"),
        pytest.param(1 / S - EPS, 1.0, N, id="just outside below: straddles"),
        pytest.param(1.05, S + EPS, N, id="just outside above: straddles, not changed"),
        pytest.param(S + EPS, 1.4, X, id="wholly outside above"),
        pytest.param(0.5, 1 / S - EPS, X, id="wholly outside below"),
        pytest.param(1.21, 1.26, X, id="the AES key-length ratio the old 1.25 band reproduced"),
    ],
)
def test_similar_decides_by_the_whole_ci(low, high, verdict):
    assert decide(Rule("similar"), ratio(low, high)).verdict == verdict


@pytest.mark.parametrize(
    ("samples", "verdict"),
    [((MIN_SAMPLES, MIN_SAMPLES), R), ((MIN_SAMPLES - 1, 40), U), ((40, MIN_SAMPLES - 1), U)],
)
def test_each_side_needs_the_fewest_samples_with_a_95_percent_ci(samples, verdict):
    decision = decide(Rule("similar"), ratio(0.95, 1.05, samples=samples))
    assert decision.verdict == verdict
    if verdict == U:
        assert "too few samples for a 95% CI" in decision.reason


def test_the_fewest_samples_is_what_a_median_ci_needs():
    import numpy as np

    from phpcb.statistics.stats import median_ci

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
    text = wording.measured(ranked(("x", 1100.0, 1200.0)))
    assert "e+0" not in text
    assert "1,150" in text


# Edges the cases above leave open: a CI touching an edge from outside, touching CIs, a name not
# measured where the claim puts it first, an item ahead of its claimed place, the slowest end.
def test_a_ci_touching_the_band_from_outside_is_inconclusive_the_band_being_closed():
    assert decide(Rule("factor", claimed=21), ratio(12.0, LOW21)).verdict == N
    assert decide(Rule("factor", claimed=21), ratio(HIGH21, 40.0)).verdict == N
    assert decide(Rule("similar"), ratio(S, 1.4)).verdict == N


def test_a_ci_ending_exactly_at_the_lower_no_difference_edge_is_not_measurably_slower():
    assert decide(Rule("faster"), ratio(0.9, EDGE)).verdict == N
    assert decide(Rule("factor", claimed=21), ratio(0.9, EDGE)).verdict == X, "excludes the band either way"


def test_touching_cis_are_a_tie():
    touching = ranked(("a", 1.0, 2.0), ("b", 2.0, 3.0), ("c", 4.0, 5.0))
    assert decide(Rule("rank", claimed=["a"]), touching).verdict == N
    assert decide(Rule("top_set", claimed=["b"]), ranked(("a", 1.0, 2.0), ("b", 2.0, 3.0))).verdict == N


def test_a_name_not_measured_could_be_first():
    assert decide(Rule("rank", claimed=["zz", "b"]), SEPARATE).verdict == N


def test_an_item_ahead_of_its_claimed_place_is_off_too():
    # a is first, claimed fourth: three places off, though b, c and d are each only one off.
    assert decide(Rule("rank", claimed=["b", "c", "d", "a"]), SEPARATE).verdict == X


def test_slowest_first_reads_the_order_from_the_slow_end():
    assert decide(Rule("top_set", claimed=["a1"], slowest_first=True), SIX).verdict == X
    assert decide(Rule("top_set", claimed=["c2"], slowest_first=True), SIX).verdict == R
    tie = ranked(("a", 1.0, 1.1), ("b", 2.0, 3.0), ("c", 2.5, 3.5))
    assert decide(Rule("top_set", claimed=["c"], slowest_first=True), tie).verdict == N
    assert decide(Rule("top_set", claimed=["a"], slowest_first=True), tie).verdict == X
    assert decide(Rule("rank", claimed=["c", "b"], slowest_first=True), tie).verdict == N


# What a reader sees: each reason and measurement, word for word.
ORDERED = RankResult(
    (Ranked("a", 1.0, 0.9, 1.1), Ranked("b", 20.5, 20.0, 21.0), Ranked("c", 1234.5, 1200.0, 1300.0)), "things", " ms"
)


@pytest.mark.parametrize(
    ("rule", "result", "reason"),
    [
        (
            Rule("factor", claimed=21),
            ratio(19, 23, 21),
            "claimed 21x (within ×/÷ 1.15: 18.3–24.1×); 21× (95% CI 19–23×) lies inside it",
        ),
        (
            Rule("factor", claimed=21),
            ratio(12, 13, 12.5),
            "claimed 21x (within ×/÷ 1.15: 18.3–24.1×); 12.5× (95% CI 12.0–13.0×) lies wholly below it",
        ),
        (
            Rule("factor", claimed=21),
            ratio(34, 36, 35),
            "claimed 21x (within ×/÷ 1.15: 18.3–24.1×); 35.0× (95% CI 34.0–36.0×) lies wholly above it",
        ),
        (
            Rule("factor", claimed=21),
            ratio(0.4, 0.5, 0.45),
            "claimed 21x (within ×/÷ 1.15: 18.3–24.1×); the other way round: 0.45× (95% CI 0.40–0.50×)",
        ),
        (
            Rule("factor", claimed=21),
            ratio(0.99, 1.01, 1.0),
            "claimed 21x (within ×/÷ 1.15: 18.3–24.1×); no measurable difference: 1.00× (95% CI 0.99–1.01×)",
        ),
        (
            Rule("factor", claimed=21),
            ratio(12, 20, 16),
            "claimed 21x (within ×/÷ 1.15: 18.3–24.1×); 16× (95% CI 12–20×) reaches across its edge",
        ),
        (
            Rule("factor", claimed=21),
            ratio(0.95, 1.5, 1.2),
            "claimed 21x (within ×/÷ 1.15: 18.3–24.1×); no measurable difference, and 1.2× (95% CI 0.9–1.5×)"
            " excludes the band",
        ),
        (
            Rule("factor", claimed=1.5),
            ratio(1.0, 1.4, 1.2),
            "claimed 1.5x (within ×/÷ 1.15: 1.3–1.72×); 1.2× (95% CI 1.0–1.4×) reaches across the edge of a"
            " measurable difference",
        ),
        (Rule("faster"), ratio(1.1, 1.3, 1.2), "A is faster: 1.2× (95% CI 1.1–1.3×)"),
        (Rule("faster"), ratio(0.8, 0.9, 0.85), "B is faster: 0.85× (95% CI 0.80–0.90×)"),
        (
            Rule("faster"),
            ratio(0.99, 1.01, 1.0),
            "no measurable difference: 1.00× (95% CI 0.99–1.01×) lies within 0.98–1.02×",
        ),
        (
            Rule("faster"),
            ratio(0.99, 1.03, 1.01),
            "1.01× (95% CI 0.99–1.03×) reaches across the edge of a measurable difference (0.98–1.02×)",
        ),
        (
            Rule("similar"),
            ratio(0.96, 1.04, 1.0),
            "no difference worth naming (within ×/÷ 1.1): 1.00× (95% CI 0.96–1.04×) lies within 0.909–1.1×",
        ),
        (
            Rule("similar"),
            ratio(1.3, 1.4, 1.35),
            "no difference worth naming (within ×/÷ 1.1): 1.35× (95% CI 1.30–1.40×) lies wholly outside 0.909–1.1×",
        ),
        (
            Rule("similar"),
            ratio(1.05, 1.15, 1.1),
            "no difference worth naming (within ×/÷ 1.1): 1.10× (95% CI 1.05–1.15×) reaches across an edge of"
            " 0.909–1.1×",
        ),
        (
            Rule("similar"),
            ratio(0.95, 1.05, 1.0, (5, 40)),
            "too few samples for a 95% CI: 5 and 40 (a median's needs 6; somewhere)",
        ),
        (Rule("similar"), ratio(0.0, math.inf, 1.0), "no finite 95% CI (somewhere)"),
        (
            Rule("equal", claimed="1.1", held_then=True),
            FactResult("1.0.1", "t", "doc"),
            "claimed 1.1, found 1.0.1 (source: doc); it held when the article was written",
        ),
        (Rule("equal", claimed=True), FactResult(True, "t", "doc"), "claimed yes, found yes (source: doc)"),
        (
            Rule("equal", claimed=[4, 8]),
            FactResult(None, "t", "doc"),
            "claimed 4, 8, found nothing (false) (source: doc)",
        ),
        (Rule("equal", claimed=[]), FactResult({"a": False}, "t", "doc"), "claimed none, found a: no (source: doc)"),
        (
            Rule("rank", claimed=["a", "c"]),
            ORDERED,
            "claimed a then c; a 1. (a 1.00 ms (95% CI 0.900–1.10)); c 3. (c 1,234 ms (95% CI 1,200–1,300))",
        ),
        (
            Rule("rank", claimed=["a"]),
            ranked(("a", 1.0, 2.0), ("b", 2.0, 3.0)),
            "claimed a; a 1.–2. (a 1.50 (95% CI 1.00–2.00)) (CIs overlap: the order is not decided)",
        ),
        (Rule("rank", claimed=["zz", "y"]), ORDERED, "none of the claimed items was measured: zz, y"),
        (Rule("rank", claimed=["a"]), ORDERED, "claimed a; a 1. (a 1.00 ms (95% CI 0.900–1.10))"),
        (Rule("rank", claimed=["c"], slack=1), ORDERED, "claimed c; c 3. (c 1,234 ms (95% CI 1,200–1,300))"),
        (
            Rule("top_set", claimed=["a", "y", "zz"]),
            ORDERED,
            "1 of the 3 claimed are certainly among the 3 fastest: a; undecided: y, zz"
            " (the undecided ones decide the verdict)",
        ),
        (
            Rule("rank", claimed=["zz", "a"]),
            ORDERED,
            "claimed zz then a; zz not measured; a 1. (a 1.00 ms (95% CI 0.900–1.10))",
        ),
        (
            Rule("top_set", claimed=["a", "c"]),
            ORDERED,
            "1 of the 2 claimed are certainly among the 2 fastest: a; not among them: c (3.)",
        ),
        (
            Rule("top_set", claimed=["c", "b", "zz"]),
            ORDERED,
            "2 of the 3 claimed are certainly among the 3 fastest: b, c; undecided: zz"
            " (the undecided ones decide the verdict)",
        ),
        (
            Rule("top_set", claimed=["a"], slowest_first=True),
            ORDERED,
            "0 of the 1 claimed are certainly among the 1 slowest: none; not among them: a (3.)",
        ),
        (Rule("top_set", claimed=["zz"]), ORDERED, "none of the claimed items was measured"),
        (
            Rule("share"),
            ShareResult(3, 5, (), "w", 2),
            "3 of 5 hold, 2 undecided (the undecided ones decide the verdict)",
        ),
        (Rule("share"), ShareResult(5, 5, (), "w"), "5 of 5 hold"),
        (Rule("share"), ShareResult(0, 0, (), "w"), "nothing to compare: w"),
        (Rule("choice"), ChoiceResult(True, True, ""), "what this site advises"),
        (Rule("choice"), ChoiceResult(True, False, ""), "allowed here, but not what this site advises"),
        (Rule("choice"), ChoiceResult(False, False, ""), "ruled out here by the facts or the numbers"),
        (Rule("choice"), ChoiceResult(False, True, ""), "ruled out here by the facts or the numbers"),
    ],
)
def test_each_reason_word_for_word(rule, result, reason):
    assert decide(rule, result).reason == reason


REFERENCE = (Reference("R", "https://example.org"),)


@pytest.mark.parametrize(
    ("rule", "result"),
    [
        (Rule("equal", claimed=True), FactResult(True, "", "", REFERENCE)),
        (Rule("equal", claimed=False), FactResult(True, "", "", REFERENCE)),
        (Rule("equal", claimed=False, held_then=True), FactResult(True, "", "", REFERENCE)),
        (Rule("share"), ShareResult(1, 1, (), "w", references=REFERENCE)),
        (Rule("choice"), ChoiceResult(True, True, "", REFERENCE)),
        (Rule("choice"), ChoiceResult(True, False, "", REFERENCE)),
        (Rule("choice"), ChoiceResult(False, False, "", REFERENCE)),
    ],
)
def test_a_verdict_carries_the_references_of_its_facts(rule, result):
    assert decide(rule, result).references == REFERENCE


@pytest.mark.parametrize(
    ("result", "rule", "text"),
    [
        (ratio(15, 30, 20), None, "somewhere: A over B, 20× (95% CI 15–30×), n = 20 and 20"),
        (ratio(15, 30, 20, (7, 9)), None, "somewhere: A over B, 20× (95% CI 15–30×), n = 7 and 9"),
        (Unavailable("x"), None, "–"),
        (Unavailable("x", "m"), None, "m"),
        (FactResult(True, "t", "s"), None, "t"),
        (ShareResult(1, 2, ("a", "b"), "w"), None, "w: 1 of 2 (a; b)"),
        (ChoiceResult(True, True, "why"), None, "why"),
        (
            ORDERED,
            None,
            "things: 1. a 1.00 ms (95% CI 0.900–1.10); 2. b 20.5 ms (95% CI 20.0–21.0); "
            "3. c 1,234 ms (95% CI 1,200–1,300)",
        ),
        (
            RankResult((*ORDERED.items, Ranked("d", 2000.0, 1900.0, 2100.0)), "things", " ms"),
            Rule("top_set", pattern="x", slowest_first=True),
            "things, slowest first: 4. of 4 d 2,000 ms (95% CI 1,900–2,100); 3. of 4 c 1,234 ms (95% CI 1,200–1,300); "
            "2. of 4 b 20.5 ms (95% CI 20.0–21.0)",
        ),
        (ranked(("x", 0.00121, 0.00123)), None, "x: 1. x 0.00122 (95% CI 0.00121–0.00123)"),
        (
            RankResult((*ORDERED.items, Ranked("d", 2000.0, 1900.0, 2100.0)), "four", " ms"),
            None,
            "four: 1. a 1.00 ms (95% CI 0.900–1.10); 2. b 20.5 ms (95% CI 20.0–21.0); "
            "3. c 1,234 ms (95% CI 1,200–1,300)",
        ),
        (ranked(("x", 0.0, 0.0)), None, "x: 1. x 0 (95% CI 0–0)"),
        (RankResult((Ranked("x", 1.0, 1.0, math.inf),), "x"), None, "x: 1. x 1.00 (95% CI 1.00–inf)"),
    ],
)
def test_each_measurement_word_for_word(result, rule, text):
    assert wording.measured(result, rule) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "nothing (false)"),
        (True, "yes"),
        (False, "no"),
        ([1, 2], "1, 2"),
        ([], "none"),
        ({"a": 1, "b": [1, 2]}, "a: 1, b: 1, 2"),
        ("s", "s"),
    ],
)
def test_a_fact_in_words(value, text):
    assert wording.plain(value) == text


@pytest.mark.parametrize(
    ("method", "values", "message"),
    [
        ("integer", {"k": "1"}, "expected args.k to be an integer, got '1'"),
        ("integer", {"k": True}, "expected args.k to be an integer, got True"),
        ("number", {"k": "x"}, "expected args.k to be a number, got 'x'"),
        ("text", {"k": 1}, "expected args.k to be text, got 1"),
        ("optional_text", {"k": 1}, "expected args.k to be text, got 1"),
        ("integers", {"k": 1}, "expected args.k to be a list of integers, got 1"),
        ("integers", {"k": [1, True]}, "expected args.k to be a list of integers, got [1, True]"),
        ("integers", {"k": [1, "2"]}, "expected args.k to be a list of integers, got [1, '2']"),
        ("fact", {"fact": "nope"}, "args.fact names no fact 'nope' under facts"),
    ],
)
def test_an_argument_of_the_wrong_kind_names_itself(method, values, message):
    args = Args(values)
    with pytest.raises(ArgumentError) as error:
        getattr(args, method)("k" if method != "fact" else "fact")
    assert str(error.value) == message


def test_arguments_of_the_right_kind_are_read():
    args = Args({"i": 3, "n": 2.5, "t": "x", "l": [1, 2]})
    assert (args.integer("i"), args.number("n"), args.number("i"), args.text("t")) == (3, 2.5, 3.0, "x")
    assert (args.integers("l"), args.optional_text("t"), args.optional_text("missing")) == ([1, 2], "x", None)


def test_a_result_of_the_wrong_kind_names_both_kinds():
    with pytest.raises(TypeError, match=r"^rule factor expects a RatioResult or Ratios, got a ShareResult$"):
        decide(Rule("factor", claimed=2), ShareResult(1, 1, (), "x"))


# A claim judged at several conditions (the sizes a page reads, curves of equal strength): it holds as
# it holds at each; an undecided condition is tried both ways.
def at(*cis: tuple[float, float], missing: tuple[str, ...] = ()) -> Ratios:
    parts = tuple(
        RatioResult("A", "B", Ratio(math.sqrt(lo * hi), lo, hi), f"c{i}", (20, 20)) for i, (lo, hi) in enumerate(cis)
    )
    return Ratios(parts, missing)


INSIDE3, ABOVE3, ACROSS3, NONE = (2.9, 3.1), (4.2, 4.4), (3.3, 3.6), (0.99, 1.01)


@pytest.mark.parametrize(
    ("cis", "verdict"),
    [
        pytest.param((INSIDE3, INSIDE3), R, id="inside at every size"),
        pytest.param((INSIDE3, ABOVE3), C, id="the claimed size at one, larger at the other: changed"),
        pytest.param((INSIDE3, NONE), C, id="true at one size, no difference at the other"),
        pytest.param((NONE, NONE), X, id="refuted at every size"),
        pytest.param((ABOVE3, NONE), C, id="larger at one size, no difference at the other: changed"),
        pytest.param((INSIDE3, ACROSS3), N, id="inside, and undecided: reproduced or changed"),
        pytest.param((ABOVE3, ACROSS3), C, id="changed whatever the undecided one turns out"),
        pytest.param((NONE, ACROSS3), N, id="refuted, and undecided: refuted or changed"),
    ],
)
def test_a_factor_at_several_sizes(cis, verdict):
    assert decide(Rule("factor", claimed=3), at(*cis)).verdict == verdict


@pytest.mark.parametrize(
    ("cis", "verdict"),
    [
        pytest.param(((0.98, 1.02), (0.99, 1.01)), R, id="no difference at every pair"),
        pytest.param(((1.9, 2.0), (3.2, 3.3)), X, id="far apart at every pair: refuted"),
        pytest.param(
            ((1.9, 2.0), (0.99, 1.01), (3.2, 3.3)), C, id="one pair alike, two not: it holds in part, so changed"
        ),
        pytest.param(
            ((1.0, 1.03), (1.0, 1.02), (1.12, 1.18), (1.24, 1.29), (0.98, 1.02), (1.10, 1.14)),
            C,
            id="issue 46: the key length, alike at 3 conditions, a tenth apart at 2, one undecided: changed",
        ),
        pytest.param(((0.98, 1.02), (1.05, 1.15)), N, id="alike, and undecided: reproduced or changed"),
        pytest.param(((1.9, 2.0), (1.05, 1.15)), N, id="one pair far apart, the other undecided: refuted or changed"),
    ],
)
def test_no_difference_at_some_conditions_and_not_at_others_has_changed(cis, verdict):
    assert decide(Rule("similar"), at(*cis)).verdict == verdict


def test_faster_at_some_conditions_and_not_at_others_has_changed():
    assert decide(Rule("faster"), at((1.5, 1.6), (1.2, 1.3))).verdict == R
    assert decide(Rule("faster"), at((1.5, 1.6), (0.8, 0.9))).verdict == C
    assert decide(Rule("faster"), at((0.5, 0.6), (0.8, 0.9))).verdict == X, "refuted only where it fails at every one"


def test_a_factor_stated_for_every_row_of_a_table_is_judged_at_each():
    """Issue 46: "nearly 30x" was a share of rows inside 30 ×/÷ 1.15 (3 of 18: refuted) though OpenSSL was
    12.7-44× faster in every row; at each row, it holds at 3 and is larger or smaller at 15: changed."""
    rows = [(43.0, 45.0)] * 9 + [(31.4, 33.0)] * 3 + [(20.5, 23.6)] * 3 + [(12.5, 14.8)] * 3
    judged = decide(Rule("factor", claimed=30, published="nearly 30x"), at(*rows))
    assert judged.verdict == C
    assert judged.reason.startswith(
        "claimed nearly 30x (within ×/÷ 1.15: 26.1–34.5×) at each of 18 conditions (3 reproduced, 15 changed); "
    )
    faster_nowhere = decide(Rule("factor", claimed=30), at((0.5, 0.6), (0.98, 1.01)))
    assert faster_nowhere.verdict == X


@pytest.mark.parametrize(
    ("rule", "result", "verdict"),
    [
        pytest.param(Rule("similar", held_then=True), ratio(1.9, 2.0), C, id="similar, refuted today"),
        pytest.param(Rule("similar", held_then=True), ratio(0.98, 1.02), R, id="reproduced stays reproduced"),
        pytest.param(Rule("similar", held_then=True), ratio(1.05, 1.15), N, id="inconclusive stays inconclusive"),
        pytest.param(Rule("factor", claimed=3, held_then=True), ratio(0.5, 0.6), C, id="a factor the other way"),
        pytest.param(Rule("faster", held_then=True), ratio(0.5, 0.6), C, id="faster, the other way today"),
        pytest.param(Rule("top_set", claimed=["c1", "c2"], held_then=True), SIX, C, id="none of its top set"),
        pytest.param(Rule("share", held_then=True), ShareResult(0, 5, (), "w"), C, id="no part holds today"),
        pytest.param(Rule("choice", held_then=True), ChoiceResult(False, False, ""), C, id="ruled out today"),
        pytest.param(Rule("faster", held_then=True), Unavailable("x"), U, id="not testable stays so"),
    ],
)
def test_a_claim_true_when_written_and_refuted_today_has_changed(rule, result, verdict):
    judged = decide(rule, result)
    assert judged.verdict == verdict
    assert judged.reason.endswith("; it held when the article was written") == (verdict == C)


def test_only_what_held_then_is_spared_refuted():
    assert decide(Rule("similar"), ratio(1.9, 2.0)).verdict == X
    assert decide(Rule("top_set", claimed=["c1", "c2"]), SIX).verdict == X
    assert rules.decide(Rule("similar", held_then=True), ratio(1.9, 2.0)).outdated
    assert not rules.decide(Rule("similar"), ratio(1.9, 2.0)).outdated
    assert not rules.decide(Rule("factor", claimed=3, held_then=True), ratio(4.2, 4.4)).outdated, "changed anyway"


# An order the page states as groups no measurement separates (the curves page's "c2tnb ≈ prime < secp ≈ …").
FAMILIES = RankResult(
    (
        Ranked("c2tnb", 0.1387, 0.1385, 0.1392),
        Ranked("prime", 0.1388, 0.1383, 0.1391),
        Ranked("secp", 0.1512, 0.1508, 0.1516),
        Ranked("c2pnb", 0.1572, 0.1568, 0.1577),
        Ranked("sect", 0.1619, 0.1617, 0.1623),
        Ranked("brainpool", 0.1627, 0.1624, 0.1630),
    ),
    "groups",
    " %",
    (("c2tnb", "prime"), ("secp", "c2pnb", "sect", "brainpool")),
)


def test_a_rank_the_page_states_as_groups_is_read_from_its_groups():
    """Issue 46: "prime, then brainpool, then secp" was refuted on the within-run CIs (brainpool sixth),
    while the curves page says secp, c2pnb, sect and brainpool do not differ across runs."""
    judged = decide(Rule("rank", claimed=["prime", "brainpool", "secp"]), FAMILIES)
    assert judged.verdict == C, "brainpool is certainly not second (two are ahead), but may be third"
    assert "brainpool 3.–6." in judged.reason
    assert judged.reason.endswith("; the page's order: c2tnb ≈ prime < secp ≈ c2pnb ≈ sect ≈ brainpool")
    by_cis = dataclasses.replace(FAMILIES, groups=())
    assert decide(Rule("rank", claimed=["prime", "brainpool", "secp"]), by_cis).verdict == X, "as of old"
    first = decide(Rule("rank", claimed=["prime"]), FAMILIES)
    assert (first.verdict, first.reason.endswith("(no measurable difference: the order is not decided)")) == (N, True)
    assert decide(Rule("rank", claimed=["sect"], slack=0), FAMILIES).verdict == X, "certainly 3rd-6th, not 1st"
    assert decide(Rule("rank", claimed=["zz", "prime"]), FAMILIES).verdict == N, "a name in no group: anywhere"


def test_a_top_set_the_page_states_as_groups_is_read_from_its_groups():
    assert decide(Rule("top_set", claimed=["prime", "c2tnb"]), FAMILIES).verdict == R
    assert decide(Rule("top_set", claimed=["prime", "secp"]), FAMILIES).verdict == C, "secp is behind both"
    assert decide(Rule("top_set", claimed=["prime"]), FAMILIES).verdict == N, "tied with c2tnb for first"
    assert decide(Rule("top_set", claimed=["brainpool"], slowest_first=True), FAMILIES).verdict == N
    slowest = decide(Rule("top_set", claimed=["secp", "c2pnb", "sect", "brainpool"], slowest_first=True), FAMILIES)
    assert slowest.verdict == R


def test_conditions_too_few_samples_left_aside_and_the_missing_named():
    thin = RatioResult("A", "B", Ratio(3.0, 2.9, 3.1), "thin", (3, 3))
    mixed = Ratios((*at(INSIDE3).parts, thin), ("512 KiB: not measured in this run",))
    judged = decide(Rule("factor", claimed=3), mixed)
    assert judged.verdict == R, "decided by the conditions that can decide"
    assert judged.reason == (
        "claimed 3x (within ×/÷ 1.15: 2.61–3.45×) at each of 3 conditions (1 reproduced); c0: reproduced (inside); "
        "thin: not testable (too few samples for a 95% CI: 3 and 3 (a median's needs 6; thin)); "
        "512 KiB: not measured in this run"
    )
    only_thin = decide(Rule("factor", claimed=3), Ratios((thin,)))
    assert (only_thin.verdict, only_thin.reason.startswith("too few samples")) == (U, True)
    none = decide(Rule("factor", claimed=3), Ratios((), ("16 KiB: not in this run",)))
    assert (none.verdict, none.reason) == (U, "none measured in this run: 16 KiB: not in this run")


def test_each_condition_is_worded_with_the_side_it_falls_on():
    judged = decide(Rule("similar"), at((1.9, 2.0), (0.99, 1.01), (0.5, 0.6)))
    assert judged.reason == (
        "no difference worth naming (within ×/÷ 1.1) at each of 3 conditions (1 reproduced, 2 refuted); "
        "c0: refuted (wholly above); c1: reproduced (inside); c2: refuted (wholly below)"
    )
    assert wording.measured(at((1.9, 2.0), missing=("x: not measured in this run",))) == (
        "c0: A over B, 1.95× (95% CI 1.90–2.00×), n = 20 and 20; x: not measured in this run"
    )


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        (vocabulary.MISSING, "why"),
        ("samples", "why"),
        ("machine", "this machine cannot run what the claim speaks of: why"),
        ("environment", "an observation of an environment that cannot be re-run: why"),
        ("preference", "a design preference, not a statement of fact: why"),
        ("unsourced", "an attribution to a source that could not be found: why"),
    ],
)
def test_not_testable_says_which_kind_and_why(kind, reason):
    judged = decide(Rule("equal", claimed=True), Unavailable("why", kind=kind))
    assert (judged.verdict, judged.reason) == (U, reason)


def test_every_tolerance_is_narrower_than_the_gap_it_must_keep_and_wider_than_no_difference():
    assert 1 < NO_DIFFERENCE < SIMILAR_TOLERANCE.factor < FACTOR_TOLERANCE.factor
    assert FACTOR_TOLERANCE.factor**2 < 30 / 21, "seed 000's 21x and 30x keep their bands apart"
    assert {t.rule for t in vocabulary.TOLERANCES} <= set(vocabulary.RULES)

"""The statistics at their edges: the values where a rule switches (5 vs 6 samples, 6 pairs, the 2 %
noise threshold, Tukey's fences) and samples that time several operations each. A mutant that moves
an edge by one, or multiplies where it should divide, fails here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from phpcb.compare.comparison import (
    ALPHA,
    MIN_SAMPLES,
    THRESHOLD,
    CaseComparison,
    Verdict,
    _draft,
    _key_text,
    _names,
    _within_log_sd,
    normal_two_sided_p,
    verdict,
)
from phpcb.data.schema import Measure
from phpcb.statistics import stats

TIMED = Measure("elapsed_ns", "iterations")


def test_a_sample_of_several_operations_is_divided_by_their_count():
    assert stats.per_op_ns([1000, 900], [4, 3]).tolist() == [250.0, 300.0]
    rows = [
        {"case": "a", "sample": 1, "iterations": 4, "elapsed_ns": 400},
        {"case": "a", "sample": 0, "iterations": 2, "elapsed_ns": 300},
        {"case": "b", "sample": 0, "iterations": 5, "elapsed_ns": 50},
    ]
    found = stats.per_op_by_case(rows, lambda row: row["case"], TIMED)
    assert found["a"].tolist() == [150.0, 100.0], "each sample over its own count, in the order taken"
    assert found["b"].tolist() == [10.0]


def test_six_samples_are_the_fewest_with_a_finite_interval():
    five, six = np.arange(1.0, 6.0), np.arange(1.0, 7.0)
    assert stats.median_ci(five) == (-math.inf, math.inf)
    assert stats.relative_half_width(five) == math.inf
    assert stats.median_ci(six) == (1.0, 6.0)
    assert stats.relative_half_width(six) == pytest.approx(5.0 / 7.0)


def test_within_target_includes_the_target_itself():
    values = np.array([99.0, 99.5, 100.0, 100.0, 100.5, 101.0])  # CI 99-101 around a median of 100
    assert stats.relative_half_width(values) == pytest.approx(0.01)
    assert stats.within_target(values, 0.01)
    assert not stats.within_target(values, 0.0099)


def test_six_pairs_are_the_fewest_a_paired_ratio_takes():
    a, b = np.arange(2.0, 14.0, 2.0), np.arange(1.0, 7.0)
    assert stats.paired_median_ratio(a, b).value == 2.0
    with pytest.raises(ValueError, match="expected at least 6 paired samples, got 5"):
        stats.paired_median_ratio(a[:5], b[:5])
    assert stats.ratio_between(a[:5], b[:5], paired=True) == stats.ratio_of_medians(a[:5], b[:5]), (
        "under six pairs, the independent bootstrap"
    )


@pytest.mark.parametrize(
    ("low", "high", "significant"),
    [
        (1.02, 1.10, False),  # at the threshold: not beyond it
        (1.0201, 1.10, True),
        (0.90, 1 / 1.02, False),
        (0.90, 1 / 1.0201, True),
        (0.99, 1.01, False),
    ],
)
def test_a_ratio_is_significant_only_when_its_whole_interval_lies_beyond_two_percent(low, high, significant):
    assert stats.Ratio((low + high) / 2, low, high).significant is significant


def test_a_sample_on_tukeys_fence_is_not_an_outlier_one_beyond_it_is():
    core = list(np.arange(0.0, 9.0))  # with one more value at either end: Q1, Q3 2.25, 6.75 (IQR 4.5) above
    inner, outer = 6.75 + 1.5 * 4.5, 6.75 + 3.0 * 4.5
    assert stats.tukey_outliers(np.array([*core, inner])) == stats.Outliers(0, 0)
    assert stats.tukey_outliers(np.array([*core, inner + 0.01])) == stats.Outliers(1, 0)
    assert stats.tukey_outliers(np.array([*core, outer])) == stats.Outliers(1, 0)
    assert stats.tukey_outliers(np.array([*core, outer + 0.01])) == stats.Outliers(1, 1)
    low_fence = 1.25 - 1.5 * 4.5  # Q1 1.25, Q3 5.75 with the value below
    assert stats.tukey_outliers(np.array([low_fence, *core])) == stats.Outliers(0, 0)
    assert stats.tukey_outliers(np.array([low_fence - 0.01, *core])) == stats.Outliers(1, 0)


def test_a_case_needs_five_samples_on_each_side_to_be_compared():
    assert MIN_SAMPLES == 5
    few, enough = np.full(MIN_SAMPLES - 1, 100.0), np.linspace(100.0, 110.0, MIN_SAMPLES)
    assert _draft(("k",), few, enough).verdict is Verdict.TOO_FEW
    assert _draft(("k",), enough, few).verdict is Verdict.TOO_FEW
    assert _draft(("k",), enough, enough * 1.0).verdict is not Verdict.TOO_FEW


def test_the_bootstrap_gives_the_same_interval_for_the_same_data():
    """With 200 continuous samples an unseeded bootstrap would almost never repeat its bounds."""
    rng = np.random.default_rng(3)
    a, b = rng.normal(2000, 100, 200), rng.normal(1000, 50, 200)
    first, second = stats.ratio_of_medians(a, b), stats.ratio_of_medians(a, b)
    assert (first.low, first.high) == (second.low, second.high)
    assert first.low < first.value < first.high


def test_one_sample_has_no_spread_and_two_have_the_sample_deviation():
    one = stats.summarize(np.array([5.0]))
    assert (one.n, one.median_ns, one.cv) == (1, 5.0, 0.0)
    two = stats.summarize(np.array([1.0, 3.0]))
    assert two.cv == pytest.approx(math.sqrt(2.0) / 2.0), "ddof=1: the sample's, not the population's"
    assert stats.summarize(np.zeros(7)).cv == 0.0, "no relative spread around a zero mean"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: stats.summarize(np.array([])), "cannot summarize zero samples"),
        (lambda: stats.benjamini_hochberg([0.5, 1.5]), r"p-values must lie in \[0, 1\]"),
        (
            lambda: stats.benjamini_hochberg([[0.5]]),
            r"expected a one-dimensional sequence of p-values, got shape \(1, 1\)",
        ),
    ],
)
def test_bad_input_is_refused_with_its_reason(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_samples_without_a_sample_number_keep_the_order_of_their_rows():
    rows = [{"case": "a", "iterations": 1, "elapsed_ns": value} for value in (30, 10, 20)]
    assert stats.per_op_by_case(rows, lambda row: row["case"], TIMED)["a"].tolist() == [30.0, 10.0, 20.0]


GROUP_A = [np.linspace(90.0, 110.0, 21), np.linspace(190.0, 210.0, 21)]
GROUP_B = [np.linspace(45.0, 55.0, 21)]


def test_a_ratio_of_weighted_mean_medians_is_their_quotient_with_a_covering_interval():
    ratio = stats.ratio_of_mean_medians(GROUP_A, [1.0, 0.5], GROUP_B, [2.0])
    assert ratio.value == pytest.approx(((100.0 * 1.0 + 200.0 * 0.5) / 2) / (50.0 * 2.0))
    assert ratio.low < ratio.value < ratio.high
    assert ratio.high < 1.2
    assert ratio.low > 0.8


@pytest.mark.parametrize(
    ("a", "a_weights", "b", "b_weights"),
    [
        ([], [], GROUP_B, [1.0]),
        (GROUP_A, [1.0, 1.0], [], []),
        (GROUP_A, [1.0], GROUP_B, [1.0]),
        (GROUP_A, [1.0, 1.0], GROUP_B, [1.0, 1.0]),
    ],
)
def test_a_ratio_of_mean_medians_needs_one_weight_per_group_and_a_group_each_side(a, a_weights, b, b_weights):
    with pytest.raises(ValueError, match="expected one weight per group, and at least one group on each side"):
        stats.ratio_of_mean_medians(a, a_weights, b, b_weights)


def test_equal_constant_samples_are_identical_and_anything_else_is_judged():
    same = np.full(MIN_SAMPLES, 100.0)
    identical = _draft(("k",), same, same.copy())
    assert identical.verdict is Verdict.IDENTICAL
    assert (identical.ratio, identical.ratio_low, identical.ratio_high) == (1.0, 1.0, 1.0)
    assert identical.base is not None
    assert identical.new is not None
    assert identical.key == ("k",)
    varying = np.linspace(99.0, 101.0, MIN_SAMPLES)
    for base, new in [(same, np.full(MIN_SAMPLES, 101.0)), (same, varying), (varying, same)]:
        assert _draft(("k",), base, new).verdict is not Verdict.IDENTICAL


def test_a_ratio_needs_a_positive_base_median_however_small():
    tiny = _draft(("k",), np.full(MIN_SAMPLES, 0.5), np.full(MIN_SAMPLES, 1.0))
    assert tiny.ratio == 2.0
    assert _draft(("k",), np.zeros(MIN_SAMPLES), np.ones(MIN_SAMPLES)).ratio is None


@pytest.mark.parametrize(
    ("residual", "p", "expected"),
    [
        (1 / (1 + THRESHOLD), 0.001, Verdict.SAME),  # at the threshold: not beyond it
        (1 / (1 + THRESHOLD) - 1e-9, 0.001, Verdict.FASTER),
        (1 + THRESHOLD, 0.001, Verdict.SAME),
        (1 + THRESHOLD + 1e-9, 0.001, Verdict.SLOWER),
        (2.0, ALPHA, Verdict.SAME),  # at α: not below it
        (2.0, ALPHA - 1e-9, Verdict.SLOWER),
        (0.99, 0.001, Verdict.SAME),
    ],
)
def test_faster_or_slower_needs_both_the_test_and_the_threshold(residual, p, expected):
    assert verdict(residual, p) is expected


def test_the_normal_p_value_is_two_sided():
    assert normal_two_sided_p(1.959963984540054) == pytest.approx(0.05)
    assert normal_two_sided_p(-1.959963984540054) == pytest.approx(0.05)
    assert normal_two_sided_p(0.0) == 1.0


def test_key_values_are_written_as_the_csv_writes_them():
    assert [_key_text(True), _key_text(False), _key_text(0), _key_text("gcm")] == ["true", "false", "0", "gcm"]
    assert _names(["aead", "jwt"]) == "aead, jwt"
    assert _names([]) == "no experiment with results"


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (0.9, 1.1, (math.log(1.1) - math.log(0.9)) / (2 * 1.959963984540054)),
        (None, 1.1, 0.0),
        (0.9, None, 0.0),
        (0.9, math.inf, 0.0),
        (0.0, 1.1, 0.0),
        (-0.1, 1.1, 0.0),
        (1.0, 1.1, (math.log(1.1) - math.log(1.0)) / (2 * 1.959963984540054)),
    ],
)
def test_the_within_run_spread_of_a_ratio_comes_from_its_finite_positive_interval(low, high, expected):
    case = CaseComparison(("k",), None, None, Verdict.SAME, ratio=1.0, ratio_low=low, ratio_high=high)
    assert _within_log_sd(case) == pytest.approx(expected)


def test_the_declared_measure_decides_what_is_divided():
    """A table that times one operation per sample (no iterations column) and names its time otherwise."""
    rows = [{"case": "a", "wall_ns": 30, "elapsed_ns": 1, "iterations": 10}, {"case": "a", "wall_ns": 60}]
    assert stats.per_op_by_case(rows, lambda row: row["case"], Measure("wall_ns", None))["a"].tolist() == [30.0, 60.0]

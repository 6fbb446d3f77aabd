"""Precision, pairing and outliers in stats.py, against numpy and scipy."""

import math

import numpy as np
import pytest
import scipy  # scipy.stats loads on first use: importing it here costs each pytest worker 0.4 s

from phpcb.statistics import stats


def scipy_median_ci(values: np.ndarray) -> tuple[float, float]:
    interval = scipy.stats.quantile_test(values, q=float(np.median(values)), p=0.5).confidence_interval(0.95)
    return float(interval.low), float(interval.high)


@pytest.mark.parametrize("n", [6, 7, 20, 25, 101, 400])
def test_the_half_width_is_half_scipys_interval_over_numpys_median(n):
    values = np.random.default_rng(n).lognormal(10, 0.05, n)
    low, high = scipy_median_ci(values)
    assert stats.relative_half_width(values) == pytest.approx((high - low) / 2 / np.median(values), rel=1e-12)


def test_without_a_finite_interval_the_half_width_is_infinite():
    assert stats.relative_half_width(np.array([1.0, 2, 3, 4, 5])) == math.inf
    assert not stats.within_target(np.array([1.0, 1, 1, 1, 1]), 0.5)


def test_within_target_compares_the_half_width_with_the_target():
    # Seven samples: the CI is their range, 97 … 103 around a median of 100: ±3 %.
    values = np.array([100.0, 103, 97, 101, 99, 102, 98])
    assert stats.relative_half_width(values) == pytest.approx(0.03)
    assert stats.within_target(values, 0.031)
    assert not stats.within_target(values, 0.029)


def numpy_tukey(values: np.ndarray, k: float) -> int:
    q1, q3 = np.percentile(values, [25, 75])
    iqr = scipy.stats.iqr(values)
    return int(np.sum((values < q1 - k * iqr) | (values > q3 + k * iqr)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tukey_outliers_match_the_fences_computed_with_numpy_and_scipy(seed):
    rng = np.random.default_rng(seed)
    values = np.concatenate([rng.normal(1000, 10, 200), rng.normal(1000, 10, 5) + np.array([40, 60, 80, 120, -70])])
    outliers = stats.tukey_outliers(values)
    assert outliers.mild == numpy_tukey(values, 1.5)
    assert outliers.severe == numpy_tukey(values, 3.0)
    assert outliers.mild >= 4, "the planted far values are found"
    assert outliers.severe <= outliers.mild


def test_constant_samples_have_no_outliers():
    assert stats.tukey_outliers(np.full(9, 5.0)) == stats.Outliers(0, 0)


def test_the_paired_ratio_is_the_median_of_per_round_ratios_with_scipys_interval():
    rng = np.random.default_rng(4)
    a, b = rng.lognormal(8, 0.05, 30), rng.lognormal(7, 0.05, 30)
    ratio = stats.paired_median_ratio(a, b)
    assert ratio.value == pytest.approx(np.median(a / b))
    assert (ratio.low, ratio.high) == pytest.approx(scipy_median_ci(a / b))


def test_the_paired_difference_is_the_median_of_per_round_differences_with_scipys_interval():
    rng = np.random.default_rng(5)
    b = rng.lognormal(10, 0.05, 30)
    a = b + rng.normal(2_500, 100, 30)
    estimate = stats.paired_median_difference(a, b)
    assert estimate.value == pytest.approx(np.median(a - b))
    assert (estimate.low, estimate.high) == pytest.approx(scipy_median_ci(a - b))
    with pytest.raises(ValueError, match="at least 6 paired samples, got 5"):
        stats.paired_median_difference(a[:5], b)


def test_rounds_only_one_side_has_are_left_out():
    a, b = np.array([2.0, 4, 6, 8, 10, 12, 99, 99]), np.array([1.0, 2, 3, 4, 5, 6])
    assert stats.paired_median_ratio(a, b) == stats.Ratio(2.0, 2.0, 2.0)


def test_too_few_pairs_are_an_error_and_ratio_between_falls_back():
    a, b = np.array([2.0, 4, 6, 8, 10]), np.array([1.0, 2, 3, 4, 5])
    with pytest.raises(ValueError, match="at least 6 paired samples, got 5"):
        stats.paired_median_ratio(a, b)
    assert stats.ratio_between(a, b, paired=True) == stats.ratio_of_medians(a, b)


def drifting_samples(seed: int, interleaved: bool) -> tuple[np.ndarray, np.ndarray]:
    """A is truly 1.5× B's time; the machine slows down 0.5 % per sample taken; 2 % noise. Interleaved
    as the runner does it: round r takes one sample of each, A first in even rounds, B in odd ones."""
    rng = np.random.default_rng(seed)
    n = 40
    rounds = np.arange(n)
    if interleaved:
        a_first = rounds % 2 == 0
        order = np.stack([2 * rounds + ~a_first, 2 * rounds + a_first], axis=1)
    else:
        order = np.stack([rounds, n + rounds], axis=1)
    slowdown = 1 + 0.005 * order
    noise = rng.normal(1, 0.02, (n, 2))
    a = 1500.0 * slowdown[:, 0] * noise[:, 0]
    b = 1000.0 * slowdown[:, 1] * noise[:, 1]
    return a, b


def test_interleaving_and_pairing_remove_a_drift_from_the_ratio():
    seeds = range(40)
    sequential = [stats.ratio_of_medians(*drifting_samples(seed, interleaved=False)) for seed in seeds]
    paired = [stats.paired_median_ratio(*drifting_samples(seed, interleaved=True)) for seed in seeds]
    # One case after the other, the drift moves the ratio ~20 % off and its CI never sees it;
    # in rotation and paired, the CI covers the truth about as often as a 95 % CI should.
    assert sum(r.low <= 1.5 <= r.high for r in sequential) == 0
    assert sum(r.low <= 1.5 <= r.high for r in paired) >= 34
    assert max(r.high - r.low for r in paired) < 0.05 * 1.5


def test_the_share_of_the_gap_a_per_call_cost_explains():
    rng = np.random.default_rng(5)
    small = rng.normal(2_000, 40, 30)  # 2 µs per call
    large = rng.normal(12_000, 100, 30)  # 12 µs at 16 KiB
    share = stats.share_of_gap(small, large, native_ns=4_000.0)
    assert share.value == pytest.approx(np.median(small) / (np.median(large) - 4_000.0))
    assert share.low < 0.25 < share.high  # 2 of the 8 µs gap
    assert share.high - share.low < 0.02


def test_the_share_of_constant_samples_is_a_point():
    share = stats.share_of_gap(np.full(7, 2.0), np.full(7, 10.0), native_ns=6.0)
    assert (share.value, share.low, share.high) == (0.5, 0.5, 0.5)

"""The statistics of `compare`, checked against scipy: the Mann–Whitney p-value, Benjamini–Hochberg,
the exact null distribution of U, and the ratio CI obtained by inverting the test."""

import math

import numpy as np
import pytest
import scipy  # scipy.stats loads on first use: importing it here costs each pytest worker 0.4 s

from phpcb.statistics import stats


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([1.0, 2, 3, 4, 5], [6.0, 7, 8, 9, 10]),  # small, no ties: scipy's exact test
        ([1.0, 2, 2, 3, 3, 3, 4], [3.0, 3, 4, 4, 5, 5, 6]),  # ties: normal approximation with tie correction
        (list(np.random.default_rng(1).lognormal(0, 0.1, 25)), list(np.random.default_rng(2).lognormal(0, 0.1, 30))),
        ([1.0, 2, 3], list(np.arange(4.0, 40.0))),  # one side of 3, the other of 36: exact
        ([5.0, 1, 9, 3, 7, 2, 8, 4], [6.0, 10, 11, 12, 0.5, 13, 14, 15, 16]),  # 8 and 9 without ties: exact
        ([2.0, 2, 2, 2, 2], [2.0, 2, 2, 2, 2]),  # all tied
        ([1.0] * 12, [1.0] * 11 + [2.0]),
        ([1.0, 2, 3, 4, 5, 6, 7, 8, 9], [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5]),  # both 9: normal
    ],
)
def test_the_mann_whitney_p_value_is_scipys_two_sided_one(a, b):
    x, y = np.asarray(a), np.asarray(b)
    expected = scipy.stats.mannwhitneyu(x, y, alternative="two-sided").pvalue
    assert stats.mann_whitney_p(x, y) == pytest.approx(expected, rel=1e-12, abs=1e-300)
    assert stats.mann_whitney_p(y, x) == pytest.approx(expected, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("seed", range(40))
def test_the_mann_whitney_p_value_is_scipys_on_random_samples_with_and_without_ties(seed):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(1, 15)), int(rng.integers(1, 40))
    rounding = [0, 1, 3][seed % 3]  # coarse rounding makes ties
    x = np.round(rng.lognormal(0, 0.3, m) * 10, rounding)
    y = np.round(rng.lognormal(0.1, 0.3, n) * 10, rounding)
    expected = scipy.stats.mannwhitneyu(x, y, alternative="two-sided").pvalue
    assert stats.mann_whitney_p(x, y) == pytest.approx(expected, rel=1e-9, abs=1e-300)


def test_the_mann_whitney_p_value_needs_two_samples():
    with pytest.raises(ValueError, match="non-empty"):
        stats.mann_whitney_p(np.array([]), np.array([1.0]))


@pytest.mark.parametrize("size", [1, 2, 7, 50, 1000])
def test_benjamini_hochberg_matches_scipy_false_discovery_control(size):
    rng = np.random.default_rng(size)
    p = np.concatenate([rng.uniform(0, 1, size), rng.uniform(0, 0.01, size)])
    assert stats.benjamini_hochberg(p) == pytest.approx(scipy.stats.false_discovery_control(p, method="bh"), abs=1e-15)


def test_benjamini_hochberg_with_ties_zeros_and_ones_matches_scipy():
    p = np.array([0.0, 0.01, 0.01, 0.04, 0.04, 0.04, 0.5, 1.0, 1.0, 0.02])
    assert stats.benjamini_hochberg(p) == pytest.approx(scipy.stats.false_discovery_control(p, method="bh"), abs=1e-15)


def test_benjamini_hochberg_keeps_the_input_order_and_of_nothing_gives_nothing():
    adjusted = stats.benjamini_hochberg([0.04, 0.001, 0.03])
    assert list(adjusted) == pytest.approx([0.04, 0.003, 0.04])
    assert stats.benjamini_hochberg([]).size == 0


@pytest.mark.parametrize("bad", [[0.1, math.nan], [1.5], [-0.1], [[0.1, 0.2]]])
def test_benjamini_hochberg_refuses_what_is_not_a_list_of_p_values(bad):
    with pytest.raises(ValueError, match="p-value"):
        stats.benjamini_hochberg(bad)


@pytest.mark.parametrize(("m", "n"), [(1, 1), (3, 4), (5, 5), (7, 9), (12, 10), (4, 20)])
def test_the_exact_null_distribution_of_u_is_scipys(m, n):
    """scipy's exact one-sided p ('less') is P(U ≤ u) for the observed u; random rankings cover the support."""
    cdf = stats.u_null_cdf(m, n)
    assert cdf.size == m * n + 1
    assert cdf[-1] == pytest.approx(1.0)
    rng = np.random.default_rng(m * 100 + n)
    for _ in range(40):
        ranks = rng.permutation(m + n).astype(float)
        x, y = ranks[:m], ranks[m:]
        u = int(np.sum(x[:, None] > y[None, :]))
        expected = scipy.stats.mannwhitneyu(x, y, method="exact", alternative="less").pvalue
        assert cdf[u] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("m", "n", "critical"),
    # Tables of the Mann–Whitney U test, two-sided α = 0.05: reject when U ≤ critical.
    [(5, 5, 2), (8, 8, 13), (10, 10, 23), (20, 20, 127), (5, 10, 8)],
)
def test_the_ci_rank_is_one_past_the_tabled_critical_value(m, n, critical):
    assert stats.shift_ci_rank(m, n) == critical + 1
    assert stats.shift_ci_rank(n, m) == critical + 1


def test_samples_too_small_for_the_confidence_give_no_finite_interval():
    assert stats.shift_ci_rank(3, 3) == 0
    assert stats.shift_ci(np.array([1.0, 2, 3]), np.array([4.0, 5, 6])) == (-math.inf, math.inf)
    assert stats.ratio_ci(np.array([1.0, 2, 3]), np.array([4.0, 5, 6])) == (0.0, math.inf)


def test_beyond_the_exact_sizes_the_normal_approximation_is_within_one_rank_of_exact():
    m = n = stats.EXACT_U_MAX_SIZE + 1
    exact = int(np.searchsorted(stats.u_null_cdf(m, n), 0.025, side="right"))
    assert abs(stats.shift_ci_rank(m, n) - exact) <= 1


@pytest.mark.parametrize(("m", "n", "seed"), [(5, 5, 0), (6, 8, 1), (10, 7, 2), (15, 20, 3)])
def test_the_shift_ci_is_where_scipys_exact_test_stops_rejecting(m, n, seed):
    """Inverting the test: a shift just outside a bound is rejected at 5 %, one just inside is not."""
    rng = np.random.default_rng(seed)
    x, y = rng.normal(0.3, 1, m), rng.normal(0, 1, n)
    low, high = stats.shift_ci(x, y)
    assert low < high
    eps = 1e-7

    def p(delta):
        return scipy.stats.mannwhitneyu(x - delta, y, method="exact", alternative="two-sided").pvalue

    assert p(low - eps) <= 0.05 < p(low + eps)
    assert p(high + eps) <= 0.05 < p(high - eps)


@pytest.mark.parametrize("n", [7, 10, 25])
def test_the_ratio_ci_covers_a_known_ratio_about_95_percent_of_the_time(n):
    rng = np.random.default_rng(n)
    true_ratio = 1.1
    replications = 400
    covered = 0
    for _ in range(replications):
        base = rng.lognormal(10, 0.1, n)
        new = rng.lognormal(10 + math.log(true_ratio), 0.1, n)
        low, high = stats.ratio_ci(new, base)
        covered += low <= true_ratio <= high
    assert 0.92 <= covered / replications <= 0.99


def test_two_samples_is_the_ratio_of_medians_its_ci_and_scipys_p():
    base = np.array([100.0, 101, 99, 102, 98, 100.5, 99.5])
    new = base * 1.5 + np.array([0.3, -0.2, 0.1, 0.0, -0.4, 0.2, -0.1])
    result = stats.two_samples(base, new)
    assert result.ratio == pytest.approx(np.median(new) / np.median(base))
    assert result.low < result.ratio < result.high
    assert result.low > 1.4
    assert result.p_value == scipy.stats.mannwhitneyu(new, base, alternative="two-sided").pvalue


def test_times_that_are_not_positive_give_no_ratio_interval():
    assert stats.ratio_ci(np.array([0.0, 1, 2, 3, 4]), np.array([1.0, 2, 3, 4, 5])) == (0.0, math.inf)

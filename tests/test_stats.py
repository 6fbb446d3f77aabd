import numpy as np
import pytest
import scipy  # scipy.stats loads on first use: importing it here costs each pytest worker 0.4 s

from phpcb.statistics import stats


def order_statistic_ci(values: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The textbook distribution-free CI of the median: ranks from the Binomial(n, 1/2) tails."""
    x = np.sort(values)
    n = x.size
    alpha = 1 - confidence
    k = 0
    while scipy.stats.binom.cdf(k, n, 0.5) <= alpha / 2:
        k += 1
    # x[k-1] and x[n-k] (0-based) cover the median with probability >= confidence
    return float(x[k - 1]), float(x[n - k])


@pytest.mark.parametrize("n", [7, 25, 101])
def test_summary_matches_numpy_and_scipy(n):
    values = np.random.default_rng(n).lognormal(mean=10, sigma=0.2, size=n)
    summary = stats.summarize(values)
    assert summary.n == n
    assert summary.median_ns == pytest.approx(np.median(values))
    assert summary.iqr_ns == pytest.approx(scipy.stats.iqr(values))
    assert summary.cv == pytest.approx(scipy.stats.variation(values, ddof=1))
    assert summary.min_ns == values.min()
    assert (summary.ci_low_ns, summary.ci_high_ns) == pytest.approx(order_statistic_ci(values))


def test_with_seven_samples_the_ci_is_the_sample_range():
    values = np.array([5.0, 3, 4, 8, 6, 7, 2])
    summary = stats.summarize(values)
    assert (summary.ci_low_ns, summary.ci_high_ns) == (2.0, 8.0)


def test_with_five_samples_no_finite_95_percent_ci_exists():
    summary = stats.summarize(np.array([1.0, 2, 3, 4, 5]))
    assert summary.ci_low_ns == -np.inf or summary.ci_high_ns == np.inf


def test_per_op_time_and_throughput():
    values = stats.per_op_ns([20_000_000, 30_000_000], [2_000, 3_000])
    assert list(values) == [10_000.0, 10_000.0]
    summary = stats.summarize(np.array([10_000.0] * 7))
    assert summary.ops_per_s == pytest.approx(100_000)
    assert summary.mb_per_s(16384) == pytest.approx(1638.4)
    assert summary.mb_per_s_interval(16384) == pytest.approx((1638.4, 1638.4))


def test_no_samples_is_an_error():
    with pytest.raises(ValueError, match="zero samples"):
        stats.summarize(np.array([]))


def test_a_threefold_difference_is_significant_and_its_ci_covers_three():
    rng = np.random.default_rng(1)
    fast = rng.normal(1000, 20, 25)
    slow = rng.normal(3000, 60, 25)
    ratio = stats.ratio_of_medians(slow, fast)
    assert ratio.value == pytest.approx(np.median(slow) / np.median(fast))
    assert ratio.low < 3.0 < ratio.high
    assert ratio.significant


def test_two_samples_of_one_distribution_show_no_measurable_difference():
    rng = np.random.default_rng(2)
    ratio = stats.ratio_of_medians(rng.normal(1000, 30, 25), rng.normal(1000, 30, 25))
    assert ratio.low < 1.0 < ratio.high
    assert not ratio.significant


def test_a_one_percent_difference_is_below_the_noise_threshold():
    assert not stats.Ratio(1.01, 1.005, 1.015).significant
    assert stats.Ratio(1.05, 1.03, 1.07).significant
    assert stats.Ratio(0.9, 0.85, 0.95).significant


def test_constant_samples_give_a_point_interval():
    ratio = stats.ratio_of_medians(np.full(7, 3000.0), np.full(7, 1000.0))
    assert (ratio.value, ratio.low, ratio.high) == (3.0, 3.0, 3.0)


def test_mean_of_medians_weights_each_groups_median_and_its_ci_covers_the_truth():
    rng = np.random.default_rng(3)
    groups = [rng.normal(10, 0.5, 25), rng.normal(40, 2, 25)]
    estimate = stats.mean_of_medians(groups, [0.1, 0.05])
    expected = np.mean([np.median(groups[0]) * 0.1, np.median(groups[1]) * 0.05])
    assert estimate.value == pytest.approx(expected)
    assert estimate.low < 1.5 < estimate.high  # (10 × 0.1 + 40 × 0.05) / 2
    assert estimate.high - estimate.low < 0.2


def test_mean_of_medians_needs_one_weight_per_group():
    with pytest.raises(ValueError, match="one weight per group"):
        stats.mean_of_medians([np.ones(7)], [1.0, 2.0])


def test_mean_of_medians_of_constant_samples_is_a_point():
    estimate = stats.mean_of_medians([np.full(7, 4.0), np.full(7, 8.0)], [1.0, 0.5])
    assert (estimate.value, estimate.low, estimate.high) == (4.0, 4.0, 4.0)


@pytest.mark.parametrize("n", [5, 6, 7, 20, 25, 101])
def test_the_cached_ranks_give_scipys_own_interval(n):
    values = np.random.default_rng(n).lognormal(0, 0.3, n)
    interval = scipy.stats.quantile_test(values, q=float(np.median(values)), p=0.5).confidence_interval(0.95)
    expected = (
        -np.inf if np.isnan(interval.low) else interval.low,
        np.inf if np.isnan(interval.high) else interval.high,
    )
    assert stats.median_ci(values) == expected


def test_the_median_ci_ranks_are_scipys_for_every_sample_count_up_to_500():
    for n in range(1, 501):
        interval = scipy.stats.quantile_test(np.arange(n, dtype=float), q=n / 2, p=0.5).confidence_interval(0.95)
        expected = (
            None if np.isnan(interval.low) else int(interval.low),
            None if np.isnan(interval.high) else int(interval.high),
        )
        assert stats._median_ci_ranks(n, 0.95) == expected, f"n = {n}"


@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.99])
def test_the_median_ci_ranks_follow_the_confidence_asked(confidence):
    for n in (6, 11, 40, 333):
        interval = scipy.stats.quantile_test(np.arange(n, dtype=float), q=n / 2, p=0.5).confidence_interval(confidence)
        assert stats._median_ci_ranks(n, confidence) == (
            None if np.isnan(interval.low) else int(interval.low),
            None if np.isnan(interval.high) else int(interval.high),
        )


def test_paired_ratio_is_the_geometric_mean_of_round_ratios_with_scipys_paired_t_interval():
    rng = np.random.default_rng(15)
    native = rng.normal(20_000, 600, 5)
    php = native * rng.normal(1.3, 0.02, 5)
    ratio = stats.paired_ratio(php, native)
    assert ratio.value == pytest.approx(scipy.stats.gmean(php / native))
    expected = scipy.stats.ttest_rel(np.log(php), np.log(native)).confidence_interval(0.95)
    assert (ratio.low, ratio.high) == pytest.approx((np.exp(expected.low), np.exp(expected.high)))
    assert ratio.low < 1.3 < ratio.high
    assert ratio.significant


def test_pairing_removes_a_drift_both_sides_share():
    # The machine slows down over five rounds; PHP stays at 1.5× native in every round.
    drift = np.array([1.0, 1.2, 1.4, 1.6, 1.8])
    native = 10_000 * drift
    php = 15_000 * drift * np.array([1.01, 0.99, 1.0, 1.01, 0.99])
    paired = stats.paired_ratio(php, native)
    unpaired = stats.ratio_of_medians(php, native)
    assert paired.high - paired.low < 0.05
    assert unpaired.high - unpaired.low > 5 * (paired.high - paired.low)


def test_paired_difference_matches_scipys_paired_t_interval():
    rng = np.random.default_rng(16)
    primitive = rng.normal(21_000, 500, 7)
    jws = primitive + rng.normal(1_800, 200, 7)
    estimate = stats.paired_difference(jws, primitive)
    assert estimate.value == pytest.approx(np.mean(jws - primitive))
    expected = scipy.stats.ttest_rel(jws, primitive).confidence_interval(0.95)
    assert (estimate.low, estimate.high) == pytest.approx((expected.low, expected.high))


def test_one_round_gives_no_interval_and_agreeing_rounds_a_point():
    one = stats.paired_ratio([3.0], [1.0])
    assert (one.value, one.low, one.high) == (pytest.approx(3.0), 0.0, np.inf)
    assert stats.paired_difference([3.0], [1.0]) == stats.Estimate(2.0, -np.inf, np.inf)
    agreeing = stats.paired_ratio([3.0, 6.0], [1.0, 2.0])
    assert agreeing.low == agreeing.value == agreeing.high == pytest.approx(3.0)
    assert stats.paired_difference([3.0, 4.0], [1.0, 2.0]) == stats.Estimate(2.0, 2.0, 2.0)


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [([1.0, 2.0], [1.0], "equally long"), ([], [], "non-empty"), ([1.0, 0.0], [1.0, 1.0], "positive")],
)
def test_paired_statistics_refuse_series_that_do_not_pair(a, b, message):
    with pytest.raises(ValueError, match=message):
        stats.paired_ratio(a, b)


def _scipy_percentile_bootstrap(samples, statistic, resamples=20_000):
    """scipy's own percentile bootstrap, resampling every group (the reference our sampler must match)."""
    return scipy.stats.bootstrap(
        tuple(samples),
        statistic,
        paired=False,
        vectorized=True,
        n_resamples=resamples,
        method="percentile",
        rng=np.random.default_rng(99),
    ).confidence_interval


def test_difference_of_medians_is_scipys_percentile_bootstrap_of_the_median_difference():
    rng = np.random.default_rng(17)
    jws, primitive = rng.normal(24_000, 800, 21), rng.normal(22_000, 700, 21)
    estimate = stats.difference_of_medians(jws, primitive)
    expected = _scipy_percentile_bootstrap(
        (jws, primitive), lambda a, b, axis=-1: np.median(a, axis=axis) - np.median(b, axis=axis)
    )
    assert estimate.value == pytest.approx(np.median(jws) - np.median(primitive))
    # Two Monte Carlo estimates of one interval: they agree to a small share of its width.
    width = expected.high - expected.low
    assert estimate.low == pytest.approx(expected.low, abs=0.1 * width)
    assert estimate.high == pytest.approx(expected.high, abs=0.1 * width)
    assert estimate.low < 2_000 < estimate.high


@pytest.mark.parametrize("n", [7, 8, 25, 60, 301])
def test_ratio_of_medians_is_scipys_percentile_bootstrap_of_the_median_ratio(n):
    rng = np.random.default_rng(n)
    a, b = rng.lognormal(np.log(3000), 0.05, n), rng.lognormal(np.log(1000), 0.08, n + 1)
    ratio = stats.ratio_of_medians(a, b)
    expected = _scipy_percentile_bootstrap(
        (a, b), lambda x, y, axis=-1: np.median(x, axis=axis) / np.median(y, axis=axis)
    )
    width = expected.high - expected.low
    assert ratio.low == pytest.approx(expected.low, abs=0.1 * width)
    assert ratio.high == pytest.approx(expected.high, abs=0.1 * width)


@pytest.mark.parametrize(
    "sample",
    [
        np.array([5.0]),
        np.array([1.0, 2.0]),
        np.array([3.0, 1.0, 2.0, 2.0, 9.0]),  # odd, with a tie
        np.array([4.0, 4.0, 1.0, 7.0, 2.0, 4.0]),  # even, with ties
        np.arange(12, dtype=float) ** 2,
    ],
    ids=["one", "two", "odd-ties", "even-ties", "twelve"],
)
def test_bootstrap_medians_have_the_distribution_of_resampled_medians(sample):
    draws = 200_000
    ours = stats.bootstrap_medians(sample, np.random.default_rng(1), draws)
    indices = np.random.default_rng(2).integers(0, sample.size, size=(draws, sample.size))
    resampled = np.median(sample[indices], axis=1)
    support = np.union1d(ours, resampled)
    # The two empirical distributions agree at every value they take (Monte Carlo: ±0.5 % absolute).
    ours_cdf = np.searchsorted(np.sort(ours), support, side="right") / draws
    resampled_cdf = np.searchsorted(np.sort(resampled), support, side="right") / draws
    assert np.max(np.abs(ours_cdf - resampled_cdf)) < 0.005


def test_bootstrap_medians_refuse_an_empty_sample():
    with pytest.raises(ValueError, match="zero samples"):
        stats.bootstrap_medians(np.array([]), np.random.default_rng(0))


def test_difference_of_constant_samples_is_a_point():
    assert stats.difference_of_medians(np.full(7, 5.0), np.full(7, 3.0)) == stats.Estimate(2.0, 2.0, 2.0)


def test_a_paired_ratio_states_the_ratio_of_the_medians_its_tables_print():
    # Rounds whose per-round ratios centre on 2 while the medians' ratio is 3: two samples a table
    # would print medians of, and a ratio that must not contradict them.
    a = np.array([3.0, 3.0, 3.0, 30.0, 30.0, 30.0, 30.0, 300.0, 300.0, 300.0])
    b = np.array([1.5, 1.5, 1.5, 10.0, 10.0, 10.0, 10.0, 150.0, 150.0, 150.0])
    rounds = stats.paired_median_ratio(a, b)
    assert rounds.value == 2.0
    found = stats.ratio_between(a, b, paired=True)
    assert found.value == pytest.approx(np.median(a) / np.median(b))
    assert found.low == rounds.low
    assert found.high >= found.value


def test_a_row_key_is_made_once_per_distinct_values_and_shared_by_equal_rows():
    made = []

    def make(curve, operation):
        made.append((curve, operation))
        return (curve.upper(), operation)

    key = stats.key_made_once(("curve", "operation"), make)
    rows = [
        {"curve": "p256", "operation": "sign", "ns": 1},
        {"curve": "p256", "operation": "sign", "ns": 2},
        {"curve": "p384", "operation": "sign", "ns": 3},
    ]
    keys = [key(row) for row in rows]
    assert keys == [("P256", "sign"), ("P256", "sign"), ("P384", "sign")]
    assert keys[0] is keys[1]
    assert made == [("p256", "sign"), ("p384", "sign")]


def test_a_row_key_of_one_column_is_refused_as_itemgetter_would_not_give_a_tuple():
    with pytest.raises(ValueError, match=r"two or more columns, not \['curve'\]"):
        stats.key_made_once(("curve",), lambda curve: curve)

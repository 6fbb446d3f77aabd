"""stats' own percentile and median (numpy's arithmetic without numpy's overhead per call) give the
floats numpy gives, to the bit and of the same type, and so do the functions built on them."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from phpcb.statistics import stats

PERCENTS = (25, 50, 75)
# Every small size, each of the four kinds below DRAWS times: each size's interpolation and each kind's
# arithmetic (ties, signed zeros, magnitudes from 1e-300 to 1e300) are reached many times over (40 draws
# a size cost 16 s of the suite's CPU and checked nothing these do not).
SIZES = range(1, 40)
DRAWS = 12
SMALL_SAMPLES = len(SIZES) * DRAWS * 4


def bits(value: Any) -> tuple[type, bytes]:
    return type(value), np.asarray(value).tobytes()


def outcome(compute: Callable[[], Any]) -> tuple[Any, list[tuple[type, str]]]:
    """What a computation returns (or raises), with the warnings it gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = compute()
        except Exception as error:  # the same error, of the same type, is the outcome to compare
            result = (type(error), str(error))
    return result, [(w.category, str(w.message)) for w in caught]


def samples() -> Iterator[np.ndarray]:
    """Every small size with and without ties, signed zeros, wide magnitudes and larger samples."""
    rng = np.random.default_rng(20261129)
    for n in SIZES:
        for _ in range(DRAWS):
            yield rng.lognormal(10, 1, size=n)
            yield rng.integers(0, 4, size=n).astype(float)  # many ties
            yield rng.choice([-0.0, 0.0, 1.0, -1.0], size=n)
            yield rng.normal(0, 1, size=n) * 10.0 ** rng.integers(-300, 300, size=n)
    for n in (100, 101, 999, 5000):
        yield rng.lognormal(10, 1, size=n)
        yield np.round(rng.lognormal(3, 1, size=n))


def unusual() -> list[np.ndarray]:
    """Samples numpy itself answers (the fast path leaves them): empty, NaN, infinities, other dtypes."""
    return [
        np.array([], dtype=float),
        np.array([1.0, np.nan, 2.0]),
        np.array([np.nan]),
        np.array([1.0, np.inf]),
        np.array([-np.inf, 1.0, 2.0]),
        np.array([np.inf, np.inf]),
        np.array([-np.inf, np.inf, 3.0, 4.0]),
        np.array([3, 1, 2, 4], dtype=np.int64),
        np.array([2**62, 2**62 + 1, 1], dtype=np.int64),
        np.array([1.5, 2.25, 3.0, 7.0], dtype=np.float32),
        np.array([[1.0, 2.0], [3.0, 5.0]]),
    ]


def test_percentiles_are_numpys_to_the_bit():
    checked = 0
    for values in samples():
        expected = np.percentile(values, list(PERCENTS))
        found = stats._percentiles(values, PERCENTS)
        assert [bits(v) for v in found] == [bits(v) for v in expected], values
        checked += 1
    assert checked > SMALL_SAMPLES


def test_quartiles_are_numpys_25th_50th_and_75th_percentiles_to_the_bit():
    for values in samples():
        if np.ndim(values) != 1 or values.size == 0:
            continue  # a case's samples: one dimension, at least one
        expected = np.percentile(np.asarray(values, dtype=float), [25, 50, 75])
        assert [bits(np.float64(v)) for v in stats.quartiles(values)] == [bits(v) for v in expected], values


def test_public_percentiles_are_numpys_10th_and_90th_to_the_bit():
    for values in samples():
        if np.ndim(values) != 1 or values.size == 0:
            continue  # one group's round factors: one dimension, at least one
        expected = np.percentile(np.asarray(values, dtype=float), [10, 90])
        assert [bits(np.float64(v)) for v in stats.percentiles(values, (10, 90))] == [bits(v) for v in expected], values


def test_median_is_numpys_to_the_bit():
    for values in samples():
        assert bits(stats.median_of(values)) == bits(np.median(values)), values


def test_median_of_a_list_is_numpys():
    assert bits(stats.median_of([3.0, 1.0, 2.0, 10.0])) == bits(np.median([3.0, 1.0, 2.0, 10.0]))
    assert bits(stats.median_of([3, 1, 2, 10])) == bits(np.median([3, 1, 2, 10]))


def test_signed_zeros_come_out_as_numpy_gives_them():
    # numpy's mean sums from +0.0, so the median of negative zeros is +0.0; its percentiles keep −0.0
    assert bits(stats.median_of(np.array([-0.0]))) == bits(np.float64(0.0))
    assert bits(stats.median_of(np.array([-0.0, -0.0]))) == bits(np.float64(0.0))
    found = stats._percentiles(np.array([-0.0, -0.0, -0.0]), (25, 75))
    assert [bits(v) for v in found] == [bits(np.float64(-0.0))] * 2
    mixed = np.array([-0.0, -0.0, 0.0, -1.0])  # numpy's partition, not a sort, orders the zeros
    assert [bits(v) for v in stats._percentiles(mixed, PERCENTS)] == [
        bits(v) for v in np.percentile(mixed, list(PERCENTS))
    ]


@pytest.mark.parametrize("values", unusual(), ids=repr)
def test_unusual_samples_get_numpys_answer_and_warnings(values):
    def ours() -> Any:
        return [bits(v) for v in stats._percentiles(values, PERCENTS)]

    def numpys() -> Any:
        return [bits(v) for v in np.percentile(values, list(PERCENTS))]

    assert outcome(ours) == outcome(numpys)
    assert outcome(lambda: bits(stats.median_of(values))) == outcome(lambda: bits(np.median(values)))


def reference_tukey(values: np.ndarray) -> stats.Outliers:
    """tukey_outliers as it was written on numpy's percentile."""
    q1, q3 = np.percentile(values, [25, 75])
    iqr = q3 - q1
    beyond = np.abs(np.clip(values, q1, q3) - values)
    return stats.Outliers(int(np.sum(beyond > 1.5 * iqr)), int(np.sum(beyond > 3.0 * iqr)))


def reference_half_width(values: np.ndarray) -> float:
    low, high = stats.median_ci(values)
    median = float(np.median(values))
    if not (np.isfinite(low) and np.isfinite(high)) or median <= 0:
        return float("inf")
    return (high - low) / (2.0 * median)


def test_tukey_outliers_and_half_width_are_unchanged():
    outliers = 0
    for values in samples():
        found = stats.tukey_outliers(values)
        assert found == reference_tukey(values), values
        outliers += found.mild
        assert bits(stats.relative_half_width(values)) == bits(reference_half_width(values)), values
    assert outliers > 100  # the samples do have outliers to count


def test_summary_quartiles_are_numpys():
    for values in samples():
        if np.max(np.abs(values)) > 1e150:
            continue  # its standard deviation overflows
        summary = stats.summarize(values)
        q1, median, q3 = np.percentile(values, [25, 50, 75])
        assert bits(summary.q1_ns) == bits(float(q1))
        assert bits(summary.median_ns) == bits(float(median))
        assert bits(summary.q3_ns) == bits(float(q3))


def test_positive_samples_take_the_fast_path():
    # what the pages measure (positive, finite times) is what the helpers answer themselves
    values = np.random.default_rng(1).lognormal(10, 1, size=31)
    assert stats._fast_path(np.sort(values))
    assert not stats._fast_path(np.sort(np.array([1.0, 0.0, 2.0])))
    assert not stats._fast_path(np.sort(np.array([1.0, np.nan])))
    assert not stats._fast_path(np.sort(np.array([1, 2, 3])))


def test_quantiles_of_many_draws_are_numpys_to_the_bit():
    rng = np.random.default_rng(7)
    tail = (1.0 - stats.CONFIDENCE) / 2
    checked = 0
    for values in [*samples(), rng.lognormal(0, 1, size=4000), rng.normal(0, 1, size=4000)]:
        for qs in ((tail, 1.0 - tail), (0.0, 1.0), (0.5,), (0.25, 0.5, 0.75)):
            expected = np.quantile(values, list(qs))
            assert [bits(v) for v in stats._quantiles(values, qs)] == [bits(v) for v in expected], values
            checked += 1
    assert checked > 4 * SMALL_SAMPLES


@pytest.mark.parametrize("values", unusual(), ids=repr)
def test_quantiles_of_unusual_samples_are_numpys(values):
    qs = (0.025, 0.975)
    assert outcome(lambda: [bits(v) for v in stats._quantiles(values, qs)]) == outcome(
        lambda: [bits(v) for v in np.quantile(values, list(qs))]
    )


def test_mean_and_sd_are_numpys_to_the_bit():
    for values in [*samples(), *unusual()[1:8]]:
        ordered = np.sort(values)

        def numpys(values: np.ndarray = values) -> Any:
            return float(np.mean(values)), float(np.std(values, ddof=1)) if values.size > 1 else 0.0

        def ours(values: np.ndarray = values, ordered: np.ndarray = ordered) -> Any:
            return stats._mean_and_sd(values, ordered)

        (found, found_warnings), (expected, expected_warnings) = outcome(ours), outcome(numpys)
        assert [bits(v) for v in found] == [bits(v) for v in expected], values
        assert found_warnings == expected_warnings


def test_constant_is_a_zero_range():
    for values in [*samples(), np.full(5, 3.25), np.array([2.0])]:
        assert stats._constant(values) == (np.ptp(values) == 0)
    assert stats._constant(np.full(5, 3.25))
    assert not stats._constant(np.array([1.0, 1.5]))

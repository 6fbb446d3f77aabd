"""Statistics of samples: one small module, built on numpy and scipy, tested against them.

A sample is `iterations` operations timed together; its per-operation time is elapsed / iterations.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from scipy import stats

K = TypeVar("K")

CONFIDENCE = 0.95
# A difference smaller than this is not claimed even when its CI excludes 1: below it,
# run-to-run drift of the machine (frequency, cache, neighbours) dominates.
NOISE_THRESHOLD = 0.02
BOOTSTRAP_RESAMPLES = 4000
BOOTSTRAP_SEED = 20161031  # fixed: the same data always gives the same interval


@dataclass(frozen=True)
class Summary:
    """Per-operation time of one case, in nanoseconds."""

    n: int
    median_ns: float
    ci_low_ns: float
    ci_high_ns: float
    q1_ns: float
    q3_ns: float
    min_ns: float
    cv: float

    @property
    def iqr_ns(self) -> float:
        return self.q3_ns - self.q1_ns

    @property
    def ops_per_s(self) -> float:
        return 1e9 / self.median_ns

    def mb_per_s(self, bytes_per_op: int) -> float:
        """Throughput in MB/s (10^6 bytes per second) at the median."""
        return bytes_per_op * 1e3 / self.median_ns

    def mb_per_s_interval(self, bytes_per_op: int) -> tuple[float, float]:
        """The CI of the throughput: the slow end of the time CI gives the low throughput."""
        return bytes_per_op * 1e3 / self.ci_high_ns, bytes_per_op * 1e3 / self.ci_low_ns


def per_op_ns(elapsed_ns: Sequence[int], iterations: Sequence[int]) -> np.ndarray:
    return np.asarray(elapsed_ns, dtype=float) / np.asarray(iterations, dtype=float)


def per_op_by_case(rows: Sequence[Mapping[str, Any]], key: Callable[[Mapping[str, Any]], K]) -> dict[K, np.ndarray]:
    """Each case's per-operation times, the case named by `key(row)`; rows keep their order."""
    grouped: dict[K, tuple[list[int], list[int]]] = {}
    for row in rows:
        elapsed, iterations = grouped.setdefault(key(row), ([], []))
        elapsed.append(int(row["elapsed_ns"]))
        iterations.append(int(row["iterations"]))
    return {case: per_op_ns(elapsed, iterations) for case, (elapsed, iterations) in grouped.items()}


@functools.lru_cache(maxsize=256)
def _median_ci_ranks(n: int, confidence: float) -> tuple[int | None, int | None]:
    """The 0-based ranks bounding the median's CI for n samples, from scipy's quantile test.

    The interval is made of order statistics whose ranks depend on n alone, so scipy is asked once
    per n, with the ranks themselves as the data. None: no finite bound at this confidence.
    """
    interval = stats.quantile_test(np.arange(n, dtype=float), q=n / 2, p=0.5).confidence_interval(confidence)
    low = None if math.isnan(interval.low) else int(interval.low)
    high = None if math.isnan(interval.high) else int(interval.high)
    return low, high


def median_ci(values: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Distribution-free CI of the median from order statistics (scipy's quantile test).

    Too few samples for the confidence asked (n < 6 at 95 %) give an infinite bound.
    """
    low_rank, high_rank = _median_ci_ranks(int(values.size), confidence)
    ordered = np.sort(values)
    low = float(ordered[low_rank]) if low_rank is not None else -math.inf
    high = float(ordered[high_rank]) if high_rank is not None else math.inf
    return low, high


def summarize(values: np.ndarray) -> Summary:
    if values.size == 0:
        raise ValueError("cannot summarize zero samples")
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    low, high = median_ci(values)
    mean = float(np.mean(values))
    std = float(np.std(values, ddof=1)) if values.size > 1 else 0.0
    return Summary(
        n=int(values.size),
        median_ns=float(median),
        ci_low_ns=low,
        ci_high_ns=high,
        q1_ns=float(q1),
        q3_ns=float(q3),
        min_ns=float(np.min(values)),
        cv=std / mean if mean else 0.0,
    )


@dataclass(frozen=True)
class Ratio:
    """How many times slower `a` is than `b` (median a / median b), with its CI."""

    value: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """The whole CI lies beyond the noise threshold on one side of 1: a measurable difference."""
        return self.low > 1.0 + NOISE_THRESHOLD or self.high < 1.0 / (1.0 + NOISE_THRESHOLD)


def _median_ratio(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    return np.median(a, axis=axis) / np.median(b, axis=axis)


def ratio_of_medians(a: np.ndarray, b: np.ndarray, confidence: float = CONFIDENCE) -> Ratio:
    """Ratio of medians with a percentile-bootstrap CI (independent resampling of each group)."""
    value = float(np.median(a) / np.median(b))
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        # Constant samples (the fake clock): every resample gives the same ratio.
        return Ratio(value, value, value)
    result = stats.bootstrap(
        (a, b),
        _median_ratio,
        paired=False,
        vectorized=True,
        n_resamples=BOOTSTRAP_RESAMPLES,
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(BOOTSTRAP_SEED),
    )
    return Ratio(value, float(result.confidence_interval.low), float(result.confidence_interval.high))


@dataclass(frozen=True)
class Estimate:
    """A statistic of several cases' samples, with a bootstrap CI."""

    value: float
    low: float
    high: float


def _weighted_mean_of_medians(weights: np.ndarray) -> Callable[..., np.ndarray]:
    def statistic(*samples: np.ndarray, axis: int = -1) -> np.ndarray:
        medians = np.stack([np.median(sample, axis=axis) for sample in samples], axis=-1)
        return np.mean(medians * weights, axis=-1)

    return statistic


def mean_of_medians(groups: Sequence[np.ndarray], weights: Sequence[float], confidence: float = CONFIDENCE) -> Estimate:
    """mean_i(median(groups[i]) × weights[i]), e.g. a family's average of time-per-bit ratios.

    The CI resamples each group independently (percentile bootstrap, fixed seed).
    """
    if not groups or len(groups) != len(weights):
        raise ValueError("expected one weight per group, and at least one group")
    w = np.asarray(weights, dtype=float)
    statistic = _weighted_mean_of_medians(w)
    value = float(statistic(*groups))
    if all(np.ptp(group) == 0 for group in groups):
        return Estimate(value, value, value)
    result = stats.bootstrap(
        tuple(groups),
        statistic,
        paired=False,
        vectorized=True,
        n_resamples=BOOTSTRAP_RESAMPLES,
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(BOOTSTRAP_SEED),
    )
    return Estimate(value, float(result.confidence_interval.low), float(result.confidence_interval.high))

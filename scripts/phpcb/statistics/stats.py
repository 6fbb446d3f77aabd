"""Statistics of samples: one small module, built on numpy and distributions.py (Student's t and the normal
quantile), tested against scipy.stats, which the build does not import: it slowed every start of the
command line.

A sample is `iterations` operations timed together; its per-operation time is elapsed / iterations.
"""

from __future__ import annotations

import functools
import hashlib
import math
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from phpcb.data.schema import Measure
from phpcb.statistics import thresholds
from phpcb.statistics.distributions import normal_quantile, t_quantile

K = TypeVar("K")

CONFIDENCE = 0.95
# A difference smaller than this is not claimed even when its CI excludes 1: the one threshold of a
# difference, thresholds.DIFFERENCE (read from there: Ratio.significant reads the owner at each call).
NOISE_THRESHOLD = thresholds.DIFFERENCE
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


def iterations_of(rows: Sequence[Mapping[str, Any]], measure: Measure) -> Iterator[float]:
    """Each row's operation count: its declared iterations column, or 1 (a sample times one operation)."""
    name = measure.iterations
    return (1.0 if name is None else float(row[name]) for row in rows)


def per_op_ns(elapsed_ns: Sequence[int], iterations: Sequence[int]) -> np.ndarray:
    return np.asarray(elapsed_ns, dtype=float) / np.asarray(iterations, dtype=float)


def per_op_by_case(
    rows: Sequence[Mapping[str, Any]], key: Callable[[Mapping[str, Any]], K], measure: Measure
) -> dict[K, np.ndarray]:
    """Each case's per-operation times (the table's declared `measure`: its time over its iterations),
    the case named by `key(row)`, cases in the order of their first row, and each case's samples in the
    order they were taken (their `sample` number, where rows have one): sample r of cases sampled in
    rotation were taken in the same round."""
    positions: dict[K, list[int]] = {}
    for position, row in enumerate(rows):
        positions.setdefault(key(row), []).append(position)
    count = len(rows)
    elapsed = np.fromiter((row[measure.time] for row in rows), dtype=float, count=count)
    iterations = np.fromiter(iterations_of(rows, measure), dtype=float, count=count)
    taken = np.fromiter((row.get("sample", position) for position, row in enumerate(rows)), dtype=float, count=count)
    result = {}
    for case, where in positions.items():
        indices = np.asarray(where)
        indices = indices[np.argsort(taken[indices], kind="stable")]
        result[case] = elapsed[indices] / iterations[indices]
    return result


def key_made_once(columns: Sequence[str], make: Callable[..., K]) -> Callable[[Mapping[str, Any]], K]:
    """A key of rows for per_op_by_case: `make` called with a row's values of `columns` (two or more),
    once per distinct values. A run's table has tens of thousands of rows and a few hundred cases, and
    every pass over its rows asks each row for its key; a table's column holds values of one type, so
    equal values make equal keys."""
    if len(columns) < 2:
        raise ValueError(f"key_made_once reads two or more columns, not {list(columns)}")
    read = operator.itemgetter(*columns)
    made: dict[tuple[Any, ...], K] = {}

    def key(row: Mapping[str, Any]) -> K:
        values = read(row)
        if values not in made:
            made[values] = make(*values)
        return made[values]

    return key


@functools.lru_cache(maxsize=1024)
def _median_ci_ranks(n: int, confidence: float) -> tuple[int | None, int | None]:
    """The 0-based ranks bounding the median's CI for n samples, as scipy's quantile test gives them.

    With k the smallest count such that P(X ≤ k) ≥ α/2 for X ~ Binomial(n, 1/2) (scipy's
    binom.ppf(α/2)), the interval is [x₍k−1₎, x₍n−k₎]: by symmetry at p = 1/2, n − k is scipy's
    binom.isf(α/2). Counted exactly in integers. None: no finite bound at this confidence (n < 6 at 95 %).
    """
    half_alpha = Fraction((1.0 - confidence) / 2)
    # P(X ≤ k) ≥ α/2  ⇔  (C(n,0) + … + C(n,k)) · q ≥ p · 2ⁿ for α/2 = p/q: integers throughout, each
    # coefficient from the one before (C(n,k+1) = C(n,k) · (n − k) / (k + 1), exact).
    bound = half_alpha.numerator << n
    coefficient, cumulative, k = 1, 1, 0
    while k <= n and cumulative * half_alpha.denominator < bound:
        coefficient = coefficient * (n - k) // (k + 1)
        cumulative += coefficient
        k += 1
    low = k - 1 if k >= 1 else None
    high = n - k if k >= 1 else None
    return low, high


def median_ci(values: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Distribution-free CI of the median from order statistics (scipy's quantile test).

    Too few samples for the confidence asked (n < 6 at 95 %) give an infinite bound.
    """
    return _median_ci_of_sorted(np.sort(values), confidence)


def _median_ci_of_sorted(ordered: np.ndarray, confidence: float) -> tuple[float, float]:
    low_rank, high_rank = _median_ci_ranks(int(ordered.size), confidence)
    low = float(ordered[low_rank]) if low_rank is not None else -math.inf
    high = float(ordered[high_rank]) if high_rank is not None else math.inf
    return low, high


# numpy's percentile and median cost some 20 to 100 µs a call in argument handling, on samples of a
# few dozen values, and the pages ask for them some 100,000 times a build. For a sorted sample of
# finite float64 values the two helpers below read the same order statistics and do numpy's own
# float arithmetic on them, so they give the same float to the bit (tests/test_stats_quantiles.py);
# anything else (empty, NaN or infinite values, another dtype) goes to numpy itself, with its warnings.
# So does a sample with a zero: −0.0 and +0.0 are equal, and numpy's partition may order them otherwise
# than a sort, which changes the sign of a zero it reads.


def _fast_path(ordered: np.ndarray) -> bool:
    """Whether `ordered` (sorted) is a non-empty float64 sample with no NaN, infinity or zero."""
    return (
        ordered.dtype == np.float64
        and ordered.ndim == 1
        and ordered.size > 0
        and math.isfinite(ordered[0])
        and math.isfinite(ordered[-1])
        and (ordered[0] > 0 or ordered[-1] < 0 or not bool(np.any(ordered == 0)))
    )


def _neighbours(n: int, q: float) -> tuple[int, int, float]:
    """Where numpy's default ("linear", Hyndman and Fan's 7th) quantile q of n sorted values reads them,
    in its float operations: the index (n − 1)·q, its floor and the next, and the weight between them.
    An index at or beyond the last value reads the last value for both, with the weight numpy computes
    then (its `previous` index being −1)."""
    index = (n - 1) * q
    if index >= n - 1:
        return n - 1, n - 1, index + 1
    below = math.floor(index)
    return below, below + 1, index - below


def _linear_quantile(ordered: np.ndarray, q: float) -> float:
    """numpy's quantile q of `ordered`, sorted at least at q's neighbours, with numpy's _lerp (which
    interpolates from the upper neighbour when the weight is 0.5 or more)."""
    below, above, weight = _neighbours(len(ordered), q)
    a, b = float(ordered[below]), float(ordered[above])
    step = b - a
    return b - step * (1 - weight) if weight >= 0.5 else a + step * weight


def _quantiles(values: np.ndarray, qs: tuple[float, ...]) -> tuple[Any, ...]:
    """np.quantile(values, qs), element by element: for a large sample (a bootstrap's draws), a partition
    at the values the quantiles read, where numpy partitions at every neighbour and both ends."""
    array = np.asarray(values)
    if not (array.dtype == np.float64 and array.ndim == 1 and array.size > 0):
        return tuple(np.quantile(values, list(qs)))
    if not (np.isfinite(array).all() and array.all()):  # NaN, infinities and zeros: see _fast_path
        return tuple(np.quantile(values, list(qs)))
    read = sorted({index for q in qs for index in _neighbours(array.size, q)[:2]})
    partitioned = np.partition(array, read)
    return tuple(np.float64(_linear_quantile(partitioned, q)) for q in qs)


def _percentiles(values: np.ndarray, percents: tuple[float, ...], ordered: np.ndarray | None = None) -> tuple[Any, ...]:
    """np.percentile(values, percents), element by element, for a one-dimensional sample (`ordered`:
    the sample sorted, where the caller has it)."""
    ordered = np.sort(values) if ordered is None else ordered
    if not _fast_path(ordered):
        return tuple(np.percentile(values, list(percents)))
    return tuple(np.float64(_linear_quantile(ordered, p / 100)) for p in percents)


def percentiles(values: np.ndarray, percents: tuple[float, ...]) -> tuple[float, ...]:
    """np.percentile(values, percents) of a one-dimensional sample, as floats, without numpy's overhead per
    call (a sort, then a read per percent)."""
    return tuple(float(x) for x in _percentiles(np.asarray(values, dtype=float), percents))


def quartiles(values: np.ndarray) -> tuple[float, float, float]:
    """np.percentile(values, [25, 50, 75]) of a one-dimensional sample, at a tenth of its cost for the
    small samples of one case (a sort, then three reads)."""
    low, median, high = _percentiles(np.asarray(values, dtype=float), (25, 50, 75))
    return float(low), float(median), float(high)


def _median_of_sorted(ordered: np.ndarray) -> Any:
    """np.median of a sorted one-dimensional sample: numpy averages the middle value (or two) as
    np.mean does, a sum from +0.0 over the count."""
    if not _fast_path(ordered):
        return np.median(ordered)
    middle = ordered.size // 2
    if ordered.size % 2:
        return np.float64(0.0 + float(ordered[middle]))
    return np.float64((0.0 + float(ordered[middle - 1]) + float(ordered[middle])) / 2)


def median_of(values: np.ndarray) -> Any:
    """np.median(values), to the bit and of the same type, without numpy's overhead per call."""
    array = np.asarray(values)
    if array.ndim != 1:
        return np.median(array)
    return _median_of_sorted(np.sort(array))


# Far enough from float64's largest value that no sum or square of a sample's values overflows.
_MODERATE = 1e150


def _mean_and_sd(values: np.ndarray, ordered: np.ndarray) -> tuple[float, float]:
    """float(np.mean(values)) and float(np.std(values, ddof=1)) (0.0 for one value), to the bit: numpy's
    own operations in its order (the pairwise sum, the mean, each deviation squared, their sum over
    n − 1, the square root), without its dispatch. `ordered` is the sample sorted, to check it cheaply."""
    n = values.size
    if not (_fast_path(ordered) and ordered[0] > -_MODERATE and ordered[-1] < _MODERATE):
        return float(np.mean(values)), float(np.std(values, ddof=1)) if n > 1 else 0.0
    mean = np.add.reduce(values) / n
    if n < 2:
        return float(mean), 0.0
    deviations = values - mean
    np.square(deviations, out=deviations)
    return float(mean), math.sqrt(np.add.reduce(deviations) / (n - 1))


def summarize(values: np.ndarray) -> Summary:
    if values.size == 0:
        raise ValueError("cannot summarize zero samples")
    ordered = np.sort(values)
    q1, median, q3 = _percentiles(values, (25, 50, 75), ordered)
    low, high = _median_ci_of_sorted(ordered, CONFIDENCE)
    mean, std = _mean_and_sd(values, ordered)
    return Summary(
        n=int(values.size),
        median_ns=float(median),
        ci_low_ns=low,
        ci_high_ns=high,
        q1_ns=float(q1),
        q3_ns=float(q3),
        min_ns=float(values.min()),
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
        return self.low > 1.0 + thresholds.DIFFERENCE or self.high < 1.0 / (1.0 + thresholds.DIFFERENCE)


# The order statistics each resample's median reads in the sorted sample: its lower middle, and for an
# even count the upper middle too (None for an odd one).
Ranks = tuple[np.ndarray, np.ndarray | None]


def bootstrap_medians(sample: np.ndarray, rng: np.random.Generator, resamples: int = BOOTSTRAP_RESAMPLES) -> np.ndarray:
    """`resamples` draws of the median of a bootstrap resample of `sample`, without drawing the resamples.

    A resample is the sorted sample read at n i.i.d. uniform ranks floor(n·U), and floor is monotone,
    so its median is the sorted sample read at the middle order statistics of n uniforms: U₍k₎ ~
    Beta(k, n − k + 1), and the next one up is U₍k₎ + (1 − U₍k₎)·Beta(1, n − k) (the least of the n − k
    uniforms above it). The draws have the bootstrap's own distribution, at a cost that does not grow
    with n (scipy's resampling sorts 4000 × n numbers per group: seconds for a run's pages).
    """
    ordered = np.sort(np.asarray(sample, dtype=float))
    return _medians_at(ordered, _median_ranks(ordered.size, rng, resamples))


def _median_ranks(n: int, rng: np.random.Generator, resamples: int) -> Ranks:
    """What bootstrap_medians draws for a sample of n: the ranks alone, which the values do not change."""
    if n == 0:
        raise ValueError("cannot bootstrap the median of zero samples")
    k = (n + 1) // 2  # the (lower) middle rank, 1-based
    lower = rng.beta(k, n - k + 1, size=resamples)
    below = np.minimum((lower * n).astype(int), n - 1)
    if n % 2:
        return below, None
    upper = lower + (1.0 - lower) * rng.beta(1, n - k, size=resamples)
    return below, np.minimum((upper * n).astype(int), n - 1)


def _medians_at(ordered: np.ndarray, ranks: Ranks) -> np.ndarray:
    below, above = ranks
    at_lower = ordered[below]
    if above is None:
        return at_lower
    return (at_lower + ordered[above]) / 2


# With the seed fixed, what a bootstrap draws depends on its samples' sizes alone, never their values,
# and the draws are most of its cost: a build's bootstraps mostly compare cases of equal sample counts
# (7 against 7, 9 against 9), each of whose draws would be made again. So the ranks each sample reads
# are kept per process by the sizes of the samples up to it, with the generator's state after them,
# from which the next sample's draws go on (as one generator drawing for every sample in turn would).
# Kept read-only and as 32-bit ranks; the least recently used are dropped beyond this many.
RANKS_KEPT = 1024
_ranks: dict[tuple[Any, ...], tuple[Ranks, dict[str, Any]]] = {}


def _seeded_ranks(sizes: Sequence[int]) -> list[Ranks]:
    """What a generator seeded with BOOTSTRAP_SEED draws (_median_ranks) for samples of these sizes in turn."""
    found: list[Ranks] = []
    state: dict[str, Any] | None = None
    for end in range(1, len(sizes) + 1):
        key = (BOOTSTRAP_SEED, BOOTSTRAP_RESAMPLES, tuple(sizes[:end]))
        known = _ranks.pop(key, None)
        if known is None:
            rng = np.random.default_rng(BOOTSTRAP_SEED)
            if state is not None:
                rng.bit_generator.state = state
            ranks = _median_ranks(sizes[end - 1], rng, BOOTSTRAP_RESAMPLES)
            known = (_kept(ranks[0]), None if ranks[1] is None else _kept(ranks[1])), rng.bit_generator.state
            if len(_ranks) >= RANKS_KEPT:
                del _ranks[next(iter(_ranks))]
        _ranks[key] = known  # last: the least recently used are the first dropped
        ranks, state = known
        found.append(ranks)
    return found


def _kept(ranks: np.ndarray) -> np.ndarray:
    kept = ranks.astype(np.int32)
    kept.setflags(write=False)
    return kept


def _constant(sample: np.ndarray) -> bool:
    """np.ptp(sample) == 0 (its maximum less its minimum, as ptp computes it), without np.ptp's
    dispatch, which costs more than the arithmetic on a small sample."""
    values = np.asarray(sample)
    return bool(values.max() - values.min() == 0)


# A bootstrap costs a millisecond or two (the beta draws), and its CI is a function of the samples and
# the statistic alone (fixed seed): kept per process, keyed by a digest of the samples' bytes and the
# statistic's name and parameters (their bits: −0.0 is not 0.0 here), the same data in another page,
# claim or test's build costs a lookup. The oldest are dropped beyond this many.
BOOTSTRAPS_KEPT = 8192
_bootstrapped: dict[tuple[Any, ...], tuple[float, float]] = {}


def _fingerprint(sample: np.ndarray) -> tuple[str, tuple[int, ...], bytes]:
    array = np.asarray(sample)
    return array.dtype.str, array.shape, hashlib.blake2b(array.tobytes(), digest_size=16).digest()


def _bits(*numbers: float) -> bytes:
    return np.asarray(numbers, dtype=float).tobytes()


def _independent_bootstrap(
    samples: Sequence[np.ndarray],
    statistic: Callable[..., np.ndarray],
    value: float,
    confidence: float,
    statistic_key: tuple[Any, ...],
) -> tuple[float, float]:
    """The percentile-bootstrap CI of `statistic` of the groups' medians, each group resampled on its
    own (fixed seed); the value itself when every group is constant (the fake clock: every resample
    gives the same). `statistic_key` names the statistic and its parameters: the same key and samples
    give the same CI."""
    key = (statistic_key, _bits(value, confidence), BOOTSTRAP_SEED, tuple(_fingerprint(s) for s in samples))
    found = _bootstrapped.get(key)
    if found is None:
        found = _bootstrap(samples, statistic, value, confidence)
        if len(_bootstrapped) >= BOOTSTRAPS_KEPT:
            del _bootstrapped[next(iter(_bootstrapped))]
        _bootstrapped[key] = found
    return found


def _bootstrap(
    samples: Sequence[np.ndarray], statistic: Callable[..., np.ndarray], value: float, confidence: float
) -> tuple[float, float]:
    if all(_constant(sample) for sample in samples):
        return value, value
    ordered = [np.sort(np.asarray(sample, dtype=float)) for sample in samples]
    ranks = _seeded_ranks([values.size for values in ordered])
    resampled = statistic(*(_medians_at(values, drawn) for values, drawn in zip(ordered, ranks, strict=True)))
    tail = (1.0 - confidence) / 2
    low, high = _quantiles(resampled, (tail, 1.0 - tail))
    return float(low), float(high)


def ratio_of_medians(a: np.ndarray, b: np.ndarray, confidence: float = CONFIDENCE) -> Ratio:
    """Ratio of medians with a percentile-bootstrap CI (independent resampling of each group)."""
    value = float(median_of(a) / median_of(b))
    return Ratio(value, *_independent_bootstrap((a, b), np.divide, value, confidence, ("ratio",)))


@dataclass(frozen=True)
class Estimate:
    """A statistic of several cases' samples, with a bootstrap CI."""

    value: float
    low: float
    high: float


def _weighted_mean(weights: np.ndarray) -> Callable[..., np.ndarray]:
    def statistic(*medians: np.ndarray) -> np.ndarray:
        return np.mean(np.stack(medians, axis=-1) * weights, axis=-1)

    return statistic


def difference_of_medians(a: np.ndarray, b: np.ndarray, confidence: float = CONFIDENCE) -> Estimate:
    """median(a) − median(b) with a percentile-bootstrap CI (independent resampling of each group, fixed
    seed): what one case adds to another's time, in the time's unit."""
    value = float(median_of(a) - median_of(b))
    return Estimate(value, *_independent_bootstrap((a, b), np.subtract, value, confidence, ("difference",)))


def mean_of_medians(groups: Sequence[np.ndarray], weights: Sequence[float], confidence: float = CONFIDENCE) -> Estimate:
    """mean_i(median(groups[i]) × weights[i]), e.g. a family's average of time-per-bit ratios.

    The CI resamples each group independently (percentile bootstrap, fixed seed).
    """
    if not groups or len(groups) != len(weights):
        raise ValueError("expected one weight per group, and at least one group")
    w = np.asarray(weights, dtype=float)
    statistic = _weighted_mean(w)
    value = float(statistic(*(median_of(group) for group in groups)))
    described = ("weighted mean", w.tobytes())
    return Estimate(value, *_independent_bootstrap(tuple(groups), statistic, value, confidence, described))


def ratio_of_mean_medians(
    a: Sequence[np.ndarray],
    a_weights: Sequence[float],
    b: Sequence[np.ndarray],
    b_weights: Sequence[float],
    confidence: float = CONFIDENCE,
) -> Ratio:
    """mean_of_medians(a) / mean_of_medians(b), e.g. one curve family's average time per bit over
    another's, with a percentile-bootstrap CI that resamples every group on its own (fixed seed)."""
    if not a or not b or len(a) != len(a_weights) or len(b) != len(b_weights):
        raise ValueError("expected one weight per group, and at least one group on each side")
    top, bottom = _weighted_mean(np.asarray(a_weights, dtype=float)), _weighted_mean(np.asarray(b_weights, dtype=float))

    def statistic(*medians: np.ndarray) -> np.ndarray:
        return top(*medians[: len(a)]) / bottom(*medians[len(a) :])

    value = float(statistic(*(median_of(group) for group in (*a, *b))))
    described = ("ratio of weighted means", len(a), _bits(*a_weights), _bits(*b_weights))
    return Ratio(value, *_independent_bootstrap((*a, *b), statistic, value, confidence, described))


# Interleaved rounds (runners/src/Native/InterleavedRounds.php): round r measures every side of a
# comparison once, back to back, so each side's figure for round r shares that round's state of the
# machine. A comparison of two sides pairs them by round: the per-round ratios (or differences) are
# the observations, and Student's t gives their CI, with n − 1 degrees of freedom for n rounds. Times
# are positive and their ratios skewed, so ratios are averaged as logarithms (a geometric mean).


def _paired(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or x.size == 0:
        raise ValueError(f"expected two equally long, non-empty series of rounds, got shapes {x.shape} and {y.shape}")
    return x, y


def _all_equal(values: np.ndarray) -> bool:
    """Equal up to rounding (log 6 − log 2 is not exactly log 3 − log 1): no spread to estimate."""
    return bool(np.ptp(values) <= 1e-12 * max(1.0, float(np.max(np.abs(values)))))


def _t_interval(values: np.ndarray, confidence: float) -> tuple[float, float]:
    """Student's t CI of the mean of `values` (scipy's one-sample t test, inverted); (−inf, inf) from
    one value."""
    n = values.size
    if n < 2:
        return -math.inf, math.inf
    mean = float(np.mean(values))
    margin = t_quantile(0.5 + confidence / 2, n - 1) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return mean - margin, mean + margin


def paired_ratio(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> Ratio:
    """a over b, paired by round: the geometric mean of a_r / b_r with a Student's t CI of the mean
    log ratio. One round gives no interval (0, inf); rounds that all agree give a point."""
    x, y = _paired(a, b)
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValueError("a ratio of times needs positive times")
    logs = np.log(x) - np.log(y)
    value = float(np.exp(np.mean(logs)))
    if logs.size < 2:
        return Ratio(value, 0.0, math.inf)
    if _all_equal(logs):
        return Ratio(value, value, value)
    low, high = _t_interval(logs, confidence)
    return Ratio(value, math.exp(low), math.exp(high))


def paired_difference(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> Estimate:
    """a − b, paired by round: the mean of a_r − b_r with a Student's t CI. One round gives no interval."""
    x, y = _paired(a, b)
    differences = x - y
    value = float(np.mean(differences))
    if differences.size < 2:
        return Estimate(value, -math.inf, math.inf)
    if _all_equal(differences):
        return Estimate(value, value, value)
    low, high = _t_interval(differences, confidence)
    return Estimate(value, low, high)


# Comparing two runs (`python -m phpcb compare`): per case a two-sided Mann–Whitney U test, p-values
# adjusted across the comparison by Benjamini–Hochberg, and a CI of the ratio new/base.
#
# The ratio's CI is the Hodges–Lehmann interval of the shift between the two samples' log times,
# obtained by inverting the Mann–Whitney test (Hollander & Wolfe, Nonparametric Statistical Methods,
# § 4.3): the shifts δ the test does not reject at level α are exactly those between two order
# statistics of the m·n pairwise differences log(new_j) − log(base_i). It is distribution-free,
# deterministic and costs one partition of m·n numbers, where scipy's 4000-resample bootstrap costs about
# 4 ms a case (five seconds for a full pair of runs). Under a pure scale shift it covers the ratio of
# the two medians; it agrees with the test by construction (a shift of 0 is outside the interval
# exactly when the exact test rejects at α).

# Up to this many samples on the larger side the null distribution of U is computed exactly (counts
# by recurrence, cached per pair of sizes); beyond it, the normal approximation.
EXACT_U_MAX_SIZE = 100


# scipy's rule for its exact test: a sample of at most this many and no ties; else the normal
# approximation. (scipy.stats.mannwhitneyu costs ~1 ms a call in input checks, a second for a pair of
# full runs; this is the same test, held to scipy's p-values by tests/test_compare_stats.py.)
EXACT_U_SMALL_SIDE = 8


def mann_whitney_p(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided Mann–Whitney U p-value, as scipy.stats.mannwhitneyu gives it: exact when a sample
    has at most 8 values and there are no ties, else the normal approximation with tie and
    continuity corrections."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    m, n = x.size, y.size
    if m == 0 or n == 0:
        raise ValueError(f"expected two non-empty samples, got sizes {m} and {n}")
    _, where, ties = np.unique(np.concatenate((x, y)), return_inverse=True, return_counts=True)
    average_rank = np.cumsum(ties) - (ties - 1) / 2.0
    u_first = float(np.sum(average_rank[where[:m]])) - m * (m + 1) / 2.0
    u = max(u_first, m * n - u_first)
    if min(m, n) <= EXACT_U_SMALL_SIDE and not np.any(ties > 1):
        # P(U ≥ u) by the null distribution's symmetry: P(U ≤ m·n − u)
        p = 2.0 * float(u_null_cdf(min(m, n), max(m, n))[round(m * n - u)])
    else:
        total = m + n
        tie_term = float(np.sum(ties.astype(float) ** 3 - ties))
        spread = math.sqrt(m * n / 12.0 * ((total + 1) - tie_term / (total * (total - 1))))
        z = (u - m * n / 2.0 - 0.5) / spread if spread > 0 else -math.inf
        p = math.erfc(z / math.sqrt(2.0))  # 2 × the normal survival function at z
    return min(max(p, 0.0), 1.0)


def benjamini_hochberg(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (the same as scipy.stats.false_discovery_control(method="bh")):
    reject every hypothesis whose adjusted p is below q to keep the false discovery rate at q."""
    p = np.asarray(p_values, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"expected a one-dimensional sequence of p-values, got shape {p.shape}")
    if np.any(np.isnan(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    m = p.size
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    # Step-up: each adjusted p is the smallest scaled p at its rank or above.
    monotone = np.minimum.accumulate(scaled[::-1])[::-1]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(monotone, 1.0)
    return adjusted


@functools.lru_cache(maxsize=256)
def u_null_cdf(m: int, n: int) -> np.ndarray:
    """P(U ≤ u) for u = 0 … m·n under the null hypothesis (no ties), U counting the pairs where the
    first sample's value is the larger.

    Counts by recurrence on the largest of the m + n values: from the first sample it exceeds all
    n of the second, else none: N(i, j, u) = N(i − 1, j, u − j) + N(i, j − 1, u).
    """
    if m < 0 or n < 0:
        raise ValueError(f"sample sizes must not be negative, got {m} and {n}")
    previous = [np.ones(1) for _ in range(n + 1)]  # i = 0: U = 0 in one way
    for i in range(1, m + 1):
        current = [np.ones(1)]  # j = 0: U = 0 in one way
        for j in range(1, n + 1):
            counts = np.zeros(i * j + 1)
            counts[j : j + (i - 1) * j + 1] += previous[j]
            counts[: i * (j - 1) + 1] += current[j - 1]
            current.append(counts)
        previous = current
    counts = previous[n]
    cdf: np.ndarray = np.cumsum(counts) / counts.sum()
    return cdf


def shift_ci_rank(m: int, n: int, confidence: float = CONFIDENCE) -> int:
    """c such that the shift's CI is [D₍c₎, D₍mn+1−c₎] of the m·n sorted pairwise differences (1-based):
    the largest c with P(U ≤ c − 1) ≤ α/2. 0 when the samples are too small for any finite interval."""
    half_alpha = (1.0 - confidence) / 2
    if max(m, n) <= EXACT_U_MAX_SIZE:
        cdf = u_null_cdf(min(m, n), max(m, n))
        # A relative tolerance so that a tail probability equal to α/2 counts as within it.
        return int(np.searchsorted(cdf, half_alpha * (1 + 1e-9), side="right"))
    z = normal_quantile(1 - half_alpha)
    sigma = math.sqrt(m * n * (m + n + 1) / 12)
    return max(0, math.floor(m * n / 2 + 0.5 - z * sigma))


def shift_ci(x: np.ndarray, y: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Distribution-free CI of the shift δ in x ≈ y + δ: the Mann–Whitney test inverted
    (Hodges–Lehmann). (−inf, inf) when the samples are too small for the confidence asked."""
    c = shift_ci_rank(int(x.size), int(y.size), confidence)
    if c == 0:
        return -math.inf, math.inf
    differences = np.subtract.outer(np.asarray(x, dtype=float), np.asarray(y, dtype=float)).ravel()
    low, high = c - 1, differences.size - c
    ordered = np.partition(differences, (low, high))
    return float(ordered[low]), float(ordered[high])


@dataclass(frozen=True)
class TwoSamples:
    """Two runs' samples of one case: median(new) / median(base), a CI of that ratio, and the
    two-sided Mann–Whitney U p-value (not yet adjusted for the other cases)."""

    ratio: float
    low: float
    high: float
    p_value: float


def ratio_ci(new: np.ndarray, base: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """CI of the ratio new/base: exp of the shift CI of the log times. A time that is not positive
    has no logarithm: then no interval, (0, inf)."""
    if np.any(new <= 0) or np.any(base <= 0):
        return 0.0, math.inf
    low, high = shift_ci(np.log(new), np.log(base), confidence)
    return math.exp(low), math.exp(high)


def two_samples(base: np.ndarray, new: np.ndarray, confidence: float = CONFIDENCE) -> TwoSamples:
    """The comparison of one case between two runs (see the note above `mann_whitney_p`)."""
    low, high = ratio_ci(new, base, confidence)
    base_median = float(median_of(base))
    ratio = float(median_of(new)) / base_median if base_median > 0 else math.inf
    return TwoSamples(ratio, low, high, mann_whitney_p(new, base))


# Precision, pairing and outliers (issue 16). The runner stops sampling a case once the 95 % CI of
# its median is narrow enough (runners/src/Harness/MedianInterval.php computes the same interval,
# with the same operations, and tests/test_precision_agreement.py holds the two together).

MIN_PAIRS = 6  # the fewest paired samples with a finite 95 % order-statistic CI of their median
TUKEY_FENCE = 1.5  # Tukey's inner fences: Q1 − 1.5 IQR and Q3 + 1.5 IQR ("mild" outliers, criterion's term)
TUKEY_FAR_FENCE = 3.0  # the outer fences ("severe" outliers)


def relative_half_width(values: np.ndarray) -> float:
    """Half the median's 95 % CI over the median: 0.03 is "±3 %"; inf without a finite CI.

    (high − low) / (2 × median), in this order: the runner computes it so, and floating point
    gives both the same number.
    """
    ordered = np.sort(values)
    low, high = _median_ci_of_sorted(ordered, CONFIDENCE)
    median = float(_median_of_sorted(ordered))
    if not (math.isfinite(low) and math.isfinite(high)) or median <= 0:
        return math.inf
    return (high - low) / (2.0 * median)


def within_target(values: np.ndarray, target: float) -> bool:
    """Whether the median's CI is within ±target of it: the runner's rule for stopping a case."""
    return relative_half_width(values) <= target


@dataclass(frozen=True)
class Outliers:
    """Samples beyond Tukey's fences: the inner ones (1.5 IQR) and, among them, the outer (3 IQR)."""

    mild: int
    severe: int


def tukey_outliers(values: np.ndarray) -> Outliers:
    """Count the samples outside Q1 − k·IQR … Q3 + k·IQR for k = 1.5 and 3 (numpy's quartiles)."""
    values = np.asarray(values)
    q1, q3 = _percentiles(values, (25, 75))
    iqr = q3 - q1
    beyond = np.abs(values.clip(q1, q3) - values)  # distance outside [Q1, Q3], 0 inside
    mild, severe = np.count_nonzero(beyond > TUKEY_FENCE * iqr), np.count_nonzero(beyond > TUKEY_FAR_FENCE * iqr)
    return Outliers(int(mild), int(severe))


def _median_per_round(
    a: np.ndarray, b: np.ndarray, combine: Callable[[np.ndarray, np.ndarray], np.ndarray], confidence: float
) -> tuple[float, float, float]:
    """The median of combine(a_r, b_r) over the rounds both sides have, with its order-statistic CI."""
    rounds = min(a.size, b.size)
    if rounds < MIN_PAIRS:
        raise ValueError(f"expected at least {MIN_PAIRS} paired samples, got {rounds}")
    per_round = combine(a[:rounds], b[:rounds])
    low, high = median_ci(per_round, confidence)
    return float(median_of(per_round)), low, high


def paired_median_ratio(a: np.ndarray, b: np.ndarray, confidence: float = CONFIDENCE) -> Ratio:
    """How many times slower `a` is than `b`, from samples taken in the same rounds (sample r of a
    beside sample r of b): the median of the per-round ratios a_r / b_r, with the order-statistic CI
    of that median (a sign-test interval: distribution-free). A drift of the machine moves both
    samples of a round alike and cancels in their ratio. Rounds only one side has are left out.
    """
    return Ratio(*_median_per_round(a, b, np.divide, confidence))


def paired_median_difference(a: np.ndarray, b: np.ndarray, confidence: float = CONFIDENCE) -> Estimate:
    """What `a` adds to `b`, from samples taken in the same rounds: the median of the per-round
    differences a_r − b_r, with the order-statistic CI of that median (see paired_median_ratio)."""
    return Estimate(*_median_per_round(a, b, np.subtract, confidence))


def ratio_between(a: np.ndarray, b: np.ndarray, paired: bool) -> Ratio:
    """median a / median b with its CI: from paired samples where they were taken in rotation (and
    are enough), else from the two samples apart (ratio_of_medians).

    Paired, the CI is the per-round ratios' (paired_median_ratio), stretched where needed to cover the
    ratio of the medians, which is the value: the ratio a page states is then the one its tables of
    medians imply, and never outside the interval it prints beside it."""
    if paired and min(a.size, b.size) >= MIN_PAIRS:
        rounds = paired_median_ratio(a, b)
        pooled = float(median_of(a) / median_of(b))
        return Ratio(pooled, min(rounds.low, pooled), max(rounds.high, pooled))
    return ratio_of_medians(a, b)


def _share_of_gap(native_ns: float) -> Callable[..., np.ndarray]:
    def statistic(small: np.ndarray, large: np.ndarray) -> np.ndarray:
        return small / (large - native_ns)

    return statistic


def share_of_gap(small: np.ndarray, large: np.ndarray, native_ns: float, confidence: float = CONFIDENCE) -> Estimate:
    """median(small) / (median(large) − native_ns): how much of the gap between a large message's
    time and the native tool's time a fixed cost per call (a small message's time) explains. The CI
    resamples both samples (percentile bootstrap, fixed seed)."""
    statistic = _share_of_gap(native_ns)
    value = float(statistic(median_of(small), median_of(large)))
    described = ("share of gap", _bits(native_ns))
    return Estimate(value, *_independent_bootstrap((small, large), statistic, value, confidence, described))

"""A bootstrap's CI is kept per process: the same samples and statistic give the CI computed the first
time, without drawing again, and anything that would change the CI (a sample's values or type, the
statistic, its parameters) is drawn afresh."""

from __future__ import annotations

import numpy as np
import pytest

from phpcb.statistics import stats


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many bootstraps were drawn (not read from the memo), from an empty memo."""
    monkeypatch.setattr(stats, "_bootstrapped", {})
    drawn: list[int] = []
    original = stats._bootstrap

    def counted(*args, **kwargs):
        drawn.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(stats, "_bootstrap", counted)
    return drawn


def sample(seed: int, n: int = 25) -> np.ndarray:
    return np.random.default_rng(seed).lognormal(5, 0.2, size=n)


def test_the_same_samples_are_drawn_once(draws):
    a, b = sample(1), sample(2)
    first = stats.ratio_of_medians(a, b)
    assert stats.ratio_of_medians(a.copy(), b.copy()) == first
    assert len(draws) == 1
    rng = np.random.default_rng(stats.BOOTSTRAP_SEED)
    resampled = stats.bootstrap_medians(a, rng) / stats.bootstrap_medians(b, rng)
    assert (first.low, first.high) == tuple(float(x) for x in np.quantile(resampled, [0.025, 0.975]))


def test_other_samples_statistics_or_parameters_are_drawn_afresh(draws):
    a, b = sample(1), sample(2)
    ratio = stats.ratio_of_medians(a, b)
    assert stats.ratio_of_medians(b, a) != ratio
    moved = a.copy()
    moved[3] *= 1.5
    assert stats.ratio_of_medians(moved, b) != ratio
    stats.difference_of_medians(a, b)
    stats.mean_of_medians([a, b], [1.0, 2.0])
    stats.mean_of_medians([a, b], [1.0, 3.0])
    stats.ratio_of_mean_medians([a], [1.0], [b], [2.0])
    stats.share_of_gap(a, b * 3, 10.0)
    stats.share_of_gap(a, b * 3, 11.0)
    stats.ratio_of_medians(a, b, confidence=0.9)
    assert len(draws) == 10


def test_a_samples_type_is_part_of_it(draws):
    whole = np.arange(1, 31)
    as_ints = stats.ratio_of_medians(whole, whole[::-1] + 1)
    as_floats = stats.ratio_of_medians(whole.astype(float), whole[::-1].astype(float) + 1)
    assert as_ints == as_floats
    assert len(draws) == 2


def test_the_memo_keeps_at_most_its_size(draws, monkeypatch):
    monkeypatch.setattr(stats, "BOOTSTRAPS_KEPT", 3)
    samples = [sample(seed, 9) for seed in range(6)]
    for one in samples:
        stats.ratio_of_medians(one, samples[0])
    assert len(stats._bootstrapped) == 3
    stats.ratio_of_medians(samples[0], samples[0])  # the oldest was dropped: drawn again
    assert len(draws) == 7


def test_a_failure_is_not_kept(draws):
    empty = (np.array([1.0, 2.0]), np.array([], dtype=float))
    with pytest.raises(ValueError, match="zero samples"):
        stats._independent_bootstrap(empty, np.divide, 1.0, stats.CONFIDENCE, ("ratio",))
    assert stats._bootstrapped == {}

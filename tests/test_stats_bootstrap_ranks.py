"""A bootstrap's draws are kept by its samples' sizes (stats._seeded_ranks): what it gives is what one
generator seeded afresh and drawing for every sample in turn gives (bootstrap_medians), to the bit,
whichever sizes were drawn before, in whatever order, and after the oldest draws were dropped."""

from __future__ import annotations

import numpy as np
import pytest

from phpcb.statistics import stats

CONFIDENCE = 0.95


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """No draws kept from other tests, and no CI memo to hide a bootstrap's draws."""
    monkeypatch.setattr(stats, "_ranks", {})
    monkeypatch.setattr(stats, "_bootstrapped", {})


def drawn_afresh(samples: list[np.ndarray], statistic) -> tuple[float, float]:
    """The CI as one generator seeded for this bootstrap alone draws it."""
    rng = np.random.default_rng(stats.BOOTSTRAP_SEED)
    resampled = statistic(*(stats.bootstrap_medians(sample, rng) for sample in samples))
    low, high = np.quantile(resampled, [(1 - CONFIDENCE) / 2, 1 - (1 - CONFIDENCE) / 2])
    return float(low), float(high)


def samples_of(sizes: tuple[int, ...], seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.lognormal(5, 0.3, size=n) for n in sizes]


def mean(*medians: np.ndarray) -> np.ndarray:
    return np.mean(np.stack(medians, axis=-1), axis=-1)


# Shared prefixes, the same sizes in another order, odd and even counts, one sample and several.
SIZES = [(7, 7), (7, 9), (9, 7), (7, 7, 8), (7,), (8, 8), (25, 9, 30, 1), (7, 7)]


@pytest.mark.parametrize("order", [SIZES, SIZES[::-1]], ids=["forward", "backward"])
def test_each_bootstrap_is_what_a_fresh_generator_draws_whatever_came_before(order):
    for seed, sizes in enumerate(order):
        samples = samples_of(sizes, seed)
        statistic = np.divide if len(sizes) == 2 else mean
        assert stats._bootstrap(samples, statistic, 1.0, CONFIDENCE) == drawn_afresh(samples, statistic), sizes


def test_the_same_sizes_reuse_the_draws_and_other_values_still_give_their_own_interval():
    first, second = samples_of((7, 7), 1), samples_of((7, 7), 2)
    one = stats._bootstrap(first, np.divide, 1.0, CONFIDENCE)
    kept = dict(stats._ranks)
    other = stats._bootstrap(second, np.divide, 1.0, CONFIDENCE)
    assert stats._ranks.keys() == kept.keys(), "no new draws for the same sizes"
    assert other != one, "the values, not the draws, differ"
    assert other == drawn_afresh(second, np.divide)


def test_dropped_draws_are_drawn_again_the_same(monkeypatch):
    monkeypatch.setattr(stats, "RANKS_KEPT", 2)
    for seed, sizes in enumerate([(7, 9), (8, 8), (6, 5), (7, 9)]):
        samples = samples_of(sizes, seed)
        assert stats._bootstrap(samples, np.divide, 1.0, CONFIDENCE) == drawn_afresh(samples, np.divide)
        assert len(stats._ranks) <= 2


def test_kept_draws_cannot_be_changed_by_a_caller():
    stats._bootstrap(samples_of((6, 7), 3), np.divide, 1.0, CONFIDENCE)
    for (below, above), _ in stats._ranks.values():
        assert not below.flags.writeable
        assert above is None or not above.flags.writeable


def test_an_empty_sample_is_still_refused():
    with pytest.raises(ValueError, match="zero samples"):
        stats._bootstrap([np.array([1.0, 2.0]), np.array([], dtype=float)], np.divide, 1.0, CONFIDENCE)

"""What a page's intervals are widened by (statistics/spread.py): a time's interval by the run's spread
between runs, a ratio's by the spread of a ratio of two cases; and the spread read from a model of two
boots (tests/test_noise.py's two_boots, whose values are known by construction)."""

from __future__ import annotations

import math

import pytest

from phpcb.compare import noise
from phpcb.data.noise_model import NoiseModel
from phpcb.statistics.spread import UNKNOWN, Z_95, RunSpread, run_spread
from phpcb.statistics.stats import Ratio

from .test_noise import JWT, SCHEMAS, two_boots

SPREAD = RunSpread(0.1, ratio_log_sd=0.2)
FACTOR = math.exp(Z_95 * 0.1)


def test_a_time_is_widened_to_the_spread_between_runs_where_its_own_ci_is_narrower():
    # In seconds, as pages hold times: a median far below 1 is widened like any other.
    assert SPREAD.widen(2e-5, 1.9e-5, 2.1e-5) == pytest.approx((2e-5 / FACTOR, 2e-5 * FACTOR))
    assert SPREAD.widen(100.0, 50.0, 200.0) == (50.0, 200.0), "a within-run CI already wider is kept"
    assert SPREAD.widen(100.0, 99.0, 200.0) == pytest.approx((100.0 / FACTOR, 200.0)), "each end on its own"


@pytest.mark.parametrize(
    ("spread", "median", "low", "high"),
    [
        (UNKNOWN, 100.0, 90.0, 110.0),
        (SPREAD, math.inf, 1.0, 2.0),
        (SPREAD, math.nan, 1.0, 2.0),
        (SPREAD, 0.0, 0.0, 1.0),
    ],
    ids=["no-spread", "infinite", "nan", "zero"],
)
def test_a_time_without_a_spread_or_a_positive_finite_median_keeps_its_interval(spread, median, low, high):
    assert spread.widen(median, low, high) == (low, high)


def test_a_ratio_is_widened_in_quadrature_on_each_side_below_one_as_above():
    ratio = Ratio(0.5, 0.45, 0.6)
    widened = SPREAD.widen_ratio(ratio)
    spread = Z_95 * 0.2
    assert widened.value == 0.5
    assert widened.low == pytest.approx(0.5 * math.exp(-math.hypot(math.log(0.5 / 0.45), spread)))
    assert widened.high == pytest.approx(0.5 * math.exp(math.hypot(math.log(0.6 / 0.5), spread)))


@pytest.mark.parametrize(
    "ratio",
    [Ratio(0.0, 0.0, 0.1), Ratio(math.inf, 2.0, math.inf), Ratio(2.0, 0.0, 3.0), Ratio(2.0, 1.5, math.inf)],
    ids=["zero", "infinite", "ci-from-zero", "ci-without-bound"],
)
def test_a_ratio_of_no_finite_positive_value_or_ci_is_kept_as_it_is(ratio):
    assert SPREAD.widen_ratio(ratio) == ratio
    assert UNKNOWN.widen_ratio(Ratio(2.0, 1.9, 2.1)) == Ratio(2.0, 1.9, 2.1)


def test_a_model_of_two_boots_widens_by_its_spread_between_boots_and_names_whose_runs_stand_in():
    """Each case sits 3 % above its class on one boot and below on the other: no residual within a boot, one
    between boots. A ratio moves by both cases' residuals: √2 times the experiment's typical one."""
    machine, section = noise.estimate(two_boots(case_by_boot=0.03), [JWT], SCHEMAS)
    model = NoiseModel(machine, {section.section: section})
    spread = run_spread(model, machine, "quick", "host", "jwt")
    across = section.experiment_residual_log_sd("jwt", across_boots=True)
    assert across is not None
    assert across > 0.02 > (section.experiment_residual_log_sd("jwt") or 0.0)
    assert spread.ratio_log_sd == pytest.approx(math.sqrt(2) * across)
    assert spread.log_sd == section.experiment_run_log_sd("jwt", across_boots=True)
    assert (spread.boots, spread.one_boot, spread.stand_in) == (2, False, False)
    assert spread.label == "across runs and boots of this machine (6 runs of PHP 8.2 from 2 boots)"
    borrowed = run_spread(model, machine, "full", "host", "jwt")
    assert borrowed.stand_in
    assert borrowed.label == "across runs and boots of this machine (6 quick-profile runs of PHP 8.2 from 2 boots)"
    assert run_spread(model, "another-machine", "quick", "host", "jwt") == UNKNOWN
    assert run_spread(model, machine, "quick", "debian13", "jwt") == UNKNOWN
    assert run_spread(model, machine, "quick", "host", "aead") == UNKNOWN

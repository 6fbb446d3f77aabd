"""statistics/distributions.py: Student's t and the normal quantile the build computes itself, held to
scipy.special (the functions they replace), to closed forms, and to each other."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from scipy import special

from phpcb.statistics.distributions import normal_quantile, t_cdf, t_quantile

from .conftest import ROOT

# Degrees of freedom a page's intervals use (n − 1 of a run's samples or rounds, up to the full profile's
# 1,000 samples), and a few between and past them.
DFS = [1, 2, 3, 4, 5, 6, 7, 9, 10, 15, 29, 30, 50, 99, 100, 199, 499, 999, 1.5, 2.5, 33.3]
TS = [0.0, 1e-300, 1e-12, 1e-6, 0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 30.0, 100.0, 1e3, 1e5, 1e20]
# Where scipy's own quantile is exact to double precision: past 1e-100 it returns inf or saturates.
PS = [1e-100, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.01, 0.025, 0.05, 0.1, 0.3, 0.49, 0.51, 0.7, 0.9, 0.95, 0.975]
PS += [0.99, 0.999, 1 - 1e-9, 1 - 1e-12]


def relative(a: float, b: float) -> float:
    return abs(a - b) / abs(b) if b else abs(a - b)


@pytest.mark.parametrize("df", DFS)
def test_the_t_cdf_is_scipys_stdtr(df):
    # scipy itself is off by 1.4e-11 at df = 1, t = ±1e-6 (the Cauchy CDF 1/2 + atan(t)/π says so; see below).
    worst = max((relative(t_cdf(sign * t, df), float(special.stdtr(df, sign * t))), t) for t in TS for sign in (1, -1))
    assert worst[0] <= 5e-11, f"df={df}: off by {worst[0]:.1e} at |t|={worst[1]}"


@pytest.mark.parametrize("df", DFS)
def test_the_t_quantile_is_scipys_stdtrit(df):
    worst = max((relative(t_quantile(p, df), float(special.stdtrit(df, p))), p) for p in PS)
    assert worst[0] <= 1e-11, f"df={df}: off by {worst[0]:.1e} at p={worst[1]}"


@pytest.mark.parametrize(
    ("df", "expected"),
    [
        # t(0.975) from the closed forms (ν = 1: tan(0.475π); ν = 2: 0.95/√(2·0.975·0.025)) and, for the
        # others, the published tables' 12-digit values.
        pytest.param(1, math.tan(0.475 * math.pi), id="cauchy"),
        pytest.param(2, 0.95 / math.sqrt(2 * 0.975 * 0.025), id="two"),
        pytest.param(6, 2.446911851144969, id="six: a quick case's 7 samples"),
        pytest.param(10, 2.228138851986274, id="ten"),
        pytest.param(30, 2.042272456301238, id="thirty"),
    ],
)
def test_the_975_quantile_is_the_tables(df, expected):
    assert t_quantile(0.975, df) == pytest.approx(expected, rel=1e-13)


def test_the_cauchy_cdf_is_its_closed_form_where_scipy_drifts():
    for t in (1e-12, 1e-6, 0.3, 1.0, 7.0, 1e6):
        for x in (t, -t):
            assert t_cdf(x, 1) == pytest.approx(0.5 + math.atan(x) / math.pi, rel=1e-14)


@pytest.mark.parametrize("df", [1, 1.5, 2, 3, 10, 999])
@pytest.mark.parametrize("p", [1e-300, 1e-200, 1e-30, 0.025, 0.5, 0.975, 1 - 1e-16])
def test_the_quantile_and_the_cdf_invert_each_other_into_the_far_tails(df, p):
    t = t_quantile(p, df)
    assert math.isfinite(t)
    assert t_cdf(t, df) == pytest.approx(p, rel=1e-12)


def test_the_quantile_is_odd_and_the_cdf_symmetric():
    for df in (1, 4, 99):
        for p in (2**-10, 0.125, 0.375):  # dyadic: 1 − p is exactly the other tail's probability
            assert t_quantile(p, df) == -t_quantile(1 - p, df)
        for t in (0.3, 4.0):
            assert t_cdf(-t, df) == pytest.approx(1 - t_cdf(t, df), rel=1e-15)


def test_the_ends_of_both_scales():
    assert t_quantile(0.0, 5) == -math.inf
    assert t_quantile(1.0, 5) == math.inf
    assert t_quantile(0.5, 5) == 0.0
    assert t_cdf(math.inf, 5) == 1.0
    assert t_cdf(-math.inf, 5) == 0.0
    assert t_cdf(0.0, 5) == 0.5
    assert math.isnan(t_cdf(math.nan, 5))
    assert normal_quantile(0.0) == -math.inf
    assert normal_quantile(1.0) == math.inf


@pytest.mark.parametrize("p", [1e-300, 1e-100, 1e-15, 1e-9, 0.001, 0.025, 0.3, 0.5, 0.7, 0.975, 1 - 1e-9, 1 - 1e-16])
def test_the_normal_quantile_is_scipys_ndtri(p):
    assert normal_quantile(p) == pytest.approx(float(special.ndtri(p)), rel=1e-15, abs=1e-300)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: t_quantile(0.975, 0), "expected degrees of freedom of at least 1, and finite, got 0"),
        (lambda: t_quantile(0.975, 0.5), "expected degrees of freedom of at least 1, and finite, got 0.5"),
        (lambda: t_cdf(1.0, math.inf), "expected degrees of freedom of at least 1, and finite, got inf"),
        (lambda: t_cdf(1.0, math.nan), "expected degrees of freedom of at least 1, and finite, got nan"),
        (lambda: t_quantile(1.5, 5), "expected a probability from 0 to 1, got 1.5"),
        (lambda: t_quantile(math.nan, 5), "expected a probability from 0 to 1, got nan"),
        (lambda: normal_quantile(-0.1), "expected a probability from 0 to 1, got -0.1"),
    ],
)
def test_a_value_outside_the_domain_is_refused_naming_it(call, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        call()


BUILD_VERBS = ["pages", "check", "statements", "compare", "ab", "precision", "publish"]
# One process imports the verbs one by one and names the first after which scipy is loaded: a process
# per verb would cost the suite what this test guards against.
FIRST_TO_LOAD_SCIPY = f"""
import importlib, sys
for verb in {BUILD_VERBS!r}:
    importlib.import_module("phpcb.commands." + verb)
    if "scipy" in sys.modules:
        print(verb)
        break
"""


def test_no_command_of_the_build_imports_scipy():
    """scipy is the tests' reference, no requirement of the build (requirements.txt): importing
    scipy.special slowed the start of every `python -m phpcb` process."""
    found = subprocess.run(
        [sys.executable, "-c", FIRST_TO_LOAD_SCIPY],
        env={"PYTHONPATH": str(ROOT / "scripts"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert found.stdout.strip() == "", f"python -m phpcb {found.stdout.strip()} imports scipy"


def _two_sided_closed_form(t: float, nu: int) -> float:
    """P(|T| ≤ t) for a whole ν, by Abramowitz and Stegun 26.7.3 and 26.7.4: sums of cosine powers, no
    gamma function, an independent reference for the incomplete beta function and its series for large ν."""
    theta = math.atan(t / math.sqrt(nu))
    sine, cosine = math.sin(theta), math.cos(theta)
    if nu % 2 == 0:
        term = total = 1.0
        for k in range(1, nu // 2):
            term *= (2 * k - 1) / (2 * k) * cosine * cosine
            total += term
        return sine * total
    term = total = cosine
    for k in range(1, (nu - 1) // 2):
        term *= (2 * k) / (2 * k + 1) * cosine * cosine
        total += term
    return 2 / math.pi * (theta + sine * total)


@pytest.mark.parametrize("df", [3, 4, 5, 10, 11, 127, 128, 129, 130, 200, 201, 1000, 1001])
def test_the_t_cdf_is_the_closed_form_of_a_whole_df(df):
    for t in (0.1, 0.5, 1.0, 1.5, 2.0):
        assert t_cdf(-t, df) == pytest.approx(0.5 * (1 - _two_sided_closed_form(t, df)), rel=5e-13)


@pytest.mark.parametrize("df", [3, 4, 30, 999])
def test_near_the_median_the_quantile_is_the_distance_over_the_density_at_zero(df):
    """Where scipy's stdtrit loses its digits (it gives 0 for p = 1/2 − 1e-10): t ≈ (p − 1/2) / f(0)."""
    at_zero = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    for distance in (1e-10, 1e-7, -1e-7):
        assert t_quantile(0.5 + distance, df) == pytest.approx(distance / at_zero, rel=1e-5)


def test_the_quantile_takes_a_few_newton_steps(monkeypatch):
    """Newton's method from the nearer of two starts: a dozen CDFs at most, where halving the bracket
    down to double precision would take fifty."""
    from phpcb.statistics import distributions

    calls = []
    tail = distributions._upper_tail
    monkeypatch.setattr(distributions, "_upper_tail", lambda t, df: calls.append(t) or tail(t, df))
    most = 0
    for df in [3, 4, 7, 10, 30, 50, 199, 999, 1.5, 33.3]:
        for p in [1e-100, 1e-12, 1e-6, 0.001, 0.025, 0.05, 0.3, 0.49, 0.51, 0.7, 0.95, 0.975, 0.999, 1 - 1e-9]:
            calls.clear()
            t_quantile(p, df)
            most = max(most, len(calls))
    assert most <= 12

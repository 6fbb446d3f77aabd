"""Student's t distribution (its CDF and quantile) and the normal quantile: the three functions of
scipy.special the build called (stdtr, stdtrit, ndtri). Here, a build does not import scipy: that import
slowed the start of every `python -m phpcb` process more than numpy's, and scipy was one of the two
largest packages a fresh machine's `make report` installed, beside pyarrow (issue 48).
tests/test_distributions.py holds them to scipy's.

The t CDF is the regularized incomplete beta function, I_x(ν/2, 1/2) with x = ν/(ν + t²), evaluated by
its continued fraction (modified Lentz) on the side where it converges, with x and 1 − x computed apart so
that neither tail loses its digits to a subtraction. The quantile solves for the tail in log space by
Newton's method inside a bracket, exact for ν = 1 and 2.
"""

from __future__ import annotations

import math
from statistics import NormalDist

_NORMAL = NormalDist()
_TINY = 1e-300  # keeps the fraction's terms off zero (Lentz)
_FRACTION_TERMS = 10_000
_NEWTON_STEPS = 200


def normal_quantile(p: float) -> float:
    """Φ⁻¹(p), the standard normal distribution's quantile (scipy.special.ndtri)."""
    _check_probability(p)
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    return _NORMAL.inv_cdf(p)


def t_cdf(t: float, df: float) -> float:
    """P(T ≤ t) for Student's t with `df` degrees of freedom (scipy.special.stdtr)."""
    _check_df(df)
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = _upper_tail(abs(t), df)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The t such that P(T ≤ t) = p, Student's t with `df` degrees of freedom (scipy.special.stdtrit)."""
    _check_df(df)
    _check_probability(p)
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    if p == 0.5:
        return 0.0
    # By symmetry, solve for the upper tail q = P(T > |t|); 1 − p is exact for p ≥ 1/2 (Sterbenz).
    upper = p > 0.5
    q = 1.0 - p if upper else p
    t = _upper_quantile(q, df)
    return t if upper else -t


def _check_df(df: float) -> None:
    # Below 1 the quantiles of small p pass the largest double; no interval here has fewer than 2 values.
    if not (df >= 1 and math.isfinite(df)):
        raise ValueError(f"expected degrees of freedom of at least 1, and finite, got {df!r}")


def _check_probability(p: float) -> None:
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"expected a probability from 0 to 1, got {p!r}")


def _upper_tail(t: float, df: float) -> float:
    """P(T > t) for t ≥ 0: half of I_x(ν/2, 1/2) with x = ν/(ν + t²), from log x and log(1 − x) taken
    apart, so that neither is 1 minus the other."""
    if t == 0.0:
        return 0.5
    log_inverse_x = _log_1p_t2_over_df(t, df)  # log(1/x)
    log_y = 2 * math.log(t) - math.log(df) - log_inverse_x
    return 0.5 * _regularized_beta(df / 2, 0.5, -log_inverse_x, log_y, _log_beta_half(df / 2))


def _log_1p_t2_over_df(t: float, df: float) -> float:
    """log(1 + t²/ν) for t > 0, without squaring a t past √ν (t² would overflow where t passes 1e154)."""
    if t <= math.sqrt(df):
        return math.log1p(t * t / df)
    r = math.sqrt(df) / t  # at most 1
    return math.log1p(r * r) - 2 * math.log(r)


def _log_gamma_ratio_half(a: float) -> float:
    """log Γ(a + 1/2) − log Γ(a). For large a the two lgamma values are large and close, and their
    difference would keep only 12 of its digits: there, the asymptotic series."""
    if a < 64:
        return math.lgamma(a + 0.5) - math.lgamma(a)
    inverse = 1 / a
    inverse2 = inverse * inverse
    series = inverse * (-1 / 8 + inverse2 * (1 / 192 + inverse2 * (-1 / 640 + inverse2 * 17 / 14336)))
    return 0.5 * math.log(a) + series


def _log_beta_half(a: float) -> float:
    """log B(a, 1/2) = log Γ(a) + log Γ(1/2) − log Γ(a + 1/2)."""
    return 0.5 * math.log(math.pi) - _log_gamma_ratio_half(a)


def _regularized_beta(a: float, b: float, log_x: float, log_y: float, log_beta: float) -> float:
    """I_x(a, b) from log x, log(1 − x) (each computed apart, both finite) and log B(a, b)."""
    x, y = math.exp(log_x), math.exp(log_y)  # either may underflow to 0: the fraction is then 1
    front = math.exp(a * log_x + b * log_y - log_beta)
    # The fraction converges fast for x < (a + 1)/(a + b + 2); past it, I_x(a, b) = 1 − I_y(b, a).
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, y) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b), by the modified Lentz method."""
    c = 1.0
    d = _off_zero(1.0 - (a + b) * x / (a + 1))
    d = 1.0 / d
    fraction = d
    for m in range(1, _FRACTION_TERMS):
        even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1.0 / _off_zero(1.0 + even * d)
        c = _off_zero(1.0 + even / c)
        fraction *= d * c
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1.0 / _off_zero(1.0 + odd * d)
        c = _off_zero(1.0 + odd / c)
        step = d * c
        fraction *= step
        if abs(step - 1.0) <= 1e-16:
            return fraction
    raise ArithmeticError(f"the incomplete beta fraction did not converge for a={a!r}, b={b!r}, x={x!r}")


def _off_zero(value: float) -> float:
    return value if abs(value) >= _TINY else _TINY


def _log_density_constant(df: float) -> float:
    """log of the t density's constant, Γ((ν + 1)/2) / (√(νπ) Γ(ν/2))."""
    return _log_gamma_ratio_half(df / 2) - 0.5 * math.log(df * math.pi)


def _t_density(t: float, df: float) -> float:
    return math.exp(_log_density_constant(df) - (df + 1) / 2 * _log_1p_t2_over_df(t, df))


def _log_miss(tail: float, q: float) -> float:
    """How far a tail is from q, in log: where Newton's method starts best."""
    return abs(math.log(tail) - math.log(q)) if tail > 0 else math.inf


def _upper_quantile(q: float, df: float) -> float:
    """The t > 0 with P(T > t) = q, for 0 < q < 1/2."""
    if df == 1:  # Cauchy
        return 1.0 / math.tan(math.pi * q)
    if df == 2:
        return (1 - 2 * q) / math.sqrt(2 * q * (1 - q))
    # A bracket without a search: the tail is 1/2 at 0, and below the tail of the density's bound
    # c·ν^((ν+1)/2)·t^−(ν+1) everywhere, so it is below q where that bound's tail is q. Newton's method
    # starts from that end or the normal quantile, whichever is the nearer in log tail.
    low = 0.0
    high = math.exp((_log_density_constant(df) + (df - 1) / 2 * math.log(df) - math.log(q)) / df)
    t = min((-normal_quantile(q), high), key=lambda start: _log_miss(_upper_tail(start, df), q))
    for _ in range(_NEWTON_STEPS):
        tail = _upper_tail(t, df)
        if tail > q:
            low = t
        else:
            high = t
        # Newton on log P(T > t) − log q (the tail's slope is −density); halving the bracket where a step
        # would leave it, or where the tail or the density underflowed.
        density = _t_density(t, df)
        candidate = t + (math.log(tail) - math.log(q)) * tail / density if tail > 0 and density > 0 else math.nan
        if abs(candidate - t) <= 4e-16 * t:
            return candidate
        if high - low <= 4e-16 * high:  # far in a tail the CDF's own rounding stops the steps short of that
            return t
        t = candidate if low < candidate < high else (low + high) / 2
    raise ArithmeticError(f"the t quantile did not converge for q={q!r}, df={df!r}")

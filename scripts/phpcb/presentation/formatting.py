"""Number and size formats for pages: one place, so tables, prose and charts agree."""

from __future__ import annotations

import math
from typing import Protocol

_BINARY_UNITS = ((1024**3, "GiB"), (1024**2, "MiB"), (1024, "KiB"))


def size(n_bytes: int) -> str:
    for factor, unit in _BINARY_UNITS:
        if n_bytes >= factor and n_bytes % factor == 0:
            return f"{n_bytes // factor} {unit}"
    return f"{n_bytes} B"


def memory(n_bytes: int) -> str:
    """Installed memory: never a whole unit (the kernel keeps some), so one decimal in GiB."""
    return f"{n_bytes / 1024**3:.1f} GiB"


def rate(mb_per_s: float, digits: int = 3) -> str:
    """MB/s to `digits` significant digits (whole MB/s from 100 up), e.g. 1,638 MB/s, 15.9 MB/s."""
    if mb_per_s >= 100 and digits <= 3:
        return f"{mb_per_s:,.0f} MB/s"
    places = max(digits - 1 - math.floor(math.log10(mb_per_s)), 0) if mb_per_s > 0 else 2
    return f"{mb_per_s:,.{places}f} MB/s"


def duration(ns: float, digits: int = 3) -> str:
    """3 significant digits as a rule ('13 µs'); with more, trailing zeros are kept ('13.00 µs'),
    so the two ends of an interval read to the same precision."""
    if math.isinf(ns):
        return "∞"
    flag = "#" if digits > 3 else ""
    for factor, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if ns >= factor:
            return f"{ns / factor:{flag}.{digits}g} {unit}"
    return f"{ns:{flag}.{digits}g} ns"


# Digits tried, from the tables' usual 3 up to this many, before an interval is called narrower than
# it can be shown.
MAX_DIGITS = 5


def _digits_to_tell_apart(values: tuple[float, ...]) -> int | None:
    """The fewest significant digits (3 or more) at which the distinct values stay distinct."""
    distinct = len(set(values))
    for digits in range(3, MAX_DIGITS + 1):
        if len({f"{value:.{digits}g}" for value in values}) == distinct:
            return digits
    return None


def _share_text(percent: float) -> str:
    if percent < 0.1:
        return "<0.1 %"
    return f"{percent:.1f} %" if percent < 10 else f"{percent:.0f} %"


# A CI may be written "±" (its wider side) when its sides differ by less than this share of the wider:
# "±2.5 %" for −2.4 % and +2.5 % says no less than the CI; "±133 %" for −52 % and +133 % hides a side.
SYMMETRIC_WITHIN = 0.2


def _sides(value: float, low: float, high: float) -> tuple[float, float] | None:
    """The CI's two sides as percentages of the value; None when it is unbounded."""
    if not all(math.isfinite(x) for x in (value, low, high)) or value <= 0:
        return None
    return (value - low) / value * 100, (high - value) / value * 100


def symmetric(value: float, low: float, high: float) -> bool:
    """The CI's two sides are nearly equal, so '±' (the wider side) describes it without hiding either."""
    sides = _sides(value, low, high)
    if sides is None:
        return False
    narrow, wide = sorted(sides)
    return wide <= 0 or narrow >= (1 - SYMMETRIC_WITHIN) * wide or _share_text(narrow) == _share_text(wide)


def spread(value: float, low: float, high: float) -> str:
    """The 95 % CI as shares of the value: '±0.4 %' (the wider side) where its two sides are nearly equal,
    else '−0.3 % / +0.5 %': an asymmetric interval is never written as ±."""
    sides = _sides(value, low, high)
    if sides is None:
        return "CI unbounded (n < 6)"
    below, above = sides
    if symmetric(value, low, high):
        return f"±{_share_text(max(below, above))}"
    return f"−{_share_text(below)} / +{_share_text(above)}"


def value_ci(value: float, low: float, high: float, unit: str = "") -> str:
    """A plain number with its CI, to the digits that tell the three apart: '0.1648 % (0.1645–0.1672 %)'."""
    if not all(math.isfinite(x) for x in (value, low, high)):
        return f"{value:.3g}{unit} (CI unbounded)"
    digits = _digits_to_tell_apart((low, value, high)) or MAX_DIGITS
    return f"{_significant(value, digits)}{unit} ({_significant(low, digits)}–{_significant(high, digits)}{unit})"


def _significant(value: float, digits: int) -> str:
    """`digits` significant digits, trailing zeros kept ('0.10'), no bare trailing point ('101', not '101.'),
    and a large number whole, never in exponent notation ('1,782', not '1.78e+03')."""
    if not math.isfinite(value) or value == 0:
        return f"{value:g}"
    places = digits - 1 - math.floor(math.log10(abs(value)))
    if abs(round(value, places)) >= 10 ** math.floor(math.log10(abs(value)) + 1):
        places -= 1  # rounding carried into the next digit (9.996 → 10.0)
    return f"{value:,.{max(places, 0)}f}"


def duration_interval(low: float, high: float, median: float) -> str:
    """A time CI whose ends read as different numbers: '1.298 µs – 1.302 µs', not '1.3 µs – 1.3 µs'."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return "unbounded (n < 6)"
    digits = _digits_to_tell_apart((low, median, high))
    if digits is None:
        return f"{duration(median)} {spread(median, low, high)}"
    return f"{duration(low, digits)} – {duration(high, digits)}"


def rate_interval(low: float, high: float, median: float) -> str:
    """A throughput CI whose ends read as different numbers: '0.0431 – 0.0437 MB/s'."""
    if not (math.isfinite(low) and math.isfinite(high)) or low <= 0:
        return "unbounded (n < 6)"
    digits = _digits_to_tell_apart((low, median, high))
    if digits is None:
        return spread(median, low, high)
    return f"{rate(low, digits).removesuffix(' MB/s')} – {rate(high, digits)}"


def signed_duration(ns: float) -> str:
    """A difference of times: '+1.84 µs', '−320 ns'."""
    if not math.isfinite(ns):
        return "∞" if ns > 0 else "−∞"
    return ("+" if ns >= 0 else "−") + duration(abs(ns))


def percent(fraction: float) -> str:
    return f"{fraction * 100:.1f} %"


def count(value: float) -> str:
    return f"{value:,.0f}"


class _Timed(Protocol):
    n: int
    median_ns: float
    ci_low_ns: float
    ci_high_ns: float


def time_spread(summary: _Timed) -> str:
    """A median time with its CI's share, '1.16 µs ±0.4 %', where the CI is symmetric as printed; else
    with the interval itself, as time_ci prints it: '687 ms (331 ms – 1.6 s)'."""
    if not (math.isfinite(summary.ci_low_ns) and math.isfinite(summary.ci_high_ns)):
        return f"{duration(summary.median_ns)} (n = {summary.n}, too few for a CI)"
    if not symmetric(summary.median_ns, summary.ci_low_ns, summary.ci_high_ns):
        return time_ci(summary)
    return f"{duration(summary.median_ns)} {spread(summary.median_ns, summary.ci_low_ns, summary.ci_high_ns)}"


def time_ci(summary: _Timed) -> str:
    """A median time with its CI: '1.16 µs (1.15 µs – 1.16 µs)', to the digits that tell the ends apart."""
    if not (math.isfinite(summary.ci_low_ns) and math.isfinite(summary.ci_high_ns)):
        return f"{duration(summary.median_ns)} (n = {summary.n}, too few for a CI)"
    return (
        f"{duration(summary.median_ns)} ({duration_interval(summary.ci_low_ns, summary.ci_high_ns, summary.median_ns)})"
    )


def rate_spread(mb_per_s: float, interval: tuple[float, float]) -> str:
    """A throughput with its CI's share, '4,862 MB/s ±0.1 %', where the CI is symmetric as printed; else
    with the interval, as rate_ci prints it."""
    if all(math.isfinite(x) for x in interval) and not symmetric(mb_per_s, *interval):
        return rate_ci(mb_per_s, interval)
    return f"{rate(mb_per_s)} {spread(mb_per_s, *interval)}"


def rate_ci(mb_per_s: float, interval: tuple[float, float]) -> str:
    """A throughput with its CI: '40.3 MB/s (40.26 – 40.38 MB/s)'."""
    return f"{rate(mb_per_s)} ({rate_interval(interval[0], interval[1], mb_per_s)})"


def plus_minus(fraction: float) -> str:
    """A precision target: 0.03 is "±3 %"."""
    return f"±{fraction * 100:g} %"


def count_range(counts: list[int]) -> str:
    """How many, over several cases: "7", or "7–45" when they differ; "0" for none."""
    if not counts:
        return "0"
    low, high = min(counts), max(counts)
    return f"{low:,}" if low == high else f"{low:,}–{high:,}"

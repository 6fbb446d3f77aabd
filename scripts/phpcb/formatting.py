"""Number and size formats for pages: one place, so tables, prose and charts agree."""

from __future__ import annotations

import math

_BINARY_UNITS = ((1024**3, "GiB"), (1024**2, "MiB"), (1024, "KiB"))


def size(n_bytes: int) -> str:
    for factor, unit in _BINARY_UNITS:
        if n_bytes >= factor and n_bytes % factor == 0:
            return f"{n_bytes // factor} {unit}"
    return f"{n_bytes} B"


def memory(n_bytes: int) -> str:
    """Installed memory: never a whole unit (the kernel keeps some), so one decimal in GiB."""
    return f"{n_bytes / 1024**3:.1f} GiB"


def rate(mb_per_s: float) -> str:
    if mb_per_s >= 100:
        return f"{mb_per_s:,.0f} MB/s"
    if mb_per_s >= 10:
        return f"{mb_per_s:.1f} MB/s"
    return f"{mb_per_s:.2f} MB/s"


def duration(ns: float) -> str:
    if math.isinf(ns):
        return "∞"
    for factor, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if ns >= factor:
            return f"{ns / factor:.3g} {unit}"
    return f"{ns:.3g} ns"


def percent(fraction: float) -> str:
    return f"{fraction * 100:.1f} %"


def count(value: float) -> str:
    return f"{value:,.0f}"


def plus_minus(fraction: float) -> str:
    """A precision target: 0.03 is "±3 %"."""
    return f"±{fraction * 100:g} %"


def count_range(counts: list[int]) -> str:
    """How many, over several cases: "7", or "7–45" when they differ; "0" for none."""
    if not counts:
        return "0"
    low, high = min(counts), max(counts)
    return f"{low:,}" if low == high else f"{low:,}–{high:,}"

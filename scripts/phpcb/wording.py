"""How numbers are said: a speed-up is stated only when its CI excludes 1."""

from __future__ import annotations

from .stats import Ratio


def times(value: float) -> str:
    return f"{value:.2f}×" if value < 10 else f"{value:.1f}×"


def interval(low: float, high: float) -> str:
    return f"95% CI {low:.2f}–{high:.2f}×" if high < 10 else f"95% CI {low:.1f}–{high:.1f}×"


def speedup(subject: str, baseline: str, ratio: Ratio) -> str:
    """'A is 3.1× faster than B (95% CI 2.9–3.3×)', or 'no measurable difference between A and B (…)'."""
    if not ratio.significant:
        return (
            f"no measurable difference between {subject} and {baseline} "
            f"(ratio {ratio.value:.2f}, 95% CI {ratio.low:.2f}–{ratio.high:.2f})"
        )
    if ratio.value >= 1:
        return f"{subject} is {times(ratio.value)} faster than {baseline} ({interval(ratio.low, ratio.high)})"
    return f"{baseline} is {times(1 / ratio.value)} faster than {subject} ({interval(1 / ratio.high, 1 / ratio.low)})"


def margin(runner_up: str, ratio: Ratio) -> str:
    """A short table cell: '2.4× faster than B (95% CI 2.3–4.4×)', or 'no measurable difference from B'."""
    if not ratio.significant:
        return f"no measurable difference from {runner_up}"
    if ratio.value >= 1:
        return f"{times(ratio.value)} faster than {runner_up} ({interval(ratio.low, ratio.high)})"
    return f"{times(1 / ratio.value)} slower than {runner_up} ({interval(1 / ratio.high, 1 / ratio.low)})"

"""How numbers are said: a speed-up is stated only when its CI excludes 1."""

from __future__ import annotations

import math

from phpcb.statistics.machine_speed import USUAL, MachineSpeed
from phpcb.statistics.sample_spread import USUAL as SPREAD_USUAL
from phpcb.statistics.sample_spread import SampleSpread
from phpcb.statistics.speed_shifts import SHIFTED, SpeedShifts
from phpcb.statistics.stats import CONFIDENCE, Ratio

# How a page names an interval: the confidence level stats.CONFIDENCE holds, "95% CI".
CI = f"{CONFIDENCE * 100:g}% CI"


def times(value: float) -> str:
    return f"{value:.2f}×" if value < 10 else f"{value:.1f}×"


def _places(value: float, low: float, high: float) -> int:
    """Decimal places that a CI supports: 2 significant digits when it spans about the value, up to
    4 when it is narrow (1464.4 with 95 % CI 802.8–4784.1 is "≈ 1,500×", 3.1 with 2.9–3.3 is "3.1×")."""
    width = high - low
    if not (math.isfinite(value) and math.isfinite(width)) or value <= 0:
        return 2
    digits = 4 if width <= 0 else min(4, max(2, math.ceil(math.log10(value / width)) + 1))
    return digits - 1 - math.floor(math.log10(value))


def _number(value: float, places: int) -> str:
    rounded = round(value, places)
    return f"{rounded:,.{max(places, 0)}f}"


def estimate(value: float, low: float, high: float) -> str:
    """'3.1× (95% CI 2.9–3.3×)', to the precision the CI supports; '≈' where that rounds whole digits."""
    places = _places(value, low, high)
    approx = "≈ " if places < 0 else ""
    return f"{approx}{_number(value, places)}× ({CI} {_number(low, places)}–{_number(high, places)}×)"


def interval(low: float, high: float) -> str:
    places = _places(math.sqrt(low * high) if low > 0 and high > 0 else high, low, high)
    return f"{CI} {_number(low, places)}–{_number(high, places)}×"


def speedup(subject: str, baseline: str, ratio: Ratio) -> str:
    """'A is 3.1× faster than B (95% CI 2.9–3.3×)', or 'no measurable difference between A and B (…)'."""
    if not ratio.significant:
        return (
            f"no measurable difference between {subject} and {baseline} "
            f"(ratio {ratio.value:.2f}, {CI} {ratio.low:.2f}–{ratio.high:.2f})"
        )
    if ratio.value >= 1:
        estimate_ = (ratio.value, ratio.low, ratio.high)
        return f"{subject} is {_faster(*estimate_)} than {baseline}{_ci(*estimate_)}"
    inverse = (1 / ratio.value, 1 / ratio.high, 1 / ratio.low)
    return f"{baseline} is {_faster(*inverse)} than {subject}{_ci(*inverse)}"


def margin(runner_up: str, ratio: Ratio) -> str:
    """A short table cell: '2.4× faster than B (95% CI 2.3–4.4×)', or 'no measurable difference from B'."""
    if not ratio.significant:
        return f"no measurable difference from {runner_up}"
    if ratio.value >= 1:
        return (
            f"{_faster(ratio.value, ratio.low, ratio.high)} than {runner_up}{_ci(ratio.value, ratio.low, ratio.high)}"
        )
    inverse = (1 / ratio.value, 1 / ratio.high, 1 / ratio.low)
    return f"{_faster(*inverse).replace('faster', 'slower')} than {runner_up}{_ci(*inverse)}"


def _faster(value: float, low: float, high: float) -> str:
    """'3.1× faster' / '≈ 1,500× faster', as precise as the CI allows."""
    places = _places(value, low, high)
    return f"{'≈ ' if places < 0 else ''}{_number(value, places)}× faster"


def _ci(value: float, low: float, high: float) -> str:
    places = _places(value, low, high)
    return f" ({CI} {_number(low, places)}–{_number(high, places)}×)"


def relative(ratio: Ratio) -> str:
    """One end of a range, as precise as its CI allows: '5.7× faster', '1.2× slower', 'no measurable difference'."""
    if not ratio.significant:
        return "no measurable difference"
    if ratio.value >= 1:
        return _faster(ratio.value, ratio.low, ratio.high)
    return _faster(1 / ratio.value, 1 / ratio.high, 1 / ratio.low).replace("faster", "slower")


def span(subject: str, baseline: str, cases: str, low: tuple[Ratio, str], high: tuple[Ratio, str]) -> str:
    """A headline over many cases: the range and which case gives each end, before any one case.
    'Over the 36 AES-CBC cases, OpenSSL is 5.7× (AES-128, encrypt, 20 MiB) to 89.9× faster (AES-256,
    decrypt, 200 KiB) than mcrypt'; when the ends differ in kind, 'ranges from … to …'."""
    (low_ratio, low_case), (high_ratio, high_case) = low, high
    if not low_ratio.significant and not high_ratio.significant:
        return f"Over the {cases}, no case shows a measurable difference between {subject} and {baseline}"
    both_faster = all(r.significant and r.value > 1 for r in (low_ratio, high_ratio))
    if both_faster:
        low_text = relative(low_ratio).removesuffix(" faster")
        high_text = relative(high_ratio)
        return f"Over the {cases}, {subject} is {low_text} ({low_case}) to {high_text} ({high_case}) than {baseline}"
    return (
        f"Over the {cases}, {subject} ranges from {relative(low_ratio)} ({low_case}) "
        f"to {relative(high_ratio)} ({high_case}) compared with {baseline}"
    )


def _percent(value: float, places: int) -> str:
    return f"{value * 100:,.{max(places, 0)}f} %"


def share(ratio: Ratio) -> str:
    """A fraction of a whole or of a limit, with its CI: '87 % (95% CI 84–90 %)', to the precision the CI
    supports. A share is neither below 0 nor past its whole: a CI reaching below zero, or lying wholly
    above 100 %, says the model behind the share does not fit, and the text says so instead of printing
    a percentage (with the ratio it measured, where there is one)."""
    if not math.isfinite(ratio.high):
        return f"{_percent(ratio.value, 1)} (no CI: too few rounds)"
    if ratio.low < 0:
        return f"the model does not fit: its {CI} reaches below zero"
    if ratio.low > 1:
        measured = estimate(ratio.value, ratio.low, ratio.high)
        return f"the model does not fit: its whole {CI} lies above 100 % (a ratio of {measured})"
    places = max(0, _places(ratio.value * 100, ratio.low * 100, ratio.high * 100))
    return f"{_percent(ratio.value, places)} ({share_interval(ratio)})"


def share_interval(ratio: Ratio) -> str:
    """A share's interval alone, to the precision `share` prints it with: '95% CI 98.5 %–100.5 %'."""
    places = max(0, _places(ratio.value * 100, ratio.low * 100, ratio.high * 100))
    return f"{CI} {_percent(ratio.low, places)}–{_percent(ratio.high, places)}"


def _signed(x: float, places: int) -> str:
    return f"{x:+.{places}f}".replace("-", "−")


def overhead(ratio: Ratio) -> str:
    """What one side adds over another, as a percentage with its CI: '+4.2 % (95% CI +2.1 to +6.3 %)'."""
    value, low, high = (ratio.value - 1) * 100, (ratio.low - 1) * 100, (ratio.high - 1) * 100
    if not math.isfinite(high):
        return f"{value:+.1f} % (no CI: too few rounds)"
    places = 1 if high - low >= 1 else 2
    return f"{_signed(value, places)} % ({CI} {_signed(low, places)} to {_signed(high, places)} %)"


def overhead_bound(ratio: float) -> str:
    """One end of an overhead's interval, a ratio, as the change it is: 1.023 is '+2.3 %'."""
    return f"{_signed((ratio - 1) * 100, 1)} %"


def machine_speed(speed: MachineSpeed) -> str:
    """A run's machine speed (statistics/machine_speed.py) in words: its usual speed, or how far from it."""
    if speed.usual:
        return f"its usual speed (within {USUAL:.0%})"
    why = "something else on the host? CPU steal may not show it" if speed.index < 1 else "were its other runs slowed?"
    return f"it ran at {speed.index:.0%} of its usual speed ({why})"


def sample_spread(spread: SampleSpread) -> str:
    """A run's sample spread (statistics/sample_spread.py) in words: as usual, or which way and what that costs."""
    if spread.usual:
        return f"as usual (within {SPREAD_USUAL:g}× either way)"
    if spread.index < 1:
        return "narrower than usual: the host was quieter than in its other runs"
    return (
        "wider than usual: the host was noisier while it ran (a neighbour?), so fewer cases reached their"
        " target in their time; the medians need not have moved"
    )


def speed_shifts(shifts: SpeedShifts) -> str:
    """A run's speed shifts (statistics/speed_shifts.py) in words: steady, or what the shifts cost and spare."""
    tally = f"{shifts.shifted} of {shifts.groups} groups of cases sampled in rotation"
    if shifts.steady:
        return f"steady ({tally} ran at two speeds {SHIFTED:g}× or more apart)"
    return (
        f"shifting: in {tally}, whole rounds ran at speeds up to {shifts.widest:.2f}× apart (the host changed"
        " speed while it measured: a neighbour taking the core and giving it back?), so those cases' samples mix"
        " two speeds and fewer reached their target; ratios paired round by round are largely spared (both sides"
        " share the round)"
    )

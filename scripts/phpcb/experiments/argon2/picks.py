"""One answer per latency budget (issue 46): the rule that picks the Argon2id cell, the libsodium cell or the
bcrypt cost for a budget, in one place. The page's answer, its tables, the heatmap's box, the advice and the
claims read the pick this module makes; none of them picks again.

The rule: of the options measured, the strongest whose interval lies within the budget, that is whose time
fits in every run of this machine (the interval is the one the page prints: the median's within-run CI,
widened by the machine's spread between runs where that is known); an option with no interval at all (too
few hashes and no spread known) by its median, marked provisional. Where no option fits so, the strongest
whose median fits, marked over budget. The time quoted beside a pick is always the
pick's own, with that interval. A stronger option whose median fits but whose interval reaches past the
budget is named apart, as one that fits in some runs only: never as the answer."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from phpcb.presentation.formatting import duration, duration_interval
from phpcb.presentation.wording import CI
from phpcb.statistics.spread import UNKNOWN, RunSpread
from phpcb.statistics.stats import MIN_PAIRS, Summary

NONE_FITS = "none within the budget"

Opt = TypeVar("Opt")


@dataclass(frozen=True)
class Timing:
    """A median time per hash and the interval a budget is judged by, the one the page prints: the
    within-run CI of the median, widened by the machine's spread between runs where that is known. With
    fewer hashes than a CI needs (6), the interval is the spread between runs around the median alone,
    or none where that is not known either."""

    n: int
    median_ns: float
    low_ns: float
    high_ns: float

    @property
    def bounded(self) -> bool:
        return math.isfinite(self.low_ns) and math.isfinite(self.high_ns)

    @property
    def thin(self) -> bool:
        """Fewer hashes than a CI of the median needs: the interval, if any, is the between-run spread alone."""
        return self.n < MIN_PAIRS

    def within(self, budget_ms: float) -> bool:
        """Its whole interval lies within the budget: it fits in every run."""
        return self.bounded and self.high_ns <= budget_ms * 1e6

    @property
    def interval(self) -> str:
        return duration_interval(self.low_ns, self.high_ns, self.median_ns)

    @property
    def note(self) -> str:
        """What a thin interval rests on, for the text after it; '' for a full one."""
        if not self.thin:
            return ""
        if self.bounded:
            return f"; n = {self.n}: the spread between runs alone"
        return f"n = {self.n}, too few for a CI"

    @property
    def table_text(self) -> str:
        """'79.2 ms (46.8 ms – 134 ms)', as the page's tables print a median under a '(95% CI)' header."""
        if not self.bounded:
            return f"{duration(self.median_ns)} ({self.note})"
        return f"{duration(self.median_ns)} ({self.interval}{self.note})"

    @property
    def answer_text(self) -> str:
        """'79.2 ms (95% CI 46.8 ms – 134 ms)', as an answer states a time."""
        if not self.bounded:
            return f"{duration(self.median_ns)} ({self.note})"
        return f"{duration(self.median_ns)} ({CI} {self.interval}{self.note})"


def timing(wall: Summary, spread: RunSpread = UNKNOWN) -> Timing:
    """`wall`'s median with the interval a budget is judged by (Timing)."""
    low, high = wall.ci_low_ns, wall.ci_high_ns
    if spread.known:
        if not (math.isfinite(low) and math.isfinite(high)):
            low = high = wall.median_ns  # no CI of its own: the spread between runs around the median
        low, high = spread.widen(wall.median_ns, low, high)
    return Timing(wall.n, wall.median_ns, low, high)


@dataclass(frozen=True)
class Candidate(Generic[Opt]):
    """One option a budget picks from: a cell or a bcrypt cost, its label and its time."""

    option: Opt
    label: str
    timing: Timing


@dataclass(frozen=True)
class BudgetPick(Generic[Opt]):
    """The one option the page names for a budget (`pick`, None: no option's median fits), and beside
    it, never instead of it: `stronger`, the strongest option whose median fits when that is stronger than
    the pick (it fits in some runs only), and `strongest`, the strongest option measured at all."""

    budget_ms: int
    pick: Candidate[Opt] | None
    stronger: Candidate[Opt] | None = None
    strongest: Candidate[Opt] | None = None

    @property
    def option(self) -> Opt | None:
        return self.pick.option if self.pick is not None else None

    @property
    def label(self) -> str:
        return self.pick.label if self.pick is not None else NONE_FITS

    @property
    def timing(self) -> Timing | None:
        return self.pick.timing if self.pick is not None else None

    @property
    def fits(self) -> bool:
        """The pick's interval lies within the budget (False without a pick)."""
        return self.pick is not None and self.pick.timing.within(self.budget_ms)

    @property
    def over_budget(self) -> bool:
        """A pick whose median fits but whose interval does not: no option measured fits in every run."""
        return self.pick is not None and self.pick.timing.bounded and not self.fits

    @property
    def provisional(self) -> bool:
        """The pick rests on fewer hashes than a CI of its median needs."""
        return self.pick is not None and self.pick.timing.thin

    @property
    def beyond_grid(self) -> bool:
        """Even the strongest option measured is the pick: where the grid stops, not where the budget does
        (a stronger option, not measured, may fit too)."""
        return self.pick is not None and self.strongest is not None and self.pick.label == self.strongest.label

    @property
    def options(self) -> tuple[str, ...]:
        """What it names: one label, always (for the advice's diff)."""
        return (self.label,)

    @property
    def statement(self) -> str:
        """The pick in words, with what qualifies it: over budget, or too few hashes."""
        said = self.label
        if self.pick is None:
            return said
        if self.over_budget:
            said += f" (over budget: its interval reaches past {self.budget_ms} ms)"
        if self.provisional:
            said += f" (provisional: {self.pick.timing.n} hashes, fewer than the {MIN_PAIRS} a {CI} needs)"
        return said


def pick_within(
    candidates: Sequence[Candidate[Opt]], budget_ms: int, strength: Callable[[Candidate[Opt]], tuple[float, ...]]
) -> BudgetPick[Opt]:
    """The budget's pick among `candidates` by the module's rule; `strength` orders them, strongest highest."""

    def strongest(among: list[Candidate[Opt]]) -> Candidate[Opt] | None:
        return max(among, key=strength, default=None)

    by_median = [c for c in candidates if c.timing.median_ns <= budget_ms * 1e6]
    # An option with no interval at all (too few hashes, no spread between runs known) is judged by its
    # median, and the pick says it is provisional.
    fitting = [c for c in by_median if c.timing.within(budget_ms) or not c.timing.bounded]
    pick = strongest(fitting) or strongest(by_median)
    above = strongest(by_median)
    stronger = above if above is not None and above is not pick else None
    return BudgetPick(budget_ms, pick, stronger, strongest(list(candidates)))

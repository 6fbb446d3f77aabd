"""Headline numbers: the few figures per experiment that the Machines page sets side by side for
every machine × PHP version (e.g. GCM over CCM at 10 MiB, P-256 key generation)."""

from __future__ import annotations

from dataclasses import dataclass

from phpcb.statistics.stats import Ratio, Summary

TIMES = "times"  # a ratio: how many times faster
SECONDS = "ns"  # a time per operation, in nanoseconds
# What a ratio's question ends with when it is how many times faster its subject is than its baseline (one
# below 1: slower), which is how a sentence may word it; another ratio (a pitfall's cost) says its own unit.
TIMES_FASTER = "(times faster)"


@dataclass(frozen=True)
class Headline:
    """One number a page leads with, with its 95% CI; `choice` names a pick (Argon2's parameters)."""

    key: str  # stable across runs: one chart per key on the Machines page
    question: str
    unit: str  # TIMES or SECONDS
    value: float
    low: float
    high: float
    n: int | None = None
    choice: str | None = None

    @classmethod
    def of_time(cls, key: str, question: str, summary: Summary, choice: str | None = None) -> Headline:
        return cls(key, question, SECONDS, summary.median_ns, summary.ci_low_ns, summary.ci_high_ns, summary.n, choice)

    @classmethod
    def of_ratio(cls, key: str, question: str, ratio: Ratio) -> Headline:
        return cls(key, question, TIMES, ratio.value, ratio.low, ratio.high)

    @property
    def is_speedup(self) -> bool:
        """A ratio of how many times faster the question's subject is than its baseline (TIMES_FASTER)."""
        return self.unit == TIMES and self.question.endswith(TIMES_FASTER)

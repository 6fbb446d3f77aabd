"""How many samples each case of a run really has: pages state these counts, never the profile's
nominal one (slow cases take fewer within their time budget)."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from .loader import Run


@dataclass(frozen=True)
class SampleCounts:
    cases: int
    fewest: int
    median: float
    most: int

    @property
    def uniform(self) -> bool:
        return self.fewest == self.most


def count(run: Run, table: str, case_key: tuple[str, ...], time: str) -> SampleCounts | None:
    """Timed samples per case of `table` (cases named by `case_key`; a row with no time, or a time of
    zero, records a case that was refused, not a sample); None when nothing was timed."""
    rows = run.tables.get(table, [])
    per_case = Counter(tuple(row[column] for column in case_key) for row in rows if row[time])
    if not per_case:
        return None
    counts = list(per_case.values())
    return SampleCounts(len(counts), min(counts), float(statistics.median(counts)), max(counts))

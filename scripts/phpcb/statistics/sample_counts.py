"""How many samples each case of a run really has: pages state these counts, never the profile's
nominal one (slow cases take fewer within their time budget)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from phpcb.data.loader import Run


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
    frame = run.frames.get(table)
    if frame is None or frame.num_rows == 0 or pa.types.is_null(frame[time].type):
        return None
    # The key's columns alone are filtered: the count reads no other.
    timed = frame.select(list(case_key)).filter(pc.fill_null(pc.not_equal(frame[time], 0), False))
    if timed.num_rows == 0:
        return None
    counts = timed.group_by(list(case_key), use_threads=False).aggregate([([], "count_all")])["count_all"].to_pylist()
    return SampleCounts(len(counts), min(counts), float(statistics.median(counts)), max(counts))

"""Interleaved rounds (runners/src/Native/InterleavedRounds.php): each side of a comparison measured
once per round, back to back. Here: each side's per-operation time per round, and a PHP case against
its native counterpart (`openssl speed`, or the reference `argon2` CLI), paired by round.

A native table (`<experiment>_native.csv`) has one row per primitive, operation, block size and round:
`iterations` operations in `elapsed_ns`, with the command that measured them and the tool's version.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np

from phpcb.data.schema import Measure
from phpcb.statistics.stats import Ratio, Summary, iterations_of, median_of, paired_ratio, per_op_ns, summarize

K = TypeVar("K")


@dataclass(frozen=True)
class Series:
    """One side of an interleaved comparison: every sample's per-operation time, and per round the
    median of that round's samples (a native round is one measurement)."""

    per_op_ns: np.ndarray
    by_round: dict[int, float]
    # How many operations a sample took, each count once, smallest first (() where not recorded).
    operations: tuple[int, ...] = ()

    @property
    def summary(self) -> Summary:
        return summarize(self.per_op_ns)

    @property
    def rounds(self) -> list[int]:
        return sorted(self.by_round)


def series_by_case(
    rows: Sequence[Mapping[str, Any]],
    key: Callable[[Mapping[str, Any]], K],
    measure: Measure,
) -> dict[K, Series]:
    """Each case's series, the case named by `key(row)`, per operation by the table's declared `measure`;
    a row's round is its `round` column."""
    grouped: dict[K, dict[int, tuple[list[float], list[float]]]] = {}
    for row, operations in zip(rows, iterations_of(rows, measure), strict=True):
        elapsed, counts = grouped.setdefault(key(row), {}).setdefault(int(row["round"]), ([], []))
        elapsed.append(float(row[measure.time]))
        counts.append(operations)
    found: dict[K, Series] = {}
    for case, by_round in grouped.items():
        per_round = {r: per_op_ns(elapsed, counts) for r, (elapsed, counts) in sorted(by_round.items())}
        found[case] = Series(
            per_op_ns=np.concatenate(list(per_round.values())),
            by_round={r: float(median_of(values)) for r, values in per_round.items()},
            operations=tuple(sorted({int(n) for _, counts in by_round.values() for n in counts})),
        )
    return found


@dataclass(frozen=True)
class NativeKey:
    """What `openssl speed` measured: a primitive's speed name, an operation, a block size (0: none)."""

    primitive: str
    operation: str
    block_bytes: int


# The native rounds' columns (data/schema/shared/native-rounds.json): a native figure is not an
# experiment's measurement, so its table declares no measure; these are its timing columns.
NATIVE_TIMING = Measure("elapsed_ns", "iterations")


def native_series(rows: Sequence[Mapping[str, Any]]) -> dict[NativeKey, Series]:
    return series_by_case(
        rows, lambda r: NativeKey(str(r["primitive"]), str(r["operation"]), int(r["block_bytes"])), NATIVE_TIMING
    )


def native_tool(rows: Sequence[Mapping[str, Any]]) -> str:
    """The native tool's version(s) as the run recorded them."""
    return "; ".join(sorted({str(r["tool_version"]) for r in rows}))


def native_commands(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each distinct command that measured, in the order first run."""
    return list(dict.fromkeys(str(r["command"]) for r in rows))


def versus(subject: Series, baseline: Series) -> Ratio | None:
    """subject's time over baseline's, paired by the rounds both have; None when they share none."""
    shared = [r for r in subject.rounds if r in baseline.by_round]
    if not shared:
        return None
    return paired_ratio([subject.by_round[r] for r in shared], [baseline.by_round[r] for r in shared])


def inverse(ratio: Ratio) -> Ratio:
    """1 / ratio, its interval turned round: a time ratio as a throughput fraction."""
    high = 1.0 / ratio.low if ratio.low > 0 else float("inf")
    return Ratio(1.0 / ratio.value, 1.0 / ratio.high, high)


@dataclass(frozen=True)
class VsNative:
    """A PHP case against its native counterpart, measured in the same rounds."""

    # A check of the method (PHP against the library alone, measured in the same rounds), kept with its
    # own CI: make bench-fidelity repeats it across runs (between_runs.py).
    WITHIN_RUN_ONLY: ClassVar[bool] = True

    what: str
    native: NativeKey
    php: Series
    native_side: Series
    ratio: Ratio  # PHP time / native time: how many times longer PHP takes

    @property
    def fraction(self) -> Ratio:
        """PHP's speed as a fraction of native (native time / PHP time)."""
        return inverse(self.ratio)

    @property
    def rounds(self) -> int:
        return len([r for r in self.php.rounds if r in self.native_side.by_round])

    @property
    def extra_ns(self) -> float:
        """What PHP adds per operation, at the medians."""
        return self.php.summary.median_ns - self.native_side.summary.median_ns


@dataclass(frozen=True)
class Breakdown:
    """A comparison with native, and PHP's time for the smallest message (one call's fixed cost, from
    the experiment's main table): how much of what PHP adds the per-call set-up explains."""

    comparison: VsNative
    per_call_ns: float | None
    per_call_bytes: int | None = None

    @property
    def per_call_share(self) -> float | None:
        """One call's fixed cost over what PHP adds per message (above 1: the call alone costs more)."""
        extra = self.comparison.extra_ns
        return self.per_call_ns / extra if self.per_call_ns is not None and extra > 0 else None


def against_native(
    php: Mapping[K, Series], natives: Mapping[NativeKey, Series], pairs: Sequence[tuple[str, K, NativeKey]]
) -> list[VsNative]:
    """For each (label, PHP case, native key) present on both sides, the paired comparison."""
    found = []
    for what, case, key in pairs:
        side, native = php.get(case), natives.get(key)
        ratio = versus(side, native) if side is not None and native is not None else None
        if side is not None and native is not None and ratio is not None:
            found.append(VsNative(what, key, side, native, ratio))
    return found


def compare_rounds(
    php_rows: Sequence[Mapping[str, Any]],
    measure: Measure,
    native_rows: Sequence[Mapping[str, Any]],
    case: Callable[[Mapping[str, Any]], K],
    native_key: Callable[[Mapping[str, Any]], NativeKey],
    label: Callable[[K], str],
) -> list[VsNative]:
    """Each PHP case of a rounds table (named by `case(row)`) against the native figure its rows name
    (`native_key(row)`), in the order the cases were measured."""
    php = series_by_case(php_rows, case, measure)
    keys = {case(row): native_key(row) for row in php_rows}
    return against_native(php, native_series(native_rows), [(label(c), c, k) for c, k in keys.items()])

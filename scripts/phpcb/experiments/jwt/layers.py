"""The three layers of one JWS operation, measured in the same rounds: `openssl speed` (native), PHP's
raw primitive on the token's signing input, and this project's full JWS code. What the JWS code adds
over the primitive is its overhead; the goal is at most 5 % or 5 µs per operation.

Since schema version 5 runs measure the two PHP layers of an operation in rotation (the manifest
says so for jwt_layers.csv): a sample of the primitive and the JWS sample with the same number were
taken one after the other, so the overhead is the median of the per-pair ratios (and differences),
with the order-statistic CI of that median. A drift of the machine, or a noisy stretch in which the
adaptive sampler took many samples of one layer, cancels in each pair. Older runs measured the layers
apart: a ratio (and a difference) of medians over all samples, with bootstrap CIs. The native side
has one figure per round, so PHP against it is paired by round (rounds.versus)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.sampling import Pairing
from phpcb.data.schema import Measure, declared_measure
from phpcb.statistics.rounds import NativeKey, Series, inverse, native_series, series_by_case, versus
from phpcb.statistics.stats import (
    MIN_PAIRS,
    Estimate,
    Ratio,
    Summary,
    difference_of_medians,
    iterations_of,
    paired_median_difference,
    paired_median_ratio,
    ratio_of_medians,
    summarize,
)

LAYERS_CSV = "jwt_layers.csv"
NATIVE_CSV = "jwt_native.csv"
GOAL_RATIO = 1.05  # at most 5 % over the raw primitive …
GOAL_NS = 5_000.0  # … or at most 5 µs, whichever is more lenient (HMAC's primitive takes ~1 µs)

Goal = Literal["met", "missed", "undecided"]


@dataclass(frozen=True)
class Layers:
    alg: str
    operation: str
    payload_chars: int
    native_name: str
    native: Series | None
    primitive: Series
    jws: Series
    overhead: Ratio  # JWS time / primitive time (median of paired ratios, or ratio of medians)
    overhead_ns: Estimate  # JWS time − primitive time (median of paired differences, or difference of medians)
    paired: bool  # the overhead comes from samples taken in rotation, pair by pair
    primitive_summary: Summary  # of the samples the overhead compares: the pairs', or all of them
    jws_summary: Summary
    primitive_vs_native: Ratio | None  # PHP's primitive / openssl speed, paired by round

    @property
    def primitive_share(self) -> Ratio | None:
        """PHP's primitive as a fraction of native speed (native time / PHP time)."""
        return inverse(self.primitive_vs_native) if self.primitive_vs_native is not None else None

    @property
    def rounds(self) -> int:
        return len(self.primitive.rounds)

    @property
    def goal(self) -> Goal:
        """Met when the CI's upper end is within 5 % or 5 µs; missed when its lower end is past both."""
        if self.overhead.high <= GOAL_RATIO or self.overhead_ns.high <= GOAL_NS:
            return "met"
        if self.overhead.low > GOAL_RATIO and self.overhead_ns.low > GOAL_NS:
            return "missed"
        return "undecided"


def _native_for(natives: Mapping[NativeKey, Series], name: str, operation: str) -> Series | None:
    """The native series of a primitive for an operation; HMAC's one `mac` figure serves both."""
    for key, series in natives.items():
        if key.primitive == name and key.operation in (operation, "mac"):
            return series
    return None


def analyse(run: Run, order: tuple[str, ...]) -> list[Layers]:
    rows: list[Mapping[str, Any]] = list(run.tables.get(LAYERS_CSV, []))
    if not rows:
        return []
    measure = declared_measure(LAYERS_CSV)
    php = series_by_case(rows, lambda r: (str(r["alg"]), str(r["operation"]), str(r["layer"])), measure)
    pairing = Pairing.of(run, "jwt", LAYERS_CSV)
    natives = native_series(run.tables.get(NATIVE_CSV, []))
    native_of = {(str(r["alg"]), str(r["operation"])): (str(r["native"]), int(r["payload_chars"])) for r in rows}
    # Each operation's rows, gathered in one pass: _pairs looked through every row for each operation.
    rows_of: dict[tuple[Any, Any], list[Mapping[str, Any]]] = {}
    for row in rows:
        rows_of.setdefault((row["alg"], row["operation"]), []).append(row)
    found = []
    for alg in order:
        for operation in ("sign", "verify"):
            primitive, jws = php.get((alg, operation, "primitive")), php.get((alg, operation, "jws"))
            if primitive is None or jws is None:
                continue
            name, payload_chars = native_of[(alg, operation)]
            native = _native_for(natives, name, operation)
            case = {"alg": alg, "operation": operation}
            together = pairing.together(case, case)
            pairs = _pairs(rows_of.get((alg, operation), []), alg, operation, measure) if together else None
            found.append(
                Layers(
                    alg=alg,
                    operation=operation,
                    payload_chars=payload_chars,
                    native_name=name,
                    native=native,
                    primitive=primitive,
                    jws=jws,
                    overhead=paired_median_ratio(*pairs)
                    if pairs
                    else ratio_of_medians(jws.per_op_ns, primitive.per_op_ns),
                    overhead_ns=paired_median_difference(*pairs)
                    if pairs
                    else difference_of_medians(jws.per_op_ns, primitive.per_op_ns),
                    paired=pairs is not None,
                    primitive_summary=summarize(pairs[1]) if pairs else primitive.summary,
                    jws_summary=summarize(pairs[0]) if pairs else jws.summary,
                    primitive_vs_native=versus(primitive, native) if native is not None else None,
                )
            )
    return found


def _pairs(
    rows: list[Mapping[str, Any]], alg: str, operation: str, measure: Measure
) -> tuple[np.ndarray, np.ndarray] | None:
    """The JWS layer's and the primitive's per-operation times, sample by sample where both have the
    sample number (taken in the same turn of a rotation); None with fewer than MIN_PAIRS pairs. `measure`:
    the table's declared measure (declared_measure(LAYERS_CSV), read once for every operation)."""
    by_layer: dict[str, dict[int, float]] = {"jws": {}, "primitive": {}}
    for row, operations in zip(rows, iterations_of(rows, measure), strict=True):
        if row["alg"] == alg and row["operation"] == operation and row["layer"] in by_layer:
            by_layer[str(row["layer"])][int(row["sample"])] = float(row[measure.time]) / operations
    shared = sorted(by_layer["jws"].keys() & by_layer["primitive"].keys())
    if len(shared) < MIN_PAIRS:
        return None
    jws = np.array([by_layer["jws"][sample] for sample in shared])
    primitive = np.array([by_layer["primitive"][sample] for sample in shared])
    return jws, primitive


def goal_tally(found: list[Layers]) -> dict[Goal, int]:
    """How many operations meet, miss, or cannot yet tell the overhead goal."""
    tally: dict[Goal, int] = {"met": 0, "missed": 0, "undecided": 0}
    for x in found:
        tally[x.goal] += 1
    return tally

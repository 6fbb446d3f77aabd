"""Each pitfall's slow and fast way from one run (pitfalls.csv, measured in interleaved rounds): time per
unit of work (a verification, a key, a 16-byte field, a hash), the ratio slow/fast with its CI, and
where `openssl speed` measures the same work, the slow way against it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.schema import Measure, declared_measure
from phpcb.experiments.pitfalls.policy import PitfallEntry
from phpcb.statistics.rounds import Series, inverse, native_series, native_tool, series_by_case, versus
from phpcb.statistics.stats import Ratio, iterations_of, ratio_of_medians

CSV = "pitfalls.csv"
NATIVE_CSV = "pitfalls_native.csv"


@dataclass(frozen=True)
class PitfallResult:
    entry: PitfallEntry
    slow: Series  # per unit of work
    fast: Series
    ratio: Ratio  # slow time / fast time (ratio of medians over every round's samples)
    native: Series | None  # openssl speed per unit, when it measures the same work
    slow_vs_native: Ratio | None  # paired by round
    fast_vs_native: Ratio | None
    agreement: str | None  # what the runner checked both ways agree on

    @property
    def key(self) -> str:
        return self.entry.key

    @property
    def pays(self) -> bool:
        """The fast way is measurably faster here: the fix is worth making."""
        return self.ratio.significant and self.ratio.value > 1

    @property
    def saved_ns(self) -> float:
        """What the fast way saves per unit, at the medians."""
        return self.slow.summary.median_ns - self.fast.summary.median_ns

    @property
    def native_share_slow(self) -> Ratio | None:
        return inverse(self.slow_vs_native) if self.slow_vs_native is not None else None

    @property
    def native_share_fast(self) -> Ratio | None:
        return inverse(self.fast_vs_native) if self.fast_vs_native is not None else None


@dataclass(frozen=True)
class PitfallsAnalysis:
    run: Run
    results: list[PitfallResult]
    native_tool: str
    rounds: int

    def find(self, key: str) -> PitfallResult | None:
        return next((r for r in self.results if r.key == key), None)


# A sample's units of work: the declared iterations × the units each call does (a column of its own).
PER_UNIT = "operations"


def _per_unit(rows: list[Mapping[str, Any]], measure: Measure) -> list[dict[str, Any]]:
    """Rows whose PER_UNIT column counts units of work: iterations × units per call."""
    counts = iterations_of(rows, measure)
    return [{**row, PER_UNIT: int(calls) * int(row["units"])} for row, calls in zip(rows, counts, strict=True)]


def _agreements(run: Run) -> dict[str, str]:
    """What the runner checked per pitfall ("<pitfall>: <what agreed>"); anything else is not a record."""
    entry = run.experiment("pitfalls") or {}
    verification = entry.get("verification")
    checked = verification.get("agreement") if isinstance(verification, dict) else None
    texts = [text for text in checked if isinstance(text, str) and ":" in text] if isinstance(checked, list) else []
    return {text.split(":", 1)[0]: text.split(":", 1)[1].strip() for text in texts}


def analyse(run: Run, policy: Mapping[str, PitfallEntry]) -> PitfallsAnalysis:
    measure = declared_measure(CSV)
    rows = _per_unit(list(run.tables.get(CSV, [])), measure)
    series = series_by_case(rows, lambda r: (str(r["pitfall"]), str(r["variant"])), Measure(measure.time, PER_UNIT))
    native_of = {str(r["pitfall"]): str(r["native"]) for r in rows}
    natives = native_series(run.tables.get(NATIVE_CSV, []))
    agreements = _agreements(run)
    results = []
    for key, entry in policy.items():
        if entry.measured_on is not None:
            continue  # quoted from the experiment that measures it (older runs still hold rows of it)
        slow, fast = series.get((key, entry.slow.variant)), series.get((key, entry.fast.variant))
        if slow is None or fast is None:
            continue
        native = next((s for k, s in natives.items() if k.primitive == native_of.get(key)), None)
        results.append(
            PitfallResult(
                entry=entry,
                slow=slow,
                fast=fast,
                ratio=ratio_of_medians(slow.per_op_ns, fast.per_op_ns),
                native=native,
                slow_vs_native=versus(slow, native) if native is not None else None,
                fast_vs_native=versus(fast, native) if native is not None else None,
                agreement=agreements.get(key),
            )
        )
    rounds = max((len(r.slow.rounds) for r in results), default=0)
    return PitfallsAnalysis(run, results, native_tool(run.tables.get(NATIVE_CSV, [])), rounds)

"""One run against another (`python -m phpcb compare BASE NEW`), case by case, with significance.

For every experiment both runs have (registry order), each case of the measurement table (its
primary key without `sample`) gets: the base and new median per-operation time with n, the ratio
new/base with a 95 % CI, a two-sided Mann–Whitney U p-value, that p adjusted by Benjamini–Hochberg
across every tested case of the comparison, and a verdict:

- `faster` / `slower`: adjusted p < 0.05 **and** the whole CI of the ratio more than 5 % from 1
  (entirely below 1/1.05, or entirely above 1.05). Run-to-run drift of one machine is of that order,
  so a smaller difference is not claimed however small its p.
- `~`: no such evidence (p too large, or a CI that reaches within 5 % of 1).
- `new` (the case only in NEW), `missing` (only in BASE), `too few samples` (n < 5 on either side:
  the exact test cannot reach 0.05 after adjustment, nor the CI be finite) and `identical samples`
  (both sides constant and equal, e.g. the fake clock: the test is undefined). These four are not
  tested, so they are **not** in the Benjamini–Hochberg family: the family is the cases with a p.

Rows with a `status` column other than "ok" (Argon2 cells the library refused or that failed) are
not samples: a case with no "ok" row on one side counts as absent from that side.

The CI of the ratio is distribution-free: the Mann–Whitney test inverted on log times
(Hodges–Lehmann; see stats.py), chosen over a bootstrap for speed (a full pair of runs compares in
well under a second). A different CPU model or PHP version makes the comparison one "across
machines" (environment_diff.py): shown, labelled, never a regression test.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pyarrow as pa

from . import case_samples, registry, render, stats
from .advice import AdviceChange
from .environment_diff import EnvironmentDiff
from .environment_diff import diff as environment_diff
from .errors import BuildError
from .experiment import Experiment
from .loader import Run, load_run
from .schema import Schemas

MIN_SAMPLES = 5
ALPHA = 0.05
# A ratio whose whole CI lies within this of 1 is not called faster or slower (see the module doc).
THRESHOLD = 0.05
KeyValue = case_samples.KeyValue


class ComparisonError(BuildError):
    """Two runs that cannot be compared (a missing directory, no experiment in common)."""


class Verdict(StrEnum):
    FASTER = "faster"
    SLOWER = "slower"
    SAME = "~"
    NEW = "new"
    MISSING = "missing"
    TOO_FEW = "too few samples"
    IDENTICAL = "identical samples"

    @property
    def significant(self) -> bool:
        return self in (Verdict.FASTER, Verdict.SLOWER)


# The order of the counts in a summary line.
VERDICT_ORDER = tuple(Verdict)


@dataclass(frozen=True)
class Side:
    """One run's samples of a case: per-operation time in ns."""

    n: int
    median_ns: float
    ci_low_ns: float  # the median's distribution-free CI (stats.median_ci; infinite below n = 6)
    ci_high_ns: float

    @classmethod
    def of(cls, values: np.ndarray) -> Side:
        low, high = stats.median_ci(values)
        return cls(int(values.size), float(np.median(values)), low, high)


@dataclass(frozen=True)
class CaseComparison:
    key: tuple[KeyValue, ...]  # the values of the experiment's case key columns, in their order
    base: Side | None
    new: Side | None
    verdict: Verdict
    ratio: float | None = None  # median(new) / median(base): below 1, NEW is faster
    ratio_low: float | None = None  # its 95 % CI
    ratio_high: float | None = None
    p_value: float | None = None  # two-sided Mann–Whitney U
    p_adjusted: float | None = None  # Benjamini–Hochberg, across every tested case of the comparison

    @property
    def abs_log_ratio(self) -> float:
        """|log ratio|: how large a change is, faster or slower alike (0 without a ratio)."""
        return abs(math.log(self.ratio)) if self.ratio and self.ratio > 0 and math.isfinite(self.ratio) else 0.0


@dataclass(frozen=True)
class ExperimentComparison:
    name: str
    title: str
    key_columns: tuple[str, ...]
    time_column: str
    iterations_column: str | None
    cases: list[CaseComparison]

    def counts(self) -> dict[Verdict, int]:
        return _counts(self.cases)

    def case_label(self, case: CaseComparison) -> str:
        """The case in one line: text values as they are, numbers named by their column."""
        parts = []
        for column, value in zip(self.key_columns, case.key, strict=True):
            is_text = isinstance(value, str)
            parts.append(str(value) if is_text else f"{column}={_key_text(value)}")
        return " · ".join(parts)


@dataclass(frozen=True)
class Comparison:
    base_id: str
    new_id: str
    environment: EnvironmentDiff
    experiments: list[ExperimentComparison]
    only_in_base: list[str] = field(default_factory=list)  # experiments with results in BASE only
    only_in_new: list[str] = field(default_factory=list)
    advice_changes: list[AdviceChange] = field(default_factory=list)
    baseline_reason: str | None = None  # why BASE is NEW's baseline, when the build chose it (baselines.py)

    @property
    def across_machines(self) -> bool:
        return self.environment.across_machines

    @property
    def cases(self) -> list[tuple[ExperimentComparison, CaseComparison]]:
        return [(experiment, case) for experiment in self.experiments for case in experiment.cases]

    @property
    def tested(self) -> int:
        """The size of the Benjamini–Hochberg family: the cases with a p-value."""
        return sum(1 for _, case in self.cases if case.p_value is not None)

    def counts(self) -> dict[Verdict, int]:
        return _counts([case for _, case in self.cases])

    def largest(self, limit: int = 10) -> list[tuple[ExperimentComparison, CaseComparison]]:
        """The significant changes, largest |log ratio| first."""
        significant = [(e, c) for e, c in self.cases if c.verdict.significant]
        return sorted(significant, key=lambda pair: -pair[1].abs_log_ratio)[:limit]


def _counts(cases: Sequence[CaseComparison]) -> dict[Verdict, int]:
    counted = Counter(case.verdict for case in cases)
    return {verdict: counted.get(verdict, 0) for verdict in VERDICT_ORDER}


def _key_text(value: KeyValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def verdict(ratio_low: float, ratio_high: float, p_adjusted: float) -> Verdict:
    """faster/slower only with adjusted p < α and the whole CI beyond the threshold; else ~."""
    if p_adjusted < ALPHA:
        if ratio_high < 1 / (1 + THRESHOLD):
            return Verdict.FASTER
        if ratio_low > 1 + THRESHOLD:
            return Verdict.SLOWER
    return Verdict.SAME


def samples(run: Run, experiment: Experiment, schemas: Schemas) -> dict[tuple[KeyValue, ...], np.ndarray]:
    """Each case's per-operation times in `run`, cases in the table's order; rows whose status is not
    "ok" left out (they hold no timing)."""
    table: pa.Table | None = run.frames.get(experiment.tables[0])
    if table is None:
        return {}
    return case_samples.per_case(table, experiment.case_key(schemas), experiment.measured_value(schemas))


def _draft(key: tuple[KeyValue, ...], base: np.ndarray | None, new: np.ndarray | None) -> CaseComparison:
    """A case as far as it can go alone: final unless it is tested (it has a p-value), in which case
    its verdict waits for the family's adjusted p-values."""
    if base is None or new is None:
        return CaseComparison(
            key,
            Side.of(base) if base is not None else None,
            Side.of(new) if new is not None else None,
            Verdict.MISSING if new is None else Verdict.NEW,
        )
    base_side, new_side = Side.of(base), Side.of(new)
    ratio = new_side.median_ns / base_side.median_ns if base_side.median_ns > 0 else None
    if base.size < MIN_SAMPLES or new.size < MIN_SAMPLES:
        return CaseComparison(key, base_side, new_side, Verdict.TOO_FEW, ratio=ratio)
    if np.ptp(base) == 0 and np.ptp(new) == 0 and base[0] == new[0]:
        return CaseComparison(key, base_side, new_side, Verdict.IDENTICAL, ratio=1.0, ratio_low=1.0, ratio_high=1.0)
    tested = stats.two_samples(base, new)
    return CaseComparison(
        key,
        base_side,
        new_side,
        Verdict.SAME,
        ratio=tested.ratio,
        ratio_low=tested.low,
        ratio_high=tested.high,
        p_value=tested.p_value,
    )


def _decided(case: CaseComparison, p_adjusted: float) -> CaseComparison:
    assert case.ratio_low is not None
    assert case.ratio_high is not None
    return replace(case, p_adjusted=p_adjusted, verdict=verdict(case.ratio_low, case.ratio_high, p_adjusted))


def compare(
    base: Run,
    new: Run,
    schemas: Schemas,
    experiments: Sequence[Experiment] | None = None,
    advice_changes: Sequence[AdviceChange] = (),
    baseline_reason: str | None = None,
) -> Comparison:
    """BASE against NEW for every experiment both have results of (the registry's, by default)."""
    chosen = list(registry.discover() if experiments is None else experiments)
    shared = [e for e in chosen if base.has_results(e.name) and new.has_results(e.name)]
    only_base = [e.name for e in chosen if base.has_results(e.name) and not new.has_results(e.name)]
    only_new = [e.name for e in chosen if new.has_results(e.name) and not base.has_results(e.name)]
    if not shared:
        raise ComparisonError(
            f"BASE {base.run_id} and NEW {new.run_id} have no experiment in common: BASE has "
            f"{_names(only_base)}, NEW has {_names(only_new)}"
        )
    drafts: list[list[CaseComparison]] = []
    for experiment in shared:
        old, fresh = samples(base, experiment, schemas), samples(new, experiment, schemas)
        case_keys = [*old, *(k for k in fresh if k not in old)]
        drafts.append([_draft(k, old.get(k), fresh.get(k)) for k in case_keys])
    # The Benjamini–Hochberg family: every case with a p-value, across all experiments.
    family = [
        (i, j, case.p_value)
        for i, cases in enumerate(drafts)
        for j, case in enumerate(cases)
        if case.p_value is not None
    ]
    adjusted = stats.benjamini_hochberg([p for _, _, p in family]).tolist()
    for (i, j, _), q in zip(family, adjusted, strict=True):
        drafts[i][j] = _decided(drafts[i][j], q)
    results = []
    for experiment, cases in zip(shared, drafts, strict=True):
        measure = experiment.measured_value(schemas)
        results.append(
            ExperimentComparison(
                experiment.name, experiment.title, experiment.case_key(schemas), measure.time, measure.iterations, cases
            )
        )
    return Comparison(
        base.run_id,
        new.run_id,
        environment_diff(base.manifest, new.manifest),
        results,
        only_base,
        only_new,
        list(advice_changes),
        baseline_reason,
    )


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "no experiment with results"


def load(directory: Path, schemas: Schemas, role: str) -> Run:
    """A run directory named on the command line, with a one-line error when it is not one."""
    if not directory.is_dir():
        raise ComparisonError(f"{role} {directory}: no such run directory (expected data/runs/<run-id>/)")
    return load_run(directory.resolve(), schemas)


def render_page(
    comparisons: Sequence[Comparison], templates: jinja2.Environment, page_depth: int = 0, **context: Any
) -> str:
    """The site's comparison page (templates/compare.md.j2) for these comparisons. `templates` is
    render.environment(...); `page_depth` is how deep the page sits under docs/ (links to the runs'
    files go up that many levels)."""
    from .exporters.markdown import ADVICE_HEADING, NO_ADVICE_CHANGE, page_view

    return (
        render.markdown_ready(templates)
        .get_template("compare.md.j2")
        .render(
            comparisons=[page_view(c) for c in comparisons],
            runs_prefix="../" * page_depth + "runs/",
            advice_heading=ADVICE_HEADING,
            no_advice_change=NO_ADVICE_CHANGE,
            **context,
        )
    )


def report(root: Path, base_dir: Path, new_dir: Path, format_name: str = "markdown", out: Path | None = None) -> str:
    """`python -m phpcb compare BASE NEW`: the comparison in one format, printed or written to `out`."""
    from . import advice
    from .exporters import exporter
    from .schema import load_schemas

    chosen = exporter(format_name)
    schemas = load_schemas(root / "data" / "schema")
    base, new = load(base_dir, schemas, "BASE"), load(new_dir, schemas, "NEW")
    from .site import Contexts, Project  # the site imports this module

    changes = advice.changes(base, new, Contexts(Project(root), schemas))
    text = chosen.serialize(compare(base, new, schemas, advice_changes=changes))
    if out is None:
        return text.rstrip("\n")
    out.write_text(text, encoding="utf-8")
    return f"{out}: {format_name} comparison of {base.run_id} → {new.run_id} ({len(text):,} characters)"

"""One run against another (`python -m phpcb compare BASE NEW`): the machine's shift first, then
each case against it and the noise model.

Two runs of one machine differ as a whole (its speed states, its neighbours, its frequency) far
more than one run's samples suggest, so the comparison first estimates, per experiment and case
class (noise.py), the **run-level shift**: the median over the class of each case's log ratio
new/base, with the order-statistic 95 % CI of that median. Each case is then judged by its
**residual** (its log ratio minus its class's shift) against the spread residuals have between
runs of the machine:

- from the machine's noise model (data/noise/<machine>.json, `make bench-repeat` + `make noise`)
  when both runs are of that machine: a case's residual between two runs has √2 times the
  model's per-run residual SD;
- else from the pair itself: the robust SD (MAD) of the residuals of the class, as if most cases
  did not change (they did not, when the shift is the story).

A case's z is its residual over that spread (with its within-run CI's spread added in quadrature),
its p-value the two-sided normal tail, adjusted by Benjamini–Hochberg across every tested case of
the comparison. Verdicts:

- `faster` / `slower`: adjusted p < 0.05 **and** the residual more than 2 % from 1 (the one threshold
  of a difference, thresholds.DIFFERENCE): the case moved beyond the machine's shift and beyond the noise.
- `~`: no such evidence.
- `new`, `missing`, `too few samples` (n < 5 on either side), `identical samples` (both sides
  constant and equal, e.g. the fake clock) and `zero time` (a median of 0 ns on one side or both: no
  ratio exists, so the case is neither tested nor called `~`): not tested, so not in the
  Benjamini–Hochberg family.

A spread of zero (a class whose cases moved exactly together, their samples constant: the fake clock)
has no noise to judge against: a residual of exactly 1 is `~`, any other is significant, and the 2 %
floor alone decides.

Rows with a `status` column other than "ok" (Argon2 cells the library refused or that failed) are
not samples: a case with no "ok" row on one side counts as absent from that side. The within-run
CI of a case's ratio is the Mann–Whitney test inverted on log times (Hodges–Lehmann; stats.py). A
different CPU model or PHP version makes the comparison one "across machines" (environment_diff.py):
shown, labelled, never a regression test, and never judged with a noise model: a model describes one
machine and one PHP, and the pair is two.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path

import numpy as np
import pyarrow as pa

from phpcb.compare import load as run_load
from phpcb.compare import noise
from phpcb.compare.environment_diff import EnvironmentDiff
from phpcb.compare.environment_diff import diff as environment_diff
from phpcb.data import case_samples
from phpcb.data.loader import Run, load_run
from phpcb.data.machines import boot_of, machine_name
from phpcb.data.noise_model import section_name
from phpcb.data.schema import Schemas
from phpcb.data.stacks import stack_of
from phpcb.errors import BuildError
from phpcb.experiments import registry
from phpcb.experiments.experiment import Experiment
from phpcb.presentation.advice import AdviceChange
from phpcb.statistics import stats
from phpcb.statistics.thresholds import ALPHA
from phpcb.statistics.thresholds import DIFFERENCE as THRESHOLD

MIN_SAMPLES = 5
# ALPHA and THRESHOLD (statistics/thresholds.py): a residual (the change beyond the machine's shift) with
# an adjusted p below ALPHA and more than THRESHOLD from 1 is called faster or slower.
Z_95 = 1.959963984540054  # the two-sided 95 % normal quantile: a CI's half-width over it is its SD
# The fewest residuals whose MAD stands for a class's spread between the pair's runs; smaller classes
# take the experiment's pooled spread.
MIN_CASES_FOR_SPREAD = 8
MODEL = "the machine's noise model"
MODEL_BOOTS = "the machine's noise model, between boots"
PAIR = "the pair's own spread"
# A model of one boot says nothing of another: a pair of two boots is judged by its own spread, never below
# the spread between runs of the model's boot (the stated allowance of a one-boot model).
PAIR_ONE_BOOT = "the pair's own spread (the noise model rests on one boot; the runs are of two)"
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
    ZERO = "zero time"
    LOADED = "not judged: loaded"
    ACROSS = "not judged: across machines"

    @property
    def significant(self) -> bool:
        return self in (Verdict.FASTER, Verdict.SLOWER)


# The order of the counts in a summary line.
VERDICT_ORDER = tuple(Verdict)
# The verdicts of cases that are not tested: no p-value, not in the Benjamini–Hochberg family.
UNTESTED = (
    Verdict.NEW,
    Verdict.MISSING,
    Verdict.TOO_FEW,
    Verdict.IDENTICAL,
    Verdict.ZERO,
    Verdict.LOADED,
    Verdict.ACROSS,
)


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
    p_value: float | None = None  # two-sided, of the residual against the between-run spread
    p_adjusted: float | None = None  # Benjamini–Hochberg, across every tested case of the comparison
    case_class: str | None = None  # its class (noise.class_label), whose shift it is judged against
    residual: float | None = None  # the ratio divided by its class's shift: the change beyond the machine's
    spread_log: float | None = None  # the residual's SD between two runs (log scale), and where it came from
    spread_source: str | None = None

    @property
    def abs_log_ratio(self) -> float:
        """|log ratio|: how large a change is, faster or slower alike (0 without a ratio)."""
        return abs(math.log(self.ratio)) if self.ratio and self.ratio > 0 and math.isfinite(self.ratio) else 0.0


@dataclass(frozen=True)
class ClassShift:
    """How much faster or slower the new run's machine ran for a class of cases: the median of their
    ratios new/base, with its 95 % CI (order statistics; infinite below 6 cases)."""

    label: str
    cases: int  # the class's tested cases
    basis: int  # the cases its median is taken over: its own, or the experiment's for a small class
    ratio: float
    low: float
    high: float

    @property
    def known(self) -> bool:
        return math.isfinite(self.low) and math.isfinite(self.high)


@dataclass(frozen=True)
class ExperimentComparison:
    name: str
    title: str
    key_columns: tuple[str, ...]
    time_column: str
    iterations_column: str | None
    cases: list[CaseComparison]
    shifts: list[ClassShift] = field(default_factory=list)

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
    noise_runs: tuple[str, ...] | None = None  # the runs of the noise model that judged the cases, if one did
    loaded: tuple[run_load.LoadedExperiment, ...] = ()  # experiments a run measured on a busy machine: not judged
    across_boots: bool = False  # the two runs were measured on different boots (or a boot is not recorded)

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


def verdict(residual: float, p_adjusted: float) -> Verdict:
    """faster/slower only with adjusted p < α and the residual beyond the threshold; else ~."""
    if p_adjusted < ALPHA:
        if residual < 1 / (1 + THRESHOLD):
            return Verdict.FASTER
        if residual > 1 + THRESHOLD:
            return Verdict.SLOWER
    return Verdict.SAME


def normal_two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def samples(run: Run, experiment: Experiment, schemas: Schemas) -> dict[tuple[KeyValue, ...], np.ndarray]:
    """Each case's per-operation times in `run`, cases in the table's order; rows whose status is not
    "ok" left out (they hold no timing)."""
    table: pa.Table | None = run.frames.get(experiment.measurements(schemas).name)
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
    if base_side.median_ns <= 0 or new_side.median_ns <= 0:
        # 0 ns an operation is a clock that did not move, not a time: no ratio, and never "~".
        return CaseComparison(key, base_side, new_side, Verdict.ZERO)
    low, high = stats.ratio_ci(new, base)
    return CaseComparison(key, base_side, new_side, Verdict.SAME, ratio=ratio, ratio_low=low, ratio_high=high)


def _judgeable(case: CaseComparison) -> bool:
    """A case with a ratio to test: both sides, enough samples, not identical."""
    return case.verdict is Verdict.SAME and _has_ratio(case)


def _has_ratio(case: CaseComparison) -> bool:
    """A ratio its class's shift can be taken over: a judgeable case, or one withheld as loaded (a loaded
    run's shift is shown, as what the load did)."""
    usable = case.verdict in (Verdict.SAME, Verdict.LOADED, Verdict.ACROSS)
    return usable and case.ratio is not None and case.ratio > 0 and math.isfinite(case.ratio)


def _within_log_sd(case: CaseComparison) -> float:
    """The SD of the case's log ratio within the pair of runs, from its 95 % CI."""
    if not case.ratio_low or not case.ratio_high or not math.isfinite(case.ratio_high) or case.ratio_low <= 0:
        return 0.0
    return (math.log(case.ratio_high) - math.log(case.ratio_low)) / (2 * Z_95)


def class_shifts(
    experiment: Experiment, schemas: Schemas, cases: list[CaseComparison]
) -> tuple[list[ClassShift], dict[tuple[KeyValue, ...], str]]:
    """Each class's shift (the median log ratio of its basis, noise.shift_basis) and each case's class."""
    judged = [c for c in cases if _has_ratio(c)]
    groups = noise.group_cases(experiment, schemas, [c.key for c in judged])
    logs = {c.key: math.log(c.ratio) for c in judged if c.ratio}
    shifts = []
    for label, members in groups.items():
        values = np.array([logs[key] for key in noise.shift_basis(groups, label)])
        low, high = stats.median_ci(values)
        median = math.exp(float(np.median(values)))
        shifts.append(ClassShift(label, len(members), int(values.size), median, math.exp(low), math.exp(high)))
    return shifts, noise.class_of(groups)


def _spreads(
    experiment: Experiment,
    residuals: dict[tuple[KeyValue, ...], float],
    classes: dict[tuple[KeyValue, ...], str],
    model: noise.ProfileNoise | None,
    across_boots: bool = False,
) -> dict[tuple[KeyValue, ...], tuple[float, str]]:
    """Each case's residual SD between the two runs, and its source: the model (between runs of one boot,
    or between boots when the runs are of two and the model rests on two or more), else the pair's own,
    which for runs of two boots judged by a model of one is never below the model's spread."""
    spreads: dict[tuple[KeyValue, ...], tuple[float, str]] = {}
    pooled = noise.robust_sd(np.array(list(residuals.values())))
    by_class: dict[str, list[float]] = {}
    for key, value in residuals.items():
        by_class.setdefault(classes[key], []).append(value)
    for key in residuals:
        label = classes[key]
        case = noise.case_label(key)
        known = model.residual(experiment.name, label, case, across_boots) if model is not None else None
        if known is not None:
            spreads[key] = (math.sqrt(2) * known, MODEL_BOOTS if across_boots else MODEL)
            continue
        members = np.array(by_class[label])
        own = noise.robust_sd(members) if members.size >= MIN_CASES_FOR_SPREAD else pooled
        within = model.residual(experiment.name, label, case) if model is not None else None
        if within is not None:  # runs of two boots, a model of one
            spreads[key] = (max(own, math.sqrt(2) * within), PAIR_ONE_BOOT)
            continue
        spreads[key] = (own, PAIR)
    return spreads


def judge(
    experiment: Experiment,
    schemas: Schemas,
    cases: list[CaseComparison],
    model: noise.ProfileNoise | None,
    across_boots: bool = False,
) -> tuple[list[CaseComparison], list[ClassShift]]:
    """The experiment's cases with their class, residual, spread and unadjusted p (verdicts wait for
    the family's adjustment), and its class shifts."""
    shifts, classes = class_shifts(experiment, schemas, cases)
    by_label = {shift.label: shift for shift in shifts}
    residuals = {
        c.key: math.log(c.ratio) - math.log(by_label[classes[c.key]].ratio) for c in cases if _judgeable(c) and c.ratio
    }
    spreads = _spreads(experiment, residuals, classes, model, across_boots)
    judged = []
    for case in cases:
        if case.key not in residuals:
            judged.append(case)
            continue
        spread, source = spreads[case.key]
        total = math.hypot(spread, _within_log_sd(case))
        z = residuals[case.key] / total if total > 0 else (0.0 if residuals[case.key] == 0 else math.inf)
        judged.append(
            replace(
                case,
                case_class=classes[case.key],
                residual=math.exp(residuals[case.key]),
                spread_log=spread,
                spread_source=source,
                p_value=normal_two_sided_p(z),
            )
        )
    return judged, shifts


def _decided(case: CaseComparison, p_adjusted: float) -> CaseComparison:
    assert case.residual is not None
    return replace(case, p_adjusted=p_adjusted, verdict=verdict(case.residual, p_adjusted))


def compare(
    base: Run,
    new: Run,
    schemas: Schemas,
    experiments: Sequence[Experiment] | None = None,
    advice_changes: Sequence[AdviceChange] = (),
    baseline_reason: str | None = None,
    model: noise.NoiseModel | None = None,
) -> Comparison:
    """BASE against NEW for every experiment both have results of (the registry's, by default). The
    noise model applies when both runs are of its machine and one profile."""
    chosen = list(registry.discover() if experiments is None else experiments)
    shared = [e for e in chosen if base.has_results(e.name) and new.has_results(e.name)]
    only_base = [e.name for e in chosen if base.has_results(e.name) and not new.has_results(e.name)]
    only_new = [e.name for e in chosen if new.has_results(e.name) and not base.has_results(e.name)]
    if not shared:
        raise ComparisonError(
            f"BASE {base.run_id} and NEW {new.run_id} have no experiment in common: BASE has "
            f"{_names(only_base)}, NEW has {_names(only_new)}"
        )
    environment = environment_diff(base.manifest, new.manifest, (base.source_version, new.source_version))
    profile_model = None if environment.across_machines else applicable_model(model, base, new)
    across_boots = boot_of(base.manifest) != boot_of(new.manifest)
    drafts: list[list[CaseComparison]] = []
    shifts: list[list[ClassShift]] = []
    busy: list[run_load.LoadedExperiment] = []
    for experiment in shared:
        old, fresh = samples(base, experiment, schemas), samples(new, experiment, schemas)
        case_keys = [*old, *(k for k in fresh if k not in old)]
        cases = [_draft(k, old.get(k), fresh.get(k)) for k in case_keys]
        loaded = [found for run in (base, new) if (found := run_load.loaded(run, experiment.name)) is not None]
        if loaded:
            # Load is a confounder: the experiment's cases are withheld, not judged against quiet runs' noise.
            busy.extend(loaded)
            cases = [replace(c, verdict=Verdict.LOADED) if c.verdict is Verdict.SAME else c for c in cases]
        if environment.across_machines:
            # Two machines differ by class and by case (1.5-3x here, unevenly): the class shifts are shown as
            # what the machines differ by, and no case is judged against one machine's noise.
            cases = [replace(c, verdict=Verdict.ACROSS) if c.verdict is Verdict.SAME else c for c in cases]
        judged, found = judge(experiment, schemas, cases, profile_model, across_boots)
        drafts.append(judged)
        shifts.append(found)
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
    for experiment, cases, found in zip(shared, drafts, shifts, strict=True):
        measure = experiment.measured_value(schemas)
        results.append(
            ExperimentComparison(
                experiment.name,
                experiment.title,
                experiment.case_key(schemas),
                measure.time,
                measure.iterations,
                cases,
                found,
            )
        )
    return Comparison(
        base.run_id,
        new.run_id,
        environment,
        results,
        only_base,
        only_new,
        list(advice_changes),
        baseline_reason,
        None if profile_model is None else profile_model.runs,
        tuple(busy),
        across_boots,
    )


def applicable_model(model: noise.NoiseModel | None, base: Run, new: Run) -> noise.ProfileNoise | None:
    """The model's section of the runs' profile and stack, when both runs are of its machine, one profile and
    one stack (compare() also refuses it for a pair across machines: one machine with two PHP versions, say)."""
    if model is None:
        return None
    machines = {machine_name(base.manifest), machine_name(new.manifest)}
    profiles = {str(base.manifest["profile"]), str(new.manifest["profile"])}
    stacks = {stack_of(base.manifest).name, stack_of(new.manifest).name}
    if machines != {model.machine} or len(profiles) != 1 or len(stacks) != 1:
        return None
    return model.profiles.get(section_name(profiles.pop(), stacks.pop()))


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "no experiment with results"


def load(directory: Path, schemas: Schemas, role: str) -> Run:
    """A run directory named on the command line, with a one-line error when it is not one."""
    if not directory.is_dir():
        raise ComparisonError(f"{role} {directory}: no such run directory (expected data/runs/<run-id>/)")
    return load_run(directory.resolve(), schemas)

"""How much a run's numbers move between runs of one machine: the between-run noise model, estimated.

The unit of replication is the run (Kalibera and Jones): a within-run CI describes a run's samples,
not what a rerun gives. From repeated runs of one machine and profile (`make bench-repeat`), each
case's log median is split into

- the run's shift, common to a *case class* (an experiment's cases that move together: the same
  operation at the same payload, say; `Experiment.shift_columns`): the median over the class of the
  case's deviation from its mean across runs;
- the case's residual around that shift.

The model keeps, per class, the SD of the shift across runs and the pooled, robust SD of the
residuals (and a per-case residual SD once there are enough runs), with the runs it came from. It
is data (data/noise/<machine>.json, read and written by data/noise_model.py): pages widen absolute
times and ratios with it, and `compare` judges a case's change against it after removing the pair's
own shift.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from phpcb.data import case_samples
from phpcb.data.loader import Run
from phpcb.data.machines import machine_name
from phpcb.data.noise_model import ClassNoise, NoiseError, ProfileNoise
from phpcb.data.schema import Schemas
from phpcb.experiments.experiment import Experiment

# A case's own residual SD is kept from this many runs on; with fewer, its class's pooled SD stands
# in (three runs give a case two degrees of freedom: its SD could be anything).
MIN_RUNS_PER_CASE = 5
# A class needs this many cases for its median shift to stand for "the machine" rather than a case.
MIN_CASES_PER_CLASS = 3
MAD_TO_SD = 1.4826  # the MAD of a normal sample, times this, estimates its SD

CaseKey = tuple[Any, ...]


def case_label(key: CaseKey) -> str:
    return " · ".join(str(value) for value in key)


def class_label(experiment: Experiment, schemas: Schemas, key: CaseKey) -> str:
    """The case's class: its values of the experiment's shift columns (the whole experiment without any)."""
    columns = experiment.case_key(schemas)
    values = dict(zip(columns, key, strict=True))
    return " · ".join(f"{column}={values[column]}" for column in experiment.shift_columns) or "all"


def group_cases(experiment: Experiment, schemas: Schemas, keys: Sequence[CaseKey]) -> dict[str, list[CaseKey]]:
    groups: dict[str, list[CaseKey]] = defaultdict(list)
    for key in keys:
        groups[class_label(experiment, schemas, key)].append(key)
    return dict(groups)


def class_of(groups: dict[str, list[CaseKey]]) -> dict[CaseKey, str]:
    return {key: label for label, members in groups.items() for key in members}


def shift_basis(groups: dict[str, list[CaseKey]], label: str) -> list[CaseKey]:
    """The cases whose median deviation is the class's shift: its own, or, for a class of fewer than
    MIN_CASES_PER_CLASS (two cases' median is their half-way point, not the machine's), every case."""
    members = groups[label]
    if len(members) >= MIN_CASES_PER_CLASS:
        return members
    return [key for keys in groups.values() for key in keys]


def case_times(run: Run, experiment: Experiment, schemas: Schemas) -> dict[CaseKey, np.ndarray]:
    """Each case's per-operation times in `run` (case_samples.per_case on the experiment's table)."""
    table = run.frames.get(experiment.measurements(schemas).name)
    if table is None:
        return {}
    return case_samples.per_case(table, experiment.case_key(schemas), experiment.measured_value(schemas))


def _log_medians(run: Run, experiment: Experiment, schemas: Schemas) -> dict[CaseKey, float]:
    return {key: math.log(float(np.median(values))) for key, values in case_times(run, experiment, schemas).items()}


def robust_sd(values: np.ndarray) -> float:
    """MAD around zero, scaled to an SD: the residuals are centred already, and a few wild cases must
    not inflate the class's noise."""
    return float(MAD_TO_SD * np.median(np.abs(values))) if values.size else math.nan


def estimate_experiment(
    experiment: Experiment, runs: Sequence[Run], schemas: Schemas
) -> tuple[dict[str, ClassNoise], dict[str, float]]:
    """Classes and per-case SDs from the runs (each must have the experiment's results)."""
    medians = [_log_medians(run, experiment, schemas) for run in runs]
    shared = [key for key in medians[0] if all(key in m for m in medians[1:])]
    count = len(runs)
    by_class = group_cases(experiment, schemas, shared)
    classes: dict[str, ClassNoise] = {}
    per_case: dict[str, float] = {}
    # Centring on the mean across runs shrinks a deviation's variance by (N-1)/N: undone below.
    unshrink = math.sqrt(count / (count - 1))
    deviation = {key: np.array([m[key] for m in medians]) for key in shared}
    deviation = {key: row - row.mean() for key, row in deviation.items()}
    for label, keys in by_class.items():
        deviations = np.array([deviation[key] for key in keys])  # cases × runs
        basis = np.array([deviation[key] for key in shift_basis(by_class, label)])
        shifts = np.median(basis, axis=0)  # one per run
        residuals = deviations - shifts
        classes[label] = ClassNoise(
            cases=len(keys),
            shift_log_sd=float(np.std(shifts, ddof=1)),
            residual_log_sd=robust_sd(residuals.ravel()) * unshrink,
        )
        if count >= MIN_RUNS_PER_CASE:
            for key, row in zip(keys, residuals, strict=True):
                per_case[case_label(key)] = float(np.std(row, ddof=1))
    return classes, per_case


def estimate(runs: Sequence[Run], experiments: Sequence[Experiment], schemas: Schemas) -> tuple[str, ProfileNoise]:
    """The model of the runs' machine and profile; every run must be of the same machine and profile."""
    if len(runs) < 2:
        raise NoiseError(f"a spread between runs needs at least 2 runs of one machine, got {len(runs)}")
    machines = sorted({machine_name(run.manifest) for run in runs})
    profiles = sorted({str(run.manifest["profile"]) for run in runs})
    if len(machines) > 1 or len(profiles) > 1:
        raise NoiseError(
            f"the runs are of {len(machines)} machine(s) {machines} and {len(profiles)} profile(s) {profiles}: "
            "a noise model is of one machine and one profile"
        )
    classes: dict[str, dict[str, ClassNoise]] = {}
    cases: dict[str, dict[str, float]] = {}
    for experiment in experiments:
        having = [run for run in runs if run.has_results(experiment.name)]
        if len(having) < 2:
            continue
        found, per_case = estimate_experiment(experiment, having, schemas)
        classes[experiment.name] = found
        if per_case:
            cases[experiment.name] = per_case
    if not classes:
        raise NoiseError("no experiment has results in two of these runs")
    ordered = sorted(runs, key=lambda run: run.run_id)
    return machines[0], ProfileNoise(profiles[0], tuple(run.run_id for run in ordered), classes, cases)

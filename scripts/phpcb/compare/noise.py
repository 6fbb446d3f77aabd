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

Boots are a level of their own (Kalibera and Jones; a VM's next boot may land on another host): the
shifts and residuals are split into their boot's mean and the runs' spread around it. The spread
within boots is what a run of a seen boot varies by; the spread of the boots' means, beyond what the
runs within them explain, is what a new boot adds (`boot_shift_log_sd`, `boot_residual_log_sd`). From
runs of one boot there is no such estimate: the model says so, and never answers for another boot.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from phpcb.compare.load import loaded
from phpcb.data import case_samples
from phpcb.data.loader import Run
from phpcb.data.machines import boot_of, machine_name
from phpcb.data.noise_model import ClassNoise, NoiseError, ProfileNoise
from phpcb.data.schema import Schemas
from phpcb.data.stacks import stack_of
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


@dataclass(frozen=True)
class Boots:
    """Which boot each run of a model was measured on: an index per run, and the runs per boot."""

    index: np.ndarray  # one boot index per run
    count: int

    @classmethod
    def of(cls, runs: Sequence[Run]) -> Boots:
        keys = [boot_of(run.manifest) for run in runs]
        order = {key: i for i, key in enumerate(dict.fromkeys(keys))}
        return cls(np.array([order[key] for key in keys]), len(order))

    def means(self, values: np.ndarray) -> np.ndarray:
        """Each boot's mean of `values` (…× runs on the last axis): …× boots."""
        return np.stack([values[..., self.index == b].mean(axis=-1) for b in range(self.count)], axis=-1)

    @property
    def runs_per_boot(self) -> np.ndarray:
        return np.bincount(self.index, minlength=self.count)

    def within(self, values: np.ndarray) -> np.ndarray:
        """`values` less their boot's mean: what varies between runs of one boot."""
        return values - self.means(values)[..., self.index]


def _beyond_runs(means: np.ndarray, within_var: float, boots: Boots) -> np.ndarray:
    """The SD between the boots' means (… × boots, on the last axis) beyond what the runs within them
    explain (a mean of R runs varies by within_var / R): 0 where the runs explain all of it."""
    observed = np.var(means, axis=-1, ddof=1)
    explained = within_var * float(np.mean(1 / boots.runs_per_boot))
    return np.sqrt(np.maximum(0.0, observed - explained))


def _between_boots(means: np.ndarray, within_var: float, boots: Boots) -> float | None:
    """A class's shift between boots beyond its runs' (_beyond_runs): None from one boot."""
    return float(_beyond_runs(means, within_var, boots)) if boots.count >= 2 else None


def estimate_experiment(
    experiment: Experiment, runs: Sequence[Run], schemas: Schemas
) -> tuple[dict[str, ClassNoise], dict[str, float], dict[str, float]]:
    """Classes and per-case SDs from the runs (each must have the experiment's results), within boots and,
    from runs of two boots or more, between them."""
    medians = [_log_medians(run, experiment, schemas) for run in runs]
    shared = [key for key in medians[0] if all(key in m for m in medians[1:])]
    count = len(runs)
    boots = Boots.of(runs)
    within_df = count - boots.count  # each boot's mean takes one degree of freedom
    by_class = group_cases(experiment, schemas, shared)
    classes: dict[str, ClassNoise] = {}
    per_case: dict[str, float] = {}
    per_case_boots: dict[str, float] = {}
    # Centring within boots shrinks a deviation's variance by (N-B)/N: undone below.
    unshrink = math.sqrt(count / within_df) if within_df > 0 else math.nan
    deviation = {key: np.array([m[key] for m in medians]) for key in shared}
    deviation = {key: row - row.mean() for key, row in deviation.items()}
    for label, keys in by_class.items():
        deviations = np.array([deviation[key] for key in keys])  # cases × runs
        basis = np.array([deviation[key] for key in shift_basis(by_class, label)])
        shifts = np.median(basis, axis=0)  # one per run
        residuals = deviations - shifts
        within_shifts, within_residuals = boots.within(shifts), boots.within(residuals)
        shift_sd = math.sqrt(float(np.sum(within_shifts**2)) / within_df) if within_df > 0 else math.nan
        residual_sd = robust_sd(within_residuals.ravel()) * unshrink
        boot_means = boots.means(residuals)  # cases × boots
        boot_residual = None
        if boots.count >= 2:
            spread = robust_sd((boot_means - boot_means.mean(axis=1, keepdims=True)).ravel())
            spread *= math.sqrt(boots.count / (boots.count - 1))
            explained = residual_sd**2 * float(np.mean(1 / boots.runs_per_boot))
            boot_residual = math.sqrt(max(0.0, spread**2 - explained))
            for key, sd in zip(keys, _beyond_runs(boot_means, residual_sd**2, boots), strict=True):
                per_case_boots[case_label(key)] = float(sd)
        classes[label] = ClassNoise(
            cases=len(keys),
            shift_log_sd=shift_sd,
            residual_log_sd=residual_sd,
            boot_shift_log_sd=_between_boots(boots.means(shifts), shift_sd**2, boots),
            boot_residual_log_sd=boot_residual,
        )
        if within_df + 1 >= MIN_RUNS_PER_CASE:
            for key, row in zip(keys, within_residuals, strict=True):
                per_case[case_label(key)] = math.sqrt(float(np.sum(row**2)) / within_df)
    return classes, per_case, per_case_boots


def busy_experiments(run: Run, experiments: Sequence[Experiment]) -> list[str]:
    """What the run measured on a busy machine, one sentence each (compare/load.py); [] for a quiet run."""
    return [found.sentence for e in experiments if run.has_results(e.name) and (found := loaded(run, e.name))]


GroupKey = tuple[str, str, str]  # machine, profile, stack


def model_groups(runs: Sequence[Run]) -> dict[GroupKey, list[Run]]:
    """The runs by what one model is of: machine, profile and stack (each group in the runs' order)."""
    groups: dict[GroupKey, list[Run]] = defaultdict(list)
    for run in runs:
        groups[(machine_name(run.manifest), str(run.manifest["profile"]), stack_of(run.manifest).name)].append(run)
    return dict(groups)


def refuse_runs_no_model_is_of(runs: Sequence[Run], experiments: Sequence[Experiment]) -> None:
    """A NoiseError naming why, for runs of two machines, profiles or stacks, or a run that measured an
    experiment on a busy machine (load is a confounder, not noise: compare/load.py)."""
    machines = sorted({machine_name(run.manifest) for run in runs})
    profiles = sorted({str(run.manifest["profile"]) for run in runs})
    if len(machines) > 1 or len(profiles) > 1:
        raise NoiseError(
            f"the runs are of {len(machines)} machine(s) {machines} and {len(profiles)} profile(s) {profiles}: "
            "a noise model is of one machine and one profile"
        )
    busy = [sentence for run in runs for sentence in busy_experiments(run, experiments)]
    if busy:
        raise NoiseError(
            f"a noise model is of quiet runs, and {len(busy)} experiment(s) measured on a busy machine: "
            f"{'; '.join(busy)}; leave those runs out"
        )
    stacks = sorted({stack_of(run.manifest).name for run in runs})
    if len(stacks) > 1:
        raise NoiseError(
            f"the runs are of {len(stacks)} stacks {stacks}: a noise model is of one stack's runs (another PHP "
            "and OpenSSL run each case at another speed); make one model per stack"
        )


def estimate(runs: Sequence[Run], experiments: Sequence[Experiment], schemas: Schemas) -> tuple[str, ProfileNoise]:
    """The model of the runs' machine, profile and stack; every run must be of the same machine, profile and
    stack, measured on a quiet machine (compare/load.py: load is a confounder, not noise), and each boot needs
    two runs or more (two runs of one boot say how runs of a boot vary)."""
    if len(runs) < 2:
        raise NoiseError(f"a spread between runs needs at least 2 runs of one machine, got {len(runs)}")
    boots = Boots.of(runs)
    if len(runs) - boots.count < 1:
        raise NoiseError(
            f"the {len(runs)} runs are of {boots.count} boots, one run each: the spread between runs of one boot "
            "needs two runs of a boot at least"
        )
    refuse_runs_no_model_is_of(runs, experiments)
    ((machine, profile, stack),) = model_groups(runs)
    classes: dict[str, dict[str, ClassNoise]] = {}
    cases: dict[str, dict[str, float]] = {}
    boot_cases: dict[str, dict[str, float]] = {}
    for experiment in experiments:
        having = [run for run in runs if run.has_results(experiment.name)]
        if len(having) - Boots.of(having).count < 1:
            continue  # one run of it per boot: nothing says how runs of a boot vary
        found, per_case, per_case_boots = estimate_experiment(experiment, having, schemas)
        classes[experiment.name] = found
        if per_case:
            cases[experiment.name] = per_case
        if per_case_boots:
            boot_cases[experiment.name] = per_case_boots
    if not classes:
        raise NoiseError("no experiment has results in two runs of one boot of these runs")
    ordered = sorted(runs, key=lambda run: run.run_id)
    boot_of_run = {run.run_id: boot_of(run.manifest) for run in ordered}
    return machine, ProfileNoise(
        profile, tuple(run.run_id for run in ordered), classes, cases, boot_of_run, boot_cases, stack
    )

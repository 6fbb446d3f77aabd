"""How much a run's numbers move between runs of one machine: the between-run noise model.

The unit of replication is the run (Kalibera and Jones): a within-run CI describes a run's samples,
not what a rerun gives. From repeated runs of one machine and profile (`make bench-repeat`), each
case's log median is split into

- the run's shift, common to a *case class* (an experiment's cases that move together: the same
  operation at the same payload, say; `Experiment.shift_columns`): the median over the class of the
  case's deviation from its mean across runs;
- the case's residual around that shift.

The model keeps, per class, the SD of the shift across runs and the pooled, robust SD of the
residuals (and a per-case residual SD once there are enough runs), with the runs it came from. It
is data (data/noise/<machine>.json): pages widen absolute times with it, and `compare` judges a
case's change against it after removing the pair's own shift.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import case_samples
from .errors import BuildError, DataError
from .experiment import Experiment
from .loader import Run
from .machines import machine_name
from .schema import Schemas
from .spread import UNKNOWN, RunSpread

FORMAT_VERSION = 1
# A case's own residual SD is kept from this many runs on; with fewer, its class's pooled SD stands
# in (three runs give a case two degrees of freedom: its SD could be anything).
MIN_RUNS_PER_CASE = 5
# A class needs this many cases for its median shift to stand for "the machine" rather than a case.
MIN_CASES_PER_CLASS = 3
MAD_TO_SD = 1.4826  # the MAD of a normal sample, times this, estimates its SD
NOISE_DIRECTORY = ("data", "noise")

CaseKey = tuple[Any, ...]


class NoiseError(BuildError):
    """Runs that cannot make one noise model (another machine or profile, too few runs)."""


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


@dataclass(frozen=True)
class ClassNoise:
    cases: int
    shift_log_sd: float  # the class's run-level shift, SD across runs (log scale)
    residual_log_sd: float  # a case's deviation from the shift, pooled over the class (log scale)

    @property
    def run_log_sd(self) -> float:
        """How far one run's median of a case may sit from the machine's typical value: shift and residual."""
        return math.hypot(self.shift_log_sd, self.residual_log_sd)


@dataclass(frozen=True)
class ProfileNoise:
    """The model for one profile: the runs it comes from, per experiment its classes and cases."""

    profile: str
    runs: tuple[str, ...]
    classes: dict[str, dict[str, ClassNoise]]
    cases: dict[str, dict[str, float]] = field(default_factory=dict)  # per-case residual SD, with enough runs

    def of_class(self, experiment: str, label: str) -> ClassNoise | None:
        return self.classes.get(experiment, {}).get(label)

    def residual(self, experiment: str, class_name: str, case: str) -> float | None:
        own = self.cases.get(experiment, {}).get(case)
        if own is not None:
            return own
        found = self.of_class(experiment, class_name)
        return found.residual_log_sd if found is not None else None

    def experiment_residual_log_sd(self, experiment: str) -> float | None:
        """A case's spread beyond its class's shift in the experiment's typical class: the median over its
        classes. Not the largest: one class of erratic cases (RSA key generation, whose primes take any
        time) would make every close pick of the experiment a tie."""
        classes = self.classes.get(experiment)
        if not classes:
            return None
        return float(np.median([noise.residual_log_sd for noise in classes.values()]))

    def experiment_run_log_sd(self, experiment: str) -> float | None:
        """One run's spread for the experiment as a whole: the largest of its classes'."""
        classes = self.classes.get(experiment)
        if not classes:
            return None
        return max(noise.run_log_sd for noise in classes.values())


@dataclass(frozen=True)
class NoiseModel:
    machine: str
    profiles: dict[str, ProfileNoise]
    path: Path | None = None

    def for_profile(self, profile: str) -> tuple[ProfileNoise, bool] | None:
        """The profile's model, or another profile's as a stand-in (flagged True), or None."""
        if profile in self.profiles:
            return self.profiles[profile], False
        for other in sorted(self.profiles):
            return self.profiles[other], True
        return None


def case_times(run: Run, experiment: Experiment, schemas: Schemas) -> dict[CaseKey, np.ndarray]:
    """Each case's per-operation times in `run` (case_samples.per_case on the experiment's table)."""
    table = run.frames.get(experiment.tables[0])
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


def path_for(root: Path, machine: str) -> Path:
    return root.joinpath(*NOISE_DIRECTORY) / f"{machine}.json"


def to_json(model: NoiseModel) -> str:
    document = {
        "format_version": FORMAT_VERSION,
        "machine": model.machine,
        "profiles": {
            name: {
                "runs": list(profile.runs),
                "classes": {
                    experiment: {
                        label: {
                            "cases": noise.cases,
                            "shift_log_sd": round(noise.shift_log_sd, 5),
                            "residual_log_sd": round(noise.residual_log_sd, 5),
                        }
                        for label, noise in sorted(found.items())
                    }
                    for experiment, found in sorted(profile.classes.items())
                },
                "cases": {
                    experiment: {label: round(sd, 5) for label, sd in sorted(found.items())}
                    for experiment, found in sorted(profile.cases.items())
                },
            }
            for name, profile in sorted(model.profiles.items())
        },
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _number(value: Any, path: Path, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise DataError(path, f"{where}: expected a non-negative number, got {value!r}")
    return float(value)


def _mapping(value: Any, path: Path, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DataError(path, f"{where}: expected a mapping, got {value!r}")
    return value


def parse(document: Any, path: Path) -> NoiseModel:
    top = _mapping(document, path, "(top level)")
    if top.get("format_version") != FORMAT_VERSION:
        raise DataError(
            path,
            f"format_version: expected {FORMAT_VERSION}, got {top.get('format_version')!r}: run `make noise` again",
        )
    machine = top.get("machine")
    if not isinstance(machine, str) or path.stem != machine:
        raise DataError(path, f"machine: expected {path.stem!r} (the file's name), got {machine!r}")
    profiles: dict[str, ProfileNoise] = {}
    for name, entry in _mapping(top.get("profiles"), path, "profiles").items():
        where = f"profiles/{name}"
        entry = _mapping(entry, path, where)
        runs = entry.get("runs")
        if not isinstance(runs, list) or len(runs) < 2 or not all(isinstance(r, str) for r in runs):
            raise DataError(path, f"{where}/runs: expected the ids of at least 2 runs, got {runs!r}")
        classes: dict[str, dict[str, ClassNoise]] = {}
        for experiment, found in _mapping(entry.get("classes"), path, f"{where}/classes").items():
            classes[experiment] = {}
            for label, noise in _mapping(found, path, f"{where}/classes/{experiment}").items():
                at = f"{where}/classes/{experiment}/{label}"
                noise = _mapping(noise, path, at)
                classes[experiment][label] = ClassNoise(
                    int(_number(noise.get("cases"), path, f"{at}/cases")),
                    _number(noise.get("shift_log_sd"), path, f"{at}/shift_log_sd"),
                    _number(noise.get("residual_log_sd"), path, f"{at}/residual_log_sd"),
                )
        cases = {
            experiment: {
                label: _number(sd, path, f"{where}/cases/{experiment}/{label}")
                for label, sd in _mapping(found, path, f"{where}/cases/{experiment}").items()
            }
            for experiment, found in _mapping(entry.get("cases", {}), path, f"{where}/cases").items()
        }
        profiles[str(name)] = ProfileNoise(str(name), tuple(runs), classes, cases)
    return NoiseModel(machine, profiles, path)


def load(root: Path, machine: str) -> NoiseModel | None:
    """The machine's model, or None when no repeated runs of it were measured."""
    path = path_for(root, machine)
    if not path.is_file():
        return None
    from .datafile import read_json

    return parse(read_json(path), path)


def save(root: Path, machine: str, profile: ProfileNoise) -> Path:
    """Adds (or replaces) the profile's section of the machine's model, written whole (temp + rename)."""
    existing = load(root, machine)
    profiles = dict(existing.profiles) if existing is not None else {}
    profiles[profile.profile] = profile
    path = path_for(root, machine)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".json.tmp")
    temporary.write_text(to_json(NoiseModel(machine, profiles)), encoding="utf-8")
    temporary.replace(path)
    return path


def run_spread(model: NoiseModel | None, machine: str, profile: str, experiment: str) -> RunSpread:
    if model is None or model.machine != machine:
        return UNKNOWN
    found = model.for_profile(profile)
    if found is None:
        return UNKNOWN
    section, stand_in = found
    log_sd = section.experiment_run_log_sd(experiment)
    residual = section.experiment_residual_log_sd(experiment)
    if log_sd is None or residual is None:
        return UNKNOWN
    return RunSpread(log_sd, section.runs, section.profile, stand_in, math.sqrt(2) * residual)

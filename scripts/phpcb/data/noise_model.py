"""A machine's between-run noise model as data: data/noise/<machine>.json, read, checked and written
(compare/noise.py estimates it from repeated runs), and the spread it gives one experiment of one run
(statistics/spread.py: RunSpread, run_spread)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from phpcb.data.datafile import read_json
from phpcb.errors import BuildError, DataError

FORMAT_VERSION = 1
NOISE_DIRECTORY = ("data", "noise")


class NoiseError(BuildError):
    """Runs that cannot make one noise model (another machine or profile, too few runs)."""


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

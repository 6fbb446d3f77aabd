"""A machine's between-run noise model as data: data/noise/<machine>.json, read, checked and written
(compare/noise.py estimates it from repeated runs), and the spread it gives one experiment of one run
(statistics/spread.py: RunSpread, run_spread).

Variation has levels (Kalibera and Jones): samples within a run, runs within a boot, boots of a
machine (a VM's next boot may land on another host). The model keeps, per class of cases, the
spread between runs of one boot and, from runs of two boots or more, the spread between boots; it
says how many boots it rests on, and a model of one boot never answers for a run of another."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from phpcb.data.datafile import read_json
from phpcb.data.whole_files import write_whole
from phpcb.errors import BuildError, DataError

FORMAT_VERSION = 2
NOT_RECORDED = "not recorded"
# The stack of a model section written before sections named one: every such model was fit from runs of
# the host's own PHP (data/stacks.py).
HOST_STACK = "host"
# How many degrees of freedom the class's pooled residual SD counts for beside a case's own SD (a moderated
# variance, as in limma's empirical Bayes t): a case's own SD from a few runs, or from two boots, is as
# often far too small as too large, and a normal test against a too-small SD flags noise. Between boots
# it matters most: the class's SD is robust (MAD), so the few cases that one boot moves by 10-20 % (small
# curves' EC operations on this pool) stood out of it in every pair of runs of two boots.
CLASS_PRIOR_DF = 4
NOISE_DIRECTORY = ("data", "noise")


class NoiseError(BuildError):
    """Runs that cannot make one noise model (another machine or profile, too few runs)."""


@dataclass(frozen=True)
class ClassNoise:
    cases: int
    shift_log_sd: float  # the class's run-level shift, SD across runs of one boot (log scale)
    residual_log_sd: float  # a case's deviation from the shift, pooled over the class, within a boot (log scale)
    # The same between boots, beyond what runs of one boot vary: None for a model of one boot.
    boot_shift_log_sd: float | None = None
    boot_residual_log_sd: float | None = None

    @property
    def run_log_sd(self) -> float:
        """How far one run's median of a case may sit from the machine's typical value on the same boot."""
        return math.hypot(self.shift_log_sd, self.residual_log_sd)

    @property
    def boot_log_sd(self) -> float | None:
        """How far one run's median may sit from the machine's typical value on any boot (None: one boot)."""
        if self.boot_shift_log_sd is None or self.boot_residual_log_sd is None:
            return None
        return math.hypot(self.run_log_sd, self.boot_shift_log_sd, self.boot_residual_log_sd)

    def residual_across_boots(self) -> float | None:
        """A case's spread beyond its class's shift for a run of another boot (None: one boot)."""
        if self.boot_residual_log_sd is None:
            return None
        return math.hypot(self.residual_log_sd, self.boot_residual_log_sd)


@dataclass(frozen=True)
class ProfileNoise:
    """The model for one profile and stack: the runs it comes from (and the boot of each), per experiment its
    classes and cases. A stack's PHP and OpenSSL make other cases of other speeds, so runs of two stacks
    never make one model, and a stack's model never answers for another's runs."""

    profile: str
    runs: tuple[str, ...]
    classes: dict[str, dict[str, ClassNoise]]
    cases: dict[str, dict[str, float]] = field(default_factory=dict)  # per-case residual SD, with enough runs
    boots: dict[str, str] = field(default_factory=dict)  # run id → its boot (data/machines.py: boot_of)
    # Per-case residual SD between boots, beyond its runs' (from two boots or more; {} for one).
    boot_cases: dict[str, dict[str, float]] = field(default_factory=dict)
    stack: str = HOST_STACK

    @property
    def section(self) -> str:
        return section_name(self.profile, self.stack)

    def __post_init__(self) -> None:
        # A run whose boot is not given was measured on the same, unrecorded boot as the others.
        missing = {run: NOT_RECORDED for run in self.runs if run not in self.boots}
        if missing:
            object.__setattr__(self, "boots", {**self.boots, **missing})

    @property
    def within_df(self) -> int:
        """The degrees of freedom of a case's own SD: the runs less one per boot (each boot's mean)."""
        return max(0, len(self.runs) - self.boot_count)

    @property
    def boot_df(self) -> int:
        """The degrees of freedom of a case's own SD between boots: the boots less one."""
        return self.boot_count - 1

    @property
    def boot_count(self) -> int:
        """The boots the model rests on (runs that name none count as one)."""
        return max(1, len(set(self.boots.values())))

    @property
    def one_boot(self) -> bool:
        return self.boot_count < 2

    def of_class(self, experiment: str, label: str) -> ClassNoise | None:
        return self.classes.get(experiment, {}).get(label)

    def residual(self, experiment: str, class_name: str, case: str, across_boots: bool = False) -> float | None:
        """A case's residual SD between runs (its own moderated by its class's): of one boot, or
        (across_boots) of two boots, which a model of one boot cannot say (None)."""
        found = self.of_class(experiment, class_name)
        own = self.cases.get(experiment, {}).get(case)
        within = moderated(own, self.within_df, found.residual_log_sd if found is not None else None)
        if not across_boots or within is None:
            return within
        pooled = found.boot_residual_log_sd if found is not None else None
        if pooled is None:
            return None
        boot = moderated(self.boot_cases.get(experiment, {}).get(case), self.boot_df, pooled)
        return math.hypot(within, boot) if boot is not None else None

    def experiment_residual_log_sd(self, experiment: str, across_boots: bool = False) -> float | None:
        """A case's spread beyond its class's shift in the experiment's typical class: the median over its
        classes. Not the largest: one class of erratic cases (RSA key generation, whose primes take any
        time) would make every close pick of the experiment a tie. Across boots: None for a model of one boot."""
        classes = self.classes.get(experiment)
        if not classes:
            return None
        values = [
            noise.residual_across_boots() if across_boots else noise.residual_log_sd for noise in classes.values()
        ]
        if any(value is None for value in values):
            return None
        return float(np.median([value for value in values if value is not None]))

    def experiment_run_log_sd(self, experiment: str, across_boots: bool = False) -> float | None:
        """One run's spread for the experiment as a whole: the largest of its classes'; across boots, None
        for a model of one boot."""
        classes = self.classes.get(experiment)
        if not classes:
            return None
        values = [noise.boot_log_sd if across_boots else noise.run_log_sd for noise in classes.values()]
        if any(value is None for value in values):
            return None
        return max(value for value in values if value is not None)


def moderated(own: float | None, df: int, pooled: float | None) -> float | None:
    """A case's SD: its own (on `df` degrees of freedom) and its class's pooled SD (counted as
    CLASS_PRIOR_DF), their variances averaged by those weights; either alone when the other is unknown."""
    if own is None or df <= 0:
        return pooled
    if pooled is None:
        return own
    return math.sqrt((CLASS_PRIOR_DF * pooled**2 + df * own**2) / (CLASS_PRIOR_DF + df))


@dataclass(frozen=True)
class NoiseModel:
    machine: str
    profiles: dict[str, ProfileNoise]
    path: Path | None = None

    def for_run(self, profile: str, stack: str) -> tuple[ProfileNoise, bool] | None:
        """The model of the profile's runs on the stack, or of another profile on the same stack as a
        stand-in (flagged True), or None: never another stack's."""
        exact = self.profiles.get(section_name(profile, stack))
        if exact is not None:
            return exact, False
        for name in sorted(self.profiles):
            if self.profiles[name].stack == stack:
                return self.profiles[name], True
        return None


def section_name(profile: str, stack: str) -> str:
    """A model section's key in data/noise/<machine>.json: the profile for the host's stack (as models
    wrote before stacks had sections of their own), `profile@stack` for another."""
    return profile if stack == HOST_STACK else f"{profile}@{stack}"


def path_for(root: Path, machine: str) -> Path:
    return root.joinpath(*NOISE_DIRECTORY) / f"{machine}.json"


def to_json(model: NoiseModel) -> str:
    document = {
        "format_version": FORMAT_VERSION,
        "machine": model.machine,
        "profiles": {
            name: {
                "profile": profile.profile,
                "stack": profile.stack,
                "runs": list(profile.runs),
                "boots": {run: profile.boots[run] for run in profile.runs if run in profile.boots},
                "classes": {
                    experiment: {
                        label: {
                            "cases": noise.cases,
                            "shift_log_sd": round(noise.shift_log_sd, 5),
                            "residual_log_sd": round(noise.residual_log_sd, 5),
                            "boot_shift_log_sd": _rounded(noise.boot_shift_log_sd),
                            "boot_residual_log_sd": _rounded(noise.boot_residual_log_sd),
                        }
                        for label, noise in sorted(found.items())
                    }
                    for experiment, found in sorted(profile.classes.items())
                },
                "cases": _per_case(profile.cases),
                "boot_cases": _per_case(profile.boot_cases),
            }
            for name, profile in sorted(model.profiles.items())
        },
    }
    # allow_nan=False: a spread that is not a number fails here, not at the next load (parse refuses it).
    return json.dumps(document, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def _per_case(found: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    return {
        experiment: {label: round(sd, 5) for label, sd in sorted(sds.items())}
        for experiment, sds in sorted(found.items())
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 5)


def _optional_number(value: Any, path: Path, where: str) -> float | None:
    return None if value is None else _number(value, path, where)


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
        profile, stack = _profile_and_stack(name, entry, path, where)
        runs = entry.get("runs")
        if not isinstance(runs, list) or len(runs) < 2 or not all(isinstance(r, str) for r in runs):
            raise DataError(path, f"{where}/runs: expected the ids of at least 2 runs, got {runs!r}")
        boots = _mapping(entry.get("boots"), path, f"{where}/boots")
        if set(boots) != set(runs) or not all(isinstance(b, str) and b for b in boots.values()):
            raise DataError(path, f"{where}/boots: expected each run's boot, for the runs {runs!r}, got {boots!r}")
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
                    _optional_number(noise.get("boot_shift_log_sd"), path, f"{at}/boot_shift_log_sd"),
                    _optional_number(noise.get("boot_residual_log_sd"), path, f"{at}/boot_residual_log_sd"),
                )
        cases = _parse_per_case(entry.get("cases", {}), path, f"{where}/cases")
        # Absent from models written before per-case spreads between boots were kept: none then.
        boot_cases = _parse_per_case(entry.get("boot_cases", {}), path, f"{where}/boot_cases")
        profiles[str(name)] = ProfileNoise(profile, tuple(runs), classes, cases, dict(boots), boot_cases, stack)
    return NoiseModel(machine, profiles, path)


def _profile_and_stack(name: str, entry: dict[str, Any], path: Path, where: str) -> tuple[str, str]:
    """The section's profile and stack, which its key must name (section_name); a section written before
    sections named them is the host stack's, keyed by its profile."""
    profile, stack = entry.get("profile", name), entry.get("stack", HOST_STACK)
    if not isinstance(profile, str) or not profile or not isinstance(stack, str) or not stack:
        raise DataError(path, f"{where}: expected a profile and a stack name, got {profile!r} and {stack!r}")
    if name != section_name(profile, stack):
        raise DataError(
            path,
            f"{where}: the section of profile {profile!r} on stack {stack!r} is keyed {section_name(profile, stack)!r}",
        )
    return profile, stack


def _parse_per_case(value: Any, path: Path, where: str) -> dict[str, dict[str, float]]:
    return {
        experiment: {
            label: _number(sd, path, f"{where}/{experiment}/{label}")
            for label, sd in _mapping(found, path, f"{where}/{experiment}").items()
        }
        for experiment, found in _mapping(value, path, where).items()
    }


def load(root: Path, machine: str) -> NoiseModel | None:
    """The machine's model, or None when no repeated runs of it were measured."""
    path = path_for(root, machine)
    if not path.is_file():
        return None
    return parse(read_json(path), path)


def save(root: Path, machine: str, profile: ProfileNoise) -> Path:
    """Adds (or replaces) the profile and stack's section of the machine's model, written whole (temp +
    rename)."""
    path = path_for(root, machine)
    # A model of an older format is replaced whole: its other profiles are estimated anew with `make noise`.
    older = path.is_file() and read_json(path).get("format_version") != FORMAT_VERSION
    existing = None if older else load(root, machine)
    profiles = dict(existing.profiles) if existing is not None else {}
    profiles[profile.section] = profile
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, to_json(NoiseModel(machine, profiles)).encode("utf-8"))
    return path

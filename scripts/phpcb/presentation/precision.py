"""How precise and how quiet one experiment's measurement was: what the runner recorded of its sampling
(cases within the profile's target, which cases were sampled in rotation) and of the machine's load
(CPU steal, load averages, clock), and the outliers among its samples (Tukey's fences, counted here
from the samples). Pages show it beside the environment, and warn when a run looks unstable, as
pyperf ("the benchmark seems unstable"), criterion (outlier classes) and hyperfine ("statistical
outliers were detected") do."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from phpcb.data import case_samples
from phpcb.data.loader import Run
from phpcb.data.schema import Schemas
from phpcb.presentation.formatting import percent, plus_minus
from phpcb.statistics import stats

# A hypervisor that takes more than this share of the CPU time while a run measures changes its
# numbers: the steal is neither PHP's time nor constant (Linux's /proc/stat counts it per tick).
STEAL_WARNING = 0.05
# Tukey's inner fences flag about 0.7 % of normally distributed samples; ten times that means the
# machine interrupted the measurement (other processes, frequency changes, the hypervisor).
OUTLIER_WARNING = 0.07
# Below this share of cases within the target, the page says the run is less precise than asked.
WITHIN_TARGET_WARNING = 0.9
# Other processes busy for this share of all cores' time: on a 2-core VM, one core's worth for half the
# run. They take caches, memory bandwidth and, on a hyperthread sibling, the core itself.
OTHERS_WARNING = 0.25
# /proc/stat counts in USER_HZ clock ticks, 100 a second on every architecture Linux runs on.
CLOCK_TICKS_PER_SECOND = 100

Samples = dict[tuple[case_samples.KeyValue, ...], np.ndarray]


def measured_tables(run: Run, experiment: str, schemas: Schemas) -> list[tuple[str, Samples]]:
    """The experiment's tables that hold timings, each as its cases' per-operation times."""
    entry = run.experiment(experiment) or {"files": []}
    tables = []
    for name in entry["files"]:
        schema = schemas.tables.get(name)
        if schema is None or schema.measure is None or name not in run.frames:
            continue
        tables.append((name, case_samples.per_case(run.frames[name], schema.key, schema.measure)))
    return tables


@dataclass(frozen=True)
class Sampling:
    """The runner's record of one experiment's sampling (manifest: experiments.<name>.sampling)."""

    target: float
    minimum_samples: int
    cases: int
    within_target: int
    interleaved_by: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, entry: Mapping[str, Any] | None) -> Sampling | None:
        record = (entry or {}).get("sampling")
        if record is None:
            return None
        return cls(
            target=float(record["target"]),
            minimum_samples=int(record["minimum_samples"]),
            cases=int(record["cases"]),
            within_target=int(record["within_target"]),
            interleaved_by={table: tuple(columns) for table, columns in record["interleaved_by"].items()},
        )


@dataclass(frozen=True)
class Pairing:
    """Which cases of one table were sampled in rotation: those that agree on `columns` (None: none
    were, e.g. a run written before schema version 5). Their sample r was taken in the same round."""

    columns: tuple[str, ...] | None

    @classmethod
    def of(cls, run: Run, experiment: str, table: str) -> Pairing:
        sampling = Sampling.of(run.experiment(experiment))
        return cls(None if sampling is None else sampling.interleaved_by.get(table))

    def together(self, a: Any, b: Any) -> bool:
        """Whether cases `a` and `b` (mappings or objects with the key columns as attributes) were
        sampled in the same rounds."""
        if self.columns is None:
            return False
        return all(_value(a, column) == _value(b, column) for column in self.columns)


UNPAIRED = Pairing(None)  # no two cases sampled together


def _value(case: Any, column: str) -> Any:
    return case[column] if isinstance(case, Mapping) else getattr(case, column)


@dataclass(frozen=True)
class Load:
    """What else the machine did while an experiment (or a run) measured, from two readings."""

    steal_share: float | None  # of all CPU time, stolen by the hypervisor
    busy_share: float | None  # of all CPU time, not idle (this run's own process included)
    others_share: float | None  # of all CPU time, busy with other processes than the run's
    load_before: float | None  # the 1-minute load average
    load_after: float | None
    governor: str | None
    frequency_mhz: float | None

    @classmethod
    def of(cls, system: Mapping[str, Any] | None) -> Load | None:
        if not system or not system.get("before") or not system.get("after"):
            return None
        before, after = system["before"], system["after"]
        steal = busy = others = None
        if before["cpu_ticks"] and after["cpu_ticks"]:
            total = after["cpu_ticks"]["total"] - before["cpu_ticks"]["total"]
            if total > 0:
                steal = (after["cpu_ticks"]["steal"] - before["cpu_ticks"]["steal"]) / total
                busy = 1 - (after["cpu_ticks"]["idle"] - before["cpu_ticks"]["idle"]) / total
                if before["own_cpu_ns"] is not None and after["own_cpu_ns"] is not None:
                    own = (after["own_cpu_ns"] - before["own_cpu_ns"]) / 1e9 * CLOCK_TICKS_PER_SECOND / total
                    others = max(0.0, busy - own)
        return cls(
            steal_share=steal,
            busy_share=busy,
            others_share=others,
            load_before=before["load_average"][0] if before["load_average"] else None,
            load_after=after["load_average"][0] if after["load_average"] else None,
            governor=after["governor"],
            frequency_mhz=after["frequency_mhz"],
        )


@dataclass(frozen=True)
class Reached:
    """How many of an experiment's cases have the median's 95 % CI within the sampling target, counted
    from the samples the pages print (all rounds of a case together). The runner's own tally (the
    manifest's `sampling.within_target`) judged each case when it stopped sampling it, before later
    rounds added their samples: pages state this count, so that it agrees with the CIs they print."""

    cases: int
    within: int
    target: float

    @property
    def share(self) -> float:
        return self.within / self.cases if self.cases else 1.0


@dataclass(frozen=True)
class Precision:
    """One experiment of one run: its sampling record, its samples' outliers, the machine's load."""

    sampling: Sampling | None
    samples: int
    outliers: stats.Outliers
    load: Load | None
    reached: Reached | None = None  # None when the run recorded no target (before schema version 5)

    @property
    def outlier_share(self) -> float:
        return self.outliers.mild / self.samples if self.samples else 0.0

    @property
    def warnings(self) -> list[str]:
        """Why this experiment's numbers may not be what the machine does when idle; [] when none."""
        found = []
        if self.load is not None and self.load.steal_share is not None and self.load.steal_share >= STEAL_WARNING:
            found.append(
                f"the hypervisor took {percent(self.load.steal_share)} of the CPU time while it measured (CPU steal): "
                "other virtual machines were busy on the same host"
            )
        if self.load is not None and self.load.others_share is not None and self.load.others_share >= OTHERS_WARNING:
            found.append(
                f"other processes kept the machine busy for {percent(self.load.others_share)} of all cores' time "
                "while it measured"
            )
        if self.outlier_share >= OUTLIER_WARNING:
            found.append(
                f"{self.outliers.mild:,} of its {self.samples:,} samples ({percent(self.outlier_share)}) are outliers "
                "(beyond Tukey's fences): something else ran on the machine"
            )
        if self.reached is not None and self.reached.share < WITHIN_TARGET_WARNING:
            found.append(
                f"only {self.reached.within:,} of {self.reached.cases:,} cases reached "
                f"{plus_minus(self.reached.target)} before their time ran out"
            )
        return found


def precision(run: Run, experiment: str, schemas: Schemas) -> Precision:
    entry = run.experiment(experiment)
    sampling = Sampling.of(entry)
    mild = severe = samples = cases = within = 0
    for _, by_case in measured_tables(run, experiment, schemas):
        for values in by_case.values():
            found = stats.tukey_outliers(values)
            mild, severe, samples = mild + found.mild, severe + found.severe, samples + int(values.size)
            cases += 1
            within += sampling is not None and stats.within_target(values, sampling.target)
    reached = Reached(cases, within, sampling.target) if sampling is not None else None
    return Precision(sampling, samples, stats.Outliers(mild, severe), Load.of((entry or {}).get("system")), reached)

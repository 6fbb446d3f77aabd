"""How precise and how quiet one experiment's measurement was, for the pages: from the runner's records
(data/sampling.py: the cases within the profile's target, the machine's load) and the outliers among
its samples (Tukey's fences, counted here from the samples), the warnings a page shows when a run looks
unstable, as pyperf ("the benchmark seems unstable"), criterion (outlier classes) and hyperfine
("statistical outliers were detected") do."""

from __future__ import annotations

from dataclasses import dataclass

from phpcb.data.loader import Run
from phpcb.data.sampling import Load, Sampling, measured_tables
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

"""How precise and how quiet one experiment's measurement was, for the pages: from the runner's records
(data/sampling.py: the cases within the profile's target, the machine's load) and the outliers among
its samples (Tukey's fences, counted here from the samples), the warnings a page shows when a run looks
unstable, as pyperf ("the benchmark seems unstable"), criterion (outlier classes) and hyperfine
("statistical outliers were detected") do."""

from __future__ import annotations

import math
import weakref
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
# Beside a case's number whose CI did not reach the target: the runner stopped sampling it when its
# share of the run's time was spent (docs/methodology.md#precision-and-noise).
SHORT_OF_TARGET = "not within {target} in its time"
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


def short_of_target_text(target: float) -> str:
    """The words beside a number whose case did not reach its target: "not within ±3 % in its time"."""
    return SHORT_OF_TARGET.format(target=plus_minus(target))


def short_of_target(found: Precision | None, median: float, low: float, high: float) -> str:
    """What a page prints beside one case's number whose CI (over this run's samples) is wider than the
    target its experiment was sampled to: ", not within ±3 % in its time", else "". The runner gave the
    case its share of the run's time budget and stopped it there (or at the profile's most samples),
    so the page says so where the number is, not only in the card's count of such cases. The half-width
    is (high − low) / (2 × median), as stats.relative_half_width and the runner compute it; a CI that
    is not finite (too few samples for one, e.g. a comparison's 3 rounds) is not a sampled case's."""
    if found is None or found.reached is None:
        return ""
    if not all(math.isfinite(x) for x in (median, low, high)) or median <= 0:
        return ""
    if (high - low) / (2.0 * median) <= found.reached.target:
        return ""
    return f", {short_of_target_text(found.reached.target)}"


def short_of_target_rate(found: Precision | None, mb_per_s: float, interval: tuple[float, float]) -> str:
    """short_of_target for a throughput and its CI: the times' interval is bytes over the throughputs'
    (the slow end of one is the low end of the other), so its half-width over its median is
    rate × (high − low) / (2 × low × high)."""
    low, high = interval
    if not all(math.isfinite(x) for x in (mb_per_s, low, high)) or low <= 0 or mb_per_s <= 0:
        return ""
    return short_of_target(found, 1.0 / mb_per_s, 1.0 / high, 1.0 / low)


# A build asks for each run's precision from its experiment pages and again from the Runs page. A Run
# is not changed once loaded (frozen, its tables Arrow's), so the answer is kept per run object, and
# goes when the run does; Precision is frozen too, so no caller changes what the next one reads.
_KNOWN: weakref.WeakKeyDictionary[Run, dict[tuple[str, int], tuple[Schemas, Precision]]] = weakref.WeakKeyDictionary()


def precision(run: Run, experiment: str, schemas: Schemas) -> Precision:
    known = _KNOWN.setdefault(run, {})
    key = (experiment, id(schemas))  # the schemas are held beside the answer: their id stays theirs
    if key not in known:
        known[key] = (schemas, _precision(run, experiment, schemas))
    return known[key][1]


def reached(run: Run, experiment: str, schemas: Schemas) -> Reached | None:
    """precision(run, experiment, schemas).reached, without counting the outliers where it is not known
    yet: the Runs page states it for every run, most of which no page shows."""
    known = _KNOWN.get(run, {}).get((experiment, id(schemas)))
    if known is not None:
        return known[1].reached
    return _precision(run, experiment, schemas, outliers=False).reached


def _precision(run: Run, experiment: str, schemas: Schemas, outliers: bool = True) -> Precision:
    """The run's precision for the experiment; with outliers=False, its outliers are not counted (left 0)."""
    entry = run.experiment(experiment)
    sampling = Sampling.of(entry)
    mild = severe = samples = cases = within = 0
    for _, by_case in measured_tables(run, experiment, schemas):
        for values in by_case.values():
            if outliers:
                found = stats.tukey_outliers(values)
                mild, severe = mild + found.mild, severe + found.severe
            samples += int(values.size)
            cases += 1
            within += sampling is not None and stats.within_target(values, sampling.target)
    reached = Reached(cases, within, sampling.target) if sampling is not None else None
    return Precision(sampling, samples, stats.Outliers(mild, severe), Load.of((entry or {}).get("system")), reached)

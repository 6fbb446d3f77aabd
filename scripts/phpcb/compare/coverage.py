"""Do the pages' "across runs" intervals hold on a boot the noise model has not seen? (issue 35) And does
`compare` keep quiet on two runs of one machine that differ only by their boots? (issue 45)

Leave each boot out in turn: estimate the model from the runs of the other boots (compare/noise.py),
and, for every run left in and every headline number its pages print (Experiment.headlines: the few
figures each page leads with), widen its within-run interval as the page does (statistics/spread.py)
and check whether the same headline of each run of the left-out boot falls inside. The share that does
is the coverage, per experiment; 90 % is the goal for a 95 % interval that is to be trusted on the next
boot.

Held-out pairs: every pair of runs of two different boots, judged by `compare` with the model of the
other runs (so neither run of the pair taught the model). Nothing changed between them but the boot, so
every case flagged is a false alarm; at most 5 % per pair is the goal.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from phpcb.compare import comparison, noise
from phpcb.data.loader import Run
from phpcb.data.machines import boot_of
from phpcb.data.noise_model import NoiseError, NoiseModel
from phpcb.data.schema import Schemas
from phpcb.errors import BuildError
from phpcb.experiments.contexts import Contexts
from phpcb.experiments.experiment import Experiment
from phpcb.presentation.headlines import SECONDS, Headline
from phpcb.statistics.spread import UNKNOWN, RunSpread, run_spread
from phpcb.statistics.stats import Ratio

GOAL = 0.90
FALSE_ALARM_GOAL = 0.05


class CoverageError(BuildError):
    """Runs that cannot say whether an interval holds on another boot (one boot, other machines)."""


@dataclass(frozen=True)
class Miss:
    """A headline of a left-out boot's run outside the interval a run of the other boots printed."""

    key: str
    reference: str
    held_out: str
    value: float
    low: float
    high: float


@dataclass
class Coverage:
    experiment: str
    covered: int = 0
    total: int = 0
    misses: list[Miss] = field(default_factory=list)
    boots_in_models: set[int] = field(default_factory=set)  # how many boots the left-in models rested on
    # Headlines of a pick (Argon2's parameters per budget) whose pick differs between the two runs: their
    # numbers are of different parameters, so not compared (a change of the pick, which compare reports).
    other_picks: int = 0

    @property
    def share(self) -> float:
        return self.covered / self.total if self.total else math.nan

    @property
    def meets_goal(self) -> bool:
        return self.total > 0 and self.share >= GOAL


class WithinRun(Contexts):
    """The project's contexts with every spread left out: headlines carry their run's own interval,
    which this module widens as a page would, by a model it chooses."""

    def spread(self, experiment: Experiment, run: Run) -> RunSpread:
        return UNKNOWN


def widened(headline: Headline, spread: RunSpread) -> tuple[float, float]:
    """The interval a page prints for the headline: a time widened by the run's spread, a ratio by the
    spread of a ratio of two cases."""
    if headline.unit == SECONDS:
        return spread.widen(headline.value, headline.low, headline.high)
    ratio = spread.widen_ratio(Ratio(headline.value, headline.low, headline.high))
    return ratio.low, ratio.high


def _headlines(experiment: Experiment, run: Run, contexts: Contexts) -> dict[str, Headline]:
    if not run.has_results(experiment.name):
        return {}
    return {h.key: h for h in experiment.headlines(contexts.context(experiment, run))}


def one_model_of(runs: Sequence[Run], experiments: Sequence[Experiment]) -> None:
    """Refuses runs no one model is of, naming why (noise.refuse_runs_no_model_is_of): a fold or pair that
    could not make its model would otherwise drop out unseen."""
    try:
        noise.refuse_runs_no_model_is_of(runs, experiments)
    except NoiseError as error:
        raise CoverageError(f"coverage: {error}") from error


def leave_one_boot_out(
    runs: Sequence[Run], experiments: Sequence[Experiment], schemas: Schemas, contexts: WithinRun
) -> list[Coverage]:
    """Per experiment, the share of headline numbers of a left-out boot's runs inside the intervals the
    other boots' runs print, with the model of the other boots."""
    one_model_of(runs, experiments)
    by_boot: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        by_boot[boot_of(run.manifest)].append(run)
    if len(by_boot) < 2:
        raise CoverageError(
            f"the {len(runs)} runs are of one boot ({next(iter(by_boot))}): leave-one-boot-out needs two"
        )
    found = {e.name: Coverage(e.name) for e in experiments}
    headlines = {(e.name, run.run_id): _headlines(e, run, contexts) for e in experiments for run in runs}
    for boot, held_out in by_boot.items():
        left_in = [run for run in runs if boot_of(run.manifest) != boot]
        try:
            machine, section = noise.estimate(left_in, experiments, schemas)
        except NoiseError:
            continue  # the other boots have one run each: no spread between runs to widen by
        model = NoiseModel(machine, {section.section: section})
        for experiment in experiments:
            spread = run_spread(model, machine, section.profile, section.stack, experiment.name)
            coverage = found[experiment.name]
            coverage.boots_in_models.add(section.boot_count)
            for reference in left_in:
                for key, headline in headlines[(experiment.name, reference.run_id)].items():
                    low, high = widened(headline, spread)
                    for run in held_out:
                        other = headlines[(experiment.name, run.run_id)].get(key)
                        if other is None:
                            continue
                        if other.choice != headline.choice:
                            coverage.other_picks += 1
                            continue
                        coverage.total += 1
                        if low <= other.value <= high:
                            coverage.covered += 1
                        else:
                            coverage.misses.append(Miss(key, reference.run_id, run.run_id, other.value, low, high))
    return [coverage for coverage in found.values() if coverage.total]


@dataclass(frozen=True)
class HeldOutPair:
    """Two runs of two boots compared with the model of the other runs: the cases `compare` flagged."""

    base: str
    new: str
    flagged: int
    tested: int

    @property
    def share(self) -> float:
        return self.flagged / self.tested if self.tested else math.nan


def held_out_pairs(runs: Sequence[Run], experiments: Sequence[Experiment], schemas: Schemas) -> list[HeldOutPair]:
    """Every pair of runs of two boots whose other runs make a model (two runs of a boot at least), judged
    by it: the share of their tested cases `compare` calls faster or slower."""
    one_model_of(runs, experiments)
    pairs = []
    for base, new in combinations(sorted(runs, key=lambda run: run.run_id), 2):
        if boot_of(base.manifest) == boot_of(new.manifest):
            continue
        left_in = [run for run in runs if run.run_id not in (base.run_id, new.run_id)]
        try:
            machine, section = noise.estimate(left_in, experiments, schemas)
        except NoiseError:
            continue
        model = NoiseModel(machine, {section.section: section})
        result = comparison.compare(base, new, schemas, experiments, model=model)
        judged = [case for experiment in result.experiments for case in experiment.cases]
        tested = sum(case.p_value is not None for case in judged)
        flagged = sum(case.verdict.significant for case in judged)
        pairs.append(HeldOutPair(base.run_id, new.run_id, flagged, tested))
    return pairs


def pairs_report(pairs: Sequence[HeldOutPair]) -> str:
    if not pairs:
        return "held-out pairs of two boots: none (each boot needs three runs: two stay in the model)"
    shares = [pair.share for pair in pairs]
    worst = max(pairs, key=lambda pair: pair.share)
    mark = "" if worst.share <= FALSE_ALARM_GOAL else f"  (above the {FALSE_ALARM_GOAL:.0%} goal)"
    return (
        f"held-out pairs of two boots: {len(pairs)} pairs, each judged by the model of the other runs; "
        f"flagged (false alarms) median {statistics.median(shares):.1%}, most {worst.share:.1%} "
        f"({worst.flagged:,} of {worst.tested:,} cases, {worst.base} → {worst.new}){mark}"
    )


def report(coverages: Sequence[Coverage]) -> str:
    lines = [f"{'experiment':<11} {'covered':>9} {'share':>7}  models from  misses (largest first)"]
    for c in coverages:
        boots = "/".join(str(b) for b in sorted(c.boots_in_models)) + " boot(s)"
        worst = sorted(c.misses, key=lambda m: -abs(math.log(m.value / (m.low if m.value < m.low else m.high))))
        shown = "; ".join(f"{m.key} {m.value:.4g} outside {m.low:.4g}–{m.high:.4g}" for m in worst[:3])
        mark = "" if c.meets_goal else "  (below the 90 % goal)"
        picks = f" ({c.other_picks} of another pick not compared)" if c.other_picks else ""
        lines.append(
            f"{c.experiment:<11} {c.covered:>4}/{c.total:<4} {c.share:>6.1%}  {boots:<11}  {shown}{mark}{picks}"
        )
    total = sum(c.total for c in coverages)
    covered = sum(c.covered for c in coverages)
    lines.append(f"{'all':<11} {covered:>4}/{total:<4} {covered / total if total else math.nan:>6.1%}")
    return "\n".join(lines)

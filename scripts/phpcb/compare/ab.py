"""A code change measured A/B in one job (`make ab BASE=<ref>`): the base and the head checkouts' runners
took turns on one machine, round after round (base, head, then head, base, …), and each round's pair of
runs is compared. Duet benchmarking's point: what the machine does between two runs minutes apart is
the same for both sides of a round, so the effect of the change is estimated from the rounds' ratios,
and its uncertainty from how much they disagree, not from a noise model of other days.

Per experiment and case class (noise.py's classes), each round gives the class's shift head/base (the
median of its cases' log ratios); the class's effect is the mean of the rounds' shifts with Student's t
95 % CI over the rounds. Each case's effect beyond its class is the mean over rounds of its log ratio
minus the round's class shift, tested the same way; p-values are adjusted by Benjamini–Hochberg across
every case and class. A class or case is `faster` or `slower` only with an adjusted p < 0.05 and an
effect beyond the one threshold of a difference (comparison.THRESHOLD, thresholds.DIFFERENCE).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from phpcb.compare import comparison, noise
from phpcb.compare.comparison import Verdict
from phpcb.data.loader import Run
from phpcb.data.schema import Schemas
from phpcb.errors import BuildError
from phpcb.experiments.experiment import Experiment
from phpcb.statistics import stats
from phpcb.statistics.distributions import t_cdf, t_quantile

MIN_ROUNDS = 2


class AbError(BuildError):
    """Runs that cannot be read as rounds of an A/B job."""


@dataclass(frozen=True)
class Effect:
    """How many times slower the head ran than the base (below 1: faster), from R rounds."""

    label: str
    ratio: float
    low: float
    high: float
    rounds: int
    p_value: float
    p_adjusted: float = 1.0
    verdict: Verdict = Verdict.SAME

    @property
    def change(self) -> str:
        """'+12.3 %' (slower) or '-4.0 %' (faster): the effect as a change of time."""
        return f"{(self.ratio - 1) * 100:+.1f} %"


@dataclass(frozen=True)
class ExperimentEffects:
    name: str
    title: str
    classes: list[Effect]
    cases: list[Effect]  # each case beyond its class's shift

    @property
    def flagged(self) -> list[Effect]:
        return [effect for effect in [*self.classes, *self.cases] if effect.verdict.significant]


@dataclass(frozen=True)
class AbReport:
    base: str  # what the base runs measured: the git ref the job was given
    head: str
    rounds: list[tuple[str, str]]  # each round's (base run id, head run id)
    experiments: list[ExperimentEffects]

    @property
    def flagged(self) -> list[tuple[ExperimentEffects, Effect]]:
        return [(e, effect) for e in self.experiments for effect in e.flagged]


def effect(label: str, logs: np.ndarray) -> Effect:
    """The mean of per-round log ratios with its t CI and the two-sided p of 'no effect'."""
    rounds = int(logs.size)
    mean = float(np.mean(logs))
    sd = float(np.std(logs, ddof=1))
    if sd == 0:
        p = 1.0 if mean == 0 else 0.0
        return Effect(label, math.exp(mean), math.exp(mean), math.exp(mean), rounds, p)
    t = mean / (sd / math.sqrt(rounds))
    p = 2 * t_cdf(-abs(t), rounds - 1)
    margin = t_quantile(0.975, rounds - 1) * sd / math.sqrt(rounds)
    return Effect(label, math.exp(mean), math.exp(mean - margin), math.exp(mean + margin), rounds, p)


def _round_logs(
    base: Run, head: Run, experiment: Experiment, schemas: Schemas
) -> dict[tuple[comparison.KeyValue, ...], float]:
    """Each case's log(median head / median base) in one round: cases both runs timed."""
    old, new = comparison.samples(base, experiment, schemas), comparison.samples(head, experiment, schemas)
    logs = {}
    for key, values in old.items():
        other = new.get(key)
        if other is not None and values.size and other.size:
            a, b = float(np.median(values)), float(np.median(other))
            if a > 0 and b > 0:
                logs[key] = math.log(b / a)
    return logs


def experiment_effects(pairs: Sequence[tuple[Run, Run]], experiment: Experiment, schemas: Schemas) -> ExperimentEffects:
    per_round = [_round_logs(base, head, experiment, schemas) for base, head in pairs]
    keys = [key for key in per_round[0] if all(key in logs for logs in per_round)]
    groups = noise.group_cases(experiment, schemas, keys)
    classes = noise.class_of(groups)
    shifts = {
        label: np.array([float(np.median([logs[k] for k in noise.shift_basis(groups, label)])) for logs in per_round])
        for label in groups
    }
    class_effects = [effect(label, values) for label, values in shifts.items()]
    case_effects = [
        effect(
            noise.case_label(key),
            np.array([logs[key] - shifts[classes[key]][r] for r, logs in enumerate(per_round)]),
        )
        for key in keys
    ]
    return ExperimentEffects(experiment.name, experiment.title, class_effects, case_effects)


def case_totals(pairs: Sequence[tuple[Run, Run]], experiment: Experiment, schemas: Schemas) -> list[Effect]:
    """Each case's own effect head/base over the rounds, not against its class's shift: the mean of its
    per-round log ratios with Student's t CI (what a reader of one case asks: how much faster is it now).
    Their p-values are not adjusted yet (decide() adjusts a family)."""
    per_round = [_round_logs(base, head, experiment, schemas) for base, head in pairs]
    keys = [key for key in per_round[0] if all(key in logs for logs in per_round)] if per_round else []
    return [effect(noise.case_label(key), np.array([logs[key] for logs in per_round])) for key in keys]


def decide(family: Sequence[Sequence[Effect]]) -> list[list[Effect]]:
    """Each group of effects with its Benjamini–Hochberg-adjusted p (across the whole family) and verdict."""
    adjusted = iter(stats.benjamini_hochberg([e.p_value for group in family for e in group]).tolist())
    return [[_decided(found, next(adjusted)) for found in group] for group in family]


def _decided(effect: Effect, p_adjusted: float) -> Effect:
    return replace(effect, p_adjusted=p_adjusted, verdict=comparison.verdict(effect.ratio, p_adjusted))


def analyse(
    pairs: Sequence[tuple[Run, Run]],
    schemas: Schemas,
    experiments: Sequence[Experiment],
    base: str = "base",
    head: str = "head",
) -> AbReport:
    if len(pairs) < MIN_ROUNDS:
        raise AbError(f"expected at least {MIN_ROUNDS} rounds (a base and a head run each), got {len(pairs)}")
    shared = [e for e in experiments if all(b.has_results(e.name) and h.has_results(e.name) for b, h in pairs)]
    if not shared:
        raise AbError("no experiment has results in every base and head run")
    found = [experiment_effects(pairs, experiment, schemas) for experiment in shared]
    family = [effect.p_value for e in found for effect in [*e.classes, *e.cases]]
    adjusted = iter(stats.benjamini_hochberg(family).tolist() if family else [])
    decided = []
    for e in found:
        classes = [_decided(effect, next(adjusted)) for effect in e.classes]
        cases = [_decided(effect, next(adjusted)) for effect in e.cases]
        decided.append(replace(e, classes=classes, cases=cases))
    return AbReport(base, head, [(b.run_id, h.run_id) for b, h in pairs], decided)

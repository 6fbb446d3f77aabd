"""How far one run's numbers may sit from another run's of the same machine (the noise model's summary
for one experiment, run_spread below): what a page's intervals and ratios are widened by. Kept apart from
compare/noise.py, which estimates the model, so that the analyses and pages can read it without the estimator."""

from __future__ import annotations

import math
from dataclasses import dataclass

from phpcb.data.noise_model import NoiseModel
from phpcb.statistics.stats import Ratio

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class RunSpread:
    """How far one run's absolute times of an experiment may sit from another run's on the same
    machine: its classes' widest spread (shift and residual, log scale), or None where no repeated
    runs of the machine were measured."""

    log_sd: float | None
    runs: tuple[str, ...] = ()
    profile: str | None = None
    stand_in: bool = False  # the model is of another profile than the run's
    # Between runs, a ratio of two cases of one run moves by both cases' residuals (their classes'
    # shift is common to both): √2 times the residual SD of the experiment's typical class, log scale.
    ratio_log_sd: float | None = None

    @property
    def known(self) -> bool:
        return self.log_sd is not None

    def widen_ratio(self, ratio: Ratio) -> Ratio:
        """The ratio with a CI that also covers its 95 % range between runs of the machine: the within-run
        CI's spread and the between-run spread added in quadrature, on log scale."""
        if self.ratio_log_sd is None or not ratio.value > 0 or not math.isfinite(ratio.value):
            return ratio
        if not (ratio.low > 0 and math.isfinite(ratio.high)):
            return ratio
        center = math.log(ratio.value)
        below, above = center - math.log(ratio.low), math.log(ratio.high) - center
        spread = Z_95 * self.ratio_log_sd
        return Ratio(
            ratio.value, math.exp(center - math.hypot(below, spread)), math.exp(center + math.hypot(above, spread))
        )

    def widen(self, median: float, low: float, high: float) -> tuple[float, float]:
        """An interval that covers the within-run CI and the 95 % between-run range around the median."""
        if self.log_sd is None or not math.isfinite(median) or median <= 0:
            return low, high
        factor = math.exp(Z_95 * self.log_sd)
        return min(low, median / factor), max(high, median * factor)


UNKNOWN = RunSpread(None)


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

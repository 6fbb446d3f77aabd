"""How far one run's numbers may sit from another run's of the same machine (the noise model's summary
for one experiment, run_spread below): what a page's intervals and ratios are widened by. Kept apart from
compare/noise.py, which estimates the model, so that the analyses and pages can read it without the estimator."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from phpcb.data.noise_model import NoiseModel
from phpcb.statistics.stats import Ratio

Z_95 = 1.959963984540054
# What a run of another boot may add to a model that rests on one boot of its machine: an allowance, stated,
# not measured (log-scale SD of the whole run's shift: 5 %, so ±10 % at 95 %). Kalibera and Jones: a level of
# variation not yet repeated has no estimate; Laaber et al. found reruns on one cloud instance far tighter than
# across instances, and one identity's boots here are one instance type. The between-boot estimate replaces it
# from two boots on, and `make coverage` checks it against a left-out boot from three.
ONE_BOOT_ALLOWANCE_LOG_SD = 0.05
PHP_IN_RUN_ID = re.compile(r"-php(\d+\.\d+)(?:-|$)")  # a run id ends <machine>-php8.2[-<stack>]


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
    # The boots the model rests on: from two or more, the spread covers a run of another boot; from one,
    # it is the spread between runs of that boot only, and a page says so.
    boots: int = 1

    @property
    def one_boot(self) -> bool:
        return self.boots < 2

    @property
    def label(self) -> str:
        """Which spread the intervals carry, in words a page prints."""
        if not self.known:
            return "within this one run"
        # A model of another profile or PHP stands in for the run's own: the label names whose runs it is.
        runs = f"{len(self.runs)} {self.profile}-profile runs" if self.stand_in else f"{len(self.runs)} runs"
        versions = sorted({found.group(1) for run in self.runs if (found := PHP_IN_RUN_ID.search(run))})
        if versions:
            runs += " of PHP " + " and ".join(versions)
        if self.one_boot:
            allowance = f"±{math.expm1(Z_95 * ONE_BOOT_ALLOWANCE_LOG_SD):.0%}"
            # The allowance is for a boot's common shift, which cancels in a ratio of two cases of one run.
            return (
                f"across runs of this machine on one boot ({runs}), times widened by a stated allowance of "
                f"{allowance} for another boot, not yet measured; ratios of two cases by their spread within "
                "the boot (a shift common to the boot cancels in them)"
            )
        return f"across runs and boots of this machine ({runs} from {self.boots} boots)"

    @property
    def known(self) -> bool:
        return self.log_sd is not None

    @property
    def widens_ratios(self) -> bool:
        """Whether widen_ratio changes a ratio: without a spread of ratios it returns each as it is."""
        return self.ratio_log_sd is not None

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


def run_spread(model: NoiseModel | None, machine: str, profile: str, stack: str, experiment: str) -> RunSpread:
    """The spread of the experiment's times in a run of the machine, profile and stack: from the model of
    that stack's runs only (UNKNOWN where there is none)."""
    if model is None or model.machine != machine:
        return UNKNOWN
    found = model.for_run(profile, stack)
    if found is None:
        return UNKNOWN
    section, stand_in = found
    # From two boots or more, the spread a run of another boot may move by; from one, that boot's.
    across = not section.one_boot
    log_sd = section.experiment_run_log_sd(experiment, across_boots=across)
    residual = section.experiment_residual_log_sd(experiment, across_boots=across)
    if log_sd is None or residual is None:
        return UNKNOWN
    if not across:
        log_sd = math.hypot(log_sd, ONE_BOOT_ALLOWANCE_LOG_SD)
    return RunSpread(log_sd, section.runs, section.profile, stand_in, math.sqrt(2) * residual, section.boot_count)

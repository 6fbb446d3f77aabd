"""Load is a confounder, not noise (issue 35): a run measured while other processes kept the machine busy
differs from a quiet run of the same machine in a way no noise model of quiet runs describes (two quick
runs taken with both cores busy flagged 30.5 % of their cases against quiet runs). Each run records what
else used the CPUs: around every experiment (the manifest's per-experiment `system`) and in the two
seconds before it started (`system.at_start`, schema 8). A comparison reads both runs' records first,
names a loaded run at its top, and withholds the per-case verdicts of the experiments it measured loaded.
"""

from __future__ import annotations

from dataclasses import dataclass

from phpcb.data.loader import Run
from phpcb.data.sampling import Load
from phpcb.presentation.formatting import percent
from phpcb.presentation.precision import OTHERS_WARNING

# Other processes' share of all cores' time from which a run is loaded: the share at which pages already
# say a run may be unstable (presentation/precision.py) and the runner warns as it starts.
LOADED_SHARE = OTHERS_WARNING


@dataclass(frozen=True)
class LoadedExperiment:
    """One experiment of one run, measured while the machine was busy."""

    run_id: str
    experiment: str
    others_share: float  # other processes' share of all cores' time while it measured (or before the run)
    before_the_run: bool  # the share is the one read before the run started (no record around the experiment)

    @property
    def sentence(self) -> str:
        when = (
            "in the seconds before the run started" if self.before_the_run else f"while it measured {self.experiment}"
        )
        return f"{self.run_id}: other processes used {percent(self.others_share)} of all cores' time {when}"


def loaded(run: Run, experiment: str) -> LoadedExperiment | None:
    """Whether `run` measured `experiment` on a busy machine: by the record around the experiment, else by
    the reading before the run (a run written before schema 5 recorded neither: not called loaded)."""
    entry = run.experiment(experiment) or {}
    around = Load.of(entry.get("system"))
    if around is not None and around.others_share is not None:
        if around.others_share >= LOADED_SHARE:
            return LoadedExperiment(run.run_id, experiment, around.others_share, before_the_run=False)
        return None
    system = run.manifest.get("system") or {}
    at_start = system.get("at_start") if isinstance(system, dict) else None
    share = at_start.get("others_share") if isinstance(at_start, dict) else None
    if isinstance(share, int | float) and share >= LOADED_SHARE:
        return LoadedExperiment(run.run_id, experiment, float(share), before_the_run=True)
    return None

"""Experiment `pitfalls`: where PHP loses time, one measured A/B per pitfall, each with its fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.experiments.experiment import Experiment, Inputs
from phpcb.experiments.pitfalls import analysis, figures, page
from phpcb.experiments.pitfalls.policy import PitfallEntry, load_pitfalls_policy


class Pitfalls(Experiment):
    name = "pitfalls"
    title = "Where PHP loses time"
    question = "Which everyday PHP calls cost more than the cryptography, and the fix for each"
    order = 60
    reference_required = None
    figures_module = figures
    page_module = page

    def load_policy(self, path: Path) -> dict[str, PitfallEntry]:
        return load_pitfalls_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.PitfallsAnalysis:
        return analysis.analyse(run, inputs.policy)

    def page_context(self, result: analysis.PitfallsAnalysis, inputs: Inputs) -> dict[str, Any]:
        quoted = [entry for entry in inputs.policy.values() if entry.measured_on is not None]
        return {"verdict": page.verdict, "offers_fix": page.offers_fix, "quoted": quoted}


EXPERIMENT = Pitfalls()

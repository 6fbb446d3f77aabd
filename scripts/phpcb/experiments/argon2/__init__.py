"""Experiment `argon2`: Argon2 cost over memory × threads × time cost (seed 003, part 2)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.policy import Argon2Policy, load_argon2_policy
from phpcb.experiments.argon2 import alternatives, analysis, figures, measures, native, page
from phpcb.experiments.argon2.picks import timing
from phpcb.experiments.experiment import Experiment, Inputs


class Argon2(Experiment):
    name = "argon2"
    title = "Argon2"
    question = "Argon2 parameters for a latency budget"
    order = 50
    shift_columns = ("interface",)
    figures_module = figures
    page_module = page
    measures_module = measures

    def load_policy(self, path: Path) -> Argon2Policy:
        return load_argon2_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.Argon2Analysis:
        named = frozenset((p.memory_mib, p.threads, p.time_cost) for p in inputs.policy.parameter_sets)
        return analysis.analyse(run, named)

    def figures(self, result: analysis.Argon2Analysis, inputs: Inputs) -> dict[str, dict[str, Any]]:
        """The charts, the heatmap opening on the answer's pick with its budget drawn (page.finding's):
        the pick made as the page makes it, with the spread the page context gave the analysis
        (result.spread; the inputs a figure is made with carry none), and the line around the cells
        that fit the budget by the same rule (picks.py)."""
        choices = analysis.budget_choices(result, inputs.policy.recommended_variants, result.spread)
        choice = next((b for b in choices if b.budget_ms == page.FINDING_BUDGET_MS), None)
        if choice is None:
            return figures.all_figures(result, None)
        fits = frozenset(
            c.key for c in result.cells if c.wall is not None and timing(c.wall, result.spread).within(choice.budget_ms)
        )
        return figures.all_figures(result, figures.Answer(choice.budget_ms, choice.option, fits))

    def page_context(self, result: analysis.Argon2Analysis, inputs: Inputs) -> dict[str, Any]:
        """The page's context; its analysis (replacing the one it was given) carries the spread the
        picks are judged with, for the figures made from it."""
        result = dataclasses.replace(result, spread=inputs.spread)
        return (
            {"analysis": result}
            | page.context(result, inputs.reference, inputs.policy, inputs.spread)
            | {"vs_cli": native.analyse(result.run)}
            | alternatives.context(result, inputs.policy, inputs.spread)
        )


EXPERIMENT = Argon2()

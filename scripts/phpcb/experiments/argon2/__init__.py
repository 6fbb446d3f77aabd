"""Experiment `argon2`: Argon2 cost over memory × threads × time cost (seed 003, part 2)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from markupsafe import Markup

from phpcb.data.loader import Run
from phpcb.data.policy import Argon2Policy, load_argon2_policy
from phpcb.experiments.argon2 import analysis, figures, measures, native, page
from phpcb.experiments.experiment import Experiment, Figures, Finding, Inputs
from phpcb.presentation.advice import Advice
from phpcb.presentation.claim_rules import Measure
from phpcb.presentation.headlines import Headline


class Argon2(Experiment):
    name = "argon2"
    title = "Argon2"
    question = "Argon2 parameters for a latency budget"
    order = 50
    tables = ("argon2.csv", "argon2_rounds.csv")
    shift_columns = ("interface",)

    def load_policy(self, path: Path) -> Argon2Policy:
        return load_argon2_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.Argon2Analysis:
        named = frozenset((p.memory_mib, p.threads, p.time_cost) for p in inputs.policy.parameter_sets)
        return analysis.analyse(run, named)

    def figures(self, result: analysis.Argon2Analysis, inputs: Inputs) -> Figures:
        return figures.all_figures(result)

    def page_context(self, result: analysis.Argon2Analysis, inputs: Inputs) -> dict[str, Any]:
        return page.context(result, inputs.reference, inputs.policy, inputs.spread) | {
            "vs_cli": native.analyse(result.run)
        }

    def finding(self, context: dict[str, Any]) -> Finding | None:
        return page.finding(context)

    def advice(self, context: dict[str, Any]) -> list[Advice]:
        return page.advice(context)

    def headlines(self, context: dict[str, Any]) -> list[Headline]:
        return page.headlines(context)

    def notes(self, context: dict[str, Any]) -> dict[str, list[Markup]]:
        return page.notes(context)

    def measures(self) -> Mapping[str, Measure]:
        return measures.MEASURES


EXPERIMENT = Argon2()

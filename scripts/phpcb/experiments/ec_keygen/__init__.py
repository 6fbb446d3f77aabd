"""Experiment `ec_keygen`: key generation per curve, RSA and Curve25519 at equal security (seed 003, part 1)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.policy import KeySchemePolicy, load_key_scheme_policy
from phpcb.experiments.ec_keygen import analysis, figures, measures, native, page
from phpcb.experiments.experiment import Experiment, Figures, Finding, Inputs
from phpcb.presentation.advice import Advice
from phpcb.presentation.claim_rules import Measure
from phpcb.presentation.headlines import Headline
from phpcb.statistics.rounds import native_tool


class EcKeygen(Experiment):
    name = "ec_keygen"
    title = "Elliptic curves"
    question = "Which elliptic curve, and what key generation costs at equal security"
    order = 30
    tables = ("ec_keygen.csv", "ec_curves.csv", "ec_keygen_rounds.csv", "ec_keygen_native.csv")
    shift_columns = ("interface", "operation")

    def load_policy(self, path: Path) -> KeySchemePolicy:
        return load_key_scheme_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.EcAnalysis:
        return analysis.analyse(run, inputs.policy, inputs.reference)

    def figures(self, result: analysis.EcAnalysis, inputs: Inputs) -> Figures:
        return figures.all_figures(result)

    def page_context(self, result: analysis.EcAnalysis, inputs: Inputs) -> dict[str, Any]:
        return page.context(result, inputs.reference) | {
            "horizon": inputs.policy.horizon,
            "vs_native": native.breakdowns(result.run),
            "native_tool": native_tool(result.run.tables.get(native.NATIVE_CSV, [])),
        }

    def finding(self, context: dict[str, Any]) -> Finding | None:
        return page.finding(context)

    def advice(self, context: dict[str, Any]) -> list[Advice]:
        return page.advice(context)

    def headlines(self, context: dict[str, Any]) -> list[Headline]:
        return page.headlines(context)

    def measures(self) -> Mapping[str, Measure]:
        return measures.MEASURES


EXPERIMENT = EcKeygen()

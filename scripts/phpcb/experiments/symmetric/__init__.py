"""Experiment `symmetric`: mcrypt vs OpenSSL, Blowfish, and every cipher OpenSSL offers (seeds 000, 001)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.policy import SymmetricPolicy, load_symmetric_policy
from phpcb.experiments.experiment import Experiment, Figures, Finding, Inputs
from phpcb.experiments.symmetric import analysis, figures, measures, native, page
from phpcb.presentation.advice import Advice
from phpcb.presentation.claim_rules import Measure
from phpcb.presentation.headlines import Headline
from phpcb.statistics.rounds import native_tool


class Symmetric(Experiment):
    name = "symmetric"
    title = "mcrypt vs OpenSSL"
    question = "mcrypt vs OpenSSL, and every cipher OpenSSL offers"
    order = 20
    tables = ("symmetric.csv", "cipher_inventory.csv", "symmetric_rounds.csv", "symmetric_native.csv")
    shift_columns = ("suite", "payload_bytes")
    reference_required = ("sources",)

    def load_policy(self, path: Path) -> SymmetricPolicy:
        return load_symmetric_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.SymmetricAnalysis:
        return analysis.analyse(run, inputs.policy)

    def figures(self, result: analysis.SymmetricAnalysis, inputs: Inputs) -> Figures:
        return figures.all_figures(result)

    def page_context(self, result: analysis.SymmetricAnalysis, inputs: Inputs) -> dict[str, Any]:
        return page.context(result, inputs.reference, inputs.policy) | {
            "vs_native": native.breakdowns(result.run, result.cases),
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


EXPERIMENT = Symmetric()

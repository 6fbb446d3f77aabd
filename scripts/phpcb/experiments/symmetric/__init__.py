"""Experiment `symmetric`: mcrypt vs OpenSSL, Blowfish, and every cipher OpenSSL offers (seeds 000, 001)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.policy import SymmetricPolicy, load_symmetric_policy
from phpcb.experiments.experiment import Experiment, Inputs, Offered
from phpcb.experiments.symmetric import analysis, figures, measures, native, page
from phpcb.statistics.rounds import native_tool


class Symmetric(Experiment):
    name = "symmetric"
    title = "mcrypt vs OpenSSL"
    question = "mcrypt vs OpenSSL, and every cipher OpenSSL offers"
    order = 20
    shift_columns = ("suite", "payload_bytes")
    offered = Offered("cipher_inventory.csv", "cipher", "Ciphers PHP's OpenSSL offers")
    words = analysis.STATUS_WORDS
    reference_required = ("sources",)
    figures_module = figures
    page_module = page
    measures_module = measures

    def load_policy(self, path: Path) -> SymmetricPolicy:
        return load_symmetric_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.SymmetricAnalysis:
        return analysis.analyse(run, inputs.policy)

    def page_context(self, result: analysis.SymmetricAnalysis, inputs: Inputs) -> dict[str, Any]:
        return page.context(result, inputs.reference, inputs.policy) | {
            "vs_native": native.breakdowns(result.run, result.cases),
            "native_tool": native_tool(result.run.tables.get(native.NATIVE_CSV, [])),
        }


EXPERIMENT = Symmetric()

"""Experiment `ec_keygen`: key generation per curve, RSA and Curve25519 at equal security (seed 003, part 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.policy import KeySchemePolicy, load_key_scheme_policy
from phpcb.experiments.ec_keygen import analysis, figures, measures, native, page
from phpcb.experiments.experiment import Experiment, Inputs, Offered
from phpcb.statistics.rounds import native_tool


class EcKeygen(Experiment):
    name = "ec_keygen"
    title = "Elliptic curves"
    question = "Which elliptic curve, and what key generation costs at equal security"
    order = 30
    shift_columns = ("interface", "operation")
    offered = Offered("ec_curves.csv", "curve", "Curves PHP's OpenSSL offers")
    figures_module = figures
    page_module = page
    measures_module = measures

    def load_policy(self, path: Path) -> KeySchemePolicy:
        return load_key_scheme_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.EcAnalysis:
        return analysis.analyse(run, inputs.policy, inputs.reference)

    def page_context(self, result: analysis.EcAnalysis, inputs: Inputs) -> dict[str, Any]:
        return page.context(result, inputs.reference) | {
            "horizon": inputs.policy.horizon,
            "vs_native": native.breakdowns(result.run),
            "native_tool": native_tool(result.run.tables.get(native.NATIVE_CSV, [])),
        }


EXPERIMENT = EcKeygen()

"""Experiment `aead`: AES-GCM vs AES-CCM and the other AEADs PHP offers (seed 002)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.policy import AeadPolicy, load_aead_policy
from phpcb.experiments.aead import analysis, figures, measures, page
from phpcb.experiments.experiment import Experiment, Inputs


class Aead(Experiment):
    name = "aead"
    title = "AEAD (GCM vs CCM)"
    question = "AES-GCM vs AES-CCM, and which AEAD to use"
    order = 10
    shift_columns = ("operation", "payload_bytes")
    figures_module = figures
    page_module = page
    measures_module = measures

    def load_policy(self, path: Path) -> AeadPolicy:
        return load_aead_policy(path)

    def static_context(self, inputs: Inputs) -> dict[str, Any]:
        return {"then": inputs.reference.figure("gcm_vs_ccm_speedup")}

    def analyse(self, run: Run, inputs: Inputs) -> analysis.AeadAnalysis:
        return analysis.analyse(run, inputs.policy)

    def page_context(self, result: analysis.AeadAnalysis, inputs: Inputs) -> dict[str, Any]:
        return {
            "gcm_span": page.gcm_span(result),
            "gcm_faster": page.gcm_faster(result),
            "ccm_faster": page.ccm_faster(result),
            "pair_span": page.pair_span(result),
            "pair_names": page.pair_names(),
        }


EXPERIMENT = Aead()

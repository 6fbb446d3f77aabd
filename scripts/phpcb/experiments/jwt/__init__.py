"""Experiment `jwt`: token size, sign/verify and key generation per JWS algorithm (seed 004)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.policy import JwtPolicy, load_jwt_policy
from phpcb.experiments.experiment import Experiment, Figures, Inputs
from phpcb.experiments.jwt import analysis, figures, measures, page


class Jwt(Experiment):
    name = "jwt"
    title = "JWT"
    question = "JWT token size, and sign/verify time per algorithm"
    order = 40
    shift_columns = ("operation", "payload_chars")
    quotes = ("ec_keygen",)  # key generation, where the run's curves experiment timed it (analysis.py)
    page_module = page
    measures_module = measures

    def load_policy(self, path: Path) -> JwtPolicy:
        return load_jwt_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.JwtAnalysis:
        return analysis.analyse(run, inputs.policy)

    def figures(self, result: analysis.JwtAnalysis, inputs: Inputs) -> Figures:
        return figures.all_figures(result, inputs.policy.limit_bytes)

    def page_context(self, result: analysis.JwtAnalysis, inputs: Inputs) -> dict[str, Any]:
        return page.context(result, inputs.reference, inputs.policy)


EXPERIMENT = Jwt()

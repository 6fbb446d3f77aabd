"""Experiment `jwt`: token size, sign/verify and key generation per JWS algorithm (seed 004)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.policy import JwtPolicy, load_jwt_policy
from phpcb.experiments.experiment import Experiment, Figures, Finding, Inputs
from phpcb.experiments.jwt import analysis, figures, measures, page
from phpcb.presentation.advice import Advice
from phpcb.presentation.claim_rules import Measure
from phpcb.presentation.headlines import Headline


class Jwt(Experiment):
    name = "jwt"
    title = "JWT"
    question = "JWT token size, and sign/verify time per algorithm"
    order = 40
    tables = ("jwt.csv", "jwt_tokens.csv", "jwt_keys.csv", "jwt_layers.csv", "jwt_native.csv")
    shift_columns = ("operation", "payload_chars")

    def load_policy(self, path: Path) -> JwtPolicy:
        return load_jwt_policy(path)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.JwtAnalysis:
        return analysis.analyse(run, inputs.policy)

    def figures(self, result: analysis.JwtAnalysis, inputs: Inputs) -> Figures:
        return figures.all_figures(result, inputs.policy.limit_bytes)

    def page_context(self, result: analysis.JwtAnalysis, inputs: Inputs) -> dict[str, Any]:
        return page.context(result, inputs.reference, inputs.policy)

    def finding(self, context: dict[str, Any]) -> Finding | None:
        return page.finding(context)

    def advice(self, context: dict[str, Any]) -> list[Advice]:
        return page.advice(context)

    def headlines(self, context: dict[str, Any]) -> list[Headline]:
        return page.headlines(context)

    def measures(self) -> Mapping[str, Measure]:
        return measures.MEASURES


EXPERIMENT = Jwt()

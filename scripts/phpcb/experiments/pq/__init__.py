"""Experiment `pq`: post-quantum signatures from PHP. ML-DSA-44/65/87 (FIPS 204) through openssl_sign() and
openssl_verify() on a stack whose OpenSSL has them (3.5 and later), beside Ed25519, P-256, P-384 and
RSA-2048/3072; the sizes a PHP developer meets against a cookie's and a header's limits; PHP against
`openssl speed`, and ML-KEM natively; what PHP cannot do yet, as the runner observed it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from phpcb.data.loader import Run
from phpcb.experiments.experiment import Experiment, Figures, Inputs
from phpcb.experiments.pq import analysis, figures, page
from phpcb.experiments.pq.policy import PqPolicy, load_pq_policy


class Pq(Experiment):
    name = "pq"
    title = "Post-quantum signatures"
    question = "What ML-DSA signatures cost from PHP today, in time and in bytes, and what PHP cannot do yet"
    order = 45
    reference_required = None
    shift_columns = ("operation", "payload_chars")
    page_module = page

    def load_policy(self, path: Path) -> PqPolicy:
        return load_pq_policy(path)

    def static_context(self, inputs: Inputs) -> dict[str, Any]:
        return page.static_context(inputs.policy)

    def analyse(self, run: Run, inputs: Inputs) -> analysis.PqAnalysis:
        return analysis.analyse(run, inputs.policy)

    def figures(self, result: analysis.PqAnalysis, inputs: Inputs) -> Figures:
        return figures.all_figures(result)

    def page_context(self, result: analysis.PqAnalysis, inputs: Inputs) -> dict[str, Any]:
        return page.context(result, inputs.policy)


EXPERIMENT = Pq()

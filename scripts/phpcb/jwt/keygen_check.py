"""Key generation measured twice: the JWT experiment times it per algorithm, the ec_keygen
experiment per curve and key size. Where a run has both, the JWT page sets them side by side, each
with its CI, and says whether they agree, so that one operation never shows two unexplained numbers."""

from __future__ import annotations

from dataclasses import dataclass

from ..ec_keygen.analysis import Operation, scheme_results
from ..loader import Run
from ..policy import KeySchemePolicy
from ..stats import Ratio, ratio_of_medians
from .analysis import JwtAnalysis, JwtCase


@dataclass(frozen=True)
class KeygenTwice:
    alg: str
    scheme: str
    jwt: JwtCase
    curves_page: Operation
    # The JWT experiment's time over the curves page's: above 1, the JWT figure is the slower one.
    ratio: Ratio


def keygen_twice(analysis: JwtAnalysis, run: Run, keys: KeySchemePolicy) -> list[KeygenTwice]:
    """For each algorithm whose key type the same run also timed on the curves page."""
    rows = run.tables.get("ec_keygen.csv", [])
    if not rows:
        return []
    by_scheme = {result.scheme.curve: result for result in scheme_results(rows, keys)}
    found = []
    for algorithm in analysis.algorithms:
        other = by_scheme.get(algorithm.key_scheme or "")
        if algorithm.keygen is None or other is None or "keygen" not in other.operations:
            continue
        elsewhere = other.operations["keygen"]
        found.append(
            KeygenTwice(
                alg=algorithm.alg,
                scheme=other.scheme.curve,
                jwt=algorithm.keygen,
                curves_page=elsewhere,
                ratio=ratio_of_medians(algorithm.keygen.per_op_ns, elsewhere.per_op_ns),
            )
        )
    return found

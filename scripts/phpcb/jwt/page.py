"""What the jwt page needs beyond the analysis: the seed's table set against this run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .analysis import AlgorithmResult, JwtAnalysis


@dataclass(frozen=True)
class ThenNow:
    alg: str
    payload_chars: int
    then_bytes: int
    then_sign_ms: float
    then_verify_ms: float
    now: AlgorithmResult | None

    def now_ms(self, operation: str) -> float | None:
        case = self.now.case(operation, self.payload_chars) if self.now else None
        return case.summary.median_ns / 1e6 if case else None


def _sign_ns(analysis: JwtAnalysis, alg: str, payload: int) -> float | None:
    found = analysis.find(alg)
    case = found.case("sign", payload) if found else None
    return case.summary.median_ns if case else None


def context(analysis: JwtAnalysis, reference: dict[str, Any], headline: int) -> dict[str, Any]:
    rows = next(entry["rows"] for entry in reference["figures"] if entry["id"] == "token_size_and_time")
    claims = {claim["id"]: claim for claim in reference["claims"]}
    limits = reference["limits"]
    return {
        "claim": claims.__getitem__,
        "limits": limits,
        "then_now": [
            ThenNow(
                alg=str(row["alg"]),
                payload_chars=int(row["payload_chars"]),
                then_bytes=int(row["token_bytes"]),
                then_sign_ms=float(row["sign_ms"]),
                then_verify_ms=float(row["verify_ms"]),
                now=analysis.find(str(row["alg"])),
            )
            for row in rows
        ],
        "es384_slower_than_es512": (_sign_ns(analysis, "ES384", headline) or 0)
        > (_sign_ns(analysis, "ES512", headline) or 0)
        > 0,
        "largest_at_headline": max(
            ((a.alg, a.token_bytes(headline) or 0) for a in analysis.algorithms),
            key=lambda item: item[1],
            default=("–", 0),
        ),
        "over_cookie": [
            (a.alg, p, a.token_bytes(p))
            for a in analysis.algorithms
            for p in analysis.payloads
            if (a.token_bytes(p) or 0) > limits["cookie_bytes"]
        ],
    }

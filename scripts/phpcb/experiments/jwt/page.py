"""What the jwt page needs beyond the analysis: the seed's table set against this run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from phpcb.data.loader import Run
from phpcb.data.policy import JwtPolicy
from phpcb.data.reference import ReferenceData
from phpcb.experiments.experiment import Finding
from phpcb.experiments.jwt.analysis import (
    AlgorithmResult,
    Choice,
    JwtAnalysis,
    JwtCase,
    headline_payload,
    margin_pair,
)
from phpcb.experiments.jwt.layers import GOAL_NS, GOAL_RATIO, goal_tally
from phpcb.presentation.advice import Advice
from phpcb.presentation.answer import Evidence, time_with_ci
from phpcb.presentation.headlines import TIMES_FASTER, Headline
from phpcb.presentation.render import markdown_text
from phpcb.presentation.wording import margin
from phpcb.statistics.contest import TIE_WORDS


@dataclass(frozen=True)
class ThenNow:
    alg: str
    payload_chars: int
    then_bytes: int
    then_sign_ms: float
    then_verify_ms: float
    now: AlgorithmResult | None

    def now_case(self, operation: str) -> JwtCase | None:
        return self.now.case(operation, self.payload_chars) if self.now else None


def _sign_ns(analysis: JwtAnalysis, alg: str, payload: int) -> float | None:
    found = analysis.find(alg)
    case = found.case("sign", payload) if found else None
    return case.summary.median_ns if case else None


def _verification(run: Run) -> dict[str, Any]:
    """What the jwt experiment checked and how its code ran (manifest: experiments.jwt.verification)."""
    return run.manifest.get("experiments", {}).get("jwt", {}).get("verification") or {}


def pss_by_openssl(run: Run) -> bool:
    """Whether the run's PS signatures were padded by OpenSSL (the key's RSASSA-PSS form); older runs
    encoded PSS in PHP and record nothing."""
    return _verification(run).get("pss_padding") == "openssl"


def header_cache(run: Run) -> int | None:
    """How many decoded headers the run's CompactJws kept (a token's header text seen before is not
    decoded again; the schema makes it a positive integer); None for older runs, which decoded every header."""
    return _verification(run).get("header_cache")


# RFC 9864 (2025) names Ed25519 signatures "Ed25519", fully specified, and deprecates the polymorphic
# "EdDSA" this run's tokens carry: advice names an algorithm as a reader should send it.
SPECIFIED = {"EdDSA": "Ed25519"}


def specified(alg: str) -> str:
    return SPECIFIED.get(alg, alg)


def context(analysis: JwtAnalysis, reference: ReferenceData, policy: JwtPolicy) -> dict[str, Any]:
    rows = reference.rows("token_size_and_time")
    limits = policy.limit_bytes
    headline = headline_payload(analysis.payloads)
    return {
        "verifier_checks": policy.verifier_checks,
        "specified": specified,
        "named": _named,
        "horizon": policy.keys.horizon,
        "headline_payload": headline,
        "keygen_quoted": any(a.keygen is not None and a.keygen.measured_by == "ec_keygen" for a in analysis.algorithms),
        "limits": limits,
        "limit_sources": policy.limits,
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
        "pss_by_openssl": pss_by_openssl(analysis.run),
        "header_cache": header_cache(analysis.run),
        "layer_goal": goal_tally(analysis.layers),
        "layer_goal_percent": round((GOAL_RATIO - 1) * 100),
        "layer_goal_ns": GOAL_NS,
        "layer_rounds": max((x.rounds for x in analysis.layers), default=0),
        "over_cookie": [
            (a.alg, p, a.token_bytes(p))
            for a in analysis.algorithms
            for p in analysis.payloads
            if (a.token_bytes(p) or 0) > limits["cookie_bytes"]
        ],
    }


# How the answer names each operation a choice is made for.
VERBS = {"verify": "to verify", "sign": "to sign", "keygen": "to make keys"}


def _listed(items: list[str]) -> str:
    """'a, b and c'."""
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)


def _named(choice: Choice, best: AlgorithmResult) -> str:
    """The choice, or the algorithms no measurement tells apart, as RFC 9864 names them."""
    if choice.contest is not None and not choice.contest.decided:
        names = [specified(name) for name in choice.contest.tied]
        return f"{', '.join(names[:-1])} or {names[-1]} ({TIE_WORDS})"
    return specified(best.alg)


def finding(context: dict[str, Any]) -> Finding | None:
    """The fastest recommended asymmetric algorithm per operation; the number is verification's, what an
    API gateway pays on every request."""
    analysis: JwtAnalysis = context["analysis"]
    made = [(c, c.best) for c in analysis.choices if c.best is not None]
    verify = next(((c, best) for c, best in made if c.operation == "verify"), None)
    case = verify[1].case("verify", context["headline_payload"]) if verify is not None else None
    if verify is None or case is None:
        return None
    # Operations by the algorithm they choose, in the page's order: one sentence names each choice once.
    chosen: dict[str, list[str]] = {}
    for c, best in made:
        chosen.setdefault(_named(c, best), []).append(VERBS.get(c.operation, c.operation))
    if len(chosen) == 1:
        ((name, verbs),) = chosen.items()
        recommendation = Markup("Use **{}**: the fastest recommended asymmetric algorithm {}.").format(
            markdown_text(name), _listed(verbs)
        )
        renamed = [old for old, new in SPECIFIED.items() if new == name]
        if renamed:
            recommendation += Markup(
                " Its JWS `alg` is `{}` (RFC 9864); `{}`, the name this run's tokens carry, only for verifiers that"
                " predate it."
            ).format(markdown_text(name), markdown_text(renamed[0]))
    else:
        recommendation = Markup("The fastest recommended asymmetric algorithm {}.").format(
            Markup("; ").join(
                Markup("{}: **{}**").format(_listed(verbs), markdown_text(name)) for name, verbs in chosen.items()
            )
        )
    choice, best = verify
    number = Markup("{} verifies a token of {} characters in {}").format(
        markdown_text(specified(best.alg)), context["headline_payload"], time_with_ci(context, case.summary)
    )
    # The picks, the time and the margin printed: each states on how many machines it holds.
    printed = (*(_pick_key(c.operation) for c, _ in made), _verify_key(best.alg))
    if choice.runner_up is not None and choice.ratio is not None:
        number += Markup(", {}").format(markdown_text(margin(specified(choice.runner_up.alg), choice.ratio)))
        stated = margin_pair(choice)
        printed += (_margin_key(*stated),) if stated is not None else ()
    evidence = (
        Evidence("every algorithm", "every-algorithm"),
        Evidence("what a verifier must also check", "recommendation"),
        Evidence("security notes", "security-notes"),
    )
    return Finding("JWT", recommendation, number + Markup("."), evidence, headlines=printed)


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis: JwtAnalysis = context["analysis"]
    statements = [
        Advice.of_contest(
            "jwt",
            f"jwt.choice.{c.operation}.{c.purpose}",
            f"Fastest recommended algorithm to {c.operation}, for {c.purpose}",
            c.contest,
        )
        for c in analysis.choices
    ]
    for a in analysis.algorithms:
        statements.append(Advice("jwt", f"jwt.verdict.{a.alg}", f"Verdict on {a.alg}", a.verdict.status))
    return statements


MACHINE_HEADLINES = ("ES256", "RS256", "EdDSA")


def _verify_key(alg: str) -> str:
    return f"jwt.verify.{alg}"


def _margin_key(first: str, second: str) -> str:
    return f"jwt.verify.{first}.over.{second}"


def _pick_key(operation: str) -> str:
    return f"jwt.pick.{operation}"


def headlines(context: dict[str, Any]) -> list[Headline]:
    """Verification of the algorithms every machine is compared on and of the answer's pick, and the
    answer's picks (each with the time of its operation, at the headline payload)."""
    analysis: JwtAnalysis = context["analysis"]
    payload = context["headline_payload"]
    found = []
    picked = [c.best.alg for c in analysis.choices if c.operation == "verify" and c.best is not None]
    for alg in (*MACHINE_HEADLINES, *(a for a in picked if a not in MACHINE_HEADLINES)):
        result = analysis.find(alg)
        case = result.case("verify", payload) if result is not None else None
        if case is not None:
            question = f"{specified(alg)} verification, {payload}-character payload"
            found.append(Headline.of_time(_verify_key(alg), question, case.summary))
    for (first, second), ratio in analysis.verify_margins.items():
        question = f"{specified(first)} over {specified(second)} verification, {payload}-character payload"
        found.append(Headline.of_ratio(_margin_key(first, second), f"{question} {TIMES_FASTER}", ratio))
    for c in analysis.choices:
        timed = c.best.case(c.operation, 0 if c.operation == "keygen" else payload) if c.best is not None else None
        if c.best is not None and timed is not None:
            question = f"Fastest recommended asymmetric algorithm {VERBS.get(c.operation, c.operation)}"
            found.append(Headline.of_time(_pick_key(c.operation), question, timed.summary, _named(c, c.best)))
    return found

"""What the pq page says beyond the analysis: its answer (the finding the page opens with and the home page
shows), what PHP cannot do yet as the run observed it, its advice and its headlines."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from phpcb.experiments.experiment import Finding
from phpcb.experiments.pq.analysis import Algorithm, PqAnalysis, Versus
from phpcb.experiments.pq.policy import Limitation, PqPolicy
from phpcb.presentation.advice import Advice
from phpcb.presentation.answer import Evidence, time_with_ci
from phpcb.presentation.headlines import TIMES_FASTER, Headline
from phpcb.presentation.render import markdown_text
from phpcb.presentation.wording import margin

# The parameter set the answer speaks of: category 3, the middle of FIPS 204's three, whose token is the
# one the issue asks about against a cookie.
FOCUS = "ML-DSA-65"
# Where no classical algorithm of the same strength was measured, `comparison` falls back on this one.
BASELINE = "Ed25519"
# The classical keys a reader sets ML-DSA beside, by the JWS algorithm the answer names them by: P-256's
# ES256 (Recommended+ in RFC 7518's table of JWS algorithms) and Ed25519, the JWT page's pick. The answer
# and its headlines compare with these, whatever ML-DSA's strength; the page's table sets it beside every
# key, those of its strength in bold.
READER_BASELINES = {"P-256": "ES256", "Ed25519": "Ed25519"}


@dataclass(frozen=True)
class Observed:
    """A line of what PHP cannot do yet, with what the run saw: `holds` is None where the run did not check it."""

    limitation: Limitation
    holds: bool | None
    value: Any

    @property
    def shown(self) -> str:
        """The observed value as the runner recorded it (JSON)."""
        return json.dumps(self.value)


def focus(analysis: PqAnalysis) -> Algorithm | None:
    """ML-DSA-65 where the run has it, else its first ML-DSA parameter set."""
    return analysis.find(FOCUS) or next(iter(analysis.post_quantum), None)


def comparison(analysis: PqAnalysis, subject: str, operation: str) -> Versus | None:
    """The subject against the first classical algorithm of its strength in the run's order (Ed25519 before
    P-256 and RSA-3072 at 128 bits), or against Ed25519 when none has its strength (ML-DSA-87's 256 bits)."""
    found = analysis.against(subject, operation)
    same = [v for v in found if v.same_strength]
    return same[0] if same else next((v for v in found if v.baseline == BASELINE), None)


def reader_comparisons(analysis: PqAnalysis, subject: str, operation: str) -> list[Versus]:
    """The subject against each of READER_BASELINES the run measured, in that order; where it measured
    neither, against the classical key `comparison` picks (its strength's), so the answer still has one."""
    found = {v.baseline: v for v in analysis.against(subject, operation)}
    chosen = [found[name] for name in READER_BASELINES if name in found]
    if chosen:
        return chosen
    fallback = comparison(analysis, subject, operation)
    return [fallback] if fallback is not None else []


def baseline_name(versus: Versus) -> str:
    """'ES256' for P-256, 'Ed25519', or the key's own name."""
    return READER_BASELINES.get(versus.baseline, versus.baseline)


def observed_lines(policy: PqPolicy, observed: dict[str, Any]) -> list[Observed]:
    return [
        Observed(line, line.holds(observed), observed.get(line.observed) if line.observed else None)
        for line in policy.cannot
    ]


def context(analysis: PqAnalysis, policy: PqPolicy) -> dict[str, Any]:
    chosen = focus(analysis)
    return {
        "focus": chosen,
        "headline_payload": analysis.headline_payload,
        "limits": analysis.limits,
        "limit_sources": policy.limits,
        "facts": policy.facts,
        "horizon": policy.horizon,
        "cannot": observed_lines(policy, analysis.observed),
        "over_cookie": analysis.over("cookie_bytes"),
        "over_header": analysis.over("header_bytes"),
        # What the answer and the headlines set each ML-DSA parameter set beside (ES256's key and Ed25519),
        # by "<parameter set>/<operation>".
        "reader_comparisons": {
            f"{a.name}/{operation}": found
            for a in analysis.post_quantum
            for operation in ("sign", "verify")
            if (found := reader_comparisons(analysis, a.name, operation))
        },
    }


def static_context(policy: PqPolicy) -> dict[str, Any]:
    """What the page says without a run: the JOSE draft and what PHP cannot do, as the policy states them."""
    return {"policy_facts": policy.facts, "policy_cannot": policy.cannot}


def _cookie_sentence(chosen: Algorithm, cookie: int) -> Markup:
    smallest = chosen.smallest_token
    if smallest is None:
        return Markup("")
    payload, size = smallest
    if size > cookie:
        sentence = " A {:,}-byte cookie cannot hold an {} token: the smallest measured here, at {} characters, is {:,} "
        sentence += "bytes."
        return Markup(sentence).format(cookie, markdown_text(chosen.name), payload, size)
    return Markup(" Its token at {} characters is {:,} bytes, within a {:,}-byte cookie.").format(payload, size, cookie)


def _against(found: list[Versus]) -> Markup:
    """': 3.12× slower than ES256 (95% CI …) and 2.06× slower than Ed25519 (…)', or ''."""
    if not found:
        return Markup("")
    said = [markdown_text(margin(baseline_name(v), v.ratio)) for v in found]
    return Markup(": {}").format(Markup(" and ").join(said))


def finding(context: dict[str, Any]) -> Finding | None:
    """ML-DSA-65's verification and signing time at the headline payload, against the keys a reader compares
    it with (ES256's P-256 and Ed25519, READER_BASELINES), and whether its token fits a cookie."""
    analysis: PqAnalysis = context["analysis"]
    chosen = context["focus"]
    payload = context["headline_payload"]
    verify = chosen.case("verify", payload) if chosen is not None else None
    sign = chosen.case("sign", payload) if chosen is not None else None
    if chosen is None or verify is None or sign is None:
        return None
    recommendation = Markup(
        "ML-DSA works from PHP where OpenSSL has it (3.5+): `openssl_sign()` and `openssl_verify()` with the "
        "algorithm `0`, keys made by `openssl genpkey`; PHP cannot make them, nor use ML-KEM.{}"
    ).format(_cookie_sentence(chosen, analysis.limits["cookie_bytes"]))
    number = Markup("**{}** verifies a token of {} characters in {}{}; it signs one in {}{}.").format(
        markdown_text(chosen.name),
        payload,
        time_with_ci(context, verify.summary),
        _against(context["reader_comparisons"].get(f"{chosen.name}/verify", [])),
        time_with_ci(context, sign.summary),
        _against(context["reader_comparisons"].get(f"{chosen.name}/sign", [])),
    )
    evidence = (
        Evidence("sizes", "sizes"),
        Evidence("every algorithm", "every-algorithm"),
        Evidence("what PHP cannot do yet", "what-php-cannot-do-yet"),
        Evidence("verification", "verification"),
    )
    # No caveat that ML-DSA needs OpenSSL 3.5: the recommendation says so, and the run line names the library.
    return Finding("Post-quantum signatures", recommendation, number, evidence)


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis: PqAnalysis = context["analysis"]
    cookie = analysis.limits["cookie_bytes"]
    statements = []
    for a in analysis.algorithms:
        statements.append(Advice("pq", f"pq.verdict.{a.name}", f"Verdict on {a.name}", a.verdict.status))
        smallest = a.smallest_token
        if smallest is not None:
            fits = "fits" if smallest[1] <= cookie else "does not fit"
            statements.append(Advice("pq", f"pq.cookie.{a.name}", f"Smallest {a.name} token in a cookie", fits))
    for v in analysis.versus:
        if v.same_strength:
            key = f"pq.{v.operation}.{v.subject}.{v.baseline}"
            label = f"{v.subject} against {v.baseline}, {v.operation}"
            statements.append(Advice.of_direction("pq", key, label, v.subject, v.baseline, v.ratio))
    return statements


def headlines(context: dict[str, Any]) -> list[Headline]:
    """ML-DSA-65's verification and signing, and each against the classical keys the answer sets it beside
    (ES256's P-256, Ed25519): the numbers the answer leads with, for every machine × PHP."""
    chosen: Algorithm | None = context["focus"]
    payload = context["headline_payload"]
    found = []
    for operation in ("verify", "sign"):
        case = chosen.case(operation, payload) if chosen is not None else None
        if chosen is not None and case is not None:
            question = f"{chosen.name} {operation}, {payload}-character token"
            found.append(Headline.of_time(f"pq.{operation}.{chosen.name}", question, case.summary))
            versus: Versus
            for versus in context["reader_comparisons"].get(f"{chosen.name}/{operation}", []):
                key = f"pq.{operation}.{versus.subject}.over.{versus.baseline}"
                question = f"{versus.subject} over {baseline_name(versus)}, {operation}, {payload}-character token"
                found.append(Headline.of_ratio(key, f"{question} {TIMES_FASTER}", versus.ratio))
    return found

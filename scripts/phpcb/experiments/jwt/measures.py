"""What decides seed 004's timing and size claims, from the jwt page's analysis."""

from __future__ import annotations

from typing import Any

from phpcb.claims.measures import GENERIC, across_runs
from phpcb.claims.results import (
    Args,
    ChoiceResult,
    FactResult,
    Measure,
    RatioResult,
    Reference,
    Result,
    ShareResult,
    Unavailable,
)
from phpcb.experiments.experiment import Inputs
from phpcb.experiments.jwt.analysis import JwtAnalysis, JwtCase
from phpcb.statistics.stats import ratio_between, ratio_of_medians


def _case(analysis: JwtAnalysis, alg: str, operation: str, payload: int) -> JwtCase | None:
    found = analysis.find(alg)
    return found.case(operation, payload) if found is not None else None


def algorithm_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """One algorithm over another for one operation and payload (e.g. RS256 over ES256, verify)."""
    subject, baseline = args.text("subject"), args.text("baseline")
    operation, payload = args.text("operation"), args.integer("payload_chars")
    cases = [_case(context["analysis"], alg, operation, payload) for alg in (subject, baseline)]
    where = f"{operation}, {payload}-character payload"
    if cases[0] is None or cases[1] is None:
        return Unavailable(f"{subject} and {baseline} ({where}) are not both in this run")
    paired = context["analysis"].pairing.together(cases[1], cases[0])
    ratio = across_runs(context, ratio_between(cases[1].per_op_ns, cases[0].per_op_ns, paired))
    return RatioResult(subject, baseline, ratio, where, (cases[0].summary.n, cases[1].summary.n))


def payload_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """One algorithm with a short payload over a long one: how steady its time is."""
    alg, operation = args.text("alg"), args.text("operation")
    short, long = args.integer("payload_chars"), args.integer("longer_payload_chars")
    cases = [_case(context["analysis"], alg, operation, p) for p in (short, long)]
    where = f"{alg} {operation}"
    if cases[0] is None or cases[1] is None:
        return Unavailable(f"{where} at {short} and {long} characters is not in this run")
    ratio = across_runs(context, ratio_of_medians(cases[1].per_op_ns, cases[0].per_op_ns))
    samples = (cases[0].summary.n, cases[1].summary.n)
    return RatioResult(f"{short} characters", f"{long} characters", ratio, where, samples)


def token_sizes(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The article's token sizes against ours, per algorithm and payload: within `within` (a fraction)."""
    within = args.number("within")
    analysis: JwtAnalysis = context["analysis"]
    details, matched, total = [], 0, 0
    for row in inputs.reference.rows("token_size_and_time"):
        found = analysis.find(str(row["alg"]))
        ours = found.token_bytes(int(row["payload_chars"])) if found is not None else None
        if ours is None:
            continue
        total += 1
        then = int(row["token_bytes"])
        hit = abs(ours - then) <= within * then
        matched += hit
        details.append(f"{row['alg']} at {row['payload_chars']}: {ours} bytes, then {then}")
    what = f"token sizes within {within:.0%} of the article's (exact counts, not samples)"
    return ShareResult(matched, total, tuple(details), what)


# The JWA curve of each ES algorithm and its field size, as RFC 7518 section 3.4 names them.
CURVE_BITS = {"EC prime256v1": 256, "EC secp384r1": 384, "EC secp521r1": 521}


def key_curve(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The field size of the curve an ES algorithm's key is on in this run."""
    alg = args.text("alg")
    found = context["analysis"].find(alg)
    if found is None or found.key_type not in CURVE_BITS:
        return Unavailable(f"{alg} with an EC key is not in this run")
    bits = CURVE_BITS[found.key_type]
    fact = args.fact() if "fact" in args.values else None
    text = f"{alg}'s key here is on {found.key_type.split(' ', 1)[1]} ({found.key_label}): a {bits}-bit curve"
    if fact is not None:
        text += f"; {fact.statement}"
    return FactResult(bits, text, "this run's keys", fact.references if fact else ())


def header_budget(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Whether a request header can carry a token of args.token_bytes, against the limits of
    data/policy/jwt.yaml's facts, with this run's RS256 token sizes."""
    analysis: JwtAnalysis = context["analysis"]
    alg, wanted = args.text("alg"), args.integer("token_bytes")
    limits = inputs.policy.limits
    header = limits.get("header_bytes")
    if header is None:
        return Unavailable("data/policy/jwt.yaml states no header limit")
    found = analysis.find(alg)
    sizes = (
        "; ".join(f"{p} characters: {found.token_bytes(p)} bytes" for p in analysis.payloads)
        if found
        else "not measured"
    )
    fits = wanted <= int(header.value)
    text = f"{alg} tokens here: {sizes}; a request header may be {int(header.value):,} bytes ({header.reason})" + (
        f", a cookie {int(limits['cookie_bytes'].value):,} bytes" if "cookie_bytes" in limits else ""
    )
    references = tuple(Reference(r.title, r.url) for fact in limits.values() for r in fact.references)
    return FactResult(fits, text, "data/policy/jwt.yaml", references)


def algorithm_choice(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """An algorithm advised "for token length and safety": sound when its key reaches args.strength
    (the article's own target); this site's advice unless another measured algorithm reaches that
    strength with smaller tokens and measurably faster signing and verification."""
    analysis: JwtAnalysis = context["analysis"]
    alg, strength, payload = args.text("alg"), args.integer("strength"), args.integer("payload_chars")
    claimed = analysis.find(alg)
    if claimed is None or claimed.token_bytes(payload) is None:
        return Unavailable(f"{alg} at {payload} characters is not in this run")
    strengths = _strengths(context)
    if strengths.get(alg, 0) < strength:
        return ChoiceResult(False, False, f"{alg}'s key is weaker than {strength} bits")
    better = [
        a.alg
        for a in analysis.algorithms
        if a.asymmetric and a.alg != alg and _dominates(context, a.alg, alg, payload, strengths, strength)
    ]
    why = f"{alg}: a {strengths[alg]}-bit-strength key, {claimed.token_bytes(payload)}-byte tokens"
    why += f" at {payload} characters"
    if better:
        why += f"; {', '.join(better)} reach {strength}-bit strength with smaller tokens"
        why += ", signing and verifying measurably faster"
    return ChoiceResult(True, not better, why)


def _strengths(context: dict[str, Any]) -> dict[str, int]:
    """Each algorithm's key strength in bits (NIST SP 800-57), from the key names this run records."""
    levels = {
        "P-256": 128,
        "P-384": 192,
        "P-521": 256,
        "Ed25519": 128,
        "RSA-2048": 112,
        "RSA-3072": 128,
        "RSA-4096": 152,
    }
    return {a.alg: levels.get(a.key_label, 0) for a in context["analysis"].algorithms}


def _dominates(
    context: dict[str, Any], other: str, alg: str, payload: int, strengths: dict[str, int], strength: int
) -> bool:
    analysis: JwtAnalysis = context["analysis"]
    mine, theirs = analysis.find(alg), analysis.find(other)
    if mine is None or theirs is None or strengths.get(other, 0) < strength:
        return False
    if (theirs.token_bytes(payload) or 1 << 30) >= (mine.token_bytes(payload) or 0):
        return False
    for operation in ("sign", "verify"):
        a, b = theirs.case(operation, payload), mine.case(operation, payload)
        if a is None or b is None or not _measurably_faster(context, a, b):
            return False
    return True


def _measurably_faster(context: dict[str, Any], a: JwtCase, b: JwtCase) -> bool:
    """`a` measurably faster than `b` on the page's basis (the ratio widened across runs where known)."""
    pairing = context["analysis"].pairing
    ratio = across_runs(context, ratio_between(b.per_op_ns, a.per_op_ns, pairing.together(b, a)))
    return ratio.significant and ratio.value > 1


MEASURES: dict[str, Measure] = {
    **GENERIC,
    "key_curve": key_curve,
    "header_budget": header_budget,
    "algorithm_choice": algorithm_choice,
    "algorithm_ratio": algorithm_ratio,
    "payload_ratio": payload_ratio,
    "token_sizes": token_sizes,
}

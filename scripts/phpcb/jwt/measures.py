"""What decides seed 004's timing and size claims, from the jwt page's analysis."""

from __future__ import annotations

from typing import Any

from ..claim_rules import Args, Measure, RatioResult, Result, ShareResult, Unavailable
from ..experiment import Inputs
from ..stats import ratio_between, ratio_of_medians
from .analysis import JwtAnalysis, JwtCase


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
    return RatioResult(subject, baseline, ratio_between(cases[1].per_op_ns, cases[0].per_op_ns, paired), where)


def payload_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """One algorithm with a short payload over a long one: how steady its time is."""
    alg, operation = args.text("alg"), args.text("operation")
    short, long = args.integer("payload_chars"), args.integer("longer_payload_chars")
    cases = [_case(context["analysis"], alg, operation, p) for p in (short, long)]
    where = f"{alg} {operation}"
    if cases[0] is None or cases[1] is None:
        return Unavailable(f"{where} at {short} and {long} characters is not in this run")
    ratio = ratio_of_medians(cases[1].per_op_ns, cases[0].per_op_ns)
    return RatioResult(f"{short} characters", f"{long} characters", ratio, where)


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


MEASURES: dict[str, Measure] = {
    "algorithm_ratio": algorithm_ratio,
    "payload_ratio": payload_ratio,
    "token_sizes": token_sizes,
}

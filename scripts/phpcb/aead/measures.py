"""What decides seed 002's claims, from the AEAD page's analysis and data/policy/aead.yaml's facts."""

from __future__ import annotations

from typing import Any

from ..claim_rules import Args, ChoiceResult, FactResult, Measure, RatioResult, Result, Unavailable
from ..experiment import Inputs
from ..formatting import size
from ..wording import speedup
from .analysis import AeadAnalysis, Comparison


def _comparison(analysis: AeadAnalysis, bits: int, operation: str, payload: int) -> Comparison | None:
    return next(
        (
            c
            for c in analysis.gcm_vs_ccm
            if (c.subject, c.operation, c.payload_bytes) == (f"aes-{bits}-gcm", operation, payload)
        ),
        None,
    )


def gcm_over_ccm(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    bits, operation, payload = args.integer("key_bits"), args.text("operation"), args.integer("payload_bytes")
    found = _comparison(context["analysis"], bits, operation, payload)
    where = f"AES-{bits}, {operation}, {size(payload)}"
    if found is None:
        return Unavailable(f"GCM and CCM at {where} are not both in this run")
    return RatioResult(found.subject, found.baseline, found.ratio, where)


def gcm_choice(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """ "Use GCM" (over CCM): allowed if the policy recommends GCM; picked if it is also the faster."""
    analysis: AeadAnalysis = context["analysis"]
    bits, payload = args.integer("key_bits"), args.integer("payload_bytes")
    gcm, ccm = f"aes-{bits}-gcm", f"aes-{bits}-ccm"
    if gcm not in analysis.verdicts or ccm not in analysis.verdicts:
        return Unavailable(f"{gcm} and {ccm} are not both in this run")
    found = _comparison(analysis, bits, "encrypt", payload)
    allowed = analysis.verdicts[gcm].recommendable
    why = "; ".join(f"{name}: {analysis.verdicts[name].status.replace('_', ' ')}" for name in (gcm, ccm))
    faster = found is not None and found.ratio.significant and found.ratio.value > 1
    if found is not None:
        why += f"; encrypting {size(payload)}, {speedup(found.subject, found.baseline, found.ratio)}"
    return ChoiceResult(admissible=allowed, picked=allowed and faster, why=why)


def fact(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """A fact from data/policy/aead.yaml, e.g. the first OpenSSL with GCM."""
    name = args.text("fact")
    found = inputs.policy.facts.get(name)
    if found is None:
        return Unavailable(f"data/policy/aead.yaml states no fact {name!r}")
    sources = "; ".join(r.title for r in found.references)
    value = found.value if not isinstance(found.value, list) else ", ".join(str(v) for v in found.value)
    text = f"{value}: {found.reason}"
    if name == "ccm_tag_bytes":
        measured = sorted({c.key.tag_bytes for c in context["analysis"].cases if c.key.algorithm.endswith("-ccm")})
        text += f"; this run measured CCM with {', '.join(str(t) for t in measured)}-byte tags"
    return FactResult(found.value, text, sources)


MEASURES: dict[str, Measure] = {"gcm_over_ccm": gcm_over_ccm, "gcm_choice": gcm_choice, "fact": fact}

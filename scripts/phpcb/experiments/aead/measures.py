"""What decides seed 002's claims, from the AEAD page's analysis, the run's verification and the
ledger's facts (data/reference/claims.yaml)."""

from __future__ import annotations

import re
from typing import Any

from phpcb.claims.measures import GENERIC, verification_value
from phpcb.claims.results import Args, ChoiceResult, FactResult, Measure, RatioResult, Ratios, Result, Unavailable
from phpcb.experiments.aead.analysis import AeadAnalysis, Comparison
from phpcb.experiments.experiment import Inputs
from phpcb.presentation.formatting import size
from phpcb.presentation.wording import speedup

# A vector report's label names the mode it ran through openssl_encrypt: "openssl aes-*-gcm".
OPENSSL_LABEL = re.compile(r"^openssl (?:aes-\*-)?(?P<mode>[a-z0-9-]+)$")
# A cipher name of the inventory, by its mode: "aes-128-ocb" is ocb; "chacha20-poly1305" is itself.
CIPHER_MODE = re.compile(r"^(?:[a-z0-9]+-\d+-)?(?P<mode>[a-z0-9-]+)$")
INVENTORY_TABLE = "cipher_inventory.csv"
AEAD_STATUS = "aead_needs_tag"  # the inventory's status of a cipher openssl_encrypt needs a $tag for


def _comparison(analysis: AeadAnalysis, bits: int, operation: str, payload: int) -> Comparison | None:
    return next(
        (
            c
            for c in analysis.gcm_vs_ccm
            if (c.subject, c.operation, c.payload_bytes) == (f"aes-{bits}-gcm", operation, payload)
        ),
        None,
    )


def _missing(analysis: AeadAnalysis, bits: int, operation: str, payload: int) -> Unavailable:
    """Why GCM against CCM is not stated: a case not in the run, or one that broke a plausibility check."""
    where = f"AES-{bits}, {operation}, {size(payload)}"
    cases = [analysis.case(f"aes-{bits}-{mode}", operation, payload) for mode in ("gcm", "ccm")]
    if any(case is None for case in cases):
        return Unavailable(f"GCM and CCM at {where} are not both in this run")
    return Unavailable(f"GCM and CCM at {where}: a case broke a plausibility check, so the run states no finding")


def _samples(analysis: AeadAnalysis, comparison: Comparison) -> tuple[int, int]:
    cases = [
        analysis.case(name, comparison.operation, comparison.payload_bytes)
        for name in (comparison.subject, comparison.baseline)
    ]
    return tuple(case.summary.n if case is not None else 0 for case in cases)  # type: ignore[return-value]


def gcm_over_ccm(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """GCM over CCM at one payload, or at each of several (the sizes the page reads): a payload this run
    did not measure is named, and the claim is judged at the others."""
    bits, operation = args.integer("key_bits"), args.text("operation")
    analysis: AeadAnalysis = context["analysis"]
    parts, missing = [], []
    for payload in args.one_or_more_integers("payload_bytes"):
        found = _comparison(analysis, bits, operation, payload)
        if found is None:
            missing.append(_missing(analysis, bits, operation, payload))
            continue
        where = f"AES-{bits}, {operation}, {size(payload)}"
        parts.append(RatioResult(found.subject, found.baseline, found.ratio, where, _samples(analysis, found)))
    if not parts:
        return missing[0] if len(missing) == 1 else Unavailable("; ".join(m.why for m in missing))
    if not isinstance(args.values["payload_bytes"], list):
        return parts[0]
    return Ratios(tuple(parts), tuple(m.why for m in missing))


def gcm_choice(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """ "Use GCM" (over CCM): sound (args.fact: both are approved AEAD modes); this site's advice when GCM
    is also measurably the faster at each of the article's payloads that this run measured."""
    analysis: AeadAnalysis = context["analysis"]
    bits = args.integer("key_bits")
    fact = args.fact()
    found = [
        (payload, c)
        for payload in args.one_or_more_integers("payload_bytes")
        if (c := _comparison(analysis, bits, "encrypt", payload)) is not None
    ]
    if not found:
        return _missing(analysis, bits, "encrypt", args.one_or_more_integers("payload_bytes")[0])
    faster = all(c.ratio.significant and c.ratio.value > 1 for _, c in found)
    said = "; ".join(f"encrypting {size(payload)}, {speedup(c.subject, c.baseline, c.ratio)}" for payload, c in found)
    return ChoiceResult(
        admissible=bool(fact.value),
        picked=bool(fact.value) and faster,
        why=f"{fact.statement}; {said}",
        references=fact.references,
    )


def openssl_aead_modes(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The AEAD modes this run verified through openssl_encrypt with a tag (its Wycheproof reports)."""
    reports = verification_value(context, "vectors")
    if not isinstance(reports, list):
        return Unavailable("this run has no record of AEAD vectors")
    passed = {}
    for report in reports:
        match = OPENSSL_LABEL.match(str(report.get("algorithm", "")))
        if match and int(report.get("passed", 0)) > 0:
            passed[match["mode"]] = passed.get(match["mode"], 0) + int(report["passed"])
    if not passed:
        return Unavailable("no AEAD vectors passed through openssl_encrypt in this run")
    text = "verified through openssl_encrypt with a tag: " + ", ".join(
        f"{mode} ({n} Wycheproof vectors)" for mode, n in sorted(passed.items())
    )
    # The modes OpenSSL lists as authenticated (openssl_encrypt wants a $tag) count as found too, where the
    # run holds the cipher inventory: OCB and SIV have no vectors here, but PHP offers them.
    listed = {
        match["mode"]
        for row in context["run"].tables.get(INVENTORY_TABLE, [])
        if row.get("status") == AEAD_STATUS and (match := CIPHER_MODE.match(str(row.get("cipher", "")))) is not None
    }
    unchecked = sorted(listed - set(passed))
    if unchecked:
        text += "; listed as authenticated by openssl_get_cipher_methods(), not checked against vectors: "
        text += ", ".join(unchecked)
    fact = args.fact() if "fact" in args.values else None
    if fact is not None:
        text += f"; {fact.statement}"
    source = "this run's verification" + (" and cipher inventory" if unchecked else "")
    return FactResult(sorted(set(passed) | listed), text, source, fact.references if fact else ())


MEASURES: dict[str, Measure] = {
    **GENERIC,
    "gcm_over_ccm": gcm_over_ccm,
    "gcm_choice": gcm_choice,
    "openssl_aead_modes": openssl_aead_modes,
}

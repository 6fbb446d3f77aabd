"""What decides seeds 000 and 001's claims, from the symmetric page's analysis (data/reference/claims.yaml)."""

from __future__ import annotations

from typing import Any

from ..claim_rules import Args, ChoiceResult, FactResult, Measure, Ranked, RankResult, RatioResult, Result, Unavailable
from ..experiment import Inputs
from ..formatting import size
from ..stats import ratio_between
from ..wording import speedup
from .analysis import SymCase, SymmetricAnalysis


def _missing(context: dict[str, Any], what: str) -> Unavailable:
    gap = context.get("mcrypt_gap") or ""
    return Unavailable(f"{what} was not measured in this run" + (f" ({gap})" if gap else ""))


def engine_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """OpenSSL over mcrypt, AES-CBC with PKCS#7: one key size, operation and payload."""
    analysis: SymmetricAnalysis = context["analysis"]
    bits, operation, payload = args.integer("key_bits"), args.text("operation"), args.integer("payload_bytes")
    found = analysis.engine_comparison(bits, operation, payload)
    where = f"AES-{bits}-CBC {operation}, {size(payload)}"
    if found is None:
        return _missing(context, f"mcrypt or OpenSSL {where}")
    return RatioResult("OpenSSL", "mcrypt", found.ratio, where)


def key_length(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """AES-128 over AES-256 in one engine: how many times faster the shorter key is."""
    analysis: SymmetricAnalysis = context["analysis"]
    engine, operation, payload = args.text("engine"), args.text("operation"), args.integer("payload_bytes")
    where = f"{engine} AES-CBC {operation}, {size(payload)}"
    for c in analysis.key_length:
        key = c.subject.key
        if (key.engine, key.operation, key.payload_bytes) == (engine, operation, payload):
            return RatioResult("AES-128", "AES-256", c.ratio, where)
    return _missing(context, where)


def _race(analysis: SymmetricAnalysis, payload: int) -> list[SymCase]:
    """Every cipher of the race at one payload (encrypt + decrypt), fastest first."""
    cases = [c for c in analysis.cases if c.key.suite == "inventory" and c.key.payload_bytes == payload]
    return sorted(cases, key=lambda c: (c.summary.median_ns, c.key.cipher))


def ranking(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Every cipher OpenSSL offers, by its median time to encrypt and decrypt one payload."""
    payload = args.integer("payload_bytes")
    race = _race(context["analysis"], payload)
    if not race:
        return Unavailable(f"the cipher race at {size(payload)} is not in this run (the full profile runs it)")
    items = tuple(
        Ranked(c.key.cipher, c.summary.median_ns / 1e6, c.summary.ci_low_ns / 1e6, c.summary.ci_high_ns / 1e6)
        for c in race
    )
    return RankResult(items, f"ciphers by encrypt + decrypt time at {size(payload)}", " ms")


def spread(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The fastest cipher of the race over the one in place `place`: how far apart the first ones are."""
    payload, place = args.integer("payload_bytes"), args.integer("place")
    race = _race(context["analysis"], payload)
    if len(race) < place:
        return Unavailable(f"fewer than {place} ciphers raced at {size(payload)} in this run")
    first, last = race[0], race[place - 1]
    where = f"the fastest and the {place}th cipher, encrypt + decrypt {size(payload)}"
    paired = context["analysis"].pairing.together(last.key, first.key)
    return RatioResult(first.key.cipher, last.key.cipher, ratio_between(last.per_op_ns, first.per_op_ns, paired), where)


def pkcs7(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Does openssl_encrypt pad with PKCS#7 by itself? The run's Wycheproof PKCS#5/7 vectors decide."""
    verification = (context["entry"] or {}).get("verification") or {}
    passed = sum(
        int(report.get("passed", 0))
        for report in verification.get("vectors", [])
        if report.get("source") == "aes_cbc_pkcs5_test.json" and str(report.get("algorithm", "")).startswith("openssl")
    )
    if passed == 0:
        return Unavailable("this run has no record of the AES-CBC PKCS#5/7 vectors through OpenSSL")
    equal = [name for name in verification.get("cross_engine_equal", {}) if "CBC mcrypt = OpenSSL" in name]
    text = (
        f"{passed} Wycheproof AES-CBC-PKCS5 vectors pass through openssl_encrypt/openssl_decrypt with no padding code"
    )
    if equal:
        text += f"; it gives the same ciphertext as mcrypt with explicit PKCS#7 ({len(equal)} key sizes)"
    return FactResult(True, text, "this run's verification")


def openssl_choice(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """ "Use OpenSSL": allowed if the policy allows the OpenSSL cipher; picked if mcrypt is ruled out or slower."""
    analysis: SymmetricAnalysis = context["analysis"]
    cipher = args.text("cipher")
    verdict = inputs.policy.verdict(cipher)
    mcrypt = analysis.mcrypt_verdict
    allowed = verdict.status != "not_recommended"
    why = f"{cipher}: {verdict.status.replace('_', ' ')}"
    if mcrypt is not None:
        why += f"; mcrypt: {mcrypt.status.replace('_', ' ')} ({' '.join(mcrypt.notes)})"
    if analysis.headline is not None:
        why += f"; {speedup('OpenSSL', 'mcrypt', analysis.headline.ratio)}"
    mcrypt_out = mcrypt is not None and mcrypt.status == "not_recommended"
    faster = analysis.headline is not None and analysis.headline.ratio.significant and analysis.headline.ratio.value > 1
    return ChoiceResult(admissible=allowed, picked=allowed and (mcrypt_out or faster), why=why)


MEASURES: dict[str, Measure] = {
    "engine_ratio": engine_ratio,
    "key_length": key_length,
    "ranking": ranking,
    "spread": spread,
    "pkcs7": pkcs7,
    "openssl_choice": openssl_choice,
}

"""What decides seeds 000 and 001's claims (and seed 002's about the cipher list), from the symmetric
page's analysis, the run's verification and the ledger's facts (data/reference/claims.yaml)."""

from __future__ import annotations

import re
from typing import Any

from phpcb.claims.measures import GENERIC, across_runs, ranked_across_runs, verification_value
from phpcb.claims.results import (
    Args,
    ChoiceResult,
    FactResult,
    Measure,
    RankResult,
    RatioResult,
    Ratios,
    Result,
    Unavailable,
)
from phpcb.experiments.experiment import Inputs
from phpcb.experiments.symmetric.analysis import (
    STATUS_WORDS,
    Comparison,
    SymCase,
    SymmetricAnalysis,
    compare,
    timed_inventory,
)
from phpcb.presentation.formatting import size
from phpcb.presentation.wording import speedup


def _missing(context: dict[str, Any], what: str) -> Unavailable:
    gap = context.get("mcrypt_gap") or ""
    return Unavailable(f"{what} was not measured in this run" + (f" ({gap})" if gap else ""))


def _samples(comparison: Comparison) -> tuple[int, int]:
    return comparison.subject.summary.n, comparison.baseline.summary.n


def engine_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """OpenSSL over mcrypt, AES-CBC with PKCS#7: one key size, operation and payload."""
    analysis: SymmetricAnalysis = context["analysis"]
    bits, operation, payload = args.integer("key_bits"), args.text("operation"), args.integer("payload_bytes")
    found = analysis.engine_comparison(bits, operation, payload)
    where = f"AES-{bits}-CBC {operation}, {size(payload)}"
    if found is None:
        return _missing(context, f"mcrypt or OpenSSL {where}")
    return RatioResult("OpenSSL", "mcrypt", found.ratio, where, _samples(found))


def engine_ratios(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """OpenSSL over mcrypt in every AES-CBC case at the given payloads (each key size and operation): the
    article's table, one condition per row, so that a factor it states for them all ("routinely") is
    judged at each."""
    analysis: SymmetricAnalysis = context["analysis"]
    payloads = set(args.integers("payload_bytes"))
    cases = [c for c in analysis.engines if c.subject.key.payload_bytes in payloads]
    if not cases:
        return _missing(context, f"mcrypt against OpenSSL at {', '.join(size(p) for p in sorted(payloads))}")
    parts = tuple(
        RatioResult(
            "OpenSSL",
            "mcrypt",
            c.ratio,
            f"AES-{c.subject.key.key_bits}-CBC {c.subject.key.operation}, {size(c.subject.key.payload_bytes)}",
            _samples(c),
        )
        for c in sorted(
            cases, key=lambda c: (c.subject.key.payload_bytes, c.subject.key.operation, c.subject.key.key_bits)
        )
    )
    return Ratios(parts)


def key_length(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """AES-128 over AES-256 in one engine: how many times faster the shorter key is, at one operation
    and payload or at each of several (args.operations, args.payload_bytes: the article's situation)."""
    analysis: SymmetricAnalysis = context["analysis"]
    engine = args.text("engine")
    operations = args.texts("operations") if "operations" in args.values else [args.text("operation")]
    by_case = {
        (c.subject.key.engine, c.subject.key.operation, c.subject.key.payload_bytes): c for c in analysis.key_length
    }
    parts, absent = [], []
    for operation in operations:
        for payload in args.one_or_more_integers("payload_bytes"):
            where = f"{engine} AES-CBC {operation}, {size(payload)}"
            found = by_case.get((engine, operation, payload))
            if found is None:
                absent.append(where)
            else:
                parts.append(RatioResult("AES-128", "AES-256", found.ratio, where, _samples(found)))
    if not parts:
        return _missing(context, " and ".join(absent))
    if len(parts) == 1 and not absent:
        return parts[0]
    return Ratios(tuple(parts), tuple(f"{where}: not measured in this run" for where in absent))


def _race(analysis: SymmetricAnalysis, payload: int) -> list[SymCase]:
    """Every cipher of the race at one payload (encrypt + decrypt), fastest first by the time per byte.
    A cipher the run timed at another payload only (the quick profile's CFB1 ciphers, at 25 KiB) stands
    in for itself in a race that was run, never makes one."""
    cases = [c for c in analysis.cases if c.key.suite == "inventory" and c.key.payload_bytes == payload]
    if not cases:
        return []
    raced = {c.key.cipher for c in cases}
    stand_ins = [case for name, case in timed_inventory(analysis.cases).items() if name not in raced]
    return sorted(cases + stand_ins, key=lambda c: (c.summary.median_ns / c.key.payload_bytes, c.key.cipher))


def _scaled_ms(case: SymCase, payload: int) -> tuple[float, float, float]:
    """Its median and CI in ms per `payload`: as timed, or, timed at another payload, at its time per byte."""
    scale = payload / case.key.payload_bytes / 1e6
    return case.summary.median_ns * scale, case.summary.ci_low_ns * scale, case.summary.ci_high_ns * scale


def _race_label(race: list[SymCase], payload: int) -> str:
    label = f"ciphers by encrypt + decrypt time at {size(payload)}"
    scaled = [c for c in race if c.key.payload_bytes != payload]
    for timed_at in sorted({c.key.payload_bytes for c in scaled}):
        names = ", ".join(c.key.cipher for c in scaled if c.key.payload_bytes == timed_at)
        label += f"; timed at {size(timed_at)} and scaled by their time per byte: {names}"
    return label


def ranking(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Every cipher OpenSSL offers, by its median time to encrypt and decrypt one payload."""
    payload = args.integer("payload_bytes")
    race = _race(context["analysis"], payload)
    if not race:
        return Unavailable(f"the cipher race at {size(payload)} is not in this run (the full profile runs it)")
    items = tuple(ranked_across_runs(context, c.key.cipher, *_scaled_ms(c, payload)) for c in race)
    return RankResult(items, _race_label(race, payload), " ms")


def spread(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The fastest cipher of the race over the one in place `place`: how far apart the first ones are."""
    payload, place = args.integer("payload_bytes"), args.integer("place")
    race = _race(context["analysis"], payload)
    if len(race) < place:
        return Unavailable(f"fewer than {place} ciphers raced at {size(payload)} in this run")
    first, last = race[0], race[place - 1]
    where = f"the fastest and the {place}th cipher, encrypt + decrypt {size(payload)}"
    ratio = across_runs(context, compare(first, last, context["analysis"].pairing).ratio)
    return RatioResult(first.key.cipher, last.key.cipher, ratio, where, (first.summary.n, last.summary.n))


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


def rijndael_is_aes(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """AES is Rijndael with a 16-byte block and 16-, 24- or 32-byte keys: mcrypt's rijndael-128 with
    each key size gives OpenSSL's aes-*-cbc ciphertext (the run's cross-engine check)."""
    fact = args.fact()
    equal = verification_value(context, "cross_engine_equal")
    sizes = sorted(
        int(name.split("-")[1]) for name in (equal if isinstance(equal, dict) else {}) if "CBC mcrypt = OpenSSL" in name
    )
    if not sizes:
        return FactResult(
            fact.value,
            f"this run did not compare the engines; documented: {fact.statement}",
            "documented",
            fact.references,
        )
    text = (
        f"mcrypt's rijndael-128 (a 16-byte block) with {', '.join(str(s // 8) for s in sizes)}-byte keys gives "
        f"OpenSSL's aes-{{{', '.join(str(s) for s in sizes)}}}-cbc ciphertexts; {fact.statement}"
    )
    return FactResult(sizes == [128, 192, 256], text, "this run's verification", fact.references)


def status_words(status: str) -> str:
    return STATUS_WORDS.get(status, status)


def inventory_status(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Whether every cipher OpenSSL lists whose name matches args.pattern has args.status in this run's
    inventory (a real round trip each), and which they are."""
    analysis: SymmetricAnalysis = context["analysis"]
    pattern, status = re.compile(args.text("pattern")), args.text("status")
    rows = [row for row in analysis.inventory if pattern.search(row.cipher)]
    if not rows:
        return Unavailable(f"no cipher this run lists matches {pattern.pattern}")
    # In the inventory's words (STATUS_WORDS), not its tokens: a cipher of another status says which.
    matching = sum(1 for r in rows if r.status == status)
    text = f"{matching} of {len(rows)} listed have the status “{status_words(status)}”: " + ", ".join(
        row.cipher if row.status == status else f"{row.cipher} ({status_words(row.status)})" for row in rows
    )
    if "observed" in args.values:
        seen = verification_value(context, args.text("observed"))
        if isinstance(seen, list):
            text += f"; {args.text('label')}: {', '.join(seen) or 'none'}"
    fact = args.fact() if "fact" in args.values else None
    return FactResult(
        all(row.status == status for row in rows),
        text,
        "this run's cipher inventory",
        fact.references if fact else (),
    )


def library_versions(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The libmcrypt and OpenSSL this run's PHP used, against the last libmcrypt release (args.fact)."""
    fact = args.fact()
    entry = context["entry"] or {}
    libraries = (entry.get("measured_by") or {}).get("libraries") or context["run"].manifest.get("libraries", {})
    mcrypt, openssl = libraries.get("mcrypt"), libraries.get("openssl")
    if mcrypt is None:
        return Unavailable("this run's PHP has no mcrypt to date")
    text = f"libmcrypt {mcrypt}; {openssl}; {fact.statement}"
    return FactResult(str(mcrypt) == str(fact.value), text, "this run's manifest", fact.references)


def openssl_choice(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """ "Use OpenSSL" (rather than mcrypt): the engine it names, judged as an engine. Allowed and what this
    site advises when OpenSSL is measurably faster than mcrypt here and mcrypt's library is abandoned
    (args.fact), with the site's cipher for it (args.advised, an AEAD the policy recommends). The mode the
    article used it with (args.cipher, an unauthenticated one: args.unauthenticated says why) is never
    called sound here: its own claim (args.judged_by) rules it out, and the reason says so."""
    analysis: SymmetricAnalysis = context["analysis"]
    cipher, advised, judged_by = args.text("cipher"), args.text("advised"), args.text("judged_by")
    abandoned, unauthenticated = args.fact(), args.fact("unauthenticated")
    headline = analysis.headline
    if headline is None:
        return _missing(context, "mcrypt against OpenSSL")
    faster = headline.ratio.significant and headline.ratio.value > 1
    advised_verdict = inputs.policy.verdict(advised)
    why = (
        f"{speedup('OpenSSL', 'mcrypt', headline.ratio)}; {abandoned.statement}; this site advises OpenSSL "
        f"(or sodium) with an AEAD, {advised} ({advised_verdict.text}); the mode the article used it with, "
        f"{cipher}, is ruled out ({judged_by}): {unauthenticated.statement}"
    )
    return ChoiceResult(
        admissible=faster,
        picked=faster and advised_verdict.recommendable,
        why=why,
        references=abandoned.references + unauthenticated.references,
    )


def cfb8_practice(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """A cipher and mode of an article's code judged by a documented fact (args.fact: Blowfish in
    mcrypt's 8-bit `cfb`), with what the 8-bit mode costs here: mcrypt's full-block `ncfb` over its
    `cfb`, encrypting the largest payload both were measured at."""
    fact = args.fact()
    value = fact.value if isinstance(fact.value, dict) else {}
    analysis: SymmetricAnalysis = context["analysis"]
    encrypting = [c for c in analysis.cfb_modes if c.subject.key.operation == "encrypt"]
    why = fact.statement
    if encrypting:
        largest = max(encrypting, key=lambda c: c.subject.key.payload_bytes)
        why += (
            f"; here, encrypting {size(largest.subject.key.payload_bytes)} through mcrypt, "
            f"{speedup('full-block ncfb', '8-bit cfb', largest.ratio)}"
        )
    return ChoiceResult(bool(value.get("admissible")), bool(value.get("advised")), why, fact.references)


MEASURES: dict[str, Measure] = {
    **GENERIC,
    "engine_ratio": engine_ratio,
    "engine_ratios": engine_ratios,
    "key_length": key_length,
    "ranking": ranking,
    "spread": spread,
    "pkcs7": pkcs7,
    "rijndael_is_aes": rijndael_is_aes,
    "inventory_status": inventory_status,
    "library_versions": library_versions,
    "openssl_choice": openssl_choice,
    "cfb8_practice": cfb8_practice,
}

"""What the symmetric page needs beyond the analysis: the seeds' figures set against ours."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from markupsafe import Markup

from phpcb.data.policy import SymmetricPolicy, Verdict
from phpcb.data.reference import ReferenceData
from phpcb.experiments.experiment import Finding
from phpcb.experiments.symmetric.analysis import (
    RANKING_PAYLOAD,
    STATUS_WORDS,
    Comparison,
    InventoryRow,
    SymCase,
    SymmetricAnalysis,
)
from phpcb.presentation.advice import Advice
from phpcb.presentation.answer import Evidence
from phpcb.presentation.formatting import duration, size
from phpcb.presentation.headlines import TIMES_FASTER, Headline
from phpcb.presentation.render import markdown_text
from phpcb.presentation.wording import span, speedup

# AES's rounds per block by key size: the most the key length alone can change a cipher call's cost.
AES_ROUNDS = {128: 10, 192: 12, 256: 14}

# Seed 001's short (1-4 bytes) and medium (1-4 kB) strings, against this run's payloads.
SHORT_PAYLOAD = 3
MEDIUM_PAYLOAD = 4096

# Ciphers whose verdict the security table spells out, when the run lists them.
POLICY_EXAMPLES = (
    "aes-256-gcm",
    "aes-128-ocb",
    "aes-256-cbc",
    "aes-256-ctr",
    "aes-128-cfb1",
    "aes-256-ecb",
    "aes-256-xts",
    "aes-256-wrap",
    "chacha20",
    "des-ede3-cbc",
    "des-cbc",
    "bf-cbc",
    "cast5-cbc",
    "rc4",
    "seed-cbc",
    "aes-128-cbc-hmac-sha1",
)


def _lookup(analysis: SymmetricAnalysis) -> Callable[[str, str, int, str], SymCase | None]:
    index = {
        (c.key.engine, c.key.cipher, c.key.mode, c.key.key_bits, c.key.operation, c.key.payload_bytes): c
        for c in analysis.cases
    }

    def find(engine: str, cipher: str, operation: str, payload: int) -> SymCase | None:
        for (e, name, mode, _bits, op, payload_bytes), case in index.items():
            label = f"{name} {mode}" if e == "mcrypt" else name
            if (e, label, op, payload_bytes) == (engine, cipher, operation, payload):
                return case
        return None

    return find


def _now(analysis: SymmetricAnalysis, test: str, payload: int) -> str:
    """Today's median for one of seed 001's tests, in seconds, or why there is none."""
    find = _lookup(analysis)
    engine, cipher = {
        "mcrypt blowfish cfb": ("mcrypt", "blowfish cfb"),
        "openssl aes-256-cfb": ("openssl", "aes-256-cfb"),
        "openssl aes-128-cbc": ("openssl", "aes-128-cbc"),
    }[test.split(",")[0]]
    both = test.endswith("encrypt + decrypt")
    cases: list[SymCase | None]
    if both:
        roundtrip = find(engine, cipher, "roundtrip", payload)
        cases = (
            [roundtrip]
            if roundtrip
            else [find(engine, cipher, "encrypt", payload), find(engine, cipher, "decrypt", payload)]
        )
    else:
        cases = [find(engine, cipher, "encrypt", payload)]
    if any(case is None for case in cases):
        return "not measured in this profile"
    return duration(sum(case.summary.median_ns for case in cases if case is not None))


def _fastest(analysis: SymmetricAnalysis, payload: int, count: int = 5) -> list[str]:
    """This run's fastest ciphers in the race at one payload (encrypt + decrypt)."""
    race = sorted(
        (c for c in analysis.cases if c.key.suite == "inventory" and c.key.payload_bytes == payload),
        key=lambda c: (c.summary.median_ns, c.key.cipher),
    )
    return [c.key.cipher for c in race[:count]]


def _with_payload_note(row: InventoryRow) -> InventoryRow:
    """The row, its detail saying at which payload its throughput was timed when the table's column,
    headed by the race's payload, does not."""
    if row.case is None or not row.timed_elsewhere:
        return row
    note = f"throughput timed at {size(row.case.key.payload_bytes)}, not {size(RANKING_PAYLOAD)}"
    return replace(row, detail=f"{row.detail}; {note}" if row.detail else note)


def aes_case(comparison: Comparison) -> str:
    key = comparison.subject.key
    return f"AES-{key.key_bits}, {key.operation}, {size(key.payload_bytes)}"


def engine_span(analysis: SymmetricAnalysis) -> str:
    """'Over the 36 AES-CBC cases, OpenSSL is from 5.7× faster (…) to 89.9× faster (…) than mcrypt'."""
    ends = analysis.engine_span
    if ends is None:
        return ""
    low, high = ends
    cases = f"{len(analysis.engines)} AES-CBC cases (key sizes × operations × payloads)"
    return span("OpenSSL", "mcrypt", cases, (low.ratio, aes_case(low)), (high.ratio, aes_case(high)))


def context(analysis: SymmetricAnalysis, reference: ReferenceData, policy: SymmetricPolicy) -> dict[str, Any]:
    examples: list[tuple[str, Verdict]] = []
    if analysis.mcrypt_verdict is not None:
        examples.append(("mcrypt (the engine)", analysis.mcrypt_verdict))
    listed = {row.cipher for row in analysis.inventory}
    examples += [(name, policy.verdict(name)) for name in POLICY_EXAMPLES if name in listed]
    entry = analysis.run.experiment("symmetric") or {}
    reason = entry.get("reason") or ""
    return {
        "then": {
            "blowfish_rows_2015": [
                {**row, "now": _now(analysis, row["test"], row["payload_bytes"])}
                for row in reference.section("blowfish_vs_aes_seconds_2015")
            ],
            "string_rows": [
                {**row, "now": _now(analysis, row["test"], payload)}
                for section, payload in (
                    ("short_strings_seconds", SHORT_PAYLOAD),
                    ("medium_strings_seconds", MEDIUM_PAYLOAD),
                )
                for row in reference.section(section)
            ],
            "fastest_2015": [
                (size(payload), [row["cipher"] for row in reference.section(section)[:5]], _fastest(analysis, payload))
                for section, payload in (
                    ("fastest_200kb_seconds_2015", RANKING_PAYLOAD),
                    ("fastest_2mb_seconds_2015", 2097152),
                )
            ],
        },
        "engine_span": engine_span(analysis),
        "round_ratio": AES_ROUNDS[256] / AES_ROUNDS[128],
        "short_payload": SHORT_PAYLOAD,
        "medium_payload": MEDIUM_PAYLOAD,
        "legacy_count": sum(1 for row in analysis.inventory if row.provider == "legacy"),
        "status_words": STATUS_WORDS,
        "cfb1_rows": [row for row in analysis.inventory if row.cipher.endswith("-cfb1")],
        "cfb1_all_ok": all(row.status == "ok" for row in analysis.inventory if row.cipher.endswith("-cfb1")),
        "inventory_sorted": [
            _with_payload_note(row)
            for row in sorted(analysis.inventory, key=lambda row: (row.status != "ok", row.status, row.cipher))
        ],
        "policy_rows": examples,
        "ranking_payload": RANKING_PAYLOAD,
        "elsewhere_payloads": sorted(
            {row.case.key.payload_bytes for row in analysis.inventory if row.case is not None and row.timed_elsewhere}
        ),
        "mcrypt_gap": next((part.strip() for part in reason.split(";") if "mcrypt extension not loaded" in part), ""),
    }


# The article's speed claim, as the ledger judges it (data/reference/claims.yaml).
SPEED_CLAIM = "seed000-30x-decrypt"


def finding(context: dict[str, Any]) -> Finding | None:
    """mcrypt against OpenSSL at the case the 2014 article followed; and what to use instead of either."""
    headline = context["analysis"].headline
    if headline is None:
        return None
    recommendation = Markup(
        "Do not use mcrypt; nor any cipher this page races, OpenSSL's AES-CBC included: none of them is "
        "authenticated. **Use an AEAD.**"
    )
    number = Markup("Decrypting {} with AES-256: **{}**.").format(
        size(headline.subject.key.payload_bytes), markdown_text(speedup("OpenSSL", "mcrypt", headline.ratio))
    )
    evidence = (
        Evidence("which AEAD, with code", "recommendation", page="experiments/aead.md"),
        Evidence("every AES-CBC case", "mcrypt-vs-openssl-aes-cbc-with-pkcs7"),
        Evidence("every cipher, with its verdict", "every-cipher-openssl-offers"),
        Evidence("moving from mcrypt", "recommendation"),
    )
    return Finding("mcrypt vs OpenSSL", recommendation, number, evidence, claim=SPEED_CLAIM)


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis: SymmetricAnalysis = context["analysis"]
    statements = []
    for c in analysis.engines:
        key = c.subject.key
        statements.append(
            Advice.of_direction(
                "symmetric",
                f"symmetric.engines.{key.cipher}.{key.operation}.{key.payload_bytes}",
                f"OpenSSL vs mcrypt, {key.cipher} {key.operation} at {size(key.payload_bytes)}",
                "OpenSSL",
                "mcrypt",
                c.ratio,
            )
        )
    for row in analysis.inventory:
        statements.append(
            Advice("symmetric", f"symmetric.verdict.{row.cipher}", f"Verdict on {row.cipher}", row.verdict.status)
        )
        statements.append(
            Advice("symmetric", f"symmetric.status.{row.cipher}", f"{row.cipher} in this PHP build", row.status)
        )
    return statements


def headlines(context: dict[str, Any]) -> list[Headline]:
    h = context["analysis"].headline
    if h is None:
        return []
    key = h.subject.key
    question = f"OpenSSL over mcrypt, {key.cipher} {key.operation} at {size(key.payload_bytes)} {TIMES_FASTER}"
    return [Headline.of_ratio("symmetric.headline", question, h.ratio)]

"""mcrypt vs OpenSSL and every OpenSSL cipher, from one run: statistics, comparisons, ranking, recommendation."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.policy import SymmetricPolicy, Verdict
from phpcb.data.sampling import UNPAIRED, Pairing
from phpcb.data.schema import declared_measure
from phpcb.presentation.formatting import size
from phpcb.statistics import plausibility
from phpcb.statistics.plausibility import Measured, Plausibility
from phpcb.statistics.stats import Ratio, Summary, key_made_once, per_op_by_case, ratio_between, summarize

CSV = "symmetric.csv"  # the measurements table (data/schema/tables/symmetric.json)

RANKING_PAYLOAD = 204800
KEY_COLUMNS = ("suite", "engine", "provider", "cipher", "mode", "key_bits", "padding", "operation", "payload_bytes")


@dataclass(frozen=True)
class SymKey:
    suite: str
    engine: str
    provider: str
    cipher: str
    mode: str
    key_bits: int
    padding: str
    operation: str
    payload_bytes: int

    @property
    def label(self) -> str:
        return f"mcrypt {self.cipher} {self.mode}" if self.engine == "mcrypt" else f"openssl {self.cipher}"


@dataclass(frozen=True)
class SymCase:
    key: SymKey
    summary: Summary
    per_op_ns: np.ndarray
    faults_per_op: float | None = None  # median minor page faults per operation; None: not counted

    @property
    def measured(self) -> Measured[SymKey]:
        label = f"{self.key.label} ({self.key.key_bits}-bit key) {self.key.operation}, {size(self.key.payload_bytes)}"
        return Measured(self.key, label, self.key.payload_bytes, self.per_op_ns, self.faults_per_op)

    @property
    def mb_per_s(self) -> float:
        bytes_per_op = self.key.payload_bytes * (2 if self.key.operation == "roundtrip" else 1)
        return self.summary.mb_per_s(bytes_per_op)

    @property
    def mb_per_s_ci(self) -> tuple[float, float]:
        bytes_per_op = self.key.payload_bytes * (2 if self.key.operation == "roundtrip" else 1)
        return self.summary.mb_per_s_interval(bytes_per_op)


@dataclass(frozen=True)
class Comparison:
    """ratio = baseline time / subject time: how many times faster the subject is."""

    subject: SymCase
    baseline: SymCase
    ratio: Ratio


# Each status the runner gives a cipher in its inventory (cipher_inventory.csv, runners/src/Symmetric/
# InventoryEntry.php), in words, as the inventory's detail column says it: what a statement's token reads as.
STATUS_WORDS = {
    "ok": "round-trips",
    "roundtrip_failed": "fails its round trip",
    "unsupported": "not offered by this OpenSSL",
    "needs_special_input": "round-trips with special input only",
    "aead_needs_tag": "authenticated: openssl_encrypt needs its tag argument",
}


@dataclass(frozen=True)
class InventoryRow:
    cipher: str
    provider: str
    status: str
    detail: str
    verdict: Verdict
    case: SymCase | None

    @property
    def timed_elsewhere(self) -> bool:
        """Whether its throughput was timed at another payload than the race's."""
        return self.case is not None and self.case.key.payload_bytes != RANKING_PAYLOAD


@dataclass(frozen=True)
class SymmetricAnalysis:
    run: Run
    cases: list[SymCase]
    engines: list[Comparison]
    key_length: list[Comparison]
    blowfish: list[SymCase]
    cfb_modes: list[Comparison]
    inventory: list[InventoryRow]
    ranking: list[InventoryRow]
    cfb1: list[Comparison]
    mcrypt_verdict: Verdict | None
    plausibility: Plausibility[SymKey]
    pairing: Pairing = UNPAIRED  # which cases were sampled in rotation (their ratios are paired)

    @property
    def payloads(self) -> list[int]:
        return sorted({c.key.payload_bytes for c in self.cases if c.key.suite == "aes_cbc"})

    def engine_comparison(self, key_bits: int, operation: str, payload: int) -> Comparison | None:
        for comparison in self.engines:
            k = comparison.subject.key
            if (k.key_bits, k.operation, k.payload_bytes) == (key_bits, operation, payload):
                return comparison
        return None

    @property
    def engine_span(self) -> tuple[Comparison, Comparison] | None:
        """The OpenSSL-over-mcrypt comparisons with the smallest and the largest ratio."""
        if not self.engines:
            return None
        ordered = sorted(self.engines, key=lambda c: c.ratio.value)
        return ordered[0], ordered[-1]

    @property
    def headline(self) -> Comparison | None:
        """OpenSSL over mcrypt, AES-256-CBC decryption at the largest payload."""
        largest = max(self.payloads, default=0)
        return self.engine_comparison(256, "decrypt", largest)

    @property
    def status_counts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for row in self.inventory:
            counts[row.status] += 1
        return dict(sorted(counts.items()))


def case_statistics(rows: list[dict[str, Any]]) -> list[SymCase]:
    def make(*values: Any) -> SymKey:
        return SymKey(**dict(zip(KEY_COLUMNS, values, strict=True)))

    key = key_made_once(KEY_COLUMNS, make)
    measure = declared_measure(CSV)
    faults = plausibility.faults_per_op(rows, key, measure)
    by_case = per_op_by_case(rows, key, measure)
    return [SymCase(k, summarize(values), values, faults[k]) for k, values in by_case.items()]


def checks(cases: list[SymCase], pairing: Pairing) -> Plausibility[SymKey]:
    """Each 256-bit case (AES-CBC in both engines, AES, ARIA and Camellia in the inventory) against its
    128-bit twin: more rounds are never faster."""
    keys = {case.key for case in cases}

    def shorter(key: SymKey) -> SymKey | None:
        name = plausibility.shorter_key_name(key.cipher) if key.engine == "openssl" else key.cipher
        if name is None or key.key_bits != 256:
            return None
        other = replace(key, cipher=name, key_bits=128)
        return other if other in keys else None

    measured = [case.measured for case in cases]
    return Plausibility(plausibility.longer_key(measured, shorter, pairing.together), measured)


def per_byte_ns(case: SymCase) -> np.ndarray:
    """Its times per byte of payload: what compares two ciphers timed at different payloads, where a
    round trip's work grows with its bytes (the quick profile times its bit-serial CFB1 ciphers at
    25 KiB, the race at 200 KiB)."""
    return case.per_op_ns / max(1, case.key.payload_bytes)


def compare(subject: SymCase, baseline: SymCase, pairing: Pairing = UNPAIRED) -> Comparison:
    if subject.key.payload_bytes != baseline.key.payload_bytes:
        # Two payloads were two groups, never sampled in rotation: unpaired, by the time per byte.
        return Comparison(subject, baseline, ratio_between(per_byte_ns(baseline), per_byte_ns(subject), False))
    paired = pairing.together(baseline.key, subject.key)
    return Comparison(subject, baseline, ratio_between(baseline.per_op_ns, subject.per_op_ns, paired))


def engine_comparisons(cases: list[SymCase], pairing: Pairing = UNPAIRED) -> list[Comparison]:
    """OpenSSL aes-N-cbc against mcrypt rijndael-128 with an N-bit key, same operation and payload."""
    mcrypt = {
        (c.key.key_bits, c.key.operation, c.key.payload_bytes): c
        for c in cases
        if c.key.suite == "aes_cbc" and c.key.engine == "mcrypt"
    }
    result = []
    for case in cases:
        k = case.key
        if k.suite == "aes_cbc" and k.engine == "openssl" and (k.key_bits, k.operation, k.payload_bytes) in mcrypt:
            result.append(compare(case, mcrypt[(k.key_bits, k.operation, k.payload_bytes)], pairing))
    return sorted(result, key=lambda c: (c.subject.key.key_bits, c.subject.key.operation, c.subject.key.payload_bytes))


def key_length_comparisons(cases: list[SymCase], pairing: Pairing = UNPAIRED) -> list[Comparison]:
    """AES-128 against AES-256 for each engine, operation and payload: the seed's key-length claim."""
    index = {
        (c.key.engine, c.key.key_bits, c.key.operation, c.key.payload_bytes): c
        for c in cases
        if c.key.suite == "aes_cbc"
    }
    result = []
    for (engine, bits, operation, payload), case in sorted(index.items()):
        longer = index.get((engine, 256, operation, payload))
        if bits == 128 and longer is not None:
            result.append(compare(case, longer, pairing))
    return result


def cfb_mode_comparisons(cases: list[SymCase], pairing: Pairing = UNPAIRED) -> list[Comparison]:
    """mcrypt Blowfish ncfb (full-block CFB) against cfb (8-bit CFB), per operation and payload."""
    index = {
        (c.key.mode, c.key.operation, c.key.payload_bytes): c
        for c in cases
        if c.key.suite == "blowfish" and c.key.engine == "mcrypt"
    }
    return [
        compare(case, index[("cfb", operation, payload)], pairing)
        for (mode, operation, payload), case in sorted(index.items())
        if mode == "ncfb" and ("cfb", operation, payload) in index
    ]


def cfb1_comparisons(ranking: list[InventoryRow], pairing: Pairing = UNPAIRED) -> list[Comparison]:
    """Each *-cfb1 cipher against its full-block *-cfb sibling: what one cipher call per bit costs."""
    by_name = {row.cipher: row.case for row in ranking if row.case is not None}
    result = []
    for name, case in sorted(by_name.items()):
        sibling = by_name.get(name.removesuffix("1")) if name.endswith("-cfb1") else None
        if sibling is not None and case is not None:
            result.append(compare(sibling, case, pairing))
    return result


def timed_inventory(cases: list[SymCase]) -> dict[str, SymCase]:
    """Each inventory cipher's case at the race's payload, else at the one payload it was timed at (the
    quick profile's CFB1 ciphers, at 25 KiB: their 200 KiB round trips were most of its least work)."""
    timed: dict[str, SymCase] = {}
    inventory = (c for c in cases if c.key.suite == "inventory")
    for case in sorted(inventory, key=lambda c: (c.key.payload_bytes == RANKING_PAYLOAD, c.key.payload_bytes)):
        timed[case.key.cipher] = case
    return timed


def inventory_rows(run: Run, cases: list[SymCase], policy: SymmetricPolicy) -> list[InventoryRow]:
    timed = timed_inventory(cases)
    return [
        InventoryRow(
            cipher=str(row["cipher"]),
            provider=str(row["provider"]),
            status=str(row["status"]),
            detail=str(row["detail"]),
            verdict=policy.verdict(str(row["cipher"])),
            case=timed.get(str(row["cipher"])),
        )
        for row in run.tables.get("cipher_inventory.csv", [])
    ]


def _timed(row: InventoryRow) -> SymCase:
    if row.case is None:
        raise ValueError(f"{row.cipher} was not timed")
    return row.case


def analyse(run: Run, policy: SymmetricPolicy) -> SymmetricAnalysis:
    cases = case_statistics(run.tables.get(CSV, []))
    pairing = Pairing.of(run, "symmetric", CSV)
    plausible = checks(cases, pairing)
    # A case that breaks an invariant is shown, marked, and never a finding.
    findable = [case for case in cases if plausible.plausible(case.key)]
    inventory = inventory_rows(run, cases, policy)
    ranking = sorted(
        (row for row in inventory if row.case is not None and plausible.plausible(row.case.key)),
        key=lambda row: _timed(row).summary.median_ns / max(1, _timed(row).key.payload_bytes),
    )
    return SymmetricAnalysis(
        run=run,
        cases=cases,
        engines=engine_comparisons(findable, pairing),
        key_length=key_length_comparisons(findable, pairing),
        blowfish=sorted(
            (c for c in cases if c.key.suite == "blowfish"),
            key=lambda c: (c.key.payload_bytes, c.key.label, c.key.operation),
        ),
        cfb_modes=cfb_mode_comparisons(findable, pairing),
        inventory=inventory,
        ranking=ranking,
        cfb1=cfb1_comparisons(ranking, pairing),
        mcrypt_verdict=policy.engine("mcrypt"),
        plausibility=plausible,
        pairing=pairing,
    )

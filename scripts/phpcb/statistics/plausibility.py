"""What physics allows a measurement to say, checked on every run.

Some pairs of cases must take about the same time, or one must not beat the other: encrypting and
decrypting the same AEAD message do the same work; a CCM tag of 8 bytes instead of 16 changes one
block's handling; AES-256 runs 14 rounds where AES-128 runs 10. A pair that breaks one of these
did not measure the cipher: both of its cases are marked implausible and no page states a finding
from them. Where the run counted page faults (schema version 7 on), the check says whether they
explain it: a call that takes one fault per 4 KiB of output paid the kernel to map fresh memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from phpcb.data.schema import Measure
from phpcb.statistics.stats import Ratio, iterations_of, median_of, ratio_between

PAGE_BYTES = 4096
# Below this, a call's fixed cost (argument checks, a context set up) is a large part of its time,
# and it differs between encryption and decryption: the invariants speak of the cipher's work.
LEAST_PAYLOAD = 16384
# "About the same time": the band a ratio's whole CI must leave for the pair to break the invariant.
SAME_WORK_BAND = 1.25
SAME_ROUNDS_BAND = 1.15
# A call that faulted once per this many bytes of its payload mapped memory for its output.
FAULTS_EXPLAIN_AT = 0.5

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Measured(Generic[K]):
    """One case as the checks see it: its key, payload, per-operation times, and page faults per operation."""

    key: K
    label: str
    payload_bytes: int
    per_op_ns: np.ndarray
    faults_per_op: float | None  # None: the run did not count them


@dataclass(frozen=True)
class Invariant:
    name: str
    statement: str


ENCRYPT_DECRYPT = Invariant(
    "encrypt-decrypt", "encrypting and decrypting one message take about the same time (within 25 %)"
)
TAG_LENGTH = Invariant("tag-length", "a shorter CCM tag changes the time of a message by little (within 15 %)")
KEY_LENGTH = Invariant("key-length", "a 256-bit key is never faster than a 128-bit one with the same cipher and mode")


@dataclass(frozen=True)
class Check(Generic[K]):
    invariant: Invariant
    subject: Measured[K]
    other: Measured[K]
    ratio: Ratio  # the other's time over the subject's: above 1, the subject is faster
    holds: bool

    @property
    def explanation(self) -> str:
        """Why a broken pair broke, as far as the run's page-fault counts tell."""
        a, b = self.subject, self.other
        if a.faults_per_op is None or b.faults_per_op is None:
            return "the run did not count page faults (written before schema version 7): cause not identified"
        pages = max(a.payload_bytes // PAGE_BYTES, 1)
        faulted = [case for case in (a, b) if (case.faults_per_op or 0) >= FAULTS_EXPLAIN_AT * pages]
        if len(faulted) == 1:
            case = faulted[0]
            calm = b if case is a else a
            return (
                f"{case.label} took {case.faults_per_op:,.0f} page faults per call, {calm.label} "
                f"{calm.faults_per_op:,.0f}: PHP mapped fresh memory for each output, "
                "the kernel's cost, not the cipher's"
            )
        return (
            f"page faults per call: {a.faults_per_op:,.0f} and {b.faults_per_op:,.0f}, no difference that explains it: "
            "cause not identified"
        )


@dataclass(frozen=True)
class Plausibility(Generic[K]):
    checks: list[Check[K]]
    cases: list[Measured[K]]  # every case of the run, checked or not

    @property
    def invariants(self) -> list[Invariant]:
        """The invariants checked, in the order they first appear."""
        return list(dict.fromkeys(check.invariant for check in self.checks))

    @property
    def broken(self) -> list[Check[K]]:
        return [check for check in self.checks if not check.holds]

    @property
    def implausible(self) -> set[K]:
        """Both cases of every broken pair: which of the two is wrong, the run cannot say."""
        return {case.key for check in self.broken for case in (check.subject, check.other)}

    def plausible(self, key: K) -> bool:
        return key not in self.implausible

    @property
    def faulting(self) -> list[Measured[K]]:
        """Cases whose every call mapped its output afresh (a fault per 4 KiB or so): their times are in part the
        kernel's."""
        return [case for case in self.cases if maps_its_output(case)]


def maps_its_output(case: Measured[Any]) -> bool:
    """Whether every call of the case paid for fresh memory for its output: a fault per 4 KiB or so."""
    pages = case.payload_bytes // PAGE_BYTES
    return case.faults_per_op is not None and pages > 0 and case.faults_per_op >= FAULTS_EXPLAIN_AT * pages


def faults_per_op(
    rows: Sequence[Mapping[str, Any]], key: Callable[[Mapping[str, Any]], K], measure: Measure
) -> dict[K, float | None]:
    """Each case's median page faults per operation (the table's declared `measure` counts them), or
    None where any sample has no count."""
    per_case: dict[K, list[float | None]] = {}
    for row, operations in zip(rows, iterations_of(rows, measure), strict=True):
        faults = row.get("minor_faults")
        per_case.setdefault(key(row), []).append(None if faults is None else faults / operations)
    return {
        case: None if any(v is None for v in values) else float(median_of(np.asarray(values, dtype=float)))
        for case, values in per_case.items()
    }


def _within(ratio: Ratio, band: float) -> bool:
    """Holds unless the ratio's whole CI lies outside [1/band, band]."""
    return not (ratio.low > band or ratio.high < 1 / band)


def _not_faster(ratio: Ratio) -> bool:
    """`ratio` is the 128-bit case's time over the 256-bit one's: it breaks when the 256-bit case is faster
    beyond its CI and the noise threshold, as any finding of the site must be."""
    return not (ratio.significant and ratio.value > 1)


def _check(
    invariant: Invariant, subject: Measured[K], other: Measured[K], paired: bool, holds: Callable[[Ratio], bool]
) -> Check[K]:
    ratio = ratio_between(other.per_op_ns, subject.per_op_ns, paired)
    return Check(invariant, subject, other, ratio, holds(ratio))


def encrypt_vs_decrypt(
    cases: Sequence[Measured[K]], twin: Callable[[K], K | None], paired: Callable[[K, K], bool]
) -> list[Check[K]]:
    """Each encryption at 16 KiB or more against the decryption `twin(key)` names."""
    index = {case.key: case for case in cases}
    checks = []
    for case in cases:
        other_key = twin(case.key)
        other = index.get(other_key) if other_key is not None else None
        if other is not None and case.payload_bytes >= LEAST_PAYLOAD:
            checks.append(
                _check(ENCRYPT_DECRYPT, case, other, paired(case.key, other.key), lambda r: _within(r, SAME_WORK_BAND))
            )
    return checks


def shorter_tag(
    cases: Sequence[Measured[K]], full_tag: Callable[[K], K | None], paired: Callable[[K, K], bool]
) -> list[Check[K]]:
    """Each short-tag case at 16 KiB or more against the same case with a 16-byte tag."""
    index = {case.key: case for case in cases}
    checks = []
    for case in cases:
        other_key = full_tag(case.key)
        other = index.get(other_key) if other_key is not None else None
        if other is not None and case.payload_bytes >= LEAST_PAYLOAD:
            checks.append(
                _check(TAG_LENGTH, case, other, paired(case.key, other.key), lambda r: _within(r, SAME_ROUNDS_BAND))
            )
    return checks


_KEY_BITS = re.compile(r"^(aes|aria|camellia)-256-(.+)$")


def shorter_key_name(cipher: str) -> str | None:
    """'aes-256-gcm' → 'aes-128-gcm': the same cipher and mode with a 128-bit key (None for others)."""
    match = _KEY_BITS.match(cipher)
    return f"{match.group(1)}-128-{match.group(2)}" if match else None


def longer_key(
    cases: Sequence[Measured[K]], shorter: Callable[[K], K | None], paired: Callable[[K, K], bool]
) -> list[Check[K]]:
    """Each 256-bit case against the same case with a 128-bit key: whatever the size, more rounds are never faster."""
    index = {case.key: case for case in cases}
    checks = []
    for case in cases:
        other_key = shorter(case.key)
        other = index.get(other_key) if other_key is not None else None
        if other is not None:
            checks.append(_check(KEY_LENGTH, case, other, paired(case.key, other.key), _not_faster))
    return checks

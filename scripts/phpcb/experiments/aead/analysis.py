"""AEAD numbers and findings from one run: per-case statistics, GCM vs CCM, fastest safe choice, fidelity,
the harness's overhead and how much of the gap to `openssl speed` PHP's cost per call explains."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.policy import AeadPolicy, Verdict
from phpcb.data.sampling import UNPAIRED, Pairing
from phpcb.data.schema import declared_measure
from phpcb.experiments.aead import native
from phpcb.experiments.aead.per_call import Overhead, PerCallModel, harness_overhead, per_call_models
from phpcb.experiments.aead.stream import StreamComparison, stream_comparisons
from phpcb.presentation.formatting import count_range, size
from phpcb.statistics import plausibility
from phpcb.statistics.contest import Contest, contest
from phpcb.statistics.plausibility import Measured, Plausibility
from phpcb.statistics.rounds import Breakdown, native_tool
from phpcb.statistics.stats import Ratio, Summary, key_made_once, per_op_by_case, ratio_between, summarize

CSV = "aead.csv"  # the measurements table (data/schema/tables/aead.json)

# The headline's payload is the largest measured whose output PHP's allocator serves from a shared 2 MiB
# chunk (two fit in one): a larger output is mapped afresh on some calls or all, and its time is in part
# the kernel's (a page fault per 4 KiB). The seed's 10 MiB is quoted by the ledger, as the article measured.
HEAP_PAYLOAD_LIMIT = 512 * 1024
FIDELITY_BLOCK = 16384
# The two AEADs the page recommends and gives code for, set against each other at every size: ext-openssl's
# AES-256-GCM (the subject) and libsodium's XChaCha20-Poly1305 (the baseline).
RECOMMENDED_PAIR = ("aes-256-gcm", "sodium-xchacha20poly1305-ietf")


@dataclass(frozen=True)
class CaseKey:
    library: str
    algorithm: str
    operation: str
    payload_bytes: int
    aad_bytes: int
    tag_bytes: int
    nonce_bytes: int

    @property
    def variant(self) -> str:
        """The algorithm with its tag length: what a reader picks."""
        return self.algorithm if self.tag_bytes == 16 else f"{self.algorithm} ({self.tag_bytes}-byte tag)"


@dataclass(frozen=True)
class CaseStats:
    key: CaseKey
    summary: Summary
    per_op_ns: np.ndarray
    faults_per_op: float | None = None  # median minor page faults per operation; None: not counted

    @property
    def measured(self) -> Measured[CaseKey]:
        aad = f", AAD {size(self.key.aad_bytes)}" if self.key.aad_bytes else ""
        label = f"{self.key.variant} {self.key.operation}, {size(self.key.payload_bytes)}{aad}"
        return Measured(self.key, label, self.key.payload_bytes, self.per_op_ns, self.faults_per_op)

    @property
    def mb_per_s(self) -> float:
        return self.summary.mb_per_s(self.key.payload_bytes)

    @property
    def mb_per_s_ci(self) -> tuple[float, float]:
        return self.summary.mb_per_s_interval(self.key.payload_bytes)


@dataclass(frozen=True)
class Comparison:
    """`subject` against `baseline` for one operation and payload: ratio = baseline time / subject time,
    so a ratio above 1 means the subject is that many times faster."""

    subject: str
    baseline: str
    operation: str
    payload_bytes: int
    ratio: Ratio


@dataclass(frozen=True)
class Fidelity:
    algorithm: str
    block_bytes: int
    php_mb_per_s: float
    native_mb_per_s: float
    php_mb_per_s_ci: tuple[float, float] = (math.nan, math.nan)

    @property
    def fraction(self) -> float:
        return self.php_mb_per_s / self.native_mb_per_s

    @property
    def fraction_ci(self) -> tuple[float, float]:
        """PHP's CI over the one native figure (that figure's own spread is unknown: one measurement)."""
        low, high = self.php_mb_per_s_ci
        return low / self.native_mb_per_s, high / self.native_mb_per_s


@dataclass(frozen=True)
class Pick:
    """The fastest recommended variant at a payload size, and how it compares with the runner-up."""

    payload_bytes: int
    best: CaseStats
    verdict: Verdict
    runner_up: CaseStats | None
    margin: Ratio | None
    contest: Contest | None = None  # every eligible variant against the best: the tie, if any


@dataclass(frozen=True)
class AeadAnalysis:
    run: Run
    cases: list[CaseStats]
    gcm_vs_ccm: list[Comparison]
    headline: Comparison | None
    picks: list[Pick]
    plausibility: Plausibility[CaseKey]
    fidelity: list[Fidelity]
    verdicts: dict[str, Verdict]
    overhead: list[Overhead]
    per_call: list[PerCallModel]
    # PHP against openssl speed in interleaved rounds (aead_rounds.csv); what a call costs is per_call.
    vs_native: list[Breakdown] = field(default_factory=list)
    native_tool: str = ""
    # Large payloads: secretstream in 64 KiB chunks against one call (aead_stream.csv); none in older runs.
    streams: list[StreamComparison] = field(default_factory=list)
    # AES-256-GCM against XChaCha20-Poly1305 (RECOMMENDED_PAIR) at every payload, encryption then decryption.
    recommended_pair: list[Comparison] = field(default_factory=list)

    def case(self, variant: str, operation: str, payload_bytes: int, aad_bytes: int = 0) -> CaseStats | None:
        for case in self.cases:
            k = case.key
            if (k.variant, k.operation, k.payload_bytes, k.aad_bytes) == (variant, operation, payload_bytes, aad_bytes):
                return case
        return None

    @property
    def variants(self) -> list[str]:
        return list(dict.fromkeys(case.key.variant for case in self.cases))

    @property
    def payloads(self) -> list[int]:
        return sorted({case.key.payload_bytes for case in self.cases})

    @property
    def sample_counts(self) -> str:
        return count_range([case.summary.n for case in self.cases])


def case_statistics(rows: list[dict[str, Any]]) -> list[CaseStats]:
    def make(library: Any, algorithm: Any, operation: Any, payload: Any, aad: Any, tag: Any, nonce: Any) -> CaseKey:
        return CaseKey(
            library=str(library),
            algorithm=str(algorithm),
            operation=str(operation),
            payload_bytes=int(payload),
            aad_bytes=int(aad),
            tag_bytes=int(tag),
            nonce_bytes=int(nonce),
        )

    key = key_made_once(
        ("library", "algorithm", "operation", "payload_bytes", "aad_bytes", "tag_bytes", "nonce_bytes"), make
    )
    measure = declared_measure(CSV)
    faults = plausibility.faults_per_op(rows, key, measure)
    by_case = per_op_by_case(rows, key, measure)
    return [CaseStats(k, summarize(values), values, faults[k]) for k, values in by_case.items()]


def _compare(subject: CaseStats, baseline: CaseStats, pairing: Pairing) -> Comparison:
    return Comparison(
        subject=subject.key.variant,
        baseline=baseline.key.variant,
        operation=subject.key.operation,
        payload_bytes=subject.key.payload_bytes,
        ratio=ratio_between(baseline.per_op_ns, subject.per_op_ns, pairing.together(baseline.key, subject.key)),
    )


def gcm_vs_ccm(analysis_cases: list[CaseStats], pairing: Pairing = UNPAIRED) -> list[Comparison]:
    """aes-N-gcm against aes-N-ccm (16-byte tags, no AAD) at every payload and operation."""
    index = {(c.key.variant, c.key.operation, c.key.payload_bytes, c.key.aad_bytes): c for c in analysis_cases}
    comparisons = []
    for bits in (256, 128):
        for operation in ("encrypt", "decrypt"):
            for payload in sorted({c.key.payload_bytes for c in analysis_cases}):
                gcm = index.get((f"aes-{bits}-gcm", operation, payload, 0))
                ccm = index.get((f"aes-{bits}-ccm", operation, payload, 0))
                if gcm is not None and ccm is not None:
                    comparisons.append(_compare(gcm, ccm, pairing))
    return comparisons


def recommended_pair(
    analysis_cases: list[CaseStats], pair: tuple[str, str] = RECOMMENDED_PAIR, pairing: Pairing = UNPAIRED
) -> list[Comparison]:
    """The page's two recommended AEADs against each other (16-byte tags, no AAD), at every payload both
    have, encryption before decryption."""
    index = {(c.key.variant, c.key.operation, c.key.payload_bytes, c.key.aad_bytes): c for c in analysis_cases}
    subject, baseline = pair
    comparisons = []
    for payload in sorted({c.key.payload_bytes for c in analysis_cases}):
        for operation in ("encrypt", "decrypt"):
            mine, theirs = index.get((subject, operation, payload, 0)), index.get((baseline, operation, payload, 0))
            if mine is not None and theirs is not None:
                comparisons.append(_compare(mine, theirs, pairing))
    return comparisons


def fastest_recommended(
    cases: list[CaseStats], verdicts: dict[str, Verdict], pairing: Pairing = UNPAIRED
) -> list[Pick]:
    picks = []
    for payload in sorted({c.key.payload_bytes for c in cases}):
        eligible = sorted(
            (
                c
                for c in cases
                if c.key.payload_bytes == payload
                and c.key.operation == "encrypt"
                and c.key.aad_bytes == 0
                and verdicts[c.key.variant].recommendable
            ),
            key=lambda c: c.summary.median_ns,
        )
        if not eligible:
            continue
        best = eligible[0]
        runner_up = eligible[1] if len(eligible) > 1 else None
        margin = (
            ratio_between(runner_up.per_op_ns, best.per_op_ns, pairing.together(runner_up.key, best.key))
            if runner_up
            else None
        )
        found = contest(
            [(c.key.variant, c.per_op_ns) for c in eligible], [pairing.together(c.key, best.key) for c in eligible[1:]]
        )
        picks.append(Pick(payload, best, verdicts[best.key.variant], runner_up, margin, found))
    return picks


def php_vs_native(cases: list[CaseStats], native_rows: list[dict[str, Any]]) -> list[Fidelity]:
    result = []
    for row in native_rows:
        algorithm, block = str(row["algorithm"]), int(row["block_bytes"])
        php = next(
            (
                c
                for c in cases
                if c.key.algorithm == algorithm
                and c.key.tag_bytes == 16
                and c.key.operation == "encrypt"
                and c.key.payload_bytes == block
                and c.key.aad_bytes == 0
            ),
            None,
        )
        if php is not None:
            result.append(
                Fidelity(algorithm, block, php.mb_per_s, float(row["bytes_per_second"]) / 1e6, php.mb_per_s_ci)
            )
    return result


def checks(cases: list[CaseStats], pairing: Pairing) -> Plausibility[CaseKey]:
    """Encryption against decryption, short CCM tags against 16 bytes, AES-256 against AES-128."""
    measured = [case.measured for case in cases]
    keys = {case.key for case in cases}

    def twin(key: CaseKey) -> CaseKey | None:
        return replace(key, operation="decrypt") if key.operation == "encrypt" else None

    def full_tag(key: CaseKey) -> CaseKey | None:
        return replace(key, tag_bytes=16) if key.tag_bytes != 16 else None

    def shorter(key: CaseKey) -> CaseKey | None:
        name = plausibility.shorter_key_name(key.algorithm)
        other = replace(key, algorithm=name) if name is not None else None
        return other if other in keys else None

    return Plausibility(
        plausibility.encrypt_vs_decrypt(measured, twin, pairing.together)
        + plausibility.shorter_tag(measured, full_tag, pairing.together)
        + plausibility.longer_key(measured, shorter, pairing.together),
        measured,
    )


def headline_of(comparisons: list[Comparison], cases: list[CaseStats]) -> Comparison | None:
    """AES-256 encryption, GCM over CCM, at the largest payload PHP serves from its heap, neither case
    implausible (`comparisons` hold only plausible cases) nor mapping its output afresh on every call."""
    mapping = {(c.key.variant, c.key.payload_bytes) for c in cases if plausibility.maps_its_output(c.measured)}
    candidates = [
        c
        for c in comparisons
        if c.subject == "aes-256-gcm"
        and c.operation == "encrypt"
        and c.payload_bytes <= HEAP_PAYLOAD_LIMIT
        and not {(c.subject, c.payload_bytes), (c.baseline, c.payload_bytes)} & mapping
    ]
    return max(candidates, key=lambda c: c.payload_bytes, default=None)


def analyse(run: Run, policy: AeadPolicy) -> AeadAnalysis:
    cases = case_statistics(run.tables.get(CSV, []))
    verdicts = {case.key.variant: policy.verdict(case.key.algorithm, case.key.tag_bytes) for case in cases}
    pairing = Pairing.of(run, "aead", "aead.csv")
    plausible = checks(cases, pairing)
    # A case that breaks an invariant is shown, marked, and never a finding.
    findable = [case for case in cases if plausible.plausible(case.key)]
    comparisons = gcm_vs_ccm(findable, pairing)
    rounds = native.from_tables(run.tables.get(native.ROUNDS_CSV, []), run.tables.get(native.NATIVE_CSV, []))
    return AeadAnalysis(
        run=run,
        cases=cases,
        gcm_vs_ccm=comparisons,
        headline=headline_of(comparisons, cases),
        picks=fastest_recommended(findable, verdicts, pairing),
        plausibility=plausible,
        fidelity=php_vs_native(cases, native.native_figures(run.tables, rounds)),
        verdicts=verdicts,
        overhead=harness_overhead(run),
        per_call=per_call_models(
            {(c.key.algorithm, c.key.payload_bytes): c.per_op_ns for c in cases if _per_call_case(c)},
            native.native_figures(run.tables, rounds),
        ),
        vs_native=[Breakdown(c, None) for c in rounds],
        native_tool=native_tool(run.tables.get(native.NATIVE_CSV, [])),
        streams=stream_comparisons(run),
        recommended_pair=recommended_pair(findable, pairing=pairing),
    )


def _per_call_case(case: CaseStats) -> bool:
    """What the per-call model reads: encryption with a 16-byte tag and no AAD, as `openssl speed` times it."""
    return case.key.operation == "encrypt" and case.key.tag_bytes == 16 and case.key.aad_bytes == 0

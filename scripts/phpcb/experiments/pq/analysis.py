"""Post-quantum signatures from one run: each algorithm's key loading, signing and verification times, its
sizes, ML-DSA against the classical keys at the same operation and payload (sampled in rotation), PHP's
ML-DSA against `openssl speed` and ML-KEM's native figures (interleaved rounds), and what the runner
verified and observed before timing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.policy import Verdict
from phpcb.data.sampling import UNPAIRED, Pairing
from phpcb.data.schema import declared_measure
from phpcb.experiments.pq.policy import PqPolicy
from phpcb.statistics.rounds import (
    Breakdown,
    NativeKey,
    Series,
    compare_rounds,
    native_commands,
    native_series,
    native_tool,
)
from phpcb.statistics.stats import Ratio, Summary, per_op_by_case, ratio_between, summarize

EXPERIMENT = "pq"
CSV = "pq.csv"
KEYS_CSV = "pq_keys.csv"
TOKENS_CSV = "pq_tokens.csv"
ROUNDS_CSV = "pq_rounds.csv"
NATIVE_CSV = "pq_native.csv"
POST_QUANTUM = "ml-dsa"  # the family of ML-DSA's parameter sets in pq_keys.csv
HEADLINE_PAYLOAD = 100  # the JWT page's: the seed's 100-character payload
SIGNATURE_OPERATIONS = ("sign", "verify")
LOADS = ("load_private", "load_public")
KEM_OPERATIONS = ("keygen", "encaps", "decaps")


@dataclass(frozen=True)
class Case:
    algorithm: str
    operation: str
    payload_chars: int
    summary: Summary
    per_op_ns: np.ndarray


@dataclass(frozen=True)
class Algorithm:
    """One algorithm of the run: its key and sizes (pq_keys.csv), its tokens, its timed cases, its verdict."""

    name: str
    family: str
    jose_alg: str
    security_bits: int
    nist_category: int | None
    public_key_bytes: int
    spki_bytes: int
    private_pem_bytes: int
    signature_bytes: int
    jwk_bytes: int
    tokens: dict[int, int]  # payload characters -> token bytes
    cases: dict[tuple[str, int], Case]
    verdict: Verdict

    @property
    def post_quantum(self) -> bool:
        return self.family == POST_QUANTUM

    def case(self, operation: str, payload: int = 0) -> Case | None:
        return self.cases.get((operation, payload))

    def token_bytes(self, payload: int) -> int | None:
        return self.tokens.get(payload)

    @property
    def smallest_token(self) -> tuple[int, int] | None:
        """The payload and size of this algorithm's smallest token."""
        return min(self.tokens.items(), key=lambda item: item[1], default=None)


@dataclass(frozen=True)
class Versus:
    """An ML-DSA parameter set against a classical algorithm at one operation and payload: `ratio` is the
    classical time over ML-DSA's (above 1: ML-DSA is the faster), paired where sampled in rotation."""

    subject: str
    baseline: str
    operation: str
    payload_chars: int
    same_strength: bool
    ratio: Ratio


@dataclass(frozen=True)
class KemFigure:
    """ML-KEM natively (`openssl speed`), one operation of one parameter set over the rounds."""

    parameter_set: str
    operation: str
    series: Series


@dataclass(frozen=True)
class VectorFile:
    """One Wycheproof file through openssl_verify(): the manifest's report and its outcomes."""

    source: str
    algorithm: str
    passed: int
    skipped: int
    skip_reasons: dict[str, int]
    outcomes: dict[str, int]

    @property
    def total(self) -> int:
        return self.passed + self.skipped


@dataclass(frozen=True)
class PqAnalysis:
    run: Run
    algorithms: list[Algorithm]
    payloads: list[int]
    limits: dict[str, int]
    versus: list[Versus] = field(default_factory=list)
    vs_native: list[Breakdown] = field(default_factory=list)
    kem: list[KemFigure] = field(default_factory=list)
    native_tool: str = ""
    native_commands: list[str] = field(default_factory=list)
    vectors: list[VectorFile] = field(default_factory=list)
    verification: Mapping[str, Any] = field(default_factory=dict)
    pairing: Pairing = UNPAIRED

    def find(self, name: str) -> Algorithm | None:
        return next((a for a in self.algorithms if a.name == name), None)

    @property
    def post_quantum(self) -> list[Algorithm]:
        return [a for a in self.algorithms if a.post_quantum]

    @property
    def classical(self) -> list[Algorithm]:
        return [a for a in self.algorithms if not a.post_quantum]

    @property
    def headline_payload(self) -> int:
        return HEADLINE_PAYLOAD if HEADLINE_PAYLOAD in self.payloads else (self.payloads[0] if self.payloads else 0)

    @property
    def observed(self) -> dict[str, Any]:
        return dict(self.verification.get("observed") or {})

    def checked(self, name: str) -> list[str]:
        """One list of what the runner checked before timing (known_answers, round_trips, refused); empty
        where the run recorded none."""
        return [str(line) for line in self.verification.get(name) or []]

    def against(self, subject: str, operation: str) -> list[Versus]:
        return [v for v in self.versus if v.subject == subject and v.operation == operation]

    def over(self, limit: str) -> list[tuple[Algorithm, int, int]]:
        """(algorithm, payload, token bytes) of every token larger than the limit (cookie_bytes, header_bytes)."""
        bound = self.limits[limit]
        return [(a, p, size) for a in self.algorithms for p, size in sorted(a.tokens.items()) if size > bound]

    @property
    def skip_reasons(self) -> dict[str, int]:
        """Why vectors were not run, over every file, with how many."""
        found: dict[str, int] = {}
        for file in self.vectors:
            for reason, count in file.skip_reasons.items():
                found[reason] = found.get(reason, 0) + count
        return found

    @property
    def strengths(self) -> list[int]:
        return sorted({a.security_bits for a in self.algorithms})


def _cases(rows: list[Mapping[str, Any]]) -> dict[str, dict[tuple[str, int], Case]]:
    grouped = per_op_by_case(
        rows, lambda r: (str(r["algorithm"]), str(r["operation"]), int(r["payload_chars"])), declared_measure(CSV)
    )
    found: dict[str, dict[tuple[str, int], Case]] = {}
    for (algorithm, operation, payload), values in grouped.items():
        found.setdefault(algorithm, {})[(operation, payload)] = Case(
            algorithm, operation, payload, summarize(values), values
        )
    return found


def _optional_int(value: Any) -> int | None:
    return None if value is None or value == "" else int(value)


def algorithms(run: Run, policy: PqPolicy) -> list[Algorithm]:
    """The run's algorithms in the order it measured them: ML-DSA's parameter sets, then the classical keys."""
    cases = _cases(list(run.tables.get(CSV, [])))
    tokens: dict[str, dict[int, int]] = {}
    for row in run.tables.get(TOKENS_CSV, []):
        tokens.setdefault(str(row["algorithm"]), {})[int(row["payload_chars"])] = int(row["token_bytes"])
    found = []
    for row in run.tables.get(KEYS_CSV, []):
        name, family = str(row["algorithm"]), str(row["family"])
        found.append(
            Algorithm(
                name=name,
                family=family,
                jose_alg=str(row["jose_alg"]),
                security_bits=int(row["security_bits"]),
                nist_category=_optional_int(row["nist_category"]),
                public_key_bytes=int(row["public_key_bytes"]),
                spki_bytes=int(row["spki_bytes"]),
                private_pem_bytes=int(row["private_pem_bytes"]),
                signature_bytes=int(row["signature_bytes"]),
                jwk_bytes=int(row["jwk_bytes"]),
                tokens=dict(sorted(tokens.get(name, {}).items())),
                cases=cases.get(name, {}),
                verdict=policy.verdict(name, family == POST_QUANTUM, str(row["jose_alg"])),
            )
        )
    return found


def versus(found: list[Algorithm], payload: int, pairing: Pairing) -> list[Versus]:
    """Every ML-DSA parameter set against every classical algorithm, signing and verifying at `payload`."""
    comparisons = []
    for pq in (a for a in found if a.post_quantum):
        for classical in (a for a in found if not a.post_quantum):
            for operation in SIGNATURE_OPERATIONS:
                mine, theirs = pq.case(operation, payload), classical.case(operation, payload)
                if mine is None or theirs is None:
                    continue
                paired = pairing.together(mine, theirs)
                comparisons.append(
                    Versus(
                        pq.name,
                        classical.name,
                        operation,
                        payload,
                        pq.security_bits == classical.security_bits,
                        ratio_between(theirs.per_op_ns, mine.per_op_ns, paired),
                    )
                )
    return comparisons


def kem_figures(rows: list[Mapping[str, Any]]) -> list[KemFigure]:
    found = []
    for key, series in native_series(rows).items():
        if key.primitive.startswith("ML-KEM-") and key.operation in KEM_OPERATIONS:
            found.append(KemFigure(key.primitive, key.operation, series))
    order = {operation: index for index, operation in enumerate(KEM_OPERATIONS)}
    return sorted(found, key=lambda k: (int(k.parameter_set.rsplit("-", 1)[1]), order[k.operation]))


def vector_files(verification: Mapping[str, Any]) -> list[VectorFile]:
    outcomes = verification.get("vector_outcomes") or {}
    return [
        VectorFile(
            source=str(report["source"]),
            algorithm=str(report["algorithm"]),
            passed=int(report["passed"]),
            skipped=int(report["skipped"]),
            skip_reasons={str(k): int(v) for k, v in (report.get("skip_reasons") or {}).items()},
            outcomes={str(k): int(v) for k, v in (outcomes.get(report["source"]) or {}).items()},
        )
        for report in verification.get("vectors") or []
    ]


def analyse(run: Run, policy: PqPolicy) -> PqAnalysis:
    found = algorithms(run, policy)
    pairing = Pairing.of(run, EXPERIMENT, CSV)
    payloads = sorted({c.payload_chars for a in found for c in a.cases.values() if c.operation in SIGNATURE_OPERATIONS})
    native_rows = list(run.tables.get(NATIVE_CSV, []))
    comparisons = compare_rounds(
        run.tables.get(ROUNDS_CSV, []),
        declared_measure(ROUNDS_CSV),
        native_rows,
        lambda r: (str(r["algorithm"]), str(r["operation"])),
        lambda r: NativeKey(str(r["native"]), str(r["operation"]), 0),
        lambda case: f"{case[0]} {case[1]}",
    )
    verification = (run.experiment(EXPERIMENT) or {}).get("verification") or {}
    result = PqAnalysis(
        run=run,
        algorithms=found,
        payloads=payloads,
        limits=policy.limit_bytes,
        vs_native=[Breakdown(comparison, None) for comparison in comparisons],
        kem=kem_figures(native_rows),
        native_tool=native_tool(native_rows),
        native_commands=native_commands(native_rows),
        vectors=vector_files(verification),
        verification=verification,
        pairing=pairing,
    )
    return replace(result, versus=versus(found, result.headline_payload, pairing))

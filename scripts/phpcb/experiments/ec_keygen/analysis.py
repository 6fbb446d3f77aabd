"""Key generation per curve, from one run: statistics, the article's ratio, brackets, equal security, advice."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.policy import KeySchemePolicy, Verdict
from phpcb.data.reference import ReferenceData
from phpcb.data.sampling import UNPAIRED, Pairing
from phpcb.data.schema import declared_measure
from phpcb.experiments.ec_keygen import paper
from phpcb.statistics.contest import Contest, contest
from phpcb.statistics.stats import (
    Estimate,
    Ratio,
    Summary,
    iterations_of,
    key_made_once,
    mean_of_medians,
    per_op_by_case,
    ratio_between,
    ratio_of_mean_medians,
    summarize,
)

CSV = "ec_keygen.csv"  # the measurements table (data/schema/tables/ec_keygen.json)

OPERATIONS = ("keygen", "sign", "verify", "derive")
LEVELS = (112, 128, 192, 256)
PURPOSES = {"signatures": "sign", "key agreement": "derive"}
DESCRIBE = ("interface", "curve", "family", "organization", "field_bits", "key_bits", "security_bits")
# The article's six groups; the others (wap, oakley, sm2) it did not measure.
PAPER_FAMILIES = ("brainpool", "prime", "c2pnb", "c2tnb", "secp", "sect")
SLOPE_MIN_SIZES = 3
# P-256 and the larger NIST prime curves a reader weighs against it (JOSE's ES256, ES384, ES512), by the
# names OpenSSL lists and NIST's.
P256 = "prime256v1"
NIST_NAMES = {"prime256v1": "P-256", "secp384r1": "P-384", "secp521r1": "P-521"}
# What each is set against P-256 for: the two signature operations first, then ECDH and key generation.
AGAINST_P256_OPERATIONS = ("sign", "verify", "derive", "keygen")


@dataclass(frozen=True)
class Scheme:
    interface: str
    curve: str
    family: str
    organization: str
    field_bits: int
    key_bits: int
    security_bits: int

    @property
    def is_curve(self) -> bool:
        """A named OpenSSL curve (what the article measured), not RSA or sodium's Curve25519."""
        return self.interface == "openssl" and self.family != "rsa"


@dataclass(frozen=True)
class Operation:
    summary: Summary
    per_op_ns: np.ndarray

    @property
    def operations_timed(self) -> int:
        return int(self.per_op_ns.size)


@dataclass(frozen=True)
class SchemeResult:
    scheme: Scheme
    verdict: Verdict
    operations: dict[str, Operation]
    keys_generated: int

    @property
    def keygen(self) -> Operation:
        return self.operations["keygen"]

    @property
    def ratio_percent(self) -> float:
        return paper.ratio_percent(self.keygen.summary.median_ns / 1e6, self.scheme.field_bits)

    @property
    def ratio_ci(self) -> tuple[float, float]:
        s = self.keygen.summary
        bits = self.scheme.field_bits
        return paper.ratio_percent(s.ci_low_ns / 1e6, bits), paper.ratio_percent(s.ci_high_ns / 1e6, bits)

    def median_ns(self, operation: str) -> float | None:
        found = self.operations.get(operation)
        return found.summary.median_ns if found else None


@dataclass(frozen=True)
class Comparison:
    """ratio = slower time / faster time: how many times faster `faster` is."""

    faster: SchemeResult
    slower: SchemeResult
    ratio: Ratio


@dataclass(frozen=True)
class AgainstP256:
    """A larger NIST prime curve (P-384, P-521) against P-256 at one operation: ratio = P-256's time over
    the curve's (below 1: P-256 is the faster), paired where the two were sampled in rotation."""

    curve: SchemeResult
    p256: SchemeResult
    operation: str
    ratio: Ratio

    @property
    def name(self) -> str:
        return NIST_NAMES[self.curve.scheme.curve]


@dataclass(frozen=True)
class FamilyRow:
    family: str
    curves: list[SchemeResult]
    average: Estimate
    paper_average: float | None
    slope: float | None


@dataclass(frozen=True)
class BracketRow:
    bracket: paper.Bracket
    paper_curves: list[str]
    by_ratio: SchemeResult | None
    by_time: SchemeResult | None
    time_margin: Comparison | None
    recommended: SchemeResult | None
    contest: Contest | None = None  # every curve of the bracket against the fastest: the tie, if any


@dataclass(frozen=True)
class LevelRow:
    """Table 1 recomputed: key sizes at one strength, and what generating those keys costs today.

    `ecc` is the fastest elliptic-curve scheme of exactly this strength that the policy recommends
    (sodium's Ed25519 and X25519 included); `fastest` is the fastest of any verdict, when it is another.
    """

    security_bits: int
    reference: dict[str, Any]
    key_length_ratio: float
    ecc: SchemeResult | None
    fastest: SchemeResult | None
    rsa: SchemeResult | None
    rsa_over_ecc: Comparison | None


@dataclass(frozen=True)
class Recommendation:
    security_bits: int
    purpose: str
    choice: SchemeResult | None
    margin: Comparison | None
    contest: Contest | None = None  # every allowed scheme against the fastest: the tie, if any


@dataclass(frozen=True)
class CurveRow:
    curve: str
    family: str
    field_bits: int
    key_bits: int
    security_bits: int
    status: str
    operations: str
    detail: str
    verdict: Verdict


@dataclass(frozen=True)
class EcAnalysis:
    run: Run
    results: list[SchemeResult]
    families: list[FamilyRow]
    brackets: list[BracketRow]
    levels: list[LevelRow]
    recommendations: list[Recommendation]
    inventory: list[CurveRow]
    # The article's families in this run's order, and each one's average time per bit over the one
    # before it (above 1: slower), for an order that states which neighbours no measurement separates.
    paper_family_steps: list[tuple[str, Ratio | None]] = field(default_factory=list)
    # P-384 and P-521 against P-256, per operation both measured (AGAINST_P256_OPERATIONS' order).
    against_p256: list[AgainstP256] = field(default_factory=list)

    def p256_comparisons(self, curve: str) -> dict[str, AgainstP256]:
        """`curve` (secp384r1, secp521r1) against P-256, by operation."""
        return {a.operation: a for a in self.against_p256 if a.curve.scheme.curve == curve}

    @property
    def paper_family_groups(self) -> list[list[str]]:
        groups: list[list[str]] = []
        for family, step in self.paper_family_steps:
            if groups and step is not None and not step.significant:
                groups[-1].append(family)
            else:
                groups.append([family])
        return groups

    @property
    def curves(self) -> list[SchemeResult]:
        return [r for r in self.results if r.scheme.is_curve]

    def find(self, name: str) -> SchemeResult | None:
        return next((r for r in self.results if r.scheme.curve == name), None)

    @property
    def status_counts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for row in self.inventory:
            counts[row.status] += 1
        return dict(sorted(counts.items()))

    @property
    def fastest_curve(self) -> SchemeResult | None:
        return min(self.curves, key=lambda r: (r.keygen.summary.median_ns, r.scheme.curve), default=None)


def _scheme_of_rows() -> Callable[[Mapping[str, Any]], Scheme]:
    """A row's Scheme, made once per curve: a full run has a hundred thousand rows and a hundred curves."""
    return key_made_once(DESCRIBE, lambda *values: Scheme(**dict(zip(DESCRIBE, values, strict=True))))


def scheme_results(rows: list[dict[str, Any]], policy: KeySchemePolicy) -> list[SchemeResult]:
    scheme = _scheme_of_rows()
    measure = declared_measure(CSV)
    by_case = per_op_by_case(rows, lambda row: (scheme(row), str(row["operation"])), measure)
    keys: dict[Scheme, int] = defaultdict(int)
    for row, operations in zip(rows, iterations_of(rows, measure), strict=True):
        if row["operation"] == "keygen":
            keys[scheme(row)] += int(operations)
    grouped: dict[Scheme, dict[str, Operation]] = defaultdict(dict)
    for (scheme, operation), values in by_case.items():
        grouped[scheme][operation] = Operation(summarize(values), values)
    return [
        SchemeResult(scheme, policy.verdict(scheme.curve, scheme.family, scheme.security_bits), ops, keys[scheme])
        for scheme, ops in grouped.items()
        if "keygen" in ops
    ]


def faster_of(a: SchemeResult, b: SchemeResult, operation: str = "keygen", pairing: Pairing = UNPAIRED) -> Comparison:
    keys = [{**asdict(result.scheme), "operation": operation} for result in (a, b)]
    paired = pairing.together(*keys)
    ratio = ratio_between(b.operations[operation].per_op_ns, a.operations[operation].per_op_ns, paired)
    return Comparison(a, b, ratio)


def contest_of(ranked: list[SchemeResult], operation: str = "keygen", pairing: Pairing = UNPAIRED) -> Contest | None:
    """The fastest of `ranked` (fastest first) against each of the others."""
    if not ranked:
        return None

    def key(result: SchemeResult) -> dict[str, Any]:
        return {**asdict(result.scheme), "operation": operation}

    return contest(
        [(r.scheme.curve, r.operations[operation].per_op_ns) for r in ranked],
        [pairing.together(key(r), key(ranked[0])) for r in ranked[1:]],
    )


def against_p256(results: list[SchemeResult], pairing: Pairing = UNPAIRED) -> list[AgainstP256]:
    """P-384 and P-521 against P-256 at each operation both have, P-384 first."""
    p256 = next((r for r in results if r.scheme.curve == P256), None)
    if p256 is None:
        return []
    found = []
    for name in NIST_NAMES:
        curve = next((r for r in results if r.scheme.curve == name), None)
        if curve is None or curve is p256:
            continue
        for operation in AGAINST_P256_OPERATIONS:
            if operation not in curve.operations or operation not in p256.operations:
                continue
            keys = [{**asdict(result.scheme), "operation": operation} for result in (p256, curve)]
            ratio = ratio_between(
                p256.operations[operation].per_op_ns, curve.operations[operation].per_op_ns, pairing.together(*keys)
            )
            found.append(AgainstP256(curve, p256, operation, ratio))
    return found


def paper_family_steps(families: list[FamilyRow]) -> list[tuple[str, Ratio | None]]:
    """The article's families in order, each with its average time per bit over the previous one's."""
    kept = [row for row in families if row.paper_average is not None]
    steps: list[tuple[str, Ratio | None]] = []
    for previous, row in zip([None, *kept], kept, strict=False):
        if previous is None:
            steps.append((row.family, None))
            continue
        weights = [[1e-4 / m.scheme.field_bits for m in r.curves] for r in (row, previous)]
        step = ratio_of_mean_medians(
            [m.keygen.per_op_ns for m in row.curves],
            weights[0],
            [m.keygen.per_op_ns for m in previous.curves],
            weights[1],
        )
        steps.append((row.family, step))
    return steps


def by_time(results: list[SchemeResult], operation: str = "keygen") -> list[SchemeResult]:
    timed = [r for r in results if operation in r.operations]
    return sorted(timed, key=lambda r: (r.operations[operation].summary.median_ns, r.scheme.curve))


def keygen_slope(curves: list[SchemeResult]) -> float | None:
    """k in time ∝ bits^k, fitted on log-log axes: the article's per-bit ratio is fair only if k = 1."""
    sizes = {r.scheme.field_bits for r in curves}
    if len(sizes) < SLOPE_MIN_SIZES:
        return None
    x = np.log([r.scheme.field_bits for r in curves])
    y = np.log([r.keygen.summary.median_ns for r in curves])
    return float(np.polyfit(x, y, 1)[0])


def family_rows(curves: list[SchemeResult], reference: ReferenceData) -> list[FamilyRow]:
    paper_averages = {row["family"]: float(row["ratio_percent"]) for row in reference.rows("group_average_ratio")}
    by_family: dict[str, list[SchemeResult]] = defaultdict(list)
    for result in curves:
        by_family[result.scheme.family].append(result)
    rows = []
    for family, members in by_family.items():
        members.sort(key=lambda r: (r.scheme.field_bits, r.scheme.curve))
        # ratio % = median ns / 1e6 / bits * 100, so each group's weight is 1e-4 / bits.
        average = mean_of_medians([m.keygen.per_op_ns for m in members], [1e-4 / m.scheme.field_bits for m in members])
        rows.append(FamilyRow(family, members, average, paper_averages.get(family), keygen_slope(members)))
    return sorted(rows, key=lambda row: (row.average.value, row.family))


def bracket_rows(curves: list[SchemeResult], reference: ReferenceData, pairing: Pairing = UNPAIRED) -> list[BracketRow]:
    paper_rows = {row["bracket"].replace("-", "–"): row["curves"] for row in reference.rows("best_per_bracket")}
    rows = []
    for bracket in paper.BRACKETS:
        inside = [r for r in curves if bracket.contains(r.scheme.field_bits)]
        ranked = by_time(inside)
        by_ratio = paper.best_in_bracket(inside, bracket, lambda r: r.scheme.field_bits, lambda r: r.ratio_percent)
        allowed = [r for r in ranked if r.verdict.recommendable]
        rows.append(
            BracketRow(
                bracket=bracket,
                paper_curves=list(paper_rows.get(bracket.label, [])),
                by_ratio=by_ratio[0] if by_ratio else None,
                by_time=ranked[0] if ranked else None,
                time_margin=faster_of(ranked[0], ranked[1], pairing=pairing) if len(ranked) > 1 else None,
                recommended=allowed[0] if allowed else None,
                contest=contest_of(ranked, pairing=pairing),
            )
        )
    return rows


def level_rows(results: list[SchemeResult], reference: ReferenceData, pairing: Pairing = UNPAIRED) -> list[LevelRow]:
    rows = []
    for ref in reference.rows("nist_key_lengths"):
        level = int(ref["security_bits"])
        ecc_any = by_time([r for r in results if r.scheme.family != "rsa" and r.scheme.security_bits == level])
        ecc = [r for r in ecc_any if r.verdict.recommendable]
        rsa = by_time([r for r in results if r.scheme.family == "rsa" and r.scheme.security_bits == level])
        against_rsa = ecc[0] if ecc else (ecc_any[0] if ecc_any else None)
        rows.append(
            LevelRow(
                security_bits=level,
                reference=ref,
                key_length_ratio=paper.key_length_ratio(int(ref["rsa_bits"]), int(ref["ecc_min_bits"])),
                ecc=ecc[0] if ecc else None,
                fastest=ecc_any[0] if ecc_any and (not ecc or ecc_any[0] is not ecc[0]) else None,
                rsa=rsa[0] if rsa else None,
                rsa_over_ecc=faster_of(against_rsa, rsa[0], pairing=pairing) if against_rsa and rsa else None,
            )
        )
    return rows


def recommendations(results: list[SchemeResult], pairing: Pairing = UNPAIRED) -> list[Recommendation]:
    """Per strength and purpose: the fastest key generation among the schemes the policy recommends."""
    rows = []
    for level in LEVELS:
        for purpose, operation in PURPOSES.items():
            allowed = by_time(
                [
                    r
                    for r in results
                    if r.verdict.recommendable and r.scheme.security_bits >= level and operation in r.operations
                ]
            )
            margin = faster_of(allowed[0], allowed[1], pairing=pairing) if len(allowed) > 1 else None
            found = contest_of(allowed, pairing=pairing)
            rows.append(Recommendation(level, purpose, allowed[0] if allowed else None, margin, found))
    return rows


def inventory_rows(run: Run, policy: KeySchemePolicy) -> list[CurveRow]:
    return [
        CurveRow(
            curve=str(row["curve"]),
            family=str(row["family"]),
            field_bits=int(row["field_bits"]),
            key_bits=int(row["key_bits"]),
            security_bits=int(row["security_bits"]),
            status=str(row["status"]),
            operations=str(row["operations"]),
            detail=str(row["detail"]),
            verdict=policy.verdict(str(row["curve"]), str(row["family"]), int(row["security_bits"])),
        )
        for row in run.tables.get("ec_curves.csv", [])
    ]


def analyse(run: Run, policy: KeySchemePolicy, reference: ReferenceData) -> EcAnalysis:
    results = scheme_results(run.tables.get(CSV, []), policy)
    results.sort(key=lambda r: (not r.scheme.is_curve, r.scheme.family, r.scheme.field_bits, r.scheme.curve))
    curves = [r for r in results if r.scheme.is_curve]
    pairing = Pairing.of(run, "ec_keygen", CSV)
    families = family_rows(curves, reference)
    return EcAnalysis(
        run=run,
        results=results,
        families=families,
        brackets=bracket_rows(curves, reference, pairing),
        levels=level_rows(results, reference, pairing),
        recommendations=recommendations(results, pairing),
        inventory=inventory_rows(run, policy),
        paper_family_steps=paper_family_steps(families),
        against_p256=against_p256(results, pairing),
    )

"""What the ec_keygen page needs beyond the analysis: the article's figures set against ours."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from phpcb.data.policy import Verdict
from phpcb.data.reference import ReferenceData
from phpcb.experiments.ec_keygen.analysis import (
    NIST_NAMES,
    P256,
    AgainstP256,
    Comparison,
    EcAnalysis,
    FamilyRow,
    Recommendation,
    SchemeResult,
    faster_of,
)
from phpcb.experiments.experiment import Finding
from phpcb.presentation.advice import Advice
from phpcb.presentation.answer import Evidence, time_with_ci
from phpcb.presentation.headlines import Headline
from phpcb.presentation.render import markdown_text
from phpcb.presentation.wording import CI, margin
from phpcb.statistics.stats import NOISE_THRESHOLD

# Schemes whose verdict the security table spells out, when the run has them.
POLICY_EXAMPLES = (
    "prime256v1",
    "Ed25519",
    "X25519",
    "secp384r1",
    "secp521r1",
    "RSA-2048",
    "RSA-3072",
    "brainpoolP256r1",
    "secp256k1",
    "secp224r1",
    "prime239v1",
    "sect571r1",
    "c2pnb163v1",
    "secp160r1",
    "wap-wsg-idm-ecid-wtls12",
    "SM2",
)


@dataclass(frozen=True)
class ThenNow:
    table: int
    family: str
    curve: str
    paper_bits: int
    paper_ms: float
    paper_ratio: float
    now: SchemeResult | None

    @property
    def speedup(self) -> float | None:
        return self.paper_ms * 1e6 / self.now.keygen.summary.median_ns if self.now else None


@dataclass(frozen=True)
class Growth:
    """Within one family: the largest curve against the one nearest half its size."""

    family: str
    comparison: Comparison

    @property
    def size_ratio(self) -> float:
        return self.comparison.slower.scheme.field_bits / self.comparison.faster.scheme.field_bits

    @property
    def shape(self) -> str:
        """How time grew against the bits, claimed only when the whole CI is past the noise threshold."""
        ratio = self.comparison.ratio
        if ratio.low > self.size_ratio * (1 + NOISE_THRESHOLD):
            return "faster than the key length"
        if ratio.high < self.size_ratio / (1 + NOISE_THRESHOLD):
            return "slower than the key length"
        return "in proportion to the key length, within the noise"


def growth(row: FamilyRow) -> Growth | None:
    if len(row.curves) < 2:
        return None
    largest = row.curves[-1]
    others = [c for c in row.curves if c.scheme.field_bits <= largest.scheme.field_bits * 0.75]
    if not others:
        return None
    half = min(others, key=lambda c: (abs(c.scheme.field_bits * 2 - largest.scheme.field_bits), c.scheme.curve))
    return Growth(row.family, faster_of(half, largest))


# How the page says what a curve did, per operation.
VERBS = {"sign": "signs", "verify": "verifies", "derive": "derives a shared secret", "keygen": "makes a key"}
OPERATION_NAMES = {"sign": "sign", "verify": "verify", "derive": "ECDH derive", "keygen": "key generation"}


def against_p256_text(versus: AgainstP256) -> str:
    """'signs 10.4× slower than P-256 (95% CI 10.36–10.46×)', or that no measurement tells them apart."""
    verb, ratio = VERBS[versus.operation], versus.ratio
    if not ratio.significant:
        shown = f"ratio {ratio.value:.2f}, {CI} {ratio.low:.2f}–{ratio.high:.2f}"
        return f"{verb} in a time no measurement here tells from P-256's ({shown})"
    return f"{verb} {margin('P-256', ratio)}"


def against_p256_sentence(analysis: EcAnalysis) -> str:
    """'P-384 signs 10.4× slower than P-256 (…) and verifies 8.69× slower than P-256 (…); P-521 …': the
    signature operations of each larger NIST curve the run has, against P-256; '' without them."""
    parts = []
    for curve in NIST_NAMES:
        found = analysis.p256_comparisons(curve)
        said = [against_p256_text(found[op]) for op in ("sign", "verify") if op in found]
        if said:
            parts.append(f"{NIST_NAMES[curve]} " + " and ".join(said))
    return "; ".join(parts)


def against_p256_rows(analysis: EcAnalysis) -> list[tuple[str, SchemeResult, dict[str, AgainstP256]]]:
    """The P-256 row (its own times, no ratio) and one per larger NIST curve: (name, result, by operation)."""
    p256 = analysis.find(P256)
    if p256 is None or not analysis.against_p256:
        return []
    rows = [(NIST_NAMES[P256], p256, {})]
    for curve, name in NIST_NAMES.items():
        found = analysis.p256_comparisons(curve)
        if found:
            rows.append((name, next(iter(found.values())).curve, found))
    return rows


def then_now(analysis: EcAnalysis, reference: ReferenceData) -> list[ThenNow]:
    rows = reference.rows("keygen_ms")
    return [
        ThenNow(
            table=int(row["table"]),
            family=str(row["family"]),
            curve=str(row["curve"]),
            paper_bits=int(row["key_bits"]),
            paper_ms=float(row["ms"]),
            paper_ratio=float(row["ratio_percent"]),
            now=analysis.find(str(row["curve"])),
        )
        for row in rows
    ]


def context(analysis: EcAnalysis, reference: ReferenceData) -> dict[str, Any]:
    examples: list[tuple[str, Verdict]] = []
    for name in POLICY_EXAMPLES:
        row = next((r for r in analysis.inventory if r.curve == name), None)
        result = analysis.find(name)
        if row is not None:
            examples.append((name, row.verdict))
        elif result is not None:
            examples.append((name, result.verdict))
    growths = [g for g in (growth(row) for row in analysis.families) if g is not None]
    paper_ranking = sorted(
        (row for row in analysis.families if row.paper_average is not None), key=lambda r: r.paper_average or 0
    )
    best_by_ratio = min(analysis.curves, key=lambda r: (r.ratio_percent, r.scheme.curve), default=None)
    return {
        "then_now": then_now(analysis, reference),
        "growths": sorted(growths, key=lambda g: -g.comparison.ratio.value),
        "paper_family_order": [row.family for row in paper_ranking],
        "our_family_groups": analysis.paper_family_groups,
        "best_by_ratio": best_by_ratio,
        "p256": analysis.find("prime256v1"),
        "policy_rows": examples,
        "bracket_disagreements": [
            b for b in analysis.brackets if b.by_ratio and b.by_time and b.by_ratio.scheme != b.by_time.scheme
        ],
        "inventory_sorted": sorted(
            analysis.inventory, key=lambda r: (r.status != "ok", r.status, r.family, r.field_bits, r.curve)
        ),
        "shrinking_families": [row.family for row in analysis.families if row.slope is not None and row.slope < 0],
        "level_128": next((level for level in analysis.levels if level.security_bits == 128), None),
        "against_p256_sentence": against_p256_sentence(analysis),
        "against_p256_rows": against_p256_rows(analysis),
        "against_p256_operations": [
            (op, OPERATION_NAMES[op]) for op in OPERATION_NAMES if any(a.operation == op for a in analysis.against_p256)
        ],
    }


def _pick(recommendation: Recommendation, choice: SchemeResult) -> str:
    """'Ed25519', or the schemes no measurement tells apart."""
    contest = recommendation.contest
    return contest.statement if contest is not None and not contest.decided else choice.scheme.curve


def _choice(recommendation: Recommendation, choice: SchemeResult) -> Markup:
    """'**Ed25519** for signatures', or the schemes no measurement tells apart."""
    return Markup("**{}** for {}").format(
        markdown_text(_pick(recommendation, choice)), markdown_text(recommendation.purpose)
    )


# The strength the answer speaks of; its picks and the times it prints are headlines (`headlines`).
ANSWER_BITS = 128


def _pick_key(recommendation: Recommendation) -> str:
    """'ec_keygen.pick.128.key-agreement': a key names a chart and its CSV file on the Machines page."""
    purpose = "-".join(recommendation.purpose.split())
    return f"ec_keygen.pick.{recommendation.security_bits}.{purpose}"


def _keygen_key(curve: str) -> str:
    return f"ec_keygen.keygen.{curve}"


def _answered(analysis: EcAnalysis) -> list[Recommendation]:
    return [r for r in analysis.recommendations if r.security_bits == ANSWER_BITS and r.choice is not None]


def finding(context: dict[str, Any]) -> Finding | None:
    """The fastest key generation the policy recommends at 128-bit strength, per purpose; its time against
    RSA's at the same strength."""
    analysis: EcAnalysis = context["analysis"]
    chosen = _answered(analysis)
    signing = next((r for r in chosen if r.purpose == "signatures"), None)
    if signing is None or signing.choice is None:
        return None
    recommendation = Markup("At 128-bit strength, the fastest key generation the policy recommends: {}.").format(
        Markup(", ").join(_choice(r, r.choice) for r in chosen if r.choice is not None)
    )
    number = Markup("{} key generation: {} per key").format(
        markdown_text(signing.choice.scheme.curve), time_with_ci(context, signing.choice.keygen.summary)
    )
    printed = [*(_pick_key(r) for r in chosen), _keygen_key(signing.choice.scheme.curve)]
    level = context["level_128"]
    if level is not None and level.rsa is not None:
        number += Markup("; {}, at the same strength: {}").format(
            markdown_text(level.rsa.scheme.curve), time_with_ci(context, level.rsa.keygen.summary)
        )
        printed.append(_keygen_key(level.rsa.scheme.curve))
    evidence = (
        Evidence("every strength and purpose", "recommendation"),
        *(
            (Evidence("P-384 and P-521 against P-256", "p-384-and-p-521-against-p-256"),)
            if context.get("against_p256_rows")
            else ()
        ),
        Evidence("ECC against RSA at equal security", "equal-security-ecc-against-rsa-table-1"),
        Evidence("security notes", "security-notes"),
    )
    return Finding("Elliptic curves", recommendation, number + Markup("."), evidence, headlines=tuple(printed))


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis: EcAnalysis = context["analysis"]
    statements = [
        Advice.of_contest(
            "ec_keygen",
            f"ec_keygen.pick.{r.security_bits}.{r.purpose}",
            f"Fastest recommended key generation, {r.security_bits}-bit {r.purpose}",
            r.contest,
        )
        for r in analysis.recommendations
    ]
    best = context["best_by_ratio"]
    if best is not None:
        statements.append(
            Advice("ec_keygen", "ec_keygen.best-by-ratio", "Best curve by time per key bit", best.scheme.curve)
        )
    statements.append(
        Advice.of_order(
            "ec_keygen", "ec_keygen.family-order", "Families by time per key bit", analysis.paper_family_groups
        )
    )
    for b in analysis.brackets:
        statements.append(
            Advice.of_contest(
                "ec_keygen",
                f"ec_keygen.bracket.{b.bracket.label}",
                f"Fastest curve in the {b.bracket.label} bracket",
                b.contest,
            )
        )
    for row in analysis.inventory:
        statements.append(
            Advice("ec_keygen", f"ec_keygen.verdict.{row.curve}", f"Verdict on {row.curve}", row.verdict.status)
        )
    return statements


MACHINE_HEADLINES = (("prime256v1", "P-256 (prime256v1)"), ("Ed25519", "Ed25519"), ("RSA-2048", "RSA-2048"))


def headlines(context: dict[str, Any]) -> list[Headline]:
    """Key generation of the curves every machine is compared on and of those the answer prints (its
    signing pick, RSA at its strength), and the answer's picks."""
    analysis: EcAnalysis = context["analysis"]
    chosen = _answered(analysis)
    level = context["level_128"]
    curves = list(MACHINE_HEADLINES)
    printed = [r.choice.scheme.curve for r in chosen if r.purpose == "signatures" and r.choice is not None]
    printed += [level.rsa.scheme.curve] if level is not None and level.rsa is not None else []
    curves += [(curve, curve) for curve in printed if curve not in {c for c, _ in curves}]
    found = []
    for curve, label in curves:
        result = analysis.find(curve)
        if result is not None and "keygen" in result.operations:
            summary = result.operations["keygen"].summary
            found.append(Headline.of_time(_keygen_key(curve), f"{label} key generation", summary))
    for r in chosen:
        if r.choice is not None and "keygen" in r.choice.operations:
            question = f"Fastest key generation the policy recommends at {r.security_bits}-bit strength, {r.purpose}"
            found.append(
                Headline.of_time(_pick_key(r), question, r.choice.operations["keygen"].summary, _pick(r, r.choice))
            )
    return found

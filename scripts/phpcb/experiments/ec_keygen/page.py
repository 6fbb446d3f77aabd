"""What the ec_keygen page needs beyond the analysis: the article's figures set against ours."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from phpcb.data.policy import Verdict
from phpcb.data.reference import ReferenceData
from phpcb.experiments.ec_keygen.analysis import (
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
    }


def _choice(recommendation: Recommendation, choice: SchemeResult) -> Markup:
    """'**Ed25519** for signatures', or the schemes no measurement tells apart."""
    contest = recommendation.contest
    name = contest.statement if contest is not None and not contest.decided else choice.scheme.curve
    return Markup("**{}** for {}").format(markdown_text(name), markdown_text(recommendation.purpose))


def finding(context: dict[str, Any]) -> Finding | None:
    """The fastest key generation the policy recommends at 128-bit strength, per purpose; its time against
    RSA's at the same strength."""
    analysis: EcAnalysis = context["analysis"]
    chosen = [r for r in analysis.recommendations if r.security_bits == 128 and r.choice is not None]
    signing = next((r for r in chosen if r.purpose == "signatures"), None)
    if signing is None or signing.choice is None:
        return None
    recommendation = Markup("At 128-bit strength, the fastest key generation the policy recommends: {}.").format(
        Markup(", ").join(_choice(r, r.choice) for r in chosen if r.choice is not None)
    )
    number = Markup("{} key generation: {} per key").format(
        markdown_text(signing.choice.scheme.curve), time_with_ci(context, signing.choice.keygen.summary)
    )
    level = context["level_128"]
    if level is not None and level.rsa is not None:
        number += Markup("; {}, at the same strength: {}").format(
            markdown_text(level.rsa.scheme.curve), time_with_ci(context, level.rsa.keygen.summary)
        )
    evidence = (
        Evidence("every strength and purpose", "recommendation"),
        Evidence("ECC against RSA at equal security", "equal-security-ecc-against-rsa-table-1"),
        Evidence("security notes", "security-notes"),
    )
    return Finding("Elliptic curves", recommendation, number + Markup("."), evidence)


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
    analysis: EcAnalysis = context["analysis"]
    found = []
    for curve, label in MACHINE_HEADLINES:
        result = analysis.find(curve)
        if result is not None and "keygen" in result.operations:
            summary = result.operations["keygen"].summary
            found.append(Headline.of_time(f"ec_keygen.keygen.{curve}", f"{label} key generation", summary))
    return found

"""What the AEAD page and its answer say beyond the analysis."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from phpcb.experiments.aead.analysis import RECOMMENDED_PAIR, AeadAnalysis, Comparison
from phpcb.experiments.experiment import Finding
from phpcb.presentation.advice import Advice
from phpcb.presentation.answer import Evidence
from phpcb.presentation.formatting import size
from phpcb.presentation.headlines import TIMES_FASTER, Headline
from phpcb.presentation.render import markdown_text
from phpcb.presentation.wording import span, speedup


def _case(comparison: Comparison) -> str:
    return f"AES-{comparison.subject[4:7]}, {comparison.operation}, {size(comparison.payload_bytes)}"


def ccm_faster(analysis: AeadAnalysis) -> list[str]:
    """The cases where CCM measured faster than GCM (the exceptions the recommendation names)."""
    return [_case(c) for c in analysis.gcm_vs_ccm if c.ratio.significant and c.ratio.value < 1]


def gcm_faster(analysis: AeadAnalysis) -> int:
    return sum(1 for c in analysis.gcm_vs_ccm if c.ratio.significant and c.ratio.value > 1)


def gcm_span(analysis: AeadAnalysis) -> str:
    """'Over the 20 GCM/CCM cases (…), GCM is 1.1× (…) to 3.4× faster (…) than CCM'."""
    if not analysis.gcm_vs_ccm:
        return ""
    ordered = sorted(analysis.gcm_vs_ccm, key=lambda c: c.ratio.value)
    low, high = ordered[0], ordered[-1]
    cases = f"{len(ordered)} GCM/CCM cases (key sizes × operations × payloads, 16-byte tags)"
    return span("GCM", "CCM", cases, (low.ratio, _case(low)), (high.ratio, _case(high)))


# How the page names the two AEADs it gives code for (analysis.RECOMMENDED_PAIR).
PAIR_NAMES = {"aes-256-gcm": "AES-256-GCM", "sodium-xchacha20poly1305-ietf": "XChaCha20-Poly1305"}


def pair_names() -> tuple[str, str]:
    """('AES-256-GCM', 'XChaCha20-Poly1305'): the subject and the baseline of analysis.recommended_pair."""
    subject, baseline = RECOMMENDED_PAIR
    return PAIR_NAMES[subject], PAIR_NAMES[baseline]


def pair_span(analysis: AeadAnalysis) -> str:
    """'Over the 10 cases (…), AES-256-GCM ranges from 1.64× slower (encrypt, 16 B) to 14.2× faster (decrypt,
    512 KiB) compared with XChaCha20-Poly1305', a sentence of its own; '' where the run has no case of both."""
    if not analysis.recommended_pair:
        return ""
    ordered = sorted(analysis.recommended_pair, key=lambda c: c.ratio.value)
    low, high = ordered[0], ordered[-1]
    sizes = len({c.payload_bytes for c in ordered})
    cases = f"{len(ordered)} cases ({sizes} payload sizes × encryption and decryption)"

    def where(c: Comparison) -> str:
        return f"{c.operation}, {size(c.payload_bytes)}"

    return span(*pair_names(), cases, (low.ratio, where(low)), (high.ratio, where(high)))


# The article's speed claim, as the ledger judges it (data/reference/claims.yaml).
SPEED_CLAIM = "seed002-gcm-3x"


def finding(context: dict[str, Any]) -> Finding | None:
    """GCM or CCM, the article's question, at the headline case; and the AEADs the page recommends."""
    analysis: AeadAnalysis = context["analysis"]
    h = analysis.headline
    if h is None:
        return None
    recommendation = Markup(
        "Use an AEAD with a random nonce per message: **XChaCha20-Poly1305** (libsodium) or **AES-GCM** "
        "(ext-openssl), never a bare cipher mode."
    )
    cases, gcm, ccm = len(analysis.gcm_vs_ccm), gcm_faster(analysis), len(ccm_faster(analysis))
    number = Markup(
        "GCM against CCM, encrypting {} with AES-256: **{}**. Over the {} GCM/CCM cases, GCM is faster in {}, CCM in {}"
    ).format(size(h.payload_bytes), markdown_text(speedup(h.subject, h.baseline, h.ratio)), cases, gcm, ccm)
    if cases - gcm - ccm:
        number += Markup(", neither measurably in {}").format(cases - gcm - ccm)
    number += Markup(".")
    evidence = (
        Evidence("every GCM/CCM case", "gcm-vs-ccm-at-every-size"),
        Evidence("the fastest AEAD at each size, with code", "recommendation"),
        Evidence("security notes", "security-notes"),
        Evidence("method", "method"),
    )
    return Finding("AES-GCM vs AES-CCM", recommendation, number, evidence, claim=SPEED_CLAIM)


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis = context["analysis"]
    statements = []
    if analysis.headline is not None:
        h = analysis.headline
        statements.append(
            Advice.of_direction(
                "aead",
                "aead.headline",
                f"GCM vs CCM, {h.operation} at {size(h.payload_bytes)}",
                h.subject,
                h.baseline,
                h.ratio,
            )
        )
    for p in analysis.picks:
        statements.append(
            Advice.of_contest(
                "aead",
                f"aead.fastest-recommended.{p.payload_bytes}",
                f"Fastest recommended AEAD at {size(p.payload_bytes)}",
                p.contest,
            )
        )
    for algorithm, verdict in sorted(analysis.verdicts.items()):
        statements.append(Advice("aead", f"aead.verdict.{algorithm}", f"Verdict on {algorithm}", verdict.status))
    return statements


def headlines(context: dict[str, Any]) -> list[Headline]:
    h = context["analysis"].headline
    if h is None:
        return []
    question = f"{h.subject} over {h.baseline}, {h.operation} at {size(h.payload_bytes)} {TIMES_FASTER}"
    return [Headline.of_ratio("aead.headline", question, h.ratio)]

"""What the AEAD page and its home-page finding say beyond the analysis."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..advice import Advice, direction, pick
from ..experiment import Finding
from ..formatting import size
from ..headlines import Headline
from ..wording import speedup, times


def finding(context: dict[str, Any]) -> Finding | None:
    headline = context["analysis"].headline
    if headline is None:
        return None
    then = context["then"]
    text = Markup("**{}** at {} on {}. In {} the article measured CCM at {} GCM's time.").format(
        speedup(headline.subject, headline.baseline, headline.ratio),
        size(headline.payload_bytes),
        context["machine"],
        context["reference"]["source"]["published"][:4],
        times(then["ccm_time_over_gcm_time"]),
    )
    return Finding("AES-GCM vs AES-CCM", text)


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis = context["analysis"]
    statements = []
    if analysis.headline is not None:
        h = analysis.headline
        statements.append(
            Advice(
                "aead",
                "aead.headline",
                f"GCM vs CCM, {h.operation} at {size(h.payload_bytes)}",
                direction(h.subject, h.baseline, h.ratio),
            )
        )
    for p in analysis.picks:
        statements.append(
            Advice(
                "aead",
                f"aead.fastest-recommended.{p.payload_bytes}",
                f"Fastest recommended AEAD at {size(p.payload_bytes)}",
                pick(p.best.key.variant, p.runner_up.key.variant if p.runner_up else None, p.margin),
            )
        )
    for algorithm, verdict in sorted(analysis.verdicts.items()):
        statements.append(Advice("aead", f"aead.verdict.{algorithm}", f"Verdict on {algorithm}", verdict.status))
    return statements


def headlines(context: dict[str, Any]) -> list[Headline]:
    h = context["analysis"].headline
    if h is None:
        return []
    question = f"{h.subject} over {h.baseline}, {h.operation} at {size(h.payload_bytes)} (times faster)"
    return [Headline.of_ratio("aead.headline", question, h.ratio)]

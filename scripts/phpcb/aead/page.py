"""What the AEAD page and its home-page finding say beyond the analysis."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..experiment import Finding
from ..formatting import size
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

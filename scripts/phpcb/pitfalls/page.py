"""What the pitfalls page says beyond the analysis: its home-page finding, its advice, its headlines,
and the line it adds to each experiment page a pitfall concerns."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..advice import Advice, direction
from ..experiment import Finding
from ..headlines import Headline
from ..render import code
from ..wording import speedup
from .analysis import PitfallResult, PitfallsAnalysis

PAGE = "pitfalls.md"  # beside the other experiment pages


def verdict(result: PitfallResult) -> str:
    """'the fast way is 17× faster than the slow way (95% CI …)', or no measurable difference."""
    return speedup(result.entry.fast.variant, result.entry.slow.variant, result.ratio)


def finding(context: dict[str, Any]) -> Finding | None:
    """The pitfall that costs the most, when it costs measurably."""
    analysis: PitfallsAnalysis = context["analysis"]
    costly = [r for r in analysis.results if r.pays]
    worst = max(costly, key=lambda r: r.ratio.value, default=None)
    if worst is None:
        return None
    text = Markup("**{}**: {} per {}, on {}. The fix: {}").format(
        worst.entry.title,
        verdict(worst),
        worst.entry.unit,
        context["machine"],
        code(worst.entry.fix),
    )
    return Finding("Where PHP loses time", text)


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis: PitfallsAnalysis = context["analysis"]
    return [
        Advice(
            "pitfalls",
            f"pitfalls.{r.key}",
            r.entry.title,
            direction(r.entry.fast.variant, r.entry.slow.variant, r.ratio),
        )
        for r in analysis.results
    ]


# The Machines page sets these beside each other for every machine: one key pitfall, one cipher one.
MACHINE_HEADLINES = ("pem-vs-object-rsa2048", "cipher-setup-16b")


def headlines(context: dict[str, Any]) -> list[Headline]:
    analysis: PitfallsAnalysis = context["analysis"]
    return [
        Headline.of_ratio(f"pitfalls.{r.key}", f"{r.entry.title}: slow way over fast way (times)", r.ratio)
        for r in analysis.results
        if r.key in MACHINE_HEADLINES
    ]


def notes(context: dict[str, Any]) -> dict[str, list[Markup]]:
    """One line per pitfall on each experiment page it concerns, linking here."""
    analysis: PitfallsAnalysis = context["analysis"]
    found: dict[str, list[Markup]] = {}
    for r in analysis.results:
        line = Markup("[{}]({}#{}): {} per {} in run {}.").format(
            r.entry.title, PAGE, r.key, verdict(r), r.entry.unit, analysis.run.run_id
        )
        if r.pays:
            line += Markup(" The fix: {}").format(code(r.entry.fix))
        for page in r.entry.affects:
            found.setdefault(page, []).append(line)
    return found

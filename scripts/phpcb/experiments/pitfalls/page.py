"""What the pitfalls page says beyond the analysis: its answer (the finding), its advice, its headlines,
and the line it adds to each experiment page a pitfall concerns."""

from __future__ import annotations

import math
from typing import Any

from markupsafe import Markup

from phpcb.experiments.experiment import Finding
from phpcb.experiments.pitfalls.analysis import PitfallResult, PitfallsAnalysis
from phpcb.presentation.advice import Advice
from phpcb.presentation.answer import Evidence
from phpcb.presentation.headlines import Headline
from phpcb.presentation.render import code, markdown_text
from phpcb.presentation.wording import speedup

PAGE = "pitfalls.md"  # beside the other experiment pages


def verdict(result: PitfallResult) -> str:
    """'the fast way is 17× faster than the slow way (95% CI …)', or no measurable difference."""
    return speedup(result.entry.fast.variant, result.entry.slow.variant, result.ratio)


def fix_link(result: PitfallResult, page: str) -> Markup:
    """The fix, as a link to the pitfall's section of `page` (which shows the snippet file itself): never
    code retyped into a line."""
    fix = result.entry.fix
    link = Markup("[{}]({}#{})").format(code(fix.snippet.path), page, result.key)
    if fix.for_correctness:
        return Markup("The fix, for correctness whatever the timing: {}.").format(link)
    return Markup("The fix: {}.").format(link)


def offers_fix(result: PitfallResult) -> bool:
    """A fix for correctness is always offered; a fix for speed only where it pays on this machine."""
    return result.entry.fix.for_correctness or result.pays


def finding(context: dict[str, Any]) -> Finding | None:
    """The pitfall that costs the most, when one costs measurably (its fix is a section of the page); else
    that none does, with the largest difference measured."""
    analysis: PitfallsAnalysis = context["analysis"]
    if not analysis.results:
        return None
    costly = [r for r in analysis.results if r.pays]
    worst = max(costly, key=lambda r: r.ratio.value, default=None)
    every = (Evidence("every pitfall", "every-pitfall"), Evidence("method", "method"))
    if worst is None:
        largest = max(analysis.results, key=lambda r: abs(math.log(r.ratio.value)))
        for_correctness = sum(1 for r in analysis.results if r.entry.fix.for_correctness)
        recommendation = Markup(
            "None of the {} pitfalls measured here makes its slow way measurably slower on this machine."
        ).format(len(analysis.results))
        if for_correctness:
            recommendation += Markup(" The {} fixes for correctness are recommended whatever the timing.").format(
                for_correctness
            )
        number = Markup("The largest difference measured: {} per {}.").format(
            markdown_text(verdict(largest)), markdown_text(largest.entry.unit)
        )
        return Finding("Where PHP loses time", recommendation, number, every)
    recommendation = Markup("The costliest pitfall measured here: **{}**. Its fix is {}.").format(
        markdown_text(worst.entry.title),
        "for correctness, whatever the timing" if worst.entry.fix.for_correctness else "for speed",
    )
    number = Markup("{} per {}; {} of the {} pitfalls measured cost measurable time.").format(
        markdown_text(verdict(worst)), markdown_text(worst.entry.unit), len(costly), len(analysis.results)
    )
    evidence = (Evidence(f"the fix: {worst.entry.fix.snippet.path}", worst.key), *every)
    return Finding("Where PHP loses time", recommendation, number, evidence)


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis: PitfallsAnalysis = context["analysis"]
    return [
        Advice.of_direction(
            "pitfalls", f"pitfalls.{r.key}", r.entry.title, r.entry.fast.variant, r.entry.slow.variant, r.ratio
        )
        for r in analysis.results
    ]


# The Machines page sets these beside each other for every machine: one key pitfall, one cipher one (runs
# before issue 25 measured cipher-setup-16b, later ones aead-call-per-field).
MACHINE_HEADLINES = ("pem-vs-object-rsa2048", "aead-call-per-field", "cipher-setup-16b")


def headlines(context: dict[str, Any]) -> list[Headline]:
    analysis: PitfallsAnalysis = context["analysis"]
    return [
        Headline.of_ratio(f"pitfalls.{r.key}", f"{r.entry.title}: slow way over fast way (times)", r.ratio)
        for r in analysis.results
        if r.key in MACHINE_HEADLINES
    ]


def notes(context: dict[str, Any]) -> dict[str, list[Markup]]:
    """One line per pitfall on each experiment page it concerns, linking here (and to the fix, when it is
    offered: see offers_fix)."""
    analysis: PitfallsAnalysis = context["analysis"]
    found: dict[str, list[Markup]] = {}
    for r in analysis.results:
        line = Markup("[{}]({}#{}): {} per {} in run {}.").format(
            r.entry.title, PAGE, r.key, verdict(r), r.entry.unit, analysis.run.run_id
        )
        if offers_fix(r):
            line += Markup(" ") + fix_link(r, PAGE)
        for page in r.entry.affects:
            found.setdefault(page, []).append(line)
    return found

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
from phpcb.presentation.headlines import TIMES, Headline
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


def _costliest(analysis: PitfallsAnalysis) -> PitfallResult | None:
    """The pitfall whose slow way costs the most, of those that cost measurably."""
    return max((r for r in analysis.results if r.pays), key=lambda r: r.ratio.value, default=None)


def _shown(analysis: PitfallsAnalysis) -> PitfallResult:
    """The pitfall whose ratio the answer prints: the costliest, else the largest difference measured."""
    worst = _costliest(analysis)
    return worst if worst is not None else max(analysis.results, key=lambda r: abs(math.log(r.ratio.value)))


# The answer's pick, a headline: the costliest pitfall, or that none costs measurably.
COSTLIEST = "pitfalls.costliest"
NONE_COSTS = "none measurably slower"


def _ratio_key(result: PitfallResult) -> str:
    return f"pitfalls.{result.key}"


def finding(context: dict[str, Any]) -> Finding | None:
    """The pitfall that costs the most, when one costs measurably (its fix is a section of the page); else
    that none does, with the largest difference measured."""
    analysis: PitfallsAnalysis = context["analysis"]
    if not analysis.results:
        return None
    costly = [r for r in analysis.results if r.pays]
    worst = _costliest(analysis)
    every = (Evidence("every pitfall", "every-pitfall"), Evidence("method", "method"))
    printed = (COSTLIEST, _ratio_key(_shown(analysis)))
    if worst is None:
        largest = _shown(analysis)
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
        return Finding("Where PHP loses time", recommendation, number, every, headlines=printed)
    recommendation = Markup("The costliest pitfall measured here: **{}**. Its fix is {}.").format(
        markdown_text(worst.entry.title),
        "for correctness, whatever the timing" if worst.entry.fix.for_correctness else "for speed",
    )
    number = Markup("{} per {}; {} of the {} pitfalls measured cost measurable time.").format(
        markdown_text(verdict(worst)), markdown_text(worst.entry.unit), len(costly), len(analysis.results)
    )
    evidence = (Evidence(f"the fix: {worst.entry.fix.snippet.path}", worst.key), *every)
    return Finding("Where PHP loses time", recommendation, number, evidence, headlines=printed)


def advice(context: dict[str, Any]) -> list[Advice]:
    analysis: PitfallsAnalysis = context["analysis"]
    return [
        Advice.of_direction(
            "pitfalls", f"pitfalls.{r.key}", r.entry.title, r.entry.fast.variant, r.entry.slow.variant, r.ratio
        )
        for r in analysis.results
    ]


def headlines(context: dict[str, Any]) -> list[Headline]:
    """Every pitfall's ratio (the answer prints the costliest's, which differs from machine to machine:
    each machine that measured it must have it), and the answer's pick, with the ratio it prints."""
    analysis: PitfallsAnalysis = context["analysis"]
    found = [
        Headline.of_ratio(_ratio_key(r), f"{r.entry.title}: slow way over fast way (times)", r.ratio)
        for r in analysis.results
    ]
    if analysis.results:
        worst, shown = _costliest(analysis), _shown(analysis)
        found.append(
            Headline(
                COSTLIEST,
                "The costliest pitfall measured (its slow way over its fast way, times)",
                TIMES,
                shown.ratio.value,
                shown.ratio.low,
                shown.ratio.high,
                choice=worst.entry.title if worst is not None else NONE_COSTS,
            )
        )
    return found


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

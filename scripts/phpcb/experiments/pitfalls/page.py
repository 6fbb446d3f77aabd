"""What the pitfalls page says beyond the analysis: its home-page finding, its advice, its headlines,
and the line it adds to each experiment page a pitfall concerns."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from phpcb.experiments.experiment import Finding
from phpcb.experiments.pitfalls.analysis import PitfallResult, PitfallsAnalysis
from phpcb.presentation.advice import Advice
from phpcb.presentation.headlines import Headline
from phpcb.presentation.render import code
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


def finding(context: dict[str, Any], page: str) -> Finding | None:
    """The pitfall that costs the most, when it costs measurably; `page` is the pitfalls page as the home
    page links it."""
    analysis: PitfallsAnalysis = context["analysis"]
    costly = [r for r in analysis.results if r.pays]
    worst = max(costly, key=lambda r: r.ratio.value, default=None)
    if worst is None:
        return None
    text = Markup("**{}**: {} per {}, on {}. {}").format(
        worst.entry.title,
        verdict(worst),
        worst.entry.unit,
        context["machine"],
        fix_link(worst, page),
    )
    return Finding("Where PHP loses time", text)


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

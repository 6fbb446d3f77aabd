"""Measures every experiment offers (data/reference/claims.yaml names them as `<experiment>.<name>`):
a documented fact, what the runner observed (the manifest's verification), a practice judged by a
documented fact, and several observed parts. (A claim nothing here can test names no measure: the
ledger's `not_testable` says why.)

A fact the runner observes is taken from the run when the run recorded it; a run made before the
check existed falls back to the documented fact the claim names, and says so.

One CI basis: a claim is judged by the intervals its page prints. The analysis a measure reads has its
ratios widened already by the spread between runs of the run's machine (experiments/contexts.py); a
ratio or a ranking a measure makes itself passes through `across_runs` or `ranked_across_runs` here, so
that it carries the same spread. A run whose machine has no noise model keeps its within-run intervals,
as its page does."""

from __future__ import annotations

import math
from typing import Any

from phpcb.claims.results import (
    Args,
    ArgumentError,
    ChoiceResult,
    Fact,
    FactResult,
    Measure,
    Ranked,
    Result,
    ShareResult,
    Unavailable,
)
from phpcb.claims.wording import plain
from phpcb.presentation.render import BETWEEN_RUNS
from phpcb.statistics.spread import Z_95, RunSpread
from phpcb.statistics.stats import Ratio

MISSING = object()
OBSERVED_BY = "this run's verification"


def _spread(context: dict[str, Any]) -> RunSpread | None:
    found = context.get(BETWEEN_RUNS)
    return found if isinstance(found, RunSpread) and found.ratio_log_sd is not None else None


def across_runs(context: dict[str, Any], ratio: Ratio) -> Ratio:
    """A ratio of two cases of the run, on the basis its page prints: widened by the spread between runs
    of the machine where it is known (as every ratio of the analysis is), else as measured."""
    spread = _spread(context)
    return spread.widen_ratio(ratio) if spread is not None else ratio


def ranked_across_runs(context: dict[str, Any], name: str, value: float, low: float, high: float) -> Ranked:
    """One item of a ranking of the run's cases, its interval widened by what moves it against the others
    between runs: its own residual (half the variance of a ratio's, noise.RunSpread.ratio_log_sd), added
    in quadrature on log scale. Two items whose widened intervals do not meet are apart by at least the
    widened CI of their ratio; a run whose machine has no noise model keeps the within-run intervals."""
    spread = _spread(context)
    if spread is None or spread.ratio_log_sd is None or not (0 < low <= value <= high < math.inf):
        return Ranked(name, value, low, high)
    residual = Z_95 * spread.ratio_log_sd / math.sqrt(2)
    below, above = math.log(value / low), math.log(high / value)
    return Ranked(
        name, value, value / math.exp(math.hypot(below, residual)), value * math.exp(math.hypot(above, residual))
    )


def verification_value(context: dict[str, Any], path: str) -> Any:
    """The entry at a dotted path of the run's verification for this experiment, or MISSING."""
    found: Any = (context.get("entry") or {}).get("verification") or {}
    for part in path.split("."):
        if not isinstance(found, dict) or part not in found:
            return MISSING
        found = found[part]
    return found


def _fact(args: Args) -> Fact | None:
    return args.fact() if "fact" in args.values else None


def _observation(context: dict[str, Any], args: Args, key: str = "observed") -> Any:
    """The observed value, reduced to whether it contains args.contains when that is given."""
    value = verification_value(context, args.text(key))
    if value is MISSING:
        return MISSING
    wanted = args.optional_text("contains")
    return value if wanted is None else (wanted in value)


def documented(context: dict[str, Any], inputs: Any, args: Args) -> Result:
    """A documented fact (args.fact), with what the run observed of it where args.observed names it."""
    fact = args.fact()
    text = fact.statement
    if "observed" in args.values:
        value = _observation(context, args)
        if value is not MISSING:
            text += f"; observed: {args.text('label')}: {plain(value)}"
    return FactResult(fact.value, text, "documented", fact.references)


def observed(context: dict[str, Any], inputs: Any, args: Args) -> Result:
    """What the runner observed (args.observed, a path in the verification), described by args.label;
    a run that predates the check falls back to the documented fact (args.fact), if the claim names one."""
    label = args.text("label")
    fact = _fact(args)
    value = _observation(context, args)
    if value is MISSING:
        why = f"this run predates the check ({label})"
        if fact is None:
            return Unavailable(why)
        return FactResult(fact.value, f"{why}; documented: {fact.statement}", "documented", fact.references)
    text = f"{label}: {plain(value)}"
    if fact is not None:
        text += f"; {fact.statement}"
    return FactResult(value, text, OBSERVED_BY, fact.references if fact else ())


def practice(context: dict[str, Any], inputs: Any, args: Args) -> Result:
    """Advice or a practice of an article's code, judged by a documented fact whose value says whether
    it is sound (`admissible`) and whether it is what this site advises (`advised`)."""
    fact = args.fact()
    value = fact.value if isinstance(fact.value, dict) else {}
    if set(value) != {"admissible", "advised"} or not all(isinstance(v, bool) for v in value.values()):
        raise ArgumentError(f"fact {fact.key!r} must have a value {{admissible: bool, advised: bool}}")
    why = fact.statement
    if "observed" in args.values:
        seen = _observation(context, args)
        if seen is not MISSING:
            why += f"; observed: {args.text('label')}: {plain(seen)}"
    return ChoiceResult(value["admissible"], value["advised"], why, fact.references)


def _part(context: dict[str, Any], part: dict[str, Any], args: Args) -> tuple[bool | None, str]:
    """One part: True if it holds, False if not, None if the run did not record it and no documented
    fact (the part's `fact`) stands in."""
    if not isinstance(part, dict) or not {"observed", "expected", "holds", "fails"} <= set(part):
        raise ArgumentError(f"expected each of args.parts to have observed, expected, holds and fails, got {part!r}")
    value = verification_value(context, str(part["observed"]))
    source = ""
    if value is MISSING and "fact" in part:
        value, source = Args({"fact": part["fact"]}, args.facts).fact().value, " (documented; not recorded by this run)"
    if value is MISSING:
        return None, f"not recorded by this run: {part['holds']}"
    if "contains" in part:
        value = part["contains"] in value
    holds = value == part["expected"]
    return holds, str(part["holds"] if holds else part["fails"]) + source


def parts(context: dict[str, Any], inputs: Any, args: Args) -> Result:
    """A claim of several parts, each an observation of the run with the value that makes it hold."""
    listed = args.values.get("parts")
    if not isinstance(listed, list) or not listed:
        raise ArgumentError(f"expected args.parts to be a list, got {listed!r}")
    found = [_part(context, part, args) for part in listed]
    cited = [args.facts[str(part["fact"])] for part in listed if "fact" in part and str(part["fact"]) in args.facts]
    references = tuple(dict.fromkeys(r for fact in cited for r in fact.references))
    return ShareResult(
        matched=sum(1 for holds, _ in found if holds),
        total=len(found),
        details=tuple(text for _, text in found),
        what=args.text("what"),
        uncertain=sum(1 for holds, _ in found if holds is None),
        references=references,
    )


GENERIC: dict[str, Measure] = {
    "documented": documented,
    "observed": observed,
    "practice": practice,
    "parts": parts,
}

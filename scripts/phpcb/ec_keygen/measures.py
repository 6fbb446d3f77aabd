"""What decides seed 003's (part 1) and seed 004's strength claims, from the ec_keygen page's analysis."""

from __future__ import annotations

from typing import Any

from ..claim_rules import Args, FactResult, Measure, Ranked, RankResult, Result, ShareResult, Unavailable
from ..experiment import Inputs
from .analysis import PAPER_FAMILIES, EcAnalysis


def curve_ranking(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The article's groups' curves by its ratio: key-generation time (ms) per key bit, in %."""
    curves = [r for r in context["analysis"].curves if r.scheme.family in PAPER_FAMILIES]
    if not curves:
        return Unavailable("this run generated no keys on the article's curves")
    ranked = sorted(curves, key=lambda r: (r.ratio_percent, r.scheme.curve))
    items = tuple(Ranked(r.scheme.curve, r.ratio_percent, *r.ratio_ci) for r in ranked)
    return RankResult(items, "curves by key-generation time per key bit", " %")


def family_ranking(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The article's six groups by their average ratio (%), each with a bootstrap CI."""
    rows = [row for row in context["analysis"].families if row.family in PAPER_FAMILIES]
    if not rows:
        return Unavailable("this run generated no keys on the article's curves")
    items = tuple(Ranked(r.family, r.average.value, r.average.low, r.average.high) for r in rows)
    return RankResult(items, "groups by average time per key bit", " %")


def brackets(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Table 11: in how many key-length brackets our best curve by the article's ratio is the article's."""
    analysis: EcAnalysis = context["analysis"]
    details, matched, total = [], 0, 0
    for row in analysis.brackets:
        if row.by_ratio is None or not row.paper_curves:
            continue
        total += 1
        ours = row.by_ratio.scheme.curve
        hit = ours in row.paper_curves
        matched += hit
        details.append(f"{row.bracket.label}: {ours}" + ("" if hit else f", not {'/'.join(row.paper_curves)}"))
    return ShareResult(matched, total, tuple(details), "brackets whose best curve by time per bit is the article's")


def same_strength(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Whether two schemes have the same security strength, as the run records it (NIST SP 800-57)."""
    analysis: EcAnalysis = context["analysis"]
    first, second = args.text("scheme"), args.text("other")
    found = [analysis.find(first), analysis.find(second)]
    if found[0] is None or found[1] is None:
        return Unavailable(f"{first} and {second} are not both in this run")
    a, b = (r.scheme.security_bits for r in found if r is not None)
    label = args.text("label") if "label" in args.values else first
    text = f"{label}: {a}-bit strength; {second}: {b}-bit"
    return FactResult(a == b, text, "NIST SP 800-57 table 2, as this run records each key's strength")


MEASURES: dict[str, Measure] = {
    "curve_ranking": curve_ranking,
    "family_ranking": family_ranking,
    "brackets": brackets,
    "same_strength": same_strength,
}

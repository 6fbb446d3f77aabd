"""The words of a verdict, apart from the decision (claims/rules.py): why a rule decided what it did,
and what the run measured, each one line of plain text (escaped where it is rendered)."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from phpcb.claims.results import (
    FactResult,
    Ranked,
    RankResult,
    RatioResult,
    Ratios,
    Result,
    ShareResult,
    Unavailable,
)
from phpcb.claims.rules import (
    Band,
    ChoiceBasis,
    Decision,
    FactBasis,
    PartsBasis,
    Places,
    RankBasis,
    RatioBasis,
    Rule,
    ShareBasis,
    TopSetBasis,
    Untested,
)
from phpcb.claims.vocabulary import (
    FACTOR_TOLERANCE,
    INCONCLUSIVE,
    MISSING,
    SIMILAR_TOLERANCE,
    UNTESTABLE_KINDS,
    VERDICTS,
    Tolerance,
)
from phpcb.presentation.wording import CI, estimate

# Kinds whose `why` already says all (the run lacks a payload, a side has 5 samples): no label before it.
SELF_EXPLAINED = {MISSING, "samples"}


def band_text(band: Band) -> str:
    return f"{band.low:.3g}–{band.high:.3g}×"


def tolerance_text(tolerance: Tolerance) -> str:
    """'within ×/÷ 1.15': the band is a factor either way, not a symmetric ± (3 ÷ 1.15 … 3 × 1.15)."""
    return f"within ×/÷ {tolerance.factor:g}"


def _ci(ratio: Any) -> str:
    return estimate(ratio.value, ratio.low, ratio.high)


def published(rule: Rule) -> str:
    """The claimed factor as the article printed it: "3x", never "3.00×"."""
    return rule.published or f"{float(rule.claimed):g}x"


def plain(value: Any) -> str:
    """A fact's value in words: yes/no, a list joined, nothing for null (PHP's false)."""
    if value is None:
        return "nothing (false)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {plain(v)}" for k, v in value.items())
    return str(value)


def _untested(basis: Untested) -> str:
    if basis.kind in SELF_EXPLAINED:
        return basis.why
    return f"{UNTESTABLE_KINDS.get(basis.kind, basis.kind)}: {basis.why}"


def _where(ratio: Any, band: Band) -> str:
    return "below" if ratio.high < band.low else "above"


FACTOR_CASES = {
    "other_way": "the other way round: {ci}",
    "no_difference": "no measurable difference: {ci}",
    "inside": "{ci} lies inside it",
    "outside": "{ci} lies wholly {where} it",
    "across_band": "{ci} reaches across its edge",
    "no_difference_band_excluded": "no measurable difference, and {ci} excludes the band",
    "across_difference": "{ci} reaches across the edge of a measurable difference",
}
FASTER_CASES = {
    "faster": "{subject} is faster: {ci}",
    "slower": "{baseline} is faster: {ci}",
    "no_difference": "no measurable difference: {ci} lies within {band}",
    "across_difference": "{ci} reaches across the edge of a measurable difference ({band})",
}
SIMILAR_CASES = {
    "inside": "{ci} lies within {band}",
    "outside": "{ci} lies wholly outside {band}",
    "across_band": "{ci} reaches across an edge of {band}",
}


def _claimed_factor(rule: Rule, band: Band) -> str:
    return f"claimed {published(rule)} ({tolerance_text(FACTOR_TOLERANCE)}: {band_text(band)})"


def _similar() -> str:
    return f"no difference worth naming ({tolerance_text(SIMILAR_TOLERANCE)})"


def _ratio_case(rule: Rule, basis: RatioBasis, result: RatioResult | None) -> str:
    cases = {"factor": FACTOR_CASES, "faster": FASTER_CASES, "similar": SIMILAR_CASES}[rule.kind]
    return cases[basis.case].format(
        ci=_ci(basis.ratio),
        where=_where(basis.ratio, basis.band),
        band=band_text(basis.band),
        subject=result.subject if result is not None else "the subject",
        baseline=result.baseline if result is not None else "the baseline",
    )


def _ratio_reason(rule: Rule, basis: RatioBasis, result: RatioResult | None) -> str:
    said = _ratio_case(rule, basis, result)
    if rule.kind == "factor":
        return f"{_claimed_factor(rule, basis.band)}; {said}"
    if rule.kind == "similar":
        return f"{_similar()}: {said}"
    return said


def _parts_reason(rule: Rule, basis: PartsBasis, verdict: str) -> str:
    lines = [f"{part.where}: {d.verdict} ({_short(d)})" for part, d in basis.parts]
    lines += [f"{part.where}: not testable ({u.why})" for part, u in basis.untested]
    lines += list(basis.missing)
    if rule.kind == "factor":
        claim = _claimed_factor(rule, _band_of(basis))
    elif rule.kind == "similar":
        claim = _similar()
    else:
        claim = "claimed faster"
    count = len(basis.parts) + len(basis.untested) + len(basis.missing)
    found = Counter(d.verdict for _, d in basis.parts)
    tally = ", ".join(f"{found[v]} {v}" for v in VERDICTS if found[v])
    reason = f"{claim} at each of {count} conditions ({tally}); " + "; ".join(lines)
    if verdict == INCONCLUSIVE:
        reason += " (an undecided condition decides the verdict)"
    return reason


SHORT = {
    "other_way": "the other way round",
    "no_difference": "no measurable difference",
    "inside": "inside",
    "across_band": "across an edge",
    "no_difference_band_excluded": "no measurable difference",
    "across_difference": "across the edge of a measurable difference",
    "faster": "faster",
    "slower": "slower",
}


def _short(decision: Decision) -> str:
    basis = decision.basis
    assert isinstance(basis, RatioBasis)
    if basis.case == "outside":
        return f"wholly {_where(basis.ratio, basis.band)}"
    return SHORT[basis.case]


def _band_of(basis: PartsBasis) -> Band:
    first = basis.parts[0][1].basis
    assert isinstance(first, RatioBasis)
    return first.band


def _places(places: Places) -> str:
    """'3.' or '3.–6.': an item's place, or the places it may take (counted from the end the claim reads)."""
    return f"{places.first + 1}." if places.first == places.last else f"{places.first + 1}.–{places.last + 1}."


def _place(name: str, by_name: dict[str, Ranked], places: Places, unit: str) -> str:
    if name not in by_name:
        return f"{name} not measured"
    return f"{name} {_places(places)} ({ranked_text(by_name[name], unit)})"


# Said after the reason of a claim the data refutes today that held when it was written (Rule.held_then).
HELD_THEN = "it held when the article was written"


def reason(decision: Decision, rule: Rule, result: Result | None = None) -> str:
    """Why the rule decided what it did, in one line; `result` names the sides of a single ratio."""
    said = _reason(decision, rule, result)
    return f"{said}; {HELD_THEN}" if decision.outdated else said


def _reason(decision: Decision, rule: Rule, result: Result | None = None) -> str:
    basis = decision.basis
    if isinstance(basis, Untested):
        return _untested(basis)
    if isinstance(basis, RatioBasis):
        return _ratio_reason(rule, basis, result if isinstance(result, RatioResult) else None)
    if isinstance(basis, PartsBasis):
        return _parts_reason(rule, basis, decision.verdict)
    if isinstance(basis, FactBasis):
        return f"claimed {plain(basis.claimed)}, found {plain(basis.found)} (source: {basis.source})"
    if isinstance(basis, RankBasis):
        order = "; ".join(_place(name, basis.shown, basis.places[name], basis.unit) for name in basis.claimed)
        said = f"claimed {' then '.join(basis.claimed)}; {order}"
        if basis.grouped:
            said += f"; the page's order: {basis.grouped}"
        undecided = "no measurable difference" if basis.grouped else "CIs overlap"
        return said + (f" ({undecided}: the order is not decided)" if decision.verdict == INCONCLUSIVE else "")
    if isinstance(basis, TopSetBasis):
        said = (
            f"{len(basis.inside)} of the {basis.n} claimed are certainly among the {basis.n} {basis.side}: "
            f"{', '.join(basis.inside) or 'none'}"
        )
        if basis.undecided:
            said += f"; undecided: {', '.join(basis.undecided)}"
        if basis.outside:
            said += "; not among them: " + ", ".join(f"{name} ({_places(at)})" for name, at in basis.outside)
        return said + (" (the undecided ones decide the verdict)" if decision.verdict == INCONCLUSIVE else "")
    if isinstance(basis, ShareBasis):
        said = f"{basis.matched} of {basis.total} hold"
        if basis.uncertain:
            said += f", {basis.uncertain} undecided"
        return said + (" (the undecided ones decide the verdict)" if decision.verdict == INCONCLUSIVE else "")
    assert isinstance(basis, ChoiceBasis)
    return CHOICE_CASES[(basis.admissible, basis.picked and basis.admissible)]


# A choice in words. Never "sound": a choice this site allows but does not advise is allowed for the use
# the claim names, nothing more (an unauthenticated cipher is never among them: its own claim rules it out).
CHOICE_CASES = {
    (True, True): "what this site advises",
    (True, False): "allowed here, but not what this site advises",
    (False, False): "ruled out here by the facts or the numbers",
}


def _number(value: float) -> str:
    """3 significant digits, never in exponent form ("1,130", "0.131")."""
    if not math.isfinite(value) or value == 0:
        return f"{value:g}"
    places = max(2 - math.floor(math.log10(abs(value))), 0)
    return f"{round(value, places):,.{places}f}"


def ranked_text(item: Ranked, unit: str) -> str:
    return f"{item.name} {_number(item.value)}{unit} ({CI} {_number(item.low)}–{_number(item.high)})"


def _ratio_measured(result: RatioResult) -> str:
    n = f"n = {result.samples[0]} and {result.samples[1]}"
    return f"{result.where}: {result.subject} over {result.baseline}, {_ci(result.ratio)}, {n}"


def measured(result: Result, rule: Rule | None = None) -> str:
    """What the run measured, as one line of plain text (escaped where it is rendered)."""
    if isinstance(result, Unavailable):
        return result.measured or "–"
    if isinstance(result, RatioResult):
        return _ratio_measured(result)
    if isinstance(result, Ratios):
        shown = [_ratio_measured(part) for part in result.parts]
        shown += list(result.missing)
        return "; ".join(shown)
    if isinstance(result, FactResult):
        return result.text
    if isinstance(result, RankResult):
        if rule is not None and rule.slowest_first:
            last = len(result.items)
            slowest = list(enumerate(result.items))[::-1][:3]
            shown_ = "; ".join(f"{i + 1}. of {last} {ranked_text(item, result.unit)}" for i, item in slowest)
            return f"{result.what}, slowest first: {shown_}"
        shown_ = "; ".join(f"{i + 1}. {ranked_text(item, result.unit)}" for i, item in enumerate(result.items[:3]))
        return f"{result.what}: {shown_}"
    if isinstance(result, ShareResult):
        return f"{result.what}: {result.matched} of {result.total} ({'; '.join(result.details)})"
    return result.why

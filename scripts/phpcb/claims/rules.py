"""How a measurement becomes a verdict: the decision only. Each rule returns the verdict and its basis
(which edge decided it, and what it was measured against); claims/wording.py says it in words.
docs/methodology.md ("The articles, checked") states each rule in prose.

A verdict is decided only when the whole 95 % CI lies on one side of every edge it turns on; a CI
that reaches across an edge is inconclusive, never the nearer verdict. A claim judged at several
conditions (`Ratios`) holds only as it holds at each: every one that could still go either way is
tried both ways, and the verdict is given only when every way gives the same one; a claim that holds at
some of its conditions and not at others has changed. A claim the ledger marks as true when it was
written (`held_then`: the article's own measurements or the facts of its day bore it out) and that the
data contradicts today has changed, not been refuted. A ranking the page states as groups of items no
measurement separates (the curves page's "c2tnb ≈ prime < secp ≈ …") is read from those groups."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from phpcb.claims.results import (
    ChoiceResult,
    FactResult,
    Ranked,
    RankResult,
    RatioResult,
    Ratios,
    Reference,
    Result,
    ShareResult,
    Unavailable,
)
from phpcb.claims.vocabulary import (
    CHANGED,
    DEFAULT_CHANGED_AT,
    DEFAULT_REPRODUCED_AT,
    DEFAULT_SLACK,
    FACTOR_TOLERANCE,
    INCONCLUSIVE,
    MIN_SAMPLES,
    MISSING,
    NO_DIFFERENCE,
    REFUTED,
    REPRODUCED,
    SIMILAR_TOLERANCE,
    UNTESTABLE,
)
from phpcb.presentation.wording import CI
from phpcb.statistics.stats import Ratio


@dataclass(frozen=True)
class Rule:
    """A claim's rule with its parameters, checked when data/reference/claims.yaml is loaded. The
    tolerance of a factor or similar claim is its kind's (vocabulary.TOLERANCES), never the claim's own."""

    kind: str
    claimed: Any = None
    slack: int = DEFAULT_SLACK
    reproduced_at: float = DEFAULT_REPRODUCED_AT
    changed_at: float = DEFAULT_CHANGED_AT
    pattern: str | None = None
    slowest_first: bool = False
    published: str = ""  # the claimed figure as the article printed it ("3x"), for factor claims
    # The claim held when the article was written (its own measurements or the facts of its day bore it
    # out): what the data contradicts today has changed, not been refuted.
    held_then: bool = False


@dataclass(frozen=True)
class Band:
    """A closed interval of ratios: a CI ending exactly on an edge is inside."""

    low: float
    high: float

    def holds(self, ratio: Ratio) -> bool:
        return self.low <= ratio.low and ratio.high <= self.high

    def excludes(self, ratio: Ratio) -> bool:
        return ratio.high < self.low or ratio.low > self.high


NO_DIFFERENCE_BAND = Band(1 / NO_DIFFERENCE, NO_DIFFERENCE)


def factor_band(claimed: float) -> Band:
    return Band(claimed / FACTOR_TOLERANCE.factor, claimed * FACTOR_TOLERANCE.factor)


SIMILAR_BAND = Band(1 / SIMILAR_TOLERANCE.factor, SIMILAR_TOLERANCE.factor)


# What decided a verdict: one of these per rule (claims/wording.py words each).
@dataclass(frozen=True)
class Untested:
    why: str
    kind: str


@dataclass(frozen=True)
class RatioBasis:
    """A ratio against a band: `case` names the edge that decided (see the rules below)."""

    case: str
    ratio: Ratio
    band: Band


@dataclass(frozen=True)
class PartsBasis:
    """A claim judged at several conditions: each condition's ratio with its own decision, the
    conditions too few samples left undecided, and those the run did not measure."""

    parts: tuple[tuple[RatioResult, Decision], ...]
    untested: tuple[tuple[RatioResult, Untested], ...] = ()
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class FactBasis:
    claimed: Any
    found: Any
    source: str


@dataclass(frozen=True)
class RankBasis:
    claimed: tuple[str, ...]
    places: dict[str, Places]
    shown: dict[str, Ranked]
    unit: str
    settled: bool  # every claimed item's place is decided
    grouped: str = ""  # the page's order as groups, where it states one ("c2tnb ≈ prime < secp …")


@dataclass(frozen=True)
class TopSetBasis:
    n: int
    inside: tuple[str, ...]
    undecided: tuple[str, ...]
    side: str  # "fastest" or "slowest"
    outside: tuple[tuple[str, Places], ...] = ()  # the claimed items certainly not among them, with their places


@dataclass(frozen=True)
class ShareBasis:
    matched: int
    total: int
    uncertain: int
    what: str


@dataclass(frozen=True)
class ChoiceBasis:
    admissible: bool
    picked: bool


Basis = Untested | RatioBasis | PartsBasis | FactBasis | RankBasis | TopSetBasis | ShareBasis | ChoiceBasis


@dataclass(frozen=True)
class Decision:
    verdict: str
    basis: Basis
    references: tuple[Reference, ...] = field(default=())
    outdated: bool = False  # refuted today, but true when written (Rule.held_then): hence changed


def _faster_side(ratio: Ratio) -> bool:
    """The subject is measurably faster: the whole CI above the no-difference band."""
    return ratio.low > NO_DIFFERENCE


def _slower_side(ratio: Ratio) -> bool:
    return ratio.high < 1 / NO_DIFFERENCE


def factor(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: the subject is `claimed` times faster (below 1: that much slower). Reproduced when the
    CI lies inside the factor tolerance around it and the difference is measurable that way; changed
    when the difference is measurable that way and the CI lies wholly outside; refuted when it is the
    other way round, or there is no measurable difference and the CI excludes the band; inconclusive
    when the CI reaches across an edge."""
    claimed = float(rule.claimed)
    band = factor_band(claimed)
    r = result.ratio
    claimed_side, other_side = (_faster_side, _slower_side) if claimed > 1 else (_slower_side, _faster_side)

    def decided(verdict: str, case: str) -> Decision:
        return Decision(verdict, RatioBasis(case, r, band))

    if other_side(r):
        return decided(REFUTED, "other_way")
    if NO_DIFFERENCE_BAND.holds(r):
        return decided(REFUTED, "no_difference")
    if claimed_side(r):
        if band.holds(r):
            return decided(REPRODUCED, "inside")
        if band.excludes(r):
            return decided(CHANGED, "outside")
        return decided(INCONCLUSIVE, "across_band")
    if band.excludes(r):
        return decided(REFUTED, "no_difference_band_excluded")
    return decided(INCONCLUSIVE, "across_difference")


def faster(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: the subject is faster, by no stated amount."""
    r = result.ratio
    if _faster_side(r):
        return Decision(REPRODUCED, RatioBasis("faster", r, NO_DIFFERENCE_BAND))
    if _slower_side(r):
        return Decision(REFUTED, RatioBasis("slower", r, NO_DIFFERENCE_BAND))
    if NO_DIFFERENCE_BAND.holds(r):
        return Decision(REFUTED, RatioBasis("no_difference", r, NO_DIFFERENCE_BAND))
    return Decision(INCONCLUSIVE, RatioBasis("across_difference", r, NO_DIFFERENCE_BAND))


def similar(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: no difference worth naming. Reproduced if the whole CI lies within the similar
    tolerance either way, refuted if it lies wholly outside, inconclusive if it reaches across an edge."""
    r = result.ratio
    if SIMILAR_BAND.holds(r):
        return Decision(REPRODUCED, RatioBasis("inside", r, SIMILAR_BAND))
    if SIMILAR_BAND.excludes(r):
        return Decision(REFUTED, RatioBasis("outside", r, SIMILAR_BAND))
    return Decision(INCONCLUSIVE, RatioBasis("across_band", r, SIMILAR_BAND))


def _normal(value: Any) -> Any:
    """Lists compare as sets of their items: "4, 6 … 16" is "16 … 4"."""
    if isinstance(value, list | tuple):
        return frozenset(str(v) for v in value)
    return value


def equal(rule: Rule, result: FactResult) -> Decision:
    """Claimed: a fact. Reproduced if the fact is what was claimed, else refuted (changed, by decide(),
    if it held when the article was written)."""
    basis = FactBasis(rule.claimed, result.value, result.source)
    if _normal(result.value) == _normal(rule.claimed):
        return Decision(REPRODUCED, basis, result.references)
    return Decision(REFUTED, basis, result.references)


@dataclass(frozen=True)
class Places:
    """Where an item can be in the order, given the CIs: every item whose CI lies wholly on its better
    side is certainly before it, every one wholly on its worse side certainly after; the rest may be
    either. An item not measured may be anywhere."""

    first: int
    last: int

    @classmethod
    def of(cls, item: Ranked | None, items: tuple[Ranked, ...]) -> Places:
        if item is None:
            return cls(0, len(items))
        before = sum(1 for other in items if other is not item and other.high < item.low)
        after = sum(1 for other in items if other is not item and other.low > item.high)
        return cls(before, len(items) - 1 - after)

    @classmethod
    def in_groups(cls, name: str, groups: tuple[tuple[str, ...], ...], size: int) -> Places:
        """An item's places in an order stated as groups (best first): anywhere within its group; an
        item in no group may be anywhere."""
        before = 0
        for group in groups:
            if name in group:
                return cls(before, before + len(group) - 1)
            before += len(group)
        return cls(0, size)

    def distance(self, place: int) -> int:
        return max(self.first - place, place - self.last, 0)


def _ordered(rule: Rule, result: RankResult) -> tuple[Ranked, ...]:
    """Best first; with `slowest_first`, the slowest first (its CIs mirrored, so 'before' still means 'more so')."""
    if not rule.slowest_first:
        return result.items
    return tuple(Ranked(i.name, -i.value, -i.high, -i.low) for i in reversed(result.items))


def _places(rule: Rule, result: RankResult, names: list[str]) -> dict[str, Places]:
    """Each name's possible places: from the page's groups where it states them, else from the CIs."""
    items = _ordered(rule, result)
    if result.groups:
        groups = tuple(reversed(result.groups)) if rule.slowest_first else result.groups
        return {name: Places.in_groups(name, groups, len(items)) for name in names}
    by_name = {item.name: item for item in items}
    return {name: Places.of(by_name.get(name), items) for name in names}


def rank(rule: Rule, result: RankResult) -> Decision:
    """Claimed: the listed items take the first places, in order. Reproduced when each is certainly in
    its place (no CI overlaps it from a neighbouring place); refuted when one is certainly more than
    `slack` places off; changed when one is certainly off by at most `slack`; else inconclusive."""
    claimed = tuple(str(name) for name in rule.claimed)
    by_name = {item.name: item for item in result.items}
    if not any(name in by_name for name in claimed):
        return Decision(
            UNTESTABLE, Untested(f"none of the claimed items was measured: {', '.join(claimed)}", "missing")
        )
    places = _places(rule, result, list(claimed))
    misses = [places[name].distance(wanted) for wanted, name in enumerate(claimed)]
    settled = all(places[name].first == places[name].last for name in claimed)
    grouped = " < ".join(" ≈ ".join(group) for group in result.groups)
    basis = RankBasis(claimed, places, {item.name: item for item in result.items}, result.unit, settled, grouped)
    if any(miss > rule.slack for miss in misses):
        return Decision(REFUTED, basis)
    if any(miss > 0 for miss in misses):
        return Decision(CHANGED, basis)
    return Decision(REPRODUCED if settled else INCONCLUSIVE, basis)


def _claimed_set(rule: Rule, names: list[str]) -> list[str]:
    if rule.pattern is not None:
        pattern = re.compile(rule.pattern)
        return [name for name in names if pattern.search(name)]
    return [str(name) for name in rule.claimed]


def _by_bounds(certain: int, possible: int, total: int, rule: Rule) -> str:
    """A share of parts decided by both its bounds: `certain` parts hold for sure, `possible` at most."""
    low, high = certain / total, possible / total
    if low >= rule.reproduced_at:
        return REPRODUCED
    if high < rule.changed_at:
        return REFUTED
    if low >= rule.changed_at and high < rule.reproduced_at:
        return CHANGED
    return INCONCLUSIVE


def top_set(rule: Rule, result: RankResult) -> Decision:
    """Claimed: these n items (a list, or every measured name matching `pattern`) are the n best (or,
    with `slowest_first`, the n slowest), in any order. An item is certainly among them when at most
    n − 1 others could be ahead of it, certainly not when n others are ahead for sure; an item whose
    CI overlaps the n-th's, or that was not measured, may be either."""
    by_name = {item.name: item for item in _ordered(rule, result)}
    claimed = _claimed_set(rule, list(by_name))
    if not any(name in by_name for name in claimed):
        return Decision(UNTESTABLE, Untested("none of the claimed items was measured", MISSING))
    n = len(claimed)
    places = _places(rule, result, claimed)
    inside = tuple(sorted(name for name in claimed if places[name].last < n))
    outside = {name for name in claimed if places[name].first >= n}
    undecided = tuple(sorted(name for name in claimed if name not in outside and name not in inside))
    out = tuple((name, places[name]) for name in sorted(outside))
    basis = TopSetBasis(n, inside, undecided, "slowest" if rule.slowest_first else "fastest", out)
    return Decision(_by_bounds(len(inside), len(inside) + len(undecided), n, rule), basis)


def share(rule: Rule, result: ShareResult) -> Decision:
    if result.total == 0:
        return Decision(UNTESTABLE, Untested(f"nothing to compare: {result.what}", MISSING))
    verdict = _by_bounds(result.matched, result.matched + result.uncertain, result.total, rule)
    return Decision(verdict, ShareBasis(result.matched, result.total, result.uncertain, result.what), result.references)


def choice(rule: Rule, result: ChoiceResult) -> Decision:
    """Claimed: use X. Reproduced if the site picks X, changed if X is allowed but not the pick,
    refuted if the facts or the numbers rule X out."""
    basis = ChoiceBasis(result.admissible, result.picked)
    if not result.admissible:
        return Decision(REFUTED, basis, result.references)
    return Decision(REPRODUCED if result.picked else CHANGED, basis, result.references)


EXPECTS: dict[str, tuple[type, ...]] = {
    "factor": (RatioResult, Ratios),
    "faster": (RatioResult, Ratios),
    "similar": (RatioResult, Ratios),
    "equal": (FactResult,),
    "rank": (RankResult,),
    "top_set": (RankResult,),
    "share": (ShareResult,),
    "choice": (ChoiceResult,),
}
RATIO_RULES = {"factor": factor, "faster": faster, "similar": similar}
# What an undecided condition could still turn out to be, per rule.
POSSIBLE = {"factor": (REPRODUCED, CHANGED, REFUTED), "faster": (REPRODUCED, REFUTED), "similar": (REPRODUCED, REFUTED)}


def _all_conditions(verdicts: tuple[str, ...]) -> str:
    """The verdict of a claim judged at several conditions, each decided: the same everywhere, that one.
    A claim that holds (or has changed) at some of them and is refuted at others has changed: "no
    difference worth naming" true of short strings and not of long ones is a claim whose extent changed,
    as a factor reproduced at one size and larger at another is. Refuted only where it fails at every one."""
    if len(set(verdicts)) == 1:
        return verdicts[0]
    return CHANGED if {REPRODUCED, CHANGED} & set(verdicts) else REFUTED


def _too_few(result: RatioResult) -> Untested | None:
    if min(result.samples) < MIN_SAMPLES:
        return Untested(
            f"too few samples for a {CI}: {result.samples[0]} and {result.samples[1]} "
            f"(a median's needs {MIN_SAMPLES}; {result.where})",
            "samples",
        )
    if not (math.isfinite(result.ratio.low) and math.isfinite(result.ratio.high)):
        return Untested(f"no finite {CI} ({result.where})", "samples")
    return None


def _ratio(rule: Rule, result: RatioResult) -> Decision:
    too_few = _too_few(result)
    if too_few is not None:
        return Decision(UNTESTABLE, too_few)
    return RATIO_RULES[rule.kind](rule, result)


def _conditions(rule: Rule, result: Ratios) -> Decision:
    judged = [(part, _ratio(rule, part)) for part in result.parts]
    decided = tuple((part, d) for part, d in judged if d.verdict != UNTESTABLE)
    untested = tuple((part, d.basis) for part, d in judged if isinstance(d.basis, Untested))
    basis = PartsBasis(decided, untested, result.missing)  # type: ignore[arg-type]
    if not decided:
        why = "; ".join(u.why for _, u in untested) or f"none measured in this run: {', '.join(result.missing)}"
        return Decision(UNTESTABLE, Untested(why, "samples" if untested else MISSING))
    options = [POSSIBLE[rule.kind] if d.verdict == INCONCLUSIVE else (d.verdict,) for _, d in decided]
    outcomes = {_all_conditions(combination) for combination in product(*options)}
    return Decision(outcomes.pop() if len(outcomes) == 1 else INCONCLUSIVE, basis)


def decide(rule: Rule, result: Result) -> Decision:
    """The verdict: a measure that cannot decide gives "not testable here" with its reason; a claim the
    data refutes today that held when it was written (`held_then`) has changed."""
    decision = _decide(rule, result)
    if rule.held_then and decision.verdict == REFUTED:
        return Decision(CHANGED, decision.basis, decision.references, outdated=True)
    return decision


def _decide(rule: Rule, result: Result) -> Decision:
    if isinstance(result, Unavailable):
        return Decision(UNTESTABLE, Untested(result.why, result.kind))
    expected = EXPECTS[rule.kind]
    if not isinstance(result, expected):
        names = " or ".join(kind.__name__ for kind in expected)
        raise TypeError(f"rule {rule.kind} expects a {names}, got a {type(result).__name__}")
    if isinstance(result, Ratios):
        return _conditions(rule, result)
    if isinstance(result, RatioResult):
        return _ratio(rule, result)
    judge = {"equal": equal, "rank": rank, "top_set": top_set, "share": share, "choice": choice}[rule.kind]
    return judge(rule, result)  # type: ignore[operator]

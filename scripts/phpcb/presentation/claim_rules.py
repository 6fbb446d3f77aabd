"""How a claim of a source article is judged against what one run measured.

A measure (scripts/phpcb/<experiment>/measures.py) turns an experiment's analysis into one of the
results below; a rule (data/reference/claims.yaml, `rule`) turns the result into a verdict:
**reproduced**, **changed** (same direction, different size; or true when written, not today),
**refuted**, **inconclusive** (the data cannot decide: a CI straddles an edge the verdict turns on),
or **not testable here**. docs/methodology.md ("The articles, checked") states each rule in prose.

A verdict is decided only when the whole 95 % CI lies on one side of every edge it turns on; a CI
that reaches across an edge is inconclusive, never the nearer verdict.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from phpcb.presentation.wording import estimate
from phpcb.statistics.stats import MIN_PAIRS, NOISE_THRESHOLD, Ratio

REPRODUCED = "reproduced"
CHANGED = "changed"
REFUTED = "refuted"
INCONCLUSIVE = "inconclusive"
UNTESTABLE = "not testable here"
VERDICTS = (REPRODUCED, CHANGED, REFUTED, INCONCLUSIVE, UNTESTABLE)

RULES = ("factor", "faster", "similar", "equal", "rank", "top_set", "share", "choice")
DEFAULT_BAND = 1.5  # factor: the claimed factor, divided or multiplied by this, still reproduces it
DEFAULT_WITHIN = 1.25  # similar: "negligible" means within 25 % either way
DEFAULT_SLACK = 2  # rank: a claimed place missed by at most this many places is "changed"
DEFAULT_REPRODUCED_AT = 1.0  # top_set, share: the fraction that reproduces the claim
DEFAULT_CHANGED_AT = 0.5  # top_set, share: below this fraction, refuted
# A ratio is a measurable difference only when its whole CI lies beyond this, either side of 1
# (the site's rule for "A is faster": stats.Ratio.significant).
NO_DIFFERENCE = 1.0 + NOISE_THRESHOLD
# The fewest samples a side needs for a 95 % CI of its median (order statistics: n = 6). A bootstrap
# of fewer still gives two numbers, but they are not a 95 % interval.
MIN_SAMPLES = MIN_PAIRS


@dataclass(frozen=True)
class Reference:
    title: str
    url: str


@dataclass(frozen=True)
class Fact:
    """A documented fact (data/reference/claims.yaml `facts:`): its value, what it says, and its sources."""

    key: str
    value: Any
    statement: str
    references: tuple[Reference, ...]


@dataclass(frozen=True)
class Unavailable:
    """The run cannot decide the claim; `why` says what is missing."""

    why: str
    measured: str = ""


@dataclass(frozen=True)
class RatioResult:
    """How many times faster `subject` is than `baseline` (baseline time / subject time), with its CI
    and how many samples each side had."""

    subject: str
    baseline: str
    ratio: Ratio
    where: str  # e.g. "AES-256-CBC encrypt, 4 KiB"
    samples: tuple[int, int]


@dataclass(frozen=True)
class FactResult:
    """A fact about the software: what the runner observed, or a documented fact with its references."""

    value: Any
    text: str
    source: str  # "this run's verification", or what the references are
    references: tuple[Reference, ...] = ()


@dataclass(frozen=True)
class Ranked:
    name: str
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class RankResult:
    """Items best first (lowest value first), each with its 95 % CI."""

    items: tuple[Ranked, ...]
    what: str  # e.g. "curves by key-generation time per key bit (%)"
    unit: str = ""


@dataclass(frozen=True)
class ShareResult:
    """How many of the claim's parts hold: `matched` of `total` for certain, `uncertain` more that the
    data cannot decide, and which."""

    matched: int
    total: int
    details: tuple[str, ...]
    what: str
    uncertain: int = 0
    references: tuple[Reference, ...] = ()


@dataclass(frozen=True)
class ChoiceResult:
    """A recommendation: whether the claimed choice is allowed at all, and whether the site picks it."""

    admissible: bool
    picked: bool
    why: str
    references: tuple[Reference, ...] = ()


Result = Unavailable | RatioResult | FactResult | RankResult | ShareResult | ChoiceResult


class ArgumentError(Exception):
    """A claim's `args` lack what its measure needs (reported as a DataError on data/reference/claims.yaml)."""


class Args:
    """A claim's `args`, read by its measure with a check of each one's type, and the ledger's facts."""

    def __init__(self, values: dict[str, Any], facts: dict[str, Fact] | None = None) -> None:
        self.values = values
        self.facts = facts or {}

    def _get(self, key: str, kind: type | tuple[type, ...], label: str) -> Any:
        value = self.values.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ArgumentError(f"expected args.{key} to be {label}, got {value!r}")
        return value

    def integer(self, key: str) -> int:
        return int(self._get(key, int, "an integer"))

    def number(self, key: str) -> float:
        return float(self._get(key, (int, float), "a number"))

    def text(self, key: str) -> str:
        return str(self._get(key, str, "text"))

    def optional_text(self, key: str) -> str | None:
        return self.text(key) if key in self.values else None

    def integers(self, key: str) -> list[int]:
        values = self._get(key, list, "a list of integers")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ArgumentError(f"expected args.{key} to be a list of integers, got {values!r}")
        return [int(v) for v in values]

    def fact(self, key: str = "fact") -> Fact:
        """The documented fact that args.<key> names."""
        name = self.text(key)
        if name not in self.facts:
            raise ArgumentError(f"args.{key} names no fact {name!r} under facts")
        return self.facts[name]


# A measure: (the experiment's page context for its shown run, the experiment's inputs, the claim's args).
Measure = Callable[[dict[str, Any], Any, Args], Result]


@dataclass(frozen=True)
class Rule:
    """A claim's rule with its parameters, checked when data/reference/claims.yaml is loaded."""

    kind: str
    claimed: Any = None
    band: float = DEFAULT_BAND
    within: float = DEFAULT_WITHIN
    slack: int = DEFAULT_SLACK
    reproduced_at: float = DEFAULT_REPRODUCED_AT
    changed_at: float = DEFAULT_CHANGED_AT
    pattern: str | None = None
    slowest_first: bool = False
    published: str = ""  # the claimed figure as the article printed it ("3x"), for factor claims
    held_then: bool = False  # equal: the fact held when the article was written (a mismatch is "changed")


@dataclass(frozen=True)
class Decision:
    verdict: str
    reason: str
    references: tuple[Reference, ...] = field(default=())


@dataclass(frozen=True)
class Band:
    """A closed interval of ratios: a CI ending exactly on an edge is inside."""

    low: float
    high: float

    def holds(self, ratio: Ratio) -> bool:
        return self.low <= ratio.low and ratio.high <= self.high

    def excludes(self, ratio: Ratio) -> bool:
        return ratio.high < self.low or ratio.low > self.high

    def __str__(self) -> str:
        return f"{self.low:.3g}–{self.high:.3g}×"


NO_DIFFERENCE_BAND = Band(1 / NO_DIFFERENCE, NO_DIFFERENCE)


def _ci(ratio: Ratio) -> str:
    return estimate(ratio.value, ratio.low, ratio.high)


def _faster_side(ratio: Ratio) -> bool:
    """The subject is measurably faster: the whole CI above the no-difference band."""
    return ratio.low > NO_DIFFERENCE


def _slower_side(ratio: Ratio) -> bool:
    return ratio.high < 1 / NO_DIFFERENCE


def published(rule: Rule) -> str:
    """The claimed factor as the article printed it: "3x", never "3.00×"."""
    return rule.published or f"{float(rule.claimed):g}x"


def factor(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: the subject is `claimed` times faster (below 1: that much slower). Reproduced when the
    CI lies inside claimed ÷ band … claimed × band and the difference is measurable that way; changed
    when the difference is measurable that way and the CI lies wholly outside the band; refuted when
    it is the other way round, or there is no measurable difference and the CI excludes the band;
    inconclusive when the CI reaches across an edge."""
    claimed = float(rule.claimed)
    band = Band(claimed / rule.band, claimed * rule.band)
    r = result.ratio
    said = f"claimed {published(rule)} (band {band})"
    claimed_side, other_side = (_faster_side, _slower_side) if claimed > 1 else (_slower_side, _faster_side)
    if other_side(r):
        return Decision(REFUTED, f"{said}; the other way round: {_ci(r)}")
    if NO_DIFFERENCE_BAND.holds(r):
        return Decision(REFUTED, f"{said}; no measurable difference: {_ci(r)}")
    if claimed_side(r):
        if band.holds(r):
            return Decision(REPRODUCED, f"{said}; {_ci(r)} lies inside it")
        if band.excludes(r):
            return Decision(CHANGED, f"{said}; {_ci(r)} lies wholly outside it")
        return Decision(INCONCLUSIVE, f"{said}; {_ci(r)} reaches across its edge")
    if band.excludes(r):
        return Decision(REFUTED, f"{said}; no measurable difference, and {_ci(r)} excludes the band")
    return Decision(INCONCLUSIVE, f"{said}; {_ci(r)} reaches across the edge of a measurable difference")


def faster(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: the subject is faster, by no stated amount."""
    r = result.ratio
    if _faster_side(r):
        return Decision(REPRODUCED, f"{result.subject} is faster: {_ci(r)}")
    if _slower_side(r):
        return Decision(REFUTED, f"{result.baseline} is faster: {_ci(r)}")
    if NO_DIFFERENCE_BAND.holds(r):
        return Decision(REFUTED, f"no measurable difference: {_ci(r)} lies within {NO_DIFFERENCE_BAND}")
    return Decision(INCONCLUSIVE, f"{_ci(r)} reaches across the edge of a measurable difference ({NO_DIFFERENCE_BAND})")


def similar(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: no difference worth mentioning. Reproduced if the whole CI lies within ±`within`,
    refuted if it lies wholly outside, inconclusive if it reaches across an edge."""
    band = Band(1 / rule.within, rule.within)
    r = result.ratio
    if band.holds(r):
        return Decision(REPRODUCED, f"{_ci(r)} lies within {band}")
    if band.excludes(r):
        return Decision(REFUTED, f"{_ci(r)} lies wholly outside {band}")
    return Decision(INCONCLUSIVE, f"{_ci(r)} reaches across an edge of {band}")


def _normal(value: Any) -> Any:
    """Lists compare as sets of their items: "4, 6 … 16" is "16 … 4"."""
    if isinstance(value, list | tuple):
        return frozenset(str(v) for v in value)
    return value


def equal(rule: Rule, result: FactResult) -> Decision:
    """Claimed: a fact. Reproduced if the fact is what was claimed; else changed if it held when the
    article was written (`held_then`), refuted if it did not."""
    found = f"claimed {plain(rule.claimed)}, found {plain(result.value)} (source: {result.source})"
    if _normal(result.value) == _normal(rule.claimed):
        return Decision(REPRODUCED, found, result.references)
    if rule.held_then:
        return Decision(CHANGED, f"{found}; it held when the article was written", result.references)
    return Decision(REFUTED, found, result.references)


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

    def distance(self, place: int) -> int:
        return max(self.first - place, place - self.last, 0)


def _ordered(rule: Rule, result: RankResult) -> tuple[Ranked, ...]:
    """Best first; with `slowest_first`, the slowest first (its CIs mirrored, so 'before' still means 'more so')."""
    if not rule.slowest_first:
        return result.items
    return tuple(Ranked(i.name, -i.value, -i.high, -i.low) for i in reversed(result.items))


def rank(rule: Rule, result: RankResult) -> Decision:
    """Claimed: the listed items take the first places, in order. Reproduced when each is certainly in
    its place (no CI overlaps it from a neighbouring place); refuted when one is certainly more than
    `slack` places off; changed when one is certainly off by at most `slack`; else inconclusive."""
    claimed = [str(name) for name in rule.claimed]
    items = _ordered(rule, result)
    by_name = {item.name: item for item in items}
    if not any(name in by_name for name in claimed):
        return Decision(UNTESTABLE, f"none of the claimed items was measured: {', '.join(claimed)}")
    places = {name: Places.of(by_name.get(name), items) for name in claimed}
    misses = {name: places[name].distance(wanted) for wanted, name in enumerate(claimed)}
    shown = {item.name: item for item in result.items}
    order = "; ".join(_place(name, shown, places[name], result.unit) for name in claimed)
    reason = f"claimed {' then '.join(claimed)}; {order}"
    if any(miss > rule.slack for miss in misses.values()):
        return Decision(REFUTED, reason)
    if any(miss > 0 for miss in misses.values()):
        return Decision(CHANGED, reason)
    if all(places[name].first == places[name].last for name in claimed):
        return Decision(REPRODUCED, reason)
    return Decision(INCONCLUSIVE, f"{reason} (CIs overlap: the order is not decided)")


def _place(name: str, by_name: dict[str, Ranked], places: Places, unit: str) -> str:
    if name not in by_name:
        return f"{name} not measured"
    where = f"{places.first + 1}." if places.first == places.last else f"{places.first + 1}.–{places.last + 1}."
    return f"{name} {where} ({_ranked(by_name[name], unit)})"


def _claimed_set(rule: Rule, names: list[str]) -> list[str]:
    if rule.pattern is not None:
        pattern = re.compile(rule.pattern)
        return [name for name in names if pattern.search(name)]
    return [str(name) for name in rule.claimed]


def _by_bounds(certain: int, possible: int, total: int, rule: Rule, reason: str) -> Decision:
    """A share of parts decided by both its bounds: `certain` parts hold for sure, `possible` at most."""
    low, high = certain / total, possible / total
    if low >= rule.reproduced_at:
        return Decision(REPRODUCED, reason)
    if high < rule.changed_at:
        return Decision(REFUTED, reason)
    if low >= rule.changed_at and high < rule.reproduced_at:
        return Decision(CHANGED, reason)
    return Decision(INCONCLUSIVE, f"{reason} (the undecided ones decide the verdict)")


def top_set(rule: Rule, result: RankResult) -> Decision:
    """Claimed: these n items (a list, or every measured name matching `pattern`) are the n best (or,
    with `slowest_first`, the n slowest), in any order. An item is certainly among them when at most
    n − 1 others could be ahead of it, certainly not when n others are ahead for sure; an item whose
    CI overlaps the n-th's, or that was not measured, may be either."""
    items = _ordered(rule, result)
    by_name = {item.name: item for item in items}
    claimed = _claimed_set(rule, list(by_name))
    measured_ = [name for name in claimed if name in by_name]
    if not measured_:
        return Decision(UNTESTABLE, "none of the claimed items was measured")
    n = len(claimed)
    places = {name: Places.of(by_name.get(name), items) for name in claimed}
    inside = sorted(name for name in claimed if places[name].last < n)
    outside = {name for name in claimed if places[name].first >= n}
    undecided = sorted(name for name in claimed if name not in outside and name not in inside)
    side = "slowest" if rule.slowest_first else "fastest"
    reason = f"{len(inside)} of the {n} claimed are certainly among the {n} {side}: {', '.join(inside) or 'none'}"
    if undecided:
        reason += f"; undecided: {', '.join(undecided)}"
    return _by_bounds(len(inside), len(inside) + len(undecided), n, rule, reason)


def share(rule: Rule, result: ShareResult) -> Decision:
    if result.total == 0:
        return Decision(UNTESTABLE, f"nothing to compare: {result.what}")
    reason = f"{result.matched} of {result.total} hold"
    if result.uncertain:
        reason += f", {result.uncertain} undecided"
    decision = _by_bounds(result.matched, result.matched + result.uncertain, result.total, rule, reason)
    return Decision(decision.verdict, decision.reason, result.references)


def choice(rule: Rule, result: ChoiceResult) -> Decision:
    """Claimed: use X. Reproduced if the site picks X, changed if X is allowed but not the pick,
    refuted if the facts or the numbers rule X out."""
    if not result.admissible:
        return Decision(REFUTED, "ruled out here by the facts or the numbers", result.references)
    if result.picked:
        return Decision(REPRODUCED, "sound, and what this site advises", result.references)
    return Decision(CHANGED, "sound, but not what this site advises", result.references)


def _number(value: float) -> str:
    """3 significant digits, never in exponent form ("1,130", "0.131")."""
    if not math.isfinite(value) or value == 0:
        return f"{value:g}"
    places = max(2 - math.floor(math.log10(abs(value))), 0)
    return f"{round(value, places):,.{places}f}"


def _ranked(item: Ranked, unit: str) -> str:
    return f"{item.name} {_number(item.value)}{unit} (95% CI {_number(item.low)}–{_number(item.high)})"


def measured(result: Result, rule: Rule | None = None) -> str:
    """What the run measured, as one line of plain text (escaped where it is rendered)."""
    if isinstance(result, Unavailable):
        return result.measured or "–"
    if isinstance(result, RatioResult):
        n = f"n = {result.samples[0]} and {result.samples[1]}"
        return f"{result.where}: {result.subject} over {result.baseline}, {_ci(result.ratio)}, {n}"
    if isinstance(result, FactResult):
        return result.text
    if isinstance(result, RankResult):
        if rule is not None and rule.slowest_first:
            last = len(result.items)
            slowest = list(enumerate(result.items))[::-1][:3]
            shown = "; ".join(f"{i + 1}. of {last} {_ranked(item, result.unit)}" for i, item in slowest)
            return f"{result.what}, slowest first: {shown}"
        shown = "; ".join(f"{i + 1}. {_ranked(item, result.unit)}" for i, item in enumerate(result.items[:3]))
        return f"{result.what}: {shown}"
    if isinstance(result, ShareResult):
        return f"{result.what}: {result.matched} of {result.total} ({'; '.join(result.details)})"
    return result.why


EXPECTS: dict[str, type] = {
    "factor": RatioResult,
    "faster": RatioResult,
    "similar": RatioResult,
    "equal": FactResult,
    "rank": RankResult,
    "top_set": RankResult,
    "share": ShareResult,
    "choice": ChoiceResult,
}


def _too_few(result: RatioResult) -> str | None:
    if min(result.samples) < MIN_SAMPLES:
        return (
            f"too few samples for a 95% CI: {result.samples[0]} and {result.samples[1]} "
            f"(a median's needs {MIN_SAMPLES}; {result.where})"
        )
    if not (math.isfinite(result.ratio.low) and math.isfinite(result.ratio.high)):
        return f"no finite 95% CI ({result.where})"
    return None


def decide(rule: Rule, result: Result) -> Decision:
    """The verdict: a measure that cannot decide gives "not testable here" with its reason."""
    if isinstance(result, Unavailable):
        return Decision(UNTESTABLE, result.why)
    expected = EXPECTS[rule.kind]
    if not isinstance(result, expected):
        raise TypeError(f"rule {rule.kind} expects a {expected.__name__}, got a {type(result).__name__}")
    if isinstance(result, RatioResult):
        too_few = _too_few(result)
        if too_few is not None:
            return Decision(UNTESTABLE, too_few)
    judge = {
        "factor": factor,
        "faster": faster,
        "similar": similar,
        "equal": equal,
        "rank": rank,
        "top_set": top_set,
        "share": share,
        "choice": choice,
    }[rule.kind]
    return judge(rule, result)  # type: ignore[operator]

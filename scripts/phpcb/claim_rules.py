"""How a claim of a source article is judged against what one run measured.

A measure (scripts/phpcb/<experiment>/measures.py) turns an experiment's analysis into one of the
results below; a rule (data/reference/claims.yaml, `rule`) turns the result into a verdict:
**reproduced**, **changed** (same direction, different size), **refuted**, or **not testable here**.
docs/methodology.md ("The articles, checked") states each rule in prose.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .stats import Ratio
from .wording import speedup

REPRODUCED = "reproduced"
CHANGED = "changed"
REFUTED = "refuted"
UNTESTABLE = "not testable here"
VERDICTS = (REPRODUCED, CHANGED, REFUTED, UNTESTABLE)

RULES = ("factor", "faster", "similar", "equal", "rank", "top_set", "share", "choice")
DEFAULT_BAND = 1.5  # factor: the claimed factor, divided or multiplied by this, still reproduces it
DEFAULT_WITHIN = 1.25  # similar: "negligible" means within 25 % either way
DEFAULT_SLACK = 2  # rank: a claimed place missed by at most this many places is "changed"
DEFAULT_REPRODUCED_AT = 1.0  # top_set, share: the fraction that reproduces the claim
DEFAULT_CHANGED_AT = 0.5  # top_set, share: below this fraction, refuted


@dataclass(frozen=True)
class Unavailable:
    """The run cannot decide the claim; `why` says what is missing."""

    why: str
    measured: str = ""


@dataclass(frozen=True)
class RatioResult:
    """How many times faster `subject` is than `baseline` (baseline time / subject time), with its CI."""

    subject: str
    baseline: str
    ratio: Ratio
    where: str  # e.g. "AES-256-CBC encrypt, 4 KiB"


@dataclass(frozen=True)
class FactResult:
    """A fact about the software, from the run (what the runner verified) or from data/policy/."""

    value: Any
    text: str
    source: str  # "this run", or the policy file and its references


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
    """How many of the claim's parts hold: `matched` of `total`, and which."""

    matched: int
    total: int
    details: tuple[str, ...]
    what: str


@dataclass(frozen=True)
class ChoiceResult:
    """A recommendation: whether the claimed choice is allowed at all, and whether the site picks it."""

    admissible: bool
    picked: bool
    why: str


Result = Unavailable | RatioResult | FactResult | RankResult | ShareResult | ChoiceResult


class ArgumentError(Exception):
    """A claim's `args` lack what its measure needs (reported as a DataError on data/reference/claims.yaml)."""


class Args:
    """A claim's `args`, read by its measure with a check of each one's type."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values

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

    def integers(self, key: str) -> list[int]:
        values = self._get(key, list, "a list of integers")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ArgumentError(f"expected args.{key} to be a list of integers, got {values!r}")
        return [int(v) for v in values]


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


@dataclass(frozen=True)
class Decision:
    verdict: str
    reason: str


def _x(value: float) -> str:
    return f"{value:.3g}×"


def _ci(ratio: Ratio) -> str:
    return f"{ratio.value:.3g}× (95% CI {ratio.low:.3g}–{ratio.high:.3g}×)"


def _finite(ratio: Ratio) -> bool:
    return math.isfinite(ratio.low) and math.isfinite(ratio.high)


def factor(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: the subject is `claimed` times faster. Reproduced if the CI meets the band around it."""
    claimed = float(rule.claimed)
    low, high = claimed / rule.band, claimed * rule.band
    r = result.ratio
    if not r.significant:
        return Decision(REFUTED, f"claimed {_x(claimed)}; no measurable difference: {_ci(r)}")
    if (r.value > 1) != (claimed > 1):
        return Decision(REFUTED, f"claimed {_x(claimed)}; the other way round: {_ci(r)}")
    if r.high >= low and r.low <= high:
        return Decision(REPRODUCED, f"claimed {_x(claimed)}; {_ci(r)} meets {_x(low)}–{_x(high)}")
    return Decision(CHANGED, f"claimed {_x(claimed)}; {_ci(r)} lies outside {_x(low)}–{_x(high)}")


def faster(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: the subject is faster, by no stated amount."""
    r = result.ratio
    if r.significant and r.value > 1:
        return Decision(REPRODUCED, f"{result.subject} is faster: {_ci(r)}")
    if r.significant:
        return Decision(REFUTED, f"{result.baseline} is faster: {_ci(r)}")
    return Decision(REFUTED, f"no measurable difference: {_ci(r)}")


def similar(rule: Rule, result: RatioResult) -> Decision:
    """Claimed: no difference worth mentioning. Reproduced if the whole CI lies within ±`within`."""
    low, high = 1 / rule.within, rule.within
    r = result.ratio
    band = f"{low:.3g}–{high:.3g}×"
    if low <= r.low and r.high <= high:
        return Decision(REPRODUCED, f"{_ci(r)} lies within {band}")
    if r.high < low or r.low > high:
        return Decision(REFUTED, f"{_ci(r)} lies wholly outside {band}")
    return Decision(CHANGED, f"{_ci(r)} reaches past {band}")


def equal(rule: Rule, result: FactResult) -> Decision:
    """Claimed: a fact. Reproduced if the fact is what was claimed, else refuted."""
    found = f"claimed {_plain(rule.claimed)}, found {_plain(result.value)} (source: {result.source})"
    return Decision(REPRODUCED if result.value == rule.claimed else REFUTED, found)


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _tied(a: Ranked, b: Ranked) -> bool:
    return a.low <= b.high and b.low <= a.high


def rank(rule: Rule, result: RankResult) -> Decision:
    """Claimed: the listed items take the first places, in order. A place counts as held when the item
    is there or its CI overlaps the CI of the item there; missed by at most `slack` places: changed."""
    claimed = [str(name) for name in rule.claimed]
    places = {item.name: index for index, item in enumerate(result.items)}
    missing = [name for name in claimed if name not in places]
    if missing:
        return Decision(REFUTED, f"not measured: {', '.join(missing)}")
    held, near = [], []
    for wanted, name in enumerate(claimed):
        place = places[name]
        item = result.items[place]
        holder = result.items[wanted] if wanted < len(result.items) else item
        held.append(place == wanted or _tied(item, holder))
        near.append(place <= wanted + rule.slack)
    order = "; ".join(
        f"{name} is {places[name] + 1}.: {_ranked(result.items[places[name]], result.unit)}" for name in claimed
    )
    top = _ranked(result.items[0], result.unit)
    if all(held):
        return Decision(REPRODUCED, f"places: {order} (first: {top})")
    if all(near):
        return Decision(CHANGED, f"places: {order} (first: {top})")
    return Decision(REFUTED, f"places: {order} (first: {top})")


def _claimed_set(rule: Rule, names: list[str]) -> list[str]:
    if rule.pattern is not None:
        pattern = re.compile(rule.pattern)
        return [name for name in names if pattern.search(name)]
    return [str(name) for name in rule.claimed if str(name) in names]


def _by_share(matched: int, total: int, rule: Rule, reason: str) -> Decision:
    share = matched / total
    if share >= rule.reproduced_at:
        return Decision(REPRODUCED, reason)
    if share >= rule.changed_at:
        return Decision(CHANGED, reason)
    return Decision(REFUTED, reason)


def top_set(rule: Rule, result: RankResult) -> Decision:
    """Claimed: these n items (a list, or every measured name matching `pattern`) are the n best (or,
    with `slowest_first`, the n slowest), in any order. An item tied with the n-th (CIs overlap) counts."""
    items = list(reversed(result.items)) if rule.slowest_first else list(result.items)
    claimed = _claimed_set(rule, [item.name for item in items])
    if not claimed:
        return Decision(REFUTED, "none of the claimed items was measured")
    n = len(claimed)
    edge = items[min(n, len(items)) - 1]
    top = {item.name for item in items[:n]}
    inside = [name for name in claimed if name in top or _tied(next(i for i in items if i.name == name), edge)]
    side = "slowest" if rule.slowest_first else "fastest"
    reason = f"{len(inside)} of the {n} claimed are among the {n} {side}: {', '.join(sorted(inside)) or 'none'}"
    return _by_share(len(inside), n, rule, reason)


def share(rule: Rule, result: ShareResult) -> Decision:
    if result.total == 0:
        return Decision(UNTESTABLE, f"nothing to compare: {result.what}")
    return _by_share(result.matched, result.total, rule, f"{result.matched} of {result.total} hold")


def choice(rule: Rule, result: ChoiceResult) -> Decision:
    """Claimed: use X. Reproduced if the site picks X, changed if X is allowed but not the pick,
    refuted if the policy or the numbers rule X out."""
    if not result.admissible:
        return Decision(REFUTED, "ruled out here by the policy or the numbers")
    if result.picked:
        return Decision(REPRODUCED, "allowed by the policy, and what this site picks")
    return Decision(CHANGED, "allowed by the policy, but not what this site picks")


def _ranked(item: Ranked, unit: str) -> str:
    return f"{item.name} {item.value:.3g}{unit} (95% CI {item.low:.3g}–{item.high:.3g})"


def measured(result: Result, rule: Rule | None = None) -> str:
    """What the run measured, as one line of plain text (escaped where it is rendered)."""
    if isinstance(result, Unavailable):
        return result.measured or "–"
    if isinstance(result, RatioResult):
        return f"{result.where}: {speedup(result.subject, result.baseline, result.ratio)}"
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


def decide(rule: Rule, result: Result) -> Decision:
    """The verdict: a measure that cannot decide gives "not testable here" with its reason."""
    if isinstance(result, Unavailable):
        return Decision(UNTESTABLE, result.why)
    expected = EXPECTS[rule.kind]
    if not isinstance(result, expected):
        raise TypeError(f"rule {rule.kind} expects a {expected.__name__}, got a {type(result).__name__}")
    if isinstance(result, RatioResult) and not _finite(result.ratio):
        return Decision(UNTESTABLE, f"too few samples for a 95% CI ({result.where})")
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

"""The words and numbers a verdict is made of, declared once: the verdicts and what each means, the
rules a claim can name, the tolerance each kind of claim is judged with, why a claim can be "not
testable here", and the rules' defaults. The ledger's checks, the rules, the wording and the claims
page's template (which receives these from the code) all read them from here; docs/methodology.md
states them in prose, and a test holds it to these values."""

from __future__ import annotations

from dataclasses import dataclass

from phpcb.presentation.wording import CI
from phpcb.statistics.stats import MIN_PAIRS, NOISE_THRESHOLD

REPRODUCED = "reproduced"
CHANGED = "changed"
REFUTED = "refuted"
INCONCLUSIVE = "inconclusive"
UNTESTABLE = "not testable here"


@dataclass(frozen=True)
class Term:
    """A word of the ledger and what it means, in plain text (the template escapes it)."""

    name: str
    meaning: str


VERDICT_TERMS = (
    Term(
        REPRODUCED,
        "the measurement agrees with the claim, within the tolerance of its kind (a claim of no stated size, "
        "confirmed by the data)",
    ),
    Term(
        CHANGED,
        "same direction, different size; or the claim holds at some of the conditions or parts it names and "
        "not at others; or true when written (by its own measurements or the facts of its day), "
        "not today",
    ),
    Term(
        REFUTED,
        "the measurement or the documented facts contradict the claim, and nothing shows it held when it was written",
    ),
    Term(INCONCLUSIVE, "the data cannot decide: a confidence interval reaches across an edge the verdict turns on"),
    Term(UNTESTABLE, "nothing this site can measure or look up decides it, with why"),
)
VERDICTS = tuple(term.name for term in VERDICT_TERMS)

RULES = ("factor", "faster", "similar", "equal", "rank", "top_set", "share", "choice")


@dataclass(frozen=True)
class Tolerance:
    """How far a measured ratio may lie from a claim's own number and still reproduce it: within a
    factor `factor` either way (claimed ÷ factor … claimed × factor, closed), for the claims of one kind."""

    rule: str  # the rule whose claims it applies to
    factor: float
    claims: str  # which claims, in words
    why: str

    def percent(self) -> str:
        return f"{(self.factor - 1) * 100:.0f} %"


# A published factor ("3x", "21x", "almost half"): a ratio of two cases measured side by side moves between
# machines and library versions, so the claimed figure cannot be asked to hold exactly; but the band must
# stay narrower than the gaps between an article's own figures, or one measurement reproduces two of them
# (seed 000's "21x" and "30x" are 1.43× apart: 1.15² = 1.32 keeps their bands apart).
FACTOR_TOLERANCE = Tolerance(
    "factor",
    1.15,
    'a factor the article published ("3x", "21x", "almost half")',
    "a ratio moves between machines and library versions, but two of one article's figures must not both "
    "be reproduced by one measurement (seed 000's 21x and 30x are 1.43× apart; 1.15 × 1.15 = 1.32)",
)
# "No difference worth naming" ("very little effect", "insignificant", "negligible", "similar"): a
# tenth is about where a reader starts to care (a login 10 % slower, a page 10 % heavier), and more than
# the spread of most ratios between runs of one machine, so a real difference of that size is not excused.
SIMILAR_TOLERANCE = Tolerance(
    "similar",
    1.10,
    'no difference worth naming ("very little effect", "insignificant", "similar", "negligible")',
    "a difference of a tenth is one a reader notices; within it, none worth naming",
)
TOLERANCES = (FACTOR_TOLERANCE, SIMILAR_TOLERANCE)

# A ratio is a measurable difference only when its whole CI lies beyond this, either side of 1
# (the site's rule for "A is faster": stats.Ratio.significant).
NO_DIFFERENCE = 1.0 + NOISE_THRESHOLD
# The fewest samples a side needs for a 95 % CI of its median (order statistics: n = 6). A bootstrap
# of fewer still gives two numbers, but they are not a 95 % interval.
MIN_SAMPLES = MIN_PAIRS

DEFAULT_SLACK = 2  # rank: a claimed place missed by at most this many places is "changed"
DEFAULT_REPRODUCED_AT = 1.0  # top_set, share: the fraction that reproduces the claim
DEFAULT_CHANGED_AT = 0.5  # top_set, share: below this fraction, refuted

# Why a claim is not testable here: the run lacks what the measure needs (the default), or the claim is of
# a kind no measurement here decides. The ledger names one of these for a claim it does not test.
MISSING = "missing"
UNTESTABLE_KINDS = {
    MISSING: "the run lacks what it needs",
    "samples": f"too few samples for a {CI}",
    "machine": "this machine cannot run what the claim speaks of",
    "unmeasurable": "no run records what it needs",
    "environment": "an observation of an environment that cannot be re-run",
    "preference": "a design preference, not a statement of fact",
    "unsourced": "an attribution to a source that could not be found",
}

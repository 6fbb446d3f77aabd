"""The one-minute answer: what an experiment page opens with, and the home page's card for that
experiment. One object (`Answer`), printed by one partial (templates/_answer.md.j2) on both pages, so
that the two cannot say different things. An experiment states what it recommends, the number behind
it with its 95 % CI, and where on its page the evidence is (its page module's `finding`); the run, its
profile, which spread the interval carries and the caveats that every page shares are added from the
page's context (Experiment.answer)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from phpcb.presentation import formatting, wording
from phpcb.presentation.precision import Precision
from phpcb.presentation.render import markdown_text, widened_time
from phpcb.statistics.spread import RunSpread

QUICK = "quick"


@dataclass(frozen=True)
class Evidence:
    """A section that backs the answer: the link's words, the heading's id, and the page it is on (the
    site's path of an experiment page; None: the answer's own page)."""

    label: str
    anchor: str
    page: str | None = None


@dataclass(frozen=True)
class ClaimLine:
    """The ledger's verdict on the source article's claim that the answer speaks to, and what it was
    judged at, in the ledger's words (the claims page): never a number of the answer's own."""

    claim_id: str
    year: str
    figure: str
    verdict: str
    measured: str


@dataclass(frozen=True)
class Answer:
    """An experiment's answer for one run. Text fields hold escaped Markdown (Markup) or plain text that
    the template escapes; links are built by the template from the site's root, so that the same answer
    reads the same from the experiment's page and from the home page."""

    experiment: str  # the experiment's name
    title: str  # the home page's card title
    page: str  # the experiment's page, from the site's root: where its evidence is
    recommendation: Markup  # what to use, one or two sentences
    number: Markup  # the figure behind it, with its 95 % CI
    run_id: str
    run_anchor: str  # the run's section on the Runs page
    profile: str
    machine: str
    spread: str  # which spread the intervals carry
    caveats: tuple[Markup, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    claim: ClaimLine | None = None
    headlines: tuple[str, ...] = ()  # the keys of the headlines it prints (Experiment.headlines)
    # Beside those headlines, on how many machines × stacks each holds (presentation/holds.py), escaped.
    holds: tuple[Markup, ...] = ()


def spread_words(spread: RunSpread) -> str:
    """Which spread the answer's interval carries: the machine's between runs, or the run's own samples."""
    if spread.known:
        return f"{wording.CI}s {spread.label}"
    return f"{wording.CI}s within this one run (no repeated runs of this machine and stack)"


def shared_caveats(precision: Precision | None, profile: str) -> tuple[Markup, ...]:
    """What every answer says when it applies: the run's warnings (the same as the page's "may be
    unstable" box), and that a quick-profile run measures less."""
    found = []
    if precision is not None and precision.warnings:
        reasons = Markup("; ").join(markdown_text(warning) for warning in precision.warnings)
        found.append(Markup("This run's numbers may be unstable: {}.").format(reasons))
    if profile == QUICK:
        target = precision.reached.target if precision is not None and precision.reached is not None else None
        sampled = f", each case sampled to {formatting.plus_minus(target)}" if target is not None else ""
        found.append(Markup("A quick-profile run: fewer samples and cases than a full run{}.").format(sampled))
    return tuple(found)


def claim_line(context: Mapping[str, Any], claim_id: str | None) -> ClaimLine | None:
    """The ledger's verdict on `claim_id` from the page's checked claims, or None when it has none."""
    checked = context.get("claims", {}).get(claim_id) if claim_id is not None else None
    if checked is None:
        return None
    return ClaimLine(
        checked.claim.id, str(checked.claim.year), str(checked.figure), str(checked.verdict), str(checked.measured)
    )


def time_with_ci(context: Mapping[str, Any], summary: Any) -> Markup:
    """'18.9 µs (95% CI 18.7 µs – 19 µs)': a median time as the page's tables print it (its CI widened by
    the machine's spread between runs where that is known), escaped."""
    shown = widened_time(context, summary)
    median = formatting.duration(shown.median_ns)
    if not (math.isfinite(shown.ci_low_ns) and math.isfinite(shown.ci_high_ns)):
        return markdown_text(f"{median} (n = {shown.n}, too few for a CI)")
    interval = formatting.duration_interval(shown.ci_low_ns, shown.ci_high_ns, shown.median_ns)
    return markdown_text(f"{median} ({wording.CI} {interval})")

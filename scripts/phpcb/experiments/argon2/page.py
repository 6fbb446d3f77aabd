"""What the argon2 page needs beyond the analysis: published parameter sets, the paper's tables, its conclusion."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from phpcb.data.policy import Argon2Policy
from phpcb.data.reference import ReferenceData
from phpcb.experiments.argon2.analysis import (
    Argon2Analysis,
    Cell,
    LibraryGap,
    budget_choices,
    memory_per_hash,
    reference_cli_gaps,
    sodium_gap,
)
from phpcb.experiments.argon2.picks import BudgetPick
from phpcb.experiments.experiment import Finding
from phpcb.presentation.advice import Advice
from phpcb.presentation.answer import Evidence
from phpcb.presentation.headlines import Headline
from phpcb.presentation.render import markdown_text
from phpcb.presentation.wording import CI, speedup
from phpcb.statistics.spread import UNKNOWN, RunSpread
from phpcb.statistics.stats import MIN_PAIRS

FINDING_BUDGET_MS = 250  # a login a user barely notices; the page lists the other budgets


def context(
    analysis: Argon2Analysis, reference: ReferenceData, policy: Argon2Policy, spread: RunSpread = UNKNOWN
) -> dict[str, Any]:
    paper_php = [
        (row, analysis.find("password_hash", "argon2i", row["memory_mib"], row["threads"], t), t, row[f"t{t}_s"])
        for row in reference.rows("php")
        for t in (1, 3, 6)
    ]
    paper_cli = [
        (row, analysis.find("cli", variant, row["memory_mib"], row["threads"], t), variant, t, row[column])
        for row in reference.rows("console")
        for variant, t, column in (("argon2d", 1, "argon2d_t1_s"), ("argon2i", 3, "argon2i_t3_s"))
    ]
    return {
        "budgets": budget_choices(analysis, policy.recommended_variants, spread),
        "finding_budget_ms": FINDING_BUDGET_MS,
        "memory_per_hash": memory_per_hash(analysis.run),
        "grid_memory_mib": grid_memory_mib(analysis, policy.recommended_variants),
        "profiles": [
            (
                p,
                analysis.find("password_hash", "argon2id", p.memory_mib, p.threads, p.time_cost),
                sodium_gap(analysis, p.memory_mib, p.time_cost) if p.threads == 1 else None,
            )
            for p in policy.parameter_sets
        ],
        "sodium_gap": _sodium_gap(analysis, policy),
        "cli_gaps": cli_summary(reference_cli_gaps(analysis)),
        "large_memory_mib": LARGE_MEMORY_MIB,
        "implementations": policy.facts.get("implementations"),
        "variant_verdicts": [(name, entry.verdict) for name, entry in policy.table.of_kind("password-hash").items()],
        "parameter_verdict": lambda key: policy.parameters(key.variant, key.memory_kib, key.time_cost, key.threads),
        "set_verdict": lambda p: policy.parameters("argon2id", p.memory_mib * 1024, p.time_cost, p.threads),
        "caveats": policy.caveats,
        "paper_php": [item for item in paper_php if item[1] is not None],
        "paper_cli": [item for item in paper_cli if item[1] is not None],
    }


def grid_memory_mib(analysis: Argon2Analysis, variants: tuple[str, ...]) -> int | None:
    """Where the cells a budget picks from stop (password_hash, these variants, timed; the grid and the
    sets measured beside it): their largest memory."""
    timed = [c for c in analysis.cells if c.key.interface == "password_hash" and c.key.variant in variants and c.wall]
    return max((c.key.memory_mib for c in timed), default=None)


# From this much memory up, filling it dominates a hash: a fixed cost per call no longer shows.
LARGE_MEMORY_MIB = 64
# password_hash never measurably slower than the CLI by more than this at a large cell: PHP's call
# adds nothing that matters to the library's cost.
SAME_COST = 1.12


@dataclass(frozen=True)
class CliSummary:
    """password_hash's time over the reference CLI's, Argon2i on one thread, cell by cell."""

    large: list[LibraryGap]
    small: list[LibraryGap]

    @property
    def large_range(self) -> tuple[LibraryGap, LibraryGap] | None:
        ordered = sorted(self.large, key=lambda g: g.ratio.value)
        return (ordered[0], ordered[-1]) if ordered else None

    @property
    def large_without_difference(self) -> int:
        return sum(1 for g in self.large if not g.ratio.significant)

    @property
    def small_fastest(self) -> LibraryGap | None:
        """The small cell where password_hash gains most on the CLI (which starts a process per hash)."""
        return min(self.small, key=lambda g: g.ratio.value, default=None)

    @property
    def same_library_cost(self) -> bool:
        """Whether, with enough memory, password_hash is never measurably dearer than the CLI by more
        than SAME_COST: then the gap to sodium is the library's, not PHP's call."""
        return bool(self.large) and all(g.ratio.low <= SAME_COST for g in self.large)


def cli_summary(gaps: list[LibraryGap]) -> CliSummary | None:
    if not gaps:
        return None
    return CliSummary(
        large=[g for g in gaps if g.first.key.memory_mib >= LARGE_MEMORY_MIB],
        small=[g for g in gaps if g.first.key.memory_mib < LARGE_MEMORY_MIB],
    )


def _sodium_gap(analysis: Argon2Analysis, policy: Argon2Policy) -> LibraryGap | None:
    """sodium against password_hash at PHP's defaults, or else at the grid's 64 MiB, t=3 (a run of an
    earlier runner measured no defaults)."""
    defaults = [
        (p.memory_mib, p.time_cost) for p in policy.parameter_sets if p.name.startswith("PHP") and p.threads == 1
    ]
    for memory_mib, time_cost in [*defaults, (64, 3)]:
        found = sodium_gap(analysis, memory_mib, time_cost)
        if found is not None:
            return found
    return None


def finding(context: dict[str, Any]) -> Finding | None:
    """The Argon2id parameters the page names for a login budget a user barely notices (the table's row
    for that budget: one pick, picks.pick_within), with that cell's own time; the page lists the other
    budgets."""
    choice: BudgetPick[Cell] | None = next((b for b in context["budgets"] if b.budget_ms == FINDING_BUDGET_MS), None)
    if choice is None or choice.pick is None:
        return None
    pick = choice.pick
    if choice.over_budget:
        recommendation = Markup(
            "Within a {} ms login budget, no parameters this run measured fit with their whole interval; the"
            " strongest whose median fits, Argon2id through `password_hash()` at **{}**, is over budget in some runs."
        ).format(FINDING_BUDGET_MS, markdown_text(pick.label))
    elif not pick.timing.bounded:
        recommendation = Markup(
            "Within a {} ms login budget, Argon2id through `password_hash()` at **{}**: the strongest parameters"
            " this run measured whose median fits the budget (it has no interval to judge by)."
        ).format(FINDING_BUDGET_MS, markdown_text(pick.label))
    else:
        recommendation = Markup(
            "Within a {} ms login budget, Argon2id through `password_hash()` at **{}**: the strongest parameters"
            " this run measured whose whole interval lies within the budget."
        ).format(FINDING_BUDGET_MS, markdown_text(pick.label))
    if choice.provisional:
        thin = Markup(" The pick is provisional: its time rests on {} hashes, fewer than the {} a {} needs.")
        recommendation += thin.format(pick.timing.n, MIN_PAIRS, CI)
    number = Markup("{}: {} per hash.").format(markdown_text(pick.label), markdown_text(pick.timing.answer_text))
    if choice.beyond_grid:
        recommendation += Markup(
            " That is the strongest setting this run measured (its grid stops at {} MiB): the budget may allow more."
        ).format(context["grid_memory_mib"])
    evidence = (
        Evidence("every budget, and the published parameter sets", "parameters-for-your-latency-budget"),
        Evidence("the grid, charted", "charts"),
        Evidence("method", "method"),
    )
    return Finding("Argon2", recommendation, number, evidence)


def advice(context: dict[str, Any]) -> list[Advice]:
    statements = [
        Advice("argon2", f"argon2.budget.{b.budget_ms}", f"Argon2 pick for {b.budget_ms} ms", b.statement, b.options)
        for b in context["budgets"]
    ]
    for variant, verdict in context["variant_verdicts"]:
        statements.append(Advice("argon2", f"argon2.verdict.{variant}", f"Verdict on {variant}", verdict.status))
    return statements


def headlines(context: dict[str, Any]) -> list[Headline]:
    choice: BudgetPick[Cell] | None = next((b for b in context["budgets"] if b.budget_ms == FINDING_BUDGET_MS), None)
    if choice is None or choice.option is None or choice.option.wall is None:
        return []
    question = f"Strongest Argon2id parameters within {FINDING_BUDGET_MS} ms (password_hash), and their time"
    return [Headline.of_time("argon2.budget", question, choice.option.wall, choice=choice.label)]


# The pitfall "password_hash() against sodium_crypto_pwhash_str() at equal parameters" is this
# experiment's measurement (one quantity, one measurement per run): quoted on the pitfalls page.
SODIUM_PITFALL = "password-hash-vs-sodium"


def notes(context: dict[str, Any]) -> dict[str, list[Markup]]:
    """The sodium-over-password_hash ratio at OWASP's floor (else PHP's defaults), for the pitfalls page."""
    analysis: Argon2Analysis = context["analysis"]
    found = next(
        (g for g in (sodium_gap(analysis, m, t) for m, t in ((19, 2), (64, 4))) if g is not None and g.ratio),
        None,
    )
    if found is None:
        return {}
    line = Markup("[Measured on the Argon2 page](argon2.md), Argon2id at {}, in run {}: {} per hash.").format(
        found.first.key.label, analysis.run.run_id, speedup("sodium_crypto_pwhash", "password_hash", found.ratio)
    )
    return {"pitfalls": [line]}

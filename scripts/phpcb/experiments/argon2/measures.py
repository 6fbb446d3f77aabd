"""What decides seed 003's (part 2) Argon2 claims, from the argon2 page's analysis."""

from __future__ import annotations

from typing import Any

from phpcb.claims import wording
from phpcb.claims.measures import GENERIC, across_runs
from phpcb.claims.results import Args, ChoiceResult, FactResult, Measure, RatioResult, Result, ShareResult, Unavailable
from phpcb.experiments.argon2.analysis import Argon2Analysis, Cell, candidates
from phpcb.experiments.argon2.picks import BudgetPick
from phpcb.experiments.experiment import Inputs
from phpcb.presentation.formatting import duration
from phpcb.presentation.wording import CI
from phpcb.statistics.stats import ratio_of_medians


def _cell(analysis: Argon2Analysis, interface: str, variant: str, memory: int, threads: int, time: int) -> Cell | None:
    cell = analysis.find(interface, variant, memory, threads, time)
    return cell if cell is not None and cell.wall_ns is not None else None


def _label(interface: str, variant: str, memory: int, threads: int, time: int) -> str:
    return f"{interface} {variant}, m={memory} MiB, t={time}, p={threads}"


def _ratio(context: dict[str, Any], subject: Cell, baseline: Cell, names: tuple[str, str], where: str) -> Result:
    """Baseline's time over subject's, on the page's basis (widened across runs where known)."""
    assert subject.wall_ns is not None
    assert baseline.wall_ns is not None
    ratio = across_runs(context, ratio_of_medians(baseline.wall_ns, subject.wall_ns))
    return RatioResult(names[0], names[1], ratio, where, (int(subject.wall_ns.size), int(baseline.wall_ns.size)))


def variant_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """One variant over another through the same interface and parameters (e.g. Argon2d over Argon2i)."""
    interface, memory = args.text("interface"), args.integer("memory_mib")
    threads, time = args.integer("threads"), args.integer("time_cost")
    subject, baseline = args.text("subject"), args.text("baseline")
    cells = [_cell(context["analysis"], interface, v, memory, threads, time) for v in (subject, baseline)]
    where = f"{interface}, m={memory} MiB, t={time}, p={threads}"
    if cells[0] is None or cells[1] is None:
        return Unavailable(f"{subject} and {baseline} at {where} are not both measured in this run")
    return _ratio(context, cells[0], cells[1], (subject, baseline), where)


def thread_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """More threads over fewer, same interface, variant, memory and passes."""
    interface, variant = args.text("interface"), args.text("variant")
    memory, time = args.integer("memory_mib"), args.integer("time_cost")
    few, many = args.integer("threads"), args.integer("more_threads")
    analysis: Argon2Analysis = context["analysis"]
    cells = [_cell(analysis, interface, variant, memory, p, time) for p in (many, few)]
    where = f"{interface} {variant}, m={memory} MiB, t={time}"
    cores = analysis.run.manifest.get("cpu", {}).get("cores")
    # What p lanes buy is what p cores computing at once buy: on fewer cores the lanes take turns, however
    # many samples there are, and whether or not this run measured the cells.
    too_few_cores = isinstance(cores, int) and cores < many
    why_not = (
        f"this machine has {cores} cores: p={many} lanes cannot run at once, so what {many} threads buy "
        f"is not measured here (a machine with {many} cores or more can test it)"
    )
    if cells[0] is None or cells[1] is None:
        if too_few_cores:
            return Unavailable(why_not, kind="machine")
        return Unavailable(f"p={few} and p={many} at {where} are not both measured in this run")
    if cells[0].oversubscribed:
        where += f" (p={many} on {cores} cores)"
    measured = _ratio(context, cells[0], cells[1], (f"p={many}", f"p={few}"), where)
    if too_few_cores:
        return Unavailable(why_not, wording.measured(measured), kind="machine")
    return measured


def interface_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The same hash through two interfaces (e.g. the argon2 CLI against password_hash)."""
    variant, memory = args.text("variant"), args.integer("memory_mib")
    threads, time = args.integer("threads"), args.integer("time_cost")
    subject, baseline = args.text("subject"), args.text("baseline")
    cells = [_cell(context["analysis"], i, variant, memory, threads, time) for i in (subject, baseline)]
    where = f"{variant}, m={memory} MiB, t={time}, p={threads}"
    if cells[0] is None or cells[1] is None:
        return Unavailable(f"{subject} and {baseline} at {where} are not both measured in this run")
    return _ratio(context, cells[0], cells[1], (subject, baseline), where)


def cycles_per_byte(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Cycles per byte need a clock frequency; runs record none, so this gives the time per byte instead."""
    interface, variant = args.text("interface"), args.text("variant")
    memory, threads, time = args.integer("memory_mib"), args.integer("threads"), args.integer("time_cost")
    cell = _cell(context["analysis"], interface, variant, memory, threads, time)
    why = "cycles per byte need the CPU's clock frequency under load, which no run records"
    if cell is None or cell.wall is None:
        return Unavailable(why, elsewhere=False)
    processed = memory * 1024 * 1024 * time
    w = cell.wall
    per_gib = 2**30 / processed
    measured = (
        f"{_label(interface, variant, memory, threads, time)}: {duration(w.median_ns * per_gib)} per GiB of memory "
        f"filled ({CI} {duration(w.ci_low_ns * per_gib)}–{duration(w.ci_high_ns * per_gib)}, n = {w.n})"
    )
    return Unavailable(why, measured, elsewhere=False)


def parameter_choice(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """A recommended parameter set against the page's pick for a latency budget (the pick the page's
    answer and table name, not one made again): allowed if it fits the budget by the page's rule (its
    interval lies within it), picked if it is the page's pick."""
    memories, threads, time = args.integers("memory_mib"), args.integer("threads"), args.integer("time_cost")
    budget = args.integer("budget_ms")
    choice: BudgetPick[Cell] | None = next((b for b in context["budgets"] if b.budget_ms == budget), None)
    if choice is None:
        return Unavailable(f"the page has no {budget} ms budget")
    analysis: Argon2Analysis = context["analysis"]
    variants = inputs.policy.recommended_variants

    def claimed(cell: Cell) -> bool:
        key = cell.key
        return key.memory_mib in memories and (key.threads, key.time_cost) == (threads, time)

    measured = [
        c
        for c in analysis.cells
        if c.key.interface == "password_hash" and c.key.variant in variants and claimed(c) and c.wall is not None
    ]
    if not measured:
        return Unavailable("the claimed parameters were not measured through password_hash in this run")
    # Judged as the page's pick was: with the spread between runs the page context gave the analysis.
    timed = [c for c in candidates(analysis.cells, variants, analysis.spread) if claimed(c.option)]
    fits = [c for c in timed if c.timing.within(budget)]
    times = "; ".join(f"{c.label}: {c.timing.answer_text}" for c in timed) or "more threads than the cores"
    why = f"{times}; the {budget} ms pick: {choice.statement}"
    picked = choice.pick is not None and any(c.label == choice.label for c in fits)
    return ChoiceResult(admissible=bool(fits), picked=picked, why=why)


def memory_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Less memory over more, same interface, variant, passes and threads: what memory costs."""
    interface, variant = args.text("interface"), args.text("variant")
    threads, time = args.integer("threads"), args.integer("time_cost")
    less, more = args.integer("memory_mib"), args.integer("more_memory_mib")
    analysis: Argon2Analysis = context["analysis"]
    cells = [_cell(analysis, interface, variant, m, threads, time) for m in (less, more)]
    where = f"{interface} {variant}, t={time}, p={threads}"
    if cells[0] is None or cells[1] is None:
        return Unavailable(f"m={less} MiB and m={more} MiB at {where} are not both measured in this run")
    return _ratio(context, cells[0], cells[1], (f"m={less} MiB", f"m={more} MiB"), where)


def variants(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The Argon2 variants this run hashed with, through any interface (args.fact documents them)."""
    analysis: Argon2Analysis = context["analysis"]
    found = sorted({c.key.variant for c in analysis.cells if c.wall is not None})
    if not found:
        return Unavailable("this run hashed nothing")
    fact = args.fact()
    by_interface = sorted({(c.key.interface, c.key.variant) for c in analysis.cells if c.wall is not None})
    listed = "; ".join(f"{i}: {v}" for i, v in by_interface)
    return FactResult(
        found, f"hashed in this run: {listed}; {fact.statement}", "this run's measurements", fact.references
    )


def implementations(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Where PHP's Argon2 comes from: PHP 7.2 added it (args.fact), and this run's password_hash uses
    the provider the manifest records (libargon2: "standard"; libsodium: "sodium")."""
    fact = args.fact()
    entry = context["entry"] or {}
    provider = ((entry.get("measured_by") or {}).get("libraries") or context["run"].manifest.get("libraries", {})).get(
        "argon2_provider"
    )
    if provider is None:
        return Unavailable("this run does not record which library password_hash's Argon2 comes from")
    analysis: Argon2Analysis = context["analysis"]
    sodium = any(c.key.interface == "sodium" and c.wall is not None for c in analysis.cells)
    from_sodium = provider == "sodium"
    details = (
        f"PHP 7.2 added Argon2i to password_hash() and the sodium extension: {fact.statement}",
        f"password_hash() here uses {'libsodium' if from_sodium else 'libargon2'} (argon2_provider: {provider})"
        + ("; sodium_crypto_pwhash() is libsodium's own" if sodium else ""),
    )
    return ShareResult(1 + from_sodium, 2, details, "where PHP's Argon2 comes from", references=fact.references)


MEASURES: dict[str, Measure] = {
    **GENERIC,
    "memory_ratio": memory_ratio,
    "variants": variants,
    "implementations": implementations,
    "variant_ratio": variant_ratio,
    "thread_ratio": thread_ratio,
    "interface_ratio": interface_ratio,
    "cycles_per_byte": cycles_per_byte,
    "parameter_choice": parameter_choice,
}

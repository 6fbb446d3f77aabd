"""The comparison as Markdown: a pull-request comment on GitHub (MarkdownExporter), and the view of it
that the site's comparison page renders (page_view → templates/compare.md.j2). Both say the same
things in the same words, from the same view.

Numbers follow benchstat: `old ± ci  new ± ci  delta [CI] (p=… n=…)`, where ± is the largest
distance from the median to its 95 % CI bound, in percent of the median; times in ns/µs/ms/s chosen
per value (formatting.duration).

Escaping: every text from data (run ids, case values, environment, advice) is Markdown-escaped here
(backslash before \\ ` * [ ] and a `_` at a word's edge) and HTML-escaped with `|` as `&#124;` where
it is written (render.table_cell here, the template's autoescape and `cell` filter on the site).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from phpcb.compare.comparison import (
    ALPHA,
    THRESHOLD,
    CaseComparison,
    ClassShift,
    Comparison,
    ExperimentComparison,
    Side,
    Verdict,
)
from phpcb.compare.environment_diff import PROFILE, RUNNER, SCHEMA, EnvironmentRow
from phpcb.presentation import formatting, render
from phpcb.presentation.advice import AdviceChange
from phpcb.presentation.wording import CI

# GitHub refuses comments over 65,536 characters; the rest is headroom for a workflow's own lines.
LIMIT = 60_000
LARGEST = 10
ABSENT = "—"
# A statement only one run makes: the other has no results for it (e.g. a quick run has no 20 MiB case).
NOT_STATED = "not stated (no results for it in this run)"
# `@` too: on GitHub an @name from data would notify that person or team from the bot's comment.
_MARKDOWN_SPECIAL = re.compile(r"[\\`*\[\]@]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
# Room kept for the note that says how many rows were left out.
_NOTE_RESERVE = 400


def md_text(value: object) -> str:
    """Markdown-escaped text (not yet HTML-escaped): no emphasis, code span or link from data."""
    return _MARKDOWN_SPECIAL.sub(lambda match: "\\" + match.group(0), str(value))


def html(text: str) -> str:
    """Already Markdown-escaped text made safe for HTML and for a table cell (`|` as `&#124;`)."""
    return str(render.table_cell(text))


def spread(side: Side) -> str:
    """'± 2.1%': the largest distance from the median to a bound of its 95 % CI, in percent."""
    finite = math.isfinite(side.ci_low_ns) and math.isfinite(side.ci_high_ns)
    if not finite or side.median_ns <= 0:
        return "± ∞"
    half = max(side.ci_high_ns - side.median_ns, side.median_ns - side.ci_low_ns) / side.median_ns * 100
    return f"± {half:.1f}%" if half < 10 else f"± {half:.0f}%"


def side_text(side: Side | None) -> str:
    return ABSENT if side is None else f"{formatting.duration(side.median_ns)} {spread(side)}"


def change(ratio: float) -> str:
    """A ratio new/base as a change in time: 1.057 → '+5.7%'."""
    if math.isinf(ratio):
        return "+∞%"
    return f"{(ratio - 1) * 100:+.1f}%"


def p_text(p: float) -> str:
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def n_text(case: CaseComparison) -> str:
    return f"n={case.base.n if case.base else 0}+{case.new.n if case.new else 0}"


def delta_text(case: CaseComparison) -> str:
    """'+5.7% [+3.1%, +8.0%] (n=20+20)': the change of the case's median with its within-run 95 % CI."""
    n = n_text(case)
    if case.ratio is None:
        return f"{ABSENT} ({n})"
    if case.ratio_low is not None and case.ratio_high is not None and case.verdict is not Verdict.IDENTICAL:
        interval = f"[{change(case.ratio_low)}, {change(case.ratio_high)}]"
        return f"{change(case.ratio)} {interval} ({n})"
    return f"{change(case.ratio)} ({n})"


def beyond_text(case: CaseComparison) -> str:
    """'+21.0% ± 6.2% (p<0.001)': the change beyond its class's shift, ± two between-run SDs, and the
    adjusted p of that change against them."""
    if case.residual is None or case.spread_log is None:
        return ABSENT
    sd = (math.exp(2 * case.spread_log) - 1) * 100
    p = f" ({p_text(case.p_adjusted)})" if case.p_adjusted is not None else ""
    return f"{change(case.residual)} ± {sd:.1f}%{p}"


def shift_text(shift: ClassShift) -> str:
    """'−21.3% [−23.0%, −19.5%]': how the class's times moved, with the CI of their median."""
    if not shift.known:
        return f"{change(shift.ratio)} (too few cases for a CI)"
    return f"{change(shift.ratio)} [{change(shift.low)}, {change(shift.high)}]"


def overall_shift(comparison: Comparison) -> str | None:
    """One sentence first: how the new run's machine ran across the board (the median case)."""
    ratios = [case.ratio for _, case in comparison.cases if case.residual is not None and case.ratio]
    if not ratios:
        return None
    median = float(np.median(ratios))
    speed = 1 / median - 1
    pace = (
        f"{abs(speed) * 100:.0f} % {'faster' if speed > 0 else 'slower'} than" if abs(speed) >= 0.005 else "as fast as"
    )
    spread = [shift.ratio for e in comparison.experiments for shift in e.shifts]
    ends = f"; per class of cases, times moved from {change(min(spread))} to {change(max(spread))}" if spread else ""
    return (
        f"The new run's machine ran {pace} the base run's across the board (the median of "
        f"{len(ratios):,} cases){ends}. Each case is judged beyond its class's shift."
    )


def verdict_text(case: CaseComparison, across_machines: bool) -> str:
    """The verdict word; across machines a faster/slower is labelled so (it is never a regression)."""
    if across_machines and case.verdict.significant:
        return f"{case.verdict} (across machines)"
    return str(case.verdict)


def counts_text(counts: dict[Verdict, int]) -> str:
    """'12 faster · 3 slower · 200 ~ · 4 new': faster, slower and ~ always, the others when present."""
    always = (Verdict.FASTER, Verdict.SLOWER, Verdict.SAME)
    return " · ".join(f"{count:,} {verdict}" for verdict, count in counts.items() if count or verdict in always)


def summary_text(comparison: Comparison) -> str:
    text = counts_text(comparison.counts())
    if comparison.across_machines:
        text += " — across machines: this compares two machines, it is not a regression test"
    return text


def method_text(comparison: Comparison) -> str:
    threshold = f"{THRESHOLD * 100:.0f} %"
    boots = " of two boots" if comparison.across_boots else ""
    if comparison.noise_runs:
        spread = f"the machine's noise model (from runs {', '.join(comparison.noise_runs)}), for runs{boots}"
    else:
        spread = "the pair's own spread (the MAD of its class's residuals: no noise model applies)"
    return (
        f"{len(comparison.cases):,} cases. Median time per operation ± its within-run {CI}; delta = new/base − 1 "
        f"with the within-run {CI} of the ratio (Hodges–Lehmann). Runs differ as a whole far more than "
        "within, so each case is judged beyond its class's shift (the median delta of the class): the change "
        f"beyond it, ± two between-run SDs from {spread}, with its two-sided p, Benjamini–Hochberg-adjusted "
        f"across the {comparison.tested:,} tested cases (new, missing, too-few-samples and identical cases are not "
        f"tested). faster/slower: adjusted p < {ALPHA} and a change beyond the shift of more than {threshold}; else ~."
    )


def across_text(comparison: Comparison) -> str:
    because = comparison.environment.across_machines_because
    rows = {row.label: row for row in comparison.environment.rows}
    named = " and ".join(f"{label.lower()} ({rows[label].base} → {rows[label].new})" for label in because)
    verb = "differs" if len(because) == 1 else "differ"
    return (
        f"Across machines: the {named} {verb} between the two runs, so every difference below mixes the "
        "machines with any change of the code. No case is judged (one machine's noise says nothing of two); "
        "the class shifts show what the machines differ by. Shown for information: this is not a regression test."
    )


def loaded_text(comparison: Comparison) -> str | None:
    """A run measured on a busy machine, named before any number: load is a confounder, not noise."""
    if not comparison.loaded:
        return None
    named = "; ".join(found.sentence for found in comparison.loaded)
    experiments = sorted({found.experiment for found in comparison.loaded})
    return md_text(
        f"Loaded: {named}. The cases of {', '.join(experiments)} are not judged (other processes move a run's "
        "times by more than the noise of quiet runs, and unevenly); measure again on an idle machine."
    )


def confounders_text(comparison: Comparison) -> str | None:
    """What differs besides the machine that changes what is measured: named before any number."""
    rows = comparison.environment.confounders
    if not rows:
        return None
    named = "; ".join(f"{row.label}: {row.base} → {row.new}" for row in rows)
    return md_text(
        f"Not only the machine differs ({named}): a difference below may come from {_sources(rows)} as much "
        "as from the machine; none is a finding on its own."
    )


def _sources(rows: list[EnvironmentRow]) -> str:
    """What the differing confounders are, in words: "the profile, the runner's code or a library"."""
    kinds = {PROFILE: "the profile", RUNNER: "the runner's code", SCHEMA: "the data format"}
    named = list(dict.fromkeys(kinds.get(row.label, "a library") for row in rows))
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"


TIE_NOTE = "a tie, within the spread between runs: not a change"


def _kind(change_: AdviceChange) -> int:
    """The order of the list: changes, then ties, then statements one run cannot make."""
    if change_.base is None or change_.new is None:
        return 2
    return 1 if change_.tie else 0


def advice_lines(comparison: Comparison) -> list[str]:
    """'label: base → new', Markdown-escaped, one per changed statement: the changes first, then the
    statements that only moved within a tie, then those only one run makes (with another profile: which
    statements the two profiles cannot compare)."""
    profiles = next((row for row in comparison.environment.rows if row.label == PROFILE and row.differs), None)
    lines = []
    for change_ in sorted(comparison.advice_changes, key=_kind):
        text = f"{change_.label}: {change_.base or NOT_STATED} → {change_.new or NOT_STATED}"
        if change_.tie:
            text += f" ({TIE_NOTE})"
        elif _kind(change_) == 2 and profiles is not None:
            text += f" (not comparable: the {profiles.base} and {profiles.new} profiles measure different cases)"
        lines.append(md_text(text))
    return lines


NO_ADVICE_CHANGE = "No recommendation, finding or verdict changes."
ADVICE_HEADING = "What this run would change in the advice if it were the reference"


@dataclass(frozen=True)
class Table:
    """A Markdown table whose cells are Markdown-escaped text (HTML escaping happens when written)."""

    header: tuple[str, ...]
    align: tuple[str, ...]  # "---" or "---:"
    rows: list[tuple[str, ...]]

    def header_lines(self) -> list[str]:
        return [_row(self.header), "| " + " | ".join(self.align) + " |"]

    def row_line(self, index: int) -> str:
        return _row(self.rows[index])


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(html(cell) for cell in cells) + " |"


@dataclass(frozen=True)
class ExperimentView:
    name: str
    title: str
    summary: str  # '240 cases: 3 faster · 1 slower · 236 ~'
    table: Table
    # The table's row indices, most telling first: what a comment short of room shows of it.
    importance: tuple[int, ...] = ()


@dataclass(frozen=True)
class ComparisonView:
    """Everything a report shows, as Markdown-escaped text: what the exporter and the template write."""

    base_id: str
    new_id: str
    base_run: str  # the run ids as they are (not text): what links to the runs' files are made from
    new_run: str
    baseline: str | None  # why BASE was chosen, when the build chose it
    across_machines: str | None
    environment: Table
    advice: list[str]
    summary: str
    method: str
    only: str | None
    largest: Table | None
    experiments: list[ExperimentView]
    shift: str | None = None  # the machine's shift in one sentence
    confounders: str | None = None  # what else differs that changes what is measured
    shifts: Table | None = None  # per experiment and class
    loaded: str | None = None  # a run measured on a busy machine, and what is not judged because of it


def _key_cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return md_text(value)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def experiment_table(experiment: ExperimentComparison, across_machines: bool) -> Table:
    first = experiment.cases[0].key if experiment.cases else ()
    align = tuple("---:" if _is_number(v) else "---" for v in first) or ("---",) * len(experiment.key_columns)
    return Table(
        header=(*(md_text(c) for c in experiment.key_columns), "base", "new", "delta", "beyond shift", "verdict"),
        align=(*align, "---:", "---:", "---:", "---:", "---"),
        rows=[
            (
                *(_key_cell(v) for v in case.key),
                side_text(case.base),
                side_text(case.new),
                delta_text(case),
                beyond_text(case),
                verdict_text(case, across_machines),
            )
            for case in experiment.cases
        ],
    )


def importance(experiment: ExperimentComparison) -> tuple[int, ...]:
    """Row indices, most telling first: faster or slower cases by the size of their change beyond
    the shift, then the others by the size of their ratio's move; table order breaks ties."""

    def size(case: CaseComparison) -> float:
        moved = case.residual if case.residual is not None else case.ratio
        return abs(math.log(moved)) if moved is not None and moved > 0 else 0.0

    def rank(index: int) -> tuple[int, float, int]:
        case = experiment.cases[index]
        return (0 if case.verdict in (Verdict.FASTER, Verdict.SLOWER) else 1, -size(case), index)

    return tuple(sorted(range(len(experiment.cases)), key=rank))


def _class_size(shift: ClassShift) -> str:
    if shift.basis == shift.cases:
        return f"{shift.cases:,}"
    return f"{shift.cases:,} (too few: the shift of all {shift.basis:,})"


def shift_table(comparison: Comparison) -> Table | None:
    rows = [
        (md_text(e.title), md_text(shift.label), _class_size(shift), shift_text(shift))
        for e in comparison.experiments
        for shift in e.shifts
    ]
    if not rows:
        return None
    return Table(
        header=("experiment", "class", "cases", "times new/base"), align=("---", "---", "---:", "---:"), rows=rows
    )


def largest_table(comparison: Comparison) -> Table | None:
    largest = comparison.largest(LARGEST)
    if not largest:
        return None
    return Table(
        header=("experiment", "case", "base", "new", "delta", "beyond shift", "verdict"),
        align=("---", "---", "---:", "---:", "---:", "---:", "---"),
        rows=[
            (
                md_text(experiment.title),
                md_text(experiment.case_label(case)),
                side_text(case.base),
                side_text(case.new),
                delta_text(case),
                beyond_text(case),
                verdict_text(case, comparison.across_machines),
            )
            for experiment, case in largest
        ],
    )


def environment_table(comparison: Comparison) -> Table:
    rows: list[tuple[str, ...]] = [
        (f"**{md_text(row.label)}**" if row.differs else md_text(row.label), md_text(row.base), md_text(row.new))
        for row in comparison.environment.shown
    ]
    return Table(header=("", "base", "new"), align=("---", "---", "---"), rows=rows)


def only_text(comparison: Comparison) -> str | None:
    parts = []
    if comparison.only_in_base:
        parts.append("only in base: " + ", ".join(comparison.only_in_base))
    if comparison.only_in_new:
        parts.append("only in new: " + ", ".join(comparison.only_in_new))
    return md_text("Experiments " + "; ".join(parts) + " (not compared).") if parts else None


def page_view(comparison: Comparison) -> ComparisonView:
    return ComparisonView(
        base_id=md_text(comparison.base_id),
        new_id=md_text(comparison.new_id),
        base_run=comparison.base_id,
        new_run=comparison.new_id,
        baseline=md_text(f"Baseline: {comparison.baseline_reason}.") if comparison.baseline_reason else None,
        across_machines=across_text(comparison) if comparison.across_machines else None,
        environment=environment_table(comparison),
        advice=advice_lines(comparison),
        summary=summary_text(comparison),
        method=method_text(comparison),
        only=only_text(comparison),
        largest=largest_table(comparison),
        shift=overall_shift(comparison),
        confounders=confounders_text(comparison),
        shifts=shift_table(comparison),
        loaded=loaded_text(comparison),
        experiments=[
            ExperimentView(
                e.name,
                md_text(e.title),
                f"{len(e.cases):,} cases: {counts_text(e.counts())}",
                experiment_table(e, comparison.across_machines),
                importance(e),
            )
            for e in comparison.experiments
        ],
    )


class MarkdownExporter:
    """A pull-request comment: at most `limit` characters. When the full tables do not fit, every
    experiment keeps its tally and a share of its most telling rows, with a note of how many rows
    were left out."""

    name = "markdown"

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit

    def serialize(self, comparison: Comparison) -> str:
        view = page_view(comparison)
        head = self._head(view)
        budget = self.limit - _NOTE_RESERVE
        if len(head) > budget:  # the class-by-class shifts go first, then advice beyond the first ones
            head = self._head(view, shifts=False)
        if len(head) > budget:
            bare = self._head(view, advice_budget=0, shifts=False)
            head = self._head(view, advice_budget=budget - len(bare), shifts=False)
        blocks, left_out = self._full_tables(view.experiments, budget - len(head))
        text = head + blocks
        if left_out:
            total = sum(len(e.table.rows) for e in view.experiments)
            text += (
                f"_{left_out:,} of {total:,} rows of the full tables were left out to keep this comment under "
                "GitHub's size limit; the JSON export (`--format json`) has every case._\n"
            )
        return text

    @staticmethod
    def _head(view: ComparisonView, advice_budget: int | None = None, shifts: bool = True) -> str:
        title = f"{html(view.base_id)} → {html(view.new_id)}"
        lines = [f"## Benchmark comparison: {title}" + (" (across machines)" if view.across_machines else ""), ""]
        if view.baseline:
            lines += [html(view.baseline), ""]
        if view.across_machines:
            lines += [f"> **{html(view.across_machines)}**", ""]
        if view.loaded:
            lines += [f"> **{html(view.loaded)}**", ""]
        if view.confounders:
            lines += [f"> **{html(view.confounders)}**", ""]
        if view.shift:
            lines += [f"**{html(view.shift)}**", ""]
        lines += ["### Environment", "", *view.environment.header_lines()]
        lines += [view.environment.row_line(i) for i in range(len(view.environment.rows))]
        if view.shifts is not None and shifts:
            rows = "\n".join(view.shifts.row_line(i) for i in range(len(view.shifts.rows)))
            header = "\n".join(view.shifts.header_lines())
            lines += [
                "",
                f"<details><summary>The machine's shift, class by class</summary>\n\n{header}\n{rows}\n\n</details>",
            ]
        lines += ["", f"### {ADVICE_HEADING}", ""]
        lines += _advice_items(view.advice, advice_budget)
        lines += ["", "### Summary", "", f"**{html(view.summary)}**", "", html(view.method), ""]
        if view.only:
            lines += [html(view.only), ""]
        lines += ["### Largest significant changes", ""]
        if view.largest is None:
            lines += ["No significant change.", ""]
        else:
            lines += [*view.largest.header_lines(), *(view.largest.row_line(i) for i in range(len(view.largest.rows)))]
            lines.append("")
        lines += ["### All cases", "", ""]
        return "\n".join(lines)

    @staticmethod
    def _full_tables(experiments: list[ExperimentView], budget: int) -> tuple[str, int]:
        """Every experiment's table in a <details> block, its tally in the summary. When they do not
        all fit in `budget` characters, each still gets its block and tally, and the room left is
        shared out (what a short table does not use goes to the others) to each one's most telling
        rows, shown in table order. Returns the blocks and how many rows were left out."""
        rows = [[e.table.row_line(i) + "\n" for i in range(len(e.table.rows))] for e in experiments]
        full = [_details(e, "".join(r), len(r)) for e, r in zip(experiments, rows, strict=True)]
        if sum(len(block) for block in full) <= budget:
            return "".join(full), 0
        empty = [len(_details(e, "", 0, partial=True)) for e in experiments]
        if sum(empty) > budget:
            tallies = "".join(f"- {html(e.title)}: {html(e.summary)}\n" for e in experiments)
            return tallies + "\n", sum(len(r) for r in rows)
        room = budget - sum(empty)
        kept: dict[int, list[int]] = {}
        by_need = sorted(range(len(experiments)), key=lambda i: sum(len(line) for line in rows[i]))
        for position, index in enumerate(by_need):
            share = room // (len(by_need) - position)
            chosen, used = [], 0
            order = experiments[index].importance or tuple(range(len(rows[index])))
            for row in order:
                if used + len(rows[index][row]) > share:
                    break
                chosen.append(row)
                used += len(rows[index][row])
            kept[index] = sorted(chosen)
            room -= used
        out, left_out = [], 0
        for index, experiment in enumerate(experiments):
            if len(kept[index]) == len(rows[index]):
                out.append(full[index])
                continue
            shown = "".join(rows[index][row] for row in kept[index])
            out.append(_details(experiment, shown, len(kept[index]), partial=True))
            left_out += len(rows[index]) - len(kept[index])
        return "".join(out), left_out


def _details(experiment: ExperimentView, rows: str, kept: int, partial: bool = False) -> str:
    total = len(experiment.table.rows)
    shown = (
        (f" (the {kept:,} most telling of {total:,} rows)" if kept else f" (its {total:,} rows left out)")
        if partial
        else ""
    )
    summary = f"{html(experiment.title)}: {html(experiment.summary)}{shown}"
    header = "\n".join(experiment.table.header_lines())
    return f"<details><summary>{summary}</summary>\n\n{header}\n{rows}\n</details>\n\n"


def _advice_items(advice: list[str], budget: int | None) -> list[str]:
    if not advice:
        return [NO_ADVICE_CHANGE]
    items = [f"- {html(line)}" for line in advice]
    if budget is None:
        return items
    kept: list[str] = []
    used = 0
    for item in items:
        if used + len(item) + 1 > max(budget, 0):
            break
        kept.append(item)
        used += len(item) + 1
    if len(kept) < len(items):
        kept.append(f"- … and {len(items) - len(kept):,} more (the JSON export has them all)")
    return kept

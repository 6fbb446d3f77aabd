"""What merging a pull request changes on the published pages: two snapshots of every statement the
pages make (publish/statements.py), one computed by the base branch's code on the base branch's config
and runs, one by the pull request's code on the pull request's, diffed.

- Which run each experiment page shows, before and after, and why an added run does not show.
- Each statement that reads differently: picks and recommendations (a move within a tie, options no
  measurement tells apart, is counted apart), headline numbers (a number that stays within both
  intervals is counted apart), claim verdicts, answers, notes, Machines page rows. Statements are
  matched by key, whatever made them: a new kind of statement is diffed as it comes.
- Runs added, deleted, and rewritten under their own id, with the files that really changed (by the
  SHA-256 each seal records) and their rows before and after: a page whose run was rewritten is
  marked only when files of its own experiment changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from phpcb.compare.exporters.markdown import html, md_text
from phpcb.presentation.advice import Advice
from phpcb.presentation.advice import diff as advice_diff
from phpcb.presentation.formatting import duration
from phpcb.presentation.headlines import SECONDS
from phpcb.publish.statements import PageRun, RunInfo, Snapshot, Statement

FULL = "full"
CHANGED, TIE, INTERVAL = "changed", "tie", "interval"
LEAD_HEADING = "#### What merging changes on the published pages"
SHOWN_CHANGES = 25  # statements listed in the comment; the rest are counted


@dataclass(frozen=True)
class RunRef:
    """A run as the comment names it: its id, profile and machine."""

    run_id: str
    profile: str
    machine: str
    commit: str
    schema_version: int

    @classmethod
    def of(cls, info: RunInfo) -> RunRef:
        return cls(info.run_id, info.profile, info.machine, info.commit, info.schema_version)


@dataclass(frozen=True)
class FileChange:
    """A file of a run rewritten under its own id: its rows before and after (None: not there)."""

    name: str
    rows_before: int | None
    rows_after: int | None

    def __str__(self) -> str:
        if self.rows_before is None:
            return f"{self.name} added ({self.rows_after:,} rows)"
        if self.rows_after is None:
            return f"{self.name} removed (had {self.rows_before:,} rows)"
        if self.rows_before == self.rows_after:
            return f"{self.name} rewritten ({self.rows_after:,} rows)"
        return f"{self.name} rewritten ({self.rows_before:,} → {self.rows_after:,} rows)"


@dataclass(frozen=True)
class Rewritten:
    run_id: str
    files: tuple[FileChange, ...]  # the files whose seal changed; () when only the manifest did


@dataclass(frozen=True)
class Change:
    """A statement that reads differently after merging; None where one side does not make it."""

    page: str
    key: str
    label: str
    base: str | None
    new: str | None
    kind: str  # CHANGED, TIE (a move within a tie) or INTERVAL (a number within both intervals)
    detail: str = ""


@dataclass(frozen=True)
class PageEffect:
    experiment: str
    title: str
    before: RunRef | None
    after: RunRef | None
    rewritten: tuple[FileChange, ...]  # the page's run is the same id, and these of its files changed
    not_shown: tuple[str, ...]  # why each added run of this experiment is not the page's run

    @property
    def changes(self) -> bool:
        return self.before != self.after or bool(self.rewritten)

    @property
    def confounders(self) -> tuple[str, ...]:
        """What differs between the page's runs besides the speed of the measured code: named, never
        read as findings."""
        if self.before is None or self.after is None or self.before.run_id == self.after.run_id:
            return ()
        pairs = (
            ("profile", self.before.profile, self.after.profile),
            ("machine", self.before.machine, self.after.machine),
            ("runner commit", self.before.commit, self.after.commit),
            ("schema version", str(self.before.schema_version), str(self.after.schema_version)),
        )
        return tuple(f"{what} {old} → {new}" for what, old, new in pairs if old != new)


@dataclass(frozen=True)
class MergeEffect:
    pages: tuple[PageEffect, ...]
    changes: tuple[Change, ...]
    added: tuple[RunRef, ...]
    removed: tuple[RunRef, ...]
    rewritten: tuple[Rewritten, ...]

    @property
    def statements(self) -> tuple[Change, ...]:
        """The changes that are changes: not a move within a tie or within the intervals."""
        return tuple(c for c in self.changes if c.kind == CHANGED)


def file_changes(before: RunInfo, after: RunInfo) -> tuple[FileChange, ...]:
    names = [*before.files, *(n for n in after.files if n not in before.files)]
    found = []
    for name in names:
        old, new = before.files.get(name), after.files.get(name)
        if old != new:
            found.append(FileChange(name, old[0] if old else None, new[0] if new else None))
    return tuple(found)


def _why_not_shown(run: RunInfo, shown: PageRun, runs: dict[str, RunInfo]) -> str:
    chosen = runs.get(shown.run_id or "")
    if chosen is None:
        return f"{run.run_id}: no page shows it"
    if run.profile != FULL and chosen.profile == FULL:
        return f"{run.run_id} is a {run.profile} run: a quick run never replaces a full one"
    if run.machine != chosen.machine:
        return f"{run.run_id} is from {run.machine}; the page shows {chosen.run_id}, {shown.reason}"
    return f"{run.run_id}: the page shows {chosen.run_id}, {shown.reason}"


def _number(statement: Statement) -> str:
    if statement.number is None:
        return statement.value
    if statement.unit == SECONDS:
        shown = f"{duration(statement.number)} ({duration(statement.low or 0)}–{duration(statement.high or 0)})"
    else:
        shown = f"{statement.number:.2f}× ({statement.low or 0:.2f}–{statement.high or 0:.2f}×)"
    return f"{statement.value}: {shown}" if statement.value else shown


def _within(value: float, statement: Statement) -> bool:
    return statement.low is not None and statement.high is not None and statement.low <= value <= statement.high


def _diff_numbers(before: Statement, after: Statement) -> Change | None:
    assert before.number is not None
    assert after.number is not None
    if before.value == after.value and before.number == after.number:
        return None
    same_choice = before.value == after.value
    kind = INTERVAL if same_choice and _within(after.number, before) and _within(before.number, after) else CHANGED
    return Change(after.page, after.key, after.label, _number(before), _number(after), kind)


def _advice(statement: Statement) -> Advice:
    return Advice(statement.page, statement.key, statement.label, statement.value, statement.options, statement.order)


def diff(before: Snapshot, after: Snapshot) -> tuple[Change, ...]:
    """Every statement that reads differently, in the base's order, then the new ones."""
    old = {s.key: s for s in before.statements}
    new = {s.key: s for s in after.statements}
    numbers = {k for k in old.keys() & new.keys() if old[k].number is not None and new[k].number is not None}
    words = [k for k in [*old, *(k for k in new if k not in old)] if k not in numbers]
    ties = {
        change.key: change.tie
        for change in advice_diff(
            [_advice(old[k]) for k in words if k in old], [_advice(new[k]) for k in words if k in new]
        )
    }
    changes = []
    for key in [*old, *(k for k in new if k not in old)]:
        a, b = old.get(key), new.get(key)
        if key in numbers:
            assert a is not None
            assert b is not None
            found = _diff_numbers(a, b)
            if found is not None:
                changes.append(found)
            continue
        if key not in ties:
            continue
        named = b or a
        assert named is not None
        changes.append(
            Change(
                named.page,
                key,
                named.label,
                _number(a) if a else None,
                _number(b) if b else None,
                TIE if ties[key] else CHANGED,
                b.detail if b else "",
            )
        )
    for row in sorted(before.machines.keys() | after.machines.keys()):
        was, now = before.machines.get(row, ()), after.machines.get(row, ())
        if was != now:
            changes.append(
                Change(
                    "machines.md",
                    f"machines.{row}",
                    f"Machines page, {row}",
                    ", ".join(was) or None,
                    ", ".join(now) or None,
                    CHANGED,
                )
            )
    return tuple(changes)


def effect(before: Snapshot, after: Snapshot) -> MergeEffect:
    """What the pages of `after` say differently from those of `before`."""
    added = [info for run_id, info in after.runs.items() if run_id not in before.runs]
    rewritten = {
        run_id: file_changes(before.runs[run_id], info)
        for run_id, info in after.runs.items()
        if run_id in before.runs and before.runs[run_id] != info
    }
    old_pages = {p.experiment: p for p in before.pages}
    pages = []
    for shown in after.pages:
        was = old_pages.get(shown.experiment)
        old_ref = RunRef.of(before.runs[was.run_id]) if was and was.run_id in before.runs else None
        new_ref = RunRef.of(after.runs[shown.run_id]) if shown.run_id in after.runs else None
        if old_ref is None and new_ref is None:
            continue  # a page no run has, before or after (an experiment only another stack runs): nothing to say
        own: tuple[FileChange, ...] = ()
        if old_ref and new_ref and old_ref.run_id == new_ref.run_id and new_ref.run_id in rewritten:
            files = set(after.runs[new_ref.run_id].experiments.get(shown.experiment, ()))
            files |= set(before.runs[old_ref.run_id].experiments.get(shown.experiment, ()))
            own = tuple(f for f in rewritten[new_ref.run_id] if f.name in files)
        not_shown = tuple(
            _why_not_shown(run, shown, after.runs)
            for run in added
            if shown.experiment in run.experiments and run.run_id != shown.run_id
        )
        pages.append(PageEffect(shown.experiment, shown.title, old_ref, new_ref, own, not_shown))
    return MergeEffect(
        tuple(pages),
        diff(before, after),
        tuple(RunRef.of(info) for info in added),
        tuple(RunRef.of(info) for run_id, info in before.runs.items() if run_id not in after.runs),
        tuple(Rewritten(run_id, files) for run_id, files in rewritten.items()),
    )


# --- the comment's lead, in Markdown ------------------------------------------------------------


def _run_cell(ref: RunRef | None) -> str:
    if ref is None:
        return "no run"
    return f"`{md_text(ref.run_id)}` ({md_text(ref.profile)}, {md_text(ref.machine)})"


def _page_cell(page: PageEffect) -> str:
    if page.rewritten:
        return f"{_run_cell(page.after)}, **{md_text('; '.join(str(f) for f in page.rewritten))}**"
    if not page.changes:
        return "unchanged"
    return f"**{_run_cell(page.after)}**"


def _change_line(change: Change) -> str:
    before = md_text(change.base) if change.base is not None else "not stated"
    after = md_text(change.new) if change.new is not None else "not stated"
    detail = f" ({md_text(change.detail)})" if change.detail and change.kind == CHANGED else ""
    return f"- {md_text(change.label)}: {before} → **{after}**{detail}"


def _headline(effect: MergeEffect) -> str:
    moved = effect.statements
    pages = [p for p in effect.pages if p.changes]
    kept = "every experiment page keeps its run" if not pages else f"{len(pages)} page(s) change their run or its files"
    if not moved:
        return f"**No statement on the published pages changes** ({kept})."
    return f"**{len(moved)} statement(s) on the published pages change** ({kept})."


def lead(effect: MergeEffect, limit: int = SHOWN_CHANGES) -> str:
    """The comment's first section. Every value is Markdown- and HTML-escaped."""
    lines = [
        LEAD_HEADING,
        "",
        html(_headline(effect)),
        "",
        "| Page | Shows now | After merging |",
        "| --- | --- | --- |",
    ]
    lines += [
        f"| {html(md_text(p.title))} | {html(_run_cell(p.before))} | {html(_page_cell(p))} |" for p in effect.pages
    ]
    lines.append("")
    moved = effect.statements
    lines += [html(_change_line(c)) for c in moved[:limit]]
    if len(moved) > limit:
        lines.append(html(f"- _and {len(moved) - limit} more (the preview's pages state them all)_"))
    ties = sum(1 for c in effect.changes if c.kind == TIE)
    within = sum(1 for c in effect.changes if c.kind == INTERVAL)
    if ties or within:
        parts = []
        if ties:
            parts.append(f"{ties} move(s) within a tie (options no measurement tells apart)")
        if within:
            parts.append(f"{within} number(s) moved within their 95 % intervals")
        lines.append(html(f"_Counted apart, not changes of what the pages say: {'; '.join(parts)}._"))
    confounded = [p for p in effect.pages if p.confounders]
    if confounded and moved:
        lines += [
            "",
            "**Confounders, not findings**: the two runs of these pages differ in more than speed, "
            "so a changed statement may come from that:",
        ]
        lines += [html(f"- {md_text(p.title)}: {md_text('; '.join(p.confounders))}") for p in confounded]
    reasons = sorted({reason for p in effect.pages for reason in p.not_shown})
    if reasons:
        lines += ["", "Why the added runs do not replace a page's run:", *(html(f"- {md_text(r)}") for r in reasons)]
    lines += ["", html(_runs_pages(effect)), ""]
    return "\n".join(lines)


def _runs_pages(effect: MergeEffect) -> str:
    parts = []
    if effect.added:
        parts.append("Runs page adds " + ", ".join(f"`{md_text(r.run_id)}`" for r in effect.added))
    if effect.removed:
        parts.append("Runs page drops " + ", ".join(f"`{md_text(r.run_id)}`" for r in effect.removed))
    for run in effect.rewritten:
        files = "; ".join(str(f) for f in run.files) or "its manifest only"
        parts.append(f"Runs page: `{md_text(run.run_id)}` rewritten ({md_text(files)})")
    return ("; ".join(parts) + ".") if parts else "The Runs page does not change."


def publishing_note(effect: MergeEffect) -> str:
    """A rewritten run is a publishing event: gh-pages holds its published copy, which every version
    links to and which `make publish` never replaces unasked."""
    if not effect.rewritten:
        return ""
    ids = ",".join(r.run_id for r in effect.rewritten)
    return (
        "> [!IMPORTANT]\n"
        f"> **Merging needs the published copy of {len(effect.rewritten)} run(s) replaced**: "
        + ", ".join(f"`{md_text(r.run_id)}`" for r in effect.rewritten)
        + ". `make publish` refuses a run whose published files differ; after merging, a maintainer "
        f'publishes with `make publish VERSION=auto REPLACE_RUNS={md_text(ids)} REASON="…"`, which '
        "replaces them, records why, and says so on every older version's Runs page.\n\n"
    )

"""What merging a pull request changes on the published pages: two builds of the site, one computed by
the base branch's code on the base branch's config and runs, one by the pull request's code on the
pull request's, diffed twice: page by page, the generated Markdown (publish/page_text.py: the ground
truth, whatever the pull request touches), and statement by statement (publish/statements.py: what
the changes mean).

- Which page's text changes, with its lines added and removed and its first changed lines quoted; each
  copyable snippet whose text as a page includes it changes, as a unified diff. The headline names the
  pages, and is never "no change" while a page's text differs.

- Which run each experiment page shows, before and after, and why an added run does not show.
- Each statement that reads differently: picks and recommendations (a move within a tie, options no
  measurement tells apart, is marked so), headline numbers (a number that stays within both intervals
  is marked so), claim verdicts, answers, notes, Machines page rows. Statements are matched by key,
  whatever made them: a new kind of statement is diffed as it comes.
- Runs added, deleted, and rewritten under their own id, with the files that really changed (by the
  SHA-256 each seal records) and their rows before and after: a page whose run was rewritten is
  marked only when files of its own experiment changed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from phpcb.compare.exporters.markdown import html, md_text
from phpcb.presentation.advice import Advice
from phpcb.presentation.advice import diff as advice_diff
from phpcb.presentation.formatting import duration
from phpcb.presentation.headlines import SECONDS
from phpcb.presentation.render import fenced
from phpcb.publish import page_text
from phpcb.publish.page_text import SnippetChange, TextChange
from phpcb.publish.statements import PageRun, RunInfo, Snapshot, Statement

FULL = "full"
CHANGED, TIE, INTERVAL, SPREAD = "changed", "tie", "interval", "spread"
LEAD_HEADING = "#### What merging changes on the published pages"
SHOWN_CHANGES = 25  # statements listed in the comment; the rest are counted
SHOWN_CODE = 5  # files of the pull request's code named; the rest are counted
QUOTED_CHARS = 4_000  # the changed lines of the pages quoted in the comment, at most
RUNS_PAGE = "runs.md"
NO_RUN = "—"
QUALIFIERS = {
    TIE: "a move within a tie: options no measurement tells apart",
    INTERVAL: "within both 95 % intervals",
    SPREAD: "the same number; its 95 % interval changes",
}


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
    kind: str  # CHANGED, TIE (a move within a tie), INTERVAL (a number within both intervals) or SPREAD
    detail: str = ""


@dataclass(frozen=True)
class PageEffect:
    experiment: str
    title: str
    before: RunRef | None
    after: RunRef | None
    rewritten: tuple[FileChange, ...]  # the page's run is the same id, and these of its files changed
    not_shown: tuple[str, ...]  # why each added run of this experiment is not the page's run
    page: str = ""  # its path in the build (experiments/jwt.md)

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
    texts: tuple[TextChange, ...] | None = None  # each page whose Markdown differs; None: not compared
    snippets: tuple[SnippetChange, ...] = ()

    @property
    def statements(self) -> tuple[Change, ...]:
        """The changes that are changes: not a move within a tie or within the intervals."""
        return tuple(c for c in self.changes if c.kind == CHANGED)

    @property
    def changed_pages(self) -> tuple[str, ...]:
        """The titles of the pages whose text differs."""
        return tuple(t.title for t in self.texts or ())


@dataclass(frozen=True)
class Reported:
    """What the pull request's own job says its code changes on the pages: the merged side it built with
    its code, diffed against the merged side this job built from the same files with the base's code.
    Shown as the other job's word, never verified here (this job does not run that code)."""

    effect: MergeEffect | None  # None: the artifact carries no merged side to read
    code: tuple[str, ...]  # the pull request's files outside what this job builds from
    notes: tuple[str, ...] = ()


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
    """The number as its page states it, with its interval; a snapshot that lacks an end of it (an older
    artifact's) says so, never prints 0 for it: no page states such an interval."""
    if statement.number is None:
        return statement.value
    low, high = statement.low, statement.high
    if statement.unit == SECONDS:
        number = duration(statement.number)
        interval = None if low is None or high is None else f"{duration(low)}–{duration(high)}"
    else:
        number = f"{statement.number:.2f}×"
        interval = None if low is None or high is None else f"{low:.2f}–{high:.2f}×"
    shown = f"{number} ({interval or 'its interval not recorded'})"
    return f"{statement.value}: {shown}" if statement.value else shown


def _within(value: float, statement: Statement) -> bool:
    return statement.low is not None and statement.high is not None and statement.low <= value <= statement.high


def _diff_numbers(before: Statement, after: Statement) -> Change | None:
    assert before.number is not None
    assert after.number is not None
    same_choice = before.value == after.value
    if same_choice and before.number == after.number:
        # A page prints every number with its interval: the same number with another one reads differently.
        # Where a side does not record its interval (an older artifact's snapshot) none is known to differ.
        intervals = (before.low, before.high), (after.low, after.high)
        if intervals[0] == intervals[1] or None in (*intervals[0], *intervals[1]):
            return None
        return Change(after.page, after.key, after.label, _number(before), _number(after), SPREAD)
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


def page_titles(*snapshots: Snapshot) -> dict[str, str]:
    """Each experiment page's path → the experiment's title, as the snapshots name them."""
    return {p.page or f"experiments/{p.experiment}.md": p.title for snapshot in snapshots for p in snapshot.pages}


def effect(
    before: Snapshot,
    after: Snapshot,
    before_pages: Mapping[str, str] | None = None,
    after_pages: Mapping[str, str] | None = None,
) -> MergeEffect:
    """What the pages of `after` say differently from those of `before`: statement by statement, and,
    when both builds' pages are given, page by page (their text, and the snippets they include)."""
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
        path = shown.page or f"experiments/{shown.experiment}.md"
        pages.append(PageEffect(shown.experiment, shown.title, old_ref, new_ref, own, not_shown, path))
    texts: tuple[TextChange, ...] | None = None
    snippets: tuple[SnippetChange, ...] = ()
    if before_pages is not None and after_pages is not None:
        titles = page_titles(before, after)
        order = {page_text.HOME: 0, **{page: index + 1 for index, page in enumerate(titles)}}
        found = page_text.diff(before_pages, after_pages, titles)
        texts = tuple(sorted(found, key=lambda t: (order.get(t.page, len(order)), t.page)))  # Home, experiments
        snippets = page_text.snippet_diffs(before_pages, after_pages, titles)
    return MergeEffect(
        tuple(pages),
        diff(before, after),
        tuple(RunRef.of(info) for info in added),
        tuple(RunRef.of(info) for run_id, info in before.runs.items() if run_id not in after.runs),
        tuple(Rewritten(run_id, files) for run_id, files in rewritten.items()),
        texts,
        snippets,
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


def code_span(text: str) -> str:
    """`text` on one line as a Markdown code span, which shows the characters it holds (no escape, HTML
    or mention is read in it): its backticks longer than any run of them in the text."""
    flat = " ".join(text.split())
    fence = "`" * (1 + max((len(run) for run in re.findall(r"`+", flat)), default=0))
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _text_cell(change: TextChange | None) -> str:
    return "unchanged" if change is None else f"**{md_text(change.counts)}**"


def _change_line(change: Change) -> str:
    before = md_text(change.base) if change.base is not None else "not stated"
    after = md_text(change.new) if change.new is not None else "not stated"
    detail = f" ({md_text(change.detail)})" if change.detail and change.kind == CHANGED else ""
    qualifier = f" _({QUALIFIERS[change.kind]})_" if change.kind in QUALIFIERS else ""
    return f"- {md_text(change.label)}: {before} → **{after}**{detail}{qualifier}"


def _counts(effect: MergeEffect) -> list[str]:
    """The statements that change, in numbers, and whether the experiment pages keep their runs."""
    moved = len(effect.statements)
    ties = sum(1 for c in effect.changes if c.kind == TIE)
    within = sum(1 for c in effect.changes if c.kind == INTERVAL)
    parts = [f"{moved} statement(s) change"] if moved else []
    if ties:
        parts.append(f"{ties} pick(s) move within a tie")
    if within:
        parts.append(f"{within} number(s) move within their 95 % intervals")
    spread = sum(1 for c in effect.changes if c.kind == SPREAD)
    if spread:
        parts.append(f"{spread} number(s) keep their value with another 95 % interval")
    pages = [p for p in effect.pages if p.changes]
    parts.append(
        "every experiment page keeps its run" if not pages else f"{len(pages)} page(s) change their run or its files"
    )
    return parts


def _names(titles: list[str]) -> str:
    return ", ".join(md_text(t) for t in titles)


def _headline(effect: MergeEffect, reported: Reported | None = None) -> str:
    """The comment's first sentence. With the pages compared it names every page whose text differs, and
    is "no change" only when none does; a pull request's code it cannot build from is said so."""
    counts = "; ".join(_counts(effect))
    if effect.texts is None:  # statements only (a caller that built no pages)
        moved = effect.statements
        if not moved:
            return f"**No statement on the published pages changes** ({counts})."
        return f"**{len(moved)} statement(s) on the published pages change** ({counts})."
    mine = list(effect.changed_pages)
    theirs = [] if reported is None or reported.effect is None else list(reported.effect.changed_pages)
    named = list(dict.fromkeys([*mine, *theirs]))
    if named:
        split = ""
        if theirs and mine:
            split = (
                f"; {len(mine)} as this job built the pull request's files, {len(theirs)} as the pull request's "
                "own job reports its code changes them"
            )
        elif theirs:
            split = (
                "; as the pull request's own job reports its code changes them: this job's build of the pull "
                "request's other files changes none"
            )
        return f"**{len(named)} page(s) change what they say**: {_names(named)} ({counts}{split})."
    if reported is not None and reported.effect is None:
        return (
            "**What the pull request's code changes on the pages is not known here**: this job built its other "
            f"files, which change no page ({counts}); see the section below."
        )
    if reported is not None:
        return (
            f"**No page of the published site changes** as this job built the pull request's files ({counts}); "
            "the pull request's own job reports that its code changes none either (not verified here)."
        )
    return f"**No page of the published site changes** ({counts})."


def _statement_lines(effect: MergeEffect, limit: int) -> list[str]:
    """Every statement that reads differently, the changes first, then the moves within a tie or the
    intervals (marked so: the pages' words change, what they find does not)."""
    ordered = [*effect.statements, *(c for c in effect.changes if c.kind != CHANGED)]
    lines = [html(_change_line(c)) for c in ordered[:limit]]
    if len(ordered) > limit:
        lines.append(html(f"- _and {len(ordered) - limit} more (the preview's pages state them all)_"))
    return lines


def _snippet_lines(effect: MergeEffect) -> list[str]:
    """Each copyable snippet that changes: the pages that include it, and its changed lines."""
    if not effect.snippets:
        return []
    lines = ["", "**Copyable code that changes**, as the pages include it (readers copy these lines):", ""]
    for snippet in effect.snippets:
        lines.append(code_span(snippet.path) + html(f" on {_names(list(snippet.pages))}:"))
        lines += ["", fenced("\n".join(snippet.diff), "diff"), ""]
        if snippet.more:
            lines += [f"_and {snippet.more} more line(s) of its diff: see the preview._", ""]
    return lines


def _quoted_lines(effect: MergeEffect, budget: int = QUOTED_CHARS) -> list[str]:
    """The changed lines of each page outside its snippets, the first few per page, up to `budget`
    characters in all, in a collapsed block."""
    quoted = [t for t in effect.texts or () if t.excerpt or t.renamed]
    if not quoted:
        return []
    lines = ["", "<details><summary>The changed lines of each page (outside its snippets)</summary>", ""]
    used = 0
    for index, change in enumerate(quoted):
        block = fenced("\n".join(change.excerpt), "diff") if change.excerpt else ""
        if used + len(block) > budget and index:
            rest = _names([t.title for t in quoted[index:]])
            lines += [html(f"_And the lines of {rest}: see the preview._"), ""]
            break
        lines += [html(f"{md_text(change.title)} ({md_text(change.counts)}):"), ""]
        if block:
            used += len(block)
            lines += [block, ""]
        if change.more:
            lines += [f"_and {change.more} more changed line(s) on this page._", ""]
        if change.renamed:
            lines += [f"_{change.renamed} changed line(s) differ only in the run they name._", ""]
    lines += ["</details>"]
    return lines


def _table(effect: MergeEffect, own: bool = False) -> list[str]:
    """Each experiment page (its run now and after merging, and its text), then each other page whose
    text changes; `own`: the text as this job built it (the pull request's code's is reported apart)."""
    texts = {t.page: t for t in effect.texts or ()}
    compared = effect.texts is not None
    column = " Its text, as this job built it |" if own else " Its text |"
    lines = ["| Page | Shows now | After merging |" + (column if compared else "")]
    lines.append("| --- | --- | --- |" + (" --- |" if compared else ""))
    for p in effect.pages:
        cells = [md_text(p.title), _run_cell(p.before), _page_cell(p)]
        if compared:
            cells.append(_text_cell(texts.get(p.page)))
        lines.append("| " + " | ".join(html(c) for c in cells) + " |")
    experiment_pages = {p.page for p in effect.pages}
    for change in effect.texts or ():
        if change.page not in experiment_pages:
            cells = [md_text(change.title), NO_RUN, NO_RUN, _text_cell(change)]
            lines.append("| " + " | ".join(html(c) for c in cells) + " |")
    return lines


def lead(effect: MergeEffect, limit: int = SHOWN_CHANGES, by: str = "", reported: Reported | None = None) -> str:
    """The comment's first section: `by` says who computed the two sides; `reported`, what the pull
    request's own job says its code changes (its section follows: `reported_section`). Every value is
    Markdown- and HTML-escaped; quoted lines are in fenced blocks no line of them can close."""
    lines = [LEAD_HEADING, ""]
    if by:
        lines += [html(f"_{md_text(by)}_"), ""]
    lines += [html(_headline(effect, reported)), "", *_table(effect, reported is not None), ""]
    lines += _statement_lines(effect, limit)
    lines += _snippet_lines(effect)
    lines += _quoted_lines(effect)
    confounded = [p for p in effect.pages if p.confounders]
    if confounded and (effect.statements or effect.changed_pages):
        lines += [
            "",
            "**Confounders, not findings**: the two runs of these pages differ in more than speed, "
            "so a changed statement may come from that:",
        ]
        lines += [html(f"- {md_text(p.title)}: {md_text('; '.join(p.confounders))}") for p in confounded]
    reasons = sorted({reason for p in effect.pages for reason in p.not_shown})
    if reasons:
        lines += ["", "Why the added runs do not replace a page's run:", *(html(f"- {md_text(r)}") for r in reasons)]
    runs = _runs_pages(effect)
    lines += ["", html(runs), ""] if runs else [""]
    return "\n".join(lines)


REPORTED_HEADING = "#### What the pull request's code changes, as its own job reports"


def reported_section(reported: Reported, limit: int = SHOWN_CHANGES) -> str:
    """The pull request's code changes (files this job never runs): what its own job says they change on
    the pages, said to be its word. Every value is escaped as in `lead`."""
    shown = ", ".join(code_span(path) for path in reported.code[:SHOWN_CODE])
    more = f" and {len(reported.code) - SHOWN_CODE} more" if len(reported.code) > SHOWN_CODE else ""
    lines = [
        REPORTED_HEADING,
        "",
        html(f"This pull request changes {len(reported.code)} file(s) this job does not build from (")
        + shown
        + html(
            f"{more}): the build's code, templates or configuration. This job never runs them. What follows is "
            "the pull request's own preview job's word: the merged tree's pages and statements as its code "
            "built them, diffed against this job's build of the same files with the default branch's code. "
            "Not verified here."
        ),
        "",
        *(html(f"> {md_text(note)}") for note in reported.notes),
    ]
    if reported.notes:
        lines.append("")
    found = reported.effect
    if found is None:
        lines += [
            "**Not known**: the preview artifact carries no pages of the merged tree, so what the code changes "
            "on the pages is not known here. See the preview site, which its code built.",
            "",
        ]
        return "\n".join(lines)
    if not found.changed_pages:
        lines += ["The pull request's job reports that its code changes no page's text.", ""]
        return "\n".join(lines)
    count = len(found.changed_pages)
    lines += [
        html(f"**{count} page(s) change by its code**, as its job reports: {_names(list(found.changed_pages))}."),
        "",
    ]
    lines += [
        "| Page | Its text |",
        "| --- | --- |",
        *(f"| {html(md_text(t.title))} | {html(_text_cell(t))} |" for t in found.texts or ()),
        "",
    ]
    lines += _statement_lines(found, limit)
    lines += _snippet_lines(found)
    lines += _quoted_lines(found)
    lines.append("")
    return "\n".join(lines)


def _runs_pages(effect: MergeEffect) -> str:
    """What the Runs page gains and loses; that it does not change only when its text does not."""
    parts = []
    if effect.added:
        parts.append("Runs page adds " + ", ".join(f"`{md_text(r.run_id)}`" for r in effect.added))
    if effect.removed:
        parts.append("Runs page drops " + ", ".join(f"`{md_text(r.run_id)}`" for r in effect.removed))
    for run in effect.rewritten:
        files = "; ".join(str(f) for f in run.files) or "its manifest only"
        parts.append(f"Runs page: `{md_text(run.run_id)}` rewritten ({md_text(files)})")
    if parts:
        return "; ".join(parts) + "."
    if any(t.page == RUNS_PAGE for t in effect.texts or ()):
        return ""  # its text changes: the table says so
    return "The Runs page does not change."


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

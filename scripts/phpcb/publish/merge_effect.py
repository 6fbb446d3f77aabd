"""What merging a pull request changes on the published pages: for each experiment page, the run it
shows before and after (by data/site.yaml's rule, data/selection.py), and each statement of those
pages that would read differently; for the Runs and Machines pages, the runs they would add, drop or
show in another's place. The PR comment leads with this; the run-by-run comparison is its evidence.

"Before" is the base branch's runs (as `git archive` gives them), "after" the pull request's: an
added run, a run edited under a re-seal and a deleted run are all the same question, what the pages
built from each would say.
"""

from __future__ import annotations

from dataclasses import dataclass

from phpcb.compare.exporters.markdown import html, md_text
from phpcb.data.loader import Run
from phpcb.data.machines import machine_name
from phpcb.data.selection import FULL, SiteConfig, reference
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts
from phpcb.experiments.experiment import Experiment
from phpcb.pages.machines_page import Group, groups, shown_for_group
from phpcb.presentation.advice import AdviceChange, diff


@dataclass(frozen=True)
class RunRef:
    """A run as the comment names it: its id, profile and machine."""

    run_id: str
    profile: str
    machine: str
    commit: str  # the runner's git commit, 12 digits, or "not recorded"
    schema_version: int

    @classmethod
    def of(cls, run: Run) -> RunRef:
        commit = run.manifest.get("git_commit")
        return cls(
            run.run_id,
            str(run.manifest["profile"]),
            machine_name(run.manifest),
            commit[:12] if isinstance(commit, str) else "not recorded",
            run.source_version,
        )


@dataclass(frozen=True)
class PageEffect:
    """One experiment page: the run it shows before and after merging, and why a new run does not
    replace it when it does not."""

    experiment: str
    title: str
    before: RunRef | None
    after: RunRef | None
    rewritten: bool  # the same run id, but its files differ (a re-sealed edit)
    statements: tuple[AdviceChange, ...]
    not_shown: tuple[str, ...]  # why each added run of this experiment is not the page's run

    @property
    def changes(self) -> bool:
        return self.before != self.after or self.rewritten

    @property
    def confounders(self) -> tuple[str, ...]:
        """What differs between the page's runs besides a change of the measured code's speed: another
        profile measures other cases and samples; another runner commit or schema version measures with
        other code. Named, never read as findings."""
        if self.before is None or self.after is None or not self.changes:
            return ()
        pairs = (
            ("profile", self.before.profile, self.after.profile),
            ("machine", self.before.machine, self.after.machine),
            ("runner commit", self.before.commit, self.after.commit),
            ("schema version", str(self.before.schema_version), str(self.after.schema_version)),
        )
        return tuple(f"{what} {old} → {new}" for what, old, new in pairs if old != new)


@dataclass(frozen=True)
class MachineEffect:
    """A Machines page row (machine × PHP minor) whose run changes for at least one experiment."""

    group: Group
    before: tuple[str, ...]  # the run ids the row shows, over the experiments
    after: tuple[str, ...]


@dataclass(frozen=True)
class MergeEffect:
    pages: tuple[PageEffect, ...]
    added: tuple[RunRef, ...]  # on the Runs page after merging, not before
    removed: tuple[RunRef, ...]
    machines: tuple[MachineEffect, ...]

    @property
    def statements(self) -> tuple[AdviceChange, ...]:
        return tuple(change for page in self.pages for change in page.statements)


def _same_files(a: Run, b: Run) -> bool:
    """Whether two runs of one id hold the same data: their manifests, whose seal holds each file's
    SHA-256, agree."""
    return a.manifest == b.manifest


def _why_not_shown(run: Run, shown: Run | None, config: SiteConfig) -> str:
    """Why an added run is not what its experiment's page shows after merging."""
    ref = RunRef.of(run)
    if shown is None:
        return f"{ref.run_id}: no page shows it"
    chosen = RunRef.of(shown)
    if ref.profile != FULL and chosen.profile == FULL:
        return f"{ref.run_id} is a {ref.profile} run: a quick run never replaces a full one"
    if config.reference_machine is not None and ref.machine != config.reference_machine:
        return f"{ref.run_id} is from {ref.machine}, not the reference machine {config.reference_machine}"
    return f"{ref.run_id}: {chosen.run_id} is newer or pinned"


def _statements(
    experiment: Experiment, before: Run | None, after: Run | None, contexts_before: Contexts, contexts_after: Contexts
) -> tuple[AdviceChange, ...]:
    old = experiment.advice(contexts_before.context(experiment, before)) if before is not None else []
    new = experiment.advice(contexts_after.context(experiment, after)) if after is not None else []
    return tuple(diff(old, new))


def _machine_rows(runs: list[Run], config: SiteConfig) -> dict[Group, tuple[str, ...]]:
    rows: dict[Group, tuple[str, ...]] = {}
    for group, members in groups(runs).items():
        shown = [shown_for_group(members, e.name, group, config, None) for e in registry.discover()]
        rows[group] = tuple(sorted({run.run_id for run in shown if run is not None}))
    return rows


def effect(
    before: list[Run],
    after: list[Run],
    config: SiteConfig,
    contexts_before: Contexts,
    contexts_after: Contexts,
) -> MergeEffect:
    """What the published pages built from `after` would show differently from those built from
    `before`. Contexts are separate per side: a run rewritten under its own id must not share a cache."""
    before_ids = {run.run_id: run for run in before}
    after_ids = {run.run_id: run for run in after}
    added = [run for run in after if run.run_id not in before_ids]
    pages = []
    for experiment in registry.discover():
        old = reference(before, experiment.name, config)
        new = reference(after, experiment.name, config)
        old_run, new_run = (old.run if old else None), (new.run if new else None)
        rewritten = (
            old_run is not None
            and new_run is not None
            and old_run.run_id == new_run.run_id
            and not _same_files(old_run, new_run)
        )
        same = old_run is not None and new_run is not None and old_run.run_id == new_run.run_id and not rewritten
        statements = (
            ()
            if same or (old_run is None and new_run is None)
            else (_statements(experiment, old_run, new_run, contexts_before, contexts_after))
        )
        not_shown = tuple(
            _why_not_shown(run, new_run, config)
            for run in added
            if run.has_results(experiment.name) and (new_run is None or run.run_id != new_run.run_id)
        )
        pages.append(
            PageEffect(
                experiment.name,
                experiment.title,
                RunRef.of(old_run) if old_run else None,
                RunRef.of(new_run) if new_run else None,
                rewritten,
                statements,
                not_shown,
            )
        )
    old_rows, new_rows = _machine_rows(before, config), _machine_rows(after, config)
    machines = tuple(
        MachineEffect(group, old_rows.get(group, ()), new_rows.get(group, ()))
        for group in sorted({*old_rows, *new_rows}, key=lambda g: (g.machine, g.stack))
        if old_rows.get(group, ()) != new_rows.get(group, ())
        or any(not _same_files(before_ids[i], after_ids[i]) for i in new_rows.get(group, ()) if i in before_ids)
    )
    return MergeEffect(
        tuple(pages),
        tuple(RunRef.of(run) for run in added),
        tuple(RunRef.of(run) for run in before if run.run_id not in after_ids),
        machines,
    )


# --- the comment's lead, in Markdown ------------------------------------------------------------

LEAD_HEADING = "#### What merging changes on the published pages"


def _run_cell(ref: RunRef | None) -> str:
    if ref is None:
        return "no run"
    return f"`{md_text(ref.run_id)}` ({md_text(ref.profile)}, {md_text(ref.machine)})"


def _page_cell(page: PageEffect) -> str:
    if page.rewritten:
        return f"{_run_cell(page.after)}, **its files rewritten**"
    if not page.changes:
        return "unchanged"
    return f"**{_run_cell(page.after)}**"


def _statement_line(title: str, change: AdviceChange) -> str:
    before = md_text(change.base) if change.base is not None else "not stated"
    after = md_text(change.new) if change.new is not None else "not stated"
    return f"- {md_text(title)}: {md_text(change.label)}: {before} → **{after}**"


def _headline(effect: MergeEffect) -> str:
    moved = [c for c in effect.statements if not c.tie]
    pages = [p for p in effect.pages if p.changes]
    if not moved:
        kept = "every experiment page keeps its run" if not pages else f"{len(pages)} page(s) change their run"
        return f"**No statement on the published pages changes** ({kept})."
    return f"**{len(moved)} statement(s) on the published pages change** ({len(pages)} page(s) change their run)."


def lead(effect: MergeEffect) -> str:
    """The comment's first section: pages → runs, the statements that change, why added runs do not
    show, and what the Runs and Machines pages gain. Every value is Markdown- and HTML-escaped."""
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
    moved = [(p.title, c) for p in effect.pages for c in p.statements if not c.tie]
    ties = sum(1 for c in effect.statements if c.tie)
    if moved:
        lines += [html(_statement_line(title, change)) for title, change in moved]
    if ties:
        lines.append(
            html(
                f"_{ties} more statement(s) move only within a tie (options no measurement tells apart): "
                "not a change of the advice._"
            )
        )
    confounded = [p for p in effect.pages if p.confounders and any(not c.tie for c in p.statements)]
    if confounded:
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
    for row in effect.machines:
        before = ", ".join(f"`{md_text(i)}`" for i in row.before) or "no row"
        after = ", ".join(f"`{md_text(i)}`" for i in row.after) or "no row"
        parts.append(f"Machines page, {md_text(row.group.label)}: {before} → {after}")
    return ("; ".join(parts) + ".") if parts else "The Runs and Machines pages do not change."

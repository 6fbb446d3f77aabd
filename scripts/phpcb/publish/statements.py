"""Every statement the published pages make, as data: what a pull request's merge would change is two
of these diffed, one computed by the base branch's code on its config and runs, one by the pull
request's (publish/merge_effect.py).

    python -m phpcb [--root DIR] statements --out FILE

A statement is keyed so that two builds can be matched: which run each experiment page shows, each
experiment's advice (picks and recommendations, with the options a tie cannot tell apart), its
headline numbers (with their 95 % intervals), the answer each page opens with, the lines experiments
add to each other's pages, each claim's verdict, and each Machines page row. Everything is collected
through the registry and the interfaces every experiment implements (Experiment.advice, .headlines,
.answer, .notes), so a new experiment's statements, or a new advice item, are diffed without this
module naming them. The snapshot also holds each run's seal (files, rows, SHA-256), so that the diff
names the files a rewritten run changed, and only those.

The snapshot is JSON with a format number: the base branch's code may be older than the pull
request's, and its file is read by the newer code (or the other way round) as data.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from phpcb.claims import judge
from phpcb.data import selection
from phpcb.data.loader import Run, load_runs
from phpcb.data.machines import machine_name
from phpcb.data.schema import load_schemas
from phpcb.data.seal import listed_files
from phpcb.errors import DataError
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts, Project
from phpcb.pages import claims_page
from phpcb.pages.build import Sources, cross_notes
from phpcb.pages.machines_page import groups, shown_for_group

FORMAT = 1
# What a note says beside its words: the run it comes from and its measured numbers (decimals), which
# move with every run; compared without them, a note changes when its words do (who is faster).
_MEASURED = re.compile(r"[0-9]{8}T[0-9]{4}Z-[a-z0-9.-]+|[0-9]+\.[0-9]+")


@dataclass(frozen=True)
class Statement:
    """One thing a page says. `value` is its words; a choice also lists its `options` (several when no
    measurement tells them apart) or an `order` of such groups; a number has its interval."""

    page: str
    key: str
    label: str
    value: str
    options: tuple[str, ...] = ()
    order: tuple[tuple[str, ...], ...] = ()
    number: float | None = None
    low: float | None = None
    high: float | None = None
    unit: str = ""
    detail: str = ""  # context shown beside a change, never compared (a claim's measurement and run)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Statement:
        return cls(
            page=str(data["page"]),
            key=str(data["key"]),
            label=str(data["label"]),
            value=str(data["value"]),
            options=tuple(str(o) for o in data.get("options", ())),
            order=tuple(tuple(str(o) for o in group) for group in data.get("order", ())),
            number=data.get("number"),
            low=data.get("low"),
            high=data.get("high"),
            unit=str(data.get("unit", "")),
            detail=str(data.get("detail", "")),
        )


@dataclass(frozen=True)
class RunInfo:
    """A run as the diff names it, and its seal: each file's rows and SHA-256."""

    run_id: str
    profile: str
    machine: str
    commit: str
    schema_version: int
    experiments: dict[str, tuple[str, ...]]  # experiment → its files
    files: dict[str, tuple[int, str]]  # file → (rows, SHA-256); empty for a run without a seal

    @classmethod
    def of(cls, run: Run) -> RunInfo:
        commit = run.manifest.get("git_commit")
        sealed = (run.manifest.get("seal") or {}).get("files", {})
        return cls(
            run.run_id,
            str(run.manifest["profile"]),
            machine_name(run.manifest),
            commit[:12] if isinstance(commit, str) else "not recorded",
            run.source_version,
            {name: tuple(entry["files"]) for name, entry in run.manifest["experiments"].items()},
            {name: (int(sealed[name]["rows"]), str(sealed[name]["sha256"])) for name in listed_files(run.manifest)}
            if sealed
            else {},
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunInfo:
        return cls(
            str(data["run_id"]),
            str(data["profile"]),
            str(data["machine"]),
            str(data["commit"]),
            int(data["schema_version"]),
            {str(k): tuple(str(f) for f in v) for k, v in data["experiments"].items()},
            {str(k): (int(v[0]), str(v[1])) for k, v in data["files"].items()},
        )


@dataclass(frozen=True)
class PageRun:
    """An experiment page and the run it shows (None: no run has the experiment), with why; `page` is its
    path in the build (experiments/jwt.md), '' in a snapshot of code that did not record it."""

    experiment: str
    title: str
    run_id: str | None
    reason: str
    page: str = ""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageRun:
        """A page as a snapshot records it; fields another version of this code adds are left out."""
        run_id = data["run_id"]
        return cls(
            str(data["experiment"]),
            str(data["title"]),
            None if run_id is None else str(run_id),
            str(data["reason"]),
            str(data.get("page", "")),
        )


@dataclass(frozen=True)
class Snapshot:
    pages: tuple[PageRun, ...]
    statements: tuple[Statement, ...]
    runs: dict[str, RunInfo]
    machines: dict[str, tuple[str, ...]] = field(default_factory=dict)  # Machines page row → its runs

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "pages": [asdict(p) for p in self.pages],
                "statements": [asdict(s) for s in self.statements],
                "runs": {run_id: asdict(info) for run_id, info in self.runs.items()},
                "machines": {row: list(ids) for row, ids in self.machines.items()},
            },
            indent=1,
            ensure_ascii=False,
        )

    @classmethod
    def read(cls, path: Path) -> Snapshot:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT:
                raise DataError(path, f"statements of format {data.get('format')!r}; this code reads {FORMAT}")
            return cls(
                tuple(PageRun.from_json(page) for page in data["pages"]),
                tuple(Statement.from_json(s) for s in data["statements"]),
                {run_id: RunInfo.from_json(info) for run_id, info in data["runs"].items()},
                {row: tuple(ids) for row, ids in data.get("machines", {}).items()},
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise DataError(path, f"not a statements file of python -m phpcb statements: {error!r}") from None

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n", encoding="utf-8")


def _text(value: object) -> str:
    return " ".join(str(value).split())


def _sources(root: Path) -> Sources:
    """The tree at `root` as the statements read it: not the build's checks of its tables and runs, so
    that the statements of a tree whose pages cannot be built are still made."""
    project = Project(root)
    schemas = load_schemas(project.schema)
    runs = load_runs(project.runs, schemas)
    config = selection.SiteConfig.load(project.site_config)
    config.check(runs)
    return Sources(root, schemas, registry.discover(), runs, config, Contexts(project, schemas))


def collect(root: Path, sources: Sources | None = None) -> Snapshot:
    """What the pages built from `root` (its data/ and this code) would state: the published selection,
    no run `make report` just measured. `sources`: the tree already loaded for its pages (build.load),
    whose analyses the statements read rather than make again."""
    if sources is None:
        sources = _sources(root)
    elif sources.root != root:
        raise ValueError(f"sources loaded from {sources.root}, not {root}")
    experiments, runs, config, contexts = sources.experiments, sources.runs, sources.config, sources.contexts
    choice = sources.choice()
    _, checked = sources.claims()
    notes = cross_notes(experiments, runs, choice, contexts)
    pages: list[PageRun] = []
    found: list[Statement] = []
    for experiment in experiments:
        page = experiment.page
        chosen = selection.shown(runs, experiment.name, config, None)
        pages.append(
            PageRun(
                experiment.name,
                experiment.title,
                chosen.run.run_id if chosen else None,
                chosen.reason if chosen else "no run has it",
                page,
            )
        )
        for line in notes.get(experiment.name, []):
            text = _text(line)
            key = f"{experiment.name}.note.{_MEASURED.sub('#', text)[:80]}"
            found.append(Statement(page, key, "a note", _MEASURED.sub("#", text), detail=text))
        if chosen is None:
            continue
        context = contexts.context(experiment, chosen.run)
        on_page = judge.on_page(checked, experiment.name)
        context.update(claims=judge.by_id(on_page), page_claims=on_page)
        for advice in experiment.advice(context):
            found.append(Statement(page, advice.key, advice.label, advice.value, advice.options, advice.order))
        for headline in experiment.headlines(context):
            found.append(
                Statement(
                    page,
                    f"headline.{headline.key}",
                    headline.question,
                    headline.choice or "",
                    number=headline.value,
                    low=headline.low,
                    high=headline.high,
                    unit=headline.unit,
                )
            )
        answer = experiment.answer(context)
        if answer is not None:
            found.append(
                Statement(
                    page, f"{experiment.name}.answer", f"{answer.title}: the answer", _text(answer.recommendation)
                )
            )
    for claim in checked:
        run = f" ({claim.run.run_id})" if claim.run is not None else ""
        found.append(
            Statement(
                claims_page.PAGE,
                f"claim.{claim.claim.id}",
                f"claim {claim.claim.id} ({claim.claim.page})",
                claim.verdict,
                detail=f"{_text(claim.measured)}{run}",
            )
        )
    machines = {}
    for group, members in groups(runs).items():
        shown = [shown_for_group(members, e.name, group, config, None) for e in experiments]
        machines[group.label] = tuple(sorted({run.run_id for run in shown if run is not None}))
    return Snapshot(tuple(pages), tuple(found), {run.run_id: RunInfo.of(run) for run in runs}, machines)

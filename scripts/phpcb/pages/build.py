"""Everything the site generates from data: one page per registered experiment, the home and runs
pages, and the files to publish (each run's CSVs, gzip-compressed, its manifest and Data Package
descriptor), in the site or beside it (presentation/downloads.py)."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from phpcb.claims import judge
from phpcb.claims.ledger import Ledger
from phpcb.compare import baselines
from phpcb.compare import stacks as compare_stacks
from phpcb.data import sampling, selection
from phpcb.data.loader import MANIFEST, Run, load_runs
from phpcb.data.schema import Schemas, load_schemas
from phpcb.data.selection import Selection
from phpcb.data.stacks import load_sets, stack_of
from phpcb.errors import NoDataError
from phpcb.experiments import registry
from phpcb.experiments.contexts import DATAPACKAGE, IN_SITE, Contexts, Project, run_anchor
from phpcb.experiments.experiment import Experiment, Figures
from phpcb.pages import across_machines, claims_page, compare_page, versions_page
from phpcb.pages import machines_page as machines
from phpcb.presentation import chart_data, precision, wording
from phpcb.presentation import environment as env_rows
from phpcb.presentation.answer import Answer
from phpcb.presentation.downloads import Compressed, RunFiles, published_name
from phpcb.presentation.plotting import figure_attribute
from phpcb.presentation.render import environment, markdown_text, render
from phpcb.statistics import machine_speed, sample_spread, speed_shifts

COMPARISON_PAGE = compare_page.PAGE
RUNS_PAGE = "runs.md"
Published = str | Path | Compressed  # generated text, a file as it is, a file compressed


@dataclass(frozen=True)
class ExperimentPage:
    """One experiment's generated page, with what went into it (tests read the figures and the answer,
    which the page opens with and the home page shows)."""

    experiment: Experiment
    selection: Selection | None
    context: dict[str, Any]
    figures: Figures
    answer: Answer | None
    text: str

    @property
    def run(self) -> Run | None:
        return self.selection.run if self.selection is not None else None


@dataclass
class GeneratedSite:
    pages: dict[str, str] = field(default_factory=dict)
    files: dict[str, Published] = field(default_factory=dict)  # the runs' files published in the site
    contents: dict[str, str] = field(default_factory=dict)  # generated non-page files
    # The runs' files published beside the site (RunFiles.beside), by their path under the directory
    # that holds the shared runs/: `make publish` copies them to gh-pages' runs/.
    beside: dict[str, Published] = field(default_factory=dict)
    run_files: RunFiles = IN_SITE
    experiments: list[ExperimentPage] = field(default_factory=list)


def experiment_page(
    experiment: Experiment,
    runs: list[Run],
    templates: Any,
    choice: selection.Choice,
    contexts: Contexts,
    checked: list[judge.Checked] | None = None,
    notes: list[Markup] | None = None,
    stacks: compare_stacks.StackComparison | None = None,
    questions: list[machines.Question] | None = None,
) -> ExperimentPage:
    """The page, with the ledger's verdicts on its claims (`checked`): its "then vs now" lines and
    its answer quote them, never a number of their own; where the stacks compared side by side answer
    differently (`stacks`), its answer says so; beside each headline it prints, on how many of the
    Machines page's machines × stacks (`questions`) it holds."""
    given = contexts.inputs(experiment)
    page_claims = checked or []
    chosen = selection.shown(runs, experiment.name, choice.config, choice.focus)
    context: dict[str, Any] = {
        "experiment": experiment,
        "run": None,
        "reference": given.reference,
        **experiment.static_context(given),
    }
    figures: Figures = {}
    answer = None
    claims = {"claims": judge.by_id(page_claims), "page_claims": page_claims}
    if chosen is not None:
        context, figures = contexts.of(experiment, chosen.run)
        context["other_runs"] = [r.run_id for r in runs if r.has_results(experiment.name) and r is not chosen.run]
        context.update(claims)
        answer = experiment.answer(context)
        other = compare_stacks.other_stack_caveat(stacks, experiment.name, stack_of(chosen.run.manifest).name)
        if answer is not None and other is not None:
            answer = dataclasses.replace(answer, caveats=(*answer.caveats, Markup(markdown_text(other))))
        if answer is not None and questions is not None:
            answer = across_machines.with_holds(answer, experiment, context, chosen.run, questions)
    context.update(claims)
    context["selection"] = chosen
    context["compared"] = choice.compared
    context["claims_tally"] = str(judge.Tally.of(page_claims)) if page_claims else ""
    context["notes"] = notes or []
    context["answer"] = answer
    text = render(templates, experiment.template, **context)
    return ExperimentPage(experiment, chosen, context, figures, answer, text)


def cross_notes(
    experiments: list[Experiment], runs: list[Run], choice: selection.Choice, contexts: Contexts
) -> dict[str, list[Markup]]:
    """The lines experiments add to each other's pages (Experiment.notes), each from the run its own
    page shows; by the name of the page they go on."""
    found: dict[str, list[Markup]] = {}
    for experiment in experiments:
        chosen = selection.shown(runs, experiment.name, choice.config, choice.focus)
        if chosen is None:
            continue
        for page, lines in experiment.notes(contexts.context(experiment, chosen.run)).items():
            found.setdefault(page, []).extend(lines)
    return found


def datapackage(run: Run, schemas: Schemas) -> str:
    """The run as published, a Frictionless Data Package, so tools outside this project can validate
    its CSVs: each resource names its compressed file (`aead.csv.gz`) and says it is gzip."""
    files = [name for entry in run.manifest["experiments"].values() for name in entry["files"]]
    descriptor = schemas.datapackage(run.run_id.lower().replace(".", "-"), f"phpcrypto-bench run {run.run_id}", files)
    descriptor["resources"] = [_as_published(resource) for resource in descriptor["resources"]]
    return json.dumps(descriptor, indent=2, ensure_ascii=False) + "\n"


def _as_published(resource: dict[str, Any]) -> dict[str, Any]:
    """A resource naming its file as published; a compressed one says so right after its path."""
    published = published_name(resource["path"])
    if published == resource["path"]:
        return resource
    described: dict[str, Any] = {}
    for key, value in resource.items():
        described[key] = published if key == "path" else value
        if key == "path":
            described["compression"] = "gz"
    return described


def publish_runs(site: GeneratedSite, runs: list[Run], schemas: Schemas) -> None:
    """Each run's manifest, its files (CSV compressed) and its Data Package, in the site or beside it."""
    for run in runs:
        target = site.beside if site.run_files.beside(run.run_id) else site.files
        target[RunFiles.path(run.run_id, MANIFEST)] = run.directory / MANIFEST
        for entry in run.manifest["experiments"].values():
            for name in entry["files"]:
                path = run.directory / name
                target[RunFiles.path(run.run_id, name)] = path if published_name(name) == name else Compressed(path)
        if run.files_current:
            # Files an upgrade changed on the way in follow an older schema than the descriptor would say.
            target[RunFiles.path(run.run_id, DATAPACKAGE)] = datapackage(run, schemas)


def machines_page(
    experiments: list[Experiment],
    runs: list[Run],
    templates: Any,
    config: selection.SiteConfig,
    contexts: Contexts,
    focus: str | None = None,
    questions: list[machines.Question] | None = None,
    shifts: Mapping[str, speed_shifts.SpeedShifts | None] | None = None,
) -> tuple[str, dict[str, dict[str, Any]]]:
    if questions is None:
        questions = machines.questions(experiments, runs, config, contexts.context, focus)
    figures = {q.key: q.figure for q in questions}
    return render(
        templates,
        "machines.md.j2",
        questions=questions,
        figures={key: figure_attribute(figure) for key, figure in figures.items()},
        anchors={run.run_id: run_anchor(run.run_id) for run in runs},
        machines=machines.summaries(runs, shifts),
    ), figures


def shown_on(pages: list[ExperimentPage]) -> dict[str, list[ExperimentPage]]:
    """For the Runs page: which experiment pages show each run (and, on the page, why)."""
    shown: dict[str, list[ExperimentPage]] = {}
    for page in pages:
        if page.run is not None:
            shown.setdefault(page.run.run_id, []).append(page)
    return shown


@dataclass
class Sources:
    """What a build reads, loaded once: the runs, the site's configuration and each (experiment, run)'s
    analysis (`contexts`). Loading and analysing the runs is most of a build's time, and the statements
    of a side (publish/statements.py) read the very analyses its pages do: one process shares them."""

    root: Path
    schemas: Schemas
    experiments: list[Experiment]
    runs: list[Run]
    config: selection.SiteConfig
    contexts: Contexts
    _checked: dict[str | None, tuple[Ledger, list[judge.Checked]]] = field(default_factory=dict)

    @property
    def project(self) -> Project:
        return self.contexts.project

    def choice(self, focus: str | None = None) -> selection.Choice:
        return selection.Choice(self.config, focus)

    def claims(self, focus: str | None = None) -> tuple[Ledger, list[judge.Checked]]:
        """The ledger and every claim's verdict, the pages showing data/site.yaml's picks (or `focus`
        wherever it has the experiment), judged once."""
        if focus not in self._checked:
            self._checked[focus] = claims_page.check(
                self.root, self.experiments, self.runs, self.choice(focus), self.contexts
            )
        return self._checked[focus]


def load(root: Path, run_files: RunFiles = IN_SITE) -> Sources:
    """The tree at `root` as a build reads it, checked (its tables, runs and configuration)."""
    project = Project(root)
    schemas = load_schemas(project.schema)
    experiments = registry.discover()
    registry.check_tables(experiments, schemas)
    runs = load_runs(project.runs, schemas)
    registry.check_runs(experiments, runs, schemas)
    if not runs:
        raise NoDataError(f"{project.runs}: no runs to build from; run `make bench` first")
    config = selection.SiteConfig.load(project.site_config)
    config.check(runs)
    return Sources(root, schemas, experiments, runs, config, Contexts(project, schemas, run_files))


def build(
    root: Path,
    run_files: RunFiles = IN_SITE,
    view: selection.View = selection.PICKS,
    sources: Sources | None = None,
) -> GeneratedSite:
    """Every page and file of the site; `run_files` says where the runs' files are published, `view` which
    run the pages show instead of data/site.yaml's picks and which runs the Comparison page compares;
    `sources`: the tree at `root` already loaded (`load`) with these `run_files`."""
    if sources is None:
        sources = load(root, run_files)
    elif sources.root != root or sources.contexts.run_files != run_files:
        raise ValueError(
            f"sources loaded from {sources.root} for {sources.contexts.run_files}, not {root} for {run_files}"
        )
    project, schemas, experiments, runs = sources.project, sources.schemas, sources.experiments, sources.runs
    config, contexts = sources.config, sources.contexts
    choice = dataclasses.replace(
        sources.choice(view.show), compared=view.show is not None and view.show in view.compare
    )
    if choice.focus is not None and choice.focus not in {run.run_id for run in runs}:
        raise NoDataError(f"{selection.SHOW_RUN_VARIABLE}={choice.focus}: no such run under {project.runs}")
    templates = environment(project.templates)
    site = GeneratedSite(run_files=run_files)
    ledger, checked = sources.claims(choice.focus)
    stack_sets = load_sets(root, runs)
    stack_comparison = versions_page.comparison_of(stack_sets, runs, config, schemas, experiments, contexts)
    notes = cross_notes(experiments, runs, choice, contexts)
    questions = machines.questions(experiments, runs, config, contexts.context, choice.focus)
    for experiment in experiments:
        page = experiment_page(
            experiment,
            runs,
            templates,
            choice,
            contexts,
            judge.on_page(checked, experiment.name),
            notes.get(experiment.name),
            stack_comparison,
            questions,
        )
        site.experiments.append(page)
        site.pages[experiment.page] = page.text
        site.contents.update(chart_data.chart_files(experiment.page, page.figures))
    shifts = speed_shifts.of_runs(runs, schemas)
    site.pages["machines.md"], machine_figures = machines_page(
        experiments, runs, templates, config, contexts, choice.focus, questions, shifts
    )
    site.contents.update(chart_data.chart_files("machines.md", machine_figures))
    site.pages[versions_page.PAGE] = versions_page.render_page(templates, stack_sets, stack_comparison, config)
    site.pages[claims_page.PAGE] = claims_page.render_page(ledger, checked, experiments, runs, templates, run_anchor)
    if view.compare:
        found = baselines.comparisons(runs, view.compare, config, schemas, contexts)
        site.pages[COMPARISON_PAGE] = compare_page.render_page(found, templates, COMPARISON_PAGE, run_files)
    site.pages["index.md"] = render(templates, "home.md.j2", experiments=site.experiments, runs=runs)
    site.pages[RUNS_PAGE] = render(
        templates,
        "runs.md.j2",
        run_link=functools.partial(run_files.link, RUNS_PAGE),
        runs=[(run, run_anchor(run.run_id), env_rows.describe(run.manifest)) for run in reversed(runs)],
        shown_on=shown_on(site.experiments),
        reached=lambda run, name: precision.reached(run, name, schemas),
        load=sampling.Load.of,
        speeds=machine_speed.of_runs(runs, lambda name: schemas.tables[name].columns),
        speed_words=wording.machine_speed,
        spreads=sample_spread.of_runs(runs, schemas),
        spread_words=wording.sample_spread,
        shifts=shifts,
        shift_words=wording.speed_shifts,
    )
    publish_runs(site, runs, schemas)
    return site

"""Everything the site generates from data: one page per registered experiment, the home and runs
pages, and the files to publish (each run's CSVs, manifest and Data Package descriptor)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup, escape

from . import (
    baselines,
    between_runs,
    chart_data,
    claims_page,
    comparison,
    noise,
    precision,
    registry,
    sample_counts,
    selection,
    snippets,
)
from . import environment as env_rows
from . import machines_page as machines
from . import render as render_module
from .errors import NoDataError
from .experiment import Experiment, Figures, Finding, Inputs
from .loader import MANIFEST, Run, load_runs
from .machines import machine_name
from .reference import ReferenceData, load_reference
from .render import environment, render
from .schema import Schemas, load_schemas
from .selection import Selection

DATAPACKAGE = "datapackage.json"
COMPARISON_PAGE = "compare.md"  # only when PHPCB_COMPARE names runs


@dataclass(frozen=True)
class Project:
    """Where the build reads from, relative to the repository root."""

    root: Path

    @property
    def runs(self) -> Path:
        return self.root / "data" / "runs"

    @property
    def schema(self) -> Path:
        return self.root / "data" / "schema"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    def policy(self, experiment: str) -> Path:
        return self.root / "data" / "policy" / f"{experiment}.yaml"

    @property
    def site_config(self) -> Path:
        return self.root / "data" / "site.yaml"

    def reference(self, experiment: str) -> Path:
        return self.root / "data" / "reference" / f"{experiment}.yaml"

    @property
    def watched(self) -> list[Path]:
        """What `mkdocs serve` watches to regenerate pages."""
        return [self.root / "data", self.templates, self.root / "scripts", snippets.directory(self.root)]


@dataclass(frozen=True)
class Choice:
    """How the pages pick their runs: data/site.yaml, and the run `make report` measured (if any)."""

    config: selection.SiteConfig
    focus: str | None


@dataclass(frozen=True)
class ExperimentPage:
    """One experiment's generated page, with what went into it (tests read the figures and the finding)."""

    experiment: Experiment
    selection: Selection | None
    context: dict[str, Any]
    figures: Figures
    finding: Finding | None
    text: str

    @property
    def run(self) -> Run | None:
        return self.selection.run if self.selection is not None else None


@dataclass
class GeneratedSite:
    pages: dict[str, str] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)  # published as they are
    contents: dict[str, str] = field(default_factory=dict)  # generated non-page files
    binaries: dict[str, bytes] = field(default_factory=dict)  # generated binary files (the runs archive)
    experiments: list[ExperimentPage] = field(default_factory=list)


def figure_json(figure: dict[str, Any]) -> str:
    return json.dumps(figure, separators=(",", ":"), sort_keys=True)


def figure_attribute(figure: dict[str, Any]) -> Markup:
    """A figure's JSON for a data-figure attribute of a raw HTML block: HTML-escaped only, since
    Markdown leaves the block alone."""
    return escape(figure_json(figure))


def csv_links(run: Run, experiment: str, page_depth: int) -> list[tuple[str, str]]:
    entry = run.experiment(experiment) or {"files": []}
    prefix = "../" * page_depth
    return [(name, f"{prefix}runs/{run.run_id}/{name}") for name in entry["files"]]


def run_details(run: Run, experiment: str) -> dict[str, Any]:
    """What every experiment page shows of the run it comes from: machine, status, downloads."""
    return {
        "environment": env_rows.describe(run.manifest, (run.experiment(experiment) or {}).get("measured_by")),
        "machine": env_rows.short(run.manifest),
        "entry": run.experiment(experiment),
        "csv_links": csv_links(run, experiment, page_depth=1),
        "manifest_link": f"../runs/{run.run_id}/{MANIFEST}",
        "datapackage_link": None if run.upgraded else f"../runs/{run.run_id}/{DATAPACKAGE}",
    }


def inputs(project: Project, experiment: Experiment) -> Inputs:
    required = experiment.reference_required
    reference = (
        load_reference(project.reference(experiment.name), required)
        if required is not None
        else ReferenceData(project.reference(experiment.name), {})
    )
    return Inputs(policy=experiment.load_policy(project.policy(experiment.name)), reference=reference)


def run_anchor(run_id: str) -> str:
    """The id of a run's section on the Runs page."""
    return "run-" + run_id.lower().replace(".", "-")


def run_context(
    experiment: Experiment, run: Run, given: Inputs, schemas: Schemas, spread: noise.RunSpread = noise.UNKNOWN
) -> dict[str, Any]:
    """What an experiment's page says about one run: its analysis, every ratio widened by the spread
    between runs of its machine where that is known (between_runs.py), and page context (figures apart)."""
    analysis = between_runs.widened(experiment.analyse(run, given), spread.widen_ratio)
    given = dataclasses.replace(given, spread=spread)
    return {
        render_module.BETWEEN_RUNS: spread,
        "experiment": experiment,
        "run": run,
        "reference": given.reference,
        **experiment.static_context(given),
        "analysis": analysis,
        **run_details(run, experiment.name),
        "run_machine": machine_name(run.manifest),
        "run_anchor": run_anchor(run.run_id),
        "sample_counts": sample_counts.count(
            run, experiment.tables[0], experiment.case_key(schemas), experiment.measured_value(schemas).time
        ),
        **experiment.page_context(analysis, given),
    }


class Contexts:
    """Each (experiment, run)'s analysis and page context, computed once per build: the experiment
    pages, the Machines page and the Comparison page's advice read the same runs. Figures are made
    only for the runs a page draws (the advice of a compared run needs none)."""

    def __init__(self, project: Project, schemas: Schemas | None = None) -> None:
        self.project = project
        self._inputs: dict[str, Inputs] = {}
        self._known: dict[tuple[str, str], dict[str, Any]] = {}
        self._figures: dict[tuple[str, str], Figures] = {}
        self._schemas = schemas
        self._noise: dict[str, noise.NoiseModel | None] = {}

    @property
    def schemas(self) -> Schemas:
        if self._schemas is None:
            self._schemas = load_schemas(self.project.schema)
        return self._schemas

    def noise_model(self, machine: str) -> noise.NoiseModel | None:
        if machine not in self._noise:
            self._noise[machine] = noise.load(self.project.root, machine)
        return self._noise[machine]

    def spread(self, experiment: Experiment, run: Run) -> noise.RunSpread:
        """How far the run's absolute times may sit from another run's of its machine."""
        machine = machine_name(run.manifest)
        return noise.run_spread(self.noise_model(machine), machine, str(run.manifest["profile"]), experiment.name)

    def inputs(self, experiment: Experiment) -> Inputs:
        if experiment.name not in self._inputs:
            self._inputs[experiment.name] = inputs(self.project, experiment)
        return self._inputs[experiment.name]

    def context(self, experiment: Experiment, run: Run) -> dict[str, Any]:
        """A fresh copy of the page context without figures (callers add to it)."""
        key = (experiment.name, run.run_id)
        if key not in self._known:
            context = run_context(experiment, run, self.inputs(experiment), self.schemas, self.spread(experiment, run))
            context["precision"] = precision.precision(run, experiment.name, self.schemas)
            self._known[key] = context
        return dict(self._known[key])

    def of(self, experiment: Experiment, run: Run) -> tuple[dict[str, Any], Figures]:
        """A fresh copy of the page context with its figures, and the figures as computed."""
        key = (experiment.name, run.run_id)
        context = self.context(experiment, run)
        if key not in self._figures:
            self._figures[key] = experiment.figures(context["analysis"], self.inputs(experiment))
        figures = self._figures[key]
        context["figures"] = {name: figure_attribute(f) for name, f in figures.items()}
        return context, figures


def experiment_page(
    experiment: Experiment,
    runs: list[Run],
    templates: Any,
    choice: Choice,
    contexts: Contexts,
    checked: list[claims_page.Checked] | None = None,
    notes: list[Markup] | None = None,
) -> ExperimentPage:
    """The page, with the ledger's verdicts on its claims (`checked`): its "then vs now" lines and
    its home-page finding quote them, never a number of their own."""
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
    finding = None
    claims = {"claims": claims_page.by_id(page_claims), "page_claims": page_claims}
    if chosen is not None:
        context, figures = contexts.of(experiment, chosen.run)
        context["other_runs"] = [r.run_id for r in runs if r.has_results(experiment.name) and r is not chosen.run]
        context.update(claims)
        finding = experiment.finding(context)
    context.update(claims)
    context["selection"] = chosen
    context["claims_tally"] = str(claims_page.Tally.of(page_claims)) if page_claims else ""
    context["notes"] = notes or []
    text = render(templates, experiment.template, **context)
    return ExperimentPage(experiment, chosen, context, figures, finding, text)


def cross_notes(
    experiments: list[Experiment], runs: list[Run], choice: Choice, contexts: Contexts
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
    """The run as a Frictionless Data Package, so tools outside this project can validate its CSVs."""
    files = [name for entry in run.manifest["experiments"].values() for name in entry["files"]]
    descriptor = schemas.datapackage(run.run_id.lower().replace(".", "-"), f"phpcrypto-bench run {run.run_id}", files)
    return json.dumps(descriptor, indent=2, ensure_ascii=False) + "\n"


def publish_runs(site: GeneratedSite, runs: list[Run], schemas: Schemas) -> None:
    for run in runs:
        site.files[f"runs/{run.run_id}/{MANIFEST}"] = run.directory / MANIFEST
        for entry in run.manifest["experiments"].values():
            for name in entry["files"]:
                site.files[f"runs/{run.run_id}/{name}"] = run.directory / name
        if not run.upgraded:
            # An upgraded run's files on disk follow an older schema than the descriptor would say.
            site.contents[f"runs/{run.run_id}/{DATAPACKAGE}"] = datapackage(run, schemas)


def machines_page(
    experiments: list[Experiment], runs: list[Run], templates: Any, config: selection.SiteConfig, contexts: Contexts
) -> tuple[str, dict[str, dict[str, Any]]]:
    questions = machines.questions(experiments, runs, config, contexts.context)
    figures = {q.key: q.figure for q in questions}
    return render(
        templates,
        "machines.md.j2",
        questions=questions,
        figures={key: figure_attribute(figure) for key, figure in figures.items()},
        anchors={run.run_id: run_anchor(run.run_id) for run in runs},
        machines=machines.summaries(runs),
    ), figures


def shown_on(pages: list[ExperimentPage]) -> dict[str, list[ExperimentPage]]:
    """For the Runs page: which experiment pages show each run (and, on the page, why)."""
    shown: dict[str, list[ExperimentPage]] = {}
    for page in pages:
        if page.run is not None:
            shown.setdefault(page.run.run_id, []).append(page)
    return shown


def build(root: Path) -> GeneratedSite:
    project = Project(root)
    schemas = load_schemas(project.schema)
    experiments = registry.discover()
    registry.check_tables(experiments, schemas)
    runs = load_runs(project.runs, schemas)
    registry.check_runs(experiments, runs)
    if not runs:
        raise NoDataError(f"{project.runs}: no runs to build from; run `make bench` first")
    config = selection.SiteConfig.load(project.site_config)
    config.check(runs)
    choice = Choice(config, selection.focus_run())
    if choice.focus is not None and choice.focus not in {run.run_id for run in runs}:
        raise NoDataError(f"{selection.SHOW_RUN_VARIABLE}={choice.focus}: no such run under {project.runs}")
    templates = environment(project.templates)
    contexts = Contexts(project, schemas)
    site = GeneratedSite()
    ledger, checked = claims_page.check(root, experiments, runs, choice, contexts)
    notes = cross_notes(experiments, runs, choice, contexts)
    for experiment in experiments:
        page = experiment_page(
            experiment,
            runs,
            templates,
            choice,
            contexts,
            claims_page.on_page(checked, experiment.name),
            notes.get(experiment.name),
        )
        site.experiments.append(page)
        site.pages[experiment.page] = page.text
        site.contents.update(chart_data.chart_files(experiment.page, page.figures))
    site.pages["machines.md"], machine_figures = machines_page(experiments, runs, templates, config, contexts)
    site.contents.update(chart_data.chart_files("machines.md", machine_figures))
    site.pages[claims_page.PAGE] = claims_page.render_page(ledger, checked, experiments, runs, templates, run_anchor)
    compared = selection.compared_runs()
    if compared:
        found = baselines.comparisons(runs, compared, config, schemas, contexts)
        site.pages[COMPARISON_PAGE] = comparison.render_page(found, templates)
    site.pages["index.md"] = render(templates, "home.md.j2", experiments=site.experiments, runs=runs)
    site.pages["runs.md"] = render(
        templates,
        "runs.md.j2",
        runs=[(run, run_anchor(run.run_id), env_rows.describe(run.manifest)) for run in reversed(runs)],
        shown_on=shown_on(site.experiments),
        reached=lambda run, name: precision.precision(run, name, schemas).reached,
        load=precision.Load.of,
    )
    publish_runs(site, runs, schemas)
    site.binaries[chart_data.ARCHIVE] = chart_data.runs_archive(site.files, site.contents)
    return site

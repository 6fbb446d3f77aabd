"""Everything the site generates from data: one page per registered experiment, the home and runs
pages, and the files to publish (each run's CSVs, manifest and Data Package descriptor)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import environment as env_rows
from . import registry
from .errors import NoDataError
from .experiment import Experiment, Figures, Finding, Inputs
from .loader import MANIFEST, Run, load_runs
from .reference import ReferenceData, load_reference
from .render import environment, render
from .schema import Schemas, load_schemas

DATAPACKAGE = "datapackage.json"


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

    def reference(self, experiment: str) -> Path:
        return self.root / "data" / "reference" / f"{experiment}.yaml"

    @property
    def watched(self) -> list[Path]:
        """What `mkdocs serve` watches to regenerate pages."""
        return [self.root / "data", self.templates, self.root / "scripts"]


@dataclass(frozen=True)
class ExperimentPage:
    """One experiment's generated page, with what went into it (tests read the figures and the finding)."""

    experiment: Experiment
    run: Run | None
    context: dict[str, Any]
    figures: Figures
    finding: Finding | None
    text: str


@dataclass
class GeneratedSite:
    pages: dict[str, str] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)  # published as they are
    contents: dict[str, str] = field(default_factory=dict)  # generated non-page files
    experiments: list[ExperimentPage] = field(default_factory=list)


def figure_json(figure: dict[str, Any]) -> str:
    return json.dumps(figure, separators=(",", ":"), sort_keys=True)


def newest_with(runs: list[Run], experiment: str) -> Run | None:
    candidates = [run for run in runs if run.has_results(experiment)]
    return candidates[-1] if candidates else None


def csv_links(run: Run, experiment: str, page_depth: int) -> list[tuple[str, str]]:
    entry = run.experiment(experiment) or {"files": []}
    prefix = "../" * page_depth
    return [(name, f"{prefix}runs/{run.run_id}/{name}") for name in entry["files"]]


def run_details(run: Run, experiment: str, figures: Figures) -> dict[str, Any]:
    """What every experiment page shows of the run it comes from: figures, machine, status, downloads."""
    return {
        "figures": {name: figure_json(f) for name, f in figures.items()},
        "environment": env_rows.describe(run.manifest),
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


def experiment_page(project: Project, experiment: Experiment, runs: list[Run], templates: Any) -> ExperimentPage:
    given = inputs(project, experiment)
    run = newest_with(runs, experiment.name)
    context: dict[str, Any] = {
        "experiment": experiment,
        "run": run,
        "reference": given.reference,
        **experiment.static_context(given),
    }
    figures: Figures = {}
    finding = None
    if run is not None:
        analysis = experiment.analyse(run, given)
        figures = experiment.figures(analysis, given)
        context.update(
            analysis=analysis,
            **run_details(run, experiment.name, figures),
            other_runs=[r.run_id for r in runs if r.has_results(experiment.name) and r is not run],
            **experiment.page_context(analysis, given),
        )
        finding = experiment.finding(context)
    text = render(templates, experiment.template, **context)
    return ExperimentPage(experiment, run, context, figures, finding, text)


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


def build(root: Path) -> GeneratedSite:
    project = Project(root)
    schemas = load_schemas(project.schema)
    experiments = registry.discover()
    registry.check_tables(experiments, schemas)
    runs = load_runs(project.runs, schemas)
    if not runs:
        raise NoDataError(f"{project.runs}: no runs to build from; run `make bench` first")
    templates = environment(project.templates)
    site = GeneratedSite()
    for experiment in experiments:
        page = experiment_page(project, experiment, runs, templates)
        site.experiments.append(page)
        site.pages[experiment.page] = page.text
    site.pages["index.md"] = render(templates, "home.md.j2", experiments=site.experiments, runs=runs)
    site.pages["runs.md"] = render(
        templates,
        "runs.md.j2",
        runs=[(run, env_rows.describe(run.manifest)) for run in reversed(runs)],
    )
    publish_runs(site, runs, schemas)
    return site

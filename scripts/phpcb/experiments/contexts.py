"""Each experiment's analysis and page context for one run, computed once per build and read by every
page, comparison and claim that speaks of the run: where the build reads from (`Project`), what an
experiment reads besides the run (`inputs`), and the run's context (`run_context`, cached by `Contexts`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phpcb.data import noise_model, sampling, snippets
from phpcb.data.loader import MANIFEST, Run
from phpcb.data.machines import machine_name
from phpcb.data.reference import ReferenceData, load_reference
from phpcb.data.schema import Schemas, load_schemas
from phpcb.data.stacks import stack_of
from phpcb.experiments.experiment import Experiment, Figures, Inputs
from phpcb.presentation import environment as env_rows
from phpcb.presentation import precision
from phpcb.presentation.downloads import RunFiles
from phpcb.presentation.plotting import figure_attribute, figure_title
from phpcb.presentation.render import BETWEEN_RUNS, PRECISION, QUOTED
from phpcb.statistics import between_runs, sample_counts, spread
from phpcb.statistics.spread import UNKNOWN, RunSpread

DATAPACKAGE = "datapackage.json"
IN_SITE = RunFiles()  # the default: every run's files published in the site itself


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


def run_details(run: Run, experiment: str, page: str, run_files: RunFiles) -> dict[str, Any]:
    """What every experiment page (`page`) shows of the run it comes from: machine, status, downloads."""
    entry = run.experiment(experiment)
    return {
        "environment": env_rows.describe(run.manifest, (entry or {}).get("measured_by")),
        "machine": env_rows.short(run.manifest),
        "native_mismatch": stack_of(run.manifest).native_mismatch,
        "entry": entry,
        "native_left_out": sampling.native_left_out(entry),
        "csv_links": [run_files.link(page, run.run_id, name) for name in (entry or {"files": []})["files"]],
        "manifest_link": run_files.link(page, run.run_id, MANIFEST),
        "datapackage_link": run_files.link(page, run.run_id, DATAPACKAGE) if run.files_current else None,
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
    experiment: Experiment,
    run: Run,
    given: Inputs,
    schemas: Schemas,
    spread: RunSpread = UNKNOWN,
    run_files: RunFiles = IN_SITE,
) -> dict[str, Any]:
    """What an experiment's page says about one run: its analysis, every ratio widened by the spread
    between runs of its machine where that is known (between_runs.py), and page context (figures apart)."""
    analysis = experiment.analyse(run, given)
    if spread.widens_ratios:  # else widened would walk the whole analysis to return it as it is
        analysis = between_runs.widened(analysis, spread.widen_ratio)
    given = dataclasses.replace(given, spread=spread)
    return {
        BETWEEN_RUNS: spread,
        "experiment": experiment,
        "run": run,
        "reference": given.reference,
        **experiment.static_context(given),
        "analysis": analysis,
        **run_details(run, experiment.name, experiment.page, run_files),
        "run_machine": machine_name(run.manifest),
        "run_anchor": run_anchor(run.run_id),
        "sample_counts": sample_counts.count(
            run,
            experiment.measurements(schemas).name,
            experiment.case_key(schemas),
            experiment.measured_value(schemas).time,
        ),
        **experiment.page_context(analysis, given),
    }


class Contexts:
    """Each (experiment, run)'s analysis and page context, computed once per build: the experiment
    pages, the Machines page and the Comparison page's advice read the same runs. Figures are made
    only for the runs a page draws (the advice of a compared run needs none)."""

    def __init__(self, project: Project, schemas: Schemas | None = None, run_files: RunFiles = IN_SITE) -> None:
        self.project = project
        self.run_files = run_files  # where the pages' download links point
        self._inputs: dict[str, Inputs] = {}
        self._known: dict[tuple[str, str], dict[str, Any]] = {}
        self._figures: dict[tuple[str, str], Figures] = {}
        self._schemas = schemas
        self._noise: dict[str, noise_model.NoiseModel | None] = {}

    @property
    def schemas(self) -> Schemas:
        if self._schemas is None:
            self._schemas = load_schemas(self.project.schema)
        return self._schemas

    def noise_model(self, machine: str) -> noise_model.NoiseModel | None:
        if machine not in self._noise:
            self._noise[machine] = noise_model.load(self.project.root, machine)
        return self._noise[machine]

    def spread(self, experiment: Experiment, run: Run) -> RunSpread:
        """How far the run's absolute times may sit from another run's of its machine."""
        return self.spread_of(experiment.name, run)

    def spread_of(self, experiment: str, run: Run) -> RunSpread:
        machine = machine_name(run.manifest)
        profile, stack = str(run.manifest["profile"]), stack_of(run.manifest).name
        return spread.run_spread(self.noise_model(machine), machine, profile, stack, experiment)

    def inputs(self, experiment: Experiment) -> Inputs:
        if experiment.name not in self._inputs:
            self._inputs[experiment.name] = inputs(self.project, experiment)
        return self._inputs[experiment.name]

    def context(self, experiment: Experiment, run: Run) -> dict[str, Any]:
        """A fresh copy of the page context without figures (callers add to it)."""
        key = (experiment.name, run.run_id)
        if key not in self._known:
            context = run_context(
                experiment, run, self.inputs(experiment), self.schemas, self.spread(experiment, run), self.run_files
            )
            context[PRECISION] = precision.precision(run, experiment.name, self.schemas)
            if QUOTED in context:
                raise ValueError(f"{experiment.name}'s page context has its own {QUOTED!r}: a name of the build's")
            context[QUOTED] = {
                quoted: {
                    BETWEEN_RUNS: self.spread_of(quoted, run),
                    PRECISION: precision.precision(run, quoted, self.schemas),
                }
                for quoted in experiment.quotes
            }
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
        context["chart_titles"] = {name: figure_title(f) for name, f in figures.items()}
        return context, figures

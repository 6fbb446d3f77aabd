"""Everything the site generates from data: pages (Markdown), and files to publish (CSV, manifests)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import environment as env_rows
from .aead import analysis as aead_analysis
from .aead import figures as aead_figures
from .argon2 import analysis as argon2_analysis
from .argon2 import figures as argon2_figures
from .argon2 import page as argon2_page
from .ec_keygen import analysis as ec_analysis
from .ec_keygen import figures as ec_figures
from .ec_keygen import page as ec_page
from .errors import NoDataError
from .jwt import analysis as jwt_analysis
from .jwt import figures as jwt_figures
from .jwt import page as jwt_page
from .loader import MANIFEST, Run, load_runs
from .policy import load_aead_policy, load_jwt_policy, load_key_scheme_policy, load_symmetric_policy
from .reference import figure as reference_figure
from .reference import load_reference
from .render import environment, render
from .schema import load_schemas
from .symmetric import analysis as symmetric_analysis
from .symmetric import figures as symmetric_figures
from .symmetric import page as symmetric_page


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

    @property
    def watched(self) -> list[Path]:
        """What `mkdocs serve` watches to regenerate pages."""
        return [self.root / "data", self.templates, self.root / "scripts"]


@dataclass
class GeneratedSite:
    pages: dict[str, str] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)


def figure_json(figure: dict[str, Any]) -> str:
    return json.dumps(figure, separators=(",", ":"), sort_keys=True)


def newest_with(runs: list[Run], experiment: str) -> Run | None:
    candidates = [run for run in runs if run.has_results(experiment)]
    return candidates[-1] if candidates else None


def csv_links(run: Run, experiment: str, page_depth: int) -> list[tuple[str, str]]:
    entry = run.experiment(experiment) or {"files": []}
    prefix = "../" * page_depth
    return [(name, f"{prefix}runs/{run.run_id}/{name}") for name in entry["files"]]


def run_details(run: Run, experiment: str, figures: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What every experiment page shows of the run it comes from: figures, machine, status, downloads."""
    return {
        "figures": {name: figure_json(f) for name, f in figures.items()},
        "environment": env_rows.describe(run.manifest),
        "machine": env_rows.short(run.manifest),
        "entry": run.experiment(experiment),
        "csv_links": csv_links(run, experiment, page_depth=1),
        "manifest_link": f"../runs/{run.run_id}/{MANIFEST}",
    }


def aead_context(project: Project, runs: list[Run]) -> dict[str, Any]:
    run = newest_with(runs, "aead")
    reference = load_reference(project.root / "data" / "reference" / "aead.yaml")
    context: dict[str, Any] = {
        "run": run,
        "reference": reference,
        "then": reference_figure(reference, "gcm_vs_ccm_speedup"),
        "other_runs": [],
    }
    if run is None:
        return context
    analysis = aead_analysis.analyse(run, load_aead_policy(project.root / "data" / "policy" / "aead.yaml"))
    figures = aead_figures.all_figures(analysis)
    context.update(
        analysis=analysis,
        **run_details(run, "aead", figures),
        other_runs=[r.run_id for r in runs if r.has_results("aead") and r is not run],
    )
    return context


def symmetric_context(project: Project, runs: list[Run]) -> dict[str, Any]:
    run = newest_with(runs, "symmetric")
    reference = load_reference(project.root / "data" / "reference" / "symmetric.yaml", required=("sources", "claims"))
    context: dict[str, Any] = {"run": run, "reference": reference}
    if run is None:
        return context
    policy = load_symmetric_policy(project.root / "data" / "policy" / "symmetric.yaml")
    analysis = symmetric_analysis.analyse(run, policy)
    context.update(
        analysis=analysis,
        **run_details(run, "symmetric", symmetric_figures.all_figures(analysis)),
        **symmetric_page.context(analysis, reference, policy),
    )
    return context


def ec_keygen_context(project: Project, runs: list[Run]) -> dict[str, Any]:
    run = newest_with(runs, "ec_keygen")
    reference = load_reference(project.root / "data" / "reference" / "ec_keygen.yaml")
    context: dict[str, Any] = {"run": run, "reference": reference}
    if run is None:
        return context
    policy = load_key_scheme_policy(project.root / "data" / "policy" / "ec_keygen.yaml")
    analysis = ec_analysis.analyse(run, policy, reference)
    context.update(
        analysis=analysis,
        **run_details(run, "ec_keygen", ec_figures.all_figures(analysis)),
        **ec_page.context(analysis, reference),
    )
    return context


def jwt_context(project: Project, runs: list[Run]) -> dict[str, Any]:
    run = newest_with(runs, "jwt")
    reference = load_reference(project.root / "data" / "reference" / "jwt.yaml")
    context: dict[str, Any] = {"run": run, "reference": reference}
    if run is None:
        return context
    analysis = jwt_analysis.analyse(run, load_jwt_policy(project.root / "data" / "policy" / "jwt.yaml"))
    headline = jwt_analysis.headline_payload(analysis.payloads)
    context.update(
        analysis=analysis,
        headline_payload=headline,
        **run_details(run, "jwt", jwt_figures.all_figures(analysis, reference["limits"])),
        **jwt_page.context(analysis, reference, headline),
    )
    return context


def argon2_context(project: Project, runs: list[Run]) -> dict[str, Any]:
    run = newest_with(runs, "argon2")
    reference = load_reference(project.root / "data" / "reference" / "argon2.yaml")
    context: dict[str, Any] = {"run": run, "reference": reference, "claim": reference["claims"][0]}
    if run is None:
        return context
    analysis = argon2_analysis.analyse(run)
    context.update(
        analysis=analysis,
        **run_details(run, "argon2", argon2_figures.all_figures(analysis)),
        **argon2_page.context(analysis, reference),
    )
    return context


def build(root: Path) -> GeneratedSite:
    project = Project(root)
    schemas = load_schemas(project.schema)
    runs = load_runs(project.runs, schemas)
    if not runs:
        raise NoDataError(f"{project.runs}: no runs to build from; run `make bench` first")
    templates = environment(project.templates)
    site = GeneratedSite()
    aead = aead_context(project, runs)
    site.pages["experiments/aead.md"] = render(templates, "aead.md.j2", **aead)
    symmetric = symmetric_context(project, runs)
    site.pages["experiments/symmetric.md"] = render(templates, "symmetric.md.j2", **symmetric)
    ec_keygen = ec_keygen_context(project, runs)
    site.pages["experiments/ec_keygen.md"] = render(templates, "ec_keygen.md.j2", **ec_keygen)
    jwt = jwt_context(project, runs)
    site.pages["experiments/jwt.md"] = render(templates, "jwt.md.j2", **jwt)
    argon2 = argon2_context(project, runs)
    site.pages["experiments/argon2.md"] = render(templates, "argon2.md.j2", **argon2)
    site.pages["index.md"] = render(
        templates, "home.md.j2", aead=aead, symmetric=symmetric, ec_keygen=ec_keygen, jwt=jwt, argon2=argon2, runs=runs
    )
    site.pages["runs.md"] = render(
        templates,
        "runs.md.j2",
        runs=[(run, env_rows.describe(run.manifest)) for run in reversed(runs)],
    )
    for run in runs:
        site.files[f"runs/{run.run_id}/{MANIFEST}"] = run.directory / MANIFEST
        for entry in run.manifest["experiments"].values():
            for name in entry["files"]:
                site.files[f"runs/{run.run_id}/{name}"] = run.directory / name
    return site

"""`mkdocs build --strict` of the real site, and of a project whose data is malformed."""

import json
import re

import pytest

from phpcb.experiments import registry

from .conftest import MALFORMED, committed_run_dirs, site_build

EXPERIMENTS = registry.discover()


def test_strict_build_writes_every_page_and_lists_every_experiment_in_the_nav(built_site):
    pages = ["index.html", "runs/index.html", "methodology/index.html", "contributing/index.html"]
    pages += [f"experiments/{e.name}/index.html" for e in EXPERIMENTS]
    for page in pages:
        assert (built_site / page).is_file(), page
    home = (built_site / "index.html").read_text(encoding="utf-8")
    link = (
        r'<a href="(experiments/[a-z0-9_]+/)" class="md-nav__link">\s*<span class="md-ellipsis">\s*([^<]+?)\s*</span>'
    )
    nav = [(title, href) for href, title in re.findall(link, home)]
    assert nav == [(e.title, f"experiments/{e.name}/") for e in EXPERIMENTS], "the nav lists the registry, in its order"


def test_plotly_is_served_from_the_site_and_nothing_from_a_cdn(built_site):
    plotly_js = built_site / "assets" / "javascripts" / "plotly.min.js"
    assert plotly_js.stat().st_size > 1_000_000
    for html in built_site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        external = re.findall(r'<(?:script|link)[^>]+(?:src|href)="(https?://[^"]+)"', text)
        assert external == [], f"{html}: {external}"


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.name)
def test_each_experiment_page_has_its_charts_and_links_its_csv(built_site, repository_build, experiment):
    text = (built_site / "experiments" / experiment.name / "index.html").read_text(encoding="utf-8")
    # The generated build holds each chart's data beside the page (pages/site_files.py): one CSV a chart.
    charts = sorted((repository_build / "docs" / "experiments" / experiment.name).glob("*.csv"))
    if not charts:
        # An experiment no committed run has yet (pitfalls, until the next runs on an idle machine).
        assert f"php runners/bench.php run --only {experiment.name}" in text
        assert 'class="pcb-chart"' not in text
        return
    assert text.count('class="pcb-chart"') == len(charts)
    links = re.findall(r'href="(\.\./\.\./runs/[^"]+\.(?:csv\.gz|json))"', text)
    assert len(links) >= 2
    for link in links:
        assert (built_site / "experiments" / experiment.name / link).resolve().is_file(), link


def test_each_published_run_has_a_data_package_naming_its_files(built_site):
    for run in committed_run_dirs():
        package = json.loads((built_site / "runs" / run.name / "datapackage.json").read_text(encoding="utf-8"))
        manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        files = [name for entry in manifest["experiments"].values() for name in entry["files"]]
        assert [resource["path"] for resource in package["resources"]] == [f"{name}.gz" for name in files]
        for name in files:
            assert (built_site / "runs" / run.name / f"{name}.gz").is_file()
            assert not (built_site / "runs" / run.name / name).exists(), "published compressed only"


def test_malformed_data_stops_the_build_with_the_file_row_and_column(tmp_path, make_project):
    root = make_project(MALFORMED / "below-minimum" / "20260101T0100Z-malformed-php8.2")
    result = site_build(tmp_path / "site", phpcb_root=root)
    assert result.returncode != 0
    assert "aead.csv, row 6, column 'iterations': 0 is less than the minimum of 1" in result.stderr
    assert not (tmp_path / "site" / "experiments").exists()

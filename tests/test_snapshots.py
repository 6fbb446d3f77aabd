"""Every generated page and figure of the fixture runs, pinned as files a reviewer can read.

tests/snapshots/<experiment>/page.md is the page with `@figures/<name>.json` where each chart's
JSON goes; tests/snapshots/<experiment>/<name>.json is that figure, pretty-printed. Rewrite them
with UPDATE_SNAPSHOTS=1 and review the diff.
"""

import json
import re

import pytest
from markupsafe import escape

from phpcb.experiments import registry
from phpcb.pages import build as site
from phpcb.presentation import plotting

from .conftest import FIXTURE_RUN, FIXTURE_RUNS, SNAPSHOTS, UPDATING_SNAPSHOTS, assert_snapshot

EXPERIMENTS = registry.discover()


def placeholder(name: str) -> str:
    return f"@figures/{name}.json"


# The environment rows (machine, stack, libraries, commit) are the same on every page of a run: each
# page's snapshot points at one file per run instead, so a new manifest row changes one file, not all.
# A row that depends on the experiment stays on its page.
ENVIRONMENT_TABLE = re.compile(r"^\| what \| value \|\n(?:\|.*\|\n)+", re.MULTILINE)
RUN_ROW = re.compile(r"^\| Run \| (\S+) \|$", re.MULTILINE)
PER_EXPERIMENT_ROWS = ("| OpenSSL legacy provider |",)


def masked_environment(text: str) -> tuple[str, dict[str, str]]:
    """The page with each environment table's run-wide rows replaced by `@environment/<run>.md`, and those rows."""
    tables: dict[str, str] = {}

    def pointer(match: re.Match[str]) -> str:
        run = RUN_ROW.search(match.group(0))
        assert run is not None, f"an environment table names its run: {match.group(0)[:200]}"
        lines = match.group(0).splitlines(keepends=True)
        kept = [line for line in lines if line.startswith(PER_EXPERIMENT_ROWS)]
        tables[run.group(1)] = "".join(line for line in lines if line not in kept)
        return f"@environment/{run.group(1)}.md\n" + "".join(kept)

    return ENVIRONMENT_TABLE.sub(pointer, text), tables


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory):
    from .conftest import project_with

    return site.build(project_with(tmp_path_factory.mktemp("snapshots"), *FIXTURE_RUNS))


def page_of(generated: site.GeneratedSite, name: str) -> site.ExperimentPage:
    return next(page for page in generated.experiments if page.experiment.name == name)


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.name)
def test_the_page_and_each_figure_match_their_snapshots(fixture_site, experiment):
    page = page_of(fixture_site, experiment.name)
    assert page.figures, "the fixture runs have data for every experiment, so every page has charts"
    text = page.text
    expected_files = {"page.md"}
    for name, figure in page.figures.items():
        inline = str(escape(plotting.figure_json(figure)))
        assert text.count(inline) == 1, f"figure {name} appears once on the page, as data-figure"
        text = text.replace(inline, placeholder(name))
        assert_snapshot(
            SNAPSHOTS / experiment.name / f"{name}.json", json.dumps(figure, indent=2, sort_keys=True) + "\n"
        )
        expected_files.add(f"{name}.json")
    text, tables = masked_environment(text)
    assert tables, "the page has its Environment section"
    for run_id, table in tables.items():
        assert_snapshot(SNAPSHOTS / "environment" / f"{run_id}.md", table)
    assert_snapshot(SNAPSHOTS / experiment.name / "page.md", text)
    folder = SNAPSHOTS / experiment.name
    stale = {p.name for p in folder.iterdir()} - expected_files
    if UPDATING_SNAPSHOTS:
        for name in stale:
            (folder / name).unlink()
    else:
        assert not stale, f"snapshots of figures the page no longer has: {sorted(stale)}"


def test_an_environment_snapshot_is_one_runs_table_and_every_one_is_used(fixture_site):
    """The masked tables hold what the pages showed (nothing lost by masking), and none is stale."""
    used: dict[str, str] = {}
    for page in fixture_site.experiments:
        masked, tables = masked_environment(page.text)
        assert "| what | value |" not in masked
        for run_id, table in tables.items():
            assert masked.count(f"@environment/{run_id}.md") >= 1
            assert used.setdefault(run_id, table) == table, f"{run_id}: one table per run on every page"
    assert set(used), "the fixture pages show at least one run's environment"
    on_disk = {path.stem for path in (SNAPSHOTS / "environment").glob("*.md")}
    assert on_disk == set(used), "an environment snapshot per shown run, none stale"
    assert all("| Stack |" in table and "| Git commit |" in table for table in used.values())


def test_the_home_page_matches_its_snapshot(fixture_site):
    assert_snapshot(SNAPSHOTS / "index.md", fixture_site.pages["index.md"])


def test_the_machines_page_matches_its_snapshot(fixture_site):
    """Its charts are pinned through the experiments' figures' data; here, where each one goes."""
    page = re.sub(r'data-figure="[^"]*"', 'data-figure="@figure"', fixture_site.pages["machines.md"])
    assert page.count('data-figure="@figure"') == page.count("\n## ") - 1
    assert_snapshot(SNAPSHOTS / "machines.md", page)


def error_bars(figure):
    for trace in figure["data"]:
        for axis in ("error_x", "error_y"):
            bars = trace.get(axis)
            if bars and bars.get("type") == "data":
                yield from (bar for bar in bars.get("array", []) if bar is not None)
                yield from (bar for bar in bars.get("arrayminus", []) if bar is not None)


# Charts whose every interval is truly zero on the fake clock, and why.
NO_SPREAD_ON_THE_FAKE_CLOCK = {
    "argon2-threads": "the fake clock gives each sample a CPU time equal to its wall time: CPU ÷ wall is 1 throughout",
}


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.name)
def test_the_fixture_run_has_real_spread_so_error_bars_are_not_all_zero(fixture_site, experiment):
    """The fake clock jitters each sample: a confidence interval that came out zero would be a bug."""
    figures = page_of(fixture_site, experiment.name).figures
    with_bars = {name: list(error_bars(figure)) for name, figure in figures.items()}
    with_bars = {name: bars for name, bars in with_bars.items() if bars}
    assert with_bars, "every experiment has a chart with confidence intervals"
    for name, bars in with_bars.items():
        if name in NO_SPREAD_ON_THE_FAKE_CLOCK:
            assert all(bar == 0 for bar in bars), NO_SPREAD_ON_THE_FAKE_CLOCK[name]
            continue
        assert all(bar >= 0 for bar in bars), name
        assert sum(bar > 0 for bar in bars) > len(bars) / 2, f"{name}: most error bars should be above zero"


def test_every_time_summary_of_the_fixture_brackets_its_median(fixture_site):
    cases = page_of(fixture_site, "aead").context["analysis"].cases
    assert cases
    for case in cases:
        s = case.summary
        assert s.ci_low_ns < s.median_ns < s.ci_high_ns, case.key


def test_the_site_publishes_every_run_file_and_a_data_package_per_run(fixture_site):
    expected = set()
    for run in FIXTURE_RUNS:
        manifest = json.loads((run / "manifest.json").read_text())
        files = [name for entry in manifest["experiments"].values() for name in entry["files"]]
        names = ("manifest.json", "datapackage.json", *(f"{name}.gz" for name in files))
        expected |= {f"runs/{run.name}/{name}" for name in names}
    assert set(fixture_site.files) == expected
    run_id = FIXTURE_RUN.name
    manifest = json.loads((FIXTURE_RUN / "manifest.json").read_text())
    published = [f"{name}.gz" for entry in manifest["experiments"].values() for name in entry["files"]]
    assert fixture_site.beside == {}, "by default the runs' files are published in the site"
    package = json.loads(fixture_site.files[f"runs/{run_id}/datapackage.json"])
    assert [resource["path"] for resource in package["resources"]] == published
    assert {resource["compression"] for resource in package["resources"]} == {"gz"}
    assert set(fixture_site.pages) == {
        "index.md",
        "runs.md",
        "machines.md",
        "versions.md",
        "claims.md",
        *(e.page for e in EXPERIMENTS),
    }
    assert f"[aead.csv.gz](../runs/{run_id}/aead.csv.gz)" in fixture_site.pages["experiments/aead.md"]
    assert run_id in fixture_site.pages["runs.md"]


def test_the_claims_page_matches_its_snapshot(fixture_site):
    """Every claim's verdict on the fixture run: a change of rule, data or measure shows here."""
    assert_snapshot(SNAPSHOTS / "claims.md", fixture_site.pages["claims.md"])


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.name)
def test_no_list_item_runs_into_the_line_before_it(fixture_site, experiment):
    """A Jinja block at the end of a line eats its newline: '...</code>- **On the pages**' in one bullet."""
    text = page_of(fixture_site, experiment.name).text
    run_together = [line for line in text.splitlines() if re.search(r"\S- \*\*[A-Z]", line)]
    assert not run_together, run_together


LIST_ITEM = re.compile(r"( *)(?:[-*]|\d+\.) ")


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.name)
def test_a_list_starts_after_a_blank_line_not_inside_a_paragraph(fixture_site, experiment):
    """Python-Markdown starts a list only after a blank line: '...8-bit CFB:\\n- decrypt, 3 B: ...' is one
    paragraph with a dash in it. Fenced code is left out; an admonition's first line opens a block."""
    lines = page_of(fixture_site, experiment.name).text.splitlines()
    fence = ""
    glued = []
    for before, line in zip(["", *lines], lines, strict=False):
        stripped = line.strip()
        if fence:
            fence = "" if stripped.startswith(fence) else fence
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            continue
        item = LIST_ITEM.match(line)
        if item is None or not before.strip():
            continue
        in_list = LIST_ITEM.match(before) is not None or len(before) - len(before.lstrip()) > len(item.group(1))
        if not in_list and not before.lstrip().startswith(("!!!", "???")):
            glued.append(f"{before} / {line}")
    assert not glued, glued

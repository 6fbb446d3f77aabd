"""Runs set beside their baselines: which run each compared run meets, the PR comment, the site page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phpcb.compare import baselines
from phpcb.compare.exporters.markdown import LIMIT
from phpcb.data.selection import SiteConfig, View
from phpcb.errors import NoDataError
from phpcb.experiments import contexts
from phpcb.pages import build as site
from phpcb.pages.build import GeneratedSite
from phpcb.publish import preview_comment as preview_comments
from phpcb.publish.github_comment import MARKER
from phpcb.publish.preview_comment import preview_comment

from .conftest import FIXTURE_RUN, named_run, project_with, scale_signing, write_manifest

CONFIG = SiteConfig(Path("data/site.yaml"), "ref", {})


run = named_run


PUBLISHED = run("published", "ref", "full", "2026-11-01T00:00:00Z", ("aead", "jwt"))
MINE_OLD = run("mine-old", "mine", "full", "2026-11-02T00:00:00Z")
MINE_NEW = run("mine-new", "mine", "quick", "2026-11-03T00:00:00Z", ("aead", "jwt"))
STRANGER = run("stranger", "new-box", "quick", "2026-11-04T00:00:00Z")


def test_a_run_meets_its_own_machines_reference_and_the_published_one_for_the_rest():
    found = baselines.pairings([PUBLISHED, MINE_OLD, MINE_NEW], ["mine-new"], CONFIG)
    assert [(p.base.run_id, [e.name for e in p.experiments]) for p in found] == [
        ("mine-old", ["aead"]),
        ("published", ["jwt"]),
    ]
    assert found[0].reason == "the reference run of the same machine"
    assert found[1].reason.startswith("another machine's run, the one the published pages show: ")


def test_the_first_run_of_a_machine_meets_the_published_reference():
    (found,) = baselines.pairings([PUBLISHED, STRANGER], ["stranger"], CONFIG)
    assert found.base is PUBLISHED
    assert "another machine" in found.reason


def test_runs_compared_together_are_never_each_others_baseline():
    second = run("stranger-2", "new-box", "full", "2026-11-05T00:00:00Z")
    found = baselines.pairings([PUBLISHED, STRANGER, second], ["stranger", "stranger-2"], CONFIG)
    assert [(p.new.run_id, p.base.run_id) for p in found] == [("stranger", "published"), ("stranger-2", "published")]


def test_an_unknown_run_is_named():
    with pytest.raises(NoDataError, match="no run nope under data/runs/"):
        baselines.pairings([PUBLISHED], ["nope"], CONFIG)


def test_a_run_with_nothing_to_compare_with_says_so():
    with pytest.raises(NoDataError, match="stranger: no other run has any of its experiments"):
        baselines.pairings([STRANGER], ["stranger"], CONFIG)


def test_no_run_named_is_an_error(tmp_path: Path):
    with pytest.raises(NoDataError, match="--runs: name at least one run id"):
        preview_comment(tmp_path, [], None)


NEW_ID = "20260102T0000Z-fixture-php8.2"


def slower_copy(root: Path) -> None:
    """The fixture run a day later on the same machine, its ES256 signing 1.5 times slower (one case of
    each sign class: a change of the code, not of the machine, which would move the whole class)."""
    target = root / "data" / "runs" / NEW_ID
    target.mkdir()
    for path in FIXTURE_RUN.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((target / "manifest.json").read_text())
    manifest["run_id"] = NEW_ID
    manifest["started_utc"] = "2026-01-02T00:00:00Z"
    write_manifest(target, manifest)
    scale_signing(target, "ES256", 1.5)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One project for the module: its tests read it (the comment test adds preview/, which no build reads)."""
    root = project_with(tmp_path_factory.mktemp("baselines"), FIXTURE_RUN)
    slower_copy(root)
    return root


Compared = tuple[GeneratedSite, list[tuple[str, str]]]


@pytest.fixture(scope="module")
def sources(project: Path) -> site.Sources:
    """The project as a build reads it (site.load), loaded once: the builds of its views below read the same
    runs and analyses, as the trusted job's builds of one tree do (site.build's `sources`)."""
    return site.load(project)


@pytest.fixture(scope="module")
def plain_build(project: Path, sources: site.Sources) -> GeneratedSite:
    """The site of data/site.yaml's picks, built once for the tests that read its pages."""
    return site.build(project, sources=sources)


@pytest.fixture(scope="module")
def compared_build(project: Path) -> Compared:
    """The site comparing NEW_ID, built once from the tree (its own sources: it counts what a build analyses),
    and each (experiment, run) it analysed, in order."""
    calls: list[tuple[str, str]] = []
    analyse = contexts.run_context

    def counted(experiment, run, *rest):
        calls.append((experiment.name, run.run_id))
        return analyse(experiment, run, *rest)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(contexts, "run_context", counted)
        return site.build(project, view=View(compare=(NEW_ID,))), calls


def test_the_comment_finds_the_slower_signing_within_githubs_limit(project: Path):
    out = project / "preview" / "comment.md"
    said = preview_comment(project, [NEW_ID], out)
    text = out.read_text(encoding="utf-8")
    assert said.startswith(f"{out}: comment on {NEW_ID}")
    assert text.startswith(MARKER + "\n")
    assert f"→ {NEW_ID}" in text
    assert "Baseline: the reference run of the same machine." in text
    assert "(across machines)" not in text
    assert "| slower |" in text
    assert len(text) <= LIMIT
    assert [p.name for p in out.parent.iterdir()] == ["comment.md"], "written whole: no temporary file left"


def test_a_small_limit_keeps_every_comparison_in_its_share(sources: site.Sources):
    config = SiteConfig(Path("x"), None, {})
    found = baselines.comparisons(sources.runs, [NEW_ID], config, sources.schemas, sources.contexts)
    text = preview_comments.comment(found, limit=6_000)
    assert len(text) <= 6_000
    assert "rows of the full tables were left out" in text


def test_the_site_has_a_comparison_page_only_when_runs_are_named(
    project: Path, sources: site.Sources, plain_build: GeneratedSite, compared_build: Compared
):
    assert site.COMPARISON_PAGE not in plain_build.pages
    page = compared_build[0].pages[site.COMPARISON_PAGE]
    assert f"## 20260101T0000Z-fixture-php8.2 → {NEW_ID}\n" in page
    assert "Baseline: the reference run of the same machine." in page
    assert "| slower |" in page
    with pytest.raises(NoDataError, match=r"no run 20990101T0000Z-nowhere-php8\.2"):
        site.build(project, view=View(compare=("20990101T0000Z-nowhere-php8.2",)), sources=sources)


def test_a_build_analyses_each_run_of_each_experiment_once(compared_build: Compared):
    _, calls = compared_build
    assert ("jwt", NEW_ID) in calls, "the compared run's advice is read"
    assert len(calls) == len(set(calls))


def test_the_runs_page_says_which_pages_show_each_run(plain_build: GeneratedSite):
    page = plain_build.pages["runs.md"]
    newer, older = page.split(f"## `{FIXTURE_RUN.name}`")
    assert newer.startswith("# Runs")
    assert f"## `{NEW_ID}`" in newer
    assert "- [JWT](experiments/jwt.md): the newest run of any machine" in newer
    assert "Not shown on an experiment page" in older, "the older run of the same machine is shown nowhere"
    assert "Shown on:" not in older


def test_a_page_links_the_comparison_page_only_when_it_sets_the_shown_run_beside_its_baseline(
    project: Path, sources: site.Sources
):
    """PHPCB_SHOW_RUN alone builds no Comparison page: a link to it failed `mkdocs build --strict`."""
    link = "The [Comparison](../compare.md) page sets it beside its baseline run"
    shown = site.build(project, view=View(show=NEW_ID), sources=sources).pages["experiments/jwt.md"]
    assert f"Run [`{NEW_ID}`]" in shown
    assert link not in shown
    both = site.build(project, view=View(show=NEW_ID, compare=(NEW_ID,)), sources=sources)
    assert site.COMPARISON_PAGE in both.pages
    assert link in both.pages["experiments/jwt.md"]

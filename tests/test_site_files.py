"""The build directory (`python -m phpcb pages`): pages generated once, written as files any generator
reads, and the checks that Zensical does not make (links to generated files, absolute links, pages
left out of the nav)."""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
from pathlib import Path

import pytest
import yaml

from phpcb.experiments import registry
from phpcb.pages import site_files
from phpcb.pages.build import GeneratedSite
from phpcb.pages.site_files import SiteFilesError
from phpcb.presentation.downloads import RunFiles

from .conftest import FIXTURE_RUN, project_with

NAV = [{"Home": "index.md"}, {"Experiments": []}, {"Runs": "runs.md"}]


def test_the_experiments_section_lists_the_registry_in_its_order_and_the_comparison_follows():
    filled = site_files.navigation(NAV, {"AEAD": "experiments/aead.md", "JWT": "experiments/jwt.md"}, True, "c.md")
    assert filled == [
        {"Home": "index.md"},
        {"Experiments": [{"AEAD": "experiments/aead.md"}, {"JWT": "experiments/jwt.md"}]},
        {"Comparison": "c.md"},
        {"Runs": "runs.md"},
    ]
    assert site_files.navigation(NAV, {}, False, "c.md")[1] == {"Experiments": []}


def tree(**pages: str) -> dict[str, site_files.Content]:
    return {
        "index.md": "# Home",
        "runs.md": "# Runs",
        **{name.replace("__", "/"): text for name, text in pages.items()},
    }


@pytest.mark.parametrize(
    ("page", "problem"),
    [
        ("[data](runs/missing.csv)", "index.md: links to 'runs/missing.csv', which is no file of the build"),
        ('<a href="/runs/">runs</a>', "index.md: absolute link '/runs/'"),
        ("![chart](../outside.png)", "links to '../outside.png'"),
    ],
)
def test_a_broken_or_absolute_link_is_named_with_its_page(page: str, problem: str):
    problems = site_files.check({**tree(), "index.md": page}, NAV)
    assert len(problems) == 1
    assert problem in problems[0]


def test_links_that_resolve_or_leave_the_site_pass_and_code_is_not_read_for_links():
    page = (
        "[runs](runs.md) [anchor](#top) [section](runs.md#a) [web](https://example.org/x) "
        "[mail](mailto:a@b.c) `[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n"
        '<a href="runs/x.csv">csv</a>'
    )
    assert site_files.check({**tree(), "index.md": page, "runs/x.csv": b"a\n"}, NAV) == []


def test_a_link_from_a_nested_page_resolves_from_its_own_directory():
    pages = {**tree(), "experiments/aead.md": "[csv](../runs/x.csv) [bad](runs/x.csv)", "runs/x.csv": b""}
    nav = [*NAV, {"AEAD": "experiments/aead.md"}]
    assert site_files.check(pages, nav) == [
        "experiments/aead.md: links to 'runs/x.csv', which is no file of the build (experiments/runs/x.csv)"
    ]


def test_an_html_link_resolves_from_the_page_address_and_may_leave_the_site_for_a_file_published_beside_it():
    """`experiments/aead.md` is served at `experiments/aead/`: an HTML link resolves from there, as in
    the browser; above the site's root only the files the build publishes beside it count."""
    pages = {
        **tree(),
        "runs/x.csv.gz": b"",
        "experiments/aead.md": (
            '<a href="../../runs/x.csv.gz">in</a> <a href="../runs/x.csv.gz">off by one</a> '
            '<a href="../../../runs/y.csv.gz">beside</a> <a href="../../../runs/z.csv.gz">missing</a> '
            "[markdown](../../runs/y.csv.gz)"
        ),
    }
    nav = [*NAV, {"AEAD": "experiments/aead.md"}]
    assert site_files.check(pages, nav, {"../runs/y.csv.gz"}) == [
        "experiments/aead.md: links to '../runs/x.csv.gz', which is no file of the build (experiments/runs/x.csv.gz)",
        "experiments/aead.md: links to '../../../runs/z.csv.gz' outside the site (../runs/z.csv.gz), "
        "where the build publishes no file",
        "experiments/aead.md: links to '../../runs/y.csv.gz', outside the site: only an HTML link can leave it",
    ]


@pytest.mark.parametrize(
    ("page", "in_site", "beside", "preview"),
    [
        ("index.md", "runs/r/a.csv.gz", "../runs/r/a.csv.gz", "../../runs/r/a.csv.gz"),
        ("runs.md", "runs/r/a.csv.gz", "../../runs/r/a.csv.gz", "../../../runs/r/a.csv.gz"),
        ("experiments/aead.md", "../runs/r/a.csv.gz", "../../../runs/r/a.csv.gz", "../../../../runs/r/a.csv.gz"),
        ("experiments/index.md", "../runs/r/a.csv.gz", "../../runs/r/a.csv.gz", "../../../runs/r/a.csv.gz"),
    ],
)
def test_a_download_link_climbs_as_deep_as_its_page_is_served(page, in_site, beside, preview):
    assert RunFiles().href(page, "r", "a.csv") == in_site, "a Markdown link, from the page's file"
    assert RunFiles("../").href(page, "r", "a.csv") == beside, "from the page's address, up past a version's root"
    assert RunFiles("../../").href(page, "r", "a.csv") == preview, "up past pr-preview/pr-N/"
    assert RunFiles("../", frozenset({"other"})).href(page, "r", "a.csv") == in_site, "a run not shared: in the site"
    assert RunFiles("../").href(page, "r", "manifest.json").endswith("runs/r/manifest.json"), "JSON as it is"


def test_the_shared_runs_place_must_climb():
    for base in ("", "runs/", "../x/", "/", "..", "../.."):
        with pytest.raises(ValueError, match=r"must be \.\./ repeated"):
            RunFiles(base)


def test_a_page_left_out_of_the_nav_and_a_nav_entry_without_a_page_are_named():
    problems = site_files.check({**tree(), "orphan.md": "# Orphan"}, [*NAV, {"Gone": "gone.md"}])
    assert problems == ["nav lists gone.md, which is no page of the build", "orphan.md is in no section of the nav"]


def test_writing_again_changes_nothing_and_removes_what_is_no_longer_generated(tmp_path: Path):
    out = tmp_path / "build"
    config = {"site_name": "x", "nav": NAV}
    assert site_files.write(out, {"mkdocs.yml": config}, {"index.md": "a", "old.md": "b"}) == 3
    (out / "site").mkdir()
    (out / "site" / "index.html").write_text("built")
    (out / ".cache").mkdir()
    before = (out / "docs" / "index.md").stat().st_mtime_ns
    assert site_files.write(out, {"mkdocs.yml": config}, {"index.md": "a"}) == 0
    assert (out / "docs" / "index.md").stat().st_mtime_ns == before, "an unchanged file is not rewritten"
    assert not (out / "docs" / "old.md").exists()
    assert (out / "site" / "index.html").is_file(), "the generator's own files stay"
    assert (out / ".cache").is_dir()
    assert site_files.write(out, {"mkdocs.yml": config}, {"index.md": "changed"}) == 1


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = project_with(tmp_path_factory.mktemp("generated"), FIXTURE_RUN)
    out = project / "build"
    said = site_files.generate(project, out)
    assert said.startswith(f"ok: {out}: ")
    return out


def sealed_files(run: Path) -> dict[str, str]:
    return {
        name: entry["sha256"]
        for name, entry in json.loads((run / "manifest.json").read_text())["seal"]["files"].items()
    }


def test_each_run_file_is_published_compressed_and_decompresses_to_its_sealed_bytes(generated: Path):
    published = generated / "docs" / "runs" / FIXTURE_RUN.name
    sealed = sealed_files(FIXTURE_RUN)
    assert sealed, "the fixture run is sealed"
    assert sorted(path.name for path in published.glob("*.csv*")) == sorted(f"{name}.gz" for name in sealed)
    for name, digest in sealed.items():
        data = (published / f"{name}.gz").read_bytes()
        assert data[:2] == b"\x1f\x8b", f"{name}: gzip"
        assert hashlib.sha256(gzip.decompress(data)).hexdigest() == digest, name
        assert len(data) < (FIXTURE_RUN / name).stat().st_size, f"{name}: smaller than the CSV"
    assert (published / "manifest.json").read_bytes() == (FIXTURE_RUN / "manifest.json").read_bytes()
    assert not (generated / "runs").exists(), "nothing beside the site when the runs are published in it"


def in_site(project: Path, out: Path, fixture_run_site: GeneratedSite) -> None:
    """What `site_files.generate(project, out)` writes for a project of FIXTURE_RUN alone, from the session's
    build of such a project (`generated` checks generate() itself): a build fewer each time."""
    site_files.write(out, *site_files.assemble(project, fixture_run_site))


def test_runs_shared_beside_the_site_are_written_beside_docs_and_linked_up_past_its_root(
    tmp_path: Path, fixture_run_site: GeneratedSite
):
    project = project_with(tmp_path / "project", FIXTURE_RUN)
    out = project / "build"
    in_site(project, out, fixture_run_site)
    assert (out / "docs" / "runs" / FIXTURE_RUN.name / "aead.csv.gz").is_file(), "published in the site first"
    said = site_files.generate(project, out, RunFiles("../"))
    assert "beside it in" in said
    beside = out / "runs" / FIXTURE_RUN.name
    assert not (out / "docs" / "runs" / FIXTURE_RUN.name).exists(), "no copy in the site: the local one is removed"
    for name, digest in sealed_files(FIXTURE_RUN).items():
        assert hashlib.sha256(gzip.decompress((beside / f"{name}.gz").read_bytes())).hexdigest() == digest
    page = (out / "docs" / "experiments" / "aead.md").read_text(encoding="utf-8")
    assert f'<a href="../../../runs/{FIXTURE_RUN.name}/aead.csv.gz">aead.csv.gz</a>' in page
    runs_page = (out / "docs" / "runs.md").read_text(encoding="utf-8")
    assert f'<a href="../../runs/{FIXTURE_RUN.name}/manifest.json">' in runs_page
    in_site(project, out, fixture_run_site)
    assert not (out / "runs").exists(), "back in the site: nothing left beside it"
    assert (out / "docs" / "runs" / FIXTURE_RUN.name / "aead.csv.gz").is_file()


def test_the_build_directory_holds_every_page_and_a_configuration_without_hooks(generated: Path):
    config = yaml.safe_load((generated / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "hooks" not in config
    assert config["docs_dir"] == "docs"
    assert Path(config["theme"]["custom_dir"]).is_dir()
    experiments = next(entry["Experiments"] for entry in config["nav"] if "Experiments" in entry)
    assert experiments == [{e.title: e.page} for e in registry.discover()]
    for page in [
        "index.md",
        "runs.md",
        "machines.md",
        "claims.md",
        "methodology.md",
        *(e.page for e in registry.discover()),
    ]:
        assert (generated / "docs" / page).is_file(), page
    assert (generated / "docs" / site_files.PLOTLY_TARGET).is_file()
    assert (generated / "mkdocs.publish.yml").read_text(encoding="utf-8").count("INHERIT: mkdocs.yml") == 1


def test_a_frame_whose_configuration_is_not_a_mapping_is_one_clear_error(tmp_path: Path):
    (tmp_path / "mkdocs.yml").write_text("- a list\n", encoding="utf-8")
    with pytest.raises(SiteFilesError, match=r"mkdocs.yml: expected a mapping of settings, got list"):
        site_files.configuration(tmp_path, NAV)


def test_every_page_links_the_repository_where_it_is_known(tmp_path, monkeypatch):
    """Issue 37: the site never linked its repository. A workflow names it (GITHUB_REPOSITORY), a clone
    its origin remote; a clone without one gets no link rather than a wrong one."""
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nnav: []\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_REPOSITORY", "someone/phpcrypto-bench")
    monkeypatch.delenv("GITHUB_SERVER_URL", raising=False)
    config = site_files.configuration(tmp_path, [])
    assert (config["repo_url"], config["repo_name"]) == (
        "https://github.com/someone/phpcrypto-bench",
        "someone/phpcrypto-bench",
    )
    monkeypatch.delenv("GITHUB_REPOSITORY")
    assert "repo_url" not in site_files.configuration(tmp_path, []), "not a git clone: no remote, no link"
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "remote", "add", "origin", "git@github.com:owner/name.git"], check=True)
    assert site_files.configuration(tmp_path, [])["repo_url"] == "https://github.com/owner/name"
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nrepo_url: https://example.org/r\nnav: []\n", encoding="utf-8")
    assert site_files.configuration(tmp_path, [])["repo_url"] == "https://example.org/r", "the frame's own wins"

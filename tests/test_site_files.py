"""The build directory (`python -m phpcb pages`): pages generated once, written as files any generator
reads, and the checks that Zensical does not make (links to generated files, absolute links, pages
left out of the nav)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from phpcb.experiments import registry
from phpcb.pages import site_files
from phpcb.pages.site_files import SiteFilesError

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

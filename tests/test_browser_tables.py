"""Tables that carry an answer keep it on the screen at 1280 px and on a phone, and the build error page
wraps its message, in headless Chromium."""

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from phpcb.data.selection import COMPARE_VARIABLE, SHOW_RUN_VARIABLE
from phpcb.pages import site_files

from .browser_support import DESKTOP, MODES, assert_answers_shown, serving
from .conftest import ENV, FIXTURE_RUN, ROOT, build_html, built_once, project_with
from .test_baselines import NEW_ID, slower_copy

pytestmark = pytest.mark.browser


def test_the_build_error_page_wraps_a_long_message_instead_of_cutting_it(contexts, tmp_path):
    """`make serve`'s error page (site_files.generate_error) at 1280 px: every character of the message
    is on the screen, a long path and a long line wrapped, none behind a scroll bar."""
    path = "data/runs/20261125T1525Z-amd-epyc-fb7fc6-php8.2/" + "a-very-long-directory-name/" * 8 + "jwt.csv"
    message = f"{path}, row 3, column 'verified': expected true or false, got 'maybe' " + "and more words " * 20
    build = tmp_path / "build"
    site_files.generate_error(ROOT, build, message.strip())
    result = build_html(build, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    with serving(tmp_path / "site") as url:
        page = contexts["light"].new_page()  # 1280 × 900 (DESKTOP)
        page.goto(url, wait_until="load")
        block = page.locator("pre", has_text="expected true or false")
        assert block.count() == 1
        clipped = block.evaluate(
            "(pre) => [pre, ...pre.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1).length"
        )
        assert clipped == 0, "nothing of the message is behind a horizontal scroll bar"
        right = block.evaluate("(pre) => pre.getBoundingClientRect().right")
        assert right <= DESKTOP["width"]
        assert "got 'maybe'" in block.inner_text()
        contexts["light"].release(page)


def build_report_site(parent: Path) -> None:
    """The site `make report` builds into `parent`/site: the fixture run and a slower copy of it, the copy
    shown on every page and set beside its baseline on the Comparison page."""
    root = project_with(parent, FIXTURE_RUN)
    slower_copy(root)
    build, out = parent / "build", parent / "site"
    pages = [sys.executable, "-m", "phpcb", "--root", str(root), "pages", "--out", str(build)]
    env = {**ENV, SHOW_RUN_VARIABLE: NEW_ID, COMPARE_VARIABLE: NEW_ID}
    generated = subprocess.run(pages, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert generated.returncode == 0, generated.stderr
    built = build_html(build, out)
    assert built.returncode == 0, built.stderr


@pytest.fixture(scope="session")
def report_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The `make report` site (build_report_site), built once per session whichever worker asks first."""
    with serving(built_once(tmp_path_factory, "report-site", build_report_site) / "site") as url:
        yield url


# The repository's pages: test_browser.py's check at 1280 × 900, test_browser_reader.py's on a phone, where the
# pages are open for their other checks.
@pytest.mark.parametrize(("path", "mode"), [("compare/", mode) for mode in MODES])
def test_a_table_that_carries_an_answer_keeps_it_on_the_screen(contexts, report_url, path, mode):
    with contexts[mode].opened(report_url + path) as opened:
        assert_answers_shown(opened, path, mode)

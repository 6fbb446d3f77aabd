"""Each experiment page's answer fits the first screen at 1280 × 900 and 390 × 844 in Zensical's build, in
headless Chromium. (MkDocs': test_browser.py at 1280 × 900, test_browser_reader.py on a phone.)"""

import pytest

from .browser_support import (
    ANSWER_BOX,
    ANSWERED_PAGES,
    DESKTOP,
    PHONE,
    Reading,
    assert_answer_fits,
)

pytestmark = pytest.mark.browser


# MkDocs' experiment pages are measured where test_browser.py and test_browser_reader.py open them (at
# 1280 × 900 and, in the dark, at 390 × 844); Zensical's here, each page opened once and read at each size
# in turn (a resize lays the answer out again as a load at that size would: its layout is CSS media queries).
ANSWERED = ANSWERED_PAGES
FIRST_SCREENS = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def plain_context(contexts: dict[str, Reading]) -> Reading:
    """Pages in the light at 1280 × 900 (MODES' "light"; each test sets the sizes it reads at)."""
    return contexts["light"]


@pytest.mark.parametrize("path", ANSWERED)
def test_the_answer_fits_the_first_screen_below_the_header_and_nothing_of_it_is_cut_in_zensicals_build(
    plain_context, served, path
):
    page = plain_context.new_page()
    page.goto(served["zensical"] + path, wait_until="load")
    for mode, viewport in FIRST_SCREENS.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        assert_answer_fits(page.evaluate(ANSWER_BOX), viewport, mode)
    plain_context.release(page)

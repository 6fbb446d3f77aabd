"""Each experiment page's answer fits the first screen at 1280 × 900 and 390 × 844, and a chart in a
collapsed section is drawn to its width when the section opens, in headless Chromium."""

import pytest

from .browser_support import (
    ANSWER_BOX,
    ANSWERED_PAGES,
    DESKTOP,
    PHONE,
    SETTLES_WITHIN_MS,
    Reading,
    assert_answer_fits,
    assert_reads_well,
)

pytestmark = pytest.mark.browser


# MkDocs' experiment pages are measured where test_browser.py opens them (at 1280 × 900 and, in the
# dark, at 390 × 844); Zensical's here, each page opened once and read at each size in turn (a resize
# lays the answer out again as a load at that size would: its layout is CSS media queries).
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
    page.close()


def test_a_chart_in_a_collapsed_section_is_drawn_to_its_width_when_the_section_opens(plain_context, base_url):
    page = plain_context.new_page()
    page.set_viewport_size(PHONE)
    page.goto(base_url + "experiments/aead/", wait_until="load")
    chart = page.locator(".pcb-chart").first
    section = page.locator(f"details:has(#{chart.get_attribute('id')})")
    assert section.evaluate("(details) => details.open") is False, "the charts start collapsed"
    page.wait_for_function("typeof window.Plotly === 'object'", timeout=SETTLES_WITHIN_MS)
    assert chart.get_attribute("data-rendered") is None, "not drawn while hidden"
    section.locator("summary").click()
    page.wait_for_function(
        "document.querySelector('.pcb-chart').dataset.rendered === 'true'", timeout=SETTLES_WITHIN_MS
    )
    sizes = chart.evaluate(
        "(el) => [el.querySelector('.main-svg').getBoundingClientRect().width, el.getBoundingClientRect().width]"
    )
    assert sizes[0] == pytest.approx(sizes[1], abs=1), "drawn to its container's width, not Plotly's default"
    assert sizes[1] <= PHONE["width"]
    assert_reads_well(page, PHONE)
    page.close()

"""Every page in headless Chromium (Debian's, never a downloaded one): charts render, no console
errors, no request leaves the site, and the charts follow the light/dark palette toggle.

One Chromium profile per test process, each page emulating its way of reading (light at 1280 × 900; dark
on a phone, 390 × 844), so Plotly.js is compiled once; each page is opened once per reading and every test
that only reads it checks it there (browser_support.Profile), with the other browser test files."""

import pytest

from .browser_support import (
    ANSWER_TABLES,
    ANSWERED_PAGES,
    CHART_PAGES,
    DESKTOP,
    LOADED,
    PHONE,
    SETTLES_WITHIN_MS,
    assert_answer_fits,
    assert_answers_shown,
    assert_reads_well,
    open_sections,
)
from .conftest import GENERATORS

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("generator", "path"), LOADED)
def test_page_loads_and_draws_its_charts_without_console_errors_or_outside_requests(contexts, served, generator, path):
    opened = contexts["light"].opened(served[generator] + path)
    page = opened.page
    assert page.locator("h1").count() == 1
    if path in ANSWERED_PAGES:
        assert_answer_fits(opened.first_screen, DESKTOP, "desktop")
    assert_reads_well(page, DESKTOP)
    charts = page.locator(".pcb-chart").count()
    assert page.evaluate("typeof window.Plotly") == ("object" if charts else "undefined"), (
        "Plotly.js is loaded by the pages that draw a chart, and only by them"
    )
    assert opened.problems == []


# test_browser_tables.py's check of the repository's answer tables at 1280 × 900, here: the pages are still
# open from the check above (REREAD), and the Argon2 check below changes its page.
@pytest.mark.parametrize("path", [path for path in ANSWER_TABLES if path != "compare/"])
def test_a_table_that_carries_an_answer_keeps_it_on_the_screen_at_1280_px(contexts, base_url, path):
    assert_answers_shown(contexts["light"].opened(base_url + path), path, "light")


@pytest.mark.parametrize("generator", GENERATORS)
def test_aead_charts_render_and_follow_the_palette(contexts, served, generator):
    opened = contexts["light"].taken(served[generator] + "experiments/aead/")  # its palette is toggled
    page = opened.page
    open_sections(page)
    page.wait_for_selector('.pcb-chart[data-rendered="true"] >> nth=2', timeout=SETTLES_WITHIN_MS)
    assert page.locator(".pcb-chart .main-svg").count() >= 3
    assert page.locator(".pcb-chart").first.locator(".scatterlayer .trace").count() >= 5

    font_color = "() => document.querySelector('.pcb-chart')._fullLayout.font.color"
    light = page.evaluate(font_color)
    page.locator("label.md-header__button[for='__palette_1']").click()
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    page.wait_for_function(f"({font_color})() !== {light!r}")
    dark = page.evaluate(font_color)
    assert light != dark
    error_bars = "() => document.querySelector('.pcb-chart').data[0].error_y.color"
    page.wait_for_function(f"({error_bars})() === {dark!r}")
    assert [problem for problem in opened.problems if problem.startswith("page error")] == []
    page.close()


def test_symmetric_charts_render_and_rank_no_cipher_the_page_says_not_to_use(contexts, base_url):
    """Issue 37: the race's 116 ciphers, none recommended, were a 2,056 px ranking topped by aes-128-ecb;
    only recommended ciphers are charted, the rest are in the inventory table."""
    page = contexts["light"].opened(base_url + "experiments/symmetric/").page
    open_sections(page)
    page.wait_for_selector('.pcb-chart[data-rendered="true"] >> nth=1', timeout=SETTLES_WITHIN_MS)
    assert page.locator(".pcb-chart").count() == 2
    assert page.locator("#chart-symmetric-ranking").count() == 0
    assert "none of its 116 ciphers is recommended" in page.locator("article").inner_text()
    rows = page.locator("#every-cipher-openssl-offers ~ details table tbody tr")
    assert rows.count() >= 116, "every cipher raced stays in the inventory, with its verdict"


def test_ec_keygen_charts_render_and_hover_names_the_curve(contexts, base_url):
    page = contexts["light"].taken(base_url + "experiments/ec_keygen/").page  # its legend is clicked
    open_sections(page)
    page.wait_for_selector('.pcb-chart[data-rendered="true"] >> nth=3', timeout=SETTLES_WITHIN_MS)
    scatter = page.locator(".pcb-chart").first
    points = "(el) => el.querySelectorAll('.scatterlayer .point').length"
    before = scatter.evaluate(points)
    assert before >= 79, "one point per timed curve"
    names = scatter.evaluate("(el) => el.data.flatMap((trace) => trace.hovertext)")
    assert "prime256v1" in names
    labels = scatter.evaluate("(el) => [...el.querySelectorAll('.annotation-text')].map((t) => t.textContent)")
    assert "prime256v1" in labels, "the recommended curves are named on the chart, by an arrow"
    assert "secp112r1" not in labels, "the others only on hover"
    scatter.locator(".legendtoggle").first.click()
    page.wait_for_function(
        f"document.querySelector('.pcb-chart').querySelectorAll('.scatterlayer .point').length < {before}"
    )
    page.close()


def test_the_argon2_heatmap_opens_on_the_answer_with_its_values_and_budget_line(contexts, base_url):
    """Issue 37: the heatmap showed no values, no budget line, and opened on a view the answer does not use."""
    page = contexts["light"].taken(base_url + "experiments/argon2/").page  # its menu is used
    open_sections(page)
    page.wait_for_selector('#chart-argon2-heatmap[data-rendered="true"]', timeout=SETTLES_WITHIN_MS)
    chart = page.locator("#chart-argon2-heatmap")
    shown = chart.evaluate("(el) => el.data.findIndex((t) => t.visible === true)")
    menu = chart.evaluate("(el) => el.layout.updatemenus[0]")
    assert menu["active"] == shown
    label = menu["buttons"][shown]["label"]
    assert label.startswith("password_hash argon2id, t=")
    answer = page.locator(".pcb-answer").first.inner_text()
    assert f", t={label.split('t=')[1]}, " in answer, "the view of the answer's time cost"
    values = chart.evaluate(f"(el) => el.data[{shown}].text.flat().filter(Boolean).length")
    assert values > 0
    visible = "(el) => el.layout.shapes.flatMap((s, i) => s.visible === false ? [] : [i])"
    before = chart.evaluate(visible)
    assert before, "the budget line and the pick's box"
    other = 0 if shown else 1
    # The menu's button for another view, as Plotly applies it (its restyle and relayout arguments).
    pick = f"const b = el.layout.updatemenus[0].buttons[{other}]; return Plotly.update(el, b.args[0], b.args[1]);"
    chart.evaluate(f"(el) => {{ {pick} }}")
    assert chart.evaluate(f"(el) => el.data[{other}].visible") is True
    assert chart.evaluate(visible) != before, "each view shows its own marks"
    page.close()


# Last: test_browser_reader.py reads these pages again, at the same reading, while they are still open.
@pytest.mark.parametrize("path", CHART_PAGES)
def test_every_chart_reads_in_the_dark_on_a_phone(contexts, base_url, path):
    opened = contexts["phone-dark"].opened(base_url + path)
    page = opened.page
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    if path in ANSWERED_PAGES:
        assert_answer_fits(opened.first_screen, PHONE, "phone")
    assert_reads_well(page, PHONE)
    assert opened.problems == []

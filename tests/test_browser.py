"""Every page of both builds in headless Chromium (Debian's, never a downloaded one), light at 1280 × 900:
charts render, no console errors, no request leaves the site, the charts follow the light/dark palette toggle,
and search finds "P-384" as one word. (The phone, dark, is test_browser_reader.py's.)

One Chromium profile per test process, each page emulating its way of reading, so Plotly.js is compiled
once (browser_support.Profile). Each page is opened once (at_1280) and every test of this module that reads
it checks it there: pytest runs them one after the other, those that change the page (the palette, a
legend, a menu, the search box) last, and then the page's tab opens the next page."""

import contextlib
from collections.abc import Iterator

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .browser_support import (
    ANSWER_TABLES,
    ANSWERED_PAGES,
    DESKTOP,
    LOADED,
    SETTLES_WITHIN_MS,
    Opened,
    Reading,
    assert_answer_fits,
    assert_answers_shown,
    assert_reads_well,
    open_sections,
    wait_until,
)
from .conftest import GENERATORS

pytestmark = pytest.mark.browser

# A page of a build: (generator, path).
BuildPage = tuple[str, str]


def reading(*build_pages: BuildPage) -> pytest.MarkDecorator:
    """The test reads each of `build_pages` at 1280 × 900 (at_1280), with the other tests that read it."""
    return pytest.mark.parametrize("build_page", build_pages, ids="-".join, scope="module")


@pytest.fixture(scope="module")
def at_1280(contexts: dict[str, Reading], served: dict[str, str], build_page: BuildPage) -> Iterator[Opened]:
    """`build_page` in the light at 1280 × 900 (Reading.opened), for the tests of this module that read it."""
    generator, path = build_page
    with contexts["light"].opened(served[generator] + path) as opened:
        yield opened


@reading(*LOADED)
def test_page_loads_and_draws_its_charts_without_console_errors_or_outside_requests(at_1280, build_page):
    path = build_page[1]
    opened = at_1280
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


# test_browser_tables.py's check of the repository's answer tables, at 1280 × 900 here, where at_1280 has the
# pages (on a phone, test_browser_reader.py's).
@reading(*[("mkdocs", path) for path in ANSWER_TABLES if path != "compare/"])
def test_a_table_that_carries_an_answer_keeps_it_on_the_screen_at_1280_px(at_1280, build_page):
    assert_answers_shown(at_1280, build_page[1], "light")


@reading(*[(generator, "experiments/aead/") for generator in GENERATORS])
def test_aead_charts_render_and_follow_the_palette(at_1280):
    opened = at_1280  # its palette is toggled
    page = opened.page
    open_sections(page)
    page.wait_for_selector('.pcb-chart[data-rendered="true"] >> nth=2', timeout=SETTLES_WITHIN_MS)
    assert page.locator(".pcb-chart .main-svg").count() >= 3
    assert page.locator(".pcb-chart").first.locator(".scatterlayer .trace").count() >= 5

    font_color = "() => document.querySelector('.pcb-chart')._fullLayout.font.color"
    light = page.evaluate(font_color)
    page.locator("label.md-header__button[for='__palette_1']").click()
    wait_until(page, "document.body.getAttribute('data-md-color-scheme') === 'slate'")
    wait_until(page, f"({font_color})() !== {light!r}")
    dark = page.evaluate(font_color)
    assert light != dark
    error_bars = "() => document.querySelector('.pcb-chart').data[0].error_y.color"
    wait_until(page, f"({error_bars})() === {dark!r}")
    assert [problem for problem in opened.problems if problem.startswith("page error")] == []


@reading(("mkdocs", "experiments/symmetric/"))
def test_symmetric_charts_render_and_rank_no_cipher_the_page_says_not_to_use(at_1280):
    """Issue 37: the race's 116 ciphers, none recommended, were a 2,056 px ranking topped by aes-128-ecb;
    only recommended ciphers are charted, the rest are in the inventory table."""
    page = at_1280.page
    open_sections(page)
    page.wait_for_selector('.pcb-chart[data-rendered="true"] >> nth=1', timeout=SETTLES_WITHIN_MS)
    assert page.locator(".pcb-chart").count() == 2
    assert page.locator("#chart-symmetric-ranking").count() == 0
    assert "none of its 116 ciphers is recommended" in page.locator("article").inner_text()
    rows = page.locator("#every-cipher-openssl-offers ~ details table tbody tr")
    assert rows.count() >= 116, "every cipher raced stays in the inventory, with its verdict"


@reading(("mkdocs", "experiments/ec_keygen/"))
def test_ec_keygen_charts_render_and_hover_names_the_curve(at_1280):
    page = at_1280.page  # its legend is clicked
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
    wait_until(page, f"document.querySelector('.pcb-chart').querySelectorAll('.scatterlayer .point').length < {before}")


@reading(("mkdocs", "experiments/argon2/"))
def test_the_argon2_heatmap_opens_on_the_answer_with_its_values_and_budget_line(at_1280):
    """Issue 37: the heatmap showed no values, no budget line, and opened on a view the answer does not use."""
    page = at_1280.page  # its menu is used
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


@reading(("mkdocs", ""))
def test_search_finds_p384_as_one_word_on_the_curves_page(at_1280):
    """Material's search split "P-384" into "p" and "384", and found every page with a "p" on it."""
    page = at_1280.page  # its search box is typed in
    page.locator(".md-search__input").click()
    ready = "!document.querySelector('.md-search-result__meta').textContent.includes('Initializing')"
    wait_until(page, ready)  # the index is built in a worker
    page.locator(".md-search__input").press_sequentially("P-384", delay=30)  # as typed: the theme reads keys
    page.locator(".md-search-result__item").first.wait_for(timeout=SETTLES_WITHIN_MS)
    whole = page.locator(".md-search-result mark", has_text="P-384")
    # Each key searches: the results of "P-38" may be listed before those of "P-384", with the word whole.
    with contextlib.suppress(PlaywrightTimeoutError):
        whole.first.wait_for(timeout=SETTLES_WITHIN_MS)
    titles = [title.strip() for title in page.locator(".md-search-result__item > a h1").all_inner_texts()]
    assert titles[:1] == ["Elliptic-curve key generation, per curve"], titles
    assert page.locator(".md-search-result__item", has_text="Missing").count() == 0, "no half of it left over"
    assert whole.count() > 0, "the word found whole"
    assert len(titles) < 10, "not every page with a 'p' on it"

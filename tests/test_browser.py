"""Every page in headless Chromium (Debian's, never a downloaded one): charts render, no console
errors, no request leaves the site, and the charts follow the light/dark palette toggle.

One browser for the file and one context per way of reading (light at 1280 × 900; dark on a phone,
390 × 844), so Plotly.js is fetched once per context; each page is opened once per context and every
check of that reading runs on it."""

import contextlib
import functools
import http.server
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from phpcb.data.selection import COMPARE_VARIABLE, SHOW_RUN_VARIABLE
from phpcb.experiments import registry
from phpcb.pages import site_files

from .conftest import ENV, FIXTURE_RUN, GENERATORS, ROOT, build_html, project_with, shared_site
from .test_baselines import NEW_ID, slower_copy

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CHART_PAGES = [f"experiments/{e.name}/" for e in registry.discover()] + ["machines/"]
PAGES = ["", *CHART_PAGES, "runs/", "claims/", "methodology/", "contributing/", "architecture/"]
# The Zensical build is loaded page by page too, where its frame differs from MkDocs' (home, nav, a
# chart page, tables, admonitions); the charts' own checks run on the MkDocs build only.
ZENSICAL_PAGES = ["", "experiments/aead/", "experiments/symmetric/", "runs/", "claims/"]
LOADED = [("mkdocs", path) for path in PAGES] + [("zensical", path) for path in ZENSICAL_PAGES]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Dark is the reader's system setting (mkdocs.yml's palette follows prefers-color-scheme); the toggle
# itself is test_aead_charts_render_and_follow_the_palette's. Colours do not depend on the width, nor
# layout on the colours: the phone is read in the dark.
MODES = {
    "light": {"color_scheme": "light", "viewport": DESKTOP},
    "phone-dark": {"color_scheme": "dark", "viewport": PHONE},
}
# A chart in a collapsed section (a closed <details>) is drawn when the section opens (charts.js).
SHOWN_RENDERED = (
    "[...document.querySelectorAll('.pcb-chart')]"
    ".every((chart) => chart.dataset.rendered === 'true' || chart.closest('details:not([open])'))"
)
RENDERED = "[...document.querySelectorAll('.pcb-chart')].every((chart) => chart.dataset.rendered === 'true')"

pytestmark = pytest.mark.browser


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serving(directory: Path) -> Iterator[str]:
    """`directory` over HTTP, for the test that built it."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(directory))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The repository's site as each generator builds it from the same build directory, served over HTTP."""
    servers = {
        generator: http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0),
            functools.partial(QuietHandler, directory=str(shared_site(tmp_path_factory, generator))),
        )
        for generator in GENERATORS
    }
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield {generator: f"http://127.0.0.1:{server.server_port}/" for generator, server in servers.items()}
    for server in servers.values():
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def base_url(served: dict[str, str]) -> str:
    """The MkDocs build: the checks of how charts read run on it; both builds load every page."""
    return served["mkdocs"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "Debian's chromium is missing: run `make setup`"
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def contexts(browser: Browser) -> Iterator[dict[str, BrowserContext]]:
    made = {mode: browser.new_context(**options) for mode, options in MODES.items()}
    yield made
    for context in made.values():
        context.close()


def open_page(context: BrowserContext, url: str, problems: list[str] | None = None) -> Page:
    """The page at `url` with every chart outside a collapsed section drawn; console errors, page errors
    and requests that leave the site are appended to `problems`."""
    page = context.new_page()
    if problems is not None:
        site = url.split("/", 3)[:3]
        origin = "/".join(site) + "/"
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on("request", lambda r: None if r.url.startswith(origin) else problems.append(f"outside request: {r.url}"))
    response = page.goto(url, wait_until="load")
    assert response is not None
    assert response.status == 200
    page.wait_for_function(SHOWN_RENDERED, timeout=20_000)
    return page


def open_sections(page: Page) -> None:
    """Every collapsed section opened, as a reader would, and every chart in them drawn."""
    page.evaluate("document.querySelectorAll('details:not([open])').forEach((d) => { d.open = true; })")
    page.wait_for_function(RENDERED, timeout=20_000)


# Per chart, as drawn: its caption (title, permalink, data link) above it and inside the page; tick
# labels inside the chart; the legend clear of the x axis; error bars and reference lines that
# contrast with the page's background (WCAG contrast of the computed colours); grid lines in one colour.
CHART_CHECKS = """() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const luminance = ([r, g, b]) => {
    const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const contrast = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const background = rgb(getComputedStyle(document.body).backgroundColor);
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('.pcb-chart')].map((chart) => {
    const problems = [];
    const svg = chart.querySelector('.main-svg').getBoundingClientRect();
    const caption = chart.previousElementSibling;
    if (!caption || !caption.classList.contains('pcb-chart-title')) { problems.push('no caption'); }
    else {
      const box = caption.getBoundingClientRect();
      if (box.left < 0 || box.right > width + 1) { problems.push('caption wider than the page'); }
      if (caption.querySelector('a').getAttribute('href') !== '#' + chart.id) { problems.push('no permalink'); }
      if (!caption.querySelector('.pcb-chart-data')) { problems.push('no data link'); }
    }
    for (const label of chart.querySelectorAll('.xtick text, .ytick text, .g-xtitle, .g-ytitle')) {
      const r = label.getBoundingClientRect();
      const outside = r.left < svg.left - 1 || r.right > svg.right + 1
        || r.top < svg.top - 1 || r.bottom > svg.bottom + 1;
      if (r.width && outside) {
        problems.push('label clipped: ' + label.textContent);
      }
    }
    const legend = chart.querySelector('.legend');
    const axis = [...chart.querySelectorAll('.xtick text, .g-xtitle')].map((e) => e.getBoundingClientRect());
    if (legend && axis.length && chart.layout.legend && chart.layout.legend.y < 0) {
      const top = legend.getBoundingClientRect().top;
      if (top < Math.max(...axis.map((r) => r.bottom))) { problems.push('legend over the x axis'); }
    }
    const lines = [...chart.querySelectorAll('.errorbar path, .shapelayer path')];
    for (const line of lines) {
      const stroke = getComputedStyle(line).stroke;
      if (stroke && stroke !== 'none' && contrast(rgb(stroke), background) < 3) {
        problems.push('line ' + stroke + ' on ' + background); break;
      }
    }
    // Every axis's grid follows the palette: one that kept Plotly's default (white) glares in dark mode.
    const grids = new Set([...chart.querySelectorAll('.gridlayer path')].map((p) => getComputedStyle(p).stroke));
    if (grids.size > 1) { problems.push('grid lines in ' + [...grids].join(' and ')); }
    return [chart.id, problems];
  }).filter(([, problems]) => problems.length);
}"""

# Series shown at once: a chart's menu (Argon2's picks) hides the others' traces.
CROWDED = (
    "[...document.querySelectorAll('.pcb-chart')].filter((c) => c.data[0].type !== 'heatmap'"
    " && c.data.filter((t) => t.visible !== false).length > 8)"
)


def assert_reads_well(page: Page, viewport: dict[str, int]) -> None:
    open_sections(page)
    assert page.evaluate(CHART_CHECKS) == []
    assert page.evaluate(f"{CROWDED}.map((c) => c.id)") == [], "at most 8 series on one axis"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], "no sideways scrolling"


@pytest.mark.parametrize(("generator", "path"), LOADED)
def test_page_loads_and_draws_its_charts_without_console_errors_or_outside_requests(contexts, served, generator, path):
    problems: list[str] = []
    page = open_page(contexts["light"], served[generator] + path, problems)
    assert page.locator("h1").count() == 1
    assert_reads_well(page, DESKTOP)
    charts = page.locator(".pcb-chart").count()
    assert page.evaluate("typeof window.Plotly") == ("object" if charts else "undefined"), (
        "Plotly.js is loaded by the pages that draw a chart, and only by them"
    )
    assert problems == []
    page.close()


@pytest.mark.parametrize("path", CHART_PAGES)
def test_every_chart_reads_in_the_dark_on_a_phone(contexts, base_url, path):
    problems: list[str] = []
    page = open_page(contexts["phone-dark"], base_url + path, problems)
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    assert_reads_well(page, PHONE)
    assert problems == []
    page.close()


@pytest.mark.parametrize("generator", GENERATORS)
def test_aead_charts_render_and_follow_the_palette(browser, served, generator):
    page = browser.new_page(color_scheme="light")  # its own context: the toggle is remembered in it
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served[generator] + "experiments/aead/", wait_until="load")
    open_sections(page)
    page.wait_for_selector('.pcb-chart[data-rendered="true"] >> nth=2', timeout=15_000)
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
    assert errors == []
    page.close()


def test_symmetric_charts_render_and_the_ranking_legend_filters(contexts, base_url):
    page = open_page(contexts["light"], base_url + "experiments/symmetric/")
    open_sections(page)
    page.wait_for_selector('.pcb-chart[data-rendered="true"] >> nth=2', timeout=15_000)
    ranking = page.locator(".pcb-chart").nth(2)
    bars = "(el) => el.querySelectorAll('.scatterlayer .point').length"
    before = ranking.evaluate(bars)
    ranking.locator(".legendtoggle").last.click()
    page.wait_for_function(
        f"(document.querySelectorAll('.pcb-chart')[2].querySelectorAll('.scatterlayer .point').length) < {before}"
    )
    assert ranking.evaluate(bars) < before
    page.close()


def test_ec_keygen_charts_render_and_hover_names_the_curve(contexts, base_url):
    page = open_page(contexts["light"], base_url + "experiments/ec_keygen/")
    open_sections(page)
    page.wait_for_selector('.pcb-chart[data-rendered="true"] >> nth=3', timeout=15_000)
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


def test_the_build_error_page_wraps_a_long_message_instead_of_cutting_it(browser, tmp_path):
    """`make serve`'s error page (site_files.generate_error) at 1280 px: every character of the message
    is on the screen, a long path and a long line wrapped, none behind a scroll bar."""
    path = "data/runs/20261125T1525Z-amd-epyc-fb7fc6-php8.2/" + "a-very-long-directory-name/" * 8 + "jwt.csv"
    message = f"{path}, row 3, column 'verified': expected true or false, got 'maybe' " + "and more words " * 20
    build = tmp_path / "build"
    site_files.generate_error(ROOT, build, message.strip())
    result = build_html(build, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    with serving(tmp_path / "site") as url:
        page = browser.new_page(viewport=DESKTOP)
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
        page.close()


@pytest.fixture(scope="module")
def report_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site `make report` builds: the fixture run and a slower copy of it, the copy shown on every
    page and set beside its baseline on the Comparison page."""
    parent = tmp_path_factory.mktemp("report")
    root = project_with(parent, FIXTURE_RUN)
    slower_copy(root)
    build, out = parent / "build", parent / "site"
    pages = [sys.executable, "-m", "phpcb", "--root", str(root), "pages", "--out", str(build)]
    env = {**ENV, SHOW_RUN_VARIABLE: NEW_ID, COMPARE_VARIABLE: NEW_ID}
    generated = subprocess.run(pages, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert generated.returncode == 0, generated.stderr
    built = build_html(build, out)
    assert built.returncode == 0, built.stderr
    with serving(out) as url:
        yield url


# Tables that carry an answer, by a header only they have, and the columns that hold the answer: each
# cell of those columns is drawn, and inside the viewport and every box that would clip it, at 1280 px
# and on a phone. Collapsed sections are opened first.
ANSWER_TABLES = {
    "claims/": {"what we measured": ["claim", "verdict"]},
    "experiments/argon2/": {
        "budget": ["budget", "memory", "time cost", "threads", "verdict"],
        "parameter set": ["verdict", "password_hash (Argon2id)", "sodium_crypto_pwhash (Argon2id)"],
    },
    "compare/": {"beyond shift": ["new", "delta", "verdict"]},
}
ANSWERS_SHOWN = """([marker, columns]) => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  let tables = 0;
  for (const table of document.querySelectorAll('article table')) {
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim());
    if (!heads.includes(marker)) { continue; }
    tables += 1;
    const missing = columns.filter((c) => !heads.includes(c));
    if (missing.length) { problems.push(`${marker}: no column ${missing}`); continue; }
    let right = width;
    for (let box = table; box; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== 'visible') { right = Math.min(right, box.getBoundingClientRect().right); }
    }
    for (const row of table.querySelectorAll('tbody tr')) {
      for (const column of columns) {
        const cell = row.children[heads.indexOf(column)];
        const box = cell.getBoundingClientRect();
        if (!cell.checkVisibility() || box.width === 0) { problems.push(`${marker}/${column}: hidden`); }
        else if (box.left < -1 || box.right > right + 1) {
          const where = `${Math.round(box.left)}–${Math.round(box.right)} px, room to ${Math.round(right)}`;
          problems.push(`${marker}/${column}: ${where}`);
        }
      }
    }
  }
  return [tables, [...new Set(problems)]];
}"""


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("path", list(ANSWER_TABLES))
def test_a_table_that_carries_an_answer_keeps_it_on_the_screen(contexts, base_url, report_url, mode, path):
    url = (report_url if path == "compare/" else base_url) + path
    page = contexts[mode].new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    laid_out = "[...document.querySelectorAll('.pcb-key-table')].every((a) => a.dataset.layout)"
    page.wait_for_function(laid_out, timeout=10_000)  # tables.js measures a table when its section opens
    for marker, columns in ANSWER_TABLES[path].items():
        tables, problems = page.evaluate(ANSWERS_SHOWN, [marker, columns])
        assert tables >= 1, f"{path} has a table with a {marker!r} column"
        assert problems == [], f"{path} at {MODES[mode]['viewport']['width']} px"
    assert errors == []
    page.close()


# The answer block (templates/_answer.md.j2) as drawn: where it starts and ends against the header and the
# first screen, and each of its elements that reaches past the viewport's sides or scrolls inside itself.
ANSWER_BOX = """() => {
  const answer = document.querySelector('.pcb-answer');
  if (!answer) { return null; }
  const width = document.documentElement.clientWidth;
  const box = answer.getBoundingClientRect();
  const clipped = [answer, ...answer.querySelectorAll('*')].filter((element) => {
    const r = element.getBoundingClientRect();
    const sideways = r.width > 0 && (r.left < -0.5 || r.right > width + 0.5);
    const scrolls = element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1;
    return sideways || scrolls;
  }).map((element) => element.tagName + ': ' + element.textContent.trim().slice(0, 60));
  return {
    top: box.top,
    bottom: box.bottom,
    header: document.querySelector('header').getBoundingClientRect().bottom,
    height: window.innerHeight,
    clipped: clipped,
  };
}"""
ANSWERED = [
    (generator, mode, f"experiments/{e.name}/")
    for generator in GENERATORS
    for mode in ("desktop", "phone")
    for e in registry.discover()
]


@pytest.fixture(scope="module")
def plain_contexts(browser: Browser) -> Iterator[dict[str, BrowserContext]]:
    """Light, at 1280 × 900 and at 390 × 844: where a reader's first screen ends."""
    made = {
        "desktop": browser.new_context(color_scheme="light", viewport=DESKTOP),
        "phone": browser.new_context(color_scheme="light", viewport=PHONE),
    }
    yield made
    for context in made.values():
        context.close()


@pytest.mark.parametrize(("generator", "mode", "path"), ANSWERED)
def test_the_answer_fits_the_first_screen_below_the_header_and_nothing_of_it_is_cut(
    plain_contexts, served, generator, mode, path
):
    page = plain_contexts[mode].new_page()
    page.goto(served[generator] + path, wait_until="load")
    found = page.evaluate(ANSWER_BOX)
    page.close()
    assert found is not None, "the page opens with its answer"
    assert found["top"] >= found["header"] - 0.5, "the answer starts below the header"
    assert found["bottom"] <= found["height"], (
        f"the answer ends {found['bottom'] - found['height']:.0f} px below the screen"
    )
    assert found["clipped"] == []


def test_a_chart_in_a_collapsed_section_is_drawn_to_its_width_when_the_section_opens(plain_contexts, base_url):
    page = plain_contexts["phone"].new_page()
    page.goto(base_url + "experiments/aead/", wait_until="load")
    chart = page.locator(".pcb-chart").first
    section = page.locator(f"details:has(#{chart.get_attribute('id')})")
    assert section.evaluate("(details) => details.open") is False, "the charts start collapsed"
    page.wait_for_function("typeof window.Plotly === 'object'", timeout=20_000)
    assert chart.get_attribute("data-rendered") is None, "not drawn while hidden"
    section.locator("summary").click()
    page.wait_for_function("document.querySelector('.pcb-chart').dataset.rendered === 'true'", timeout=20_000)
    sizes = chart.evaluate(
        "(el) => [el.querySelector('.main-svg').getBoundingClientRect().width, el.getBoundingClientRect().width]"
    )
    assert sizes[0] == pytest.approx(sizes[1], abs=1), "drawn to its container's width, not Plotly's default"
    assert sizes[1] <= PHONE["width"]
    assert_reads_well(page, PHONE)
    page.close()

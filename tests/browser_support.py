"""Headless Chromium for the browser tests (Debian's, never a downloaded one): the pages a test opens,
how it waits for their charts, and the checks of how a chart reads. The fixtures live in conftest.py."""

import contextlib
import functools
import http.server
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from playwright.sync_api import BrowserContext, ConsoleMessage, Error, Page, Request

from phpcb.experiments import registry

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
REPOSITORY_RUNS = Path(__file__).resolve().parent.parent / "data" / "runs"


def measured_experiments(runs: Path = REPOSITORY_RUNS) -> frozenset[str]:
    """The experiments some run under `runs` has results for (ok or partial), from the manifests alone. An
    experiment of the registry that none has yet (pq, until a run on a stack with OpenSSL 3.5 is committed)
    has a page that says so, without an answer."""
    found = set()
    for manifest in runs.glob("*/manifest.json"):
        entries = json.loads(manifest.read_text(encoding="utf-8")).get("experiments", {})
        found |= {name for name, entry in entries.items() if entry.get("status") in ("ok", "partial")}
    return frozenset(found)


CHART_PAGES = [f"experiments/{e.name}/" for e in registry.discover()] + ["machines/"]
# The experiment pages that open with an answer: those of the experiments the repository's runs have.
ANSWERED_PAGES = [f"experiments/{e.name}/" for e in registry.discover() if e.name in measured_experiments()]
PAGES = ["", *CHART_PAGES, "runs/", "claims/", "methodology/", "contributing/", "architecture/"]
# The Zensical build is loaded page by page too, where its frame differs from MkDocs' (home, nav, a
# chart page, tables, admonitions); the charts' own checks run on the MkDocs build only.
ZENSICAL_PAGES = ["", "experiments/aead/", "experiments/symmetric/", "runs/", "claims/"]
LOADED = [("mkdocs", path) for path in PAGES] + [("zensical", path) for path in ZENSICAL_PAGES]
# How long a page may take to draw what a test waits for: a bound for what never happens, not a speed check.
# 20 s was too little for the AEAD page's charts at 390 px on a host 2.3 times slower than a family-25
# model-17 one (scripts/slower-host.py) under `make test`'s load, pytest's two workers and PHPUnit beside them.
SETTLES_WITHIN_MS = 60_000
# How often a wait asks whether what it waits for is there: every 100 ms, not every frame (Playwright's
# default), for a frame a wait asks for is one Chromium draws too, charts half drawn (2 % of the checks' CPU).
# Every wait of the browser checks polls so (wait_until).
POLL_MS = 100
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def wait_until(page: Page, expression: str) -> None:
    """Waits until `expression` (JavaScript) is true on `page`, asking every POLL_MS, for SETTLES_WITHIN_MS."""
    page.wait_for_function(expression, timeout=SETTLES_WITHIN_MS, polling=POLL_MS)


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


class Opens(Protocol):
    """What open_page opens a page in: a Playwright context, say."""

    def new_page(self) -> Page: ...


@dataclass
class Opened:
    """A page as Reading.opened left it: read as first drawn (its answer block, its first collapsed chart as
    its section opens), then with every collapsed section open (open_sections); its console errors, page
    errors and requests that leave the site (problems) from its load until it is released. What the tests of
    a page at a reading check on it, each test one part."""

    page: Page
    problems: list[str]
    first_screen: dict[str, Any] | None
    first_chart: dict[str, Any] | None


# Material keeps the palette a page opened with (and a toggled one) in localStorage, and the next page of
# the site opens with it whatever the reader's system setting: each page of the profile forgets it before
# its scripts run, as a separate profile per reading did for the reading's first page. (A document with no
# storage of its own, a new tab's about:blank, has none to forget.)
FORGET_PALETTE = """try {
  Object.keys(localStorage).filter((k) => k.endsWith('__palette')).forEach((k) => localStorage.removeItem(k));
} catch (noStorage) {}"""


# A tab of the profile goes from page to page (Profile.release), where a tab of its own would start without
# session storage: each page forgets the last one's before its scripts run.
FORGET_SESSION = "try { sessionStorage.clear(); } catch (noStorage) {}"


# Material's search (both generators') fetches the whole site's index (800 kB) on every page load and sends it
# to its worker, which builds it: a third of a second of CPU a page, a fifth of the browser checks' CPU. Every
# page here still fetches the index and starts the worker (their requests and console are read), but sets it
# up with the index's first entry; the site's home page, in each build, with the whole index: search itself
# is read there (test_search_finds_p384_as_one_word_on_the_curves_page), and an index the worker cannot build
# shows in its console (test_page_loads_and_draws_its_charts_without_console_errors_or_outside_requests).
ONE_ENTRY_SEARCH_INDEX = """(() => {
  if (location.pathname === '/') { return; }
  const Real = window.Worker;
  window.Worker = class extends Real {
    postMessage(message, ...rest) {
      const index = message && message.data;
      for (const entries of ['docs', 'items']) {  // Material's index, Zensical's
        if (index && Array.isArray(index[entries])) {
          message = { ...message, data: { ...index, [entries]: index[entries].slice(0, 1) } };
        }
      }
      return super.postMessage(message, ...rest);
    }
  };
})();"""


class Profile:
    """The Chromium profile of a test process, launched by the first page it opens and kept: on disk, so
    Chromium keeps the code it compiled for Plotly.js (4.8 MB) from page to page, as a returning reader's
    browser does (an in-memory context compiles it again for every page: most of a chart page's CPU time).
    One profile for every reading, each page emulating its own (a second profile compiled Plotly.js again).

    A page the tests are done with is released: its tab is emptied and opens the next page, as a reader's
    tab goes from page to page. A tab of its own per page cost Chromium a fifth of a second to open and
    close, and a tab that goes on keeps what it compiled in memory: the pages these tests open cost a
    quarter less CPU opened one after the other in one tab than each in a tab of its own."""

    def __init__(self, launch: Callable[[], BrowserContext]) -> None:
        self._launch = launch
        self._context: BrowserContext | None = None
        self._spare: list[Page] = []
        self._unwatch: dict[Page, Callable[[], None]] = {}

    def new_page(self, mode: str) -> Page:
        page = self._spare.pop() if self._spare else self._new_tab()
        page.set_viewport_size(MODES[mode]["viewport"])
        page.emulate_media(color_scheme=MODES[mode]["color_scheme"])
        return page

    def _new_tab(self) -> Page:
        if self._context is None:
            self._context = self._launch()
            # The tab the launch opened is the first page's: opened beside it, it stayed on about:blank.
            page = self._context.pages[0]
        else:
            page = self._context.new_page()
        page.set_default_timeout(SETTLES_WITHIN_MS)
        page.add_init_script(FORGET_PALETTE)
        page.add_init_script(FORGET_SESSION)
        page.add_init_script(ONE_ENTRY_SEARCH_INDEX)
        return page

    def open(self, mode: str, url: str) -> Opened:
        problems: list[str] = []
        page = self.new_page(mode)
        self._unwatch[page] = watch(page, url, problems)
        load(page, url)
        first_screen = page.evaluate(ANSWER_BOX)
        first_chart = open_first_chart(page)
        open_sections(page)
        return Opened(page, problems, first_screen, first_chart)

    def release(self, page: Page) -> None:
        self._unwatch.pop(page, lambda: None)()
        page.goto("about:blank")  # the page's document ends here, as a closed tab's would
        self._spare.append(page)

    def close(self) -> None:
        if self._context is not None:
            self._context.close()


class Reading:
    """One way of reading (MODES) in the test process's Profile."""

    def __init__(self, profile: Profile, mode: str) -> None:
        self._profile = profile
        self.mode = mode

    def new_page(self) -> Page:
        """A page of its own, at this reading, until the test releases it."""
        return self._profile.new_page(self.mode)

    @contextlib.contextmanager
    def opened(self, url: str) -> Iterator[Opened]:
        """The page at `url` at this reading (Opened), released when the test is done with it (a test that
        fails on it leaves its tab where it failed)."""
        opened = self._profile.open(self.mode, url)
        yield opened
        self._profile.release(opened.page)

    def release(self, page: Page) -> None:
        """`page`, which the test that opened it (new_page) is done with: its tab opens a later page."""
        self._profile.release(page)


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


def watch(page: Page, url: str, problems: list[str]) -> Callable[[], None]:
    """Console errors, page errors and requests that leave the site of `url`, from now on appended to
    `problems`; returns what stops it."""
    origin = "/".join(url.split("/", 3)[:3]) + "/"

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console {message.type}: {message.text}")

    def page_error(error: Error) -> None:
        problems.append(f"page error: {error}")

    def request(sent: Request) -> None:
        if not sent.url.startswith(origin):
            problems.append(f"outside request: {sent.url}")

    page.on("console", console)
    page.on("pageerror", page_error)
    page.on("request", request)

    def stop() -> None:
        page.remove_listener("console", console)
        page.remove_listener("pageerror", page_error)
        page.remove_listener("request", request)

    return stop


def load(page: Page, url: str) -> None:
    """`page` at `url`, with every chart outside a collapsed section drawn."""
    response = page.goto(url, wait_until="load")
    assert response is not None
    assert response.status == 200
    wait_until(page, SHOWN_RENDERED)


def open_page(context: Opens, url: str, problems: list[str] | None = None) -> Page:
    """The page at `url` with every chart outside a collapsed section drawn; console errors, page errors
    and requests that leave the site are appended to `problems`."""
    page = context.new_page()
    if problems is not None:
        watch(page, url, problems)
    load(page, url)
    return page


# The first chart of the page, where it starts in a collapsed section of its own (its nearest <details>, closed,
# in no other closed one).
FIRST_CHART_COLLAPSED = """() => {
  const section = document.querySelector('.pcb-chart')?.closest('details');
  return Boolean(section) && !section.open && !section.parentElement.closest('details:not([open])');
}"""


def open_first_chart(page: Page) -> dict[str, Any] | None:
    """The page's first chart, where it starts in a collapsed section: whether it is drawn while hidden (with
    Plotly.js loaded), then its section opened as a reader would, by a click on its summary, and the width it
    is drawn to with its box's. None where the first chart is not collapsed, or the page has none."""
    if not page.evaluate(FIRST_CHART_COLLAPSED):
        return None
    chart = page.locator(".pcb-chart").first
    wait_until(page, "typeof window.Plotly === 'object'")
    drawn_while_hidden = chart.get_attribute("data-rendered") is not None
    chart.locator("xpath=ancestor::details[1]/summary").click()
    wait_until(page, "document.querySelector('.pcb-chart').dataset.rendered === 'true'")
    widths = chart.evaluate(
        "(el) => [el.querySelector('.main-svg').getBoundingClientRect().width, el.getBoundingClientRect().width]"
    )
    page.evaluate("window.scrollTo(0, 0)")  # back where the click scrolled from
    return {"drawn_while_hidden": drawn_while_hidden, "widths": widths}


def open_sections(page: Page) -> None:
    """Every collapsed section opened, as a reader would, and every chart in them drawn."""
    page.evaluate("document.querySelectorAll('details:not([open])').forEach((d) => { d.open = true; })")
    wait_until(page, RENDERED)


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


# The three readings assert_reads_well checks, in one round trip.
READS_WELL = f"""() => ({{
  charts: ({CHART_CHECKS})(),
  crowded: {CROWDED}.map((c) => c.id),
  width: document.documentElement.scrollWidth,
}})"""


def assert_reads_well(page: Page, viewport: dict[str, int]) -> None:
    open_sections(page)
    found = page.evaluate(READS_WELL)
    assert found["charts"] == [], found["charts"]
    assert found["crowded"] == [], "at most 8 series on one axis"
    assert found["width"] <= viewport["width"], "no sideways scrolling"


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


def assert_answer_fits(found: dict[str, Any] | None, viewport: dict[str, int], mode: str) -> None:
    """The page's answer block as `found` (ANSWER_BOX) where it is first drawn: below the header, ending
    within the first screen, and nothing of it beyond the viewport's sides or scrolling inside itself
    (issue 29's promise)."""
    assert found is not None, "the page opens with its answer"
    assert found["height"] == viewport["height"]
    assert found["top"] >= found["header"] - 0.5, f"{mode}: the answer starts below the header"
    assert found["bottom"] <= found["height"], (
        f"{mode}: the answer ends {found['bottom'] - found['height']:.0f} px below the screen"
    )
    assert found["clipped"] == [], mode


# Tables that carry an answer, by a header only they have, and the columns that hold the answer: each
# cell of those columns is drawn, and inside the viewport and every box that would clip it, at 1280 px
# and on a phone. Collapsed sections are opened first.
ANSWER_TABLES = {
    "claims/": {"what we measured": ["claim", "verdict"]},
    "experiments/argon2/": {
        "budget": ["budget", "memory", "time cost", "threads", "verdict"],
        "parameter set": ["verdict", "password_hash (Argon2id)", "sodium_crypto_pwhash (Argon2id)"],
        "latency budget": ["latency budget", "Argon2id through libsodium (p = 1)", "verdict"],
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


def assert_answers_shown(opened: Opened, path: str, mode: str) -> None:
    """Every table of `path` (ANSWER_TABLES) on `opened`, read at `mode`, shows its answer's cells; and the
    page raised no error."""
    page = opened.page
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    laid_out = "[...document.querySelectorAll('.pcb-key-table')].every((a) => a.dataset.layout)"
    # tables.js measures a table when its section opens
    wait_until(page, laid_out)
    for marker, columns in ANSWER_TABLES[path].items():
        tables, problems = page.evaluate(ANSWERS_SHOWN, [marker, columns])
        assert tables >= 1, f"{path} has a table with a {marker!r} column"
        assert problems == [], f"{path} at {MODES[mode]['viewport']['width']} px"
    assert [problem for problem in opened.problems if problem.startswith("page error")] == []

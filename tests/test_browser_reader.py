"""The site on a phone (390 × 844, dark) in headless Chromium: every chart reads in the dark on a phone and a
chart in a collapsed section is drawn to its width when the section opens; and issue 46.7, the reader path, on
the repository's site (the one shared build): at 390 px no table hides a column without saying so (a table that
carries an answer shows every cell, as cards where it must; any other that scrolls says so above it and fades
the edge with more), and the Argon2 heatmap reads on a phone. (Search: test_browser.py.)

Each page is opened once (on_a_phone) and every test of this module that reads it checks it there, one after
the other; none changes it. The one test that serves a page changed (the Machines page with longer machine
names) opens it in a tab of its own."""

import contextlib
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Route
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from phpcb.data import machines

from .browser_support import (
    ANSWER_TABLES,
    ANSWERED_PAGES,
    CHART_PAGES,
    PAGES,
    PHONE,
    SETTLES_WITHIN_MS,
    Opened,
    Reading,
    assert_answer_fits,
    assert_answers_shown,
    assert_reads_well,
    load,
    open_sections,
    wait_until,
)

pytestmark = pytest.mark.browser


def reading(*paths: str) -> pytest.MarkDecorator:
    """The test reads each of `paths` on a phone (on_a_phone), with the other tests that read it."""
    return pytest.mark.parametrize("path", paths, scope="module")


@pytest.fixture(scope="module")
def on_a_phone(contexts: dict[str, Reading], base_url: str, path: str) -> Iterator[Opened]:
    """The MkDocs build's page at `path` in the dark at 390 × 844 (Reading.opened), for the tests of this module
    that read it."""
    with contexts["phone-dark"].opened(base_url + path) as opened:
        yield opened


@reading(*CHART_PAGES)
def test_every_chart_reads_in_the_dark_on_a_phone(on_a_phone, path):
    opened = on_a_phone
    page = opened.page
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    if path in ANSWERED_PAGES:
        assert_answer_fits(opened.first_screen, PHONE, "phone")
    assert_reads_well(page, PHONE)
    assert opened.problems == []


# A machine's name as the runner makes it (machines.Identity.name): amd-epyc-zen5-2c-5330ed.
MACHINE_NAME = re.compile(r"\b(?:amd|intel)-[a-z0-9]+-[a-z0-9-]+?-[0-9]+c-[0-9a-f]{6}\b")
SERVER_LINES = {"amd": "epyc", "intel": "xeon"}  # the lines this pool's CPUs report


def longest_machine_name() -> str:
    """The longest name the identity table gives a server CPU of a vendor it knows, with 192 cores."""
    names = [
        machines.Identity(
            vendor=entry["vendor"],
            line=SERVER_LINES[entry["vendor"]],
            family=entry["family"],
            model=entry["models"][0][0],
            stepping=None,
            microarchitecture=entry["name"],
            cores=192,
            features=(),
            virtual=True,
        ).name()
        for entry in machines.table()["microarchitectures"]
        if entry["vendor"] in SERVER_LINES
    ]
    return max(names, key=len)


def test_the_machines_charts_read_on_a_phone_whatever_the_machines_are_called(contexts, base_url):
    """The Machines page's rows are named by machine: a new machine's name (a user's run, a PR's) must not
    push an axis title or label off a phone's chart. intel-xeon-emerald-rapids-2c-5a0de4 did, on a fresh
    clone's `make test` after `make report`. Here every machine the page names is renamed to the longest
    name the identity table makes (each keeps a hash of its own: the rows stay apart)."""
    longest = longest_machine_name()
    assert len(longest) >= len("intel-xeon-emerald-rapids-2c-5a0de4")
    url = base_url + "machines/"
    renamed: dict[str, str] = {}

    def rename(found: re.Match[str]) -> str:
        return renamed.setdefault(found.group(0), f"{longest[:-6]}{len(renamed):06x}")

    def longer_names(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=MACHINE_NAME.sub(rename, response.text()))

    reading = contexts["phone-dark"]
    page = reading.new_page()
    page.route(url, longer_names)
    try:
        load(page, url)
        open_sections(page)
        assert len(renamed) >= 2, "the page names its machines"
        assert longest[:-6] in page.content()
        assert_reads_well(page, PHONE)
    finally:
        page.unroute(url)
        reading.release(page)


@reading("experiments/aead/")
def test_a_chart_in_a_collapsed_section_is_drawn_to_its_width_when_the_section_opens(on_a_phone):
    """Its first chart, as Reading.opened opened its section before the others (browser_support.open_first_chart),
    read in the dark: the colours do not change a width."""
    found = on_a_phone.first_chart
    assert found is not None, "the charts start collapsed"
    assert found["drawn_while_hidden"] is False, "not drawn while hidden"
    drawn, box = found["widths"]
    assert drawn == pytest.approx(box, abs=1), "drawn to its container's width, not Plotly's default"
    assert box <= PHONE["width"]
    assert_reads_well(on_a_phone.page, PHONE)


# Every table of the page as drawn, its collapsed sections open: a table that carries an answer
# (.pcb-key-table) keeps every cell inside the viewport and does not scroll; any other either fits its
# box or scrolls with the hint tables.js puts above it (visible) and its right edge faded.
TABLES_SHOWN = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  for (const table of document.querySelectorAll('article table')) {
    if (!table.checkVisibility()) { continue; }
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim()).join(' | ');
    const name = heads.slice(0, 90);
    const box = table.closest('.md-typeset__scrollwrap') || table.parentElement;
    const scrolls = box.scrollWidth > box.clientWidth + 1;
    if (table.closest('.pcb-key-table')) {
      const cut = [...table.querySelectorAll('tbody td')].some((cell) => {
        const r = cell.getBoundingClientRect();
        return r.width > 0 && (r.left < -1 || r.right > width + 1);
      });
      if (cut || scrolls) { problems.push('answer table cut: ' + name); }
      continue;
    }
    if (!scrolls) { continue; }
    const hint = box.previousElementSibling;
    if (!hint || !hint.classList.contains('pcb-scroll-hint') || !hint.checkVisibility()) {
      problems.push('scrolls with no hint: ' + name);
    } else if (hint.getBoundingClientRect().right > width + 1) {
      problems.push('hint cut: ' + name);
    } else if (!box.classList.contains('pcb-more-right')) {
      problems.push('no faded edge: ' + name);
    }
  }
  return problems;
}"""


@reading("experiments/aead/")
def test_the_aead_pages_pick_and_pair_tables_show_every_column_on_a_phone(on_a_phone):
    """The table whose last column ("vs the runner-up") was cut at 390 px, and the new AES-256-GCM against
    XChaCha20-Poly1305 table: laid out to the screen's width (as cards where a table does not fit), every
    cell of every column on the screen."""
    page = on_a_phone.page
    cells = """(t) => [...t.querySelectorAll('tbody td')].map((c) => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && r.left >= -1 && r.right <= document.documentElement.clientWidth + 1;
    })"""
    for marker in ("vs the runner-up", "XChaCha20-Poly1305 (MB/s)"):
        table = page.locator("article .pcb-key-table table", has=page.locator(f"th:text-is('{marker}')"))
        assert table.count() == 1, marker
        assert table.evaluate("(t) => t.closest('.pcb-key-table').dataset.layout") in ("table", "cards")
        shown = table.evaluate(cells)
        columns = table.locator("thead th").count()
        assert shown == [True] * (table.locator("tbody tr").count() * columns), f"every cell of {marker!r} shown"
    assert "AES-256-GCM is" in page.locator("#aes-256-gcm-against-xchacha20-poly1305 ~ div").first.inner_text()


# The Argon2 heatmap as a phone draws it: no colour bar (each cell prints its value), its longer axis
# (memory) down the page, every value in a readable size and inside its cell, and the pick's dotted box
# around one cell.
HEATMAP = """(el) => {
  const layout = el._fullLayout;
  const columns = layout.xaxis._categories.length;
  const cell = layout._size.w / columns;
  const texts = [...el.querySelectorAll('.heatmaplayer text')].filter((t) => t.textContent.trim());
  const pick = [...el.querySelectorAll('.shapelayer path')].find((p) => getComputedStyle(p).strokeDasharray !== 'none');
  const inside = pick ? texts.filter((t) => {
    const r = t.getBoundingClientRect(), box = pick.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x > box.left && x < box.right && y > box.top && y < box.bottom;
  }).map((t) => t.textContent) : null;
  return {
    colorbars: el.querySelectorAll('.colorbar').length,
    rows: layout.yaxis._categories.length,
    columns: columns,
    down: layout.yaxis.title.text,
    values: texts.length,
    small: texts.filter((t) => parseFloat(getComputedStyle(t).fontSize) < 11).map((t) => t.textContent),
    wide: texts.filter((t) => t.getBoundingClientRect().width > cell - 2).map((t) => t.textContent),
    inPick: inside,
  };
}"""


@reading("experiments/argon2/")
def test_the_argon2_heatmap_reads_on_a_phone(on_a_phone):
    page = on_a_phone.page
    open_sections(page)
    page.wait_for_selector('#chart-argon2-heatmap[data-rendered="true"]', timeout=SETTLES_WITHIN_MS)
    found = page.locator("#chart-argon2-heatmap").evaluate(HEATMAP)
    assert found["colorbars"] == 0, "each cell prints its value: the colour bar's width goes to the cells"
    assert found["down"] == "memory", "the longer axis down the page"
    assert found["rows"] > found["columns"]
    assert found["values"] > 0
    assert found["small"] == [], "at least 11 px"
    assert found["wide"] == [], "every value inside its cell"
    assert found["inPick"] is not None, "the pick's dotted box"
    assert len(found["inPick"]) == 1, "the pick's box follows its cell"


@reading(*PAGES, "versions/")
def test_at_390_px_no_table_hides_a_column_without_saying_so(on_a_phone, path):
    page = on_a_phone.page
    open_sections(page)
    with contextlib.suppress(PlaywrightTimeoutError):  # tables.js measures a table when its section opens
        wait_until(page, f"({TABLES_SHOWN})().length === 0")
    assert page.evaluate(TABLES_SHOWN) == [], f"{path or 'home'} at {PHONE['width']} px"


# test_browser_tables.py's check of the repository's answer tables, on a phone here, where on_a_phone has the
# pages (at 1280 px, test_browser.py's).
@reading(*[path for path in ANSWER_TABLES if path != "compare/"])
def test_a_table_that_carries_an_answer_keeps_it_on_the_screen_at_390_px(on_a_phone, path):
    assert_answers_shown(on_a_phone, path, "phone-dark")

"""Issue 46.7, the reader path, in headless Chromium on the repository's site (the one shared build): at
390 px no table hides a column without saying so (a table that carries an answer shows every cell, as cards
where it must; any other that scrolls says so above it and fades the edge with more), the Argon2 heatmap
reads on a phone, and search finds "P-384" as one word. (The Machines page's labels on a phone:
test_browser.py's phone check of every chart.)"""

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .browser_support import PAGES, PHONE, SETTLES_WITHIN_MS, open_sections

pytestmark = pytest.mark.browser

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


# Before the check of every page: these read pages test_browser.py's phone check opened last, still open
# then (browser_support.Profile's shelf).
def test_the_aead_pages_pick_and_pair_tables_show_every_column_on_a_phone(contexts, base_url):
    """The table whose last column ("vs the runner-up") was cut at 390 px, and the new AES-256-GCM against
    XChaCha20-Poly1305 table: laid out to the screen's width (as cards where a table does not fit), every
    cell of every column on the screen."""
    page = contexts["phone-dark"].opened(base_url + "experiments/aead/").page
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


def test_the_argon2_heatmap_reads_on_a_phone(contexts, base_url):
    page = contexts["phone-dark"].opened(base_url + "experiments/argon2/").page
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


@pytest.mark.parametrize("path", [*PAGES, "versions/"])
def test_at_390_px_no_table_hides_a_column_without_saying_so(contexts, base_url, path):
    page = contexts["phone-dark"].opened(base_url + path).page
    open_sections(page)
    with contextlib.suppress(PlaywrightTimeoutError):  # tables.js measures a table when its section opens
        page.wait_for_function(f"({TABLES_SHOWN})().length === 0", timeout=SETTLES_WITHIN_MS)
    assert page.evaluate(TABLES_SHOWN) == [], f"{path or 'home'} at {PHONE['width']} px"


def test_search_finds_p384_as_one_word_on_the_curves_page(contexts, base_url):
    """Material's search split "P-384" into "p" and "384", and found every page with a "p" on it."""
    page = contexts["light"].taken(base_url).page  # its search box is typed in
    page.locator(".md-search__input").click()
    ready = "!document.querySelector('.md-search-result__meta').textContent.includes('Initializing')"
    page.wait_for_function(ready, timeout=SETTLES_WITHIN_MS)  # the index is built in a worker
    page.locator(".md-search__input").press_sequentially("P-384", delay=30)  # as typed: the theme reads keys
    page.locator(".md-search-result__item").first.wait_for(timeout=SETTLES_WITHIN_MS)
    titles = [title.strip() for title in page.locator(".md-search-result__item > a h1").all_inner_texts()]
    assert titles[:1] == ["Elliptic-curve key generation, per curve"], titles
    assert page.locator(".md-search-result__item", has_text="Missing").count() == 0, "no half of it left over"
    assert page.locator(".md-search-result mark", has_text="P-384").count() > 0, "the word found whole"
    assert len(titles) < 10, "not every page with a 'p' on it"
    page.close()

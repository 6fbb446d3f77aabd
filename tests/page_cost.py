"""`make page-cost [SITE=site]` (`python -m tests.page_cost SITE`): what each page of a built site costs a
browser to open, per way of reading it (light at 1280 px, dark on a 390 px phone), in Debian's headless
Chromium as the browser tests drive it (browser_support.py: this is a tool of the tests, on their dev
requirements): the main thread's time in all, in scripts, in layout and in style recalculation
(Chromium's Performance.getMetrics), each page opened in a tab of its own, its collapsed sections opened
and every chart drawn.

Issue 48: `make test` is CPU-bound, and a page that costs a browser seconds costs the browser tests (and a
reader's phone) as much. The Runs page's tables took 1.5-2.2 s of style work per load before tables.js
measured them all before changing any. Prints one line per page and reading, then the totals.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page


METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
HEADER = ("reading", "page", "main thread s", "script s", "layout s", "style s")


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.page_cost", description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built site (make site writes site/)")
    found = parser.parse_args(argv)
    if not (found.site / "index.html").is_file():
        parser.error(f"{found.site}: no index.html; build the site first (make site)")
    return found


def costs(site: Path) -> list[tuple[str, str, list[float]]]:
    """(reading, page, seconds per METRICS) for every page the browser tests open, at each reading."""
    from playwright.sync_api import sync_playwright

    from .browser_support import (
        CHROMIUM,
        CHROMIUM_ARGS,
        FORGET_PALETTE,
        MODES,
        PAGES,
        open_page,
        open_sections,
        serving,
    )

    found = []
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright, serving(site) as base:
        context = playwright.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for mode, reading in MODES.items():
            for path in PAGES:
                page = context.new_page()
                page.add_init_script(FORGET_PALETTE)
                page.set_viewport_size(reading["viewport"])
                page.emulate_media(color_scheme=reading["color_scheme"])
                session = context.new_cdp_session(page)
                session.send("Performance.enable")
                opened = open_page(_Tab(page), base + path)
                open_sections(opened)
                metrics = {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
                found.append((mode, path or "(home)", [float(metrics[name]) for name in METRICS]))
                page.close()
        context.close()
    return found


class _Tab:
    """What open_page opens a page in: here, the one tab set up at its reading with its metrics on."""

    def __init__(self, page: Page) -> None:
        self._page = page

    def new_page(self) -> Page:
        return self._page


def table(rows: list[tuple[str, str, list[float]]]) -> str:
    lines = ["\t".join(HEADER)]
    lines += [f"{mode}\t{path}\t" + "\t".join(f"{value:.2f}" for value in values) for mode, path, values in rows]
    totals = [sum(values[i] for _, _, values in rows) for i in range(len(METRICS))]
    lines.append("all\tall\t" + "\t".join(f"{value:.2f}" for value in totals))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    found = arguments(argv)
    print(table(costs(found.site)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""`python -m phpcb pages [--out build] [--shared-runs ../ [--shared-only ID,...]]`: every page, chart
data file, download and asset of the site, and its configuration with the navigation, generated once
and written to a build directory that `mkdocs build -f build/mkdocs.yml` or `zensical build -f
build/mkdocs.yml` turns into HTML. With --shared-runs the pages link to the runs' files in a `runs/`
that far above the site's root (gh-pages' shared copy; presentation/downloads.py), and the build
writes them beside the site, into build/runs/, not into it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from phpcb.commands import view
from phpcb.errors import BuildError
from phpcb.pages import site_files
from phpcb.pages.build import IN_SITE
from phpcb.presentation.downloads import BASE, RunFiles


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=None, help="the build directory (default: ROOT/build)")
    parser.add_argument(
        "--shared-runs",
        metavar="BASE",
        default=None,
        help="the runs' files are in BASE/runs/, BASE relative to the site's root: ../ for a mike version",
    )
    parser.add_argument(
        "--shared-only",
        metavar="IDS",
        default=None,
        help="with --shared-runs: only these runs (comma-separated) are there; the others go in the site",
    )
    parser.add_argument(
        "--error-pages",
        action="store_true",
        help="on a build error, write pages that show it (for a server an author watches) and exit 0",
    )


def run_files(base: str | None, only: str | None) -> RunFiles:
    if base is None:
        if only is not None:
            raise BuildError("--shared-only names runs in the shared runs/: give its place with --shared-runs")
        return IN_SITE
    if not BASE.fullmatch(base):
        raise BuildError(f"--shared-runs must be ../ repeated (relative to the site's root), got {base!r}")
    shared = None if only is None else frozenset(filter(None, (name.strip() for name in only.split(","))))
    return RunFiles(base, shared)


def run(args: argparse.Namespace) -> int:
    out = (args.out or args.root / "build").resolve()
    try:
        files = run_files(args.shared_runs, args.shared_only)
        print(site_files.generate(args.root, out, files, view.from_environment()))
    except BuildError as error:
        if not args.error_pages:
            raise
        print(f"ERROR    -  {error}", file=sys.stderr, flush=True)
        print(site_files.generate_error(args.root, out, str(error)))
    return 0

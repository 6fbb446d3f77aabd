"""`python -m phpcb pages [--out build]`: every page, chart data file, download and asset of the site,
and its configuration with the navigation, generated once and written to a build directory that
`mkdocs build -f build/mkdocs.yml` or `zensical build -f build/mkdocs.yml` turns into HTML."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.pages import site_files


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=None, help="the build directory (default: ROOT/build)")


def run(args: argparse.Namespace) -> int:
    print(site_files.generate(args.root, (args.out or args.root / "build").resolve()))
    return 0

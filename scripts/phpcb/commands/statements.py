"""`python -m phpcb [--root DIR] statements --out FILE [--pages DIR]`: every statement the published pages
built from DIR would make, as JSON (publish/statements.py): what a pull request's two sides are diffed
from. With --pages, each page's Markdown too, as `python -m phpcb pages` generates it (publish/page_text.py),
written under DIR: a whole side in one process (publish/sides.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.pages import build
from phpcb.publish import page_text
from phpcb.publish.statements import collect


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, help="the JSON file to write")
    parser.add_argument(
        "--pages", type=Path, default=None, help="also write each page's generated Markdown under this directory"
    )


def run(args: argparse.Namespace) -> int:
    # With the pages, the runs are loaded and analysed once for both (build.load checks them as the
    # pages' build does); the statements alone read them as before, unchecked.
    sources = build.load(args.root) if args.pages is not None else None
    snapshot = collect(args.root, sources)
    snapshot.write(args.out)
    counts = f"{len(snapshot.statements):,} statements of {len(snapshot.pages)} pages and {len(snapshot.runs)} runs"
    print(f"{args.out}: {counts}")
    if args.pages is not None:
        pages = page_text.generated(args.root, sources)
        page_text.write(pages, args.pages)
        print(f"{args.pages}: the Markdown of {len(pages)} pages")
    return 0

"""`python -m phpcb [--root DIR] statements --out FILE`: every statement the published pages built from
DIR would make, as JSON (publish/statements.py): what a pull request's two sides are diffed from."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.publish.statements import collect


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, help="the JSON file to write")


def run(args: argparse.Namespace) -> int:
    snapshot = collect(args.root)
    snapshot.write(args.out)
    counts = f"{len(snapshot.statements):,} statements of {len(snapshot.pages)} pages and {len(snapshot.runs)} runs"
    print(f"{args.out}: {counts}")
    return 0

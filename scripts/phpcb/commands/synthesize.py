"""`python -m phpcb synthesize COUNT OUT`: COUNT valid synthetic runs made from the committed ones, in
OUT/data/runs/ (for benchmarking the build)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.data.synthetic import synthesize


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("count", type=int)
    parser.add_argument("out", type=Path)


def run(args: argparse.Namespace) -> int:
    print(synthesize(args.root, args.count, args.out))
    return 0

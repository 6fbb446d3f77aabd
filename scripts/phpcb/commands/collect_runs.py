"""`python -m phpcb collect-runs --artifacts DIR [--summary FILE]`: copy the runs of downloaded
benchmark artifacts into data/runs/, then validate them all."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.publish.pullrequest import collect


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--artifacts", required=True, type=Path)
    parser.add_argument("--summary", type=Path, help="also write the list as Markdown (a PR body)")


def run(args: argparse.Namespace) -> int:
    print(collect(args.root, args.artifacts.resolve(), args.summary))
    return 0

"""`python -m phpcb preview-comment --runs ID[,ID]`: each named run beside its baseline, with the full
tables (Markdown)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.publish.preview_comment import preview_comment


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", default="", help="run ids under data/runs/ the pull request adds, comma-separated")
    parser.add_argument("--out", type=Path, default=None, help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    ids = [part.strip() for part in args.runs.split(",") if part.strip()]
    print(preview_comment(args.root, ids, args.out))
    return 0

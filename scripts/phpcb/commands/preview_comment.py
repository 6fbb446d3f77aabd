"""`python -m phpcb preview-comment --runs ID[,ID] [--base-runs DIR]`: the pull-request comment, what
merging changes, then each named run beside its baseline (Markdown)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.publish.preview_comment import preview_comment


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", default="", help="run ids under data/runs/ the pull request adds, comma-separated")
    parser.add_argument(
        "--base-runs",
        type=Path,
        default=None,
        help="the base branch's data/runs/ (e.g. extracted by git archive): the comment then leads with "
        "what merging changes on the published pages",
    )
    parser.add_argument("--out", type=Path, default=None, help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    ids = [part.strip() for part in args.runs.split(",") if part.strip()]
    print(preview_comment(args.root, ids, args.out, args.base_runs))
    return 0

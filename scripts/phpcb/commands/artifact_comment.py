"""`python -m phpcb artifact-comment --artifact DIR --out FILE [--base-runs DIR]`: the pull-request
comment written by this checkout's code from a preview artifact's runs (publish/artifact_comment.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.publish.artifact_comment import artifact_comment


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--artifact", required=True, type=Path, help="the preview artifact (make preview's preview/)")
    parser.add_argument("--out", required=True, type=Path, help="where to write the comment (Markdown)")
    parser.add_argument(
        "--base-runs",
        type=Path,
        default=None,
        help="the runs before merging (default: this checkout's data/runs/, the default branch's in the deploy job)",
    )


def run(args: argparse.Namespace) -> int:
    print(artifact_comment(args.root, args.artifact, args.out, args.base_runs))
    return 0

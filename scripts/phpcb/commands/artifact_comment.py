"""`python -m phpcb artifact-comment --artifact DIR --head SHA --out FILE`: the pull-request comment
written by this checkout's code from the files of the pull request's head commit
(publish/artifact_comment.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.publish.artifact_comment import artifact_comment


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--artifact", required=True, type=Path, help="the preview artifact (its pr-number)")
    parser.add_argument("--head", required=True, help="the pull request's head commit the preview built (HEAD_SHA)")
    parser.add_argument("--out", required=True, type=Path, help="where to write the comment (Markdown)")


def run(args: argparse.Namespace) -> int:
    print(artifact_comment(args.root, args.artifact, args.out, args.head.strip()))
    return 0

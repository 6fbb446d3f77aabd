"""`python -m phpcb preview --pr N --base REF [--out preview]`: a pull request's preview site and
comment (make preview)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.publish.ghpages import pr_number
from phpcb.publish.pullrequest import PullRequestError, preview


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pr", required=True)
    parser.add_argument("--base", required=True, help="the base branch's ref, e.g. origin/main")
    parser.add_argument("--out", type=Path, default=Path("preview"))


def run(args: argparse.Namespace) -> int:
    if not args.base.strip():
        raise PullRequestError("BASE is required: the base branch's ref, e.g. BASE=origin/main")
    print(preview(args.root, pr_number(args.pr), args.base.strip(), args.out))
    return 0

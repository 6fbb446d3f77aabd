"""The pull request number of the publishing verbs: `--pr N`, else `--pr-file FILE` (an artifact's
`pr-number`), exactly one."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.publish.ghpages import GhPagesError, pr_from_file, pr_number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pr", help="the pull request number")
    parser.add_argument("--pr-file", type=Path, help="a file holding it (an artifact's pr-number)")


def of(args: argparse.Namespace) -> int:
    if (args.pr is None) == (args.pr_file is None):
        raise GhPagesError("give the pull request number as PR=n (or an artifact holding pr-number)")
    return pr_number(args.pr) if args.pr is not None else pr_from_file(args.pr_file)

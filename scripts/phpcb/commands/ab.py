"""`python -m phpcb ab BASE1 HEAD1 BASE2 HEAD2 ...`: a code change measured A/B in one job (make ab),
the rounds' base and head runs compared round by round."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.compare import ab_export


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", type=Path, nargs="+", help="run directories in rounds: BASE1 HEAD1 BASE2 HEAD2 ...")
    parser.add_argument("--base-ref", default="base", help="the git ref the base runs measured")
    parser.add_argument("--head-ref", default="head", help="the git ref the head runs measured")
    parser.add_argument("--format", choices=tuple(ab_export.FORMATS), default="markdown")
    parser.add_argument("--out", type=Path, default=None, help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    print(ab_export.report(args.root, args.base_ref, args.head_ref, args.runs, args.format, args.out))
    return 0

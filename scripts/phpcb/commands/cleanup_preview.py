"""`python -m phpcb cleanup-preview --pr N`: remove pr-preview/pr-N/ from gh-pages."""

from __future__ import annotations

import argparse

from phpcb.commands import pull_request_number
from phpcb.publish import ghpages


def arguments(parser: argparse.ArgumentParser) -> None:
    pull_request_number.add_arguments(parser)
    parser.add_argument("--remote", default=ghpages.DEFAULT_REMOTE, help="push here when it exists (default: origin)")


def run(args: argparse.Namespace) -> int:
    ghpages.cleanup_preview(ghpages.Git(args.root, args.remote), pull_request_number.of(args))
    return 0

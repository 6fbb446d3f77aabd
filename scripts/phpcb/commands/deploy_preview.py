"""`python -m phpcb deploy-preview --pr N --artifact DIR`: a preview artifact's site under
pr-preview/pr-N/ on gh-pages. Standard library only: the deploy workflow installs nothing."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.commands import pull_request_number
from phpcb.publish import ghpages


def arguments(parser: argparse.ArgumentParser) -> None:
    pull_request_number.add_arguments(parser)
    parser.add_argument("--artifact", required=True, type=Path)
    parser.add_argument("--remote", default=ghpages.DEFAULT_REMOTE, help="push here when it exists (default: origin)")


def run(args: argparse.Namespace) -> int:
    pr = pull_request_number.of(args)
    ghpages.deploy_preview(ghpages.Git(args.root, args.remote), pr, args.artifact)
    return 0

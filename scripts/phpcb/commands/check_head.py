"""`python -m phpcb check-head --pr N --sha SHA`: fail unless the pull request's head commit is SHA,
so that a preview built from one PR's code is never deployed under another PR's number."""

from __future__ import annotations

import argparse

from phpcb.commands import pull_request_number
from phpcb.publish import github_comment


def arguments(parser: argparse.ArgumentParser) -> None:
    pull_request_number.add_arguments(parser)
    parser.add_argument("--sha", required=True)


def run(args: argparse.Namespace) -> int:
    pr = pull_request_number.of(args)
    actual = github_comment.require_head(github_comment.GitHub.from_environment(), pr, args.sha)
    print(f"#{pr}: head commit {actual} matches")
    return 0

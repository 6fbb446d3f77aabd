"""`python -m phpcb pr-comment --pr N --body FILE`: create or update the pull request's one preview
comment. Reads GITHUB_TOKEN and GITHUB_REPOSITORY; standard library only."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.commands import pull_request_number
from phpcb.publish import github_comment


def arguments(parser: argparse.ArgumentParser) -> None:
    pull_request_number.add_arguments(parser)
    parser.add_argument("--body", required=True, type=Path)
    parser.add_argument(
        "--author",
        default=github_comment.DEFAULT_AUTHOR,
        help=f"only this login's marked comment is updated (default {github_comment.DEFAULT_AUTHOR})",
    )


def run(args: argparse.Namespace) -> int:
    pr = pull_request_number.of(args)
    github = github_comment.GitHub.from_environment()
    action, url = github.upsert_comment(pr, github_comment.comment_body(args.body), args.author or None)
    print(f"{action} the preview comment on #{pr}: {url}")
    return 0

"""The pull-request comment, written by trusted code from files (publish/merge_comment.py has the why).

    python -m phpcb artifact-comment --artifact DIR --head SHA --out FILE

The artifact gives the pull request's number (`pr-number`, a plain file holding an integer): its
comment.md and everything else in it were written by the pull request's code. What the pull request
changes is read with git from its head commit SHA (the commit the preview built): fetched from the
origin remote as refs/pull/N/head, which must still be SHA. Its changes to data/, runners/snippets/
and docs/ since the merge base are applied to this checkout's HEAD, and both sides are computed by this
checkout's code (merge_comment.trusted_sides). Only when the pull request changes other files (the
build's code) is the artifact read again: its merged side (sides/merged/, pages and statements its
code computed) says what that code changes, and the comment shows it as the preview job's word.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from phpcb.publish.ghpages import pr_from_file
from phpcb.publish.merge_comment import trees_comment, trusted_sides
from phpcb.publish.pr_runs import PullRequestError, resolve, run_git
from phpcb.publish.pullrequest import addresses

SHA = re.compile(r"[0-9a-f]{40}")


def pull_request_head(root: Path, pr: int, sha: str) -> str:
    """The pull request's head commit, `sha`, present in this repository: fetched as refs/pull/N/head
    from origin, which must be `sha` (a newer push makes a newer preview, which comments in turn);
    without a remote that has it, the commit must be here already (a local run)."""
    if not SHA.fullmatch(sha):
        raise PullRequestError(f"HEAD_SHA must be the 40 hex digits of the pull request's head commit, got {sha!r}")
    local = f"refs/phpcb/pull/{pr}"
    fetched = run_git(root, "fetch", "--quiet", "--no-tags", "origin", f"+refs/pull/{pr}/head:{local}")
    if fetched.returncode == 0:
        head = resolve(root, local)
        if head != sha:
            raise PullRequestError(
                f"pull request #{pr}'s head is {head[:12]}, not {sha[:12]} (the commit previewed): a newer push; "
                "its own preview will comment"
            )
    if run_git(root, "cat-file", "-e", f"{sha}^{{commit}}").returncode != 0:
        raise PullRequestError(f"commit {sha[:12]} is not in this repository, and origin has no refs/pull/{pr}/head")
    return sha


def artifact_comment(root: Path, artifact: Path, out: Path, head_sha: str) -> str:
    pr = pr_from_file(artifact / "pr-number")
    where = addresses(root, pr)
    head = pull_request_head(root, pr, head_sha)
    with tempfile.TemporaryDirectory(prefix="phpcb-comment-") as work:
        before_root, after_root, sides = trusted_sides(root, head, artifact, Path(work))
        _, text = trees_comment(before_root, after_root, sides, where.preview, out)
    return f"{out}: the comment for #{pr} ({len(text):,} characters), from {head[:12]}'s files"

"""One pull-request comment, kept up to date: `make pr-comment PR=N BODY=FILE`.

    python -m phpcb pr-comment --pr N --body FILE [--author LOGIN]
    python -m phpcb check-head --pr N --sha SHA

`pr-comment` lists the pull request's comments (every page), updates the one that holds the hidden
marker and was written by `--author` (default github-actions[bot], the workflow token's identity),
else creates it: a PR has one preview comment however often it is pushed to. `check-head` fails
unless the pull request's head commit is SHA, so a preview built from one PR's code cannot be
deployed under another PR's number.

Reads GITHUB_TOKEN, GITHUB_REPOSITORY (owner/name) and GITHUB_API_URL (default
https://api.github.com), as a GitHub workflow sets them. Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from phpcb.errors import BuildError

MARKER = "<!-- phpcrypto-bench-preview -->"
DEFAULT_API = "https://api.github.com"
DEFAULT_AUTHOR = "github-actions[bot]"
REPOSITORY = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}")
MAX_BODY = 65_000  # GitHub refuses a comment over 65,536 characters
PER_PAGE = 100
MAX_PAGES = 100
TIMEOUT_S = 30
HINTS = {
    401: "the token is missing or expired (GITHUB_TOKEN)",
    403: "the token may not write here: the workflow needs `permissions: pull-requests: write`, "
    "and a workflow triggered by a fork's pull request only gets a read-only token",
    404: "no such pull request or repository, or the token cannot see it",
}


class GitHubError(BuildError):
    """The GitHub API refused a request or could not be reached; says which request and why."""


class GitHub:
    """The few REST calls the preview needs, over urllib."""

    def __init__(self, api: str, repository: str, token: str) -> None:
        if not REPOSITORY.fullmatch(repository):
            raise GitHubError(f"GITHUB_REPOSITORY must be owner/name, got {repository!r}")
        if not token:
            raise GitHubError("GITHUB_TOKEN is not set; a workflow passes secrets.GITHUB_TOKEN in env")
        parsed = urllib.parse.urlsplit(api)
        if parsed.scheme not in ("https", "http") or not parsed.netloc:
            raise GitHubError(f"GITHUB_API_URL must be an http(s) address, got {api!r}")
        self.api = api.rstrip("/")
        self.origin = (parsed.scheme, parsed.netloc)
        self.repository = repository
        self.token = token

    @classmethod
    def from_environment(cls) -> GitHub:
        return cls(
            os.environ.get("GITHUB_API_URL") or DEFAULT_API,
            os.environ.get("GITHUB_REPOSITORY", ""),
            os.environ.get("GITHUB_TOKEN", ""),
        )

    def request(self, method: str, url: str, body: dict[str, Any] | None = None) -> tuple[Any, str]:
        """(decoded JSON, Link header). `url` is a path under the API or a full address on the API's host."""
        if url.startswith("/"):
            url = self.api + url
        parsed = urllib.parse.urlsplit(url)
        if (parsed.scheme, parsed.netloc) != self.origin:
            raise GitHubError(f"refusing to send the token to {parsed.netloc!r}, not the API's host")
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("X-GitHub-Api-Version", "2022-11-28")
        request.add_header("User-Agent", "phpcrypto-bench")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        where = f"{method} {parsed.path}"
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                raw = response.read()
                link = response.headers.get("Link", "")
        except urllib.error.HTTPError as error:
            raise GitHubError(f"GitHub API refused {where}: {error.code} {error.reason}: {_explain(error)}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as error:
            raise GitHubError(f"cannot reach the GitHub API for {where}: {error}") from None
        try:
            return (json.loads(raw) if raw else None), link
        except json.JSONDecodeError:
            raise GitHubError(f"GitHub API answered {where} with something other than JSON") from None

    def comments(self, pr: int) -> Iterator[dict[str, Any]]:
        """Every comment of the pull request, following the Link header's next page."""
        url: str | None = f"/repos/{self.repository}/issues/{pr}/comments?per_page={PER_PAGE}"
        for _ in range(MAX_PAGES):
            if url is None:
                return
            page, link = self.request("GET", url)
            if not isinstance(page, list):
                raise GitHubError(f"GitHub API: expected a list of comments for #{pr}, got {type(page).__name__}")
            yield from page
            url = _next_page(link)
        raise GitHubError(f"#{pr} has over {MAX_PAGES * PER_PAGE} comments; stopped listing")

    def upsert_comment(self, pr: int, body: str, author: str | None) -> tuple[str, str]:
        """Update the marked comment (by `author`, when given) or create it: ('updated'|'created', its address)."""
        for comment in self.comments(pr):
            login = (comment.get("user") or {}).get("login")
            if MARKER in (comment.get("body") or "") and (author is None or login == author):
                updated, _ = self.request(
                    "PATCH", f"/repos/{self.repository}/issues/comments/{int(comment['id'])}", {"body": body}
                )
                return "updated", str((updated or {}).get("html_url", comment.get("html_url", "")))
        created, _ = self.request("POST", f"/repos/{self.repository}/issues/{pr}/comments", {"body": body})
        return "created", str((created or {}).get("html_url", ""))

    def head_sha(self, pr: int) -> str:
        return self.pull(pr)[1]

    def pull(self, pr: int) -> tuple[str, str]:
        """The pull request's state ("open", "closed") and head commit."""
        pull, _ = self.request("GET", f"/repos/{self.repository}/pulls/{pr}")
        return str((pull or {}).get("state", "")), str(((pull or {}).get("head") or {}).get("sha", ""))


def _explain(error: urllib.error.HTTPError) -> str:
    try:
        message = json.loads(error.read() or b"{}").get("message", "")
    except (json.JSONDecodeError, AttributeError, OSError):
        message = ""
    hint = HINTS.get(error.code, "")
    return "; ".join(part for part in (message, hint) if part) or "no detail given"


def _next_page(link: str) -> str | None:
    for part in link.split(","):
        match = re.match(r"\s*<([^>]+)>\s*;(.*)", part)
        if match and re.search(r'rel="?next"?', match.group(2)):
            return match.group(1)
    return None


def comment_body(path: Path) -> str:
    """The file's text with the marker first (added when missing), cut to what GitHub accepts."""
    try:
        body = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GitHubError(f"{path}: cannot read the comment body: {error}") from None
    if MARKER not in body:
        body = f"{MARKER}\n{body}"
    if len(body) > MAX_BODY:
        body = body[:MAX_BODY] + "\n\n*(cut: the comment was longer than GitHub accepts; see the preview site)*\n"
    return body


def require_head(github: GitHub, pr: int, sha: str) -> str:
    """Fails unless the pull request is open and its head commit is `sha` (40 hex digits): a closed
    PR's preview, once cleaned up, is not deployed again by a late build."""
    state, actual = github.pull(pr)
    if state != "open":
        raise GitHubError(f"#{pr}: expected an open pull request, got state {state or 'unknown'!r}; not deploying")
    if not re.fullmatch(r"[0-9a-f]{40}", sha) or actual != sha:
        raise GitHubError(f"#{pr}: the head commit is {actual or 'unknown'}, not {sha!r}; not deploying")
    return actual

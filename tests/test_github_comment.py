"""`make pr-comment`: one preview comment per pull request, created or updated through the GitHub REST
API; here against a fake API on 127.0.0.1 (http.server in a thread)."""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from phpcb.commands.main import main
from phpcb.publish import github_comment
from phpcb.publish.github_comment import MARKER

REPO = "octo/phpcrypto-bench"
PR = 5
BOT = "github-actions[bot]"
TOKEN = "test-token"


@dataclass
class FakeGitHub:
    """The issue-comment and pull endpoints of one repository, in memory."""

    comments: list[dict[str, Any]] = field(default_factory=list)
    refuse: dict[str, tuple[int, str]] = field(default_factory=dict)  # method -> (status, message)
    head_sha: str = "a" * 40
    state: str = "open"
    requests: list[tuple[str, str, str, Any]] = field(default_factory=list)  # method, path+query, auth, body
    base: str = ""
    next_host: str | None = None  # a Link to another host: the client must not follow it

    def handle(self, method: str, target: str, auth: str, body: Any) -> tuple[int, Any, dict[str, str]]:
        self.requests.append((method, target, auth, body))
        if auth != f"Bearer {TOKEN}":
            return 401, {"message": "Bad credentials"}, {}
        if method in self.refuse:
            status, message = self.refuse[method]
            return status, {"message": message}, {}
        url = urllib.parse.urlsplit(target)
        query = urllib.parse.parse_qs(url.query)
        listing = f"/repos/{REPO}/issues/{PR}/comments"
        if method == "GET" and url.path == listing:
            per_page, page = int(query["per_page"][0]), int(query.get("page", ["1"])[0])
            chunk = self.comments[(page - 1) * per_page : page * per_page]
            headers = {}
            if page * per_page < len(self.comments):
                host = self.next_host or self.base
                headers["Link"] = f'<{host}{listing}?per_page={per_page}&page={page + 1}>; rel="next"'
            return 200, chunk, headers
        if method == "POST" and url.path == listing:
            comment = self._comment(body["body"], BOT)
            self.comments.append(comment)
            return 201, comment, {}
        if method == "PATCH" and url.path.startswith(f"/repos/{REPO}/issues/comments/"):
            wanted = int(url.path.rsplit("/", 1)[1])
            for comment in self.comments:
                if comment["id"] == wanted:
                    comment["body"] = body["body"]
                    return 200, comment, {}
        if method == "GET" and url.path == f"/repos/{REPO}/pulls/{PR}":
            return 200, {"number": PR, "state": self.state, "head": {"sha": self.head_sha}}, {}
        return 404, {"message": "Not Found"}, {}

    def _comment(self, body: str, login: str) -> dict[str, Any]:
        number = 1000 + len(self.comments)
        return {
            "id": number,
            "body": body,
            "user": {"login": login},
            "html_url": f"https://github.com/{REPO}/pull/{PR}#issuecomment-{number}",
        }

    def add(self, body: str, login: str = "someone") -> dict[str, Any]:
        comment = self._comment(body, login)
        self.comments.append(comment)
        return comment

    @property
    def writes(self) -> list[tuple[str, str]]:
        return [(method, target) for method, target, _, _ in self.requests if method in ("POST", "PATCH")]


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    fake = FakeGitHub()

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            status, data, headers = fake.handle(self.command, self.path, self.headers.get("Authorization", ""), body)
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(raw)

        do_GET = do_POST = do_PATCH = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    fake.base = f"http://127.0.0.1:{server.server_port}"
    # shutdown() waits for serve_forever's next poll: its default 0.5 s cost each test half a second of wall.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    monkeypatch.setenv("GITHUB_API_URL", fake.base)
    monkeypatch.setenv("GITHUB_REPOSITORY", REPO)
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def body_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "comment.md"
    path.write_text(text, encoding="utf-8")
    return path


def comment(tmp_path: Path, text: str, *extra: str) -> int:
    return main(["pr-comment", "--pr", str(PR), "--body", str(body_file(tmp_path, text)), *extra])


def test_creates_the_comment_when_the_pr_has_none(github, tmp_path, capsys):
    github.add("Nice run!")
    assert comment(tmp_path, f"{MARKER}\n### Benchmark preview\n") == 0
    assert github.writes == [("POST", f"/repos/{REPO}/issues/{PR}/comments")]
    created = github.comments[-1]
    assert created["body"].startswith(MARKER)
    assert "Benchmark preview" in created["body"]
    assert all(auth == f"Bearer {TOKEN}" for _, _, auth, _ in github.requests)
    assert "created the preview comment on #5" in capsys.readouterr().out


def test_updates_the_marked_comment_found_on_a_later_page(github, tmp_path):
    github.add(f"{MARKER}\nquoted by a person", login="someone")  # a marker in another author's comment
    for index in range(120):
        github.add(f"comment {index}")
    mine = github.add(f"{MARKER}\nold preview", login=BOT)
    github.add("after it")
    assert comment(tmp_path, "new preview, marker added by the tool\n") == 0
    assert github.writes == [("PATCH", f"/repos/{REPO}/issues/comments/{mine['id']}")]
    assert mine["body"] == f"{MARKER}\nnew preview, marker added by the tool\n"
    pages = [target for method, target, _, _ in github.requests if method == "GET"]
    assert len(pages) == 2, pages
    assert pages[1].endswith("page=2"), pages
    assert sum(MARKER in c["body"] for c in github.comments) == 2  # nothing created


def test_a_second_run_updates_rather_than_adds(github, tmp_path):
    assert comment(tmp_path, "first\n") == 0
    assert comment(tmp_path, "second\n") == 0
    assert [method for method, _ in github.writes] == ["POST", "PATCH"]
    assert len(github.comments) == 1
    assert github.comments[0]["body"].endswith("second\n")


def test_a_refused_write_says_which_request_and_which_permission(github, tmp_path, capsys):
    github.refuse["POST"] = (403, "Resource not accessible by integration")
    assert comment(tmp_path, "body\n") == 1
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"error: GitHub API refused POST /repos/{REPO}/issues/{PR}/comments: 403")
    assert "Resource not accessible by integration" in error
    assert "pull-requests: write" in error
    assert len(error.splitlines()) == 1


def test_the_token_is_never_sent_to_another_host(github, tmp_path, capsys):
    for index in range(101):
        github.add(f"comment {index}")
    github.next_host = "http://127.0.0.2:9"
    assert comment(tmp_path, "body\n") == 1
    assert "refusing to send the token to '127.0.0.2:9'" in capsys.readouterr().err
    assert github.writes == []


def test_missing_settings_and_bad_pr_numbers_are_one_line_errors(github, tmp_path, monkeypatch, capsys):
    assert main(["pr-comment", "--pr", "5; rm -rf /", "--body", str(body_file(tmp_path, "x"))]) == 1
    assert "PR must be a positive integer" in capsys.readouterr().err
    monkeypatch.delenv("GITHUB_TOKEN")
    assert comment(tmp_path, "x") == 1
    assert "GITHUB_TOKEN is not set" in capsys.readouterr().err
    assert github.requests == []


def test_long_bodies_are_cut_to_what_github_accepts(tmp_path):
    body = github_comment.comment_body(body_file(tmp_path, "x" * 70_000))
    assert body.startswith(MARKER)
    assert len(body) < 65_536
    assert "cut" in body


def test_check_head_accepts_only_the_pr_head_commit(github, tmp_path, capsys):
    pr_file = tmp_path / "pr-number"
    pr_file.write_text(f"{PR}\n")
    assert main(["check-head", "--pr-file", str(pr_file), "--sha", "a" * 40]) == 0
    assert main(["check-head", "--pr", str(PR), "--sha", "b" * 40]) == 1
    assert "not deploying" in capsys.readouterr().err


def test_check_head_refuses_a_closed_pull_request(github, capsys):
    github.state = "closed"
    assert main(["check-head", "--pr", str(PR), "--sha", "a" * 40]) == 1
    assert f"#{PR}: expected an open pull request, got state 'closed'; not deploying" in capsys.readouterr().err

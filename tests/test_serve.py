"""`make serve` (python -m phpcb serve) with a bad data file: the browser gets the one-line error, and
the real pages come back when the file is fixed (docs/contributing.md)."""

from __future__ import annotations

import argparse
import html
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from phpcb.data.rewrite import manifest_text

from .conftest import FIXTURE_RUN, ROOT, reseal

ERROR_TITLE = "The site cannot be built"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def wait_for(url: str, condition: Callable[[str], bool], seconds: float) -> str:
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        last = fetch(url)
        if last is not None and condition(last):
            return last
        time.sleep(0.5)
    raise AssertionError(f"{url}: condition not met within {seconds} s; last response: {(last or '')[:300]!r}")


@dataclass(frozen=True)
class Served:
    project: Path
    url: str
    server: subprocess.Popen[bytes]
    temporary: Path  # the server's TMPDIR, where `mkdocs serve` builds
    fixed: dict[str, bytes]  # the run's jwt.csv and manifest.json as they were before the break


def jwt_alone(run: Path) -> None:
    """The run with its jwt results alone, re-sealed: the page the test watches. The other experiments'
    pages would be generated and built on each of the server's two builds for nothing the test reads."""
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    manifest["experiments"] = {"jwt": manifest["experiments"]["jwt"]}
    for path in run.iterdir():
        if path.name not in ("manifest.json", *manifest["experiments"]["jwt"]["files"]):
            path.unlink()
    (run / "manifest.json").write_text(manifest_text(manifest), encoding="utf-8")
    reseal(run)


@pytest.fixture
def served(make_project, tmp_path: Path) -> Iterator[Served]:
    project = make_project(FIXTURE_RUN)
    run = project / "data" / "runs" / FIXTURE_RUN.name
    jwt_alone(run)
    fixed = {name: (run / name).read_bytes() for name in ("jwt.csv", "manifest.json")}
    bad = run / "jwt.csv"
    lines = bad.read_text().splitlines(keepends=True)
    lines[2] = lines[2].replace(",true", ",maybe")
    bad.write_text("".join(lines))
    reseal(bad.parent)
    port = free_port()
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONPATH": str(ROOT / "scripts"),
        "TMPDIR": str(temporary),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "phpcb", "--root", str(project), "serve", "--address", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield Served(project, f"http://127.0.0.1:{port}/", server, temporary, fixed)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_a_bad_data_file_is_shown_in_the_browser_until_it_is_fixed(served: Served):
    project, url = served.project, served.url
    home = wait_for(url, lambda page: ERROR_TITLE in page, 90)
    assert "jwt.csv, row 3, column 'verified': expected true or false, got 'maybe'" in html.unescape(home)
    page = fetch(url + "experiments/jwt/")
    assert page is not None
    assert ERROR_TITLE in page, "every generated page says it"

    for name, data in served.fixed.items():  # the file as it was, and the seal that matches it
        (project / "data" / "runs" / FIXTURE_RUN.name / name).write_bytes(data)
    fixed = wait_for(url + "experiments/jwt/", lambda page: ERROR_TITLE not in page, 90)
    assert "Which run this page shows" in fixed

    # Stopped as `kill` stops it, it stops the generator as Ctrl-C does; nothing of either is left behind
    # but the page build's per-user cache of compiled templates and compressed files, kept on purpose.
    served.server.terminate()
    assert served.server.wait(timeout=20) == 0
    left = sorted(path.name for path in served.temporary.iterdir())
    assert [name for name in left if not name.startswith("_jinja2-cache-")] == []


FAKE_GENERATOR = """#!/bin/sh
# A generator that builds its temporary site, as `mkdocs serve` does, then dies without removing it.
mkdir "$TMPDIR/mkdocs_fake" && echo page > "$TMPDIR/mkdocs_fake/index.html"
exit 3
"""


def test_a_generator_that_dies_leaves_no_temporary_site_and_the_signal_handler_is_put_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    from phpcb.commands import serve

    generator = tmp_path / "mkdocs"
    generator.write_text(FAKE_GENERATOR)
    generator.chmod(0o755)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr(tempfile, "tempdir", None)  # so that mkdtemp reads TMPDIR again
    monkeypatch.setattr(serve, "regenerate", lambda root, out: None)
    monkeypatch.setattr(serve, "generator_path", lambda name: str(generator))
    monkeypatch.setattr(serve, "POLL_SECONDS", 0.05)
    before = signal.getsignal(signal.SIGTERM)
    args = argparse.Namespace(root=tmp_path, out=tmp_path / "build", generator="mkdocs", address="127.0.0.1:1")

    assert serve.run(args) == 3, "the generator's exit code is the command's"
    assert sorted(path.name for path in temporary.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) is before

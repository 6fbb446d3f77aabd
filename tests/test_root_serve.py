"""`mkdocs serve` from the repository's root serves the real site (issue 39, item 2): the frame's hook
(overrides/hooks/generated_site.py) generates the pages first, again on every rebuild, and shows a bad
data file's one-line error on every page until it is fixed; Zensical, which ignores hooks, stops at once
with one line naming `make serve GENERATOR=zensical`. On a copy of the repository with its small run of JWT."""

from __future__ import annotations

import hashlib
import html
import importlib.util
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from phpcb.commands.serve import stop
from phpcb.presentation import generated_only

from .conftest import BIN, ROOT, SLIM_RUNS, copy_repository, reseal
from .test_serve import ERROR_TITLE, fetch, free_port, wait_for

pytestmark = pytest.mark.slow


def environment(root: Path) -> dict[str, str]:
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(root / "scripts")}


# The small run with jwt results, the page the serve test watches: alone in the copy, as the other small runs'
# pages (AEAD, curves, Argon2) would be generated and built on each of its two builds for nothing it reads.
JWT_RUN = next(name for name in SLIM_RUNS if (ROOT / "data" / "runs" / name / "jwt.csv").is_file())


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One copy for the module's tests: the serve test puts back every file it breaks, the Zensical test
    removes the site it may leave. Both build, neither runs a benchmark: no runner in it."""
    copy = copy_repository(tmp_path_factory.mktemp("root-serve") / "repository", runs=(JWT_RUN,), runner=False)
    yield copy
    # The hook's build directory, named after the copy, is kept between builds: no other run reuses it.
    shutil.rmtree(hook_build_directory(copy), ignore_errors=True)


def hook_build_directory(root: Path) -> Path:
    """overrides/hooks/generated_site.build_directory() of the checkout at `root`."""
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"phpcrypto-bench-site-{digest}"


@pytest.fixture
def jwt_broken(repository: Path) -> Iterator[Path]:
    """The jwt run with a bad value in row 3 (re-sealed), put back afterwards: the module's other tests read
    this copy. Broken before the server starts, so that its first build shows the error and the fix's rebuild
    the pages: one build fewer than breaking a served site, the same hook run on every build (on_config)."""
    run = repository / "data" / "runs" / JWT_RUN
    original = (run / "jwt.csv").read_bytes(), (run / "manifest.json").read_bytes()
    lines = (run / "jwt.csv").read_text().splitlines(keepends=True)
    lines[2] = lines[2].replace(",true", ",maybe")
    (run / "jwt.csv").write_text("".join(lines))
    reseal(run)
    try:
        yield run
    finally:
        (run / "jwt.csv").write_bytes(original[0])
        (run / "manifest.json").write_bytes(original[1])


@pytest.fixture
def served(repository: Path, jwt_broken: Path) -> Iterator[str]:
    port = free_port()
    server = subprocess.Popen(
        [str(BIN / "mkdocs"), "serve", "-a", f"127.0.0.1:{port}"],
        cwd=repository,
        env=environment(repository),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        stop(server)  # as Ctrl-C stops it, so that it removes its temporary site


def test_mkdocs_serve_from_the_root_serves_the_generated_pages_and_their_errors(jwt_broken: Path, served: str):
    broken = wait_for(served + "experiments/jwt/", lambda text: ERROR_TITLE in text, 120)
    assert "jwt.csv, row 3, column 'verified': expected true or false, got 'maybe'" in html.unescape(broken)

    for name in ("jwt.csv", "manifest.json"):  # the file as it was, and the seal that matches it
        shutil.copy(ROOT / "data" / "runs" / jwt_broken.name / name, jwt_broken / name)
    page = wait_for(
        served + "experiments/jwt/",
        lambda text: ERROR_TITLE not in text and "Which run this page shows" in text,
        120,
    )
    assert jwt_broken.name in page, "the page generated from the run that has jwt results"
    assert fetch(served + "versions/") is not None, "the generated pages are in the nav's site"


def test_zensical_from_the_root_stops_with_one_line_naming_what_to_run(repository: Path):
    result = subprocess.run(
        [str(BIN / "zensical"), "build", "-f", "mkdocs.yml"],
        cwd=repository,
        env=environment(repository),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 2
    assert generated_only.MESSAGE in result.stderr
    assert "make serve GENERATOR=zensical" in generated_only.MESSAGE
    assert "Traceback" not in result.stdout + result.stderr
    shutil.rmtree(repository / "site", ignore_errors=True)


def test_the_generated_configuration_carries_neither_the_hook_nor_the_guard(repository_build: Path):
    """The session's `python -m phpcb pages` of the repository (conftest.repository_build, which other modules
    read too): the configuration comes from the templates, whichever runs the pages show."""
    config = (repository_build / "mkdocs.yml").read_text()
    assert "hooks" not in config
    assert generated_only.NAME not in config


class WatchingServer:
    """What the hook's on_serve calls of MkDocs' LiveReloadServer: watch and unwatch, counted per path as
    MkDocs counts them (an unwatch of a path not watched raises)."""

    def __init__(self) -> None:
        self.watched: dict[str, int] = {}

    def watch(self, path: str) -> None:
        path = os.path.abspath(path)
        self.watched[path] = self.watched.get(path, 0) + 1

    def unwatch(self, path: str) -> None:
        path = os.path.abspath(path)
        self.watched[path] -= 1
        if self.watched[path] == 0:
            del self.watched[path]


def test_serve_rebuilds_on_a_change_of_the_sources_not_on_the_pages_its_build_wrote(tmp_path):
    """Each build writes the pages it changed into the generated docs_dir: watched, every change of a source
    was built twice (the second time on the pages the first one wrote)."""
    spec = importlib.util.spec_from_file_location("generated_site", ROOT / "overrides" / "hooks" / "generated_site.py")
    assert spec is not None
    assert spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    server = WatchingServer()
    docs_dir = str(tmp_path / "docs")
    server.watch(docs_dir)  # as `mkdocs serve` does before it calls on_serve
    assert hook.on_serve(server, {"docs_dir": docs_dir}, None) is server
    assert sorted(server.watched) == sorted(str(ROOT / name) for name in hook.WATCHED)

"""Shared fixtures: the repository, fixture runs, and throwaway projects built from them."""

from __future__ import annotations

import csv
import fcntl
import functools
import hashlib
import http.server
import io
import json
import os
import posixpath
import re
import shutil
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Playwright, sync_playwright

from phpcb.data import machines, seal
from phpcb.data.loader import Run, load_run, run_directories
from phpcb.data.rewrite import manifest_text
from phpcb.data.schema import load_schemas
from phpcb.pages import build as site

from .browser_support import CHROMIUM, CHROMIUM_ARGS, MODES, Profile, QuietHandler, Reading

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
FIXTURE_RUN = FIXTURES / "runs" / "20260101T0000Z-fixture-php8.2"
# Every fixture run: FIXTURE_RUN, which the host's stack makes with every experiment it can run, and one
# for each experiment only another stack can run (pq: ML-DSA needs OpenSSL 3.5, Debian 13's stack). Tests
# that need every experiment of the registry to have data build from all of them.
FIXTURE_RUNS = tuple(sorted(path for path in (FIXTURES / "runs").iterdir() if (path / "manifest.json").is_file()))


# --- the order pytest-xdist's workers take the tests in (make test: -n 2 --dist worksteal) --------------
# The longest first (measured with --durations, issue 48.4): each worker starts on its half of the list and
# steals from the end of the other's, so what is left for the end is short and both cores stay busy to it.
# (--dist loadgroup, which keeps a module's tests on one worker, cost more CPU and wall here: issue 48.4.)
LONGEST_FIRST = (
    "browser",
    "tests/test_merge_pages.py",
    "tests/test_preview_flow.py",
    "tests/test_advice.py",
    "e2e-project",
    "tests/test_end_to_end.py",
    "tests/test_artifact_comment.py",
    "tests/test_merge_effect.py",
    "tests/test_root_serve.py",
    "tests/test_fuzz_runs.py",
    "tests/test_data_failures.py",
    "tests/test_baselines.py",
    "tests/test_machines.py",
    "tests/test_native_figures.py",
    "tests/test_serve.py",
    "tests/test_ab_job.py",
    "tests/test_adding_an_experiment.py",
)


def unit_of(item: pytest.Item) -> set[str]:
    """What LONGEST_FIRST may name `item` by: its module, "browser" for a browser test, "e2e-project" for a
    test of the runner's one end-to-end run."""
    names = {item.nodeid.split("::", 1)[0]}
    if item.get_closest_marker("browser") is not None:
        names.add("browser")
    if "e2e_project" in getattr(item, "fixturenames", ()):
        names.add("e2e-project")
    return names


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        names = unit_of(item)
        return next((i for i, unit in enumerate(LONGEST_FIRST) if unit in names), len(LONGEST_FIRST))

    items.sort(key=rank)


def fixture_run_of(experiment: str) -> Path:
    """The first fixture run with results (ok or partial) for `experiment`."""
    for run in FIXTURE_RUNS:
        entry = json.loads((run / "manifest.json").read_text(encoding="utf-8"))["experiments"].get(experiment)
        if entry is not None and entry["status"] in ("ok", "partial"):
            return run
    raise LookupError(f"no fixture run under {FIXTURES / 'runs'} has results for {experiment!r}")


V1_RUN = FIXTURES / "upgrade" / "v1" / "20260101T0000Z-fixture-php8.2"
V4_RUN = FIXTURES / "upgrade" / "v4" / "20260101T0000Z-fixture-php8.2"
MALFORMED = FIXTURES / "malformed"
SNAPSHOTS = ROOT / "tests" / "snapshots"


MakeProject = Callable[..., Path]


def on_another_machine(manifest: dict[str, Any], family: int = 25, model: int = 1) -> str:
    """The manifest as a run of another CPU would record it (an AMD EPYC 7B13, Zen 3 by default: no AVX-512,
    no VAES), its machine named by that identity as the runner names it; returns the name."""
    cpu = manifest["cpu"]
    cpu["model"] = "AMD EPYC 7B13 64-Core Processor"
    cpu["identity"] = {
        "vendor_id": "AuthenticAMD",
        "family": family,
        "model": model,
        "stepping": 1,
        "microcode": None,
        "cache": None,
        "bogomips": None,
        "flags_sha256": "0" * 64,
    }
    cpu["flags"] = {**cpu["flags"], "avx512f": False, "vaes": False, "vpclmulqdq": False}
    manifest["machine"] = {"virtual": True, **manifest["machine"], "host_hash": "abcdef"}
    manifest["machine"] = machines.machine_fields(manifest, machines.recorded_identity(manifest))
    return str(manifest["machine"]["name"])


def write_manifest(run: Path, manifest: dict[str, Any]) -> None:
    """A test's own copy of a run with its manifest changed on purpose, written and re-sealed."""
    (run / "manifest.json").write_text(manifest_text(manifest), encoding="utf-8")
    reseal(run)


def reseal(run: Path) -> None:
    """A test that edits a copy of a run on purpose (to exercise a check behind the seal) re-seals it,
    as `python -m phpcb seal` would, without recording a reason: the copy is the test's own."""
    manifest_path = run / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        files = seal.listed_files(manifest)
    except (ValueError, KeyError, TypeError, AttributeError):
        return  # a manifest the test broke on purpose: its own error comes first
    if manifest.get("schema_version", 0) < seal.SEALED_FROM_VERSION or not all((run / f).is_file() for f in files):
        return
    history = (manifest.get("seal") or {}).get("resealed")  # kept: it says how the run came to be
    manifest_path.write_text(manifest_text(seal.sealed(manifest, run, manifest_text, history)), encoding="utf-8")


def committed_run_dirs(root: Path = ROOT) -> tuple[Path, ...]:
    """The run directories under `root`/data/runs/ that git tracks, oldest first (as the loader orders them).
    A run that `make report` or `make bench` left in this checkout and nobody added is the user's measurement,
    not the project's: every test of "the committed runs" walks these, and leaves it out (issue 48)."""
    listed = subprocess.run(
        ["git", "-C", str(root), "ls-files", "-z", "--", "data/runs"],
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode != 0:
        raise RuntimeError(
            f"{root}: git ls-files data/runs failed ({listed.stderr.strip()}): the tests of the committed runs "
            "tell them from a user's own runs by git, and need a git checkout"
        )
    tracked = {Path(name).parts[2] for name in listed.stdout.split("\0") if len(Path(name).parts) > 3}
    return tuple(directory for directory in run_directories(root / "data" / "runs") if directory.name in tracked)


def committed_runs(root: Path = ROOT) -> tuple[Run, ...]:
    """The committed runs (committed_run_dirs), loaded once per test process and only by the tests that read
    them (at import time, each worker would load them all whatever tests it runs)."""
    # One cache key per checkout however it is named: committed_runs() and committed_runs(ROOT) were two.
    return _committed_runs_of(root.resolve())


@functools.cache
def _committed_runs_of(root: Path) -> tuple[Run, ...]:
    schemas = load_schemas(ROOT / "data" / "schema")
    return tuple(load_run(directory, schemas) for directory in committed_run_dirs(root))


def scale_signing(run: Path, alg: str, factor: float) -> None:
    """A run's `alg` signing times multiplied by `factor` in jwt.csv, the run re-sealed (see reseal)."""
    rows = list(csv.DictReader(io.StringIO((run / "jwt.csv").read_text())))
    for row in rows:
        if row["operation"] == "sign" and row["alg"] == alg:
            row["elapsed_ns"] = str(max(1, round(int(row["elapsed_ns"]) * factor)))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (run / "jwt.csv").write_text(out.getvalue())
    reseal(run)


# The repository's small runs, all of one machine: tests of whole-repository flows (publish, preview)
# copy these, not every committed run (tens of MB, most of each build's time).
SLIM_RUNS = (
    "20261122T0034Z-vm-php8.2",
    "20261122T0245Z-vm-php8.2",
    "20261122T0309Z-vm-php8.2",
    "20261122T0342Z-vm-php8.2",
)
SLIM_MACHINE = "intel-xeon-unknown-2c-4223db"
NOT_COPIED = (".git", ".venv", ".tools", "site", "site.tmp", "preview", "tests", "__pycache__", ".pytest_cache")
NOT_COPIED += (".ruff_cache", ".mutmut-cache", "mutants", "build", ".hypothesis", ".stacks", "ab")


def not_a_plain_file(directory: str, names: list[str]) -> set[str]:
    """Device nodes, sockets and pipes: copying one reads it (a stack's /dev/zero would fill the disk)."""
    kept = set()
    for name in names:
        mode = os.lstat(os.path.join(directory, name)).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)):
            kept.add(name)
    return kept


def runs_of_stack_set(path: Path) -> list[str]:
    """The run ids a data/stacks/ file names, round by round."""
    return [run for pair in json.loads(path.read_text(encoding="utf-8"))["rounds"] for run in pair]


# What only the runner reads: the Wycheproof vectors, and all of runners/ but the snippets the pages include.
# A copy that no runner runs in leaves them out (copy_repository(runner=False)): the flows that commit,
# archive and copy their tree several times have some 10 MB and 400 files less to go through each time.
NOT_COPIED_WITHOUT_RUNNER = ("vectors",)
RUNNERS_KEPT_WITHOUT_RUNNER = ("snippets",)


def only_the_runner_reads(directory: str, names: list[str]) -> set[str]:
    """Of `names` in `directory` of the repository, those only the runner reads."""
    if Path(directory) == ROOT:
        return set(names) & set(NOT_COPIED_WITHOUT_RUNNER)
    if Path(directory) == ROOT / "runners":
        return set(names) - set(RUNNERS_KEPT_WITHOUT_RUNNER)
    return set()


def copy_repository(
    target: Path, runs: tuple[str, ...] = SLIM_RUNS, machine: str = SLIM_MACHINE, *, runner: bool = True
) -> Path:
    """The repository at `target` (no tests, caches or builds) with only `runs` under data/runs/, and a
    data/site.yaml naming their machine as the reference; with `runner=False`, without what only the runner
    reads (only_the_runner_reads): for a copy that builds, previews or publishes and runs no benchmark."""
    _copy_tree(target, runs, runner=runner)
    (target / "data" / "site.yaml").write_text(f"reference_machine: {machine}\npinned: {{}}\n", encoding="utf-8")
    return target


def committed_view(target: Path, root: Path = ROOT) -> Path:
    """The checkout at `root` copied to `target` as its tests build its site: every file as it is in the
    working tree (hard links, not copies: uncommitted code and pages are what is tested), but under data/runs/
    only the runs git tracks. A run `make report` left in the checkout is the user's measurement: it must not
    fail `make test`, as the README says (a new machine's name reshaped the Machines page on a fresh clone's
    phone check, issue 48)."""
    committed = tuple(directory.name for directory in committed_run_dirs(root))
    return _copy_tree(target, committed, runner=True, link=True, root=root)


def _copy_tree(target: Path, runs: tuple[str, ...], *, runner: bool, link: bool = False, root: Path = ROOT) -> Path:
    """The repository at `root` copied to `target` (no tests, caches or builds) with only `runs` under
    data/runs/ and the sets of stacks of only those runs; without what only the runner reads where `runner` is
    false; each file hard linked where `link` is true."""
    skip = shutil.ignore_patterns(*NOT_COPIED)

    def ignore(directory: str, names: list[str]) -> set[str]:
        ignored = set(skip(directory, names)) | not_a_plain_file(directory, names)
        if not runner:
            ignored |= only_the_runner_reads(directory, names)
        if Path(directory) == root / "data" / "runs":
            ignored |= {name for name in names if name not in runs}
        if Path(directory) == root / "data" / "stacks":  # a set of stacks is of runs: only with all of them
            ignored |= {name for name in names if not set(runs_of_stack_set(Path(directory) / name)) <= set(runs)}
        return ignored

    shutil.copytree(root, target, ignore=ignore, copy_function=os.link if link else shutil.copy2)
    return target


def copy_inputs(root: Path) -> None:
    """What a build reads besides runs, from the repository into the project at `root`: the schema, policy
    and reference data, the templates, and the snippet files the pages include (runners/snippets/)."""
    for name in ("schema", "policy", "reference"):
        shutil.copytree(ROOT / "data" / name, root / "data" / name)
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copytree(ROOT / "runners" / "snippets", root / "runners" / "snippets")


def project_with(parent: Path, *runs: Path) -> Path:
    """A project root under `parent` with the real schema, policy, reference data, templates and snippets,
    and the given runs."""
    root = parent / "project"
    (root / "data" / "runs").mkdir(parents=True)
    copy_inputs(root)
    for run in runs:
        shutil.copytree(run, root / "data" / "runs" / run.name)
    return root


@pytest.fixture(scope="session")
def fixture_run_site(tmp_path_factory: pytest.TempPathFactory) -> site.GeneratedSite:
    """The site of a project with FIXTURE_RUN alone, built once per test process for the modules that
    only read it (each built its own: 0.5 to 1 s each). Read it, never change it: the next module reads it."""
    return site.build(project_with(tmp_path_factory.mktemp("fixture-run-site"), FIXTURE_RUN))


@pytest.fixture
def make_project(tmp_path: Path) -> MakeProject:
    def make(*runs: Path) -> Path:
        return project_with(tmp_path, *runs)

    return make


UPDATING_SNAPSHOTS = os.environ.get("UPDATE_SNAPSHOTS") == "1"


def assert_snapshot(path: Path, actual: str) -> None:
    """`actual` equals the snapshot at `path`; UPDATE_SNAPSHOTS=1 rewrites it (review the diff)."""
    if UPDATING_SNAPSHOTS:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: run with UPDATE_SNAPSHOTS=1 and review it"
    assert actual == path.read_text(encoding="utf-8"), (
        f"{path.relative_to(SNAPSHOTS)} changed: rerun with UPDATE_SNAPSHOTS=1 and review the diff"
    )


def named_run(
    run_id: str,
    machine: str,
    profile: str,
    started: str,
    experiments: tuple[str, ...] = ("aead",),
    stack: str = "host",
) -> Run:
    """A run with no rows, for what the run selection reads: its machine, stack, profile, start and experiments."""
    php, openssl = ("8.4.27", "3.5.9") if stack == "debian13" else ("8.2.36", "3.0.22")
    manifest: dict[str, Any] = {
        "schema_version": 3,
        "run_id": run_id,
        "profile": profile,
        "started_utc": started,
        "libraries": {"openssl": f"OpenSSL {openssl} 1 Jan 2026", "openssl_library": f"OpenSSL {openssl} 1 Jan 2026"},
        "stack": {
            "name": stack,
            "os": "Debian",
            "host_os": "Debian",
            "php": php,
            "openssl": openssl,
            "openssl_cli": openssl,
        },
        "machine": {"name": machine, "host_hash": "abcdef"},
        "experiments": {name: {"status": "ok", "files": []} for name in experiments},
    }
    return Run.from_rows(run_id, manifest, {})


BIN = Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin"
GENERATORS = ("mkdocs", "zensical")
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "scripts")}


def generate_pages(build: Path, phpcb_root: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m phpcb pages`: the repository's (or PHPCB_ROOT's) pages into the build directory."""
    pages = [sys.executable, "-m", "phpcb", "--root", str(phpcb_root or ROOT), "pages", "--out", str(build)]
    return subprocess.run(pages, cwd=ROOT, env=ENV, capture_output=True, text=True, check=False)


def build_html(build: Path, out: Path, generator: str = "mkdocs") -> subprocess.CompletedProcess[str]:
    """The generator's strict build of a build directory into `out`."""
    config = str(build / "mkdocs.yml")
    if generator == "mkdocs":
        command = [str(BIN / "mkdocs"), "build", "--strict", "-f", config, "-d", str(out)]
    else:
        command = [str(BIN / "zensical"), "build", "--strict", "-f", config]
    result = subprocess.run(command, cwd=ROOT, env=ENV, capture_output=True, text=True, check=False)
    if generator == "zensical" and result.returncode == 0:
        shutil.rmtree(out, ignore_errors=True)
        shutil.move(build / "site", out)
    return result


def site_build(
    out: Path, phpcb_root: Path | None = None, generator: str = "mkdocs"
) -> subprocess.CompletedProcess[str]:
    """`make site` of the repository (or of PHPCB_ROOT's data) into `out`: the pages generated once
    into `out`'s sibling build directory, then HTML by the generator in strict mode."""
    build = out.with_name(f"{out.name}.build")
    generated = generate_pages(build, phpcb_root)
    return generated if generated.returncode != 0 else build_html(build, out, generator)


def _session_directory(factory: pytest.TempPathFactory) -> Path:
    """A directory this test session's processes share: under pytest-xdist, the parent of every worker's
    base; without it, the session's own base (its parent outlives the session)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _once(shared: Path, name: str, make: Callable[[], subprocess.CompletedProcess[str]]) -> None:
    """`make()` once per session, whichever worker asks first; the others wait for it."""
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / f"{name}.built").exists():
            result = make()
            assert result.returncode == 0, result.stderr
            (shared / f"{name}.built").touch()


def built_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """`make(directory)` once per session into a directory the session's processes share, whichever asks
    first (the others wait for it): for a build several tests, or both pytest-xdist workers, read."""
    shared = _session_directory(factory)
    directory = shared / name

    def made() -> subprocess.CompletedProcess[str]:
        shutil.rmtree(directory, ignore_errors=True)  # what a worker that failed here left
        directory.mkdir()
        make(directory)
        return subprocess.CompletedProcess([name], 0, "", "")

    _once(shared, name, made)
    return directory


def generated_repository(shared: Path) -> Path:
    """The repository's build directory (`python -m phpcb pages` of its committed_view), generated once in the
    session's directory `shared`."""
    build, view = shared / "repository-build", shared / "repository-view"

    def generate() -> subprocess.CompletedProcess[str]:
        shutil.rmtree(view, ignore_errors=True)  # what a worker that failed here left
        return generate_pages(build, committed_view(view))

    _once(shared, "repository-build", generate)
    return build


def shared_site(factory: pytest.TempPathFactory, generator: str) -> Path:
    """The repository's site built by `generator` from one build directory generated once per session."""
    shared = _session_directory(factory)
    build, out = generated_repository(shared), shared / f"repository-site-{generator}"
    _once(shared, f"repository-site-{generator}", lambda: build_html(build, out, generator))
    return out


@pytest.fixture(scope="session")
def repository_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's build directory (`python -m phpcb pages`), generated once per session."""
    return generated_repository(_session_directory(tmp_path_factory))


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's site built with MkDocs (`make site`), once per session."""
    return shared_site(tmp_path_factory, "mkdocs")


@pytest.fixture(scope="module")
def shared_builds() -> Iterator[dict[str, Any]]:
    """The trusted job's builds (publish/sides.by_this_code) shared between a module's tests: the same files,
    the same environment and the same code make the same side. So is the evidence of a tree's added runs
    (merge_comment.added_evidence: each beside its baseline), which a preview's comment and the posted one
    compute alike. Keyed by a digest of every file of the tree and the environment the build reads (PHPCB_*
    and PREVIEW_URL); a build that fails is not kept."""
    from phpcb.publish import merge_comment

    built: dict[str, Any] = {}
    evidence: dict[tuple[str, tuple[str, ...]], Any] = {}
    original, compared = merge_comment.by_this_code, merge_comment.added_evidence

    def cached(tree: Path, statements: Any = None) -> Any:
        if statements is not None:
            return original(tree, statements)
        key = _tree_digest(tree)
        if key not in built:
            built[key] = original(tree)
        return built[key]

    def cached_evidence(root: Path, added: Any) -> Any:
        if not added:
            return compared(root, added)  # nothing to compare: no digest of the tree
        key = (_tree_digest(root), tuple(added))
        if key not in evidence:
            evidence[key] = compared(root, added)
        return evidence[key]

    patch = pytest.MonkeyPatch()
    patch.setattr(merge_comment, "by_this_code", cached)
    patch.setattr(merge_comment, "added_evidence", cached_evidence)
    yield built
    patch.undo()


def _tree_digest(tree: Path) -> str:
    """The files a build of `tree` reads (everything but bytecode), and the variables that change a build."""
    digest = hashlib.sha256()
    for path in sorted(p for p in tree.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(tree).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for name in sorted(os.environ):
        if name.startswith("PHPCB_") or name == "PREVIEW_URL":
            digest.update(f"{name}={os.environ[name]}\0".encode())
    return digest.hexdigest()


def run_file_links(listing: list[str], read: Callable[[str], str]) -> list[tuple[str, str]]:
    """(page, target) of every link from an HTML page of a gh-pages tree to a run's file (a path with
    `runs/<run-id>/<file>`), the target resolved from the page's address, as the browser resolves it."""
    found = []
    for page in listing:
        if page.endswith(".html"):
            for href in re.findall(r'href="([^"#?]*runs/[^"#?/]+/[^"#?/]+\.(?:gz|json))"', read(page)):
                found.append((page, posixpath.normpath(posixpath.join(posixpath.dirname(page), href))))
    return found


def assert_each_run_file_once_and_compressed(listing: list[str], runs: Path) -> None:
    """Each CSV of each run under `runs` is on the tree once, gzip-compressed, and never as it is."""
    for manifest in runs.glob("*/manifest.json"):
        run_id = manifest.parent.name
        for name in seal.listed_files(json.loads(manifest.read_text(encoding="utf-8"))):
            copies = [path for path in listing if path.endswith(f"/{run_id}/{name}.gz")]
            assert len(copies) == 1, f"{run_id}/{name}.gz: {copies}"
            assert not [path for path in listing if path.endswith(f"/{run_id}/{name}")], f"{run_id}/{name} as it is"


def assert_no_symlinks(tree: str) -> None:
    """GitHub Pages' branch deploy may refuse a symlink (git mode 120000): none on gh-pages."""
    links = [line.split("\t")[-1] for line in tree.splitlines() if line.startswith("120000 ")]
    assert tree.strip(), "an empty tree proves nothing"
    assert links == []


# --- headless Chromium, for the browser tests (tests/browser_support.py has their helpers) -----------


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The repository's site as each generator builds it from the same build directory, served over HTTP
    (once per test process: every browser test reads these two builds)."""
    servers = {
        generator: http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0),
            functools.partial(QuietHandler, directory=str(shared_site(tmp_path_factory, generator))),
        )
        for generator in GENERATORS
    }
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield {generator: f"http://127.0.0.1:{server.server_port}/" for generator, server in servers.items()}
    for server in servers.values():
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def base_url(served: dict[str, str]) -> str:
    """The MkDocs build: the checks of how charts read run on it; both builds load every page."""
    return served["mkdocs"]


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Playwright]:
    """Playwright, started once per test process by its first browser test and stopped at the session's end."""
    assert Path(CHROMIUM).exists(), "Debian's chromium is missing: run `make setup`"
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def contexts(playwright_driver: Playwright, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Reading]]:
    """Each way of reading (MODES: light at 1280 × 900, dark on a phone), by name, in the test process's
    Chromium profile (browser_support.Profile), launched by the first page read."""
    profile = Profile(
        lambda: playwright_driver.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium")), executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
    )
    yield {mode: Reading(profile, mode) for mode in MODES}
    profile.close()

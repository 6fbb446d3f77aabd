"""Shared fixtures: the repository, fixture runs, and throwaway projects built from them."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from phpcb.loader import Run

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
FIXTURE_RUN = FIXTURES / "runs" / "20260101T0000Z-fixture-php8.2"
V1_RUN = FIXTURES / "upgrade" / "v1" / "20260101T0000Z-fixture-php8.2"
V4_RUN = FIXTURES / "upgrade" / "v4" / "20260101T0000Z-fixture-php8.2"
MALFORMED = FIXTURES / "malformed"
SNAPSHOTS = ROOT / "tests" / "snapshots"

MakeProject = Callable[..., Path]


def project_with(parent: Path, *runs: Path) -> Path:
    """A project root under `parent` with the real schema, policy, reference data and templates, and the given runs."""
    root = parent / "project"
    (root / "data" / "runs").mkdir(parents=True)
    for name in ("schema", "policy", "reference"):
        shutil.copytree(ROOT / "data" / name, root / "data" / name)
    shutil.copytree(ROOT / "templates", root / "templates")
    for run in runs:
        shutil.copytree(run, root / "data" / "runs" / run.name)
    return root


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


def named_run(run_id: str, machine: str, profile: str, started: str, experiments: tuple[str, ...] = ("aead",)) -> Run:
    """A run with no rows, for what the run selection reads: its machine, profile, start and experiments."""
    manifest: dict[str, Any] = {
        "schema_version": 3,
        "run_id": run_id,
        "profile": profile,
        "started_utc": started,
        "machine": {"name": machine, "host_hash": "abcdef"},
        "experiments": {name: {"status": "ok", "files": []} for name in experiments},
    }
    return Run.from_rows(run_id, manifest, {})

"""Shared fixtures: the repository, fixture runs, and throwaway projects built from them."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

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

"""Leave-one-boot-out coverage (compare/coverage.py): whether a page's interval across runs holds for a run
of a boot the model did not see. Four copies of the fixture run (fake clock: identical numbers), two per
boot; the second boot's ES256 verification slowed where a test says so."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from phpcb.compare import coverage
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry
from phpcb.experiments.contexts import Project

from .conftest import FIXTURE_RUN, ROOT, reseal, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")
JWT = [e for e in registry.discover() if e.name == "jwt"]
BOOTS = ("a" * 8 + "-0000-4000-8000-" + "0" * 12, "b" * 8 + "-0000-4000-8000-" + "0" * 12)


def slow_verification(run: Path, alg: str, factor: float) -> None:
    rows = list(csv.DictReader(io.StringIO((run / "jwt.csv").read_text())))
    for row in rows:
        if row["operation"] == "verify" and row["alg"] == alg:
            row["elapsed_ns"] = str(round(int(row["elapsed_ns"]) * factor))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (run / "jwt.csv").write_text(out.getvalue())
    reseal(run)


def runs_of_two_boots(tmp_path: Path, slower: float | None = None) -> list:
    loaded = []
    for index in range(4):
        run_id = FIXTURE_RUN.name.replace("0000Z", f"000{index}Z")
        target = shutil.copytree(FIXTURE_RUN, tmp_path / run_id)
        manifest = json.loads((target / "manifest.json").read_text())
        manifest["run_id"] = run_id
        manifest["boot"] = {"id": BOOTS[index // 2], "uptime_s": 60}
        write_manifest(target, manifest)
        if slower is not None and index >= 2:
            slow_verification(target, "ES256", slower)
        loaded.append(load_run(target, SCHEMAS))
    return loaded


def test_the_same_numbers_on_another_boot_are_covered(tmp_path):
    contexts = coverage.WithinRun(Project(ROOT), SCHEMAS)
    (jwt,) = coverage.leave_one_boot_out(runs_of_two_boots(tmp_path), JWT, SCHEMAS, contexts)
    # 6 headlines (3 algorithms' verification, the 3 picks with their times) × 2 runs left in × 2 runs held
    # out, each boot left out in turn.
    assert (jwt.covered, jwt.total) == (48, 48)
    assert jwt.boots_in_models == {1}, "with two boots, each model left in rests on one"
    assert jwt.meets_goal


def test_a_boot_whose_es256_verification_is_half_as_fast_again_falls_outside(tmp_path):
    contexts = coverage.WithinRun(Project(ROOT), SCHEMAS)
    (jwt,) = coverage.leave_one_boot_out(runs_of_two_boots(tmp_path, slower=1.5), JWT, SCHEMAS, contexts)
    # The fastest to verify is no longer a three-way tie with ES256 on the slower boot: that pick's 8 pairs
    # compare two picks, not one number, and are left out.
    assert jwt.other_picks == 8
    assert jwt.total == 40
    assert {miss.key for miss in jwt.misses} == {"jwt.verify.ES256"}
    assert len(jwt.misses) == 8, "each of its 2 × 2 pairs, whichever boot is left out"
    assert jwt.share == pytest.approx(32 / 40)
    assert not jwt.meets_goal
    assert "below the 90 % goal" in coverage.report([jwt])


def test_runs_of_one_boot_cannot_say(tmp_path):
    runs = runs_of_two_boots(tmp_path)[:2]
    with pytest.raises(coverage.CoverageError, match="leave-one-boot-out needs two"):
        coverage.leave_one_boot_out(runs, JWT, SCHEMAS, coverage.WithinRun(Project(ROOT), SCHEMAS))

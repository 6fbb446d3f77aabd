"""Leave-one-boot-out coverage (compare/coverage.py): whether a page's interval across runs holds for a run
of a boot the model did not see. Four copies of the fixture run (fake clock: identical numbers), two per
boot; the second boot's ES256 verification slowed where a test says so."""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from phpcb.compare import comparison, coverage
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry
from phpcb.experiments.contexts import Project

from .conftest import FIXTURE_RUN, FIXTURE_RUNS, ROOT, reseal, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")
JWT = [e for e in registry.discover() if e.name == "jwt"]
PQ = [e for e in registry.discover() if e.name == "pq"]
DEBIAN13_RUN = next(path for path in FIXTURE_RUNS if path.name.endswith("-debian13"))
BOOTS = tuple(letter * 8 + "-0000-4000-8000-" + "0" * 12 for letter in "abc")


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


def runs_on(
    tmp_path: Path, boots: Sequence[str], slower: float | None = None, slowed: int = 2, fixture: Path = FIXTURE_RUN
) -> list:
    """A copy of the fixture run on each of `boots`, in run-id order; from the `slowed`-th on (0-based), ES256
    verification `slower` times as slow."""
    loaded = []
    for index, boot in enumerate(boots):
        run_id = fixture.name.replace("0000Z", f"000{index}Z")
        target = shutil.copytree(fixture, tmp_path / run_id)
        manifest = json.loads((target / "manifest.json").read_text())
        manifest["run_id"] = run_id
        manifest["boot"] = {"id": boot, "uptime_s": 60}
        write_manifest(target, manifest)
        if slower is not None and index >= slowed:
            slow_verification(target, "ES256", slower)
        loaded.append(load_run(target, SCHEMAS))
    return loaded


def runs_of_two_boots(
    tmp_path: Path, slower: float | None = None, per_boot: int = 2, slowed: int = 2, fixture: Path = FIXTURE_RUN
) -> list:
    """`per_boot` copies of the fixture run on each of two boots (runs_on)."""
    return runs_on(tmp_path, [BOOTS[index // per_boot] for index in range(2 * per_boot)], slower, slowed, fixture)


@pytest.fixture(scope="module")
def two_boots(tmp_path_factory: pytest.TempPathFactory) -> list:
    """runs_of_two_boots as it is, for the tests that only read the runs (made and loaded once, not per test)."""
    return runs_of_two_boots(tmp_path_factory.mktemp("two-boots"))


def test_the_same_numbers_on_another_boot_are_covered(two_boots):
    contexts = coverage.WithinRun(Project(ROOT), SCHEMAS)
    (jwt,) = coverage.leave_one_boot_out(two_boots, JWT, SCHEMAS, contexts)
    # 7 headlines (3 algorithms' verification, EdDSA's margin over ES256, the 3 picks with their times) × 2
    # runs left in × 2 runs held out, each boot left out in turn.
    assert (jwt.covered, jwt.total) == (56, 56)
    assert jwt.boots_in_models == {1}, "with two boots, each model left in rests on one"
    assert jwt.meets_goal


def test_a_boot_whose_es256_verification_is_half_as_fast_again_falls_outside(tmp_path):
    contexts = coverage.WithinRun(Project(ROOT), SCHEMAS)
    (jwt,) = coverage.leave_one_boot_out(runs_of_two_boots(tmp_path, slower=1.5), JWT, SCHEMAS, contexts)
    # The fastest to verify is no longer a three-way tie with ES256 on the slower boot: that pick's 8 pairs
    # compare two picks, not one number, and are left out. EdDSA's margin over ES256 moves with ES256.
    assert jwt.other_picks == 8
    assert jwt.total == 48
    assert {miss.key for miss in jwt.misses} == {"jwt.verify.ES256", "jwt.verify.EdDSA.over.ES256"}
    assert len(jwt.misses) == 16, "each of their 2 × 2 pairs, whichever boot is left out"
    assert jwt.share == pytest.approx(32 / 48)
    assert not jwt.meets_goal
    assert "below the 90 % goal" in coverage.report([jwt])


def test_runs_of_one_boot_cannot_say(two_boots):
    runs = two_boots[:2]
    with pytest.raises(coverage.CoverageError, match="leave-one-boot-out needs two"):
        coverage.leave_one_boot_out(runs, JWT, SCHEMAS, coverage.WithinRun(Project(ROOT), SCHEMAS))


def test_held_out_pairs_of_two_boots_that_differ_by_nothing_flag_nothing(tmp_path):
    """Three runs per boot: each of the 3 × 3 pairs across the boots is judged by the model of the other four."""
    pairs = coverage.held_out_pairs(runs_of_two_boots(tmp_path, per_boot=3), JWT, SCHEMAS)
    assert len(pairs) == 9
    assert all(pair.tested > 0 for pair in pairs)
    assert [pair.flagged for pair in pairs] == [0] * 9
    assert coverage.pairs_report(pairs).endswith(
        "flagged (false alarms) median 0.0%, most 0.0% "
        + (f"(0 of {pairs[0].tested:,} cases, {pairs[0].base} → {pairs[0].new})")
    )


def test_a_held_out_run_that_differs_is_flagged_and_the_report_says_it_misses_the_goal(tmp_path):
    """The last run of the second boot verifies ES256, RS256 and PS256 half as slow again: every pair it is in
    flags their verification cases (the model of the others has no spread to excuse it); the other pairs none."""
    runs = runs_of_two_boots(tmp_path, slower=1.5, per_boot=3, slowed=5)
    for alg in ("RS256", "PS256"):  # with ES256, 12 of the 117 cases: above the goal
        slow_verification(tmp_path / runs[5].run_id, alg, 1.5)
    runs[5] = load_run(tmp_path / runs[5].run_id, SCHEMAS)
    pairs = coverage.held_out_pairs(runs, JWT, SCHEMAS)
    slowed = runs[5].run_id
    assert {pair.new for pair in pairs if pair.flagged} == {slowed}
    assert all(pair.flagged > 0 for pair in pairs if pair.new == slowed)
    worst = max(pair.share for pair in pairs)
    assert worst > coverage.FALSE_ALARM_GOAL
    assert "(above the 5% goal)" in coverage.pairs_report(pairs)


def test_held_out_pairs_need_two_runs_of_each_boot_beside_the_pair(two_boots):
    assert coverage.held_out_pairs(two_boots, JWT, SCHEMAS) == []
    assert "none (each boot needs three runs" in coverage.pairs_report([])


def test_held_out_pairs_of_another_stack_are_judged_by_that_stacks_model(tmp_path, monkeypatch):
    """The model of the other runs is keyed by its profile and stack: a Debian 13 pair found none under the
    profile's name alone, and was judged by its own spread."""
    found = []
    judge = comparison.compare

    def spying(base, new, schemas, experiments, **options):  # type: ignore[no-untyped-def]
        found.append(comparison.applicable_model(options.get("model"), base, new))
        return judge(base, new, schemas, experiments, **options)

    monkeypatch.setattr(comparison, "compare", spying)
    pairs = coverage.held_out_pairs(runs_of_two_boots(tmp_path, per_boot=3, fixture=DEBIAN13_RUN), PQ, SCHEMAS)
    assert len(pairs) == 9
    assert [model.stack if model is not None else None for model in found] == ["debian13"] * 9


def test_runs_no_one_model_is_of_are_refused_naming_why(tmp_path):
    host = runs_of_two_boots(tmp_path / "host")
    other = runs_of_two_boots(tmp_path / "other", fixture=DEBIAN13_RUN)
    contexts = coverage.WithinRun(Project(ROOT), SCHEMAS)
    with pytest.raises(
        coverage.CoverageError,
        match=r"coverage: the runs are of 2 machine\(s\) .* a noise model is of one machine and one profile",
    ):
        coverage.held_out_pairs([*host, *other], JWT, SCHEMAS)
    with pytest.raises(coverage.CoverageError, match=r"coverage: the runs are of 2 machine\(s\)"):
        coverage.leave_one_boot_out([*host, *other], JWT, SCHEMAS, contexts)
    busy = host[-1].directory
    manifest = json.loads((busy / "manifest.json").read_text())
    reading = {"load_average": [1.9, 1.0, 0.5], "governor": None, "frequency_mhz": None}
    manifest["experiments"]["jwt"]["system"] = {
        "before": {**reading, "cpu_ticks": {"total": 0, "idle": 0, "steal": 0}, "own_cpu_ns": 0},
        "after": {**reading, "cpu_ticks": {"total": 1000, "idle": 100, "steal": 0}, "own_cpu_ns": 10**9},
    }
    write_manifest(busy, manifest)
    host[-1] = load_run(busy, SCHEMAS)
    with pytest.raises(
        coverage.CoverageError, match=f"coverage: .* on a busy machine: {host[-1].run_id}: other processes used 80.0 %"
    ):
        coverage.held_out_pairs(host, JWT, SCHEMAS)


def test_a_time_the_model_widens_past_a_small_move_is_covered_and_the_ratio_it_moves_is_not(tmp_path):
    """ES256 verification 4 % slower on the second boot: beyond its within-run interval, but the one-boot
    model widens a time by its stated allowance (±10 %), which covers it; EdDSA's margin over ES256 moves by
    the same 4 %, beyond what a ratio of two cases of identical runs varies by. The fastest to verify is no
    longer a tie with ES256 there: its 8 pairs compare two picks. Each miss names the run that printed the
    interval and the run outside it."""
    runs = runs_of_two_boots(tmp_path, slower=1.04)
    (jwt,) = coverage.leave_one_boot_out(runs, JWT, SCHEMAS, coverage.WithinRun(Project(ROOT), SCHEMAS))
    assert (jwt.covered, jwt.total, jwt.other_picks) == (40, 48, 8)
    assert {miss.key for miss in jwt.misses} == {"jwt.verify.EdDSA.over.ES256"}
    first, second = {run.run_id for run in runs[:2]}, {run.run_id for run in runs[2:]}
    crossing = {(a, b) for a in first for b in second} | {(b, a) for a in first for b in second}
    assert {(miss.reference, miss.held_out) for miss in jwt.misses} == crossing


def test_a_boot_whose_others_make_no_model_is_skipped_and_the_next_is_left_out(tmp_path):
    """Boot a has two runs, boot b one: left out first, a leaves b's one run, no spread between runs; then b
    is left out, judged by the model of a's two (7 headlines × 2 runs left in × 1 held out)."""
    runs = runs_on(tmp_path, [BOOTS[0], BOOTS[0], BOOTS[1]])
    (jwt,) = coverage.leave_one_boot_out(runs, JWT, SCHEMAS, coverage.WithinRun(Project(ROOT), SCHEMAS))
    assert (jwt.covered, jwt.total) == (14, 14)


def test_a_headline_one_run_lacks_is_skipped_for_that_run_alone(two_boots, monkeypatch):
    """The first run of the second boot prints no ES256 verification time: the 2 intervals it would be held
    against and the 2 it would print go uncounted; the other run of its boot is still held against both."""
    lacking = two_boots[2].run_id
    headlines = coverage._headlines

    def without_es256(experiment, run, contexts):  # type: ignore[no-untyped-def]
        found = headlines(experiment, run, contexts)
        return {k: h for k, h in found.items() if k != "jwt.verify.ES256"} if run.run_id == lacking else found

    monkeypatch.setattr(coverage, "_headlines", without_es256)
    (jwt,) = coverage.leave_one_boot_out(two_boots, JWT, SCHEMAS, coverage.WithinRun(Project(ROOT), SCHEMAS))
    assert (jwt.covered, jwt.total) == (52, 52)


def test_a_pair_whose_other_runs_make_no_model_is_skipped_and_the_next_is_judged(tmp_path):
    """Two runs of boot c, one of a, one of b: each pair across boots but one leaves a run of two boots, no
    spread between runs; the pair of a and b leaves c's two, and is judged."""
    runs = runs_on(tmp_path, [BOOTS[2], BOOTS[2], BOOTS[0], BOOTS[1]])
    pairs = coverage.held_out_pairs(runs, JWT, SCHEMAS)
    assert [(pair.base, pair.new, pair.flagged) for pair in pairs] == [(runs[2].run_id, runs[3].run_id, 0)]


def test_the_pairs_report_marks_only_a_share_above_the_goal():
    at_goal = [coverage.HeldOutPair("base", "new", 5, 100), coverage.HeldOutPair("base", "other", 1, 100)]
    assert coverage.pairs_report(at_goal) == (
        "held-out pairs of two boots: 2 pairs, each judged by the model of the other runs; "
        "flagged (false alarms) median 3.0%, most 5.0% (5 of 100 cases, base → new)"
    )
    above = [coverage.HeldOutPair("base", "new", 6, 100)]
    assert coverage.pairs_report(above).endswith("(6 of 100 cases, base → new)  (above the 5% goal)")
    assert coverage.pairs_report([]) == (
        "held-out pairs of two boots: none (each boot needs three runs: two stay in the model)"
    )


def test_the_report_lists_the_three_widest_misses_first_and_totals_every_experiment():
    misses = [
        coverage.Miss("below.far", "r", "h", 0.45, 0.9, 1.35),
        coverage.Miss("above.near", "r", "h", 1.755, 0.9, 1.35),
        coverage.Miss("below.near", "r", "h", 0.72, 0.9, 1.08),
        coverage.Miss("above.far", "r", "h", 15.6, 10.0, 12.0),
    ]
    jwt = coverage.Coverage("jwt", covered=40, total=48, misses=misses, boots_in_models={2, 1}, other_picks=8)
    aead = coverage.Coverage("aead", covered=20, total=20, boots_in_models={2})
    assert coverage.report([jwt, aead]).splitlines() == [
        "experiment    covered   share  models from  misses (largest first)",
        "jwt           40/48    83.3%  1/2 boot(s)  below.far 0.45 outside 0.9–1.35; above.far 15.6 outside 10–12; "
        "above.near 1.755 outside 0.9–1.35  (below the 90 % goal) (8 of another pick not compared)",
        "aead          20/20   100.0%  2 boot(s)    ",
        "all           60/68    88.2%",
    ]
    assert math.isnan(coverage.Coverage("pq").share)
    assert coverage.report([]).splitlines()[-1] == "all            0/0      nan%"

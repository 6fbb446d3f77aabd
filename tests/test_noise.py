"""The between-run noise model (issue 26): estimated from repeated runs of one machine, stored as data
with the runs it came from, and used by the pages (intervals across runs) and by `compare`."""

from __future__ import annotations

import copy
import json
import math
import re
import shutil

import numpy as np
import pytest

from phpcb.commands import noise as noise_commands
from phpcb.compare import comparison, noise
from phpcb.data import noise_model
from phpcb.data.loader import Run
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError
from phpcb.experiments import registry
from phpcb.pages import build as site
from phpcb.statistics.spread import ONE_BOOT_ALLOWANCE_LOG_SD, UNKNOWN, run_spread

from .conftest import FIXTURE_RUN, ROOT, project_with

SCHEMAS = load_schemas(ROOT / "data" / "schema")
JWT = next(e for e in registry.discover() if e.name == "jwt")
FIXTURE_MANIFEST = json.loads((FIXTURE_RUN / "manifest.json").read_text(encoding="utf-8"))
MACHINE = FIXTURE_MANIFEST["machine"]["name"]
ALGORITHMS = [f"A{i:02d}" for i in range(40)]


def run_of(
    index: int,
    run_shift: float,
    residuals: np.ndarray,
    profile: str = "quick",
    machine: str = MACHINE,
    base: float = 1000,
    without: str = "",
) -> Run:
    """One run: 40 sign cases at one payload (less `without`), each case's times its base × the run's shift
    × its residual."""
    manifest = copy.deepcopy(FIXTURE_MANIFEST)
    run_id = f"2026010{index}T0000Z-noise-php8.2"
    manifest.update(run_id=run_id, profile=profile)
    manifest["machine"]["name"] = machine
    manifest["experiments"] = {"jwt": {"status": "ok", "reason": None, "duration_s": 1.0, "files": ["jwt.csv"]}}
    rows = []
    for case, (alg, residual) in enumerate(zip(ALGORITHMS, residuals, strict=True)):
        if alg == without:
            continue
        center = (base + 50 * case) * math.exp(run_shift + residual)
        for sample in range(7):
            rows.append(
                {
                    "alg": alg,
                    "payload_chars": 100,
                    "operation": "sign",
                    "sample": sample,
                    "iterations": 1,
                    "elapsed_ns": round(center * (1 + 0.001 * (sample - 3))),
                }
            )
    return Run.from_rows(run_id, manifest, {"jwt.csv": rows})


def repeated(shifts: list[float], residual_sd: float = 0.03, seed: int = 7) -> list[Run]:
    rng = np.random.default_rng(seed)
    return [run_of(i, shift, rng.normal(0, residual_sd, len(ALGORITHMS))) for i, shift in enumerate(shifts)]


def test_the_shift_and_residual_spread_are_recovered_from_repeated_runs():
    shifts = [0.0, 0.2, -0.1, 0.15, -0.05]
    machine, model = noise.estimate(repeated(shifts, residual_sd=0.03), [JWT], SCHEMAS)
    assert machine == MACHINE
    (label, found), *_ = model.classes["jwt"].items()
    assert label == "operation=sign · payload_chars=100"
    assert found.cases == 40
    assert found.shift_log_sd == pytest.approx(np.std(shifts, ddof=1), rel=0.1)
    assert found.residual_log_sd == pytest.approx(0.03, rel=0.35)
    assert found.run_log_sd == pytest.approx(math.hypot(found.shift_log_sd, found.residual_log_sd))
    assert len(model.cases["jwt"]) == 40, "five runs: each case's own spread too"
    assert model.runs == tuple(sorted(run.run_id for run in repeated(shifts, 0.03)))


def test_fewer_than_five_runs_keep_the_class_spread_only():
    _, model = noise.estimate(repeated([0.0, 0.1, -0.1], residual_sd=0.02), [JWT], SCHEMAS)
    assert model.cases == {}
    assert model.residual("jwt", "operation=sign · payload_chars=100", "A00 · 100 · sign") == pytest.approx(
        model.classes["jwt"]["operation=sign · payload_chars=100"].residual_log_sd
    )


@pytest.mark.parametrize(
    ("runs", "message"),
    [
        (lambda: repeated([0.0])[:1], "at least 2 runs"),
        (
            lambda: [run_of(0, 0, np.zeros(40)), run_of(1, 0, np.zeros(40), profile="full")],
            "profile(s) ['full', 'quick']: a noise model is of one machine and one profile",
        ),
        (lambda: [run_of(0, 0, np.zeros(40)), run_of(1, 0, np.zeros(40), machine="other-abc123")], "machine(s)"),
    ],
    ids=["one run", "two profiles", "two machines"],
)
def test_runs_that_cannot_make_one_model_are_refused(runs, message):
    with pytest.raises(noise_model.NoiseError, match=re.escape(message)):
        noise.estimate(runs(), [JWT], SCHEMAS)


def test_the_model_is_saved_whole_and_read_back(tmp_path):
    _, model = noise.estimate(repeated([0.0, 0.1, -0.05]), [JWT], SCHEMAS)
    path = noise_model.save(tmp_path, MACHINE, model)
    assert path == tmp_path / "data" / "noise" / f"{MACHINE}.json"
    loaded = noise_model.load(tmp_path, MACHINE)
    assert loaded is not None
    assert loaded.profiles["quick"].runs == model.runs
    found, original = loaded.profiles["quick"].classes["jwt"], model.classes["jwt"]
    for label in original:
        assert found[label].shift_log_sd == pytest.approx(original[label].shift_log_sd, abs=1e-5)
    full = noise_model.ProfileNoise("full", ("a", "b"), model.classes)
    noise_model.save(tmp_path, MACHINE, full)
    assert set(noise_model.load(tmp_path, MACHINE).profiles) == {"quick", "full"}, "a profile is added, not replaced"
    assert not list(path.parent.glob("*.tmp")), "written through a temporary file"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(format_version=99), "format_version: expected 2, got 99"),
        (lambda d: d.update(machine="someone-else"), "machine: expected"),
        (lambda d: d["profiles"]["quick"].update(runs=["only-one"]), "expected the ids of at least 2 runs"),
        (
            lambda d: next(iter(d["profiles"]["quick"]["classes"]["jwt"].values())).update(shift_log_sd=-1),
            "expected a non-negative number",
        ),
    ],
    ids=["version", "machine", "runs", "negative spread"],
)
def test_a_malformed_model_is_refused_naming_the_file_and_entry(tmp_path, edit, message):
    _, model = noise.estimate(repeated([0.0, 0.1, -0.05]), [JWT], SCHEMAS)
    path = noise_model.save(tmp_path, MACHINE, model)
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        noise_model.load(tmp_path, MACHINE)
    assert caught.value.path == path
    assert message in str(caught.value)


def test_a_run_of_another_profile_borrows_the_model_and_says_so():
    classes = {"jwt": {"all": noise_model.ClassNoise(40, 0.1, 0.02)}}
    model = noise_model.NoiseModel(MACHINE, {"quick": noise_model.ProfileNoise("quick", ("a", "b", "c"), classes)})
    spread = run_spread(model, MACHINE, "full", "host", "jwt")
    assert spread.stand_in
    # one boot: the run-level SD and the stated allowance for another boot, in quadrature
    assert spread.log_sd == pytest.approx(math.hypot(0.1, 0.02, ONE_BOOT_ALLOWANCE_LOG_SD))
    assert run_spread(model, "another-machine", "quick", "host", "jwt") == UNKNOWN
    assert run_spread(model, MACHINE, "quick", "host", "aead") == UNKNOWN, "no class of that experiment"
    low, high = spread.widen(100.0, 99.0, 101.0)
    assert low == pytest.approx(100 / math.exp(1.96 * spread.log_sd), rel=1e-3)
    assert high == pytest.approx(100 * math.exp(1.96 * spread.log_sd), rel=1e-3)
    assert spread.widen(100.0, 50.0, 300.0) == (50.0, 300.0), "never narrower than the run's own CI"


def on_stack(run: Run, stack: str) -> Run:
    """The run as if measured on another stack (its manifest's stack name; its rows unchanged)."""
    manifest = copy.deepcopy(run.manifest)
    manifest["stack"]["name"] = stack
    return Run.from_rows(run.run_id, manifest, {"jwt.csv": run.frames["jwt.csv"].to_pylist()})


def test_a_model_is_of_one_stacks_runs_and_answers_for_that_stack_only(tmp_path):
    runs = repeated([0.0, 0.1, -0.05])
    with pytest.raises(noise_model.NoiseError, match=r"of 2 stacks \['debian13', 'host'\]: a noise model is of one"):
        noise.estimate([*runs[:2], on_stack(runs[2], "debian13")], [JWT], SCHEMAS)
    _, host = noise.estimate(runs, [JWT], SCHEMAS)
    _, other = noise.estimate(repeated([0.0, 0.3, -0.2], seed=8), [JWT], SCHEMAS)
    other = noise_model.ProfileNoise(other.profile, other.runs, other.classes, other.cases, other.boots, {}, "debian13")
    noise_model.save(tmp_path, MACHINE, host)
    path = noise_model.save(tmp_path, MACHINE, other)
    assert set(json.loads(path.read_text(encoding="utf-8"))["profiles"]) == {"quick", "quick@debian13"}
    model = noise_model.load(tmp_path, MACHINE)
    assert model is not None
    assert (
        run_spread(model, MACHINE, "quick", "debian13", "jwt").log_sd
        > run_spread(model, MACHINE, "quick", "host", "jwt").log_sd
    ), "each stack's runs get their own stack's spread"
    assert model.for_run("full", "debian13") == (model.profiles["quick@debian13"], True), "a stand-in of its stack"
    assert run_spread(model, MACHINE, "quick", "debian12-sury", "jwt") == UNKNOWN, "never another stack's model"


def busy_while_measuring(run: Run) -> Run:
    """The run as if other processes used 80 % of all cores' time while it measured jwt."""
    manifest = copy.deepcopy(run.manifest)
    reading = {"load_average": [1.9, 1.0, 0.5], "governor": None, "frequency_mhz": None}
    manifest["experiments"]["jwt"]["system"] = {
        "before": {**reading, "cpu_ticks": {"total": 0, "idle": 0, "steal": 0}, "own_cpu_ns": 0},
        "after": {**reading, "cpu_ticks": {"total": 1000, "idle": 100, "steal": 0}, "own_cpu_ns": 10**9},
    }
    return Run.from_rows(run.run_id, manifest, {"jwt.csv": run.frames["jwt.csv"].to_pylist()})


def test_a_run_measured_on_a_busy_machine_is_refused_naming_it():
    """Two runs of one stack measured while both stacks ran at once took 2x as long in places: the spread of
    a busy run is load, not the machine's noise (compare/load.py)."""
    runs = repeated([0.0, 0.1, -0.05])
    with pytest.raises(noise_model.NoiseError) as caught:
        noise.estimate([*runs[:2], busy_while_measuring(runs[2])], [JWT], SCHEMAS)
    assert str(caught.value) == (
        "a noise model is of quiet runs, and 1 experiment(s) measured on a busy machine: "
        f"{runs[2].run_id}: other processes used 80.0 % of all cores' time while it measured jwt; leave those runs out"
    )


def recorded(run: Run, machine: str = MACHINE) -> Run:
    """The run with its machine's identity recorded (family and model read from the CPU), named `machine`."""
    manifest = copy.deepcopy(run.manifest)
    manifest["machine"].update(name=machine, identity_source="recorded")
    manifest["machine"]["identity"].update(family=6, model=106, stepping=6, microarchitecture="icelake")
    return Run.from_rows(run.run_id, manifest, {"jwt.csv": run.frames["jwt.csv"].to_pylist()})


def test_every_run_makes_a_model_per_machine_profile_and_stack_from_its_quiet_runs(tmp_path, capsys):
    host = [recorded(run) for run in repeated([0.0, 0.1, -0.05])]
    other = [recorded(on_stack(run, "debian13")) for run in repeated([0.0, 0.2, -0.1], seed=9)]
    busy = recorded(busy_while_measuring(run_of(5, 0.5, np.zeros(len(ALGORITHMS)))))
    lone = recorded(run_of(6, 0.0, np.zeros(len(ALGORITHMS))), "intel-xeon-icelake-2c-abc123")
    unknown = [run_of(7, 0.0, np.zeros(len(ALGORITHMS)), machine="amd-epyc-unknown-2c-def456")] * 2
    every = [*host, busy, *other, lone, *unknown]
    groups = noise.model_groups(every)
    assert {key: [run.run_id for run in runs] for key, runs in groups.items()} == {
        (MACHINE, "quick", "host"): [run.run_id for run in [*host, busy]],
        (MACHINE, "quick", "debian13"): [run.run_id for run in other],
        ("intel-xeon-icelake-2c-abc123", "quick", "host"): [lone.run_id],
        ("amd-epyc-unknown-2c-def456", "quick", "host"): [run.run_id for run in unknown],
    }
    assert noise.busy_experiments(busy, [JWT]) != []
    assert noise.busy_experiments(host[0], [JWT]) == []
    assert noise_commands.from_every_run(tmp_path, every, [JWT], SCHEMAS) == 0
    model = noise_model.load(tmp_path, MACHINE)
    assert model is not None
    assert model.profiles["quick"].runs == tuple(run.run_id for run in host), "the busy run left out"
    assert model.profiles["quick@debian13"].runs == tuple(run.run_id for run in other)
    assert noise_model.load(tmp_path, "intel-xeon-icelake-2c-abc123") is None
    assert noise_model.load(tmp_path, "amd-epyc-unknown-2c-def456") is None
    said = capsys.readouterr().out
    assert f"{MACHINE}, quick profile, stack host: left out {busy.run_id}, measured on a busy machine" in said
    assert "intel-xeon-icelake-2c-abc123, quick profile, stack host: no model from 1 quiet run(s): " in said
    assert (
        "amd-epyc-unknown-2c-def456, quick profile, stack host: no model from every run: its identity is not " in said
    )
    assert noise_commands.from_every_run(tmp_path, [lone], [JWT], SCHEMAS) == 1, "no group could make one"
    assert noise_commands.from_every_run(tmp_path, [], [JWT], SCHEMAS) == 1
    assert capsys.readouterr().out.endswith(f"no runs under {tmp_path}/data/runs: no model to make\n")
    nan = noise_model.ProfileNoise("quick", ("a", "b"), {"jwt": {"all": noise_model.ClassNoise(40, math.nan, 0.02)}})
    with pytest.raises(ValueError, match="not JSON compliant"):
        noise_model.save(tmp_path, MACHINE, nan)


def test_a_section_written_before_stacks_had_sections_is_the_host_stacks(tmp_path):
    _, model = noise.estimate(repeated([0.0, 0.1, -0.05]), [JWT], SCHEMAS)
    path = noise_model.save(tmp_path, MACHINE, model)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert (document["profiles"]["quick"]["profile"], document["profiles"]["quick"]["stack"]) == ("quick", "host")
    for key in ("profile", "stack"):
        del document["profiles"]["quick"][key]
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = noise_model.load(tmp_path, MACHINE)
    assert loaded is not None
    assert loaded.profiles["quick"].stack == "host"
    document["profiles"]["quick"]["stack"] = "debian13"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(DataError, match="the section of profile 'quick' on stack 'debian13' is keyed 'quick@debian13'"):
        noise_model.load(tmp_path, MACHINE)


def test_pages_widen_absolute_times_by_the_spread_between_runs_where_it_is_known(tmp_path):
    root = project_with(tmp_path, FIXTURE_RUN)
    before = site.build(root).pages["experiments/jwt.md"]
    assert "One run: intervals are **within-run only**" in before
    classes = {"jwt": {"all": noise_model.ClassNoise(39, 0.2, 0.05)}}
    noise_model.save(root, MACHINE, noise_model.ProfileNoise("quick", ("r1", "r2", "r3"), classes))
    after = site.build(root).pages["experiments/jwt.md"]
    label = (
        "across runs of this machine on one boot (3 runs), times widened by a stated allowance of ±10% for another "
        "boot, not yet measured; ratios of two cases by their spread within the boot (a shift common to the boot "
        "cancels in them)"
    )
    assert f"95 % **{label}**" in after
    assert "by a factor of up to ×/÷ 1.52" in after, "e^(1.96·√(0.2² + 0.05² + 0.05²)): the run's, and the allowance"
    assert "±50 %" not in after, "a widened interval is ×/÷, asymmetric: never written as ±"
    assert after != before
    shutil.rmtree(root / "data" / "noise")
    assert site.build(root).pages["experiments/jwt.md"] == before


# Boots as a level: runs of two boots, whose values are known by construction.
SIGNS = np.array([1.0 if case % 2 == 0 else -1.0 for case in range(len(ALGORITHMS))])


def booted(index: int, boot: str, run_shift: float, residuals: np.ndarray, base: float = 1000) -> Run:
    run = run_of(index, run_shift, residuals, base=base)
    run.manifest["boot"] = {"id": boot, "uptime_s": 60}
    return run


def two_boots(case_by_boot: float = 0.03) -> list[Run]:
    """Boot A: shifts 0, 0.02, -0.02; boot B: 0.10, 0.12, 0.08. Each case sits case_by_boot above its
    class on one boot and as far below on the other (half the cases each way), the same in every run of
    a boot: no spread between runs of one boot beyond the class's shift."""
    a, b = "a" * 8 + "-0000-4000-8000-" + "0" * 12, "b" * 8 + "-0000-4000-8000-" + "0" * 12
    plan = [(a, 0.0, 1), (a, 0.02, 1), (a, -0.02, 1), (b, 0.10, -1), (b, 0.12, -1), (b, 0.08, -1)]
    return [booted(i, boot, shift, sign * case_by_boot * SIGNS) for i, (boot, shift, sign) in enumerate(plan)]


def test_an_experiment_measured_once_per_boot_has_no_spread_between_runs_of_a_boot():
    """The full runs of an unrecorded identity: an experiment in one run of each boot made NaN spreads."""
    runs = two_boots()
    without = copy.deepcopy(runs[1].manifest)
    without["experiments"]["jwt"]["status"] = "skipped"
    skipped = Run.from_rows(runs[1].run_id, without, {})
    with pytest.raises(noise_model.NoiseError, match="no experiment has results in two runs of one boot"):
        noise.estimate([runs[0], skipped, runs[3]], [JWT], SCHEMAS)
    _, model = noise.estimate([runs[0], runs[1], runs[3]], [JWT], SCHEMAS)
    assert all(math.isfinite(found.shift_log_sd) for found in model.classes["jwt"].values())


def test_the_shift_is_split_into_its_spread_within_boots_and_between_them():
    _, model = noise.estimate(two_boots(), [JWT], SCHEMAS)
    found = model.classes["jwt"]["operation=sign · payload_chars=100"]
    assert model.boot_count == 2
    assert not model.one_boot
    # Within boots: deviations 0, ±0.02 in each boot, 6 runs less 2 boot means: sqrt(4 × 0.02² / 4).
    assert found.shift_log_sd == pytest.approx(0.02, abs=1e-4)
    # Between boots: the means 0 and 0.10 vary by 0.10² / 2 (ddof 1); runs explain 0.02² / 3 of it.
    assert found.boot_shift_log_sd == pytest.approx(math.sqrt(0.10**2 / 2 - 0.02**2 / 3), abs=1e-4)


def test_a_case_that_moves_with_its_boot_is_the_residual_between_boots_not_within():
    _, model = noise.estimate(two_boots(case_by_boot=0.03), [JWT], SCHEMAS)
    found = model.classes["jwt"]["operation=sign · payload_chars=100"]
    assert found.residual_log_sd == pytest.approx(0.0, abs=1e-3), "no case moves between runs of one boot"
    # Each boot's mean residual is ±0.03 around the cases' mean: MAD × 1.4826, unshrunk by √(B / (B - 1)).
    assert found.boot_residual_log_sd == pytest.approx(noise.MAD_TO_SD * 0.03 * math.sqrt(2), rel=0.02)
    assert model.residual("jwt", "operation=sign · payload_chars=100", "A00 · 100 · sign") == pytest.approx(
        0.0, abs=1e-3
    )
    # The case's own spread between boots: its boot means differ by 0.06, so √(0.06² / 2) (one degree of
    # freedom), moderated by its class's: (4 × class² + 1 × own²) / 5.
    own = model.boot_cases["jwt"]["A00 · 100 · sign"]
    assert own == pytest.approx(0.06 / math.sqrt(2), rel=0.01), "less the little its runs explain"
    across = model.residual("jwt", "operation=sign · payload_chars=100", "A00 · 100 · sign", across_boots=True)
    moderated = math.sqrt((4 * found.boot_residual_log_sd**2 + own**2) / 5)
    within = model.residual("jwt", "operation=sign · payload_chars=100", "A00 · 100 · sign")
    assert across == pytest.approx(math.hypot(within, moderated), rel=1e-9)


def test_a_case_its_boot_moves_far_more_than_its_class_is_not_flagged_between_boots():
    """On this pool one boot made small curves' EC operations 10-20 % faster than another while their class
    moved by 3 %: against the class's robust spread alone they were "faster" in every pair of runs of two
    boots. Their own spread between boots, moderated by the class's, judges them."""
    a, b = "a" * 8 + "-0000-4000-8000-" + "0" * 12, "b" * 8 + "-0000-4000-8000-" + "0" * 12
    rng = np.random.default_rng(3)
    boot_effect = rng.normal(0, 0.01, len(ALGORITHMS))
    boot_effect[:3] = [0.15, 0.17, 0.13]  # three cases their boot moves: B is 13-17 % slower for them
    runs = [
        booted(i, boot, shift, (boot_effect if boot == b else 0) + rng.normal(0, 0.005, len(ALGORITHMS)))
        for i, (boot, shift) in enumerate([(a, 0.0), (a, 0.01), (a, -0.01), (b, 0.05), (b, 0.06), (b, 0.04)])
    ]
    _, model = noise.estimate(runs[1:-1], [JWT], SCHEMAS)  # the pair compared below is left out of the model
    found = model.classes["jwt"]["operation=sign · payload_chars=100"]
    label = "operation=sign · payload_chars=100"
    moved = model.residual("jwt", label, "A00 · 100 · sign", across_boots=True)
    still = model.residual("jwt", label, "A10 · 100 · sign", across_boots=True)
    assert found.boot_residual_log_sd < 0.03, "the class's robust spread between boots ignores the three"
    assert moved > 2.5 * still, "the moved case's own spread between boots widens its judgement"
    result = comparison.compare(
        runs[0], runs[-1], SCHEMAS, [JWT], model=noise_model.NoiseModel(MACHINE, {"quick": model})
    )
    verdicts = {case.key[0]: case.verdict for case in result.experiments[0].cases}
    assert [alg for alg, verdict in verdicts.items() if verdict.significant] == []
    # Without the per-case spreads between boots, the three stand out: the test can fail.
    bare = noise_model.ProfileNoise(model.profile, model.runs, model.classes, model.cases, model.boots)
    result = comparison.compare(
        runs[0], runs[-1], SCHEMAS, [JWT], model=noise_model.NoiseModel(MACHINE, {"quick": bare})
    )
    flagged = sorted(case.key[0] for case in result.experiments[0].cases if case.verdict.significant)
    assert {"A00", "A01", "A02"} <= set(flagged)


def test_a_model_of_one_boot_never_answers_for_another():
    runs = two_boots()[:3]
    _, model = noise.estimate(runs, [JWT], SCHEMAS)
    found = model.classes["jwt"]["operation=sign · payload_chars=100"]
    assert model.one_boot
    assert model.boot_count == 1
    assert (found.boot_shift_log_sd, found.boot_residual_log_sd, found.boot_log_sd) == (None, None, None)
    assert model.residual("jwt", "operation=sign · payload_chars=100", "A00 · 100 · sign", across_boots=True) is None
    assert model.experiment_run_log_sd("jwt", across_boots=True) is None
    assert run_spread(noise_model.NoiseModel(MACHINE, {"quick": model}), MACHINE, "quick", "host", "jwt").one_boot


def test_from_two_boots_the_pages_spread_covers_a_run_of_another_boot():
    _, model = noise.estimate(two_boots(), [JWT], SCHEMAS)
    spread = run_spread(noise_model.NoiseModel(MACHINE, {"quick": model}), MACHINE, "quick", "host", "jwt")
    found = model.classes["jwt"]["operation=sign · payload_chars=100"]
    assert spread.boots == 2
    assert spread.log_sd == pytest.approx(found.boot_log_sd)
    assert spread.log_sd > found.run_log_sd, "wider than the spread within one boot"
    assert spread.label == "across runs and boots of this machine (6 runs of PHP 8.2 from 2 boots)"


def test_boots_of_one_run_each_cannot_say_how_runs_of_a_boot_vary():
    runs = [two_boots()[0], two_boots()[3]]
    with pytest.raises(noise_model.NoiseError, match="one run each: the spread between runs of one boot needs"):
        noise.estimate(runs, [JWT], SCHEMAS)


def test_the_boots_are_saved_with_the_model_and_read_back(tmp_path):
    _, model = noise.estimate(two_boots(), [JWT], SCHEMAS)
    noise_model.save(tmp_path, MACHINE, model)
    loaded = noise_model.load(tmp_path, MACHINE).profiles["quick"]
    assert loaded.boots == model.boots
    assert loaded.boot_count == 2
    label = "operation=sign · payload_chars=100"
    assert loaded.classes["jwt"][label].boot_shift_log_sd == pytest.approx(
        model.classes["jwt"][label].boot_shift_log_sd, abs=1e-5
    )


# The edges of the estimate, each with values known by construction.
PITFALLS = next(e for e in registry.discover() if e.name == "pitfalls")
CLASS = "operation=sign · payload_chars=100"


def test_an_experiment_without_shift_columns_is_one_class_named_all():
    assert PITFALLS.shift_columns == ()
    key = tuple("x" for _ in PITFALLS.case_key(SCHEMAS))
    assert noise.class_label(PITFALLS, SCHEMAS, key) == "all"


def test_a_class_of_three_cases_is_its_own_shift_basis_and_of_two_borrows_every_case():
    groups = {"a": [("1",), ("2",), ("3",)], "b": [("4",), ("5",)]}
    assert noise.shift_basis(groups, "a") == [("1",), ("2",), ("3",)]
    assert noise.shift_basis(groups, "b") == [("1",), ("2",), ("3",), ("4",), ("5",)]


def test_the_robust_sd_of_nothing_is_nan_without_a_warning():
    assert math.isnan(noise.robust_sd(np.array([])))
    assert noise.robust_sd(np.array([0.1, -0.1, 0.2])) == pytest.approx(noise.MAD_TO_SD * 0.1)


def test_no_experiment_in_two_runs_is_refused_and_one_without_runs_is_skipped():
    runs = repeated([0.0, 0.1])
    with pytest.raises(
        noise_model.NoiseError, match=r"^no experiment has results in two runs of one boot of these runs$"
    ):
        noise.estimate(runs, [PITFALLS], SCHEMAS)
    _, model = noise.estimate(runs, [PITFALLS, JWT], SCHEMAS)
    assert set(model.classes) == {"jwt"}


@pytest.mark.parametrize("lacking", [0, 1], ids=["the first run", "the second run"])
def test_a_case_missing_from_any_run_is_left_out(lacking):
    runs = [run_of(i, 0.0, np.zeros(40), without="A00" if i == lacking else "") for i in range(3)]
    classes, _, _ = noise.estimate_experiment(JWT, runs, SCHEMAS)
    assert classes[CLASS].cases == 39


def test_runs_of_one_boot_each_have_no_spread_within_a_boot_and_two_of_one_boot_have():
    one_each = [two_boots()[0], two_boots()[3]]
    classes, per_case, _ = noise.estimate_experiment(JWT, one_each, SCHEMAS)
    assert math.isnan(classes[CLASS].shift_log_sd)
    assert math.isnan(classes[CLASS].residual_log_sd)
    assert per_case == {}
    two = two_boots()[:2]
    classes, _, _ = noise.estimate_experiment(JWT, two, SCHEMAS)
    assert classes[CLASS].shift_log_sd == pytest.approx(math.sqrt(2 * 0.01**2), abs=1e-4), "deviations ±0.01, 1 df"


def test_the_residual_sd_is_unshrunk_by_the_degrees_of_freedom_the_mean_took():
    """Two runs, cases ±r in one and ∓r in the other: every residual is ±r (MAD r); centring on the runs'
    mean took one of two degrees of freedom, so the SD is r × 1.4826 × √2."""
    r = 0.05
    runs = [run_of(0, 0.0, r * SIGNS, base=1e6), run_of(1, 0.0, -r * SIGNS, base=1e6)]
    classes, _, _ = noise.estimate_experiment(JWT, runs, SCHEMAS)
    assert classes[CLASS].residual_log_sd == pytest.approx(noise.MAD_TO_SD * r * math.sqrt(2), rel=1e-3)


def test_four_runs_keep_no_case_of_its_own_and_five_do():
    assert noise.estimate_experiment(JWT, repeated([0.0, 0.1, -0.1, 0.05]), SCHEMAS)[1] == {}
    assert len(noise.estimate_experiment(JWT, repeated([0.0, 0.1, -0.1, 0.05, 0.02]), SCHEMAS)[1]) == 40


def test_the_residual_between_boots_of_unequal_runs_is_what_the_runs_within_do_not_explain():
    """Three boots of 2, 3 and 2 runs; each case pair moves ±v (so every run's class shift is 0). Expected,
    from the definitions: the boots' mean residuals, centred per case, have a robust SD (× √(B / (B − 1)));
    the runs within a boot explain residual_sd² × mean(1 / runs per boot) of its square."""
    rng = np.random.default_rng(11)
    plan = [0, 0, 1, 1, 1, 2, 2]
    offsets = rng.normal(0, 0.05, (3, 20))  # per boot, per case pair
    values = np.array([offsets[b] + rng.normal(0, 0.015, 20) for b in plan])  # runs × case pairs
    both = np.repeat(values, 2, axis=1) * np.tile([1.0, -1.0], 20)  # runs × 40 cases
    # A base of 1 ms: rounding to the ns stays negligible beside the residuals.
    runs = [booted(i, f"{b:08x}-0000-4000-8000-{0:012x}", 0.0, both[i], base=1e6) for i, b in enumerate(plan)]
    deviation = both - both.mean(axis=0)
    index = np.array(plan)
    means = np.stack([deviation[index == b].mean(axis=0) for b in range(3)])  # boots × cases
    within = deviation - means[index]
    residual_sd = noise.MAD_TO_SD * np.median(np.abs(within)) * math.sqrt(7 / 4)
    spread = noise.MAD_TO_SD * np.median(np.abs(means - means.mean(axis=0))) * math.sqrt(3 / 2)
    explained = residual_sd**2 * np.mean([1 / 2, 1 / 3, 1 / 2])
    assert spread**2 > 1.5 * explained, "the boots add a spread of their own"
    classes, _, _ = noise.estimate_experiment(JWT, runs, SCHEMAS)
    assert classes[CLASS].residual_log_sd == pytest.approx(residual_sd, rel=2e-3)
    assert classes[CLASS].boot_residual_log_sd == pytest.approx(math.sqrt(spread**2 - explained), rel=2e-3)


# The per-case and per-class SDs on a fixture small enough to work out by hand (issue 44): three cases of
# one class, five runs of one boot (five: the fewest that keep each case's own SD, MIN_RUNS_PER_CASE).
# Each case's log median is its base + the run's shift + its residual; every case's residuals sum to 0 and
# B's is the middle one in every run, so the class's shift in a run is s + B's residual, and A's and C's
# residuals around it are theirs less B's.
HAND_SHIFTS = [0.0, 0.1, -0.1, 0.05, -0.05]
HAND_RESIDUALS = {
    "A": [0.04, -0.02, 0.02, -0.04, 0.0],
    "B": [0.0, 0.01, -0.01, 0.02, -0.02],
    "C": [-0.02, 0.03, -0.03, 0.04, -0.02],
}


def hand_runs() -> list[Run]:
    """Constant samples (their median is exact), a million operations each (rounding to the ns is 1e-12)."""
    runs = []
    for index, shift in enumerate(HAND_SHIFTS):
        manifest = copy.deepcopy(FIXTURE_MANIFEST)
        run_id = f"2026020{index}T0000Z-hand-php8.2"
        manifest.update(run_id=run_id, profile="quick")
        manifest["experiments"] = {"jwt": {"status": "ok", "reason": None, "duration_s": 1.0, "files": ["jwt.csv"]}}
        rows = [
            {
                "alg": alg,
                "payload_chars": 100,
                "operation": "sign",
                "sample": sample,
                "iterations": 1_000_000,
                "elapsed_ns": round(base * math.exp(shift + residuals[index]) * 1_000_000),
            }
            for base, (alg, residuals) in zip((1000, 2000, 3000), HAND_RESIDUALS.items(), strict=True)
            for sample in range(7)
        ]
        runs.append(Run.from_rows(run_id, manifest, {"jwt.csv": rows}))
    return runs


def test_each_cases_own_sd_and_its_classs_worked_out_by_hand():
    classes, per_case, _ = noise.estimate_experiment(JWT, hand_runs(), SCHEMAS)
    # Residuals around the class's shift (A's and C's less B's, run by run):
    #   A: .04, -.03, .03, -.06, .02    C: -.02, .02, -.02, .02, 0    B: 0 in every run
    # A case's own SD: √(Σ residual² / (5 runs − 1 boot)):
    #   A: √((.0016 + .0009 + .0009 + .0036 + .0004) / 4) = √.00185 = .0430116
    #   C: √(4 × .0004 / 4) = .02;  B: 0
    assert per_case == {
        "A · 100 · sign": pytest.approx(0.0430116263, abs=1e-9),
        "B · 100 · sign": pytest.approx(0.0, abs=1e-9),
        "C · 100 · sign": pytest.approx(0.02, abs=1e-9),
    }
    found = classes[CLASS]
    assert found.cases == 3
    # The class's shift per run: s + B's residual = 0, .11, -.11, .07, -.07 (mean 0):
    #   √((2 × .0121 + 2 × .0049) / 4) = √.0085 = .0921954
    assert found.shift_log_sd == pytest.approx(0.0921954446, abs=1e-9)
    # Pooled residual SD: the 15 |residuals| are six 0s, five .02s, .03, .03, .04, .06; the 8th is .02:
    #   1.4826 × .02 × √(5 / 4) (centring took one of five degrees of freedom) = .0331519
    assert found.residual_log_sd == pytest.approx(0.0331519438, abs=1e-9)
    assert found.run_log_sd == pytest.approx(0.0979747, abs=1e-6), "√(.0085 + .0331519²) = √.0095991"
    assert (found.boot_shift_log_sd, found.boot_residual_log_sd) == (None, None), "one boot"


def test_the_hand_models_sds_are_saved_rounded_and_read_back(tmp_path):
    machine, model = noise.estimate(hand_runs(), [JWT], SCHEMAS)
    noise_model.save(tmp_path, machine, model)
    document = json.loads(noise_model.path_for(tmp_path, machine).read_text(encoding="utf-8"))
    section = document["profiles"]["quick"]
    assert section["cases"] == {"jwt": {"A · 100 · sign": 0.04301, "B · 100 · sign": 0.0, "C · 100 · sign": 0.02}}
    assert section["classes"]["jwt"][CLASS] == {
        "cases": 3,
        "shift_log_sd": 0.0922,
        "residual_log_sd": 0.03315,
        "boot_shift_log_sd": None,
        "boot_residual_log_sd": None,
    }
    loaded = noise_model.load(tmp_path, machine).profiles["quick"]
    # A case's own SD (4 degrees of freedom: 5 runs, 1 boot) moderated by its class's (CLASS_PRIOR_DF = 4):
    # equal weights, √((class² + own²) / 2); a case the model has no SD of takes the class's.
    assert noise_model.CLASS_PRIOR_DF == 4
    assert loaded.residual("jwt", CLASS, "A · 100 · sign") == pytest.approx(math.sqrt((0.03315**2 + 0.04301**2) / 2))
    assert loaded.residual("jwt", CLASS, "C · 100 · sign") == pytest.approx(math.sqrt((0.03315**2 + 0.02**2) / 2))
    assert loaded.residual("jwt", CLASS, "D · 100 · sign") == 0.03315
    assert loaded.residual("jwt", "operation=verify · payload_chars=100", "A · 100 · verify") is None


def test_a_comparison_judges_each_case_by_the_hand_models_own_sd():
    """The first hand run against the second, with the model of all five. Log ratios new/base: the shift
    .1 plus each case's residual change: A .04, B .11, C .15; the class's shift is their median .11, so the
    residuals are A -.07, B 0, C .04. Each is judged against √2 × its own SD moderated by the class's
    .0331519 (4 degrees of freedom each: equal weights; constant samples, so no within-run spread):
    A √((.0331519² + .0430116²) / 2) = .0383996, z = .07 / (√2 × .0383996) = 1.289012, p = .1973940;
    C √((.0331519² + .02²) / 2) = .0273775, z = .04 / (√2 × .0273775) = 1.033122, p = .3015467;
    B .0331519 / √2 = .0234420, residual 0: z 0, p 1."""
    runs = hand_runs()
    machine, model = noise.estimate(runs, [JWT], SCHEMAS)
    result = comparison.compare(
        runs[0], runs[1], SCHEMAS, [JWT], model=noise_model.NoiseModel(machine, {"quick": model})
    )
    cases = {case.key[0]: case for case in result.experiments[0].cases}
    assert {name: case.spread_source for name, case in cases.items()} == dict.fromkeys("ABC", comparison.MODEL)
    assert cases["A"].spread_log == pytest.approx(math.sqrt(2) * 0.0383995532, abs=1e-9)
    assert cases["C"].spread_log == pytest.approx(math.sqrt(2) * 0.0273774668, abs=1e-9)
    assert cases["B"].spread_log == pytest.approx(math.sqrt(2) * 0.0234419643, abs=1e-9)
    assert cases["A"].residual == pytest.approx(math.exp(-0.07), rel=1e-9)
    assert cases["C"].residual == pytest.approx(math.exp(0.04), rel=1e-9)
    assert cases["A"].p_value == pytest.approx(0.1973940, rel=1e-6)
    assert cases["C"].p_value == pytest.approx(0.3015467, rel=1e-6)
    assert cases["B"].p_value == pytest.approx(1.0)
    # Benjamini–Hochberg over the three: A (rank 1) min(3 × .1973940, 3/2 × .3015467, 1) = .4523200; C (rank 2)
    # min(3/2 × .3015467, 1) = .4523200; B (rank 3) 1.
    adjusted = {name: case.p_adjusted for name, case in cases.items()}
    assert adjusted == {
        "A": pytest.approx(0.4523200, rel=1e-6),
        "B": pytest.approx(1.0),
        "C": pytest.approx(0.4523200, rel=1e-6),
    }
    assert {case.verdict for case in cases.values()} == {comparison.Verdict.SAME}

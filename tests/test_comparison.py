"""`compare`'s model: cases matched on the case key, each verdict rule as a named case, the
Benjamini–Hochberg family, failed Argon2 cells, the environment diff and "across machines"."""

import copy
import json

import numpy as np
import pytest
import scipy  # scipy.stats loads on first use: importing it here costs each pytest worker 0.4 s

from phpcb.compare import comparison
from phpcb.compare.comparison import ComparisonError, Verdict
from phpcb.compare.environment_diff import ABSENT
from phpcb.compare.environment_diff import diff as environment_diff
from phpcb.compare.exporters.markdown import MarkdownExporter
from phpcb.data import noise_model
from phpcb.data.loader import Run, load_run
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry
from phpcb.pages import compare_page
from phpcb.presentation import render
from phpcb.presentation.downloads import RunFiles

from .conftest import FIXTURE_RUN, FIXTURE_RUNS, ROOT

SCHEMAS = load_schemas(ROOT / "data" / "schema")
EXPERIMENTS = {e.name: e for e in registry.discover()}
FIXTURE_MANIFEST = json.loads((FIXTURE_RUN / "manifest.json").read_text(encoding="utf-8"))
# A small, fixed wobble so that no sample is constant (except where a case says so).
WOBBLE = np.array([0.0, 0.004, -0.003, 0.006, -0.005, 0.002, -0.001, 0.003, -0.004, 0.001])


def manifest(run_id, experiments=("jwt",), **changes):
    result = copy.deepcopy(FIXTURE_MANIFEST)
    result["run_id"] = run_id
    result["experiments"] = {
        name: {
            "status": "ok",
            "reason": None,
            "duration_s": 1.0,
            "files": [t.name for t in SCHEMAS.of_experiment(name)],
        }
        for name in experiments
    }
    for path, value in changes.items():
        section, _, field = path.partition("__")
        if field:
            result[section][field] = value
        else:
            result[section] = value
    return result


def jwt_rows(alg, times_ns, operation="sign", iterations=10):
    """One jwt case: per-op times given, stored as elapsed for `iterations` operations."""
    return [
        {
            "alg": alg,
            "payload_chars": 100,
            "operation": operation,
            "sample": sample,
            "iterations": iterations,
            "elapsed_ns": round(t * iterations),
        }
        for sample, t in enumerate(times_ns)
    ]


def around(value, n=10, wobble=1.0):
    return [value * (1 + wobble * WOBBLE[i % WOBBLE.size] + (i // WOBBLE.size) * 1e-4) for i in range(n)]


# The new run's machine is 20 % faster across the board: every case's times × 0.8, each case with a
# slightly different wobble (a case's residual between runs). Against that background:
SHIFT = 0.8
BACKGROUND = {
    f"bg{i:02d}": (around(1000 + 10 * i), around((1000 + 10 * i) * SHIFT * (1 + 0.004 * (i % 5 - 2))), Verdict.SAME)
    for i in range(20)
}
# Each named case: (base per-op times or None, new per-op times or None, the verdict expected).
CASES = {
    **BACKGROUND,
    # Twice as fast beyond the machine's shift: a change.
    "faster": (around(1000), around(500 * SHIFT), Verdict.FASTER),
    "slower": (around(1000), around(2000 * SHIFT), Verdict.SLOWER),
    # 20 % faster in raw time, exactly the machine's shift: no change of its own.
    "only-the-shift": (around(1000), around(1000 * SHIFT), Verdict.SAME),
    # 1.8 % beyond the shift: far beyond the background's spread, within the 2 % floor (the one threshold
    # of a difference, thresholds.DIFFERENCE).
    "within-the-floor": (around(1000), around(1018 * SHIFT), Verdict.SAME),
    "new": (None, around(1000), Verdict.NEW),
    "missing": (around(1000), None, Verdict.MISSING),
    "too-few-samples": (around(1000), around(2000, n=4), Verdict.TOO_FEW),
    "identical-samples": ([1000.0] * 7, [1000.0] * 7, Verdict.IDENTICAL),
}
NAMED = [name for name in CASES if not name.startswith("bg")]


def runs_of(cases, new_manifest=None):
    base_rows, new_rows = [], []
    for name, (base, new, _) in cases.items():
        if base is not None:
            base_rows += jwt_rows(name, base)
        if new is not None:
            new_rows += jwt_rows(name, new)
    base_run = Run.from_rows(
        "20260101T0000Z-base-php8.2", manifest("20260101T0000Z-base-php8.2"), {"jwt.csv": base_rows}
    )
    fresh = new_manifest or manifest("20260101T0100Z-new-php8.2")
    return base_run, Run.from_rows(fresh["run_id"], fresh, {"jwt.csv": new_rows})


@pytest.fixture(scope="module")
def result():
    base, new = runs_of(CASES)
    return comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])


def case(result, name):
    (experiment,) = result.experiments
    return next(c for c in experiment.cases if c.key[0] == name)


@pytest.mark.parametrize("name", list(CASES))
def test_each_verdict_rule(result, name):
    assert case(result, name).verdict == CASES[name][2]


def test_the_machines_shift_is_stated_with_its_ci_and_each_case_is_judged_beyond_it(result):
    (experiment,) = result.experiments
    (shift,) = experiment.shifts
    assert shift.label == "operation=sign · payload_chars=100"
    assert shift.cases == shift.basis == 24, "every tested case of the class"
    assert shift.ratio == pytest.approx(SHIFT, rel=0.01)
    assert shift.low <= SHIFT <= shift.high
    assert shift.high / shift.low < 1.02
    faster = case(result, "faster")
    assert faster.ratio == pytest.approx(0.5 * SHIFT, rel=0.01)
    assert faster.residual == pytest.approx(0.5, rel=0.02), "the change beyond the machine's shift"
    assert faster.spread_source == comparison.PAIR, "no noise model: the class's own spread"
    assert case(result, "only-the-shift").residual == pytest.approx(1.0, abs=0.01)


def test_a_machine_that_ran_faster_throughout_changes_no_case():
    """The old rule (within-run CI beyond 5 %) flagged every case of a faster machine: 903 of 940 in a
    same-machine rerun. A uniform shift is the machine, not the code."""
    cases = {f"c{i:02d}": (around(1000 + 7 * i), around((1000 + 7 * i) * 0.65), None) for i in range(30)}
    base, new = runs_of(cases)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    assert result.counts()[Verdict.SAME] == 30
    assert result.experiments[0].shifts[0].ratio == pytest.approx(0.65, rel=0.01)


def test_a_noise_model_sets_the_spread_a_case_is_judged_against():
    """With the machine's model, a case's residual is judged against √2 × the model's per-run SD: a
    25 % change is noise where runs differ by 20 %, a change where they differ by 2 %."""
    base, new = runs_of(CASES)
    label = "operation=sign · payload_chars=100"

    def judged(sd):
        model = noise_model.NoiseModel(
            FIXTURE_MANIFEST["machine"]["name"],
            {
                "quick": noise_model.ProfileNoise(
                    "quick", ("a", "b"), {"jwt": {label: noise_model.ClassNoise(24, 0.1, sd)}}
                )
            },
        )
        return comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], model=model)

    wide, narrow = judged(0.2), judged(0.02)
    assert case(wide, "slower").spread_log == pytest.approx(0.2 * np.sqrt(2))
    assert case(wide, "slower").spread_source == comparison.MODEL
    assert case(wide, "within-the-floor").verdict == Verdict.SAME
    assert case(narrow, "slower").verdict == Verdict.SLOWER
    assert narrow.noise_runs == ("a", "b")
    assert case(wide, "faster").p_value > case(narrow, "faster").p_value


def test_a_noise_model_of_another_machine_or_of_two_profiles_does_not_apply():
    base, new = runs_of(CASES)
    model = noise_model.NoiseModel("another-machine", {"quick": noise_model.ProfileNoise("quick", ("a", "b"), {})})
    assert comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], model=model).noise_runs is None
    full = manifest("20260101T0100Z-new-php8.2", profile="full")
    base, new = runs_of(CASES, full)
    same_machine = noise_model.NoiseModel(FIXTURE_MANIFEST["machine"]["name"], model.profiles)
    assert comparison.applicable_model(same_machine, base, new) is None


def test_only_tested_cases_form_the_benjamini_hochberg_family(result):
    tested = [c for _, c in result.cases if c.p_value is not None]
    untested = {"new", "missing", "too-few-samples", "identical-samples"}
    assert {c.key[0] for c in tested} == {name for name in CASES if name not in untested}
    assert result.tested == len(CASES) - len(untested)
    p = [c.p_value for c in tested]
    assert [c.p_adjusted for c in tested] == pytest.approx(list(scipy.stats.false_discovery_control(p, method="bh")))
    for c in tested:
        z = np.log(c.residual) / np.hypot(c.spread_log, comparison._within_log_sd(c))
        assert c.p_value == pytest.approx(2 * scipy.stats.norm.sf(abs(z)))
    for name in untested:
        assert case(result, name).p_value is None
        assert case(result, name).p_adjusted is None


def test_why_the_near_cases_are_not_called(result):
    floor = case(result, "within-the-floor")
    assert floor.p_adjusted < comparison.ALPHA, "clearly beyond the background's spread"
    assert 1 < floor.residual < 1 + comparison.THRESHOLD, "but within the 2 % floor"
    assert case(result, "only-the-shift").p_adjusted >= comparison.ALPHA


def test_counts_and_largest_changes(result):
    counts = result.counts()
    assert counts[Verdict.FASTER] == counts[Verdict.SLOWER] == 1
    assert counts[Verdict.SAME] == len(BACKGROUND) + 2
    assert sum(counts.values()) == len(CASES)
    assert [c.key[0] for _, c in result.largest()] in (["faster", "slower"], ["slower", "faster"])
    assert all(c.verdict.significant for _, c in result.largest())
    assert result.largest(1)[0][1].abs_log_ratio == max(c.abs_log_ratio for _, c in result.largest())


def test_the_identical_case_has_ratio_one_and_no_p(result):
    identical = case(result, "identical-samples")
    assert (identical.ratio, identical.ratio_low, identical.ratio_high) == (1.0, 1.0, 1.0)


def test_constant_but_different_samples_are_tested_not_identical():
    base, new = runs_of({"c": ([1000.0] * 7, [2000.0] * 7, None), **BACKGROUND})
    c = next(
        c for c in comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]]).experiments[0].cases if c.key[0] == "c"
    )
    assert c.p_value is not None
    assert c.verdict == Verdict.SLOWER


def argon2_rows(variant, walls, status="ok"):
    return [
        {
            "interface": "password_hash",
            "variant": variant,
            "memory_kib": 65536,
            "threads": 1,
            "time_cost": 3,
            "sample": sample,
            "wall_ns": wall,
            "status": status,
        }
        for sample, wall in enumerate(walls)
    ]


def test_argon2_uses_the_wall_time_itself_and_failed_cells_are_not_samples():
    refused = argon2_rows("argon2i", [0], status="refused")
    base_rows = argon2_rows("argon2id", around(5e7)) + refused + argon2_rows("argon2d", around(5e7))
    new_rows = argon2_rows("argon2id", around(1e8)) + refused + argon2_rows("argon2d", [0], status="failed")
    base = Run.from_rows(
        "20260101T0000Z-a-php8.2", manifest("20260101T0000Z-a-php8.2", ("argon2",)), {"argon2.csv": base_rows}
    )
    new = Run.from_rows(
        "20260101T0100Z-b-php8.2", manifest("20260101T0100Z-b-php8.2", ("argon2",)), {"argon2.csv": new_rows}
    )
    (experiment,) = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["argon2"]]).experiments
    assert experiment.time_column == "wall_ns"
    assert experiment.iterations_column is None
    verdicts = {c.key[1]: c.verdict for c in experiment.cases}
    assert verdicts == {"argon2id": Verdict.SAME, "argon2d": Verdict.MISSING}, "refused on both sides: no case"
    assert experiment.shifts[0].ratio == pytest.approx(2.0, rel=0.01), "one case: its change is the class's shift"
    argon2id = experiment.cases[0]
    assert argon2id.base.median_ns == pytest.approx(np.median(around(5e7)))


def test_two_runs_without_an_experiment_in_common_cannot_be_compared():
    base = Run.from_rows("20260101T0000Z-a-php8.2", manifest("20260101T0000Z-a-php8.2", ("argon2",)), {})
    new = Run.from_rows("20260101T0100Z-b-php8.2", manifest("20260101T0100Z-b-php8.2", ("jwt",)), {})
    with pytest.raises(ComparisonError, match=r"no experiment in common: .*argon2.*jwt"):
        comparison.compare(base, new, SCHEMAS)


def test_experiments_in_one_run_only_are_listed():
    base, _ = runs_of(CASES)
    both = manifest("20260101T0100Z-new-php8.2", ("jwt", "argon2"))
    new = Run.from_rows(both["run_id"], both, {"jwt.csv": jwt_rows("faster", around(500)), "argon2.csv": []})
    result = comparison.compare(base, new, SCHEMAS)
    assert [e.name for e in result.experiments] == ["jwt"]
    assert result.only_in_new == ["argon2"]
    assert result.only_in_base == []


def test_the_same_machine_is_not_across_machines(result):
    assert not result.across_machines
    assert result.environment.across_machines_because == []
    shown = [row.label for row in result.environment.shown]
    always = ["Machine", "Runner (git commit)", "Schema version", "CPU model", "CPU cores", "PHP version", "Profile"]
    assert shown == always, "only the rows that differ, and the machine, PHP, profile and runner always"
    assert result.environment.confounders == []


@pytest.mark.parametrize(
    ("change", "because"),
    [
        ({"machine__name": "amd-epyc-zen3-2c-fb9e12"}, ["Machine"]),
        ({"php__version": "8.3.1"}, ["PHP version"]),
        ({"machine__name": "amd-epyc-zen3-2c-fb9e12", "php__version": "8.3.1"}, ["Machine", "PHP version"]),
    ],
)
def test_another_machine_or_php_version_makes_it_across_machines(change, because):
    """Issue 45: across machines, no case is judged (one machine's noise says nothing of two); the class shift
    stays, as what the machines differ by."""
    base, new = runs_of(CASES, manifest("20260101T0100Z-new-php8.2", **change))
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    assert result.across_machines
    assert result.environment.across_machines_because == because
    assert case(result, "slower").verdict == Verdict.ACROSS
    assert not any(found.verdict.significant for _, found in result.cases)
    assert result.tested == 0
    assert any(shift.cases for experiment in result.experiments for shift in experiment.shifts)


def test_another_cpu_string_on_one_machine_is_not_across_machines():
    """The pool gives CPUs of several generations under one string, and one CPU may show another string: the
    machine is its identity (machines.py), never the string."""
    base, new = runs_of(CASES, manifest("20260101T0100Z-new-php8.2", cpu__model="AMD EPYC 7B13"))
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    assert not result.across_machines
    assert case(result, "slower").verdict == Verdict.SLOWER


def test_another_profile_or_runner_commit_is_named_as_a_confounder():
    changed = manifest("20260101T0100Z-new-php8.2", profile="full", git_commit="f" * 40)
    base, new = runs_of(CASES, changed)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    assert [row.label for row in result.environment.confounders] == ["Runner (git commit)", "Profile"]
    assert not result.across_machines


@pytest.mark.parametrize("library", ["openssl_library", "sodium", "mcrypt"])
def test_another_crypto_library_under_one_php_is_named_as_a_confounder(library):
    """Two boots of one machine carried OpenSSL 3.0.19 and 3.0.22 under one PHP build (on one boot, AEAD classes
    moved 4-17 % with the library alone): the pair is not A/A,
    and the comparison says so before any number (its cases are still judged: the library may be the change)."""
    changed = manifest("20260101T0100Z-new-php8.2")
    changed["libraries"][library] = "9.9.9"
    base, new = runs_of(CASES, changed)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    [row] = result.environment.confounders
    assert row.new == "9.9.9"
    assert row.base != "9.9.9"
    assert not result.across_machines
    assert "may come from a library as much as from the machine" in compare_markdown(result)


def test_the_environment_diff_shows_what_changed():
    base = copy.deepcopy(FIXTURE_MANIFEST)
    new = copy.deepcopy(FIXTURE_MANIFEST)
    new["php"]["extensions"]["gmp"] = "8.2.36"
    del new["php"]["extensions"]["mcrypt"]
    new["libraries"]["openssl"] = "OpenSSL 3.5.0"
    new["kernel"] = "Linux 6.1"
    new["profile"] = "full"
    new["php"]["jit"] = "tracing"
    diff = environment_diff(base, new)
    changed = {row.label: (row.base, row.new) for row in diff.differing}
    assert changed == {
        "JIT": ("off buffer=0", "tracing"),
        "OpenSSL (the header PHP was built with)": ("OpenSSL 3.0.22 25 Aug 2026", "OpenSSL 3.5.0"),
        "PHP extension gmp": ("not loaded", "8.2.36"),
        "PHP extension mcrypt": ("1.0.5", "not loaded"),
        "Profile": ("quick", "full"),
        "Kernel": (FIXTURE_MANIFEST["kernel"], "Linux 6.1"),
    }
    labels = [row.label for row in diff.rows]
    assert labels.index("PHP extension gmp") < labels.index("Profile"), "extensions stay together"
    assert not diff.across_machines


def test_a_manifest_without_a_machine_name_is_tolerated():
    base = copy.deepcopy(FIXTURE_MANIFEST)
    new = copy.deepcopy(FIXTURE_MANIFEST)
    del base["machine"]
    diff = environment_diff(base, new)
    machine = next(row for row in diff.rows if row.label == "Machine")
    assert (machine.base, machine.new) == (ABSENT, FIXTURE_MANIFEST["machine"]["name"])


@pytest.mark.parametrize("path", FIXTURE_RUNS, ids=lambda path: path.name)
def test_a_fixture_run_against_itself_changes_nothing(path):
    run = load_run(path, SCHEMAS)
    result = comparison.compare(run, run, SCHEMAS)
    assert [e.name for e in result.experiments] == [e.name for e in registry.discover() if run.has_results(e.name)]
    counts = result.counts()
    assert counts[Verdict.FASTER] == counts[Verdict.SLOWER] == 0
    assert counts[Verdict.NEW] == counts[Verdict.MISSING] == 0
    assert all(c.ratio == pytest.approx(1.0) for _, c in result.cases)
    assert not result.environment.differing


def test_the_site_page_links_the_runs_and_escapes_data(result):
    templates = render.environment(ROOT / "templates")
    page = compare_page.render_page([result], templates)
    assert page.startswith("# Comparison")
    assert "## 20260101T0000Z-base-php8.2 → 20260101T0100Z-new-php8.2" in page
    assert "(runs/20260101T0000Z-base-php8.2/manifest.json)" in page
    assert f'??? note "{EXPERIMENTS["jwt"].title}: {len(CASES)} cases: ' in page
    deeper = compare_page.render_page([result], templates, page="sub/compare.md")
    assert "(../runs/20260101T0100Z-new-php8.2/manifest.json)" in deeper
    beside = compare_page.render_page([result], templates, run_files=RunFiles("../"))
    assert '<a href="../../runs/20260101T0100Z-new-php8.2/manifest.json">' in beside, "from compare/, up past the site"
    assert "No recommendation, finding or verdict changes." in page
    assert "No comparison to show." in compare_page.render_page([], templates)


# Boots and load (issue 35): which spread judges a pair of two boots, and a loaded run named first.
BOOT_A = {"id": "a" * 8 + "-0000-4000-8000-" + "0" * 12, "uptime_s": 60}
BOOT_B = {"id": "b" * 8 + "-0000-4000-8000-" + "0" * 12, "uptime_s": 60}
LABEL = "operation=sign · payload_chars=100"


def runs_of_boots(base_boot, new_boot, new_manifest_changes=None):
    base, new = runs_of(CASES, manifest("20260101T0100Z-new-php8.2", boot=new_boot, **(new_manifest_changes or {})))
    base.manifest["boot"] = base_boot
    return base, new


def model_of(boots: int, within: float, between: float | None):
    runs = ("a", "b", "c", "d")
    assigned = {run: (BOOT_A["id"] if boots == 1 or i < 2 else BOOT_B["id"]) for i, run in enumerate(runs)}
    classes = {"jwt": {LABEL: noise_model.ClassNoise(24, 0.01, within, 0.02 if between else None, between)}}
    section = noise_model.ProfileNoise("quick", runs, classes, {}, assigned)
    return noise_model.NoiseModel(FIXTURE_MANIFEST["machine"]["name"], {"quick": section})


def test_runs_of_two_boots_are_judged_between_boots_by_a_model_of_two():
    base, new = runs_of_boots(BOOT_A, BOOT_B)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], model=model_of(2, 0.02, 0.05))
    assert result.across_boots
    slower = case(result, "slower")
    assert slower.spread_source == comparison.MODEL_BOOTS
    assert slower.spread_log == pytest.approx(np.sqrt(2) * np.hypot(0.02, 0.05))


def test_runs_of_one_boot_are_judged_by_the_spread_within_it():
    base, new = runs_of_boots(BOOT_A, BOOT_A)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], model=model_of(2, 0.02, 0.05))
    assert not result.across_boots
    assert case(result, "slower").spread_source == comparison.MODEL
    assert case(result, "slower").spread_log == pytest.approx(np.sqrt(2) * 0.02)


def test_a_model_of_one_boot_judges_a_pair_of_two_by_the_pairs_own_spread_never_below_its_own():
    base, new = runs_of_boots(BOOT_A, BOOT_B)
    wide = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], model=model_of(1, 0.2, None))
    assert case(wide, "slower").spread_source == comparison.PAIR_ONE_BOOT
    assert case(wide, "slower").spread_log == pytest.approx(np.sqrt(2) * 0.2), "the model's, wider than the pair's"
    narrow = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], model=model_of(1, 1e-6, None))
    pair = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    assert case(narrow, "slower").spread_log == pytest.approx(case(pair, "slower").spread_log), "the pair's, wider"
    assert case(narrow, "slower").spread_log > np.sqrt(2) * 1e-6


def loaded_system(others: float) -> dict:
    """Readings 1000 ticks apart, `others` of them other processes' (the run's own: none)."""
    busy = round(1000 * others)
    reading = {"own_cpu_ns": 0, "load_average": [2.0, 2.0, 2.0], "governor": None, "frequency_mhz": None}
    return {
        "before": {**reading, "cpu_ticks": {"total": 1000, "idle": 500, "steal": 0}},
        "after": {**reading, "cpu_ticks": {"total": 2000, "idle": 500 + 1000 - busy, "steal": 0}},
    }


def test_a_run_measured_on_a_busy_machine_is_named_first_and_its_cases_are_not_judged():
    base, new = runs_of(CASES)
    new.manifest["experiments"]["jwt"]["system"] = loaded_system(0.45)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    (found,) = result.loaded
    assert (found.run_id, found.experiment, found.others_share) == (new.run_id, "jwt", pytest.approx(0.45))
    verdicts = {c.verdict for c in result.experiments[0].cases}
    assert not {Verdict.FASTER, Verdict.SLOWER} & verdicts, "no case called on a loaded run"
    assert case(result, "slower").verdict == Verdict.LOADED
    assert case(result, "new").verdict == Verdict.NEW, "what is not a timing keeps its verdict"
    assert result.tested == 0
    assert result.experiments[0].shifts, "the class's shift is still shown: what the load did"
    text = compare_markdown(result)
    assert text.index("Loaded: 20260101T0100Z-new-php8.2: other processes used 45") < text.index("### Environment")
    assert "measure again on an idle machine" in text


def test_a_quiet_run_just_below_the_threshold_is_judged():
    base, new = runs_of(CASES)
    new.manifest["experiments"]["jwt"]["system"] = loaded_system(0.24)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    assert result.loaded == ()
    assert case(result, "slower").verdict == Verdict.SLOWER


def test_without_records_around_the_experiment_the_reading_before_the_run_decides():
    base, new = runs_of(CASES)
    new.manifest["experiments"]["jwt"]["system"] = None
    new.manifest["system"] = {
        "before": None,
        "after": None,
        "at_start": {"window_s": 2.0, "others_share": 0.9, "steal_share": 0.0, "busy": True},
    }
    (found,) = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]]).loaded
    assert found.before_the_run
    assert "in the seconds before the run started" in found.sentence


def compare_markdown(result):
    return MarkdownExporter().serialize(result)

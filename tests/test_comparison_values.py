"""`compare` on values: small synthetic pairs of runs whose shifts, spreads, z and verdicts are known by
construction, the expected numbers worked out by hand below each case (not by the code under test).

Every case has constant samples (7 a side, a million operations a sample: no rounding), so its ratio is
exact and its within-run spread is 0: a case's z is its residual over its class's between-run spread.
The residuals are given as natural logs, each class's median of them 0, so the class's shift is the
ratio it is built with."""

import dataclasses
import math

import pytest

from phpcb.compare import comparison
from phpcb.compare.comparison import Verdict, verdict
from phpcb.compare.exporters import json_export
from phpcb.data import noise_model
from phpcb.data.loader import Run

from .test_comparison import EXPERIMENTS, FIXTURE_MANIFEST, SCHEMAS, manifest

BASE_NS = 1000.0
SAMPLES = 7
ITERATIONS = 1_000_000
SIGN = "operation=sign · payload_chars=100"
VERIFY = "operation=verify · payload_chars=100"
EDGE = "operation=sign · payload_chars=500"
MAD_TO_SD = 1.4826  # written out: the constant is part of what these numbers check


def rows(name, operation, payload, per_op_ns):
    return [
        {
            "alg": name,
            "payload_chars": payload,
            "operation": operation,
            "sample": sample,
            "iterations": ITERATIONS,
            "elapsed_ns": round(per_op_ns * ITERATIONS),
        }
        for sample in range(SAMPLES)
    ]


def pair(classes, new_manifest=None):
    """Runs whose cases are (name, operation, payload, shift, residual log) each; base times 1000 ns."""
    base_rows, new_rows = [], []
    for name, operation, payload, shift, residual in classes:
        base_rows += rows(name, operation, payload, BASE_NS)
        new_rows += rows(name, operation, payload, BASE_NS * shift * math.exp(residual))
    base = Run.from_rows("20260101T0000Z-base-php8.2", manifest("20260101T0000Z-base-php8.2"), {"jwt.csv": base_rows})
    fresh = new_manifest or manifest("20260101T0100Z-new-php8.2")
    return base, Run.from_rows(fresh["run_id"], fresh, {"jwt.csv": new_rows})


def cls(prefix, operation, payload, shift, residuals):
    return [(f"{prefix}{i}", operation, payload, shift, r) for i, r in enumerate(residuals)]


def judged(classes, model=None, new_manifest=None):
    base, new = pair(classes, new_manifest)
    return comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], model=model)


def by_name(result):
    (experiment,) = result.experiments
    return {case.key[0]: case for case in experiment.cases}


# A class of 8 (sign): tight residuals and one case 35 % slower than the rest.
SIGN_8 = [-0.004, -0.002, -0.001, 0.0, 0.0, 0.001, 0.002, 0.3]
# A class of 7 (verify): wide residuals, up to ±35 %.
VERIFY_7 = [-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3]


# Made for each test (not once per module): mutmut runs, for a mutant, the tests it saw call the mutated
# code, and a shared result would be computed under one test only.
@pytest.fixture
def eight_and_seven():
    return judged(cls("s", "sign", 100, 0.8, SIGN_8) + cls("v", "verify", 100, 1.25, VERIFY_7))


def test_each_class_shift_is_its_median_ratio_with_its_order_statistic_interval(eight_and_seven):
    (experiment,) = eight_and_seven.experiments
    shifts = {shift.label: shift for shift in experiment.shifts}
    sign, verify = shifts[SIGN], shifts[VERIFY]
    assert (sign.cases, sign.basis, verify.cases, verify.basis) == (8, 8, 7, 7)
    assert sign.ratio == pytest.approx(0.8, rel=1e-9)
    assert verify.ratio == pytest.approx(1.25, rel=1e-9)
    # 95 % of a median of 7 or 8 values: the smallest and the largest (Binomial(n, 1/2) ≤ 0 is under 2.5 %,
    # ≤ 1 is not), so 0.8·e^-0.004 to 0.8·e^0.3, and 1.25·e^-0.3 to 1.25·e^0.3.
    assert (sign.low, sign.high) == pytest.approx((0.8 * math.exp(-0.004), 0.8 * math.exp(0.3)), rel=1e-9)
    assert (verify.low, verify.high) == pytest.approx((1.25 * math.exp(-0.3), 1.25 * math.exp(0.3)), rel=1e-9)


def test_a_class_of_eight_uses_its_own_spread_and_one_of_seven_the_pooled_one(eight_and_seven):
    """sign (8 cases): 1.4826 × median |0, 0, .001, .001, .002, .002, .004, .3| = 1.4826 × .0015 = .0022239.
    verify (7 cases): 1.4826 × the median of all 15 |residuals| (the 8th: .004) = .0059304, not its own
    1.4826 × .2 = .29652."""
    cases = by_name(eight_and_seven)
    for name in ("s0", "s7"):
        assert cases[name].spread_log == pytest.approx(0.0022239, rel=1e-6)
        assert cases[name].spread_source == comparison.PAIR
    for name in ("v0", "v6"):
        assert cases[name].spread_log == pytest.approx(0.0059304, rel=1e-6)


def test_the_residuals_z_and_verdicts_of_the_eight_and_the_seven(eight_and_seven):
    cases = by_name(eight_and_seven)
    assert cases["s7"].residual == pytest.approx(math.exp(0.3), rel=1e-9)
    assert cases["s7"].verdict is Verdict.SLOWER, "z = .3 / .0022239 = 135"
    # ±0.4 %: z = .004 / .0022239 = 1.7986, two-sided p = .072075: not significant, and within 5 % anyway.
    assert cases["s6"].residual == pytest.approx(math.exp(0.002), rel=1e-9)
    assert cases["s0"].p_value == pytest.approx(0.0720753, rel=1e-5)
    assert cases["s0"].verdict is Verdict.SAME
    assert cases["s3"].p_value == pytest.approx(1.0)
    # verify against the pooled .0059304: ±10 % and more are far beyond it (z ≥ 16.9).
    expected = {"v0": Verdict.FASTER, "v1": Verdict.FASTER, "v2": Verdict.FASTER, "v3": Verdict.SAME}
    expected |= {"v4": Verdict.SLOWER, "v5": Verdict.SLOWER, "v6": Verdict.SLOWER}
    assert {name: cases[name].verdict for name in expected} == expected
    assert cases["v0"].residual == pytest.approx(math.exp(-0.3), rel=1e-9)


def test_the_class_of_eight_with_one_case_less_takes_the_pooled_spread():
    """sign with 7 cases (the .002 one dropped; its median is still 0) joins verify below the line: the
    median of the 14 |residuals| is (.004 + .1) / 2 = .052, so both use 1.4826 × .052 = .0770952. sign's
    35 % case: z = .3 / .0770952 = 3.8913, p = 9.9712e-5."""
    seven = [r for r in SIGN_8 if r != 0.002]
    cases = by_name(judged(cls("s", "sign", 100, 0.8, seven) + cls("v", "verify", 100, 1.25, VERIFY_7)))
    assert cases["s6"].residual == pytest.approx(math.exp(0.3), rel=1e-9)
    assert cases["s6"].spread_log == pytest.approx(0.0770952, rel=1e-6)
    assert cases["s6"].p_value == pytest.approx(9.97115e-5, rel=1e-4)
    assert cases["v0"].spread_log == pytest.approx(0.0770952, rel=1e-6)


def test_the_class_of_seven_with_one_case_more_takes_its_own_spread():
    """verify with 8 cases (one more at 0; median still 0) uses its own 1.4826 × median |…| = 1.4826 × .15
    = .22239: its ±35 % cases are now within its noise (z = 1.349, p = .17734)."""
    eight = [*VERIFY_7, 0.0]
    cases = by_name(judged(cls("s", "sign", 100, 0.8, SIGN_8) + cls("v", "verify", 100, 1.25, eight)))
    assert cases["v6"].spread_log == pytest.approx(0.22239, rel=1e-6)
    assert cases["v6"].p_value == pytest.approx(0.1773429, rel=1e-5)
    assert cases["v6"].verdict is Verdict.SAME
    assert cases["v0"].verdict is Verdict.SAME
    assert cases["s0"].spread_log == pytest.approx(0.0022239, rel=1e-6), "sign keeps its own"


@pytest.mark.parametrize(
    ("residual", "expected"),
    [
        (1.022, Verdict.SLOWER),
        (1.018, Verdict.SAME),
        (0.98, Verdict.FASTER),  # 1 / 1.02 = .980392
        (1 / 1.018, Verdict.SAME),  # .982318
        (0.9803, Verdict.FASTER),
        (0.9804, Verdict.SAME),
        (1.0201, Verdict.SLOWER),
        (1.0199, Verdict.SAME),
    ],
)
def test_the_two_percent_floor_from_both_sides(residual, expected):
    """The one threshold of a difference (thresholds.DIFFERENCE, 2 %), the same as the pages' prose."""
    assert verdict(residual, 0.001) is expected


@pytest.mark.parametrize(("p", "expected"), [(0.0499, Verdict.SLOWER), (0.05, Verdict.SAME), (0.0501, Verdict.SAME)])
def test_significance_is_an_adjusted_p_under_five_percent(p, expected):
    assert verdict(1.5, p) is expected


# Nine cases, five of them exactly on the class's shift: the median |residual| is 0, so the spread is 0.
EDGE_9 = [0.0, 0.0, 0.0, 0.0, 0.0, math.log(1.018), math.log(1.022), math.log(1 / 1.018), math.log(0.98)]


def test_a_spread_of_zero_leaves_the_two_percent_floor_to_decide():
    """A class whose cases moved exactly together has no noise: any residual but 1 is significant
    (z infinite, p 0), none crashes, and the 2 % floor decides: 1.8 % either way is ~, 2.2 % and 2 % (as a
    factor .98) are changes."""
    cases = by_name(judged(cls("e", "sign", 500, 1.1, EDGE_9)))
    assert {case.spread_log for case in cases.values()} == {0.0}
    assert [cases[f"e{i}"].p_value for i in range(5)] == [1.0] * 5
    assert [cases[f"e{i}"].p_value for i in range(5, 9)] == [0.0] * 4
    verdicts = [cases[f"e{i}"].verdict for i in range(5, 9)]
    assert verdicts == [Verdict.SAME, Verdict.SLOWER, Verdict.SAME, Verdict.FASTER]
    assert all(cases[f"e{i}"].verdict is Verdict.SAME for i in range(5))


def test_a_pair_that_moved_exactly_together_changes_nothing():
    cases = by_name(judged(cls("z", "sign", 100, 0.5, [0.0] * 9)))
    assert {(case.spread_log, case.p_value, case.verdict) for case in cases.values()} == {(0.0, 1.0, Verdict.SAME)}


def zero_pair(base_ns, new_ns):
    names = [f"bg{i}" for i in range(8)]
    base_rows = [row for name in names for row in rows(name, "sign", 100, BASE_NS)]
    new_rows = [row for name in names for row in rows(name, "sign", 100, 0.9 * BASE_NS)]
    for side, times in ((base_rows, base_ns), (new_rows, new_ns)):
        side += [
            {**row, "elapsed_ns": round(t * ITERATIONS)}
            for row, t in zip(rows("z", "sign", 100, 0), times, strict=True)
        ]
    base = Run.from_rows("20260101T0000Z-base-php8.2", manifest("20260101T0000Z-base-php8.2"), {"jwt.csv": base_rows})
    fresh = manifest("20260101T0100Z-new-php8.2")
    new = Run.from_rows(fresh["run_id"], fresh, {"jwt.csv": new_rows})
    return comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])


@pytest.mark.parametrize(
    ("base_ns", "new_ns"),
    [
        ([0.0] * 7, [1000.0] * 7),  # from nothing to a microsecond: a change, but no ratio
        ([1000.0] * 7, [0.0] * 7),
        ([0.0] * 4 + [1000.0] * 3, [1000.0] * 7),  # a median of 0 from 4 zero samples of 7
        ([0.0] * 4 + [1000.0] * 3, [0.0] * 5 + [9.0] * 2),
    ],
)
def test_a_median_of_zero_is_zero_time_not_a_verdict(base_ns, new_ns):
    """0 ns an operation is a clock that did not move: no ratio exists, so the case is untested and
    says so (`zero time`), never `~`, and it stays out of the Benjamini–Hochberg family."""
    result = zero_pair(base_ns, new_ns)
    case = by_name(result)["z"]
    assert case.verdict is Verdict.ZERO
    assert (case.ratio, case.p_value, case.p_adjusted) == (None, None, None)
    assert result.tested == 8
    assert result.counts()[Verdict.ZERO] == 1
    assert case.abs_log_ratio == 0.0
    exported = json_export.to_dict(result)
    assert "zero time" in exported["method"]["untested_verdicts"]


def test_constant_zero_samples_on_both_sides_are_identical():
    assert by_name(zero_pair([0.0] * 7, [0.0] * 7))["z"].verdict is Verdict.IDENTICAL


def model_of(machine, sd=0.5):
    label_noise = {SIGN: noise_model.ClassNoise(8, 0.1, sd), VERIFY: noise_model.ClassNoise(7, 0.1, sd)}
    return noise_model.NoiseModel(
        machine, {"quick": noise_model.ProfileNoise("quick", ("r1", "r2"), {"jwt": label_noise})}
    )


EIGHT_AND_SEVEN = cls("s", "sign", 100, 0.8, SIGN_8) + cls("v", "verify", 100, 1.25, VERIFY_7)


def test_the_machines_model_judges_a_pair_of_that_machine():
    """The control: with the model of the pair's machine, every case is judged against √2 × .5."""
    result = judged(EIGHT_AND_SEVEN, model=model_of(FIXTURE_MANIFEST["machine"]["name"]))
    assert result.noise_runs == ("r1", "r2")
    cases = by_name(result)
    assert cases["s7"].spread_log == pytest.approx(math.sqrt(2) * 0.5)
    assert cases["s7"].spread_source == comparison.MODEL
    assert cases["s7"].verdict is Verdict.SAME, "35 % is within a model whose runs differ by 50 %"


@pytest.mark.parametrize(
    "change",
    [
        {"machine__name": "amd-epyc-0c0c0c", "cpu__model": "AMD EPYC 7B13"},
        {"php__version": "8.3.1"},  # one machine name, another PHP: still across machines
        {"machine__name": "amd-epyc-0c0c0c"},
    ],
)
def test_a_pair_across_machines_is_never_judged_with_a_machines_model(change):
    """Whichever machine the model is of, a pair across machines takes no model, and judges no case."""
    fixture_machine = FIXTURE_MANIFEST["machine"]["name"]
    new_manifest = manifest("20260101T0100Z-new-php8.2", **change)
    for machine in {fixture_machine, new_manifest["machine"]["name"]}:
        result = judged(EIGHT_AND_SEVEN, model=model_of(machine), new_manifest=new_manifest)
        assert result.across_machines
        assert result.noise_runs is None
        cases = by_name(result)
        assert cases["s7"].verdict is Verdict.ACROSS
        assert (cases["s7"].spread_log, cases["s7"].p_value) == (None, None)


def test_a_model_applies_only_when_both_runs_are_of_its_machine_and_profile():
    machine = FIXTURE_MANIFEST["machine"]["name"]
    same = pair(EIGHT_AND_SEVEN)
    assert comparison.applicable_model(model_of(machine), *same) is not None
    assert comparison.applicable_model(None, *same) is None
    assert comparison.applicable_model(model_of("another"), *same) is None
    other = pair(EIGHT_AND_SEVEN, manifest("20260101T0100Z-new-php8.2", machine__name="another"))
    assert comparison.applicable_model(model_of(machine), *other) is None
    assert comparison.applicable_model(model_of("another"), *other) is None
    full = pair(EIGHT_AND_SEVEN, manifest("20260101T0100Z-new-php8.2", profile="full"))
    assert comparison.applicable_model(model_of(machine), *full) is None
    only_full = noise_model.NoiseModel(machine, {"full": model_of(machine).profiles["quick"]})
    assert comparison.applicable_model(only_full, *same) is None, "the pair is quick, the model full only"


def test_a_case_of_one_run_keeps_the_side_it_has():
    classes = cls("s", "sign", 100, 0.8, SIGN_8)
    base, new = pair(classes)
    only_base = rows("gone", "sign", 100, 1234.0)
    only_new = rows("added", "sign", 100, 4321.0)
    base = Run.from_rows(base.run_id, base.manifest, {"jwt.csv": base.tables["jwt.csv"] + only_base})
    new = Run.from_rows(new.run_id, new.manifest, {"jwt.csv": new.tables["jwt.csv"] + only_new})
    cases = by_name(comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]]))
    gone, added = cases["gone"], cases["added"]
    assert (gone.verdict, added.verdict) == (Verdict.MISSING, Verdict.NEW)
    assert gone.base is not None
    assert gone.base.median_ns == pytest.approx(1234.0)
    assert gone.new is None
    assert added.new is not None
    assert added.new.median_ns == pytest.approx(4321.0)
    assert added.base is None


def test_a_zero_time_case_keeps_both_sides():
    case = by_name(zero_pair([0.0] * 7, [1000.0] * 7))["z"]
    assert case.base is not None
    assert case.new is not None
    assert (case.base.median_ns, case.new.median_ns) == (0.0, pytest.approx(1000.0))


def test_each_judged_case_names_its_class(eight_and_seven):
    cases = by_name(eight_and_seven)
    assert {cases[f"s{i}"].case_class for i in range(8)} == {SIGN}
    assert {cases[f"v{i}"].case_class for i in range(7)} == {VERIFY}


def test_a_cases_own_spread_in_the_model_is_moderated_by_its_classs():
    """The model's per-case SD (kept from 5 runs on) judges that case with its class's: their variances
    weighted by the case's degrees of freedom (here 1: two runs of one boot) and CLASS_PRIOR_DF (4), so
    one lucky run of small spread cannot make a case look changed; the others take the class's."""
    machine = FIXTURE_MANIFEST["machine"]["name"]
    model = model_of(machine)
    own = noise_model.ProfileNoise(
        "quick", ("r1", "r2"), model.profiles["quick"].classes, {"jwt": {"s7 · 100 · sign": 0.01}}
    )
    cases = by_name(judged(EIGHT_AND_SEVEN, model=noise_model.NoiseModel(machine, {"quick": own})))
    assert cases["s7"].spread_log == pytest.approx(math.sqrt(2) * math.sqrt((4 * 0.5**2 + 1 * 0.01**2) / 5))
    assert cases["s7"].verdict is Verdict.SAME, "35 % against √2 × 44.7 %, not against √2 × 1 %"
    assert cases["s6"].spread_log == pytest.approx(math.sqrt(2) * 0.5)


def test_the_within_run_spread_is_added_to_the_between_run_spread_in_quadrature():
    """One case with samples that vary: its z is its residual over √(spread² + within²), the within-run
    SD being its ratio's 95 % CI on the log scale over 2 × 1.96."""
    base, new = pair(cls("s", "sign", 100, 0.8, SIGN_8))
    wobbly_base = [
        {**row, "elapsed_ns": round(1000.0 * (1 + 0.02 * k) * ITERATIONS)}
        for k, row in enumerate(rows("w", "sign", 100, 0))
    ]
    wobbly_new = [
        {**row, "elapsed_ns": round(830.0 * (1 + 0.02 * k) * ITERATIONS)}
        for k, row in enumerate(rows("w", "sign", 100, 0))
    ]
    base = Run.from_rows(base.run_id, base.manifest, {"jwt.csv": base.tables["jwt.csv"] + wobbly_base})
    new = Run.from_rows(new.run_id, new.manifest, {"jwt.csv": new.tables["jwt.csv"] + wobbly_new})
    case = by_name(comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]]))["w"]
    assert case.ratio_low is not None
    assert case.ratio_high is not None
    assert case.residual is not None
    within = (math.log(case.ratio_high) - math.log(case.ratio_low)) / (2 * 1.959963984540054)
    assert within > case.spread_log, "the within-run part is the larger here: leaving it out would show"
    z = math.log(case.residual) / math.hypot(case.spread_log, within)
    assert case.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), rel=1e-9)


def test_an_upgraded_run_shows_the_schema_version_it_was_written_under():
    base, new = pair(EIGHT_AND_SEVEN)
    written_under = dataclasses.replace(base, source_version=4)
    result = comparison.compare(written_under, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    schema = next(row for row in result.environment.rows if row.label == "Schema version")
    assert (schema.base, schema.new) == ("4", str(FIXTURE_MANIFEST["schema_version"]))


def test_the_comparison_names_the_measured_columns_and_why_its_base_was_chosen():
    base, new = pair(EIGHT_AND_SEVEN)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], baseline_reason="the newest full run")
    (experiment,) = result.experiments
    assert (experiment.time_column, experiment.iterations_column) == ("elapsed_ns", "iterations")
    assert result.baseline_reason == "the newest full run"


def test_the_largest_changes_are_ten_unless_asked_for_more():
    """Twelve cases on the shift and eleven 20 % beyond it (a spread of 0: all significant)."""
    residuals = [0.0] * 12 + [math.log(1.2)] * 6 + [math.log(1 / 1.2)] * 5
    result = judged(cls("c", "sign", 100, 1.0 + 1e-3, residuals))
    assert result.counts()[Verdict.SLOWER] + result.counts()[Verdict.FASTER] == 11
    assert len(result.largest()) == 10
    assert len(result.largest(11)) == 11

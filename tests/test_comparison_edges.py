"""`compare` at its edges, on values (issue 44): every threshold a verdict turns on, just below, at and just
above it, and what each case keeps of its two sides. Constant samples (test_comparison_values.py's pairs):
every ratio is exact, so the expected numbers are written out by hand."""

from __future__ import annotations

import math

import pytest

from phpcb.compare import comparison, noise
from phpcb.compare.comparison import (
    ALPHA,
    MIN_SAMPLES,
    THRESHOLD,
    CaseComparison,
    ExperimentComparison,
    Side,
    Verdict,
    verdict,
)
from phpcb.data import noise_model
from phpcb.data.loader import Run

from .test_comparison import EXPERIMENTS, FIXTURE_MANIFEST, SCHEMAS, manifest
from .test_comparison_values import SIGN, SIGN_8, VERIFY, by_name, cls, judged, pair, rows

JWT = EXPERIMENTS["jwt"]
BOOT_A = {"id": "a" * 8 + "-0000-4000-8000-" + "0" * 12, "uptime_s": 60}
BOOT_B = {"id": "b" * 8 + "-0000-4000-8000-" + "0" * 12, "uptime_s": 60}


def test_the_thresholds_are_the_documented_ones():
    assert (ALPHA, THRESHOLD, MIN_SAMPLES) == (0.05, 0.02, 5), "THRESHOLD: the one threshold of a difference"
    assert comparison.MIN_CASES_FOR_SPREAD == 8
    assert (noise.MIN_CASES_PER_CLASS, noise.MIN_RUNS_PER_CASE) == (3, 5)


@pytest.mark.parametrize(
    ("residual", "p", "expected"),
    [
        # α, on a change far beyond the 2 %: just below it is a change, at it and above it is not.
        (0.5, ALPHA - 1e-9, Verdict.FASTER),
        (0.5, ALPHA, Verdict.SAME),
        (0.5, ALPHA + 1e-9, Verdict.SAME),
        (2.0, ALPHA - 1e-9, Verdict.SLOWER),
        (2.0, ALPHA, Verdict.SAME),
        (2.0, ALPHA + 1e-9, Verdict.SAME),
        # The 2 %, on a p far below α: beyond it is a change, at it and within it is not.
        (1 / 1.02 - 1e-9, 1e-6, Verdict.FASTER),
        (1 / 1.02, 1e-6, Verdict.SAME),
        (1 / 1.02 + 1e-9, 1e-6, Verdict.SAME),
        (1.02 + 1e-9, 1e-6, Verdict.SLOWER),
        (1.02, 1e-6, Verdict.SAME),
        (1.02 - 1e-9, 1e-6, Verdict.SAME),
        (1.0, 0.0, Verdict.SAME),
    ],
)
def test_each_verdict_edge_from_below_at_and_above(residual, p, expected):
    assert verdict(residual, p) is expected


def few(name, count, per_op_ns):
    return rows(name, "sign", 100, per_op_ns)[:count]


@pytest.mark.parametrize(
    ("base_n", "new_n", "too_few"),
    [(7, 4, True), (4, 7, True), (7, 5, False), (5, 7, False), (5, 5, False), (4, 4, True)],
)
def test_five_samples_a_side_are_the_fewest_compared(base_n, new_n, too_few):
    """The case 'e' takes twice the time in NEW: a ratio of exactly 2 whether it is tested or not."""
    base, new = pair(cls("s", "sign", 100, 0.8, SIGN_8))
    base = Run.from_rows(base.run_id, base.manifest, {"jwt.csv": base.tables["jwt.csv"] + few("e", base_n, 1000.0)})
    new = Run.from_rows(new.run_id, new.manifest, {"jwt.csv": new.tables["jwt.csv"] + few("e", new_n, 2000.0)})
    case = by_name(comparison.compare(base, new, SCHEMAS, [JWT]))["e"]
    assert case.base == Side(base_n, 1000.0, case.base.ci_low_ns, case.base.ci_high_ns)
    assert case.new == Side(new_n, 2000.0, case.new.ci_low_ns, case.new.ci_high_ns)
    assert case.ratio == 2.0
    if too_few:
        assert case.verdict is Verdict.TOO_FEW
        assert (case.p_value, case.residual) == (None, None)
    else:
        assert case.verdict is Verdict.SLOWER, "2 / 0.8 beyond the class's tight spread"
        assert case.residual == pytest.approx(2.0 / 0.8, rel=1e-9)


def test_a_judged_case_keeps_both_sides_its_experiment_and_its_label():
    result = judged(cls("s", "sign", 100, 0.8, SIGN_8))
    (experiment,) = result.experiments
    assert (experiment.name, experiment.title) == ("jwt", JWT.title)
    assert experiment.key_columns == ("alg", "payload_chars", "operation")
    case = by_name(result)["s3"]  # on the shift: 800 ns against 1000, 7 samples each
    assert case.base == Side(7, 1000.0, 1000.0, 1000.0)
    assert case.new == Side(7, pytest.approx(800.0), pytest.approx(800.0), pytest.approx(800.0))
    assert case.ratio == pytest.approx(0.8, rel=1e-12)
    assert experiment.case_label(case) == "s3 · payload_chars=100 · sign"


def test_a_case_label_names_its_numbers_and_booleans_by_their_column():
    experiment = ExperimentComparison("x", "X", ("flag", "size", "name", "off"), "elapsed_ns", None, [])
    case = CaseComparison((True, 2.5, "y", False), None, None, Verdict.NEW)
    assert experiment.case_label(case) == "flag=true · size=2.5 · y · off=false"


def test_a_class_of_two_takes_its_shift_over_every_case_and_one_of_three_its_own():
    """sign: three cases at .8 × e^(-.01, 0, .01). verify: two at 1.25 × e^(∓.01): two cases' median is
    their half-way point, so the class takes the median of all five: .8 × e^.01 (the third of
    .8e^-.01 < .8 < .8e^.01 < 1.25e^-.01 < 1.25e^.01). With a third case verify is its own: 1.25. Under 6
    values the median's 95 % CI is infinite: the shift is not known."""
    two = by_name_shifts(
        judged(cls("s", "sign", 100, 0.8, [-0.01, 0.0, 0.01]) + cls("v", "verify", 100, 1.25, [-0.01, 0.01]))
    )
    assert (two[SIGN].cases, two[SIGN].basis, two[VERIFY].cases, two[VERIFY].basis) == (3, 3, 2, 5)
    assert two[SIGN].ratio == pytest.approx(0.8, rel=1e-9)
    assert two[VERIFY].ratio == pytest.approx(0.8 * math.exp(0.01), rel=1e-9)
    assert (two[VERIFY].low, two[VERIFY].high, two[VERIFY].known) == (0.0, math.inf, False)
    three = by_name_shifts(
        judged(cls("s", "sign", 100, 0.8, [-0.01, 0.0, 0.01]) + cls("v", "verify", 100, 1.25, [-0.01, 0.0, 0.01]))
    )
    assert (three[VERIFY].cases, three[VERIFY].basis) == (3, 3)
    assert three[VERIFY].ratio == pytest.approx(1.25, rel=1e-9)


def by_name_shifts(result):
    (experiment,) = result.experiments
    return {shift.label: shift for shift in experiment.shifts}


def two_boot_model(within: float, between: float | None, cases: dict[str, float] | None = None, boots: int = 2):
    runs = ("r1", "r2", "r3", "r4")
    assigned = {run: BOOT_A["id"] if boots == 1 or i < 2 else BOOT_B["id"] for i, run in enumerate(runs)}
    classes = {"jwt": {SIGN: noise_model.ClassNoise(8, 0.01, within, 0.02 if between else None, between)}}
    section = noise_model.ProfileNoise("quick", runs, classes, {"jwt": cases or {}}, assigned)
    return section


def test_judge_takes_the_spread_within_a_boot_unless_told_the_runs_are_of_two():
    base, new = pair(cls("s", "sign", 100, 0.8, SIGN_8))
    old, fresh = comparison.samples(base, JWT, SCHEMAS), comparison.samples(new, JWT, SCHEMAS)
    drafts = [comparison._draft(key, old[key], fresh[key]) for key in old]
    model = two_boot_model(0.02, 0.05)
    within, _ = comparison.judge(JWT, SCHEMAS, drafts, model)
    assert [(c.spread_log, c.spread_source) for c in within] == [
        (pytest.approx(0.0282843, rel=1e-5), comparison.MODEL)
    ] * 8
    across, _ = comparison.judge(JWT, SCHEMAS, drafts, model, across_boots=True)
    # √2 × √(.02² + .05²) = √2 × .0538516
    assert [(c.spread_log, c.spread_source) for c in across] == [
        (pytest.approx(0.0761577, rel=1e-5), comparison.MODEL_BOOTS)
    ] * 8


def test_a_model_of_one_boot_lends_a_case_its_own_sd_for_a_pair_of_two_boots():
    """s7's own SD in the model, .3 on 3 degrees of freedom (4 runs of one boot), moderated by its class's
    1e-6 (counted as 4): .3 × √(3 / 7) = .1964, beats the pair's .0022239 (test_comparison_values); the
    other cases take the class's 1e-6, below the pair's: the pair's stands."""
    new_manifest = manifest("20260101T0100Z-new-php8.2", boot=BOOT_B)
    base, new = pair(cls("s", "sign", 100, 0.8, SIGN_8), new_manifest)
    base.manifest["boot"] = BOOT_A
    section = two_boot_model(1e-6, None, {"s7 · 100 · sign": 0.3}, boots=1)
    model = noise_model.NoiseModel(FIXTURE_MANIFEST["machine"]["name"], {"quick": section})
    cases = by_name(comparison.compare(base, new, SCHEMAS, [JWT], model=model))
    assert cases["s7"].spread_source == comparison.PAIR_ONE_BOOT
    assert cases["s7"].spread_log == pytest.approx(math.sqrt(2) * 0.3 * math.sqrt(3 / 7))
    assert cases["s7"].verdict is Verdict.SAME, "z = .3 / (√2 × .1964) = 1.08"
    assert cases["s0"].spread_source == comparison.PAIR_ONE_BOOT
    assert cases["s0"].spread_log == pytest.approx(0.0022239, rel=1e-6)


def test_a_pair_across_machines_judges_no_case_and_takes_no_model():
    """Another PHP on the same machine name is a pair across machines: the model of the machine does not
    apply (noise_runs None), and every case that would be tested is withheld; the class's shift is still
    taken, as what the two differ by."""
    section = two_boot_model(0.5, None, boots=1)
    model = noise_model.NoiseModel(FIXTURE_MANIFEST["machine"]["name"], {"quick": section})
    other_php = manifest("20260101T0100Z-new-php8.2", php__version="8.3.1")
    base, new = pair(cls("s", "sign", 100, 0.8, SIGN_8), other_php)
    new = Run.from_rows(new.run_id, new.manifest, {"jwt.csv": new.tables["jwt.csv"] + few("added", 7, 900.0)})
    result = comparison.compare(base, new, SCHEMAS, [JWT], model=model)
    assert result.across_machines
    assert result.noise_runs is None
    assert result.tested == 0
    cases = by_name(result)
    assert cases.pop("added").verdict is Verdict.NEW, "what is not a timing pair keeps its verdict"
    assert {case.verdict for case in cases.values()} == {Verdict.ACROSS}
    assert {(case.p_value, case.spread_log, case.spread_source) for case in cases.values()} == {(None, None, None)}
    assert cases["s7"].ratio == pytest.approx(0.8 * math.exp(0.3), rel=1e-9)
    (shift,) = result.experiments[0].shifts
    assert (shift.cases, shift.basis) == (8, 8)
    assert shift.ratio == pytest.approx(0.8, rel=1e-9)
    same = comparison.compare(*pair(cls("s", "sign", 100, 0.8, SIGN_8)), SCHEMAS, [JWT], model=model)
    assert same.noise_runs == section.runs, "the control: the same pair on one PHP takes the model"
    assert by_name(same)["s7"].verdict is Verdict.SAME, "35 % within a model whose runs differ by 50 %"

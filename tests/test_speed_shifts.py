"""Whether a run's speed shifted while it measured, from its own rounds (statistics/speed_shifts.py), and the
lines `python -m phpcb precision` and the Runs page print of it."""

from __future__ import annotations

import copy
import dataclasses
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.pages import build as site
from phpcb.presentation import wording
from phpcb.statistics import speed_shifts
from phpcb.statistics.speed_shifts import GroupMove, SpeedShifts, group_move, round_factors

from .conftest import FIXTURE_RUN, ROOT, project_with
from .test_machine_speed import copy_of_the_fixture, precision_line, rescaled

SCHEMAS = load_schemas(ROOT / "data" / "schema")

COSTS = (1.0, 3.0, 7.0, 11.0, 20.0)  # what the cases of one group cost apart: a factor is relative to each


def _noisy(rng: np.random.Generator, size: int, sigma: float = 0.02) -> np.ndarray:
    return rng.normal(1.0, sigma, size)


def test_a_speed_step_every_case_of_the_rounds_shares_is_a_shift_even_half_and_half():
    rng = np.random.default_rng(1)
    step = np.r_[np.ones(10), np.full(10, 1.6)]
    cases = [cost * step * _noisy(rng, 20) for cost in COSTS]
    factors = round_factors(np.vstack(cases))
    assert factors[:10] == pytest.approx(np.full(10, 0.79), abs=0.03), "each case's median sits between the two speeds"
    assert factors[10:] == pytest.approx(np.full(10, 1.26), abs=0.04)
    found = group_move(cases)
    assert found is not None
    assert found.move == pytest.approx(1.6, abs=0.05)
    assert found.floor < 1.1, "with each round's factor taken out, the cases' own noise is 2 %"
    assert found.shifted


def test_cases_noisy_each_on_its_own_move_their_rounds_medians_without_a_shift():
    """ML-DSA signing takes a random time by design: eight such cases' round medians move by chance."""
    rng = np.random.default_rng(2)
    cases = [cost * np.exp(rng.normal(0.0, 0.35, 20)) for cost in (*COSTS, 30.0, 40.0, 50.0)]
    found = group_move(cases)
    assert found is not None
    assert found.move > speed_shifts.SHIFTED, "the rounds' medians do move as far as a shift's"
    assert not found.shifted, found


def test_a_quiet_group_is_steady():
    rng = np.random.default_rng(3)
    found = group_move([cost * _noisy(rng, 12) for cost in COSTS])
    assert found is not None
    assert found.move < speed_shifts.SHIFTED
    assert not found.shifted


def test_groups_too_small_to_say_and_rounds_too_few_cases_reached_are_left_out():
    rng = np.random.default_rng(4)
    step = np.r_[np.ones(10), np.full(10, 1.6)]
    assert group_move([cost * step * _noisy(rng, 20) for cost in COSTS[:3]]) is None, "three cases"
    assert group_move([cost * _noisy(rng, 6) for cost in COSTS]) is None, "six rounds"
    # Two cases stop after 8 rounds; three go on, at two speeds: rounds fewer than four cases reached are no
    # group's (a median of three random times moves as if the host had).
    short = [cost * _noisy(rng, 8) for cost in COSTS[:2]]
    going = [cost * np.r_[_noisy(rng, 8), np.full(30, 2.0)] for cost in COSTS[2:]]
    found = group_move([*short, *going])
    assert found is not None
    assert found.move < 1.1, found


def test_the_median_without_nanmedian_is_nanmedians():
    rng = np.random.default_rng(5)
    for _ in range(100):
        values = rng.random((int(rng.integers(1, 9)), int(rng.integers(1, 12))))
        values[rng.random(values.shape) < 0.3] = np.nan
        for axis in (0, 1):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # numpy's all-NaN slice: NaN, as ours
                expected = np.nanmedian(values, axis=axis)
            assert np.array_equal(speed_shifts._nan_median(values, axis), expected, equal_nan=True)


@pytest.mark.parametrize(
    ("shifted", "groups", "steady"),
    [(0, 40, True), (1, 40, True), (2, 40, False), (3, 51, False), (2, 51, True)],
)
def test_a_run_shifts_from_one_group_in_twenty(shifted: int, groups: int, steady: bool):
    moves = [GroupMove(1.8, 1.0)] * shifted + [GroupMove(1.05, 1.0)] * (groups - shifted) + [None]
    found = speed_shifts.speed_shifts(moves)
    assert found == SpeedShifts(groups, shifted, 1.8 if shifted else 1.0)
    assert found.steady is steady
    assert wording.speed_shifts(found).startswith("steady (" if steady else "shifting: in ")


def test_a_shift_is_both_wide_and_beyond_the_cases_own_noise():
    assert GroupMove(1.3, 1.0).shifted
    assert not GroupMove(1.29, 1.0).shifted, "narrower than SHIFTED"
    assert not GroupMove(1.8, 1.6).shifted, "within TOGETHER of what the cases' own noise gives"
    assert speed_shifts.speed_shifts([None]) is None


def stepped(run: Path, factor: float) -> None:
    """Rounds 4-6 of every table sampled in rotation `factor` times slower (the fake clock's cases take 7
    samples each): the host's speed changing while it measured. Re-sealed."""
    rotated = [run / name for name in ("aead.csv", "ec_keygen.csv", "jwt.csv", "symmetric.csv")]
    rescaled(run, rotated, lambda row: factor if int(row["sample"]) >= 4 else 1.0)


def test_precision_and_the_runs_page_say_a_run_shifted_speed_from_the_run_alone(tmp_path: Path):
    root = project_with(tmp_path, FIXTURE_RUN)
    runs = root / "data" / "runs"
    steady = precision_line(root, runs / FIXTURE_RUN.name, "speed shifts")
    assert steady.startswith("speed shifts: steady (0 of "), steady
    shifted = copy_of_the_fixture(runs, "20260102T0000Z-fixture-php8.2")
    stepped(shifted, 1.6)
    line = precision_line(root, shifted, "speed shifts")
    assert line.startswith("speed shifts: shifting: in "), line
    assert "whole rounds ran at speeds up to 1.6" in line
    assert line.endswith("ratios paired round by round are largely spared (both sides share the round)")

    built = site.build(root)
    (row,) = [line for line in built.pages["machines.md"].splitlines() if line.startswith("| `intel-xeon")]
    assert "| 2 (1 shifting) |" in row, "the Machines page counts each machine's runs taken while it shifted"
    assert "**shifting**, of them, those taken while the host's speed shifted" in built.pages["machines.md"]
    page = built.pages["runs.md"]
    sections = {part.split("`", 1)[0]: part for part in page.split("\n## `")[1:]}
    assert "Speed within the run, from its own rounds: shifting: in " in sections["20260102T0000Z-fixture-php8.2"]
    assert "Speed within the run, from its own rounds: steady (0 of " in sections[FIXTURE_RUN.name]


def test_a_case_timed_at_zero_leaves_the_rounds_to_the_others_without_a_warning():
    """A case whose median is 0 ns (all of it, or most) has no speed to relate its samples to: its row is left
    out of every round, silently (warnings are errors here), and the other cases decide."""
    rng = np.random.default_rng(6)
    step = np.r_[np.ones(10), np.full(10, 1.6)]
    cases = [cost * step * _noisy(rng, 20) for cost in COSTS]
    zero, mostly_zero = np.zeros(20), np.r_[np.zeros(15), np.ones(5)]
    with_zeros, without = group_move([*cases, zero, mostly_zero]), group_move(cases)
    assert with_zeros is not None
    assert without is not None
    assert with_zeros.move == without.move
    assert with_zeros.shifted


def test_four_cases_make_a_group_and_a_round_four_of_them_reached_counts():
    rng = np.random.default_rng(7)
    step = np.r_[np.ones(10), np.full(10, 1.6)]
    four = group_move([cost * step * _noisy(rng, 20) for cost in COSTS[:4]])
    assert four is not None
    assert four.shifted
    # One case stops after 8 rounds; four go on at twice its speed's time: the rounds past 8 count, and the
    # step between them is the group's move.
    short = [COSTS[0] * _noisy(rng, 8)]
    going = [cost * np.r_[_noisy(rng, 8), 2.0 * _noisy(rng, 30)] for cost in COSTS[1:]]
    found = group_move([*short, *going])
    assert found is not None
    assert found.move == pytest.approx(2.0, abs=0.1)
    assert found.shifted


def test_a_move_is_the_90th_percentile_over_the_10th_and_infinite_from_a_zero():
    assert speed_shifts._move(np.arange(1.0, 12.0)) == pytest.approx(10.0 / 2.0, rel=1e-12)
    assert speed_shifts._move(np.r_[np.zeros(5), np.ones(5)]) == math.inf


def test_a_shuffle_reorders_each_case_within_itself_and_keeps_its_padding_last():
    rng = np.random.default_rng(8)
    relative = rng.random((4, 9))
    relative[1, 6:] = relative[3, 2:] = np.nan
    shuffled = speed_shifts._shuffled(relative, np.random.default_rng(9))
    assert np.array_equal(np.isnan(shuffled), np.isnan(relative))
    for before, after in zip(relative, shuffled, strict=True):
        assert sorted(before[~np.isnan(before)]) == sorted(after[~np.isnan(after)])
    assert not np.array_equal(shuffled, relative, equal_nan=True)


def test_the_same_samples_give_the_same_move_every_time():
    """The cases' own noise is measured on shuffles from a fixed seed: a page built twice says the same."""
    rng = np.random.default_rng(10)
    cases = [cost * _noisy(rng, 20, sigma=0.1) for cost in COSTS]
    assert group_move(cases) == group_move(cases)


def test_cases_are_grouped_by_the_columns_they_were_rotated_by():
    times = np.ones(7)
    samples = {("gcm", 16): times, ("gcm", 1024): 2 * times, ("ccm", 16): 3 * times}
    groups = speed_shifts.rotation_groups(samples, ("cipher", "bytes"), ("cipher",))
    assert sorted([float(case[0]) for case in group] for group in groups) == [[1.0, 2.0], [3.0]]


def test_every_experiment_sampled_in_rotation_is_read_past_one_that_was_not(tmp_path: Path):
    """Only the JWT tables, after Argon2's (not rotated) in the manifest, stepped; and a run whose Argon2
    entry has no sampling record at all (as before schema version 5) reads the same."""
    shifted = copy_of_the_fixture(tmp_path, "20260102T0000Z-fixture-php8.2")
    rescaled(shifted, [shifted / "jwt.csv"], lambda row: 1.6 if int(row["sample"]) >= 4 else 1.0)
    run = load_run(shifted, SCHEMAS)
    assert list(run.manifest["experiments"]).index("argon2") < list(run.manifest["experiments"]).index("jwt")
    found = speed_shifts.of_run(run, SCHEMAS)
    assert found is not None
    assert found.shifted > 0
    manifest = copy.deepcopy(run.manifest)
    del manifest["experiments"]["argon2"]["sampling"]
    assert speed_shifts.of_run(dataclasses.replace(run, manifest=manifest), SCHEMAS) == found

"""contest.py: the fastest of several options and the ones no measurement tells from it."""

import numpy as np
import pytest

from phpcb.statistics.contest import Contest, contest
from phpcb.statistics.stats import Ratio

RNG = np.random.default_rng(7)


def times(ns, n=21, sd=0.01):
    return ns * np.exp(RNG.normal(0, sd, n))


def test_each_other_option_is_compared_with_the_best_nearest_first():
    found = contest([("a", times(100)), ("b", times(101)), ("c", times(200))])
    assert found.best == "a"
    assert [name for name, _ in found.others] == ["b", "c"]
    assert found.others[1][1].value == pytest.approx(2.0, rel=0.03), "c's time over a's"
    assert found.tied == ("a", "b")
    assert found.runner_up[0] == "b"
    assert not found.decided


def test_a_clear_winner_is_decided_and_named_alone():
    found = contest([("z", times(100)), ("y", times(150))])
    assert (found.tied, found.decided, found.statement) == (("z",), True, "z")


def test_paired_options_take_the_ratio_round_by_round():
    base = times(100)
    # The same rounds' noise on both: paired, the 3 % gap is clear; apart, it is within the spread.
    drifting = base * np.linspace(0.8, 1.2, base.size)
    found = contest([("a", drifting), ("b", drifting * 1.03)], [True])
    assert found.decided
    assert contest([("a", drifting), ("b", drifting * 1.03)], [False]).tied == ("a", "b")


def test_no_option_is_no_contest_and_one_option_is_decided():
    assert contest([]) is None
    assert Contest("only").statement == "only"
    with pytest.raises(ValueError, match="zip"):
        contest([("a", times(1)), ("b", times(2))], [True, False])


def test_a_three_way_tie_lists_all_three_alphabetically():
    close = Ratio(1.01, 0.98, 1.04)
    assert Contest("m", (("z", close), ("a", close))).statement == "a, m or z (no measurable difference)"

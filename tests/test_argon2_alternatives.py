"""bcrypt's costs (bcrypt.csv) and libsodium's p = 1 Argon2id set against the Argon2 page's latency
budgets, from synthetic samples whose answer is known."""

import numpy as np
import pytest

from phpcb.data.loader import Run
from phpcb.data.policy import load_argon2_policy
from phpcb.experiments.argon2 import alternatives, analysis
from phpcb.statistics.spread import RunSpread

from .conftest import ROOT

ARGON2_POLICY = load_argon2_policy(ROOT / "data" / "policy" / "argon2.yaml")


def bcrypt_rows(ms_by_cost, samples=6):
    rng = np.random.default_rng(7)
    return [
        {
            "cost": cost,
            "sample": s,
            "wall_ns": int(ms * 1e6 * rng.normal(1, 0.005)),
            "cpu_ns": int(ms * 1e6),
            "verified": True,
        }
        for cost, ms in ms_by_cost.items()
        for s in range(samples)
    ]


def argon2_run(bcrypt=(), cells=()):
    manifest = {
        "run_id": "20260101T0000Z-t-php8.2",
        "experiments": {"argon2": {"status": "ok", "files": ["argon2.csv", "bcrypt.csv"]}},
    }
    return Run.from_rows(manifest["run_id"], manifest, {"argon2.csv": list(cells), "bcrypt.csv": list(bcrypt)})


def test_each_budget_gets_the_highest_bcrypt_cost_whose_median_fits():
    result = analysis.analyse(argon2_run(bcrypt_rows({10: 60, 11: 120, 12: 240, 13: 480})))
    assert [c.cost for c in result.bcrypt] == [10, 11, 12, 13]
    choices = {c.budget_ms: c for c in alternatives.bcrypt_choices(result.bcrypt)}
    assert {b: c.statement for b, c in choices.items()} == {
        100: "cost 10",
        250: "cost 12",
        500: "cost 13",
        1000: "cost 13",
    }
    assert [b for b, c in choices.items() if c.beyond_grid] == [500, 1000], "cost 13 is the highest measured"
    assert all(step.ratio.value == pytest.approx(2, rel=0.02) for step in result.bcrypt_steps)
    assert [(s.lower.cost, s.higher.cost) for s in result.bcrypt_steps] == [(10, 11), (11, 12), (12, 13)]


def test_no_bcrypt_cost_within_a_budget_says_none_fits():
    choices = alternatives.bcrypt_choices(analysis.analyse(argon2_run(bcrypt_rows({10: 150}))).bcrypt)
    assert [c.statement for c in choices] == ["none within the budget", "cost 10", "cost 10", "cost 10"]


def test_a_bcrypt_cost_names_the_cost_whose_time_it_quotes_and_its_interval_fits():
    """Issue 46: the 250 ms row read "cost 11 or cost 13 (...)" beside cost 12's 168 ms."""
    result = analysis.analyse(argon2_run(bcrypt_rows({10: 60, 11: 120, 12: 240})))
    spread = RunSpread(0.1, ("a", "b", "c"), "quick")
    at_250 = next(c for c in alternatives.bcrypt_choices(result.bcrypt, spread) if c.budget_ms == 250)
    assert at_250.statement == "cost 11", "240 ms may take about 290 ms in another run: cost 12 fits in some runs only"
    assert at_250.option is result.bcrypt[1]
    assert at_250.timing is not None
    assert at_250.timing.median_ns == result.bcrypt[1].wall.median_ns, "cost 11's own time"
    assert at_250.timing.high_ns <= 250e6
    assert at_250.stronger is not None
    assert at_250.stronger.label == "cost 12"


def test_a_run_without_bcrypt_has_no_bcrypt_choices():
    assert alternatives.bcrypt_choices(analysis.analyse(argon2_run()).bcrypt) == []


def cell(interface, mib, threads, time_cost, ms):
    return [
        {
            "interface": interface,
            "variant": "argon2id",
            "memory_kib": mib * 1024,
            "threads": threads,
            "time_cost": time_cost,
            "oversubscribed": False,
            "sample": s,
            "wall_ns": int(ms * 1e6 * (1 + 0.001 * s)),
            "cpu_ns": int(ms * 1e6 * threads),
            "max_rss_kib": mib * 1024,
            "status": "ok",
            "detail": "",
            "verified": True,
        }
        for s in range(6)
    ]


def test_sodium_users_get_a_p1_pick_per_budget_from_sodiums_own_times():
    cells = [
        *cell("password_hash", 64, 2, 3, 200),
        *cell("password_hash", 64, 1, 3, 380),
        *cell("sodium", 64, 1, 3, 230),  # libsodium's own code, faster than password_hash at p = 1
        *cell("sodium", 128, 1, 3, 460),
        *cell("sodium", 16, 1, 1, 20),
    ]
    result = analysis.analyse(argon2_run(cells=cells))
    context = alternatives.context(result, ARGON2_POLICY)
    sodium = {c.budget_ms: c.statement for c in context["sodium_budgets"]}
    assert sodium == {
        100: "m=16 MiB, t=1, p=1",
        250: "m=64 MiB, t=3, p=1",
        500: "m=128 MiB, t=3, p=1",
        1000: "m=128 MiB, t=3, p=1",
    }
    password_hash = {c.budget_ms: c.statement for c in analysis.budget_choices(result, ("argon2id",))}
    assert password_hash[250] == "m=64 MiB, t=3, p=2", "password_hash's pick may use threads; sodium's never does"
    assert context["bcrypt_budgets"] == []
    assert context["bcrypt_verdict"].status == "acceptable"


def test_a_run_without_sodium_cells_has_no_sodium_picks():
    context = alternatives.context(
        analysis.analyse(argon2_run(cells=cell("password_hash", 64, 1, 3, 200))), ARGON2_POLICY
    )
    assert context["sodium_budgets"] == []


def test_a_bcrypt_pick_resting_on_fewer_than_six_hashes_says_it_is_provisional():
    rows = [row for row in bcrypt_rows({10: 60, 11: 120, 12: 240}) if not (row["cost"] == 12 and row["sample"] >= 3)]
    choices = {c.budget_ms: c for c in alternatives.bcrypt_choices(analysis.analyse(argon2_run(rows)).bcrypt)}
    assert choices[250].statement == "cost 12 (provisional: 3 hashes, fewer than the 6 a 95% CI needs)"
    assert not choices[100].provisional
    assert choices[100].statement == "cost 10"

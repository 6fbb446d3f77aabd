"""Interleaved rounds: per-round series, pairing with the native side, and what a call's fixed cost explains."""

import numpy as np
import pytest

from phpcb.data.schema import declared_measure
from phpcb.statistics import rounds, stats

PHP = declared_measure("aead_rounds.csv")  # a rounds table's timing, as its schema declares it


def php_rows(case, per_round_ns, samples=7, iterations=10):
    return [
        {"case": case, "round": r, "iterations": iterations, "elapsed_ns": int(ns * iterations * (1 + 0.01 * (s - 3)))}
        for r, ns in enumerate(per_round_ns)
        for s in range(samples)
    ]


def native_rows(primitive, per_round_ns, operation="encrypt", block=16384):
    return [
        {
            "primitive": primitive,
            "operation": operation,
            "block_bytes": block,
            "round": r,
            "iterations": 1000,
            "elapsed_ns": int(ns * 1000),
            "command": f"openssl speed -evp {primitive}",
            "tool_version": "OpenSSL 3.0.19",
        }
        for r, ns in enumerate(per_round_ns)
    ]


def test_a_series_has_every_sample_and_each_rounds_median():
    series = rounds.series_by_case(php_rows("a", [100.0, 120.0, 110.0]), lambda r: r["case"], PHP)["a"]
    assert series.per_op_ns.size == 21
    assert series.rounds == [0, 1, 2]
    assert series.by_round == pytest.approx({0: 100.0, 1: 120.0, 2: 110.0}, rel=1e-3)
    assert series.summary.median_ns == pytest.approx(np.median(series.per_op_ns))


def test_a_series_names_how_many_operations_its_samples_took():
    """What a page says of a skewed time depends on it: ML-DSA signing's samples took 1 to 3 signatures before
    the runner fixed them at 16."""
    rows = php_rows("a", [100.0], samples=2, iterations=3) + php_rows("a", [100.0], samples=2, iterations=1)
    assert rounds.series_by_case(rows, lambda r: r["case"], PHP)["a"].operations == (1, 3)
    assert rounds.series_by_case(php_rows("a", [100.0, 90.0]), lambda r: r["case"], PHP)["a"].operations == (10,)


def test_php_against_native_is_paired_on_the_rounds_both_have():
    php = rounds.series_by_case(php_rows("a", [200.0, 260.0, 220.0]), lambda r: r["case"], PHP)["a"]
    native = rounds.native_series(native_rows("aes-256-gcm", [100.0, 120.0]))[
        rounds.NativeKey("aes-256-gcm", "encrypt", 16384)
    ]
    ratio = rounds.versus(php, native)
    expected = stats.paired_ratio([php.by_round[0], php.by_round[1]], [100.0, 120.0])
    assert (ratio.value, ratio.low, ratio.high) == pytest.approx((expected.value, expected.low, expected.high))
    assert rounds.versus(php, rounds.Series(np.array([1.0]), {7: 1.0})) is None, "no round in common: no comparison"


def test_compare_rounds_names_each_case_and_skips_one_without_its_native_figure():
    data = [{**row, "native": "aes-256-gcm"} for row in php_rows("gcm", [300.0, 330.0, 310.0])]
    data += [{**row, "native": "aes-256-ocb"} for row in php_rows("ocb", [300.0, 330.0, 310.0])]
    found = rounds.compare_rounds(
        data,
        PHP,
        native_rows("aes-256-gcm", [100.0, 110.0, 103.0]),
        lambda r: r["case"],
        lambda r: rounds.NativeKey(r["native"], "encrypt", 16384),
        lambda case: f"PHP {case}",
    )
    assert [c.what for c in found] == ["PHP gcm"]
    (comparison,) = found
    assert comparison.rounds == 3
    assert comparison.ratio.value == pytest.approx(3.0, rel=0.01)
    assert comparison.fraction.value == pytest.approx(1 / 3, rel=0.01)
    assert comparison.fraction.low == pytest.approx(1 / comparison.ratio.high)
    assert comparison.extra_ns == pytest.approx(
        comparison.php.summary.median_ns - comparison.native_side.summary.median_ns
    )


def test_a_calls_fixed_cost_is_compared_with_what_php_adds():
    php = rounds.series_by_case(php_rows("a", [3000.0, 3000.0]), lambda r: r["case"], PHP)["a"]
    native = rounds.series_by_case(php_rows("n", [1000.0, 1000.0], samples=1), lambda r: r["case"], PHP)["n"]
    comparison = rounds.VsNative("a", rounds.NativeKey("n", "encrypt", 16), php, native, rounds.versus(php, native))
    assert rounds.Breakdown(comparison, 1500.0, 16).per_call_share == pytest.approx(0.75, rel=0.02)
    assert rounds.Breakdown(comparison, None).per_call_share is None


def test_the_inverse_of_an_open_interval_stays_open():
    assert rounds.inverse(stats.Ratio(2.0, 0.0, np.inf)) == stats.Ratio(0.5, 0.0, np.inf)
    assert rounds.inverse(stats.Ratio(2.0, 1.6, 2.5)) == stats.Ratio(0.5, 0.4, 0.625)


def test_the_native_tool_and_commands_as_recorded():
    data = native_rows("a", [1.0, 1.0]) + native_rows("b", [1.0])
    assert rounds.native_tool(data) == "OpenSSL 3.0.19"
    assert rounds.native_commands(data) == ["openssl speed -evp a", "openssl speed -evp b"]

"""Findings and recommendations from synthetic AEAD samples whose answer is known."""

import dataclasses

import numpy as np
import pytest

from phpcb.data.loader import Run, load_run
from phpcb.data.policy import load_aead_policy
from phpcb.data.schema import load_schemas
from phpcb.experiments.aead import analysis, figures
from phpcb.experiments.aead import native as aead_native
from phpcb.experiments.aead.per_call import PerCallModel, per_call_models
from phpcb.presentation import plotting
from phpcb.presentation.formatting import size
from phpcb.statistics.stats import Estimate

from .conftest import FIXTURE_RUN, ROOT

SCHEMAS = load_schemas(ROOT / "data" / "schema")

POLICY = load_aead_policy(ROOT / "data" / "policy" / "aead.yaml")
MIB10 = 10 * 1024 * 1024
KIB512 = 512 * 1024


def rows_for(algorithm, ns_per_op, payload=MIB10, operation="encrypt", tag=16, library="openssl", seed=0):
    rng = np.random.default_rng(seed)
    return [
        {
            "library": library,
            "algorithm": algorithm,
            "operation": operation,
            "payload_bytes": payload,
            "aad_bytes": 0,
            "tag_bytes": tag,
            "nonce_bytes": 12,
            "sample": sample,
            "iterations": 10,
            "elapsed_ns": int(10 * ns_per_op * rng.normal(1, 0.01)),
        }
        for sample in range(7)
    ]


def run_with(rows, native=()):
    manifest = {"experiments": {"aead": {"status": "ok", "files": ["aead.csv", "native.csv"]}}}
    return Run.from_rows("20260101T0000Z-test-php8.2", manifest, {"aead.csv": rows, "native.csv": list(native)})


def test_ccm_three_times_slower_gives_the_headline_at_the_largest_heap_size():
    rows = [
        *rows_for("aes-256-gcm", 1_000_000, seed=1),
        *rows_for("aes-256-ccm", 3_000_000, seed=2),
        *rows_for("aes-256-gcm", 50_000, payload=KIB512, seed=3),
        *rows_for("aes-256-ccm", 150_000, payload=KIB512, seed=4),
    ]
    result = analysis.analyse(run_with(rows), POLICY)
    headline = result.headline
    assert headline is not None
    assert (headline.subject, headline.baseline, headline.payload_bytes) == ("aes-256-gcm", "aes-256-ccm", KIB512)
    assert headline.ratio.value == pytest.approx(3.0, rel=0.03)
    assert headline.ratio.significant


def test_equal_speeds_make_no_claim():
    rows = rows_for("aes-256-gcm", 1_000_000, KIB512, seed=1) + rows_for("aes-256-ccm", 1_000_000, KIB512, seed=2)
    assert not analysis.analyse(run_with(rows), POLICY).headline.ratio.significant


def test_no_headline_from_10_mib_alone():
    rows = rows_for("aes-256-gcm", 1_000_000, seed=1) + rows_for("aes-256-ccm", 3_000_000, seed=2)
    result = analysis.analyse(run_with(rows), POLICY)
    assert result.headline is None, "PHP maps a 10 MiB output afresh: its time is in part the kernel's"
    assert [c.payload_bytes for c in result.gcm_vs_ccm] == [MIB10], "still compared, as the ledger quotes it"


def test_a_short_tag_variant_is_never_recommended_however_fast():
    rows = (
        rows_for("aes-256-ccm", 10_000, tag=8, seed=1)
        + rows_for("aes-256-gcm", 1_000_000, seed=2)
        + rows_for("aes-128-ccm", 500_000, seed=3)
    )
    result = analysis.analyse(run_with(rows), POLICY)
    (pick,) = result.picks
    assert pick.best.key.variant == "aes-256-gcm"
    assert result.verdicts["aes-256-ccm (8-byte tag)"].status == "acceptable"
    assert result.verdicts["aes-128-ccm"].status == "acceptable"


def test_an_algorithm_missing_from_the_policy_is_never_recommended():
    rows = (
        rows_for("aes-128-ocb", 1_000, seed=1)
        + rows_for("made-up-aead", 2_000, seed=3)
        + rows_for("aes-128-gcm", 1_000_000, seed=2)
    )
    result = analysis.analyse(run_with(rows), POLICY)
    assert result.verdicts["aes-128-ocb"].status == "not_evaluated", "a sound AEAD nobody here checked: not rated"
    assert result.verdicts["made-up-aead"].status == "not_recommended"
    assert [p.best.key.variant for p in result.picks] == ["aes-128-gcm"]


def test_every_pick_is_recommended_by_the_policy():
    rows = []
    for seed, algorithm in enumerate(["aes-128-gcm", "aes-128-ccm", "chacha20-poly1305", "des-ede3-cbc"]):
        for payload in (16, 16384, MIB10):
            rows += rows_for(algorithm, 1000 + seed * 100 - payload / 1e5, payload=payload, seed=seed)
    result = analysis.analyse(run_with(rows), POLICY)
    assert len(result.picks) == 3
    assert all(result.verdicts[p.best.key.variant].recommendable for p in result.picks)


def test_fidelity_divides_php_throughput_by_native():
    rows = rows_for("aes-256-gcm", 10_000, payload=16384)
    native = [{"algorithm": "aes-256-gcm", "block_bytes": 16384, "bytes_per_second": 2e9, "tool_version": "x"}]
    (fidelity,) = analysis.analyse(run_with(rows, native), POLICY).fidelity
    assert fidelity.php_mb_per_s == pytest.approx(1638.4, rel=0.02)
    assert fidelity.native_mb_per_s == 2000.0
    assert fidelity.fraction == pytest.approx(0.8192, rel=0.02)


def test_gcm_vs_ccm_covers_each_key_size_operation_and_payload():
    rows = []
    for algorithm in ("aes-128-gcm", "aes-128-ccm", "aes-256-gcm", "aes-256-ccm"):
        for operation in ("encrypt", "decrypt"):
            for payload in (16, MIB10):
                rows += rows_for(algorithm, 1000, payload=payload, operation=operation)
    comparisons = analysis.analyse(run_with(rows), POLICY).gcm_vs_ccm
    assert len(comparisons) == 2 * 2 * 2


def test_the_native_limit_chart_gives_phps_medians_their_interval_and_says_the_native_one_has_none():
    rows = [
        *rows_for("aes-256-gcm", 10_000, payload=16384),
        *rows_for("aes-256-gcm", 2_000, payload=1024, seed=1),
        *rows_for("aes-128-gcm", 8_000, payload=16384, seed=2),
    ]
    native = [
        {"algorithm": a, "block_bytes": b, "bytes_per_second": 2e9, "tool_version": "x"}
        for a, b in (("aes-256-gcm", 16384), ("aes-256-gcm", 1024), ("aes-128-gcm", 16384))
    ]
    result = analysis.analyse(run_with(rows, native), POLICY)
    figure = figures.php_vs_native(result)
    php = [t for t in figure["data"] if t["name"].startswith("PHP")]
    assert [t["name"] for t in php] == ["PHP, 1 KiB", "PHP, 16 KiB"]
    for trace in php:
        fidelity = {f.algorithm: f for f in result.fidelity if trace["name"] == f"PHP, {size(f.block_bytes)}"}
        for x, y, up, down, hover in zip(
            trace["x"],
            trace["y"],
            trace["error_y"]["array"],
            trace["error_y"]["arrayminus"],
            trace["customdata"],
            strict=True,
        ):
            low, high = fidelity[x].php_mb_per_s_ci
            assert low < y < high
            assert y + up == pytest.approx(high, rel=1e-6)
            assert y - down == pytest.approx(low, rel=1e-6)
            assert plotting.MEDIAN_IN_RUN.text in hover
    for trace in figure["data"]:
        if trace["name"].startswith("openssl speed"):
            assert "error_y" not in trace
            assert "one measurement" in trace["hovertemplate"]
    assert plotting.MEDIAN_IN_RUN.text in figure["layout"]["title"]["text"]


def per_call_model(small_ns: float, large_ns: float, native_ns: float) -> PerCallModel:
    small, large = (value * np.linspace(0.995, 1.005, 31) for value in (small_ns, large_ns))  # medians as given
    native = [{"algorithm": "aes-256-gcm", "block_bytes": 16384, "bytes_per_second": 16384 / native_ns * 1e9}]
    (model,) = per_call_models({("aes-256-gcm", 16): small, ("aes-256-gcm", 16384): large}, native)
    return model


def test_a_cost_per_call_within_the_gap_is_a_share_of_it():
    model = per_call_model(1_000, 5_000, 3_000)
    assert model.fits
    assert model.explained.value == pytest.approx(0.5, rel=0.02)
    assert model.explained_text.startswith("50.")
    assert model.explained_text.endswith(" %)")


def test_a_cost_per_call_larger_than_the_whole_gap_is_said_not_to_fit_the_model():
    """The 'explained by the cost per call 523.5 %' of issue 29: the model allows at most 100 %."""
    model = per_call_model(1_530, 4_880, 4_880 - 292)
    assert model.explained.low > 5
    assert not model.fits
    assert (
        model.explained_text
        == "the model does not fit: one call at 16 B (1.53 µs) costs more than the whole gap (292 ns)"
    )
    assert "%" not in model.explained_text


@pytest.mark.parametrize(
    ("low", "fits"), [(0.5, True), (1.0, True), (0.0, True), (-0.0001, False), (1.0001, False), (5.235, False)]
)
def test_the_model_fits_while_the_ci_of_its_share_lies_between_0_and_100_percent(low, fits):
    model = per_call_model(1_000, 5_000, 3_000)
    shifted = dataclasses.replace(model, explained=Estimate(max(low, 1.05), low, low + 0.2))
    assert shifted.fits is fits
    assert ("does not fit" in shifted.explained_text) is not fits


def test_a_share_whose_ci_crosses_zero_is_said_not_to_fit_the_model():
    """The issue's "514.4 % (-1108.7 % – 790.6 %)": the gap is within the noise of the two figures."""
    model = per_call_model(1_000, 5_000, 3_000)
    crossing = dataclasses.replace(model, explained=Estimate(5.144, -11.087, 7.906))
    assert not crossing.fits
    assert crossing.explained_text == (
        "the model does not fit: the gap (2 µs) is within the noise of PHP's time at 16 KiB "
        "(its share's 95% CI reaches below zero)"
    )


def test_the_native_limit_is_the_median_of_its_rounds_where_no_single_figure_was_taken():
    """Runs from schema 8 on measure every cipher's native figure in the rounds beside PHP's samples; a
    run before it took one figure apart (native.csv), which is read as it was."""
    run = load_run(FIXTURE_RUN, SCHEMAS)
    rounds = aead_native.from_tables(run.tables[aead_native.ROUNDS_CSV], run.tables[aead_native.NATIVE_CSV])
    without_single = {name: rows for name, rows in run.tables.items() if name != aead_native.SINGLE_FIGURES_CSV}
    figures = aead_native.native_figures(without_single, rounds)
    # The quick profile runs `openssl speed` at 16 KiB only, for each AEAD OpenSSL has a command for.
    algorithms = {"aes-128-gcm", "aes-256-gcm", "aes-128-ccm", "aes-256-ccm", "chacha20-poly1305"}
    assert {(f["algorithm"], f["block_bytes"]) for f in figures} == {(a, 16384) for a in algorithms}
    gcm = next(f for f in figures if f["algorithm"] == "aes-256-gcm")
    median_ns = float(np.median(rounds[0].native_side.per_op_ns))
    assert gcm["bytes_per_second"] == pytest.approx(16384 / median_ns * 1e9)
    assert gcm["rounds"] == 2, "the quick profile's rounds against native commands (InterleavedRounds)"
    assert aead_native.native_figures(run.tables, rounds) == [dict(r) for r in run.tables["native.csv"]]

"""ec_keygen: the article's own arithmetic against its printed rows, and findings from samples whose answer is known."""

import math

import numpy as np
import pytest

from phpcb.data.loader import Run
from phpcb.data.policy import load_key_scheme_policy
from phpcb.data.reference import load_reference
from phpcb.experiments.ec_keygen import analysis, figures, paper
from phpcb.presentation import plotting

from .conftest import ROOT

POLICY = load_key_scheme_policy(ROOT / "data" / "policy" / "ec_keygen.yaml")
REFERENCE = load_reference(ROOT / "data" / "reference" / "ec_keygen.yaml")
PAPER_ROWS = REFERENCE.rows("keygen_ms")
PAPER_AVERAGES = {row["family"]: row["ratio_percent"] for row in REFERENCE.rows("group_average_ratio")}


def test_prime256v1s_ratio_is_the_articles_1_11_percent():
    assert round(paper.ratio_percent(2.85, 256), 2) == 1.11


@pytest.mark.parametrize("row", PAPER_ROWS, ids=lambda row: row["curve"])
def test_every_printed_ratio_follows_from_its_printed_time_and_length(row):
    # Also checks the transcription: a mistyped time or length would break its row.
    assert paper.ratio_percent(row["ms"], row["key_bits"]) == pytest.approx(row["ratio_percent"], abs=0.011)


@pytest.mark.parametrize("family", sorted(PAPER_AVERAGES))
def test_every_group_average_is_the_mean_of_the_groups_printed_ratios(family):
    ratios = [row["ratio_percent"] for row in PAPER_ROWS if row["family"] == family]
    assert round(paper.group_average(ratios), 2) == pytest.approx(PAPER_AVERAGES[family], abs=0.011)


def test_bracket_selection_by_ratio_reproduces_the_articles_table_11():
    expected = {row["bracket"]: row["curves"] for row in REFERENCE.rows("best_per_bracket")}
    for bracket in paper.BRACKETS:
        best = paper.best_in_bracket(PAPER_ROWS, bracket, lambda r: r["key_bits"], lambda r: r["ratio_percent"])
        assert sorted(r["curve"] for r in best) == sorted(expected[bracket.label.replace("–", "-")]), bracket.label


def test_by_time_the_articles_first_bracket_has_a_different_winner():
    """The ratio favours longer keys: in 160-223 bits secp160r1/r2 were faster than the prime192 curves."""
    bracket = paper.BRACKETS[0]
    fastest = paper.best_in_bracket(PAPER_ROWS, bracket, lambda r: r["key_bits"], lambda r: r["ms"])
    assert sorted(r["curve"] for r in fastest) == ["secp160r1", "secp160r2"]


@pytest.mark.parametrize(
    ("rsa", "ecc", "printed"), [(1024, 160, 6), (2048, 224, 9), (3072, 256, 12), (7680, 384, 20), (15360, 512, 30)]
)
def test_table_1s_key_length_ratios(rsa, ecc, printed):
    assert round(paper.key_length_ratio(rsa, ecc)) == printed


def test_brackets_cover_every_size_from_160_bits_once():
    for bits in range(160, 600):
        assert sum(bracket.contains(bits) for bracket in paper.BRACKETS) == 1, bits
    assert not any(bracket.contains(159) for bracket in paper.BRACKETS)


def scheme_rows(curve, family, field_bits, security_bits, ms, operations=("keygen",), interface="openssl", seed=0):
    rng = np.random.default_rng(seed)
    return [
        {
            "interface": interface,
            "curve": curve,
            "family": family,
            "organization": "test",
            "field_bits": field_bits,
            "key_bits": field_bits,
            "security_bits": security_bits,
            "operation": operation,
            "sample": sample,
            "iterations": 10,
            "elapsed_ns": int(10 * ms * 1e6 * rng.normal(1, 0.01)),
            "verified": True,
        }
        for operation in operations
        for sample in range(7)
    ]


def make_run(*groups):
    rows = [row for group in groups for row in group]
    manifest = {
        "run_id": "20260101T0000Z-t-php8.2",
        "experiments": {"ec_keygen": {"status": "ok", "files": ["ec_keygen.csv"]}},
    }
    return Run.from_rows(manifest["run_id"], manifest, {"ec_keygen.csv": rows})


SIGN = ("keygen", "sign", "verify")
DERIVE = ("keygen", "derive")


def synthetic():
    return make_run(
        scheme_rows("prime256v1", "prime", 256, 128, 0.5, (*SIGN, "derive")),
        scheme_rows("secp256k1", "secp", 256, 128, 0.4, (*SIGN, "derive"), seed=1),
        scheme_rows("sect163k1", "sect", 163, 80, 0.1, (*SIGN, "derive"), seed=2),
        scheme_rows("sect283k1", "sect", 283, 128, 0.3, (*SIGN, "derive"), seed=3),
        scheme_rows("sect571k1", "sect", 571, 256, 2.4, (*SIGN, "derive"), seed=4),
        scheme_rows("secp521r1", "secp", 521, 256, 0.7, (*SIGN, "derive"), seed=5),
        scheme_rows("RSA-3072", "rsa", 3072, 128, 800, SIGN, seed=6),
        scheme_rows("Ed25519", "ed25519", 255, 128, 0.02, SIGN, "sodium", seed=7),
        scheme_rows("X25519", "x25519", 255, 128, 0.04, DERIVE, "sodium", seed=8),
    )


def test_the_fastest_insecure_curve_is_never_recommended():
    """secp256k1 and the binary curves are faster than P-256 here; neither is chosen."""
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    chosen = {r.choice.scheme.curve for r in result.recommendations if r.choice}
    assert chosen == {"Ed25519", "X25519", "secp521r1"}
    for recommendation in result.recommendations:
        assert recommendation.choice is None or recommendation.choice.verdict.status == "recommended"
        assert (
            recommendation.choice is None or recommendation.choice.scheme.security_bits >= recommendation.security_bits
        )


def test_recommendations_split_by_purpose_and_state_the_margin():
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    by_key = {(r.security_bits, r.purpose): r for r in result.recommendations}
    signing = by_key[(128, "signatures")]
    assert signing.choice.scheme.curve == "Ed25519"
    assert signing.margin.slower.scheme.curve == "prime256v1"
    assert signing.margin.ratio.value == pytest.approx(25, rel=0.05)
    assert signing.margin.ratio.significant
    assert by_key[(128, "key agreement")].choice.scheme.curve == "X25519"


def test_brackets_pick_by_ratio_and_by_time_separately():
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    brackets = {b.bracket.label: b for b in result.brackets}
    upper = brackets["256–383"]
    assert upper.by_time.scheme.curve == "sect283k1"  # 0.3 ms, the fastest, but binary
    assert upper.recommended.scheme.curve == "prime256v1"
    assert brackets["512+"].by_ratio.scheme.curve == "secp521r1"
    assert brackets["224–255"].by_time is None


def test_a_group_average_is_the_mean_of_its_curves_median_ratios():
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    sect = next(row for row in result.families if row.family == "sect")
    expected = np.mean([0.1 / 163 * 100, 0.3 / 283 * 100, 2.4 / 571 * 100])
    assert sect.average.value == pytest.approx(expected, rel=0.02)
    assert sect.average.low <= sect.average.value <= sect.average.high
    assert sect.paper_average == 4.45


def test_the_scaling_exponent_shows_faster_than_linear_growth():
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    sect = next(row for row in result.families if row.family == "sect")
    assert sect.slope is not None
    assert sect.slope > 1.5
    prime = next(row for row in result.families if row.family == "prime")
    assert prime.slope is None, "one size is not enough to fit an exponent"


def test_equal_security_compares_rsa_with_the_fastest_recommended_scheme_at_its_level():
    """At 128 bits that is Ed25519 (sodium's schemes count), not the faster-than-P-256 binary curve."""
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    level = next(row for row in result.levels if row.security_bits == 128)
    assert level.ecc.scheme.curve == "Ed25519"
    assert level.fastest is None, "the fastest of any verdict is the recommended one"
    assert level.rsa.scheme.curve == "RSA-3072"
    assert level.rsa_over_ecc.ratio.value == pytest.approx(800 / 0.02, rel=0.05)
    assert level.key_length_ratio == 12


def test_a_level_with_no_recommended_curve_says_so_and_names_the_fastest():
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    level = next(row for row in result.levels if row.security_bits == 80)
    assert level.ecc is None
    assert level.fastest.scheme.curve == "sect163k1"
    assert level.fastest.verdict.status == "not_recommended"


def test_the_recommendation_and_the_equal_security_table_agree_on_each_exact_level():
    """A stronger scheme may be chosen when it is faster, but never a scheme the table calls slower."""
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    levels = {row.security_bits: row for row in result.levels}
    for r in result.recommendations:
        exact = levels.get(r.choice.scheme.security_bits) if r.choice else None
        if exact is not None and exact.ecc is not None and r.purpose == "signatures":
            chosen = r.choice.keygen.summary.median_ns
            assert chosen <= exact.ecc.keygen.summary.median_ns or r.choice is exact.ecc


def test_keys_generated_counts_every_timed_key():
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    assert result.find("prime256v1").keys_generated == 70


def many_schemes():
    """The synthetic schemes plus enough 80-bit and 112-bit curves to fill charts."""
    extra = [
        scheme_rows(f"sect{bits}r1", "sect", bits, 80 if bits < 224 else 112, bits / 500, (*SIGN, "derive"), seed=bits)
        for bits in range(160, 240, 4)
    ]
    return make_run(*[group for group in synthetic_groups()], *extra)


def synthetic_groups():
    run = synthetic()
    rows = run.tables["ec_keygen.csv"]
    curves = list(dict.fromkeys(r["curve"] for r in rows))
    return [[r for r in rows if r["curve"] == c] for c in curves]


def test_sign_verify_splits_by_strength_each_median_with_its_interval_and_a_few_ticks():
    result = analysis.analyse(many_schemes(), POLICY, REFERENCE)
    charts = figures.sign_verify_charts(result)
    assert list(charts) == ["ec-sign-verify-192", "ec-sign-verify-128", "ec-sign-verify-112", "ec-sign-verify-80"]
    by_name = {r.scheme.curve: r for r in result.results}
    seen = []
    for chart in charts.values():
        rows = chart["layout"]["yaxis"]["categoryarray"]
        seen += rows
        assert len(rows) <= 30, "a chart a reader can take in"
        assert chart["layout"]["height"] < 1000
        ticks = chart["layout"]["xaxis"]["tickvals"]
        assert len(ticks) <= plotting.MAX_LOG_TICKS
        for trace in chart["data"]:
            ends = zip(trace["y"], trace["x"], trace["error_x"]["array"], trace["error_x"]["arrayminus"], strict=True)
            for curve, x, up, down in ends:
                summary = by_name[curve].operations[trace["name"]].summary
                # In ms, to the nanosecond.
                assert x == pytest.approx(summary.median_ns / 1e6, abs=1e-6)
                assert x + up == pytest.approx(summary.ci_high_ns / 1e6, abs=1e-6)
                assert x - down == pytest.approx(summary.ci_low_ns / 1e6, abs=1e-6)
                assert ticks[0] <= x - down
                assert x + up <= ticks[-1], "the ticks span every interval"
            assert all(plotting.MEDIAN_IN_RUN.text in hover for hover in trace["customdata"])
    timed = [r.scheme.curve for r in result.results if len(r.operations) > 1]
    assert sorted(seen) == sorted(timed), "every scheme in one chart, once"


def test_the_group_ratio_chart_gives_this_run_and_the_article_each_its_own_scale():
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    figure = figures.group_ratios(result)
    this_run, article = figure["data"]
    assert (this_run["yaxis"], article["yaxis"]) == ("y", "y2"), "two panels, two value axes"
    assert "matches" not in figure["layout"]["yaxis2"]
    assert this_run["x"] == [row.family for row in result.families], "in this run's order"
    for row, y, up, down in zip(
        result.families, this_run["y"], this_run["error_y"]["array"], this_run["error_y"]["arrayminus"], strict=True
    ):
        assert y + up == pytest.approx(row.average.high, rel=1e-6)
        assert y - down == pytest.approx(row.average.low, rel=1e-6)
    assert figures.GROUP_AVERAGE.text in figure["layout"]["title"]["text"]
    assert article["y"] == [row.paper_average for row in result.families if row.paper_average is not None]


def test_each_named_curve_on_the_size_chart_is_named_by_an_arrow_to_its_own_point():
    result = analysis.analyse(synthetic(), POLICY, REFERENCE)
    figure = figures.keygen_vs_size(result)
    named = {a["text"]: a for a in figure["layout"]["annotations"]}
    recommended = [r for r in result.curves if r.verdict.recommendable]
    assert recommended
    assert set(named) == {r.scheme.curve for r in recommended}
    points = {
        name: (x, y)
        for trace in figure["data"]
        for name, x, y in zip(trace["hovertext"], trace["x"], trace["y"], strict=True)
    }
    for r in recommended:
        arrow = named[r.scheme.curve]
        assert arrow["showarrow"] is True
        x, y = points[r.scheme.curve]
        assert arrow["x"] == x
        assert arrow["y"] == math.log10(y), "at its own point (a log axis places it in log10 units)"
    assert all("text" not in trace for trace in figure["data"]), "no name set loose beside the points"

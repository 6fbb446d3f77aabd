"""Pitfalls: each A/B from samples whose answer is known, per unit of work, with its native figure; the
policy file; the lines it adds to the pages it concerns; the fixture run."""

from pathlib import Path

import numpy as np
import pytest

from phpcb.data.loader import Run, load_run
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError
from phpcb.experiments.pitfalls import EXPERIMENT, analysis, figures, page
from phpcb.experiments.pitfalls.policy import load_pitfalls_policy
from phpcb.presentation.chart_data import plain_label

from .conftest import FIXTURE_RUN, ROOT

POLICY = load_pitfalls_policy(ROOT / "data" / "policy" / "pitfalls.yaml")


def sample_rows(pitfall, variant, ns_per_unit, units=1, native="none", rounds=3, seed=0):
    rng = np.random.default_rng(seed)
    return [
        {
            "pitfall": pitfall,
            "variant": variant,
            "units": units,
            "native": native,
            "round": r,
            "sample": r * 7 + s,
            "iterations": 10,
            "elapsed_ns": int(10 * units * ns_per_unit * rng.normal(1, 0.01)),
            "verified": True,
        }
        for r in range(rounds)
        for s in range(7)
    ]


def run_with(rows, native=(), agreement=()):
    tables = {"pitfalls.csv": rows, "pitfalls_native.csv": list(native)}
    entry = {"status": "ok", "files": list(tables), "verification": {"agreement": list(agreement)}}
    manifest = {"run_id": "20260101T0000Z-t-php8.2", "experiments": {"pitfalls": entry}}
    return Run.from_rows(manifest["run_id"], manifest, tables)


def test_the_slow_way_over_the_fast_way_per_unit_of_work():
    rows = [
        *sample_rows("pem-vs-object-rsa2048", "pem", 480_000),
        *sample_rows("pem-vs-object-rsa2048", "object", 24_000, seed=1),
        *sample_rows("aead-call-per-field", "call-per-field", 1_300, units=64, native="aes-256-gcm", seed=2),
        *sample_rows("aead-call-per-field", "call-per-record", 40, units=64, native="aes-256-gcm", seed=3),
    ]
    native = [
        {
            "primitive": "aes-256-gcm",
            "operation": "encrypt",
            "block_bytes": 16,
            "round": r,
            "iterations": 1000,
            "elapsed_ns": 20_000,
            "command": "openssl speed -elapsed -mr -seconds 1 -evp aes-256-gcm -bytes 16",
            "tool_version": "OpenSSL 3.0.19",
        }
        for r in range(3)
    ]
    checked = ["pem-vs-object-rsa2048: both agree"]
    result = analysis.analyse(run_with(rows, native, checked), POLICY)
    pem = result.find("pem-vs-object-rsa2048")
    assert pem.ratio.value == pytest.approx(20.0, rel=0.02)
    assert pem.ratio.significant
    assert pem.saved_ns == pytest.approx(456_000, rel=0.02)
    assert pem.agreement == "both agree"
    assert pem.native is None
    fields = result.find("aead-call-per-field")
    assert fields.slow.summary.median_ns == pytest.approx(1_300, rel=0.02), "per 16-byte field, not per call of 64"
    assert fields.slow_vs_native.value == pytest.approx(65, rel=0.03)
    assert fields.native_share_fast.value == pytest.approx(0.5, rel=0.03)
    assert fields.agreement is None
    assert result.rounds == 3
    assert result.find("pkey-new-config") is None, "a pitfall without rows is left out"


def test_each_pitfall_adds_one_line_to_each_page_it_concerns():
    rows = [
        *sample_rows("details-per-operation", "details-every-call", 150_000),
        *sample_rows("details-per-operation", "size-read-once", 22_000, seed=1),
    ]
    result = analysis.analyse(run_with(rows), POLICY)
    notes = page.notes({"analysis": result})
    assert list(notes) == ["jwt"]
    (line,) = notes["jwt"]
    assert "(pitfalls.md#details-per-operation)" in line
    assert "size-read-once is 6.8" in line
    assert "× faster than details-every-call (95% CI" in line
    assert line.endswith(
        " The fix: [<code>runners/snippets/public-key-object.php</code>](pitfalls.md#details-per-operation)."
    ), "the fix is a link to the pitfall's section, which shows the snippet file"
    assert "$" not in line, "never a line of code retyped"


def test_the_home_finding_is_the_costliest_measurable_pitfall():
    rows = [
        *sample_rows("details-per-operation", "details-every-call", 150_000),
        *sample_rows("details-per-operation", "size-read-once", 22_000, seed=1),
        *sample_rows("pkey-new-config", "default-config", 300_000, seed=2),
        *sample_rows("pkey-new-config", "minimal-config", 300_000, seed=3),
    ]
    context = {"analysis": analysis.analyse(run_with(rows), POLICY), "machine": "a test machine"}
    found = EXPERIMENT.finding(context)
    assert found is not None
    assert "openssl_pkey_get_details() on every operation" in found.recommendation
    assert "1 of the 2 pitfalls measured cost measurable time" in found.number
    fix = found.evidence[0]
    assert (fix.label, fix.anchor, fix.page) == (
        "the fix: runners/snippets/public-key-object.php",
        "details-per-operation",
        None,
    ), "the answer links the pitfall's section, on its own page"
    advice = {a.key: a.value for a in EXPERIMENT.advice(context)}
    assert advice["pitfalls.pkey-new-config"].startswith("no measurable difference")
    lines = page.notes(context)["ec_keygen"]
    assert len(lines) == 1
    assert "no measurable difference" in lines[0]
    assert "The fix" not in lines[0], "a fix that does not pay here is not offered"


def test_a_policy_entry_naming_an_unknown_reference_is_refused(tmp_path: Path):
    text = (ROOT / "data" / "policy" / "pitfalls.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "pitfalls.yaml"
    broken.write_text(text.replace("references: [php-pkey-get-details, rfc8017]", "references: [nowhere]"))
    with pytest.raises(DataError, match="pitfalls/details-per-operation: references \\['nowhere'\\] are not defined"):
        load_pitfalls_policy(broken, ROOT)


def policy_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (ROOT / "data" / "policy" / "pitfalls.yaml").read_text(encoding="utf-8")
    assert old in text
    changed = tmp_path / "pitfalls.yaml"
    changed.write_text(text.replace(old, new, 1), encoding="utf-8")
    return changed


def test_every_way_shown_as_php_is_part_of_its_fix_snippet():
    shown = [(key, way.code) for key, e in POLICY.items() for way in (e.slow, e.fast) if way.code is not None]
    assert len(shown) >= 10
    for key, code in shown:
        assert POLICY[key].fix.snippet.contains(code), (key, code)
    described = {key for key, e in POLICY.items() for way in (e.slow, e.fast) if way.code is None}
    assert described == {"pss-padding-in-php", "cipher-setup-16b"}, "only ways that are no code to copy are words"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param(
            "fast: {variant: object, way: \"openssl_verify($data, $signature, $publicKey, 'sha256')\"}",
            "fast: {variant: object, way: \"openssl_verify($data, $signature, $key, 'sha256')\"}",
            "pitfalls/pem-vs-object-rsa2048/fast: expected the way, whitespace aside, to be part of "
            "runners/snippets/public-key-object.php",
            id="a way that is not in the snippet",
        ),
        pytest.param(
            "fix: {snippet: public-key-object.php, for: speed}",
            "fix: {snippet: public-key-object2.php, for: speed}",
            "pitfalls/pem-vs-object-rsa2048/fix: expected the snippet runners/snippets/public-key-object2.php, found",
            id="a snippet that does not exist",
        ),
        pytest.param(
            "fix: {snippet: public-key-object.php, for: speed}",
            "fix: {snippet: ../../etc/passwd, for: speed}",
            "pitfalls/pem-vs-object-rsa2048/fix: expected a file name under runners/snippets/",
            id="a path, not a file name",
        ),
        pytest.param(
            "fix: {snippet: public-key-object.php, for: speed}",
            "fix: {snippet: public-key-object.php, for: fun}",
            "pitfalls/pem-vs-object-rsa2048/fix: expected 'for' in \\('speed', 'correctness'\\), got 'fun'",
            id="a fix for neither speed nor correctness",
        ),
        pytest.param(
            "fix: {snippet: public-key-object.php, for: speed}",
            "fix: {snippet: public-key-object.php, for: correctness}",
            "pitfalls/pem-vs-object-rsa2048/fix: expected 'because' for a fix for correctness",
            id="a fix for correctness that does not say why",
        ),
        pytest.param(
            "slow: {variant: pem, way: \"openssl_verify($data, $signature, $publicKeyPem, 'sha256')\"}",
            "slow: {variant: pem, way: \"openssl_verify($data, $signature, $publicKeyPem, 'sha256')\", words: x}",
            "pitfalls/pem-vs-object-rsa2048/slow: expected one of 'way' \\(PHP\\) or 'words'",
            id="both code and words",
        ),
        pytest.param(
            "fix: {snippet: public-key-object.php, for: speed}",
            'fix: "$publicKey = openssl_pkey_get_public($publicKeyPem);"',
            "pitfalls/pem-vs-object-rsa2048: expected 'fix' to be a mapping",
            id="a one-line fix, as before issue 25",
        ),
    ],
)
def test_a_fix_or_way_that_is_not_a_tested_snippet_is_refused(tmp_path: Path, old: str, new: str, message: str):
    with pytest.raises(DataError, match=message):
        load_pitfalls_policy(policy_with(tmp_path, old, new), ROOT)


# Measured by runs before issue 25 only: their pages still build.
FORMER = ("cipher-setup-16b",)


def test_every_pitfall_the_runner_measures_is_in_the_policy_and_concerns_real_pages():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    result = analysis.analyse(run, POLICY)
    measured = [key for key, entry in POLICY.items() if key not in FORMER and entry.measured_on is None]
    assert [r.key for r in result.results] == measured
    assert all(r.agreement for r in result.results), "the runner recorded each check"
    pages = {p.name.removesuffix(".md.j2") for p in (ROOT / "templates").glob("*.md.j2")}
    assert all(set(entry.affects) <= pages for entry in POLICY.values())


def test_the_chart_names_each_pitfall_as_the_page_does_and_gives_its_ratio_its_interval():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    result = analysis.analyse(run, POLICY)
    figure = figures.ratios(result)
    (bars,) = figure["data"]
    shown = list(reversed(result.results))
    assert [plain_label(y) for y in bars["y"]] == [r.entry.title for r in shown], "the page's titles"
    assert not any(r.key in y for r in shown for y in bars["y"]), "no internal slug"
    assert all(len(line) <= figures.LABEL_WIDTH for y in bars["y"] for line in y.split("<br>"))
    assert "title" not in figure["layout"]["yaxis"], "no axis title to run into the names"
    for r, x, up, down, hover in zip(
        shown, bars["x"], bars["error_x"]["array"], bars["error_x"]["arrayminus"], bars["customdata"], strict=True
    ):
        assert x + up == pytest.approx(r.ratio.high)
        assert x - down == pytest.approx(r.ratio.low)
        assert figures.SLOW_OVER_FAST.text in hover

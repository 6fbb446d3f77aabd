"""jwt findings from samples whose answer is known, the fixture run's evidence files, and the policy."""

import json
import shutil

import numpy as np
import pytest

from phpcb.data.loader import Run, load_run
from phpcb.data.policy import load_jwt_policy
from phpcb.data.schema import load_schemas
from phpcb.experiments.jwt import analysis

from .conftest import FIXTURE_RUN, ROOT, write_manifest

POLICY = load_jwt_policy(ROOT / "data" / "policy" / "jwt.yaml")


def rows(alg, operation, ms, payload=100, token=300, seed=0, rsa_bits=2048):
    rng = np.random.default_rng(seed)
    return [
        {
            "alg": alg,
            "key_type": "RSA" if alg[:2] in ("RS", "PS") else "oct" if alg.startswith("HS") else "EC prime256v1",
            "key_bits": rsa_bits if alg[:2] in ("RS", "PS") else 256,
            "payload_chars": 0 if operation == "keygen" else payload,
            "token_bytes": 0 if operation == "keygen" else token,
            "operation": operation,
            "sample": sample,
            "iterations": 10,
            "elapsed_ns": int(10 * ms * 1e6 * rng.normal(1, 0.01)),
            "verified": True,
        }
        for sample in range(7)
    ]


def synthetic(rsa_bits=2048):
    data = [
        *rows("RS256", "sign", 1.2, rsa_bits=rsa_bits),
        *rows("RS256", "verify", 0.05, seed=1, rsa_bits=rsa_bits),
        *rows("ES256", "sign", 0.04, seed=2),
        *rows("ES256", "verify", 0.1, seed=3),
        *rows("PS256", "sign", 1.4, seed=4, rsa_bits=rsa_bits),
        *rows("PS256", "verify", 0.06, seed=5, rsa_bits=rsa_bits),
        *rows("HS256", "sign", 0.004, seed=6),
        *rows("HS256", "verify", 0.01, seed=7),
    ]
    manifest = {"run_id": "20260101T0000Z-t-php8.2", "experiments": {"jwt": {"status": "ok", "files": ["jwt.csv"]}}}
    return Run.from_rows(manifest["run_id"], manifest, {"jwt.csv": data})


def curve_keygen_rows(scheme, ms, seed=0):
    """ec_keygen.csv's keygen samples of one key scheme (the columns the JWT analysis reads)."""
    rng = np.random.default_rng(seed)
    return [
        {
            "curve": scheme,
            "operation": "keygen",
            "sample": sample,
            "iterations": 1,
            "elapsed_ns": int(ms * 1e6 * rng.normal(1, 0.01)),
        }
        for sample in range(7)
    ]


def after_the_curves_page():
    """Issue 48: the JWT experiment ran after ec_keygen, which timed RSA-3072 (not P-256 here): jwt.csv has
    keygen rows for the HMAC secret only."""
    jwt = [row for row in synthetic(rsa_bits=3072).tables["jwt.csv"] if row["operation"] != "keygen"]
    jwt += rows("HS256", "keygen", 0.001, seed=8)
    tables = {"jwt.csv": jwt, "ec_keygen.csv": curve_keygen_rows("RSA-3072", 80.0)}
    experiments = {
        "ec_keygen": {"status": "ok", "files": ["ec_keygen.csv"]},
        "jwt": {"status": "ok", "files": ["jwt.csv"]},
    }
    manifest = {"run_id": "20260101T0000Z-t-php8.2", "experiments": experiments}
    return Run.from_rows(manifest["run_id"], manifest, tables)


def test_keygen_the_jwt_run_left_to_the_curves_page_is_quoted_from_it():
    result = analysis.analyse(after_the_curves_page(), POLICY)
    for alg in ("RS256", "PS256"):
        keygen = result.find(alg).keygen
        assert keygen.measured_by == "ec_keygen"
        assert (keygen.key_type, keygen.key_bits, keygen.payload_chars, keygen.token_bytes) == ("RSA", 3072, 0, 0)
        assert keygen.summary.n == 7
        assert keygen.summary.median_ns == pytest.approx(80e6, rel=0.03)
    assert result.find("HS256").keygen.measured_by == "jwt", "ec_keygen makes no HMAC secret"
    assert result.find("ES256").keygen is None, "neither table timed P-256 keys here: no number, not a made-up one"
    rotation = result.choices[2]
    assert rotation.operation == "keygen"
    assert rotation.best.alg == "PS256", "the only recommended asymmetric algorithm with a keygen time"


def test_keygen_quoting_leaves_a_jwt_run_without_ec_keygen_as_it_was():
    result = analysis.analyse(synthetic(), POLICY)
    assert all(a.keygen is None for a in result.algorithms), "synthetic() times no keygen, and no ec_keygen to quote"


def test_hmac_is_never_chosen_for_many_verifiers_however_fast():
    result = analysis.analyse(synthetic(rsa_bits=3072), POLICY)
    verifiers = result.choices[0]
    assert verifiers.best.alg == "PS256", "RS256 verifies faster, but only PS is recommended among the RSA paddings"
    assert [a.alg for a in verifiers.passed_over] == ["RS256"], "the faster one the policy does not recommend"
    signers = result.choices[1]
    assert signers.best.alg == "ES256"
    assert signers.passed_over == (), "RS256 signs slower than ES256: nothing faster was passed over"
    assert signers.ratio.value == pytest.approx(1.4 / 0.04, rel=0.05)
    assert signers.ratio.significant


def test_an_algorithm_is_no_better_than_its_key():
    """PS256 is recommended as a padding, but with an RSA-2048 key it is as acceptable as RSA-2048 is
    on the curves page: the verifiers' choice falls to ES256."""
    result = analysis.analyse(synthetic(rsa_bits=2048), POLICY)
    ps256 = result.find("PS256")
    rsa_2048 = POLICY.keys.named("RSA-2048")
    assert ps256.verdict.status == "acceptable"
    assert set(rsa_2048.notes) <= set(ps256.verdict.notes)
    assert result.choices[0].best.alg == "ES256"
    assert analysis.analyse(synthetic(rsa_bits=3072), POLICY).find("PS256").verdict.status == "recommended"


def test_asymmetry_is_sign_over_verify():
    result = analysis.analyse(synthetic(), POLICY)
    assert result.find("RS256").asymmetry(100).value == pytest.approx(24, rel=0.05)
    assert result.find("ES256").asymmetry(100).value == pytest.approx(0.4, rel=0.05)


def test_the_fixture_publishes_a_token_and_a_key_for_every_algorithm():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    tokens = run.tables["jwt_tokens.csv"]
    keys = {row["alg"] for row in run.tables["jwt_keys.csv"]}
    assert keys == set(analysis.ALGORITHMS)
    assert {(row["alg"], row["payload_chars"]) for row in tokens} == {
        (alg, chars) for alg in analysis.ALGORITHMS for chars in (10, 100, 500, 2048)
    }
    assert all(len(row["token"]) == row["token_bytes"] for row in tokens)


def test_no_unsigned_or_unknown_algorithm_is_recommended():
    assert POLICY.verdict("none").status == "not_recommended"
    assert POLICY.verdict("HS1").status == "not_recommended"
    assert not POLICY.asymmetric("HS256")


def test_key_labels_are_short_names():
    result = analysis.analyse(synthetic(), POLICY)
    assert [result.find(alg).key_label for alg in ("RS256", "ES256", "HS256")] == [
        "RSA-2048",
        "P-256",
        "256-bit secret",
    ]


def layer_rows(alg, operation, layer, ns, native, rounds=3, seed=0):
    rng = np.random.default_rng(seed)
    return [
        {
            "alg": alg,
            "operation": operation,
            "layer": layer,
            "native": native,
            "payload_chars": 100,
            "round": r,
            "sample": r * 7 + s,
            "iterations": 100,
            "elapsed_ns": int(100 * ns * rng.normal(1, 0.005)),
            "verified": True,
        }
        for r in range(rounds)
        for s in range(7)
    ]


def speed_rows(primitive, operation, ns, block=0, rounds=3):
    return [
        {
            "primitive": primitive,
            "operation": operation,
            "block_bytes": block,
            "round": r,
            "iterations": 1000,
            "elapsed_ns": int(1000 * ns * (1 + 0.01 * r)),
            "command": f"openssl speed -elapsed -mr -seconds 1 {primitive}",
            "tool_version": "OpenSSL 3.0.19",
        }
        for r in range(rounds)
    ]


def layered():
    layers = [
        *layer_rows("RS256", "verify", "primitive", 21_000, "rsa2048"),
        *layer_rows("RS256", "verify", "jws", 23_500, "rsa2048", seed=1),  # +2.5 µs: within 5 µs, not 5 %
        *layer_rows("RS256", "sign", "primitive", 400_000, "rsa2048", seed=2),
        *layer_rows("RS256", "sign", "jws", 402_000, "rsa2048", seed=3),  # +0.5 %
        *layer_rows("HS256", "verify", "primitive", 2_000, "hmac-sha256", seed=4),
        *layer_rows("HS256", "verify", "jws", 14_000, "hmac-sha256", seed=5),  # +12 µs and +600 %
    ]
    native = [
        *speed_rows("rsa2048", "sign", 350_000),
        *speed_rows("rsa2048", "verify", 19_000),
        *speed_rows("hmac-sha256", "mac", 400, block=231),
    ]
    tables = {"jwt.csv": synthetic().tables["jwt.csv"], "jwt_layers.csv": layers, "jwt_native.csv": native}
    manifest = {"run_id": "20260101T0000Z-t-php8.2", "experiments": {"jwt": {"status": "ok", "files": list(tables)}}}
    return Run.from_rows(manifest["run_id"], manifest, tables)


def test_the_jws_overhead_is_judged_against_five_percent_or_five_microseconds():
    result = analysis.analyse(layered(), POLICY)
    goals = {(x.alg, x.operation): x.goal for x in result.layers}
    assert goals == {("RS256", "sign"): "met", ("RS256", "verify"): "met", ("HS256", "verify"): "missed"}
    verify = result.layer("RS256", "verify")
    assert verify.overhead.value == pytest.approx(23_500 / 21_000, rel=0.01)
    assert verify.overhead_ns.value == pytest.approx(2_500, rel=0.1)
    assert verify.overhead_ns.low < 2_500 < verify.overhead_ns.high


def test_php_against_native_per_layer_and_hmacs_one_figure_for_both_operations():
    result = analysis.analyse(layered(), POLICY)
    rs = result.layer("RS256", "verify")
    assert rs.native_name == "rsa2048"
    assert rs.primitive_vs_native.value == pytest.approx(21_000 / 19_000 / 1.01, rel=0.02)
    assert rs.primitive_share.value == pytest.approx(1 / rs.primitive_vs_native.value)
    hs = result.layer("HS256", "verify")
    assert hs.native.summary.median_ns == pytest.approx(404, rel=0.01), "the mac figure stands for verify"
    assert result.native_tool == "OpenSSL 3.0.19"


def test_a_run_without_layers_has_none():
    assert analysis.analyse(synthetic(), POLICY).layers == []


def test_the_fixture_run_has_three_layers_for_one_algorithm_per_primitive_in_the_quick_profile():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    result = analysis.analyse(run, POLICY)
    assert sorted({x.alg for x in result.layers}) == ["ES256", "EdDSA", "HS256", "PS256", "RS256"]
    assert len(result.layers) == 2 * 5
    assert all(x.native is not None and x.rounds == 2 for x in result.layers), "the quick profile's 2 rounds"


def drifting_layers(paired_by):
    """RS256 verify: the JWS layer adds 2.5 µs to a 21 µs primitive. Sample s of both layers was taken
    in the same turn; then the machine got noisy (×1.5) and the adaptive sampler took 40 more JWS samples."""
    rng = np.random.default_rng(7)

    def row(layer, sample, ns):
        return {
            "alg": "RS256",
            "operation": "verify",
            "layer": layer,
            "native": "rsa2048",
            "payload_chars": 100,
            "round": 0,
            "sample": sample,
            "iterations": 100,
            "elapsed_ns": int(100 * ns),
        }

    drift = rng.uniform(1.0, 1.02, 20)
    rows = [row("primitive", s, 21_000 * drift[s]) for s in range(20)]
    rows += [row("jws", s, 23_500 * drift[s]) for s in range(20)]
    rows += [row("jws", s, 23_500 * 1.5) for s in range(20, 60)]
    sampling = {"target": 0.03, "minimum_samples": 7, "cases": 2, "within_target": 2, "interleaved_by": paired_by}
    tables = {"jwt.csv": synthetic().tables["jwt.csv"], "jwt_layers.csv": rows, "jwt_native.csv": []}
    entry = {"status": "ok", "files": list(tables), "sampling": sampling}
    manifest = {"run_id": "20260101T0000Z-t-php8.2", "experiments": {"jwt": entry}}
    return Run.from_rows(manifest["run_id"], manifest, tables)


def test_layers_measured_in_rotation_give_the_overhead_pair_by_pair():
    run = drifting_layers({"jwt_layers.csv": ["alg", "operation"]})
    paired = analysis.analyse(run, POLICY).layer("RS256", "verify")
    assert paired.paired
    assert paired.overhead.value == pytest.approx(23_500 / 21_000, rel=1e-6)
    assert paired.overhead_ns.low <= paired.overhead_ns.value <= paired.overhead_ns.high
    assert 2_500 <= paired.overhead_ns.value <= 2_550
    assert paired.goal == "met"


def test_layers_measured_apart_are_compared_median_to_median():
    # Without the manifest's record the sample numbers do not pair: the noisy stretch shows.
    apart = analysis.analyse(drifting_layers({}), POLICY).layer("RS256", "verify")
    assert not apart.paired
    assert apart.overhead_ns.value > 10_000
    assert apart.goal == "missed"


def test_the_page_says_who_padded_ps_signatures_in_the_run_it_shows(tmp_path, fixture_run_site):
    """Runs recorded before `pss_padding` encoded PSS in PHP: their page must not describe the RSASSA-PSS key.
    The current run's page is the session's site of the fixture run alone (conftest's fixture_run_site)."""
    from phpcb.pages import build as site

    from .conftest import project_with

    older = tmp_path / "older" / FIXTURE_RUN.name
    shutil.copytree(FIXTURE_RUN, older)
    manifest = json.loads((older / "manifest.json").read_text())
    del manifest["experiments"]["jwt"]["verification"]["pss_padding"]
    write_manifest(older, manifest)

    pages = {}
    for name, generated in (("current", fixture_run_site), ("older", site.build(project_with(tmp_path, older)))):
        pages[name] = next(page.text for page in generated.experiments if page.experiment.name == "jwt")

    assert "PSS comes from the key's RSASSA-PSS form" in pages["current"]
    assert "PS with the same RSASSA-PSS key object" in pages["current"]
    assert "the key's RSASSA-PSS form" not in pages["older"]
    assert "RSASSA-PSS key object" not in pages["older"]
    assert "in this run PSS was encoded and checked in PHP" in pages["older"]
    assert "`openssl_public_decrypt` without padding) on the PSS encoding" in pages["older"]


def test_the_page_mentions_the_header_cache_only_for_runs_whose_code_had_it(tmp_path, fixture_run_site):
    """CompactJws keeps decoded headers since runs that record `header_cache`; an older run's page must not
    describe a cache its code did not have."""
    from phpcb.pages import build as site

    from .conftest import project_with

    older = tmp_path / "older" / FIXTURE_RUN.name
    shutil.copytree(FIXTURE_RUN, older)
    manifest = json.loads((older / "manifest.json").read_text())
    assert manifest["experiments"]["jwt"]["verification"].pop("header_cache") == 16
    write_manifest(older, manifest)

    current = next(p.text for p in fixture_run_site.experiments if p.experiment.name == "jwt")
    old = next(p.text for p in site.build(project_with(tmp_path, older)).experiments if p.experiment.name == "jwt")
    assert "cache of the last 16 (every token of one issuer" in current
    assert "cache of the last" not in old


def test_the_answer_names_ed25519_as_rfc_9864_does():
    """Issue 37: "Use EdDSA", an identifier RFC 9864 deprecates for the fully specified "Ed25519"."""
    from phpcb.experiments import registry
    from phpcb.experiments.contexts import Contexts, Project

    experiment = next(e for e in registry.discover() if e.name == "jwt")
    # The one committed run the answer is read from, and its page context without figures (the finding reads
    # none): loading every committed run and drawing the page's charts was nearly all of this test's time.
    run = load_run(
        ROOT / "data" / "runs" / "20261125T0812Z-intel-xeon-fb7fc6-php8.2", load_schemas(ROOT / "data" / "schema")
    )
    finding = experiment.finding(Contexts(Project(ROOT)).context(experiment, run))
    assert finding is not None
    assert "Use **Ed25519**" in finding.recommendation
    assert "`EdDSA`, the name this run's tokens carry, only for verifiers that predate it" in finding.recommendation
    assert finding.number.startswith("Ed25519 verifies")
    assert "**EdDSA**" not in finding.recommendation


def test_a_quoted_keygen_prints_with_the_spread_and_precision_of_the_page_that_measured_it():
    """One quantity, one number: the JWT page's keygen column quotes ec_keygen's case, so it prints it with
    ec_keygen's spread between runs (and precision), as the curves page does, not the JWT experiment's."""
    from phpcb.presentation import render
    from phpcb.statistics.spread import RunSpread
    from phpcb.statistics.stats import summarize

    env = render.environment(ROOT / "templates")
    keygen = summarize(np.array([150e3, 152e3, 154e3, 155e3, 156e3, 158e3, 160e3]))
    jwt_spread, curves_spread = RunSpread(0.05, runs=("a", "b"), boots=2), RunSpread(0.08, runs=("a", "b"), boots=2)
    as_curves_page = env.from_string("{{ s | time_spread }}").render(s=keygen, between_runs=curves_spread)
    as_jwt_page = env.from_string("{{ s | time_spread }}").render(s=keygen, between_runs=jwt_spread)
    assert as_curves_page != as_jwt_page, "the two spreads print apart: the check below can fail"
    quoted = "{{ s | quoted_time_spread('ec_keygen') }}"
    context = {
        "between_runs": jwt_spread,
        "quoted_between_runs": {"ec_keygen": {"between_runs": curves_spread, "precision": None}},
    }
    assert env.from_string(quoted).render(s=keygen, **context) == as_curves_page
    assert env.from_string(quoted).render(s=keygen, between_runs=jwt_spread) == as_jwt_page, (
        "nothing quoted: the page's"
    )
    own = "{{ s | quoted_time_spread('jwt') }}"
    assert env.from_string(own).render(s=keygen, **context) == as_jwt_page, "measured by the JWT experiment itself"

"""The pq experiment's analysis, policy and page: from samples whose answer is known, from the fake-clock run
the runner made in Debian 13's stack (PHP 8.4 + OpenSSL 3.5: tests/fixtures/runs/*-debian13), and the site
built from runs that lack it."""

import json
import re
import shutil

import numpy as np
import pytest

from phpcb.data.loader import Run, load_run
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError
from phpcb.experiments.pq import EXPERIMENT, analysis, figures, page
from phpcb.experiments.pq.policy import load_pq_policy
from phpcb.pages import build as site

from .conftest import FIXTURE_RUN, FIXTURE_RUNS, ROOT, project_with, reseal, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")
POLICY = load_pq_policy(ROOT / "data" / "policy" / "pq.yaml")
PQ_RUN = next(run for run in FIXTURE_RUNS if run.name.endswith("-debian13"))
# FIPS 204's sizes and this runner's tokens (JOSE header {"alg", "typ"}, the JWT page's claims).
KEYS = {
    "ML-DSA-65": ("ml-dsa", "ML-DSA-65", 192, 3, 1952, 3309, {10: 4530, 100: 4650}),
    "ML-DSA-44": ("ml-dsa", "ML-DSA-44", 128, 2, 1312, 2420, {10: 3345, 100: 3465}),
    "Ed25519": ("eddsa", "EdDSA", 128, None, 32, 64, {10: 198, 100: 318}),
    "P-384": ("ecdsa", "ES384", 192, None, 97, 96, {10: 240, 100: 360}),
    "P-256": ("ecdsa", "ES256", 128, None, 65, 64, {10: 198, 100: 318}),
}


def samples(algorithm, operation, us, payload=100, seed=0):
    rng = np.random.default_rng(seed)
    return [
        {
            "algorithm": algorithm,
            "operation": operation,
            "payload_chars": payload,
            "sample": sample,
            "iterations": 10,
            "elapsed_ns": int(10 * us * 1e3 * rng.normal(1, 0.01)),
            "verified": True,
        }
        for sample in range(9)
    ]


def synthetic(times, verification=None):
    """A run of the algorithms of KEYS, each `times[name] = (sign µs, verify µs)` at 100 characters."""
    rows = []
    for seed, (name, (sign, verify)) in enumerate(times.items()):
        rows += samples(name, "sign", sign, seed=2 * seed) + samples(name, "verify", verify, seed=2 * seed + 1)
    keys, tokens = [], []
    for name in times:
        family, jose, bits, category, public, signature, sizes = KEYS[name]
        keys.append(
            {
                "algorithm": name,
                "family": family,
                "jose_alg": jose,
                "security_bits": bits,
                "nist_category": category,
                "public_key_bytes": public,
                "spki_bytes": public + 22,
                "private_pem_bytes": 4000,
                "signature_bytes": signature,
                "jwk_bytes": public * 4 // 3 + 50,
                "spki_base64": "AAAA",
            }
        )
        tokens += [
            {"algorithm": name, "jose_alg": jose, "payload_chars": p, "token_bytes": n, "token": "a.b.c"}
            for p, n in sizes.items()
        ]
    entry = {
        "status": "ok",
        "files": ["pq.csv", "pq_keys.csv", "pq_tokens.csv"],
        "verification": verification or {},
        "sampling": {
            "target": 0.03,
            "minimum_samples": 7,
            "cases": len(times) * 2,
            "within_target": len(times) * 2,
            "interleaved_by": {"pq.csv": ["operation", "payload_chars"]},
        },
    }
    manifest = {"run_id": "20260101T0000Z-t-php8.4-debian13", "profile": "quick", "experiments": {"pq": entry}}
    return Run.from_rows(manifest["run_id"], manifest, {"pq.csv": rows, "pq_keys.csv": keys, "pq_tokens.csv": tokens})


def context_of(run):
    result = analysis.analyse(run, POLICY)
    return {"analysis": result, "run": run, **page.context(result, POLICY)}


def test_ml_dsa_is_set_against_the_classical_key_of_its_strength_paired_by_rotation():
    result = analysis.analyse(synthetic({"ML-DSA-65": (300, 60), "P-384": (600, 900), "Ed25519": (20, 50)}), POLICY)
    assert [a.name for a in result.post_quantum] == ["ML-DSA-65"]
    verify = {v.baseline: v for v in result.against("ML-DSA-65", "verify")}
    assert verify["P-384"].same_strength
    assert not verify["Ed25519"].same_strength
    assert verify["P-384"].ratio.value == pytest.approx(15, rel=0.03), "P-384's 900 µs over ML-DSA-65's 60 µs"
    assert verify["P-384"].ratio.significant
    sign = {v.baseline: v for v in result.against("ML-DSA-65", "sign")}
    assert sign["Ed25519"].ratio.value == pytest.approx(20 / 300, rel=0.03), "Ed25519 signs 15× faster"
    assert result.pairing.together(
        result.find("P-384").case("verify", 100), result.find("ML-DSA-65").case("verify", 100)
    )


def test_the_answer_gives_ml_dsa_65s_times_against_es256_and_ed25519_and_says_a_cookie_cannot_hold_its_token():
    """Issue 46.7: a reader sets ML-DSA beside the keys they use, ES256's P-256 and Ed25519, not beside P-384,
    the key of ML-DSA-65's strength that few JWTs are signed with (the page's table has every key)."""
    times = {"ML-DSA-65": (300, 60), "P-384": (600, 900), "P-256": (15, 40), "Ed25519": (20, 50)}
    found = page.finding(context_of(synthetic(times)))
    assert found is not None
    assert "A 4,096-byte cookie cannot hold an ML-DSA-65 token" in found.recommendation
    assert "the smallest measured here, at 10 characters, is 4,530 bytes" in found.recommendation
    assert re.search(r"\*\*ML-DSA-65\*\* verifies a token of 100 characters in 60\.\d? µs \(95% CI", found.number)
    verify, sign = str(found.number).split("; ")
    ci = r" \(95% CI [\d.]+–[\d.]+×\)"
    assert re.search(rf": 1\.[45]\d× slower than ES256{ci} and 1\.[12]\d× slower than Ed25519{ci}$", verify), verify
    assert re.search(rf"it signs one in 30\d µs \(95% CI [^)]+\): (19|20)\.\d× slower than ES256{ci}", sign), sign
    assert re.search(rf" and 1[45]\.\d× slower than Ed25519{ci}\.$", sign), sign
    assert "P-384" not in found.number
    assert [e.anchor for e in found.evidence] == ["sizes", "every-algorithm", "what-php-cannot-do-yet", "verification"]


def test_without_es256_or_ed25519_the_answer_falls_back_on_the_key_of_its_strength():
    found = page.finding(context_of(synthetic({"ML-DSA-65": (300, 60), "P-384": (600, 900)})))
    assert found is not None
    verify, sign = str(found.number).split("; ")
    assert re.search(r": 1[45]\.\d× faster than P-384 \(95% CI [\d.]+–[\d.]+×\)$", verify), verify
    assert re.search(r"it signs one in 30\d µs \(95% CI [^)]+\): 2\.0\d*× faster than P-384", sign), sign


def test_without_ml_dsa_65_the_answer_speaks_of_the_set_measured_and_its_token_size():
    context = context_of(synthetic({"ML-DSA-44": (200, 40), "Ed25519": (20, 50)}))
    found = page.finding(context)
    assert found is not None
    assert "**ML-DSA-44** verifies" in found.number
    assert "faster than Ed25519" in found.number, "40 µs against Ed25519's 50 µs, of the same strength"
    assert "Its token at 10 characters is 3,345 bytes, within a 4,096-byte cookie." in found.recommendation


def test_no_answer_without_an_ml_dsa_verification_to_quote():
    assert page.finding(context_of(synthetic({"Ed25519": (20, 50)}))) is None


def test_what_php_cannot_do_holds_where_the_run_saw_it_and_is_flagged_where_it_did_not():
    observed = {"pkey_new_makes_ml_dsa": True, "details_type_known": False, "kem_functions": []}
    lines = page.observed_lines(POLICY, observed)
    by_field = {line.limitation.observed: line for line in lines}
    assert by_field["pkey_new_makes_ml_dsa"].holds is False, "a PHP that makes ML-DSA keys contradicts the line"
    assert by_field["details_type_known"].holds is True
    assert by_field["kem_functions"].holds is True
    assert by_field["sign_with_digest_refused"].holds is None, "not recorded: not checked"
    assert lines[-1].limitation.observed is None, "hybrid key exchange in TLS: a statement no run checks"
    assert lines[-1].holds is None


def test_the_policy_reads_the_cookie_limit_from_the_jwt_policy_and_the_classical_verdicts_from_the_key_table(
    tmp_path,
):
    assert POLICY.limit_bytes == {"cookie_bytes": 4096, "header_bytes": 8192}
    assert POLICY.verdict("P-256", post_quantum=False).primitive == "prime256v1", "one verdict, the key table's"
    assert POLICY.verdict("ML-DSA-65", post_quantum=True).references[0].url == "https://doi.org/10.6028/NIST.FIPS.204"
    policies = shutil.copytree(ROOT / "data" / "policy", tmp_path / "policy")
    jwt = policies / "jwt.yaml"
    jwt.write_text(jwt.read_text().replace("value: 4096", "value: 5000"))
    assert load_pq_policy(policies / "pq.yaml").limit_bytes["cookie_bytes"] == 5000, "read, not copied"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("limits: jwt.yaml", "limits: nowhere.yaml"), "limits: expected the name of a policy file next to this one"),
        (("    holds_when: false\n", "", 1), "cannot/0: expected 'holds_when', the observed value the line states"),
        (("  transition:", "  elsewhen:"), "facts: expected ['jose_draft', 'transition'], missing ['transition']"),
    ],
)
def test_a_malformed_pq_policy_names_the_file_and_the_entry(tmp_path, edit, message):
    policies = shutil.copytree(ROOT / "data" / "policy", tmp_path / "policy")
    path = policies / "pq.yaml"
    path.write_text(path.read_text().replace(*edit))
    with pytest.raises(DataError, match=re.escape(message)) as raised:
        load_pq_policy(path)
    assert str(path) in str(raised.value)


def test_the_debian13_fixture_run_gives_every_algorithm_its_sizes_times_vectors_and_native_rounds():
    run = load_run(PQ_RUN, SCHEMAS)
    assert run.manifest["stack"]["name"] == "debian13"
    result = analysis.analyse(run, POLICY)
    assert [a.name for a in result.algorithms] == [
        "ML-DSA-44",
        "ML-DSA-65",
        "ML-DSA-87",
        "Ed25519",
        "P-256",
        "P-384",
        "RSA-2048",
        "RSA-3072",
    ]
    sizes = {a.name: (a.public_key_bytes, a.signature_bytes) for a in result.post_quantum}
    assert sizes == {"ML-DSA-44": (1312, 2420), "ML-DSA-65": (1952, 3309), "ML-DSA-87": (2592, 4627)}
    assert result.payloads == [10, 100, 500, 2048]
    assert all(len(a.cases) == 2 + 2 * 4 for a in result.algorithms), "two loads, sign and verify at 4 payloads"
    assert [(v.passed, v.skipped) for v in result.vectors] == [(173, 7), (203, 7), (234, 7)]
    assert result.vectors[0].outcomes == {
        "valid_accepted": 75,
        "invalid_refused": 94,
        "invalid_key_refused": 4,
        "not_run": 7,
    }
    assert [b.comparison.what for b in result.vs_native] == [
        f"ML-DSA-{n} {op}" for n in (44, 65, 87) for op in ("sign", "verify")
    ]
    assert all(b.comparison.rounds == 3 for b in result.vs_native)
    assert [(k.parameter_set, k.operation) for k in result.kem] == [
        ("ML-KEM-768", "keygen"),
        ("ML-KEM-768", "encaps"),
        ("ML-KEM-768", "decaps"),
    ]
    assert [a.name for a, _, _ in result.over("cookie_bytes")][:4] == [
        "ML-DSA-44",
        "ML-DSA-65",
        "ML-DSA-65",
        "ML-DSA-65",
    ]
    assert set(figures.all_figures(result)) == {"pq-sign-verify", "pq-token-size", "pq-load"}


@pytest.fixture(scope="module")
def pq_site(tmp_path_factory):
    return site.build(project_with(tmp_path_factory.mktemp("pq"), PQ_RUN))


def test_the_page_prints_the_sizes_the_cookie_verdict_the_vectors_and_what_php_cannot_do(pq_site):
    text = pq_site.pages["experiments/pq.md"]
    assert (
        "**A 4,096-byte cookie cannot hold an ML-DSA-65 token**: the smallest measured here, at 10 characters" in text
    )
    assert "| ML-DSA-65 | <code>ML-DSA-65</code> | 192 bits, category 3 | 1,952 | 1,974 |" in text
    assert "| ML-DSA-65 | **4,530** | **4,650** | **5,183** | **7,247** |" in text, "every token over a cookie"
    assert "| ML-DSA-44 | 3,345 | 3,465 | 3,998 | **6,062** |" in text
    assert "draft-ietf-cose-dilithium-11" in text
    assert "| <code>mldsa_65_verify_test.json</code> | 77 | 122 | 4 | 7 |" in text
    assert "- 21: a context string: openssl_verify() takes none (it verifies with the empty context)" in text
    assert text.count("**Checked here: it holds**") == 6, "every line the runner checks held on PHP 8.4"
    assert "This run saw otherwise" not in text
    assert "ML-KEM-768 | encaps |" in text
    answer = next(p.answer for p in pq_site.experiments if p.experiment.name == "pq")
    assert answer is not None
    assert answer.run_id == PQ_RUN.name
    assert "where OpenSSL has it (3.5+)" in str(answer.recommendation)
    assert not any("3.5" in str(caveat) for caveat in answer.caveats), "said once, in the recommendation"


def test_a_check_that_no_longer_holds_is_flagged_and_text_from_the_run_is_escaped(tmp_path):
    root = project_with(tmp_path, PQ_RUN)
    run = root / "data" / "runs" / PQ_RUN.name
    manifest = json.loads((run / "manifest.json").read_text())
    verification = manifest["experiments"]["pq"]["verification"]
    verification["observed"]["pkey_new_makes_ml_dsa"] = True
    verification["vectors"][0]["skip_reasons"] = {"<b>why</b> | **not**": 7}
    verification["refused"][0] = "<script>alert(1)</script>"
    write_manifest(run, manifest)
    reseal(run)
    text = site.build(root).pages["experiments/pq.md"]
    assert "**This run saw otherwise** (<code>pkey_new_makes_ml_dsa</code> = <code>true</code>)" in text
    assert "<b>why</b>" not in text
    assert "<script>" not in text
    assert "- 7: &lt;b&gt;why&lt;/b&gt; &#124; &#42;&#42;not&#42;&#42;" in text


def test_a_run_that_recorded_no_verification_still_builds_and_checks_nothing(tmp_path):
    root = project_with(tmp_path, PQ_RUN)
    run = root / "data" / "runs" / PQ_RUN.name
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["experiments"]["pq"]["verification"] = None
    write_manifest(run, manifest)
    reseal(run)
    text = site.build(root).pages["experiments/pq.md"]
    assert "Checked here" not in text, "nothing observed, nothing claimed as checked"
    refused = text.partition("Refused, each with its own exception:")[2].partition("</details>")[0]
    assert refused.strip() == "", "no refusal listed"
    assert "| <code>mldsa_65_verify_test.json</code>" not in text


def test_the_site_builds_from_runs_without_pq_and_its_page_says_what_it_needs(tmp_path):
    built = site.build(project_with(tmp_path, FIXTURE_RUN))
    pq = next(p for p in built.experiments if p.experiment.name == "pq")
    assert pq.answer is None
    assert pq.figures == {}
    assert "No run under `data/runs/` has results for the `pq` experiment yet" in pq.text
    assert "ML-DSA needs OpenSSL 3.5 or later" in pq.text
    assert "make bench STACK=debian13 ONLY=pq" in pq.text
    assert "openssl_pkey_new() cannot make an ML-DSA key" in pq.text, "what PHP cannot do, from the policy"
    assert f"pcb-answer-{EXPERIMENT.name}" not in built.pages["index.md"], "the home page has no answer to show"
    assert EXPERIMENT.question in built.pages["index.md"], "but lists the experiment"


def test_advice_and_headlines_are_keyed_by_the_experiment():
    context = context_of(
        synthetic({"ML-DSA-65": (300, 60), "P-384": (600, 900), "P-256": (15, 40), "Ed25519": (20, 50)})
    )
    statements = {a.key: a.value for a in page.advice(context)}
    assert statements["pq.cookie.ML-DSA-65"] == "does not fit"
    assert statements["pq.cookie.P-384"] == "fits"
    assert statements["pq.verdict.P-384"] == "recommended"
    assert "ML-DSA-65" in statements["pq.verify.ML-DSA-65.P-384"]
    keys = [h.key for h in page.headlines(context)]
    assert keys == [
        "pq.verify.ML-DSA-65",
        "pq.verify.ML-DSA-65.over.P-256",
        "pq.verify.ML-DSA-65.over.Ed25519",
        "pq.sign.ML-DSA-65",
        "pq.sign.ML-DSA-65.over.P-256",
        "pq.sign.ML-DSA-65.over.Ed25519",
    ], "each time the answer prints, and each against the classical keys it sets it beside"
    questions = {h.key: h.question for h in page.headlines(context)}
    assert questions["pq.verify.ML-DSA-65.over.P-256"].startswith("ML-DSA-65 over ES256, verify"), (
        "named as the answer names it"
    )

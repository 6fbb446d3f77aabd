"""jwt findings from samples whose answer is known, the fixture run's evidence files, and the policy."""

import numpy as np
import pytest

from phpcb.jwt import analysis
from phpcb.loader import Run, load_run
from phpcb.policy import load_jwt_policy
from phpcb.schema import load_schemas

from .conftest import FIXTURE_RUN, ROOT

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


def test_hmac_is_never_chosen_for_many_verifiers_however_fast():
    result = analysis.analyse(synthetic(rsa_bits=3072), POLICY)
    verifiers = result.choices[0]
    assert verifiers.best.alg == "PS256", "RS256 verifies faster, but only PS is recommended among the RSA paddings"
    signers = result.choices[1]
    assert signers.best.alg == "ES256"
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

"""Symmetric findings from synthetic samples whose answer is known, and the policy that gates them."""

import numpy as np
import pytest

from phpcb.loader import Run
from phpcb.policy import load_symmetric_policy
from phpcb.symmetric import analysis

from .conftest import ROOT

POLICY = load_symmetric_policy(ROOT / "data" / "policy" / "symmetric.yaml")


def rows(suite, engine, cipher, mode, key_bits, operation, payload, ns_per_op, seed=0):
    rng = np.random.default_rng(seed)
    return [
        {
            "suite": suite,
            "engine": engine,
            "provider": "builtin" if engine == "mcrypt" else "default",
            "cipher": cipher,
            "mode": mode,
            "key_bits": key_bits,
            "padding": "pkcs7" if mode == "cbc" else "none",
            "operation": operation,
            "payload_bytes": payload,
            "sample": sample,
            "iterations": 4,
            "elapsed_ns": int(4 * ns_per_op * rng.normal(1, 0.01)),
            "verified": True,
        }
        for sample in range(7)
    ]


def inventory(*entries):
    return [{"cipher": name, "provider": "default", "status": status, "detail": ""} for name, status in entries]


def run_with(samples, inventory_rows=()):
    manifest = {"experiments": {"symmetric": {"status": "ok", "files": ["symmetric.csv", "cipher_inventory.csv"]}}}
    tables = {"symmetric.csv": samples, "cipher_inventory.csv": list(inventory_rows)}
    return Run.from_rows("20260101T0000Z-test-php8.2", manifest, tables)


def test_openssl_thirty_times_faster_than_mcrypt_is_found_with_its_ci():
    samples = rows("aes_cbc", "mcrypt", "rijndael-128", "cbc", 256, "decrypt", 2097152, 30_000_000, 1) + rows(
        "aes_cbc", "openssl", "aes-256-cbc", "cbc", 256, "decrypt", 2097152, 1_000_000, 2
    )
    result = analysis.analyse(run_with(samples), POLICY)
    assert result.headline is not None
    assert result.headline.ratio.value == pytest.approx(30, rel=0.03)
    assert result.headline.ratio.significant
    assert result.headline.subject.key.engine == "openssl"


def test_key_length_compares_128_with_256_per_engine():
    samples = rows("aes_cbc", "openssl", "aes-128-cbc", "cbc", 128, "encrypt", 1024, 1000, 1) + rows(
        "aes_cbc", "openssl", "aes-256-cbc", "cbc", 256, "encrypt", 1024, 1400, 2
    )
    (comparison,) = analysis.analyse(run_with(samples), POLICY).key_length
    assert comparison.subject.key.key_bits == 128
    assert comparison.ratio.value == pytest.approx(1.4, rel=0.03)


def test_the_fastest_insecure_cipher_is_never_the_recommendation():
    samples = (
        rows("inventory", "openssl", "rc4", "stream", 128, "roundtrip", 204800, 10_000, 1)
        + rows("inventory", "openssl", "aes-128-ecb", "ecb", 128, "roundtrip", 204800, 20_000, 2)
        + rows("inventory", "openssl", "aes-128-ctr", "ctr", 128, "roundtrip", 204800, 80_000, 3)
        + rows("inventory", "openssl", "aes-256-cbc", "cbc", 256, "roundtrip", 204800, 160_000, 4)
    )
    listed = inventory(
        ("rc4", "ok"),
        ("aes-128-ecb", "ok"),
        ("aes-128-ctr", "ok"),
        ("aes-256-cbc", "ok"),
        ("aes-128-gcm", "aead_needs_tag"),
    )
    result = analysis.analyse(run_with(samples, listed), POLICY)
    assert [row.cipher for row in result.ranking] == ["rc4", "aes-128-ecb", "aes-128-ctr", "aes-256-cbc"]
    assert result.recommendation is not None
    assert result.recommendation.cipher == "aes-128-ctr"
    assert not result.pick.tied
    assert result.pick.runner_up is not None
    assert result.pick.runner_up.baseline.key.cipher == "aes-256-cbc"
    assert result.pick.runner_up.ratio.value == pytest.approx(2.0, rel=0.03)
    assert result.status_counts == {"aead_needs_tag": 1, "ok": 4}


def test_ciphers_that_tie_on_speed_are_named_as_a_tie_and_the_standard_one_is_picked():
    """aes-192-ctr is a hair faster than aes-128-ctr, with no measurable difference: the page must say
    they tie and name AES-128, the policy's first choice, with its reason."""
    samples = (
        rows("inventory", "openssl", "aes-192-ctr", "ctr", 192, "roundtrip", 204800, 79_200, 1)
        + rows("inventory", "openssl", "aes-128-ctr", "ctr", 128, "roundtrip", 204800, 80_000, 2)
        + rows("inventory", "openssl", "aes-256-cbc", "cbc", 256, "roundtrip", 204800, 160_000, 3)
    )
    listed = inventory(("aes-192-ctr", "ok"), ("aes-128-ctr", "ok"), ("aes-256-cbc", "ok"))
    pick = analysis.analyse(run_with(samples, listed), POLICY).pick
    assert pick.fastest.cipher == "aes-192-ctr"
    assert pick.row.cipher == "aes-128-ctr"
    assert pick.tied
    assert [c.baseline.key.cipher for c in pick.ties] == ["aes-192-ctr"]
    assert not pick.ties[0].ratio.significant
    assert pick.why == POLICY.preference("aes-128-ctr")[1]
    assert pick.why.startswith("AES-128 is the standard AES key size")
    assert pick.runner_up.baseline.key.cipher == "aes-256-cbc"


def test_among_tied_ciphers_a_standard_mode_beats_a_bit_or_byte_mode():
    """One cipher call per bit (CFB1) is never the named choice while CTR ties with it."""
    samples = rows("inventory", "openssl", "aes-128-cfb1", "cfb1", 128, "roundtrip", 204800, 80_000, 1) + rows(
        "inventory", "openssl", "aes-128-ctr", "ctr", 128, "roundtrip", 204800, 80_100, 2
    )
    listed = inventory(("aes-128-cfb1", "ok"), ("aes-128-ctr", "ok"))
    assert analysis.analyse(run_with(samples, listed), POLICY).pick.row.cipher == "aes-128-ctr"


def test_each_mode_gets_its_own_reason():
    """CTR's hazard is a repeated counter, not CBC's predictable IV (issue 14)."""
    ctr, cbc, ofb = (POLICY.verdict(name).notes[0] for name in ("aes-128-ctr", "aes-128-cbc", "aes-128-ofb"))
    assert "repeats the keystream" in ctr
    assert "CBC" not in ctr
    assert "unpredictable" in cbc
    assert "padding oracle" in cbc
    assert "nonce" in ofb
    assert "CBC" not in ofb
    assert [r.key for r in POLICY.verdict("aes-128-ctr").references] == ["sp800-38a", "cwe-323"]


def test_when_only_insecure_ciphers_were_timed_nothing_is_recommended():
    samples = rows("inventory", "openssl", "des-ede3-cbc", "cbc", 192, "roundtrip", 204800, 10_000, 1)
    result = analysis.analyse(run_with(samples, inventory(("des-ede3-cbc", "ok"))), POLICY)
    assert result.recommendation is None


def test_each_cfb1_cipher_is_compared_with_its_full_block_sibling():
    samples = rows("inventory", "openssl", "aes-128-cfb", "cfb", 128, "roundtrip", 204800, 1_000, 1) + rows(
        "inventory", "openssl", "aes-128-cfb1", "cfb1", 128, "roundtrip", 204800, 128_000, 2
    )
    result = analysis.analyse(run_with(samples, inventory(("aes-128-cfb", "ok"), ("aes-128-cfb1", "ok"))), POLICY)
    (comparison,) = result.cfb1
    assert comparison.subject.key.cipher == "aes-128-cfb"
    assert comparison.ratio.value == pytest.approx(128, rel=0.03)


def test_a_roundtrip_counts_the_bytes_twice():
    (case,) = analysis.case_statistics(rows("inventory", "openssl", "aes-128-ctr", "ctr", 128, "roundtrip", 1000, 1000))
    assert case.mb_per_s == pytest.approx(2000, rel=0.02)


@pytest.mark.parametrize(
    "cipher",
    [
        "rc4",
        "rc4-40",
        "des-ede3-cbc",
        "des-cfb1",
        "bf-cbc",
        "bf-cfb",
        "cast5-ofb",
        "idea-cbc",
        "rc2-cbc",
        "seed-cbc",
        "aes-256-ecb",
        "null",
        "aes-128-cbc-hmac-sha256",
        "aes-128-wrap",
        "aes-256-xts",
        "made-up-cipher",
    ],
)
def test_insecure_and_unknown_ciphers_are_not_recommended(cipher):
    assert POLICY.verdict(cipher).status == "not_recommended"


def test_mcrypt_is_not_recommended_and_says_why():
    verdict = POLICY.engine("mcrypt")
    assert verdict is not None
    assert verdict.status == "not_recommended"
    assert "zero bytes" in verdict.notes[0]

"""Symmetric findings from synthetic samples whose answer is known, and the policy that gates them."""

import numpy as np
import pytest

from phpcb.data.loader import Run
from phpcb.data.policy import load_symmetric_policy
from phpcb.experiments.symmetric import analysis

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


def test_no_unauthenticated_cipher_is_recommended_however_fast():
    """The race ranks every measured cipher by speed, but none of them is an answer to "which cipher":
    they are all unauthenticated, so every verdict is at most "not recommended" (the AEAD page answers)."""
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
        ("aes-128-ocb", "aead_needs_tag"),
    )
    result = analysis.analyse(run_with(samples, listed), POLICY)
    assert [row.cipher for row in result.ranking] == ["rc4", "aes-128-ecb", "aes-128-ctr", "aes-256-cbc"]
    verdicts = {row.cipher: row.verdict for row in result.inventory}
    assert {verdicts[name].status for name in ("rc4", "aes-128-ecb", "aes-128-ctr", "aes-256-cbc")} == {
        "not_recommended"
    }
    assert "Unauthenticated" in verdicts["aes-256-cbc"].notes[0]
    assert verdicts["aes-128-gcm"].status == "recommended", "the AEAD page's own entry, read by the inventory"
    assert verdicts["aes-128-ocb"].status == "not_evaluated", "an AEAD nobody here measured is not rated"
    assert result.status_counts == {"aead_needs_tag": 2, "ok": 4}


def test_each_mode_gets_its_own_reason():
    """CTR's hazard is a repeated counter, not CBC's predictable IV (issue 14)."""
    ctr, cbc, ofb = (POLICY.verdict(name).notes[0] for name in ("aes-128-ctr", "aes-128-cbc", "aes-128-ofb"))
    assert "repeats the keystream" in ctr
    assert "CBC" not in ctr
    assert "random IV" in cbc
    assert "padding oracle" in cbc
    assert "nonce" in ofb
    assert "CBC" not in ofb
    assert [r.key for r in POLICY.verdict("aes-128-ctr").references] == ["sp800-38a", "cwe-323"]


def test_seed_is_rated_for_what_it_is_a_128_bit_block_cipher():
    """SEED (RFC 4269) has a 128-bit block: Sweet32, the 64-bit-block attack, is not its reason."""
    reason = POLICY.verdict("seed-cbc").notes[0]
    assert "128-bit block" in reason
    assert "64-bit" not in reason
    assert "Sweet32" not in reason
    assert "64-bit block" in POLICY.verdict("bf-cbc").notes[0]


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

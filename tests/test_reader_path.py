"""Issue 46.7, the reader path: the comparisons a reader used to work out by hand are stated, with their CIs,
from samples whose answer is known. The curves page sets P-384 and P-521 against P-256 (sign, verify, ECDH,
key generation); the AEAD page sets the two AEADs it gives code for, AES-256-GCM and XChaCha20-Poly1305,
against each other at every size. (ML-DSA against ES256 and Ed25519: tests/test_pq_analysis.py.)"""

import re

import pytest

from phpcb.experiments.aead import analysis as aead_analysis
from phpcb.experiments.aead import page as aead_page
from phpcb.experiments.ec_keygen import analysis as ec_analysis
from phpcb.experiments.ec_keygen import page as ec_page

from .test_aead_analysis import POLICY as AEAD_POLICY
from .test_aead_analysis import rows_for, run_with
from .test_ec_keygen_analysis import POLICY as EC_POLICY
from .test_ec_keygen_analysis import REFERENCE as EC_REFERENCE
from .test_ec_keygen_analysis import make_run, scheme_rows

CI = r" \(95% CI [\d.]+–[\d.]+×\)"


def timed(curve, family, bits, strength, ms, seed):
    """One curve's rows, each operation taking `ms[operation]` milliseconds."""
    rows = []
    for index, (operation, value) in enumerate(ms.items()):
        rows += scheme_rows(curve, family, bits, strength, value, (operation,), seed=seed * 10 + index)
    return rows


def nist_curves(p521=True):
    groups = [
        timed("prime256v1", "prime", 256, 128, {"keygen": 0.2, "sign": 0.02, "verify": 0.05, "derive": 0.04}, 1),
        timed("secp384r1", "secp", 384, 192, {"keygen": 0.3, "sign": 0.2, "verify": 0.4, "derive": 0.3}, 2),
        timed("Ed25519", "ed25519", 255, 128, {"keygen": 0.01, "sign": 0.02, "verify": 0.04}, 4),
    ]
    if p521:
        groups.append(timed("secp521r1", "secp", 521, 256, {"keygen": 0.3, "sign": 0.22, "verify": 0.35}, 3))
    return make_run(*groups)


def test_p384_and_p521_are_set_against_p256_at_each_operation_both_have():
    result = ec_analysis.analyse(nist_curves(), EC_POLICY, EC_REFERENCE)
    found = [(a.name, a.operation) for a in result.against_p256]
    assert found == [
        ("P-384", "sign"),
        ("P-384", "verify"),
        ("P-384", "derive"),
        ("P-384", "keygen"),
        ("P-521", "sign"),
        ("P-521", "verify"),
        ("P-521", "keygen"),
    ], "P-521 has no ECDH here: no ratio for it"
    by = {(a.name, a.operation): a.ratio for a in result.against_p256}
    # P-256's time over the curve's: below 1, P-256 is the faster.
    assert by[("P-384", "sign")].value == pytest.approx(0.02 / 0.2, rel=0.03)
    assert by[("P-384", "verify")].value == pytest.approx(0.05 / 0.4, rel=0.03)
    assert by[("P-521", "sign")].value == pytest.approx(0.02 / 0.22, rel=0.03)
    assert by[("P-521", "verify")].value == pytest.approx(0.05 / 0.35, rel=0.03)
    assert all(r.significant and r.low <= r.value <= r.high for r in by.values())


def slower(text):
    """The 'N× slower than P-256 (95% CI low–high×)' figures of a sentence, as (N, low, high)."""
    return [
        tuple(map(float, m)) for m in re.findall(r"([\d.]+)× slower than P-256 \(95% CI ([\d.]+)–([\d.]+)×\)", text)
    ]


def test_the_curves_page_says_p384_and_p521_against_p256_for_sign_and_verify_with_their_cis():
    result = ec_analysis.analyse(nist_curves(), EC_POLICY, EC_REFERENCE)
    sentence = ec_page.against_p256_sentence(result)
    p384, p521 = sentence.split("; ")
    assert re.fullmatch(rf"P-384 signs [\d.]+× slower than P-256{CI} and verifies [\d.]+× slower than P-256{CI}", p384)
    assert re.fullmatch(rf"P-521 signs [\d.]+× slower than P-256{CI} and verifies [\d.]+× slower than P-256{CI}", p521)
    for text, (sign, verify) in ((p384, (10, 8)), (p521, (11, 7))):
        (sign_found, verify_found) = slower(text)
        assert sign_found[0] == pytest.approx(sign, rel=0.05), text
        assert verify_found[0] == pytest.approx(verify, rel=0.05), text
        for value, low, high in (sign_found, verify_found):
            assert low <= value <= high, "each figure inside its own interval"


def test_the_curves_page_table_has_p256s_own_times_then_each_larger_curve_against_them():
    result = ec_analysis.analyse(nist_curves(), EC_POLICY, EC_REFERENCE)
    rows = ec_page.against_p256_rows(result)
    assert [(name, r.scheme.curve, sorted(found)) for name, r, found in rows] == [
        ("P-256", "prime256v1", []),
        ("P-384", "secp384r1", ["derive", "keygen", "sign", "verify"]),
        ("P-521", "secp521r1", ["keygen", "sign", "verify"]),
    ]
    context = ec_page.context(result, EC_REFERENCE)
    assert [op for op, _ in context["against_p256_operations"]] == ["sign", "verify", "derive", "keygen"]


def test_no_difference_is_said_so_not_as_a_speed_up():
    run = make_run(
        timed("prime256v1", "prime", 256, 128, {"keygen": 0.2, "sign": 0.1, "verify": 0.1}, 1),
        timed("secp384r1", "secp", 384, 192, {"keygen": 0.2, "sign": 0.1, "verify": 0.4}, 2),
    )
    sentence = ec_page.against_p256_sentence(ec_analysis.analyse(run, EC_POLICY, EC_REFERENCE))
    assert re.match(r"P-384 signs in a time no measurement here tells from P-256's \(ratio 1\.0\d, 95% CI ", sentence)
    (verify,) = slower(sentence)
    assert sentence.endswith(
        f"and verifies {verify[0]:.2f}× slower than P-256 (95% CI {verify[1]:.2f}–{verify[2]:.2f}×)"
    )
    assert verify[0] == pytest.approx(4, rel=0.05)


def test_without_p256_or_a_larger_nist_curve_the_page_says_nothing_of_them():
    only_p256 = make_run(timed("prime256v1", "prime", 256, 128, {"keygen": 0.2, "sign": 0.02}, 1))
    for run in (only_p256, make_run(timed("secp384r1", "secp", 384, 192, {"keygen": 0.3, "sign": 0.2}, 2))):
        result = ec_analysis.analyse(run, EC_POLICY, EC_REFERENCE)
        assert result.against_p256 == []
        assert ec_page.against_p256_sentence(result) == ""
        assert ec_page.against_p256_rows(result) == []


KIB16 = 16 * 1024


def aead_pair_rows():
    """AES-256-GCM against XChaCha20-Poly1305 (and CCM beside them, which the pair leaves out): XChaCha20 is
    1.5× faster at 16 B, GCM 7× faster at 16 KiB, both ways."""
    rows = []
    seed = 0
    for operation in ("encrypt", "decrypt"):
        for payload, gcm, xchacha in ((16, 900, 600), (KIB16, 2_000, 14_000)):
            seed += 2
            rows += rows_for("aes-256-gcm", gcm, payload, operation, seed=seed)
            rows += rows_for(
                "sodium-xchacha20poly1305-ietf", xchacha, payload, operation, library="sodium", seed=seed + 1
            )
    rows += rows_for("aes-256-ccm", 5_000, KIB16, seed=99)
    return rows


def test_the_aead_page_sets_its_two_recommended_aeads_against_each_other_at_every_size():
    result = aead_analysis.analyse(run_with(aead_pair_rows()), AEAD_POLICY)
    found = [(c.subject, c.baseline, c.operation, c.payload_bytes) for c in result.recommended_pair]
    pair = ("aes-256-gcm", "sodium-xchacha20poly1305-ietf")
    assert found == [
        (*pair, "encrypt", 16),
        (*pair, "decrypt", 16),
        (*pair, "encrypt", KIB16),
        (*pair, "decrypt", KIB16),
    ], "by size, encryption first"
    ratios = {(c.operation, c.payload_bytes): c.ratio for c in result.recommended_pair}
    # XChaCha20-Poly1305's time over AES-256-GCM's: above 1, GCM is the faster.
    assert ratios[("encrypt", 16)].value == pytest.approx(600 / 900, rel=0.03)
    assert ratios[("decrypt", KIB16)].value == pytest.approx(7.0, rel=0.03)
    assert all(r.significant and r.low <= r.value <= r.high for r in ratios.values())


def test_the_aead_page_states_the_range_of_the_pair_with_the_case_at_each_end():
    result = aead_analysis.analyse(run_with(aead_pair_rows()), AEAD_POLICY)
    span = aead_page.pair_span(result)
    expected = (
        r"Over the 4 cases \(2 payload sizes × encryption and decryption\), AES-256-GCM ranges from "
        r"1\.[45]\d× slower \((en|de)crypt, 16 B\) to [67]\.\d\d× faster \((en|de)crypt, 16 KiB\) compared with "
        r"XChaCha20-Poly1305"
    )
    assert re.fullmatch(expected, span), span
    assert aead_page.pair_names() == ("AES-256-GCM", "XChaCha20-Poly1305")


def test_without_both_aeads_the_page_has_no_pair_to_state():
    rows = rows_for("aes-256-gcm", 900, 16, seed=1) + rows_for("aes-256-ccm", 1_800, 16, seed=2)
    result = aead_analysis.analyse(run_with(rows), AEAD_POLICY)
    assert result.recommended_pair == []
    assert aead_page.pair_span(result) == ""


def test_the_curves_answer_links_its_p256_comparison_where_the_page_has_one():
    anchor = "p-384-and-p-521-against-p-256"
    for run, linked in (
        (nist_curves(), True),
        (make_run(timed("Ed25519", "ed25519", 255, 128, {"keygen": 0.01, "sign": 0.02}, 4)), False),
    ):
        result = ec_analysis.analyse(run, EC_POLICY, EC_REFERENCE)
        found = ec_page.finding({"analysis": result, **ec_page.context(result, EC_REFERENCE)})
        assert found is not None
        assert (anchor in [e.anchor for e in found.evidence]) is linked

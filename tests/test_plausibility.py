"""The invariants a run's cases must keep, and what the AEAD and cipher pages do with a case that breaks one."""

import numpy as np
import pytest

from phpcb.data.loader import Run
from phpcb.data.policy import load_aead_policy
from phpcb.data.schema import Measure
from phpcb.experiments.aead import analysis as aead
from phpcb.statistics import plausibility
from phpcb.statistics.plausibility import Measured
from phpcb.statistics.stats import Ratio

from .conftest import ROOT

POLICY = load_aead_policy(ROOT / "data" / "policy" / "aead.yaml")
KIB512 = 512 * 1024
MIB10 = 10 * 1024 * 1024


def measured(key, ns, payload=KIB512, faults=0.0, seed=0):
    rng = np.random.default_rng(seed)
    return Measured(key, key, payload, ns * rng.normal(1, 0.005, 21), faults)


def unpaired(a, b):
    return False


@pytest.mark.parametrize(
    ("ratio", "band", "holds"),
    [
        (Ratio(1.30, 1.26, 1.34), 1.25, False),  # the whole CI above the band
        (Ratio(1.30, 1.24, 1.34), 1.25, True),  # the CI reaches into it
        (Ratio(0.77, 0.76, 0.79), 1.25, False),  # below 1/1.25 = 0.8
        (Ratio(0.79, 0.78, 0.81), 1.25, True),
        (Ratio(1.0, 0.99, 1.01), 1.15, True),
    ],
)
def test_a_pair_breaks_a_same_work_invariant_only_when_its_whole_ci_leaves_the_band(ratio, band, holds):
    assert plausibility._within(ratio, band) is holds


@pytest.mark.parametrize(
    ("ratio", "holds"),
    [
        (Ratio(1.10, 1.08, 1.12), False),  # the 256-bit key 10 % faster, beyond its CI and the 2 % threshold
        (Ratio(1.10, 1.01, 1.20), True),  # not beyond the threshold
        (Ratio(0.70, 0.68, 0.72), True),  # slower, as it should be
        (Ratio(1.0, 0.98, 1.02), True),
    ],
)
def test_a_longer_key_breaks_the_invariant_only_when_measurably_faster(ratio, holds):
    assert plausibility._not_faster(ratio) is holds


def test_encryption_is_checked_against_decryption_from_16_kib_on():
    cases = [
        measured(("enc", 1024), 3_000, payload=1024),
        measured(("dec", 1024), 1_000, payload=1024),
        measured(("enc", KIB512), 300_000),
        measured(("dec", KIB512), 100_000),
    ]

    def twin(key):
        return ("dec", key[1]) if key[0] == "enc" else None

    (check,) = plausibility.encrypt_vs_decrypt(cases, twin, unpaired)
    assert check.subject.key == ("enc", KIB512)
    assert not check.holds
    assert check.ratio.value == pytest.approx(1 / 3, rel=0.02)
    assert plausibility.Plausibility([check], cases).implausible == {("enc", KIB512), ("dec", KIB512)}


def test_the_explanation_names_the_side_that_took_a_fault_per_page():
    fresh = measured("aes-256-gcm encrypt, 1 MiB", 300_000, payload=1 << 20, faults=258)
    calm = measured("aes-256-gcm decrypt, 1 MiB", 100_000, payload=1 << 20, faults=0)
    check = plausibility.encrypt_vs_decrypt([fresh, calm], lambda k: calm.key if k == fresh.key else None, unpaired)[0]
    assert check.explanation == (
        "aes-256-gcm encrypt, 1 MiB took 258 page faults per call, aes-256-gcm decrypt, 1 MiB 0: "
        "PHP mapped fresh memory for each output, the kernel's cost, not the cipher's"
    )


def test_the_explanation_says_when_faults_do_not_explain_or_were_not_counted():
    a = measured("a", 300_000, faults=2)
    b = measured("b", 100_000, faults=1)
    check = plausibility.encrypt_vs_decrypt([a, b], lambda k: "b" if k == "a" else None, unpaired)[0]
    assert check.explanation.endswith("no difference that explains it: cause not identified")
    uncounted = plausibility.encrypt_vs_decrypt(
        [measured("a", 300_000, faults=None), b], lambda k: "b" if k == "a" else None, unpaired
    )[0]
    assert uncounted.explanation.startswith("the run did not count page faults")


def test_faults_per_operation_are_the_median_per_case_and_unknown_if_any_sample_lacks_them():
    rows = [
        {"case": "x", "iterations": 2, "minor_faults": 516},
        {"case": "x", "iterations": 2, "minor_faults": 0},
        {"case": "x", "iterations": 4, "minor_faults": 1032},
        {"case": "y", "iterations": 1, "minor_faults": 3},
        {"case": "y", "iterations": 1, "minor_faults": None},
        {"case": "z", "iterations": 1},
    ]
    assert plausibility.faults_per_op(rows, lambda row: row["case"], Measure("elapsed_ns", "iterations")) == {
        "x": 258.0,
        "y": None,
        "z": None,
    }


def test_a_case_maps_its_output_when_it_faults_about_once_per_page():
    assert plausibility.maps_its_output(measured("big", 1.0, payload=MIB10, faults=2561))
    assert not plausibility.maps_its_output(measured("big", 1.0, payload=MIB10, faults=3))
    assert not plausibility.maps_its_output(measured("big", 1.0, payload=MIB10, faults=None))
    assert not plausibility.maps_its_output(measured("tiny", 1.0, payload=16, faults=5))


@pytest.mark.parametrize(
    ("name", "shorter"),
    [
        ("aes-256-gcm", "aes-128-gcm"),
        ("camellia-256-cfb1", "camellia-128-cfb1"),
        ("chacha20", None),
        ("aes-128-ctr", None),
    ],
)
def test_the_128_bit_twin_of_a_cipher_name(name, shorter):
    assert plausibility.shorter_key_name(name) == shorter


def aead_rows(algorithm, ns_per_op, payload, operation="encrypt", faults=0, seed=0):
    rng = np.random.default_rng(seed)
    return [
        {
            "library": "openssl",
            "algorithm": algorithm,
            "operation": operation,
            "payload_bytes": payload,
            "aad_bytes": 0,
            "tag_bytes": 16,
            "nonce_bytes": 12,
            "sample": sample,
            "iterations": 10,
            "elapsed_ns": int(10 * ns_per_op * rng.normal(1, 0.01)),
            "minor_faults": 10 * faults,
        }
        for sample in range(9)
    ]


def aead_run(rows):
    manifest = {"experiments": {"aead": {"status": "ok", "files": ["aead.csv"]}}}
    return Run.from_rows("20260101T0000Z-test-php8.2", manifest, {"aead.csv": rows})


def both_operations(algorithm, ns, payload, encrypt_faults=0, seed=0):
    return aead_rows(algorithm, ns, payload, "encrypt", encrypt_faults, seed) + aead_rows(
        algorithm, ns, payload, "decrypt", 0, seed + 1
    )


def test_an_implausible_case_is_marked_and_never_the_headline_nor_a_pick():
    # At 512 KiB, GCM encryption took a fresh mapping per call and 3× its decryption's time.
    rows = (
        aead_rows("aes-256-gcm", 300_000, KIB512, "encrypt", faults=129, seed=7)
        + aead_rows("aes-256-gcm", 100_000, KIB512, "decrypt", seed=1)
        + both_operations("aes-256-ccm", 300_000, KIB512, seed=2)
        + both_operations("aes-256-gcm", 3_000, 16384, seed=4)
        + both_operations("aes-256-ccm", 9_000, 16384, seed=6)
    )
    result = aead.analyse(aead_run(rows), POLICY)

    (broken,) = result.plausibility.broken
    assert broken.invariant is plausibility.ENCRYPT_DECRYPT
    assert "took 129 page faults per call" in broken.explanation
    gcm512 = result.case("aes-256-gcm", "encrypt", KIB512)
    assert not result.plausibility.plausible(gcm512.key)
    assert result.headline.payload_bytes == 16384, "the largest plausible payload, not the broken one"
    assert all(c.payload_bytes != KIB512 for c in result.gcm_vs_ccm if c.operation == "encrypt")
    assert [p.payload_bytes for p in result.picks] == [16384], "the only recommended AEAD at 512 KiB is marked"


def test_the_headline_stays_below_the_sizes_php_maps_afresh():
    rows = (
        both_operations("aes-256-gcm", 1_000, 16384)
        + both_operations("aes-256-ccm", 3_000, 16384, seed=2)
        + both_operations("aes-256-gcm", 600_000, MIB10, encrypt_faults=2561, seed=4)
        + both_operations("aes-256-ccm", 1_800_000, MIB10, encrypt_faults=2561, seed=6)
    )
    result = aead.analyse(aead_run(rows), POLICY)
    assert result.plausibility.broken == []
    assert result.headline.payload_bytes == 16384
    assert {(c.key.variant, c.key.operation) for c in result.plausibility.faulting} == {
        ("aes-256-gcm", "encrypt"),
        ("aes-256-ccm", "encrypt"),
    }

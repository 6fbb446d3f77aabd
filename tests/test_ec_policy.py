"""data/policy/keys.yaml (through ec_keygen.yaml): what may be recommended, checked against every curve PHP lists."""

import re

import pytest

from phpcb.errors import DataError
from phpcb.loader import load_run
from phpcb.policy import load_key_scheme_policy
from phpcb.schema import load_schemas

from .conftest import FIXTURE_RUN, ROOT

POLICY_FILE = ROOT / "data" / "policy" / "keys.yaml"
POLICY = load_key_scheme_policy(POLICY_FILE)
BINARY = ("sect", "c2pnb", "c2tnb", "oakley")


def curves():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    return run.tables["ec_curves.csv"]


def test_the_fixture_lists_every_curve_php_offers():
    assert len(curves()) >= 80


@pytest.mark.parametrize("row", curves(), ids=lambda row: row["curve"])
def test_no_small_binary_or_nonstandard_curve_is_recommended(row):
    verdict = POLICY.verdict(row["curve"], row["family"], row["security_bits"])
    if row["security_bits"] < 112 or row["family"] in (*BINARY, "wap", "sm2"):
        assert verdict.status == "not_recommended"
    if verdict.status == "recommended":
        assert row["curve"] in ("prime256v1", "secp384r1", "secp521r1")


def test_p256_x25519_and_ed25519_come_first():
    for name, family in (("prime256v1", "prime"), ("X25519", "x25519"), ("Ed25519", "ed25519")):
        assert POLICY.verdict(name, family, 128).status == "recommended"


def test_rsa_under_112_bit_strength_is_refused_whatever_its_entry():
    assert POLICY.verdict("RSA-3072", "rsa", 80).status == "not_recommended"
    assert POLICY.verdict("RSA-2048", "rsa", 112).status == "acceptable"


def test_every_verdict_cites_a_reference_with_a_link():
    for section in (POLICY.schemes, POLICY.families):
        for name, verdict in section.items():
            assert verdict.references, name
            assert all(reference.url.startswith("https://") for reference in verdict.references), name


def test_the_experiments_policy_names_the_shared_key_table(tmp_path):
    assert load_key_scheme_policy(ROOT / "data" / "policy" / "ec_keygen.yaml") == POLICY
    pointer = tmp_path / "ec_keygen.yaml"
    pointer.write_text("keys: ../keys.yaml\n")
    expected = "keys: expected the name of a policy file next to this one, got '../keys.yaml'"
    with pytest.raises(DataError, match=re.escape(expected)):
        load_key_scheme_policy(pointer)


def test_a_reference_that_is_not_defined_is_a_data_error(tmp_path):
    bad = tmp_path / "keys.yaml"
    bad.write_text(POLICY_FILE.read_text().replace("references: [rfc5639, rfc8422]", "references: [rfc9999]", 1))
    with pytest.raises(DataError, match="rfc9999"):
        load_key_scheme_policy(bad)

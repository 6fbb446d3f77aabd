"""data/policy/keys.yaml (through ec_keygen.yaml): what may be recommended, checked against every curve PHP lists."""

import csv
import functools
import re
import shutil

import pytest

from phpcb.data.loader import load_run
from phpcb.data.policy import load_key_scheme_policy
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError

from .conftest import FIXTURE_RUN, ROOT

POLICY_FILE = ROOT / "data" / "policy" / "keys.yaml"
POLICY = load_key_scheme_policy(POLICY_FILE)
BINARY = ("sect", "c2pnb", "c2tnb", "oakley")


@functools.cache
def curves():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    return run.tables["ec_curves.csv"]


def curve_names(family: str | None = None) -> list[str]:
    """The fixture's curves read as plain text, to name the parametrized tests: loading (and checking) the
    whole run at import would cost each pytest worker that work whether or not it runs these tests."""
    with (FIXTURE_RUN / "ec_curves.csv").open(encoding="utf-8", newline="") as file:
        return [row["curve"] for row in csv.DictReader(file) if family is None or row["family"] == family]


def curve_row(name: str):
    (row,) = [row for row in curves() if row["curve"] == name]  # one row per test id
    return row


def test_the_fixture_lists_every_curve_php_offers():
    assert len(curves()) >= 80


@pytest.mark.parametrize("curve", curve_names())
def test_no_small_binary_or_nonstandard_curve_is_recommended(curve):
    row = curve_row(curve)
    verdict = POLICY.verdict(row["curve"], row["family"], row["security_bits"])
    canonical = POLICY.table.canonical(row["curve"])
    if row["security_bits"] < 112 or row["family"] in (*BINARY, "sm2"):
        assert verdict.status == "not_recommended"
    if row["family"] == "wap" and canonical == row["curve"]:
        assert verdict.status == "not_recommended", "a WTLS curve of its own"
    if verdict.status == "recommended":
        assert row["curve"] in ("prime256v1", "secp384r1", "secp521r1")


@pytest.mark.parametrize("curve", curve_names("wap"))
def test_a_wtls_name_of_a_standard_curve_gets_that_curves_verdict(curve):
    """wap-wsg-idm-ecid-wtls12 is P-224 under another name: one curve, one verdict."""
    row = curve_row(curve)
    assert row["family"] == "wap"
    rows = {r["curve"]: r for r in curves()}
    canonical = POLICY.table.canonical(row["curve"])
    verdict = POLICY.verdict(row["curve"], row["family"], row["security_bits"])
    assert verdict.primitive == canonical
    if canonical != row["curve"]:
        own = rows[canonical]
        assert verdict == POLICY.verdict(canonical, own["family"], own["security_bits"])


def test_p224_has_one_verdict_under_both_names():
    p224 = POLICY.verdict("secp224r1", "secp", 112)
    assert p224.status == "acceptable"
    assert POLICY.verdict("wap-wsg-idm-ecid-wtls12", "wap", 112) == p224


def test_p256_x25519_and_ed25519_come_first():
    for name, family in (("prime256v1", "prime"), ("X25519", "x25519"), ("Ed25519", "ed25519")):
        assert POLICY.verdict(name, family, 128).status == "recommended"


def test_rsa_under_112_bit_strength_is_refused_whatever_its_entry():
    assert POLICY.verdict("RSA-3072", "rsa", 80).status == "not_recommended"
    assert POLICY.verdict("RSA-2048", "rsa", 112).status == "acceptable"


def test_every_verdict_cites_a_reference_with_a_link():
    verdicts = [(name, entry.verdict) for name, entry in POLICY.table.of_kind("key").items()]
    verdicts += [(rule.pattern.pattern, rule.verdict("")) for rule in POLICY.table.rules if rule.kind == "key-family"]
    for name, verdict in verdicts:
        if name == ".":
            continue  # the default: a name no rule knows
        assert verdict.references, name
        assert all(reference.url.startswith("https://") for reference in verdict.references), name


def test_brainpool_is_defined_for_tls_13_not_removed_from_it():
    """RFC 8734 defines Brainpool groups for TLS 1.3 (the page said they were removed)."""
    reason = POLICY.verdict("brainpoolP256r1", "brainpool", 128).notes[0]
    assert "RFC 8734" in reason
    assert "removed" not in reason


def test_the_experiments_policy_names_the_shared_key_table(tmp_path):
    assert load_key_scheme_policy(ROOT / "data" / "policy" / "ec_keygen.yaml") == POLICY
    pointer = tmp_path / "ec_keygen.yaml"
    pointer.write_text("keys: ../keys.yaml\n")
    expected = "keys: expected the name of a policy file next to this one, got '../keys.yaml'"
    with pytest.raises(DataError, match=re.escape(expected)):
        load_key_scheme_policy(pointer)


def test_a_reference_that_is_not_defined_is_a_data_error(tmp_path):
    shutil.copytree(POLICY_FILE.parent, tmp_path / "policy")
    bad = tmp_path / "policy" / "keys.yaml"
    edited = POLICY_FILE.read_text().replace("references: [rfc5639, rfc8734, rfc8446]", "references: [rfc9999]", 1)
    assert edited != POLICY_FILE.read_text()
    bad.write_text(edited)
    with pytest.raises(DataError, match="rfc9999"):
        load_key_scheme_policy(bad)

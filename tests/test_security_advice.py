"""What a security reviewer checks on the pages (issue 25): each test fails on the text the site
printed before, and names the advice it guards."""

from __future__ import annotations

import re

import pytest

from phpcb.data.policy import load_argon2_policy, load_jwt_policy, load_key_scheme_policy, load_symmetric_policy
from phpcb.pages import build as site

from .conftest import FIXTURE_RUN, ROOT, project_with

POLICY = ROOT / "data" / "policy"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    generated = site.build(project_with(tmp_path_factory.mktemp("advice"), FIXTURE_RUN))
    return {name: " ".join(text.split()) for name, text in generated.pages.items()}


def test_the_mcrypt_page_recommends_no_unauthenticated_cipher_and_points_to_an_aead(pages):
    page = pages["experiments/symmetric.md"]
    assert "Use an AEAD" in page
    assert "None of them is recommended, however fast" in page
    assert "the fastest one the policy allows" not in page
    assert "Speed does not decide, so this page names" not in page


def test_the_mcrypt_page_warns_that_openssl_encrypt_pads_or_cuts_a_wrong_length_key(pages):
    assert (
        "silently pads a key that is too short with zero bytes and cuts one that is too long"
        in pages["experiments/symmetric.md"]
    )


def test_unmeasured_authenticated_modes_are_not_rated_and_not_said_to_be_measured():
    symmetric = load_symmetric_policy(POLICY / "symmetric.yaml")
    for name in ("aes-128-ocb", "aes-256-siv", "aria-128-gcm", "aria-256-ccm"):
        verdict = symmetric.verdict(name)
        assert verdict.status == "not_evaluated", name
        assert "measured on the AEAD page" not in verdict.notes[0]
        assert "RFC 8439" not in {r.title.split(":")[0] for r in verdict.references}, "ChaCha20's RFC is not OCB's"


def test_ccm_has_one_verdict_on_the_aead_page_and_in_the_inventory():
    symmetric = load_symmetric_policy(POLICY / "symmetric.yaml")
    assert symmetric.verdict("aes-128-ccm").status == "acceptable"
    assert symmetric.verdict("aes-128-gcm").status == "recommended"


def test_libsodium_aes_gcm_says_it_needs_aes_ni_and_points_to_xchacha():
    verdict = load_symmetric_policy(POLICY / "symmetric.yaml").verdict("sodium-aes256gcm")
    assert verdict.primitive == "aes-256-gcm", "one primitive, whichever library"
    assert "AES-NI" in verdict.notes[0]
    assert "XChaCha20-Poly1305" in verdict.notes[0]


def test_p256_is_not_called_hard_to_misuse_and_its_caveats_are_named(pages):
    page = pages["experiments/ec_keygen.md"]
    assert not re.search(r"P-256[^.]*hard to misuse", page)
    assert "fresh secret nonce per signature" in page
    assert "needs the peer's point checked" in page
    keys = load_key_scheme_policy(POLICY / "keys.yaml")
    assert "nonce" in keys.named("prime256v1").notes[0]
    assert "validated" in keys.named("prime256v1").notes[0]


def test_a_raw_ecdh_or_x25519_secret_goes_through_a_kdf(pages):
    assert "pass it through a KDF" in pages["experiments/ec_keygen.md"]
    assert "KDF" in load_key_scheme_policy(POLICY / "keys.yaml").named("X25519").notes[0]


@pytest.mark.parametrize("page", ["experiments/ec_keygen.md", "experiments/jwt.md"])
def test_pages_of_public_keys_state_the_post_quantum_horizon(pages, page):
    text = pages[page]
    assert "after 2030" in text
    assert "after 2035" in text
    assert "NIST IR 8547" in text


def test_the_jwt_page_lists_what_a_verifier_checks_besides_the_signature(pages):
    page = pages["experiments/jwt.md"]
    for section, what in (("3.8", "issuer"), ("3.9", "audience"), ("3.11", "explicit typing"), ("3.5", "entropy")):
        assert f"section {section}" in page, section
        assert what in page, what
    assert "RFC 9864" in page
    assert "Ed25519" in page


def test_hs_secrets_must_be_random_keys_not_passwords():
    verdict = load_jwt_policy(POLICY / "jwt.yaml").verdict("HS256")
    assert "256 random bits" in verdict.notes[0]
    assert "never a password" in verdict.notes[0]


def test_the_argon2_page_states_concurrency_the_sodium_provider_and_bcrypt(pages):
    page = pages["experiments/argon2.md"]
    assert "Memory is per concurrent hash" in page
    assert "denial of service" in page
    assert "PASSWORD_ARGON2_PROVIDER" in page
    assert "bcrypt (PASSWORD_DEFAULT) is the baseline" in page


def test_argon2_parameters_under_owasps_floor_are_not_recommended():
    policy = load_argon2_policy(POLICY / "argon2.yaml")
    assert policy.parameters("argon2id", 19456, 2, 1).status == "recommended"
    assert policy.parameters("argon2id", 12288, 3, 1).status == "recommended", "an equivalent OWASP pair"
    assert policy.parameters("argon2id", 19455, 2, 1).status == "not_recommended"
    assert policy.parameters("argon2id", 65536, 1, 1).status == "recommended", "47 MiB, t=1 is on the list"
    assert policy.parameters("argon2id", 16384, 2, 1).status == "not_recommended"
    assert policy.parameters("argon2i", 65536, 3, 1).status == "acceptable", "never above its variant"

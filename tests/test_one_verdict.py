"""One verdict per primitive: a key that two pages name gets the same verdict and reason on both
(data/policy/keys.yaml is the one table), and a JWT algorithm is never rated above its key."""

import pytest
from markupsafe import escape

from phpcb.data.policy import STATUSES, load_jwt_policy, load_key_scheme_policy
from phpcb.pages import build as site

from .conftest import FIXTURE_RUN, ROOT, project_with

KEYS = load_key_scheme_policy(ROOT / "data" / "policy" / "keys.yaml")
JWT = load_jwt_policy(ROOT / "data" / "policy" / "jwt.yaml")
# The keys of the JWT algorithms the runner measures, all of which the curves page also times.
JWT_KEYS = {"ES256": "prime256v1", "ES384": "secp384r1", "ES512": "secp521r1", "EdDSA": "Ed25519", "PS256": "RSA-2048"}


def test_the_curves_page_reads_the_shared_key_table():
    assert load_key_scheme_policy(ROOT / "data" / "policy" / "ec_keygen.yaml") == KEYS
    assert JWT.keys == KEYS


@pytest.mark.parametrize(("alg", "key"), sorted(JWT_KEYS.items()))
def test_a_jwt_algorithm_carries_its_keys_verdict(alg, key):
    joined, of_key = JWT.with_key(alg, key), KEYS.named(key)
    assert STATUSES.index(joined.status) >= STATUSES.index(of_key.status), "never rated above its key"
    assert STATUSES.index(joined.status) >= STATUSES.index(JWT.verdict(alg).status), "nor above its algorithm"
    assert set(of_key.notes) <= set(joined.notes), "the key's reason, word for word"


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    return site.build(project_with(tmp_path_factory.mktemp("one-verdict"), FIXTURE_RUN)).pages


@pytest.mark.parametrize("key", sorted(set(JWT_KEYS.values())))
def test_both_pages_give_a_key_the_same_reason(pages, key):
    reason = str(escape(KEYS.named(key).notes[0]))
    for page in ("experiments/ec_keygen.md", "experiments/jwt.md"):
        assert reason in pages[page], f"{key}'s reason is missing from {page}"

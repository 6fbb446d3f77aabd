import shutil

import pytest

from phpcb.data.policy import load_aead_policy
from phpcb.errors import DataError

from .conftest import ROOT

POLICY_FILE = ROOT / "data" / "policy" / "aead.yaml"


def test_every_policy_entry_cites_a_defined_reference():
    policy = load_aead_policy(POLICY_FILE)
    for name in policy.table.of_kind("cipher"):
        verdict = policy.verdict(name, 16)
        assert verdict.references, name
        assert all(ref.url.startswith("https://") for ref in verdict.references)


def test_a_short_tag_downgrades_a_recommended_algorithm_and_says_why():
    verdict = load_aead_policy(POLICY_FILE).verdict("aes-256-gcm", 12)
    assert verdict.status == "acceptable"
    assert any("forgery" in note for note in verdict.notes)


def test_an_unknown_status_in_the_policy_is_a_data_error(tmp_path):
    shutil.copytree(POLICY_FILE.parent, tmp_path / "policy")
    bad = tmp_path / "policy" / "aead.yaml"
    bad.write_text(POLICY_FILE.read_text().replace("status: recommended", "status: fastest", 1))
    with pytest.raises(DataError, match="expected status in"):
        load_aead_policy(bad)

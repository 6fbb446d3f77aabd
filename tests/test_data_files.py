"""Policy and reference YAML: a missing or mistyped entry stops the build with the file and entry named."""

import shutil

import pytest

from phpcb.data.datafile import YamlFile
from phpcb.data.policy import load_argon2_policy, load_jwt_policy, load_symmetric_policy
from phpcb.data.reference import load_reference
from phpcb.errors import DataError
from phpcb.pages import build as site

from .conftest import FIXTURE_RUN, ROOT

POLICY = ROOT / "data" / "policy"


def copy_with(tmp_path, source, old, new):
    """A copy of `source`'s directory (a policy file reads the whole table) with one edit to `source`."""
    shutil.copytree(source.parent, tmp_path / source.parent.name)
    path = tmp_path / source.parent.name / source.name
    text = source.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    ("loader", "file", "old", "new", "message"),
    [
        (load_jwt_policy, "jwt.yaml", "asymmetric: true,", "asymmetric: yes please,", "expected asymmetric to be"),
        (
            load_jwt_policy,
            "jwt.yaml",
            'reason: "ECDSA on P-256',
            'nope: "ECDSA on P-256',
            "verdicts/ES256: expected a 'reason'",
        ),
        (load_symmetric_policy, "symmetric.yaml", 'match: "^null$"', 'matches: "^null$"', "expected a 'match' entry"),
        (load_symmetric_policy, "symmetric.yaml", "kind: cipher, match", "kind: Cipher!, match", "expected a kind"),
        (
            load_symmetric_policy,
            "symmetric.yaml",
            'match: "(^|-)ecb$"',
            'match: "(^|-ecb$"',
            "is not a valid pattern",
        ),
        (
            load_argon2_policy,
            "argon2.yaml",
            "memory_mib: 19",
            "memory_mib: lots",
            "parameter_sets/0: expected 'memory_mib' to be an integer",
        ),
        (
            load_argon2_policy,
            "argon2.yaml",
            "references: [owasp]}",
            "references: [nist]}",
            "references ['nist'] are not defined",
        ),
        (
            load_argon2_policy,
            "argon2.yaml",
            "status: recommended",
            "status: best",
            "verdicts/argon2id: expected status in",
        ),
    ],
)
def test_a_malformed_policy_names_the_file_and_entry(tmp_path, loader, file, old, new, message):
    with pytest.raises(DataError) as caught:
        loader(copy_with(tmp_path, POLICY / file, old, new))
    assert caught.value.path.name == file
    assert message in str(caught.value)


def test_a_policy_that_is_not_a_mapping_is_refused(tmp_path):
    path = tmp_path / "jwt.yaml"
    path.write_text("- just\n- a list\n")
    with pytest.raises(DataError, match="expected a mapping at the top level, got list"):
        load_jwt_policy(path)


def test_a_reference_without_a_figure_a_page_needs_stops_the_build(make_project):
    root = make_project(FIXTURE_RUN)
    reference = root / "data" / "reference" / "jwt.yaml"
    reference.write_text(reference.read_text().replace("id: token_size_and_time", "id: renamed"))
    with pytest.raises(DataError) as caught:
        site.build(root)
    assert caught.value.path == reference
    assert "figures: expected an entry with id 'token_size_and_time'" in str(caught.value)


def test_a_reference_missing_a_required_section_is_refused(tmp_path):
    path = copy_with(tmp_path, ROOT / "data" / "reference" / "aead.yaml", "environment:", "setting:")
    with pytest.raises(DataError, match="expected a top-level 'environment' entry"):
        load_reference(path)


def test_a_yaml_file_read_twice_gives_each_reader_its_own_document(tmp_path):
    """Parsed documents are kept by their text (datafile._PARSED): a reader that changes its copy must not
    change what the next reader of the same file gets, and a changed file is parsed again."""
    path = tmp_path / "policy.yaml"
    path.write_text("entries:\n  a: {verdict: recommended}\n", encoding="utf-8")
    first = YamlFile.load(path)
    first.data["entries"]["a"]["verdict"] = "changed"
    assert YamlFile.load(path).data == {"entries": {"a": {"verdict": "recommended"}}}
    path.write_text("entries:\n  a: {verdict: acceptable}\n", encoding="utf-8")
    assert YamlFile.load(path).data["entries"]["a"]["verdict"] == "acceptable"

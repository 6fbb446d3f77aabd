"""Verdicts by rule, over the built site (issue 46.2): the repository's pages generated once (`python -m
phpcb pages`), every verdict they print read back as (primitive, use) → label. One label per primitive ×
use across every page; a verdict that depends on its use names it (ML-DSA: signatures where both ends
run OpenSSL 3.5+, not JWT); an identifier a standard deprecates is labelled so wherever it is rated
(EdDSA, RFC 9864); a JWS algorithm is rated with its key on every page that sets one beside it, never
by the key alone (RS256 with RSA-3072 was "recommended" on the post-quantum page and "acceptable" on the
JWT page); and no page calls an unauthenticated construction sound."""

from __future__ import annotations

import html
import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from phpcb.data.policy import STATUSES, load_jwt_policy, load_symmetric_policy
from phpcb.data.verdicts import STATUS_TEXT, load_table
from phpcb.errors import DataError

from .conftest import ROOT

POLICY = ROOT / "data" / "policy"
TABLE = load_table(POLICY)
JWT = load_jwt_policy(POLICY / "jwt.yaml")
SYMMETRIC = load_symmetric_policy(POLICY / "symmetric.yaml")
SPAN = re.compile(
    r'<span class="pcb-verdict" data-primitive="([^"]*)"(?: data-use="([^"]*)")? data-status="([^"]*)">(.*?)</span>'
)
# A JWS algorithm rated with its key: "RS256 (RSA-3072 key)".
WITH_KEY = re.compile(r"^(?P<alg>\S+) \((?P<key>\S+) key\)$")
# OpenSSL's cipher names as the pages print them (aes-256-cbc, bf-cfb), not a mode in prose (AES-CBC).
CIPHER = re.compile(r"\b(?:(?:aes|aria|camellia)-\d{3}|bf|des|des-ede3|sm4|seed|cast5|idea|rc2)-[a-z0-9]+\b")


@pytest.fixture(scope="module")
def pages(repository_build: Path) -> dict[str, str]:
    """Every page of the repository's site, as `python -m phpcb pages` writes it (Markdown with HTML): the
    session's one build of it (conftest's repository_build), shared with the other tests that read it."""
    docs = repository_build / "docs"
    return {str(path.relative_to(docs)): path.read_text(encoding="utf-8") for path in sorted(docs.rglob("*.md"))}


Labels = dict[tuple[str, str], dict[str, dict[str, set[str]]]]


def labels(pages: dict[str, str]) -> Labels:
    """(primitive, use) → label → status → the pages that print it."""
    found: Labels = defaultdict(lambda: defaultdict(lambda: defaultdict(set)))
    for page, text in pages.items():
        for primitive, use, status, label in SPAN.findall(text):
            found[(html.unescape(primitive), html.unescape(use))][html.unescape(label)][status].add(page)
    return found


def test_one_label_per_primitive_and_use_across_every_page(pages):
    found = labels(pages)
    assert len(found) > 100, "the inventory, the curves, the algorithms and the parameter sets are all rated"
    twice = {key: {label: sorted(s) for label, s in by_label.items()} for key, by_label in found.items()}
    twice = {key: value for key, value in twice.items() if len(value) > 1 or any(len(s) > 1 for s in value.values())}
    assert twice == {}, f"one primitive and use labelled two ways: {twice}"
    several_pages = [
        key for key, by_label in found.items() for s in by_label.values() for p in s.values() if len(p) > 1
    ]
    assert ("aes-128-ccm", "") in several_pages, "CCM is rated on the AEAD page and in the cipher inventory"
    assert ("EdDSA (Ed25519 key)", "") in several_pages, "on the JWT page and the post-quantum page"


def test_a_label_is_its_status_in_words_for_its_use(pages):
    for (primitive, use), by_label in labels(pages).items():
        for label, statuses in by_label.items():
            (status,) = statuses
            assert label.startswith(STATUS_TEXT[status]), (primitive, label)
            assert (f" for {use}" in label) == bool(use), (primitive, use, label)


@pytest.mark.parametrize(
    ("name", "status"), [("ML-DSA-44", "acceptable"), ("ML-DSA-65", "recommended"), ("ML-DSA-87", "recommended")]
)
def test_ml_dsa_is_labelled_for_its_use_and_not_recommended_for_jwt(pages, name, status):
    """Issue 46: ML-DSA-65/87 were "recommended" with no use named, though no PHP JWT verifier verifies them
    and a 4 KiB cookie cannot hold an ML-DSA-65 token."""
    found = {use: by_label for (primitive, use), by_label in labels(pages).items() if primitive == name}
    assert "" not in found, f"{name} labelled with no use"
    signatures = next(use for use in found if use.startswith("signatures"))
    assert "OpenSSL 3.5+" in signatures
    assert {s for statuses in found[signatures].values() for s in statuses} == {status}
    assert {s for statuses in found["JWT"].values() for s in statuses} == {"not_recommended"}
    entry = TABLE.entries[name].verdict
    assert "JWT" in next(u.notes[0] for u in entry.uses if u.use == "JWT")


def test_a_deprecated_identifier_is_labelled_so_wherever_it_is_rated(pages):
    """Issue 46: EdDSA as a JWS alg was "recommended" though RFC 9864 deprecates the identifier."""
    deprecated = {name: entry.verdict.deprecated for name, entry in TABLE.entries.items() if entry.verdict.deprecated}
    assert deprecated == {"EdDSA": "EdDSA deprecated by RFC 9864: use Ed25519"}
    rated = [
        (primitive, label)
        for (primitive, _), by_label in labels(pages).items()
        for label in by_label
        if primitive == "EdDSA" or primitive.startswith("EdDSA (")
    ]
    assert rated, "the JWT page rates EdDSA"
    for primitive, label in rated:
        assert label.endswith("; identifier EdDSA deprecated by RFC 9864: use Ed25519"), (primitive, label)


def test_an_algorithm_is_rated_with_its_key_and_never_above_either(pages):
    """A JWS algorithm set beside its key gets the join of both, on the JWT page and the post-quantum page
    alike: RS256 with RSA-3072 is acceptable (PKCS#1 v1.5) wherever it is rated."""
    found = labels(pages)
    joined = {}
    for primitive, use in found:
        match = WITH_KEY.match(primitive)
        if match is None or use:
            continue
        (statuses,) = found[(primitive, use)].values()
        (status,) = statuses
        expected = JWT.with_key(match["alg"], match["key"])
        assert (status, expected.primitive) == (expected.status, primitive), primitive
        for part in (JWT.verdict(match["alg"]), JWT.keys.named(match["key"])):
            assert STATUSES.index(status) >= STATUSES.index(part.status), (primitive, part.primitive)
        joined[primitive] = (status, {page for s in statuses.values() for page in s})
    assert joined["RS256 (RSA-3072 key)"][0] == "acceptable"
    assert "experiments/pq.md" in joined["RS256 (RSA-3072 key)"][1]
    assert joined["EdDSA (Ed25519 key)"][1] >= {"experiments/jwt.md", "experiments/pq.md"}


def test_the_post_quantum_page_rates_no_classical_key_alone(pages):
    """Its tokens are JWTs: each classical row is its algorithm with its key, as the JWT page rates it."""
    table = pages["experiments/pq.md"].split("Every algorithm's verdict")[1].split("</details>")[0]
    for primitive, use, _, _ in SPAN.findall(table):
        assert use or WITH_KEY.match(html.unescape(primitive)), primitive


def test_no_page_calls_an_unauthenticated_construction_sound(pages):
    """Issue 46: unauthenticated AES-256-CBC was "changed: sound" in one claims row and ruled out in the next."""
    for page, text in pages.items():
        for line in text.splitlines():
            if not re.search(r"\bsound\b", line, re.IGNORECASE):
                continue
            for name in CIPHER.findall(line):
                verdict = SYMMETRIC.verdict(name)
                assert not verdict.notes[0].startswith("Unauthenticated"), (page, name, line[:200])


def test_the_generated_pages_are_the_repositorys(pages):
    assert {"claims.md", "experiments/jwt.md", "experiments/pq.md", "experiments/symmetric.md"} <= set(pages)
    assert Path(ROOT / "templates" / "pq.md.j2").is_file()


# The policy files' side of it: how a use and a deprecated identifier are declared, and refused when wrong.
def policy_with(tmp_path: Path, extra: str) -> Path:
    directory = tmp_path / "policy"
    shutil.copytree(POLICY, directory)
    pq = directory / "pq.yaml"
    pq.write_text(re.sub(r"^verdicts:\n", "verdicts:\n" + extra, pq.read_text(encoding="utf-8"), flags=re.M))
    return directory


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            '  X-1: {kind: signature, status: acceptable, reason: "r", '
            'uses: {JWT: {status: acceptable, reason: "r"}}}\n',
            r"verdicts/X-1: uses other than its own need 'use'",
        ),
        (
            '  X-1: {kind: signature, status: acceptable, use: "u", reason: "r", '
            'uses: {JWT: {status: recommended, reason: "r"}}}\n',
            r"verdicts/X-1: recommended, but no experiment measures it",
        ),
        (
            '  X-1: {kind: signature, status: acceptable, use: "u", reason: "r", '
            'uses: {JWT: {status: fine, reason: "r"}}}\n',
            r"verdicts/X-1/uses/JWT: expected status in",
        ),
        (
            '  X-1: {kind: signature, status: acceptable, reason: "r", deprecated: {by: nowhere, use: X-2}}\n',
            r"verdicts/X-1/deprecated: by 'nowhere' is not defined under references",
        ),
        (
            '  X-1: {kind: signature, status: acceptable, reason: "r", deprecated: {by: fips204, use: X-1}}\n',
            r"verdicts/X-1/deprecated: 'X-1' cannot replace itself",
        ),
    ],
)
def test_a_use_or_a_deprecation_declared_wrong_stops_the_build(tmp_path, extra, message):
    with pytest.raises(DataError, match=message):
        load_table(policy_with(tmp_path, extra))


def test_a_label_names_its_use_and_its_deprecated_identifier(tmp_path):
    extra = (
        '  X-1: {kind: signature, status: acceptable, measured_by: pq, use: "signatures", reason: "r", '
        'deprecated: {by: fips204, use: X-2}, uses: {JWT: {status: not_recommended, reason: "j", '
        "references: [rfc6265]}}}\n"
    )
    verdict = load_table(policy_with(tmp_path, extra)).lookup("signature", "X-1")
    assert verdict.text == "acceptable for signatures; identifier X-1 deprecated by FIPS 204: use X-2"
    (jwt,) = verdict.uses
    assert (jwt.primitive, jwt.use, jwt.status, jwt.text) == (
        "X-1",
        "JWT",
        "not_recommended",
        "not recommended for JWT",
    )
    assert [r.key for r in jwt.references] == ["rfc6265"]
    renamed = verdict.named("X-1 m=1")
    assert (renamed.use, renamed.deprecated, renamed.uses[0].primitive) == ("signatures", verdict.deprecated, "X-1 m=1")


def test_an_algorithm_with_its_key_keeps_its_deprecated_identifier():
    assert JWT.with_key("EdDSA", "Ed25519").deprecated == "EdDSA deprecated by RFC 9864: use Ed25519"
    assert JWT.with_key("ES256", "prime256v1").deprecated == ""
    assert JWT.with_key("RS256", "RSA-3072").status == "acceptable", "PKCS#1 v1.5 whatever the key"

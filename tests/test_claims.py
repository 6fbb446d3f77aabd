"""The articles, checked: the verdict rules, the claims file's checks, and the claims the issue lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from phpcb import claim_rules as rules
from phpcb import site
from phpcb.claim_data import load_claims
from phpcb.claim_rules import (
    ChoiceResult,
    FactResult,
    Ranked,
    RankResult,
    RatioResult,
    Rule,
    ShareResult,
    Unavailable,
    decide,
)
from phpcb.errors import DataError
from phpcb.stats import Ratio

from .conftest import FIXTURE_RUN, ROOT, project_with

CLAIMS = ROOT / "data" / "reference" / "claims.yaml"


def ratio(value: float, low: float, high: float) -> RatioResult:
    return RatioResult("A", "B", Ratio(value, low, high), "somewhere")


def ranked(*names: str, overlap: bool = False) -> RankResult:
    width = 1.5 if overlap else 0.1
    return RankResult(tuple(Ranked(n, i + 1.0, i + 1.0 - width, i + 1.0 + width) for i, n in enumerate(names)), "x")


@pytest.mark.parametrize(
    ("value", "low", "high", "verdict"),
    [
        (20.0, 19.0, 21.0, rules.REPRODUCED),
        (12.0, 11.5, 12.5, rules.CHANGED),
        (60.0, 58.0, 62.0, rules.CHANGED),
        (1.0, 0.97, 1.03, rules.REFUTED),
        (0.5, 0.45, 0.55, rules.REFUTED),
        (20.0, 0.0, float("inf"), rules.UNTESTABLE),
    ],
)
def test_factor_reaches_each_verdict(value, low, high, verdict):
    assert decide(Rule("factor", claimed=21), ratio(value, low, high)).verdict == verdict


@pytest.mark.parametrize(
    ("value", "low", "high", "verdict"),
    [(2.0, 1.9, 2.1, rules.REPRODUCED), (0.5, 0.45, 0.55, rules.REFUTED), (1.0, 0.99, 1.01, rules.REFUTED)],
)
def test_faster_reaches_each_verdict(value, low, high, verdict):
    assert decide(Rule("faster"), ratio(value, low, high)).verdict == verdict


@pytest.mark.parametrize(
    ("value", "low", "high", "verdict"),
    [(1.1, 1.05, 1.2, rules.REPRODUCED), (1.2, 1.1, 1.3, rules.CHANGED), (2.0, 1.9, 2.1, rules.REFUTED)],
)
def test_similar_reaches_each_verdict(value, low, high, verdict):
    assert decide(Rule("similar"), ratio(value, low, high)).verdict == verdict


def test_equal_compares_the_fact_with_the_claim():
    fact = FactResult("1.0.1", "GCM from 1.0.1", "policy")
    assert decide(Rule("equal", claimed="1.0.1"), fact).verdict == rules.REPRODUCED
    decision = decide(Rule("equal", claimed="1.1"), fact)
    assert decision.verdict == rules.REFUTED
    assert "claimed 1.1, found 1.0.1" in decision.reason


def test_rank_reaches_each_verdict():
    assert decide(Rule("rank", claimed=["a", "b"]), ranked("a", "b", "c")).verdict == rules.REPRODUCED
    assert decide(Rule("rank", claimed=["b"]), ranked("a", "b", overlap=True)).verdict == rules.REPRODUCED
    assert decide(Rule("rank", claimed=["c"]), ranked("a", "b", "c")).verdict == rules.CHANGED
    assert decide(Rule("rank", claimed=["e"]), ranked("a", "b", "c", "d", "e")).verdict == rules.REFUTED
    assert decide(Rule("rank", claimed=["z"]), ranked("a")).verdict == rules.REFUTED


def test_top_set_reaches_each_verdict_by_names_or_pattern():
    six = ranked("a1", "a2", "b1", "b2", "c1", "c2")
    assert decide(Rule("top_set", claimed=["a2", "a1"]), six).verdict == rules.REPRODUCED
    assert decide(Rule("top_set", claimed=["a1", "b1"]), six).verdict == rules.CHANGED
    assert decide(Rule("top_set", claimed=["c1", "c2"]), six).verdict == rules.REFUTED
    assert decide(Rule("top_set", pattern="^c", slowest_first=True), six).verdict == rules.REPRODUCED
    assert decide(Rule("top_set", claimed=["zz"]), six).verdict == rules.REFUTED


def test_share_and_choice_reach_each_verdict():
    assert decide(Rule("share"), ShareResult(5, 5, (), "x")).verdict == rules.REPRODUCED
    assert decide(Rule("share"), ShareResult(3, 5, (), "x")).verdict == rules.CHANGED
    assert decide(Rule("share"), ShareResult(1, 5, (), "x")).verdict == rules.REFUTED
    assert decide(Rule("share"), ShareResult(0, 0, (), "x")).verdict == rules.UNTESTABLE
    assert decide(Rule("choice"), ChoiceResult(True, True, "")).verdict == rules.REPRODUCED
    assert decide(Rule("choice"), ChoiceResult(True, False, "")).verdict == rules.CHANGED
    assert decide(Rule("choice"), ChoiceResult(False, False, "")).verdict == rules.REFUTED


def test_a_measure_that_cannot_decide_gives_not_testable_with_its_reason():
    decision = decide(Rule("factor", claimed=2), Unavailable("no clock frequency"))
    assert (decision.verdict, decision.reason) == (rules.UNTESTABLE, "no clock frequency")


def test_a_result_of_the_wrong_kind_is_a_bug_not_a_verdict():
    with pytest.raises(TypeError):
        decide(Rule("factor", claimed=2), ShareResult(1, 1, (), "x"))


REQUIRED = {
    "seed000-21x-encrypt": "symmetric",
    "seed000-30x-decrypt": "symmetric",
    "seed000-use-openssl": "symmetric",
    "seed000-pkcs7": "symmetric",
    "seed001-heavy-traffic": "symmetric",
    "seed001-aes256-overhead": "symmetric",
    "seed001-first-20": "symmetric",
    "seed001-cfb1-slowest": "symmetric",
    "seed001-test7-ranking": "symmetric",
    "seed002-gcm-3x": "aead",
    "seed002-use-gcm": "aead",
    "seed002-gcm-openssl-11": "aead",
    "seed002-ccm-tag-length": "aead",
    "seed003-prime256v1-optimal": "ec_keygen",
    "seed003-prime-then-brainpool": "ec_keygen",
    "seed003-table-11": "ec_keygen",
    "seed003-p256-rsa3072": "ec_keygen",
    "seed003-argon2d-3x": "argon2",
    "seed003-argon2i-2cpb": "argon2",
    "seed003-threads-12s": "argon2",
    "seed003-16-32mb": "argon2",
    "seed003-console-php": "argon2",
    "seed004-es384-rsa3072": "jwt",
    "seed004-token-sizes": "jwt",
    "seed004-rsa-verify-fast": "jwt",
    "seed004-es256-steady": "jwt",
}


def test_every_claim_the_issue_lists_is_in_the_data_on_its_page():
    claims = {claim.id: claim for claim in load_claims(CLAIMS)}
    assert {claim_id: claims[claim_id].page for claim_id in REQUIRED if claim_id in claims} == REQUIRED


def test_the_test7_claim_is_the_transcribed_list():
    import yaml

    reference = yaml.safe_load((ROOT / "data" / "reference" / "symmetric.yaml").read_text(encoding="utf-8"))
    top10 = [row["cipher"] for row in reference["fastest_2mb_seconds_2015"][:10]]
    claim = next(c for c in load_claims(CLAIMS) if c.id == "seed001-test7-ranking")
    assert claim.rule.claimed == top10


GOOD = """
sources:
  s: {title: T, author: A, published: "2020"}
claims:
  - {id: one, source: s, year: 2020, quote: q, page: aead, measure: aead.gcm_over_ccm, rule: factor, claimed: 3}
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("rule: factor", "rule: bigger"), "claims/one: expected rule in"),
        (("source: s,", "source: x,"), "claims/one: source 'x' is not defined under sources"),
        (("measure: aead.gcm_over_ccm", "measure: gcm_over_ccm"), "claims/one: expected measure as"),
        (("claimed: 3", "claimed: -1"), "claims/one: expected 'claimed' to be a number above 0"),
        (("quote: q", "quote: " + "q" * 200), "claims/one: quote is 200 characters"),
        (("id: one", "id: One Two"), "claims/0: expected an 'id'"),
        (("rule: factor, claimed: 3", "rule: top_set, pattern: '('"), "claims/one: pattern '(' is not valid"),
        (("year: 2020", "year: [1]"), "claims/one: expected 'year' to be text or a year"),
    ],
)
def test_a_malformed_claim_is_one_line_naming_the_file_and_the_claim(tmp_path, change, message):
    path = tmp_path / "claims.yaml"
    path.write_text(GOOD.replace(*change), encoding="utf-8")
    with pytest.raises(DataError) as error:
        load_claims(path)
    assert str(error.value).startswith(f"{path}: {message}")
    assert "\n" not in str(error.value)


def test_an_id_used_twice_is_refused(tmp_path):
    path = tmp_path / "claims.yaml"
    path.write_text(GOOD + GOOD.split("claims:\n")[1], encoding="utf-8")
    with pytest.raises(DataError, match="claims/one: id used twice"):
        load_claims(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("measure: symmetric.engine_ratio", "measure: symmetric.nothing"), "symmetric has no measure 'nothing'"),
        (("{key_bits: 256, operation: encrypt, payload_bytes: 4096}", "{key_bits: x}"), "expected args.key_bits"),
        (("page: symmetric", "page: nowhere"), "no experiment 'nowhere'"),
    ],
)
def test_a_claim_its_experiment_cannot_measure_stops_the_build_with_one_line(tmp_path, change, message):
    root = project_with(tmp_path, FIXTURE_RUN)
    path = root / "data" / "reference" / "claims.yaml"
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(DataError) as error:
        site.build(root)
    assert str(error.value).startswith(f"{path}: claims/seed000-21x-encrypt: ")
    assert message in str(error.value)


def test_every_claim_gets_a_verdict_and_every_page_its_line(tmp_path):
    generated = site.build(project_with(tmp_path, FIXTURE_RUN))
    page = generated.pages["claims.md"]
    for claim_id in REQUIRED:
        assert f'<span id="{claim_id}"></span>' in page
    for experiment_page in generated.experiments:
        if experiment_page.experiment.reference_required is None:
            # No source article (pitfalls): no claims, so no line about them.
            assert "**The articles, checked:**" not in experiment_page.text
            continue
        assert "**The articles, checked:**" in experiment_page.text
        assert "](../claims.md)" in experiment_page.text


def test_quotes_and_notes_from_the_data_are_escaped(tmp_path):
    root = project_with(tmp_path, FIXTURE_RUN)
    path = root / "data" / "reference" / "claims.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('quote: "Use openssl"', 'quote: "<script>x|y</script>"'), encoding="utf-8")
    page = site.build(root).pages["claims.md"]
    assert "<script>" not in page
    assert "&lt;script&gt;x&#124;y&lt;/script&gt;" in page


def test_the_site_keeps_the_claims_file_where_the_page_reads_it():
    assert Path(*site.claims_page.CLAIMS_FILE) == Path("data/reference/claims.yaml")

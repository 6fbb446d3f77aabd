"""The articles, checked: the ledger's data and its checks, the measures every experiment offers, the
run a claim is judged from, and the pages that quote the ledger (the rules' edges are in
test_claim_rules.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from phpcb.claims import judge as judging
from phpcb.claims import measures as claim_measures
from phpcb.claims.ledger import NotTestable, load_claims, load_ledger
from phpcb.claims.results import (
    Args,
    ArgumentError,
    FactResult,
    RatioResult,
    ShareResult,
    Unavailable,
)
from phpcb.claims.vocabulary import FACTOR_TOLERANCE, SIMILAR_TOLERANCE, TOLERANCES, VERDICT_TERMS, VERDICTS
from phpcb.data.loader import Run
from phpcb.data.selection import Choice, SiteConfig
from phpcb.errors import DataError
from phpcb.experiments import registry
from phpcb.pages import build as site
from phpcb.pages import claims_page
from phpcb.statistics.stats import Ratio

from .conftest import FIXTURE_RUN, ROOT, named_run, project_with

CLAIMS = ROOT / "data" / "reference" / "claims.yaml"
LEDGER = load_ledger(CLAIMS)

# The conclusions the issue names, by article, with the page each belongs to.
REQUIRED = {
    "seed000-21x-encrypt": "symmetric",
    "seed000-30x-decrypt": "symmetric",
    "seed000-use-openssl": "symmetric",
    "seed000-pkcs7": "symmetric",
    "seed000-openssl-no-stream-modes": "symmetric",
    "seed000-use-256-bit-keys": "symmetric",
    "seed000-mcrypt-zero-pads": "symmetric",
    "seed000-rijndael-256": "symmetric",
    "seed001-heavy-traffic": "symmetric",
    "seed001-aes256-overhead": "symmetric",
    "seed001-first-20": "symmetric",
    "seed001-cfb1-slowest": "symmetric",
    "seed001-cfb1-broken": "symmetric",
    "seed001-rotating-ciphers": "symmetric",
    "seed001-mcrypt-rand-iv": "symmetric",
    "seed001-key-from-password": "symmetric",
    "seed001-openssl-iv": "symmetric",
    "seed001-test7-ranking": "symmetric",
    "seed002-gcm-3x": "aead",
    "seed002-use-gcm": "aead",
    "seed002-gcm-openssl-11": "aead",
    "seed002-ccm-tag-length": "aead",
    "seed002-gcm-tag-range": "aead",
    "seed002-error-string-empty": "aead",
    "seed002-ccm-ocb": "aead",
    "seed002-ccm-tag-differs": "aead",
    "seed003-prime256v1-optimal": "ec_keygen",
    "seed003-prime-then-brainpool": "ec_keygen",
    "seed003-table-11": "ec_keygen",
    "seed003-p256-rsa3072": "ec_keygen",
    "seed003-larger-key-more-time": "ec_keygen",
    "seed003-brainpool-same-efficiency": "ec_keygen",
    "seed003-table-1-bytes": "ec_keygen",
    "seed003-two-variants": "argon2",
    "seed003-argon2i-in-sodium": "argon2",
    "seed003-argon2d-3x": "argon2",
    "seed003-argon2i-2cpb": "argon2",
    "seed003-threads-12s": "argon2",
    "seed003-16-32mb": "argon2",
    "seed003-console-php": "argon2",
    "seed004-es384-rsa3072": "jwt",
    "seed004-es384-convenient": "jwt",
    "seed004-header-1kb": "jwt",
    "seed004-token-sizes": "jwt",
    "seed004-rsa-verify-fast": "jwt",
    "seed004-es256-steady": "jwt",
    "seed004-verify-any-key": "jwt",
}


def test_every_claim_the_issue_lists_is_in_the_data_on_its_page():
    claims = {claim.id: claim for claim in LEDGER.claims}
    assert {claim_id: claims[claim_id].page for claim_id in REQUIRED if claim_id in claims} == REQUIRED


def test_every_article_has_its_conclusions_and_what_was_left_out():
    per_article = Counter(claim.source.key for claim in LEDGER.claims)
    left_out = Counter(item.source.key for item in LEDGER.left_out)
    assert set(per_article) == set(left_out) == {f"seed00{i}" for i in range(5)}
    assert min(per_article.values()) >= 10
    assert "A conclusion is" in LEDGER.criterion


def test_every_fact_a_claim_names_exists_and_every_fact_is_used():
    named = set()
    for claim in LEDGER.claims:
        for key in ("fact", "unauthenticated"):
            if key in claim.args:
                named.add(claim.args[key])
        named |= {part["fact"] for part in claim.args.get("parts", []) if "fact" in part}
    assert named <= set(LEDGER.facts)
    assert set(LEDGER.facts) <= named, "a fact no claim reads"


def test_the_test7_claim_is_the_transcribed_list():
    reference = yaml.safe_load((ROOT / "data" / "reference" / "symmetric.yaml").read_text(encoding="utf-8"))
    top10 = [row["cipher"] for row in reference["fastest_2mb_seconds_2015"][:10]]
    claim = next(c for c in LEDGER.claims if c.id == "seed001-test7-ranking")
    assert claim.rule.claimed == top10


def test_the_experiment_references_hold_no_claims_of_their_own():
    with_an_article = [e.name for e in registry.discover() if e.reference_required is not None]
    assert with_an_article, "the experiments with a source article"
    for name in with_an_article:
        data = yaml.safe_load((ROOT / "data" / "reference" / f"{name}.yaml").read_text(encoding="utf-8"))
        assert "claims" not in data, f"data/reference/{name}.yaml judges claims outside the ledger"


GOOD = """
criterion: what counts
references:
  r: {title: R, url: "https://example.org/r"}
facts:
  f: {value: true, statement: s, references: [r]}
sources:
  s: {title: T, author: A, published: "2020"}
claims:
  - {id: one, source: s, year: 2020, quote: q, page: aead, measure: aead.gcm_over_ccm, rule: factor, claimed: 3}
left_out:
  - {source: s, quote: q, why: w}
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("rule: factor", "rule: bigger"), "claims/one: expected rule in"),
        (("source: s,", "source: x,"), "claims/one: source 'x' is not defined under sources"),
        (("measure: aead.gcm_over_ccm", "measure: gcm_over_ccm"), "claims/one: expected measure as"),
        (("claimed: 3", "claimed: -1"), "claims/one: expected 'claimed' to be a number above 0"),
        (("claimed: 3", "claimed: 1.01"), "claims/one: a factor of 1.01 claims no difference: use rule similar"),
        (("quote: q, page", "quote: " + "q" * 200 + ", page"), "claims/one: quote is 200 characters"),
        (("id: one", "id: One Two"), "claims/0: expected an 'id'"),
        (("rule: factor, claimed: 3", "rule: top_set, pattern: '('"), "claims/one: pattern '(' is not valid"),
        (("year: 2020", "year: [1]"), "claims/one: expected 'year' to be text or a year"),
        (("claimed: 3}", "claimed: 3, held_then: maybe}"), "claims/one: expected 'held_then' to be true or false"),
        (("references: [r]", "references: [nope]"), "facts/f: expected references defined under references"),
        (('url: "https://example.org/r"', 'url: "http://example.org/r"'), "references/r: expected an https:// url"),
        (("why: w", "because: w"), "left_out/0: expected a 'why' entry"),
        (("criterion: what counts\n", ""), "(top level): expected a 'criterion' entry"),
        (("claimed: 3}", "claimed: 3, band: 2}"), "claims/one: 'band': a claim has its kind's tolerance (factor ×/÷"),
        (("claimed: 3}", "claimed: 3, within: 2}"), "claims/one: 'within': a claim has its kind's tolerance"),
        (
            ("claimed: 3}", "claimed: 3, not_testable: {kind: whim, why: w}}"),
            "claims/one: expected not_testable.kind in ['environment', 'machine', 'preference', 'unmeasurable',",
        ),
        (("claimed: 3}", "claimed: 3, not_testable: {kind: preference}}"), "claims/one/not_testable: expected a 'why'"),
        (("measure: aead.gcm_over_ccm, ", ""), "claims/one: expected a 'measure' entry"),
    ],
)
def test_a_malformed_ledger_is_one_line_naming_the_file_and_the_entry(tmp_path, change, message):
    path = tmp_path / "claims.yaml"
    assert change[0] in GOOD
    path.write_text(GOOD.replace(*change, 1), encoding="utf-8")
    with pytest.raises(DataError) as error:
        load_claims(path)
    assert str(error.value).startswith(f"{path}: {message}")
    assert "\n" not in str(error.value)


def test_a_claim_nothing_can_test_needs_no_measure_and_says_why(tmp_path):
    path = tmp_path / "claims.yaml"
    untested = "measure: aead.gcm_over_ccm, rule: factor, claimed: 3}"
    path.write_text(GOOD.replace(untested, "not_testable: {kind: preference, why: a taste}}"), encoding="utf-8")
    (claim,) = load_claims(path)
    assert (claim.measure, claim.experiment, claim.not_testable) == (None, "aead", NotTestable("preference", "a taste"))
    found = judging.Judge({"aead"}, [], Choice(SiteConfig(path, None, {}), None), decide_only_on_full, path).one(claim)
    assert (found.verdict, found.reason, found.run) == (
        "not testable here",
        "a design preference, not a statement of fact: a taste",
        None,
    )


def test_an_id_used_twice_is_refused(tmp_path):
    path = tmp_path / "claims.yaml"
    claim = GOOD.split("claims:\n")[1].split("left_out:")[0]
    path.write_text(GOOD.replace("left_out:", claim + "left_out:"), encoding="utf-8")
    with pytest.raises(DataError, match="claims/one: id used twice"):
        load_claims(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("measure: symmetric.engine_ratio\n", "measure: symmetric.nothing\n"), "symmetric has no measure 'nothing'"),
        (("{key_bits: 256, operation: encrypt, payload_bytes: 4096}", "{key_bits: x}"), "expected args.key_bits"),
        (("page: symmetric", "page: nowhere"), "no experiment 'nowhere'"),
        (("args: {fact: aes-standard}", "args: {fact: nothing}"), "args.fact names no fact 'nothing'"),
    ],
)
def test_a_claim_its_experiment_cannot_measure_stops_the_build_with_one_line(tmp_path, change, message):
    root = project_with(tmp_path, FIXTURE_RUN)
    path = root / "data" / "reference" / "claims.yaml"
    text = path.read_text(encoding="utf-8")
    first = text.index(change[0])
    claim_id = re.findall(r"- id: (\S+)", text[:first])[-1]
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(DataError) as error:
        site.build(root)
    assert str(error.value).startswith(f"{path}: claims/{claim_id}: ")
    assert message in str(error.value)


# The measures every experiment offers, on a context with or without the runner's observation.
FACTS = {"f": LEDGER.facts["mcrypt-zero-pads"]}


def context(observed: dict[str, Any] | None) -> dict[str, Any]:
    verification: dict[str, Any] = {"tamper_checks": {"x/16B-tag": ["a flipped bit in the tag"]}}
    if observed is not None:
        verification["observed"] = observed
    return {"entry": {"verification": verification}}


def test_an_observation_decides_when_the_run_recorded_it():
    args = Args({"observed": "observed.zero", "label": "zero pads", "fact": "f"}, FACTS)
    found = claim_measures.observed(context({"zero": False}), None, args)
    assert isinstance(found, FactResult)
    assert (found.value, found.source) == (False, "this run's verification"), "the run's value, not the fact's"
    assert found.text.startswith("zero pads: no")


def test_a_run_without_the_observation_falls_back_to_the_documented_fact_and_says_so():
    args = Args({"observed": "observed.zero", "label": "zero pads", "fact": "f"}, FACTS)
    found = claim_measures.observed(context(None), None, args)
    assert isinstance(found, FactResult)
    assert (found.value, found.source) == (True, "documented")
    assert found.text.startswith("this run predates the check (zero pads)")
    missing = claim_measures.observed(context(None), None, Args({"observed": "observed.zero", "label": "z"}, FACTS))
    assert isinstance(missing, Unavailable)


def test_parts_count_what_holds_what_fails_and_what_the_run_did_not_record():
    parts = [
        {"observed": "tamper_checks.x/16B-tag", "contains": "a flipped bit in the tag", "expected": True},
        {"observed": "observed.pads_key", "expected": False},
        {"observed": "observed.never_recorded", "expected": True},
        {"observed": "observed.also_missing", "expected": True, "fact": "f"},
    ]
    for part in parts:
        part.update(holds="holds", fails="fails")
    args = Args({"what": "w", "parts": parts}, FACTS)
    found = claim_measures.parts(context({"pads_key": True}), None, args)
    assert isinstance(found, ShareResult)
    assert (found.matched, found.uncertain, found.total) == (2, 1, 4)
    assert found.details == (
        "holds",
        "fails",
        "not recorded by this run: holds",
        "holds (documented; not recorded by this run)",
    )


def test_a_practice_needs_a_fact_that_says_whether_it_is_sound():
    args = Args({"fact": "f"}, FACTS)
    with pytest.raises(ArgumentError, match="must have a value"):
        claim_measures.practice({}, None, args)


# The run a claim is judged from: the judge knows only a function that measures a claim on a run.
def decide_only_on_full(claim: Any, run: Run) -> Any:
    if run.manifest["profile"] != "full":
        return Unavailable("the 10 MiB payload is full-profile only")
    return RatioResult("A", "B", Ratio(3.0, 2.9, 3.1), "10 MiB", (20, 20))


def described(run: Run) -> Run:
    """A named run with what the ledger prints of its machine."""
    manifest = {
        **run.manifest,
        "cpu": {"model": "CPU"},
        "php": {"version": "8.2.0"},
        "libraries": {"openssl": "OpenSSL 3"},
    }
    return Run.from_rows(run.run_id, manifest, {})


def judge(focus: str | None) -> judging.Checked:
    runs = [
        described(named_run("20260101T0000Z-a-php8.2", "a", "full", "2026-01-01T00:00:00Z")),
        described(named_run("20260102T0000Z-a-php8.2", "a", "quick", "2026-01-02T00:00:00Z")),
    ]
    choice = Choice(SiteConfig(Path("site.yaml"), "a", {}), focus)
    claim = next(c for c in LEDGER.claims if c.id == "seed002-gcm-3x")
    claim = type(claim)(**{**claim.__dict__, "measure": "speed"})
    return judging.Judge({"aead"}, runs, choice, decide_only_on_full, CLAIMS).one(claim)


def test_a_claim_the_focus_run_cannot_decide_is_judged_from_the_reference_run_which_is_named():
    checked = judge("20260102T0000Z-a-php8.2")
    assert checked.verdict == "reproduced"
    assert checked.run is not None
    assert checked.run.run_id == "20260101T0000Z-a-php8.2"
    assert checked.instead.startswith("decided by 20260101T0000Z-a-php8.2 (the newest full-profile run")
    assert "the run this page shows cannot (the 10 MiB payload is full-profile only)" in checked.instead


def test_without_a_focus_the_reference_run_decides_and_nothing_is_said():
    checked = judge(None)
    assert (checked.verdict, checked.instead) == ("reproduced", "")


# The pages built from the fixture run.
@pytest.fixture(scope="module")
def built(tmp_path_factory) -> site.GeneratedSite:
    return site.build(project_with(tmp_path_factory.mktemp("claims"), FIXTURE_RUN))


def test_every_claim_gets_a_verdict_and_every_page_lists_its_own(built):
    page = built.pages["claims.md"]
    for claim in LEDGER.claims:
        assert f'<span id="{claim.id}"></span>' in page
    for experiment_page in built.experiments:
        mine = [claim for claim in LEDGER.claims if claim.page == experiment_page.experiment.name]
        if not mine:
            assert "**The articles, checked:**" not in experiment_page.text
            continue
        assert "**The articles, checked:**" in experiment_page.text
        for claim in mine:
            assert f"](../claims.md#{claim.id})" in experiment_page.text, f"{claim.id} missing from its page"


def test_the_tally_counts_every_claim_and_names_only_known_verdicts(built):
    tally = re.search(r"\*\*(\d+) claims: ([^*]+)\.\*\*", built.pages["claims.md"])
    assert tally is not None
    assert int(tally[1]) == len(LEDGER.claims)
    counts = dict((verdict, int(n)) for n, verdict in re.findall(r"(\d+) ([a-z ]+?)(?:,|$)", tally[2]))
    assert set(counts) <= set(VERDICTS)
    assert sum(counts.values()) == len(LEDGER.claims)


def test_the_ledger_page_states_its_criterion_and_what_it_left_out(built):
    page = built.pages["claims.md"]
    assert "**What counts as a conclusion.** A conclusion is" in page
    for item in LEDGER.left_out[:3]:
        assert item.why.split(" ")[0] in page
    assert page.count("Left out of this article, and why") == 5


@pytest.mark.parametrize(
    ("claim_id", "page"),
    [("seed000-30x-decrypt", "experiments/symmetric.md"), ("seed002-gcm-3x", "experiments/aead.md")],
)
def test_one_claim_one_number_on_the_home_page_the_experiment_page_and_the_ledger(built, claim_id, page):
    ledger_row = next(line for line in built.pages["claims.md"].splitlines() if f'id="{claim_id}"' in line)
    measured = ledger_row.split(" | ")[2]
    number = re.search(r"[\d.]+× \(95% CI [^)]*\)", measured)
    assert number is not None
    assert f"claims.md#{claim_id}" in built.pages["index.md"], "the home page quotes the ledger"
    assert number[0] in built.pages["index.md"]
    then_now = built.pages[page].split("## Then vs now")[1]
    assert number[0] in then_now


def test_no_claim_is_printed_with_precision_the_article_did_not_publish(built):
    assert "3.00×" not in built.pages["index.md"]
    assert '"3x"' in built.pages["index.md"]
    assert '"30x"' in built.pages["index.md"]


def test_the_mcrypt_page_no_longer_calls_mcrypt_rand_the_right_way(built):
    symmetric = built.pages["experiments/symmetric.md"]
    assert "drew a random IV, the right way" not in symmetric
    assert "MCRYPT_RAND" in symmetric


def test_quotes_and_notes_from_the_data_are_escaped(tmp_path):
    root = project_with(tmp_path, FIXTURE_RUN)
    path = root / "data" / "reference" / "claims.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace('quote: "Use openssl"', 'quote: "<script>x|y</script>"')
    path.write_text(text.replace('published: "3x"', 'published: "3x <b>*|*</b>"'), encoding="utf-8")
    built = site.build(root)
    for page in (built.pages["claims.md"], built.pages["experiments/symmetric.md"]):
        assert "<script>" not in page
        assert "&lt;script&gt;x&#124;y&lt;/script&gt;" in page
    for page in (built.pages["index.md"], built.pages["experiments/aead.md"]):
        assert "<b>" not in page
        assert '"3x &lt;b&gt;&#42;&#124;&#42;&lt;/b&gt;"' in page


def test_the_methodology_states_every_verdict_and_rule():
    section = (ROOT / "docs" / "methodology.md").read_text(encoding="utf-8").split("## The articles, checked")[1]
    for verdict in VERDICTS:
        assert verdict in section
    for rule in ("factor", "faster", "similar", "equal", "rank", "top_set", "share", "choice"):
        assert f"| `{rule}` |" in section
    assert "fewer than 6 samples" in section
    assert "1/1.02 … 1.02" in section
    for tolerance in TOLERANCES:  # the prose states the code's tolerances, not numbers of its own
        assert f"within ×/÷ {tolerance.factor:g}" in section
    assert f"N ÷ {FACTOR_TOLERANCE.factor:g} … N × {FACTOR_TOLERANCE.factor:g}" in section
    assert f"1 ÷ {SIMILAR_TOLERANCE.factor:g} … {SIMILAR_TOLERANCE.factor:g}" in section
    for kind in ("environment", "design preference", "attribution"):
        assert kind in section


def test_the_site_keeps_the_claims_file_where_the_page_reads_it():
    assert Path(*claims_page.CLAIMS_FILE) == Path("data/reference/claims.yaml")


def test_a_ratio_of_two_families_averages_matches_the_averages_and_brackets_them():
    import numpy as np

    from phpcb.statistics.stats import mean_of_medians, ratio_of_mean_medians

    rng = np.random.default_rng(1)
    a = [rng.normal(10.0 + i, 0.5, 30) for i in range(3)]
    b = [rng.normal(5.0 + i, 0.5, 30) for i in range(2)]
    weights_a, weights_b = [1.0, 0.5, 0.25], [1.0, 1.0]
    found = ratio_of_mean_medians(a, weights_a, b, weights_b)
    expected = mean_of_medians(a, weights_a).value / mean_of_medians(b, weights_b).value
    assert found.value == pytest.approx(expected)
    assert found.low < found.value < found.high
    constant = ratio_of_mean_medians([np.full(6, 4.0)], [1.0], [np.full(6, 2.0)], [1.0])
    assert (constant.value, constant.low, constant.high) == (2.0, 2.0, 2.0)
    with pytest.raises(ValueError, match="one weight per group"):
        ratio_of_mean_medians(a, [1.0], b, weights_b)


def test_each_article_names_the_run_and_machine_that_judged_its_claims_once_above_its_table(built):
    page = built.pages["claims.md"]
    sections = page.split("\n## ")[1:]
    assert len(sections) == len({c.source.key for c in LEDGER.claims})
    for section in sections:
        table = [line for line in section.splitlines() if line.startswith("| ")]
        assert table[0] == "| claim | page | what we measured | verdict |"
        rows = [line for line in table[2:] if "<span id=" in line]
        assert rows
        assert not [row for row in rows if FIXTURE_RUN.name in row], "the run is named above the table, once"
        above = section.split("\n| claim |")[0]
        assert above.count(f"[`{FIXTURE_RUN.name}`](runs.md#") == 1
        assert "on intel-xeon-unknown-2c-2e892e, Debian 12 · PHP 8.2.36" in above, "and its machine, by its name"


def test_a_claim_judged_from_another_run_than_its_pages_keeps_that_run_in_its_row():
    shown = judge("20260102T0000Z-a-php8.2")
    assert shown.instead
    used = judging.runs_used([shown])
    assert [(u.run.run_id, u.pages, u.instead) for u in used] == [("20260101T0000Z-a-php8.2", (("aead", 1),), True)]
    plain = judge(None)
    assert [(u.run.run_id, u.instead) for u in judging.runs_used([plain, shown])] == [
        ("20260101T0000Z-a-php8.2", False),
        ("20260101T0000Z-a-php8.2", True),
    ]


def test_the_claims_page_takes_its_vocabulary_from_the_code(built):
    """Declared once (claims/vocabulary.py): the page prints each verdict and tolerance from the code, and
    the template names none of them."""
    page = built.pages["claims.md"]
    template = (ROOT / "templates" / "claims.md.j2").read_text(encoding="utf-8")
    for term in VERDICT_TERMS:
        assert f"- **{term.name}**: {term.meaning}." in page
        assert term.name not in template
        assert term.meaning not in template
    for tolerance in TOLERANCES:
        assert f"within ×/÷ {tolerance.factor:g} of the claim's own number" in page.replace("&#39;", "'")
        assert str(tolerance.factor) not in template


def test_the_aead_modes_found_include_those_openssl_lists_as_authenticated():
    """Issue 37: OCB (and SIV), which openssl_get_cipher_methods() lists, were missing from the modes found."""
    from phpcb.experiments.aead import measures as aead_measures

    inventory = [
        {"cipher": "aes-128-ocb", "status": "aead_needs_tag"},
        {"cipher": "aes-256-gcm", "status": "aead_needs_tag"},
        {"cipher": "chacha20-poly1305", "status": "aead_needs_tag"},
        {"cipher": "aes-128-cbc", "status": "ok"},
    ]
    run = Run.from_rows("r", {"run_id": "r"}, {"cipher_inventory.csv": inventory})
    vectors = [{"algorithm": "openssl aes-*-gcm", "passed": 3}, {"algorithm": "openssl chacha20-poly1305", "passed": 2}]
    found = aead_measures.openssl_aead_modes(
        {"entry": {"verification": {"vectors": vectors}}, "run": run}, None, Args({})
    )
    assert isinstance(found, FactResult)
    assert found.value == ["chacha20-poly1305", "gcm", "ocb"]
    assert found.text.endswith("not checked against vectors: ocb")
    assert found.source == "this run's verification and cipher inventory"


# Hiragana, katakana, CJK ideographs and their punctuation: boxes where no CJK font is installed.
CJK = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")


def test_no_page_prints_characters_a_reader_without_a_cjk_font_sees_as_boxes(built):
    """Issue 37: seed 004's Japanese title rendered as boxes; it is printed romanised, with its translation."""
    for name, text in built.pages.items():
        assert not CJK.search(text), f"{name}: {CJK.findall(text)[:5]}"
    jwt = built.pages["experiments/jwt.md"]
    assert "PHP de JWT o tsukau sai no, kīpea sakusei to shori jikan ni tsuite" in jwt
    assert CJK.search(LEDGER.claims[0].source.title) is None
    assert CJK.search(yaml.safe_load(CLAIMS.read_text(encoding="utf-8"))["sources"]["seed004"]["title_original"])

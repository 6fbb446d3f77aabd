"""The verdicts issues 37 and 46 rechecked, as a referee reads them: each claim judged by the real ledger
and rules on the committed runs (the run its page shows, or a `make report` quick run), with what the old
rule got wrong asserted against. The rules' edges are in test_claim_rules.py.

Issue 46's rules: a claim is judged where the article reads (its payload, its table's rows), with the
quantity it names, by the intervals its page prints (across runs where the machine's spread is known);
a qualitative claim the data confirms is reproduced; a claim true when written and outdated now has
changed."""

from __future__ import annotations

import re
from functools import cache

import pytest

from phpcb.claims.judge import Checked, Judge
from phpcb.claims.ledger import load_ledger
from phpcb.claims.vocabulary import CHANGED, FACTOR_TOLERANCE, INCONCLUSIVE, REFUTED, REPRODUCED, UNTESTABLE
from phpcb.data import selection
from phpcb.data.policy import load_symmetric_policy
from phpcb.data.selection import Choice, SiteConfig
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts, Project
from phpcb.experiments.jwt.analysis import JwtAnalysis
from phpcb.pages import claims_page
from phpcb.presentation.render import BETWEEN_RUNS
from phpcb.statistics.stats import ratio_between

from .conftest import ROOT, committed_runs

CLAIMS = ROOT / "data" / "reference" / "claims.yaml"
LEDGER = load_ledger(CLAIMS)
QUICK_RUN = "20261125T1525Z-amd-epyc-fb7fc6-php8.2"  # a quick run, as `make report` shows its own
OLD_STACK_FULL_RUN = "20261125T0812Z-intel-xeon-fb7fc6-php8.2"  # PHP 8.2 + OpenSSL 3.0, the full grids


CONTEXTS = Contexts(Project(ROOT))
EXPERIMENTS = {e.name: e for e in registry.discover()}


@cache
def judge(focus: str | None = None) -> Judge:
    measure = claims_page.measurer(EXPERIMENTS, CONTEXTS, LEDGER, CLAIMS)
    choice = Choice(SiteConfig.load(ROOT / "data" / "site.yaml"), focus)
    return Judge(set(EXPERIMENTS), list(committed_runs()), choice, measure, CLAIMS)


def checked(claim_id: str, focus: str | None = None) -> Checked:
    return judge(focus).one(next(c for c in LEDGER.claims if c.id == claim_id))


def payloads(text: str) -> list[int]:
    units = {"B": 1, "KiB": 1024, "MiB": 1024**2}
    return [int(n) * units[unit] for n, unit in re.findall(r"(\d+) (B|KiB|MiB):", text)]


@pytest.mark.parametrize("focus", [None, QUICK_RUN, OLD_STACK_FULL_RUN])
def test_gcm_3x_is_judged_where_the_article_read_it_at_10_mib(focus):
    """Issue 46: the article timed one 10 MB encryption per mode; issue 37 judged the "3x" at 16 KiB and
    512 KiB instead ("changed", 9.5× and 19×, on OpenSSL 3.5 only). Judged at 10 MiB, on every run."""
    found = checked("seed002-gcm-3x", focus)
    assert payloads(found.measured) == [10 * 1024**2], found.measured
    assert "16 KiB" not in found.measured
    assert "512 KiB" not in found.measured


def test_gcm_3x_on_the_reference_run_is_inconclusive_by_the_sites_own_band():
    """OpenSSL 3.5 at 10 MiB: about 2.5× with a CI across runs and boots of its stack's model (2.42–2.65× from
    9 quiet runs, 2.41–2.66× from 11), reaching across 3 ÷ 1.15 = 2.61. The CI's edges move a little with each
    refit of the model, so the test reads them from the printed words and checks the verdict they imply."""
    found = checked("seed002-gcm-3x")
    assert found.run is not None
    assert found.run.run_id.endswith("-debian13")
    assert found.verdict == INCONCLUSIVE, found.reason
    printed = re.search(
        r"AES-256, encrypt, 10 MiB: aes-256-gcm over aes-256-ccm, [\d.]+× \(95% CI ([\d.]+)–([\d.]+)×\)",
        found.measured,
    )
    assert printed is not None, found.measured
    low, high = (float(edge) for edge in printed.groups())
    assert low < 3 / FACTOR_TOLERANCE.factor < high, found.measured
    assert found.reason.endswith("reaches across its edge")


def test_gcm_3x_on_openssl_3_0_is_below_the_claim_at_10_mib():
    found = checked("seed002-gcm-3x", OLD_STACK_FULL_RUN)
    assert found.verdict == CHANGED, found.reason
    assert "2.24×" in found.measured
    assert "wholly below" in found.reason


def test_brainpool_is_compared_curve_against_curve_at_equal_strength():
    """Old: one group average per key bit (1.09–1.13×), "reproduced"; the page prints P-256 about 2×
    faster than brainpoolP256r1 at the same 128-bit strength."""
    found = checked("seed003-brainpool-same-efficiency")
    assert "prime256v1 over brainpoolP256r1" in found.measured
    assert "secp521r1 over brainpoolP512r1" in found.measured
    assert "average" not in found.measured
    assert found.verdict == REFUTED, found.reason


@pytest.mark.parametrize("claim_id", ["seed000-key-length", "seed001-aes256-overhead"])
def test_aes_key_length_holds_at_short_strings_and_not_at_long_ones_so_it_has_changed(claim_id):
    """Issue 37: one case at 4 KiB against a ×1.25 band (1.24×: inconclusive, 1.21×: reproduced). Issue 46:
    refuted on 2 conditions of 6 though 3 hold (1.00-1.06×): a claim true at some of its conditions and
    not at others has changed; none calls AES-128's 1.27× at 4 KiB negligible."""
    found = checked(claim_id)
    assert len(payloads(found.measured)) == 6, "both ways at its three string sizes"
    assert found.verdict == CHANGED, found.reason
    assert "reproduced (inside)" in found.reason
    assert "refuted (wholly above)" in found.reason


def test_30x_is_not_reproduced_by_a_ratio_its_own_tolerance_excludes_in_part():
    """Old: 35.4× (95% CI 34.4–36.1×) lay inside 30 ×/÷ 1.5 (20–45×), as 25× would have lain inside
    both 21x's and 30x's bands."""
    assert checked("seed000-30x-decrypt").verdict in (INCONCLUSIVE, CHANGED)
    assert checked("seed000-21x-encrypt").verdict != REPRODUCED


@pytest.mark.parametrize(
    ("claim_id", "kind"),
    [
        ("seed001-cfb1-broken", "an observation of an environment that cannot be re-run"),
        ("seed003-p256-p384", "an attribution to a source that could not be found"),
        ("seed004-header-1kb", "a design preference, not a statement of fact"),
        ("seed004-sessions", "a design preference, not a statement of fact"),
    ],
)
def test_what_no_run_can_decide_is_not_testable_with_its_kind(claim_id, kind):
    """Old: OpenSSL 0.9.8y's 2013 behaviour "refuted", the PHP Group's unsourced suggestion "reproduced",
    a header budget "refuted"."""
    found = checked(claim_id)
    assert found.verdict == UNTESTABLE
    assert found.reason.startswith(f"{kind}: ")


@pytest.mark.parametrize("focus", [None, OLD_STACK_FULL_RUN])
@pytest.mark.parametrize(("claim_id", "threads"), [("seed003-four-threads-half", 4), ("seed003-threads-12s", 8)])
def test_argon2_thread_claims_are_not_testable_for_want_of_cores_not_of_samples(claim_id, threads, focus):
    """The reference run does not measure argon2i at p=4 and p=8 (the full grid is Argon2id's): its two
    cores, not the missing cells, are why; where the cells were measured, they stay beside it."""
    found = checked(claim_id, focus)
    assert found.verdict == UNTESTABLE
    assert "too few samples" not in found.reason
    assert "not both measured" not in found.reason
    assert f"this machine has 2 cores: p={threads} lanes cannot run at once" in found.reason
    if focus is not None:
        assert f"p={threads} over p=1" in found.measured, "what was measured stays beside it"


@pytest.mark.parametrize(
    "claim_id", ["seed001-fastest-families", "seed003-argon2d-3x", "seed003-time-grows-with-memory"]
)
def test_a_claim_the_reference_run_does_not_measure_is_decided_by_the_newest_run_that_does(claim_id):
    """The full profile now spends its time on Argon2id's grid and one inventory size: a claim on a cell it
    left out is judged on the newest full run that has it, and says so."""
    found = checked(claim_id)
    assert found.verdict != UNTESTABLE, found.reason
    assert found.run is not None
    assert found.run.manifest["profile"] == "full"
    assert found.instead.startswith(f"decided by {found.run.run_id} (the newest run that measures it")


@pytest.mark.parametrize(
    ("claim_id", "reason"),
    [
        ("seed001-blowfish-cfb8", "8-bit cfb"),
        ("seed001-salt-as-key", "pads it to AES-256's 32 bytes with zero bytes"),
        ("seed003-argon2i-one-pass", "Argon2i at one or two passes"),
    ],
)
def test_the_three_missing_conclusions_are_judged(claim_id, reason):
    found = checked(claim_id)
    assert found.verdict == REFUTED
    assert reason in found.measured


@pytest.mark.parametrize("claim_id", ["seed003-console-php", "seed004-es256-steady"])
def test_a_difference_within_a_tenth_is_still_no_difference_worth_naming(claim_id):
    assert checked(claim_id).verdict == REPRODUCED


def test_nearly_30x_is_judged_at_every_row_of_its_table_and_has_changed():
    """Issue 46: "refuted" (3 of 18 rows inside 30 ×/÷ 1.15) though OpenSSL is 12.7-44× faster in all 18."""
    found = checked("seed000-routinely-30x")
    assert found.verdict == CHANGED, found.reason
    assert "at each of 18 conditions (3 reproduced, 15 changed)" in found.reason
    assert "other way" not in found.reason, "faster in every row"
    assert "refuted" not in found.reason
    assert found.measured.count("OpenSSL over mcrypt") == 18
    assert found.figure == "nearly 30x"


def test_use_openssl_is_judged_as_the_engine_it_names_and_never_calls_cbc_sound():
    """Issue 46: unauthenticated AES-256-CBC was "changed: sound" in this row and ruled out in the next."""
    engine, mode = checked("seed000-use-openssl"), checked("seed000-cbc-pkcs7")
    assert engine.verdict == REPRODUCED, engine.reason
    assert mode.verdict == REFUTED
    assert "sound" not in engine.reason
    assert "aes-256-cbc, is ruled out (its next claim, refuted)" in engine.measured
    assert "this site advises OpenSSL (or sodium) with an AEAD, aes-256-gcm (recommended)" in engine.measured


def test_no_claim_calls_an_unauthenticated_construction_sound_nor_allows_one():
    """No choice's verdict says "sound"; a claim whose words do say it names no cipher the policy rates as
    unauthenticated; and a choice this site allows or advises names one only to say it is ruled out."""
    policy = load_symmetric_policy(ROOT / "data" / "policy" / "symmetric.yaml")
    # OpenSSL's cipher names, as the measures print them (aes-256-cbc, bf-cfb), not a mode in prose (AES-CBC).
    cipher = re.compile(r"\b(?:(?:aes|aria|camellia)-\d{3}|bf|des|des-ede3|sm4|seed|cast5|idea|rc2)-[a-z0-9]+\b")
    for claim in LEDGER.claims:
        found = checked(claim.id)
        text = f"{found.reason} {found.measured}"
        unauthenticated = [n for n in cipher.findall(text) if policy.verdict(n).notes[0].startswith("Unauthenticated")]
        if claim.rule.kind == "choice":
            assert "sound" not in found.reason, (claim.id, found.reason)
        if "sound" in text:
            assert unauthenticated == [], (claim.id, text)
        if claim.rule.kind == "choice" and found.verdict in (REPRODUCED, CHANGED):
            for name in unauthenticated:
                assert f"{name}, is ruled out" in found.measured, (claim.id, name)


def test_the_brainpool_ranking_reads_the_order_the_curves_page_states_across_runs():
    """Issue 46: "refuted" on within-run ranks (brainpool sixth) while the curves page says families do not
    differ across runs: judged from the page's order, never from ranks within one run. The reference run is
    PHP 8.4's, widened by its own stack's model (9 quiet quick runs from 2 boots; until 2026-11-29 PHP 8.2's
    model stood in, and its wider spread separated no neighbours): the page puts c2tnb and prime first, and
    brainpool somewhere in 3rd to 6th, so brainpool is certainly not second: changed, one place off at least."""
    found = checked("seed003-prime-then-brainpool")
    assert found.run is not None
    experiment = EXPERIMENTS["ec_keygen"]
    groups = CONTEXTS.context(experiment, found.run)["analysis"].paper_family_groups
    stated = " < ".join(" ≈ ".join(group) for group in groups)
    assert f"; the page's order: {stated}" in found.reason
    assert [sorted(group) for group in groups] == [["c2tnb", "prime"], ["brainpool", "c2pnb", "secp", "sect"]]
    assert "prime 1.–2." in found.reason
    assert "brainpool 3.–6." in found.reason
    assert found.verdict == CHANGED, found.reason


def test_a_table_whose_bracket_is_a_tie_is_undecided():
    """Its table 11, true when written. The reference run (PHP 8.4 + OpenSSL 3.5): 2 of its 5 brackets' best
    curves are still this site's, 3 are not, c2tnb191v3 now certainly ahead of prime192v1-3. PHP 8.2's full run:
    160–223 bits is a tie (c2tnb191v2 with prime192v1-3, CIs overlapping), undecided, beside 1 that holds."""
    found = checked("seed003-table-11")
    assert found.verdict == CHANGED, found.reason
    assert found.reason.startswith("2 of 5 hold;")
    assert "160–223: c2tnb191v3, not prime192v1/prime192v2/prime192v3" in found.measured
    old = checked("seed003-table-11", OLD_STACK_FULL_RUN)
    assert old.reason.startswith("1 of 5 hold, 1 undecided"), old.reason
    assert "160–223: c2tnb191v2, tied with prime192v1/prime192v2/prime192v3" in old.measured
    assert old.verdict == CHANGED, "at most 2 of 5 whatever the tie: below half either way"
    assert found.claim.rule.held_then


@pytest.mark.parametrize(
    ("claim_id", "verdict"),
    [
        ("seed001-fastest-families", CHANGED),  # its TEST 7: RC4 first, AES-OFB/CFB among its ten fastest
        ("seed001-test7-ranking", CHANGED),  # its own table
        ("seed001-first-20", REFUTED),  # 0.03 s against 0.07 s in its own table: not negligible then either
    ],
)
def test_true_when_written_and_outdated_now_is_changed_and_only_that(claim_id, verdict):
    found = checked(claim_id)
    assert found.verdict == verdict, found.reason
    assert found.reason.endswith("; it held when the article was written") == (verdict == CHANGED)
    assert found.claim.rule.held_then == (verdict == CHANGED)


def test_the_cfb1_ciphers_are_the_slowest_as_the_article_says():
    """The 10 slowest of 116 are CFB1; the 11th CFB1 is 12th, behind 3DES in CFB8: confirmed, reproduced."""
    found = checked("seed001-cfb1-slowest")
    assert found.verdict == REPRODUCED, found.reason
    assert found.reason.startswith("10 of the 11 claimed are certainly among the 11 slowest")
    assert found.reason.endswith("; not among them: aes-128-cfb1 (12.)")


def test_a_ratio_a_measure_makes_itself_carries_the_spread_its_page_prints():
    """One CI basis: RS256 over ES256 is computed by the JWT measure, not by the analysis the contexts
    widen; it is widened by the same spread between runs of the machine."""
    found = checked("seed004-rsa-verify-fast")
    assert found.run is not None
    context = CONTEXTS.context(EXPERIMENTS["jwt"], found.run)
    spread = context[BETWEEN_RUNS]
    assert spread.known, "the reference machine has a noise model"
    analysis: JwtAnalysis = context["analysis"]
    cases = [analysis.find(alg).case("verify", 100) for alg in ("RS256", "ES256")]  # type: ignore[union-attr]
    within = ratio_between(cases[1].per_op_ns, cases[0].per_op_ns, analysis.pairing.together(cases[1], cases[0]))
    shown = spread.widen_ratio(within)
    assert shown.high - shown.low > within.high - within.low
    assert f"{shown.value:.3g}" in found.measured
    assert f"{shown.low:.3g}–{shown.high:.3g}" in found.measured or f"{shown.low:.4g}–{shown.high:.4g}" in (
        found.measured
    )


def test_every_claim_is_judged_from_the_run_its_page_shows_unless_it_says_why():
    for claim in LEDGER.claims:
        found = checked(claim.id)
        if found.run is None or found.instead:
            continue
        shown = selection.shown(list(committed_runs()), claim.experiment, judge().choice.config, None)
        assert shown is not None, claim.id
        assert shown.run is found.run, claim.id

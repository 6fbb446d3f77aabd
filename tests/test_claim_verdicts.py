"""The verdicts issue 37 rechecked, as a referee reads them: each claim judged by the real ledger and
rules on the committed runs (the run its page shows, or a `make report` quick run), with what the old
rule got wrong asserted against. The rules' edges are in test_claim_rules.py."""

from __future__ import annotations

import re
from functools import cache

import pytest

from phpcb.claims.judge import Checked, Judge
from phpcb.claims.ledger import load_ledger
from phpcb.claims.vocabulary import CHANGED, INCONCLUSIVE, REFUTED, REPRODUCED, UNTESTABLE
from phpcb.data.selection import Choice, SiteConfig
from phpcb.experiments import registry
from phpcb.experiments.aead.analysis import HEAP_PAYLOAD_LIMIT
from phpcb.experiments.contexts import Contexts, Project
from phpcb.pages import claims_page

from .conftest import ROOT, committed_runs

CLAIMS = ROOT / "data" / "reference" / "claims.yaml"
LEDGER = load_ledger(CLAIMS)
QUICK_RUN = "20261125T1525Z-amd-epyc-fb7fc6-php8.2"  # a quick run, as `make report` shows its own
OLD_STACK_FULL_RUN = "20261125T0812Z-intel-xeon-fb7fc6-php8.2"  # PHP 8.2 + OpenSSL 3.0, the full grids


@cache
def judge(focus: str | None = None) -> Judge:
    experiments = {e.name: e for e in registry.discover()}
    measure = claims_page.measurer(experiments, Contexts(Project(ROOT)), LEDGER, CLAIMS)
    choice = Choice(SiteConfig.load(ROOT / "data" / "site.yaml"), focus)
    return Judge(set(experiments), list(committed_runs()), choice, measure, CLAIMS)


def checked(claim_id: str, focus: str | None = None) -> Checked:
    return judge(focus).one(next(c for c in LEDGER.claims if c.id == claim_id))


def payloads(text: str) -> list[int]:
    units = {"B": 1, "KiB": 1024, "MiB": 1024**2}
    return [int(n) * units[unit] for n, unit in re.findall(r"(\d+) (B|KiB|MiB):", text)]


@pytest.mark.parametrize("focus", [None, QUICK_RUN])
def test_gcm_3x_is_judged_at_the_sizes_the_aead_page_reads_not_at_10_mib(focus):
    """Old: judged at 10 MiB, whose time page faults dominate ("changed" there); the page reads 16 KiB
    up to 512 KiB, where its output comes from PHP's heap."""
    found = checked("seed002-gcm-3x", focus)
    judged = payloads(found.measured)
    assert judged, found.measured
    assert 16 * 1024 in judged
    assert all(p <= HEAP_PAYLOAD_LIMIT for p in judged), found.measured
    assert "10 MiB" not in found.measured
    if focus == QUICK_RUN:  # the quick runs measure 512 KiB; the full reference run predates it
        assert judged == [16 * 1024, HEAP_PAYLOAD_LIMIT]


def test_gcm_3x_on_openssl_3_0_reads_as_its_page_did():
    """At 16 KiB, the size the AEAD page's answer quotes: 3.42× (95% CI 3.34–3.45×), inside 3 ×/÷ 1.15."""
    found = checked("seed002-gcm-3x", OLD_STACK_FULL_RUN)
    assert found.verdict == REPRODUCED, found.reason
    assert "AES-256, encrypt, 16 KiB: aes-256-gcm over aes-256-ccm, 3.42×" in found.measured


def test_gcm_3x_on_the_reference_run_is_changed_by_openssl_3_5s_faster_gcm():
    """The page shows Debian 13's stack: OpenSSL 3.5's GCM is about 9.5× CCM at 16 KiB, wholly above 3 ×/÷ 1.15."""
    found = checked("seed002-gcm-3x")
    assert found.run is not None
    assert found.run.run_id.endswith("-debian13")
    assert found.verdict == CHANGED, found.reason
    assert "wholly above" in found.reason


def test_brainpool_is_compared_curve_against_curve_at_equal_strength():
    """Old: one group average per key bit (1.09–1.13×), "reproduced"; the page prints P-256 about 2×
    faster than brainpoolP256r1 at the same 128-bit strength."""
    found = checked("seed003-brainpool-same-efficiency")
    assert "prime256v1 over brainpoolP256r1" in found.measured
    assert "secp521r1 over brainpoolP512r1" in found.measured
    assert "average" not in found.measured
    assert found.verdict == REFUTED, found.reason


@pytest.mark.parametrize("claim_id", ["seed000-key-length", "seed001-aes256-overhead"])
def test_aes_key_length_is_not_called_negligible_where_aes_128_is_a_fifth_faster(claim_id):
    """Old: one case at 4 KiB against a ×1.25 band (1.24×: inconclusive, 1.21×: reproduced)."""
    found = checked(claim_id)
    assert len(payloads(found.measured)) == 6, "both ways at its three string sizes"
    assert found.verdict == REFUTED, found.reason


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

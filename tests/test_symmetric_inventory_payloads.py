"""The quick profile times the bit-serial CFB1 ciphers at 25 KiB, the rest of the race at 200 KiB (issue 48):
what the analysis, the claims' measures and the page make of a run whose inventory has two payloads."""

import pytest

from phpcb.claims.results import Args, RankResult, RatioResult, Unavailable
from phpcb.data.reference import load_reference
from phpcb.experiments.experiment import Inputs
from phpcb.experiments.symmetric import analysis, measures, page
from phpcb.presentation.render import environment

from .conftest import ROOT
from .test_symmetric_analysis import POLICY, inventory, rows, run_with

REFERENCE = load_reference(ROOT / "data" / "reference" / "symmetric.yaml", ("sources",))
INPUTS = Inputs(POLICY, REFERENCE)
RACE, SMALL = 204800, 25600


def quick_run():
    """rc4 (0.5 ms), aes-128-cfb (1 ms) and des-ede3-cbc (20 ms) at 200 KiB; the CFB1 ciphers at 25 KiB,
    16 ms (128 ms per 200 KiB) for AES and 32 ms for Triple DES: AES-CFB1's round trip is shorter than
    des-ede3-cbc's, but it is the slower per byte."""
    samples = (
        rows("inventory", "openssl", "rc4", "stream", 128, "roundtrip", RACE, 500_000, 1)
        + rows("inventory", "openssl", "aes-128-cfb", "cfb", 128, "roundtrip", RACE, 1_000_000, 2)
        + rows("inventory", "openssl", "des-ede3-cbc", "cbc", 192, "roundtrip", RACE, 20_000_000, 5)
        + rows("inventory", "openssl", "aes-128-cfb1", "cfb1", 128, "roundtrip", SMALL, 16_000_000, 3)
        + rows("inventory", "openssl", "des-ede3-cfb1", "cfb1", 192, "roundtrip", SMALL, 32_000_000, 4)
    )
    listed = inventory(
        ("rc4", "ok"), ("aes-128-cfb", "ok"), ("des-ede3-cbc", "ok"), ("aes-128-cfb1", "ok"), ("des-ede3-cfb1", "ok")
    )
    return analysis.analyse(run_with(samples, listed), POLICY)


def test_a_cipher_timed_at_another_payload_keeps_its_row_and_says_so():
    result = quick_run()
    by_name = {row.cipher: row for row in result.inventory}
    assert by_name["aes-128-cfb1"].case is not None
    assert by_name["aes-128-cfb1"].case.key.payload_bytes == SMALL
    assert by_name["aes-128-cfb1"].timed_elsewhere
    assert not by_name["aes-128-cfb"].timed_elsewhere
    assert by_name["aes-128-cfb1"].case.mb_per_s == pytest.approx(2 * SMALL / 16_000_000 * 1e3, rel=0.02)


def test_the_race_is_ranked_by_time_per_byte_across_payloads():
    assert [row.cipher for row in quick_run().ranking] == [
        "rc4",
        "aes-128-cfb",
        "des-ede3-cbc",
        "aes-128-cfb1",
        "des-ede3-cfb1",
    ]


def test_cfb1_against_its_sibling_timed_at_another_payload_compares_time_per_byte():
    (comparison,) = quick_run().cfb1
    assert comparison.subject.key.cipher == "aes-128-cfb"
    assert comparison.baseline.key.payload_bytes == SMALL
    assert comparison.ratio.value == pytest.approx(128, rel=0.03)
    assert comparison.ratio.significant


def context(result):
    return {"analysis": result, "entry": None}


def test_the_ranking_measure_scales_a_stand_in_to_the_race_payload_and_names_it():
    ranked = measures.ranking(context(quick_run()), INPUTS, Args({"payload_bytes": RACE}))
    assert isinstance(ranked, RankResult)
    assert [item.name for item in ranked.items] == [
        "rc4",
        "aes-128-cfb",
        "des-ede3-cbc",
        "aes-128-cfb1",
        "des-ede3-cfb1",
    ]
    values = {item.name: item.value for item in ranked.items}
    assert values["aes-128-cfb"] == pytest.approx(1.0, rel=0.02), "timed at 200 KiB: its own ms"
    assert values["aes-128-cfb1"] == pytest.approx(128.0, rel=0.02), "16 ms per 25 KiB is 128 ms per 200 KiB"
    assert all(item.low <= item.value <= item.high for item in ranked.items)
    assert ranked.unit == " ms"
    assert "timed at 25 KiB and scaled by their time per byte: aes-128-cfb1, des-ede3-cfb1" in ranked.what


def test_a_race_that_was_not_run_stays_unavailable_whatever_was_timed_at_other_payloads():
    result = quick_run()
    assert isinstance(measures.ranking(context(result), INPUTS, Args({"payload_bytes": 2097152})), Unavailable)
    spread = measures.spread(context(result), INPUTS, Args({"payload_bytes": 2097152, "place": 2}))
    assert isinstance(spread, Unavailable)


def test_the_spread_to_a_stand_in_is_by_time_per_byte():
    spread = measures.spread(context(quick_run()), INPUTS, Args({"payload_bytes": RACE, "place": 4}))
    assert isinstance(spread, RatioResult)
    assert (spread.subject, spread.baseline) == ("rc4", "aes-128-cfb1")
    assert spread.ratio.value == pytest.approx(256, rel=0.03)


def test_the_page_prints_the_payload_beside_a_row_timed_at_another():
    rows_shown = {row.cipher: row for row in page.context(quick_run(), REFERENCE, POLICY)["inventory_sorted"]}
    assert rows_shown["aes-128-cfb1"].detail == "throughput timed at 25 KiB, not 200 KiB"
    assert rows_shown["aes-128-cfb"].detail == "", "a row timed at the race's payload is as the run says"


def test_the_payload_note_follows_the_inventorys_own_detail():
    samples = rows("inventory", "openssl", "aes-128-cfb1", "cfb1", 128, "roundtrip", SMALL, 16_000_000, 3)
    listed = [{"cipher": "aes-128-cfb1", "provider": "default", "status": "ok", "detail": "round trip | ok"}]
    (row,) = page.context(analysis.analyse(run_with(samples, listed), POLICY), REFERENCE, POLICY)["inventory_sorted"]
    assert row.detail == "round trip | ok; throughput timed at 25 KiB, not 200 KiB"


def method_payloads_bullet(context: dict[str, object], run: analysis.SymmetricAnalysis) -> str:
    """The Method section's payloads bullet of templates/symmetric.md.j2, rendered with $context (the
    page's) and $run (the site adds the analysis to it)."""
    source = (ROOT / "templates" / "symmetric.md.j2").read_text(encoding="utf-8")
    bullet = source[source.index("- Payloads:") : source.index("- Statistics as on every page")]
    return " ".join(environment(ROOT / "templates").from_string(bullet).render(**context, analysis=run).split())


def test_the_method_names_the_payload_the_cfb1_ciphers_were_timed_at_when_it_is_not_the_races():
    quick_analysis = quick_run()
    quick = page.context(quick_analysis, REFERENCE, POLICY)
    assert quick["elsewhere_payloads"] == [SMALL]
    assert method_payloads_bullet(quick, quick_analysis).endswith(
        "encrypt + decrypt of 200 KiB; this run timed the bit-serial CFB1 ciphers (the block cipher once per bit: "
        "their 200 KiB round trips were most of the quick profile's least work) at 25 KiB, and their rows say so: "
        "the race compares them per byte."
    )
    samples = rows("inventory", "openssl", "aes-128-cfb1", "cfb1", 128, "roundtrip", RACE, 128_000_000, 3)
    full_analysis = analysis.analyse(run_with(samples, inventory(("aes-128-cfb1", "ok"))), POLICY)
    full = page.context(full_analysis, REFERENCE, POLICY)
    assert full["elsewhere_payloads"] == []
    assert method_payloads_bullet(full, full_analysis).endswith("encrypt + decrypt of 200 KiB.")

"""On how many machines × stacks an answer holds (presentation/holds.py, issue 45 item 5): the count, the
range and its ends, and what the values follow where the data shows it, from small hand-made pairs; and on
the built home page, every ratio and pick the answers print says on how many pairs it holds."""

from __future__ import annotations

import json
import math
import re
import shutil

import pytest

from phpcb.data.machines import Machine
from phpcb.pages import build as site
from phpcb.presentation import holds
from phpcb.presentation.headlines import SECONDS, TIMES, Headline
from phpcb.presentation.render import markdown_text

from .conftest import FIXTURE_RUN, FIXTURE_RUNS, on_another_machine, project_with, write_manifest

FAST = ("aes", "vaes", "pclmulqdq", "vpclmulqdq", "avx2", "avx512f", "sha_ni")
NO_VAES = ("aes", "pclmulqdq", "avx2", "avx512f")
NEITHER = ("aes", "pclmulqdq", "avx2")


def ratio(value: float, low: float | None = None, high: float | None = None, question: str = "GCM over CCM (times)"):
    low = value * 0.97 if low is None else low
    high = value * 1.03 if high is None else high
    return Headline("key", question, TIMES, value, low, high)


def pair(machine: str, openssl: str, headline: Headline, features: tuple[str, ...] = FAST) -> holds.Pair:
    php = "8.4" if openssl == "3.5" else "8.2"
    return holds.Pair(machine, f"PHP {php} + OpenSSL {openssl}", openssl, features, headline)


def test_a_ratio_holds_where_it_goes_the_same_way_measurably():
    reference = pair("zen5", "3.5", ratio(19.0))
    others = [
        pair("zen5", "3.0", ratio(4.84)),
        pair("xeon-a", "3.0", ratio(1.01, 0.99, 1.03)),  # within the noise: no measurable difference
        pair("xeon-b", "3.0", ratio(0.5)),  # the other way
    ]
    found = holds.across(reference, others)
    assert found.kind == holds.RATIO
    assert [p.machine for p in found.holding] == ["zen5", "zen5"]
    text = str(holds.sentence(found))
    assert text.startswith("GCM over CCM: holds on 2 of 4 machine × stack pairs (a measurable difference the same way)")
    assert "0.50× (xeon-b · PHP 8.2 + OpenSSL 3.0) to 19.0× (zen5 · PHP 8.4 + OpenSSL 3.5)" in text
    assert "It does not on xeon-a · PHP 8.2 + OpenSSL 3.0 (1.01×, no measurable difference), " in text
    assert "xeon-b · PHP 8.2 + OpenSSL 3.0 (0.50×, the other way)." in text


def test_no_measurable_difference_holds_where_there_is_none_either():
    reference = pair("a", "3.0", ratio(1.0, 0.99, 1.01))
    found = holds.across(reference, [pair("b", "3.0", ratio(1.005, 0.99, 1.02)), pair("c", "3.0", ratio(1.5))])
    assert [p.machine for p in found.holding] == ["a", "b"]
    text = str(holds.sentence(found))
    assert "holds on 2 of 3 machine × stack pairs (no measurable difference)" in text
    assert "It does not on c · PHP 8.2 + OpenSSL 3.0 (1.50×, a measurable difference)." in text


def test_a_ratio_without_a_ci_holds_nowhere_but_a_pair_without_a_value_is_left_out():
    reference = pair("a", "3.0", ratio(3.0))
    unbounded = pair("b", "3.0", ratio(3.0, math.nan, math.nan))
    missing = pair("c", "3.0", ratio(math.nan, math.nan, math.nan))
    found = holds.across(reference, [unbounded, missing])
    assert [p.machine for p in found.pairs] == ["a", "b"]
    assert [p.machine for p in found.holding] == ["a"]


def test_the_reference_machine_and_stack_counts_once():
    reference = pair("a", "3.0", ratio(3.0))
    found = holds.across(reference, [pair("a", "3.0", ratio(9.0)), pair("b", "3.0", ratio(2.0))])
    assert len(found.pairs) == 2
    assert "holds on 2 of 2 machine × stack pairs" in str(holds.sentence(found))


def test_a_ratio_measured_nowhere_else_says_so():
    text = str(holds.sentence(holds.across(pair("a", "3.5", ratio(2.0)), [])))
    assert text == "GCM over CCM: holds on 1 of 1 machine × stack pair, the only one that has measured it."


def test_the_values_split_by_openssl_where_its_levels_are_apart():
    """The PEM-vs-object pitfall of the committed runs: 2.4× with OpenSSL 3.5, 17–23× with 3.0."""
    reference = pair("zen5", "3.5", ratio(2.38, 2.34, 2.42))
    others = [
        pair("zen5", "3.0", ratio(17.3, 16.9, 17.6)),
        pair("epyc", "3.0", ratio(22.6, 15.5, 26.8)),
        pair("xeon", "3.0", ratio(23.1, 21.8, 23.8)),
    ]
    found = holds.across(reference, others)
    assert [s.by for s in found.splits] == ["the OpenSSL version"]
    assert [level.words for level in found.splits[0].levels] == ["with OpenSSL 3.0", "with OpenSSL 3.5"]
    assert str(holds.sentence(found)).endswith(
        " Its values split by the OpenSSL version: 17.3–23.1× with OpenSSL 3.0; 2.38× with OpenSSL 3.5."
    )


def test_both_factors_together_where_each_is_apart_and_so_are_their_levels_together():
    """GCM over CCM at 512 KiB on the committed runs: the issue's '19× with OpenSSL 3.5 on AVX-512'."""
    reference = pair("zen5", "3.5", ratio(19.0, 18.3, 19.8))
    others = [
        pair("zen5", "3.0", ratio(4.84, 4.58, 5.12)),
        pair("epyc", "3.0", ratio(4.31, 4.00, 4.46)),
        pair("xeon-a", "3.0", ratio(3.42, 3.34, 3.45)),
        pair("xeon-b", "3.0", ratio(1.51, 1.50, 1.53), NO_VAES),
    ]
    found = holds.across(reference, others)
    assert [s.by for s in found.splits] == ["the OpenSSL version and AVX-512F/VAES"]
    text = str(holds.sentence(found))
    assert text.startswith("GCM over CCM: holds on 5 of 5 machine × stack pairs")
    assert "1.51× (xeon-b · PHP 8.2 + OpenSSL 3.0) to 19.0× (zen5 · PHP 8.4 + OpenSSL 3.5)" in text
    assert text.endswith(
        "Its values split by the OpenSSL version and AVX-512F/VAES: 19.0× with OpenSSL 3.5 on AVX-512F + VAES; "
        "3.42–4.84× with OpenSSL 3.0 on AVX-512F + VAES; 1.51× with OpenSSL 3.0 on AVX-512F without VAES."
    )


def test_a_factor_whose_levels_overlap_is_not_named():
    """Features set the values apart; OpenSSL does not (each OpenSSL level spans both feature levels): only
    the features are named, never their joint levels, which would credit OpenSSL with a 4 % difference."""
    reference = pair("a", "3.5", ratio(5.0, 4.95, 5.05))
    others = [
        pair("b", "3.0", ratio(4.8, 4.75, 4.85)),
        pair("c", "3.0", ratio(1.5, 1.45, 1.55), NEITHER),
        pair("d", "3.5", ratio(1.6, 1.58, 1.62), NEITHER),
    ]
    found = holds.across(reference, others)
    assert [s.by for s in found.splits] == ["AVX-512F/VAES"]
    assert "4.80–5.00× on AVX-512F + VAES; 1.50–1.60× without AVX-512F or VAES." in str(holds.sentence(found))


def test_levels_apart_by_value_but_not_by_ci_are_not_named():
    reference = pair("a", "3.5", ratio(5.0, 3.0, 7.0))
    found = holds.across(reference, [pair("b", "3.0", ratio(4.0, 3.5, 4.5)), pair("c", "3.0", ratio(3.8))])
    assert found.splits == ()
    assert "split" not in str(holds.sentence(found))


def test_one_level_only_is_no_split():
    found = holds.across(pair("a", "3.0", ratio(5.0)), [pair("b", "3.0", ratio(2.0))])
    assert found.splits == ()


def pick(choice: str, value: float = 100e6) -> Headline:
    return Headline("argon2.budget", "Strongest parameters within 250 ms", SECONDS, value, value, value, 7, choice)


SIGN = "ML-DSA-65 over ES256, sign, 100-character token (times faster)"


def test_a_speedup_below_one_is_worded_as_times_slower_and_keeps_its_range():
    """The home page printed "ML-DSA-65 over ES256, sign: holds on 2 of 2 ...: 0.02× (zen5 ...; zen4 ...)"
    beside an answer saying "44× slower than ES256": two decimals of a small fraction made 43.9× and 47.2×
    slower one value, and the range the line summarises was hidden."""
    reference = pair("zen5", "3.5", ratio(1 / 43.9, question=SIGN))
    found = holds.across(reference, [pair("zen4", "3.5", ratio(1 / 47.2, question=SIGN))])
    text = str(holds.sentence(found))
    assert text.startswith("ML-DSA-65 over ES256, sign, 100-character token: holds on 2 of 2")
    assert "47.2× slower (zen4 · PHP 8.4 + OpenSSL 3.5) to 43.9× slower (zen5 · PHP 8.4 + OpenSSL 3.5)." in text
    assert "0.02×" not in text


def test_a_speedup_words_each_end_faster_or_slower_and_a_ratio_of_another_unit_stays_a_ratio():
    question = "aes-256-gcm over aes-256-ccm, encrypt at 512 KiB (times faster)"
    reference = pair("zen5", "3.5", ratio(19.0, question=question))
    others = [pair("xeon", "3.0", ratio(1.51, question=question)), pair("old", "3.0", ratio(0.8, question=question))]
    text = str(holds.sentence(holds.across(reference, others)))
    assert "1.25× slower (old · PHP 8.2 + OpenSSL 3.0) to 19.0× faster (zen5 · PHP 8.4 + OpenSSL 3.5)." in text
    assert "It does not on old · PHP 8.2 + OpenSSL 3.0 (1.25× slower, the other way)." in text
    assert holds.value_text(ratio(0.5, question=question), 0.0) == "0.00×", "no times slower to say of 0"
    pitfall = "PEM string per call: slow way over fast way (times)"
    assert holds.value_text(ratio(0.8, question=pitfall), 0.8) == "0.80×"


@pytest.mark.parametrize(
    ("low", "high", "words"),
    [
        (1.51, 19.0, "1.51–19.0× faster"),
        (1 / 47.2, 1 / 43.9, "43.9–47.2× slower"),
        (0.8, 2.0, "1.25× slower to 2.00× faster"),
        (0.0, 0.5, "0.00× to 2.00× slower"),
    ],
)
def test_a_split_level_of_speedups_reads_as_a_range_of_times_faster_or_slower(low, high, words):
    assert holds.range_text(ratio(1.0, question=SIGN), low, high) == words


def test_speedups_that_split_by_openssl_say_each_levels_range_in_times_slower():
    reference = pair("zen5", "3.5", ratio(1 / 10, question=SIGN))
    others = [pair(m, "3.0", ratio(1 / v, question=SIGN)) for m, v in (("zen5", 40), ("epyc", 45), ("xeon", 42))]
    assert str(holds.sentence(holds.across(reference, others))).endswith(
        " Its values split by the OpenSSL version: 10.0× slower with OpenSSL 3.5; 40.0–45.0× slower with OpenSSL 3.0."
    )


def test_a_pick_holds_where_it_is_the_same_and_names_the_others():
    reference = pair("zen5", "3.5", pick("m=128 MiB, t=3, p=2"))
    others = [
        pair("zen5", "3.0", pick("m=64 MiB, t=4, p=1")),
        pair("epyc", "3.0", pick("m=64 MiB, t=4, p=1")),
        pair("xeon-a", "3.0", pick("m=128 MiB, t=3, p=2")),
        pair("xeon-b", "3.0", pick("m=64 MiB, t=3, p=2"), NO_VAES),
    ]
    found = holds.across(reference, others)
    assert found.kind == holds.PICK
    assert found.splits == (), "OpenSSL 3.0 and AVX-512F + VAES each hold two picks"
    assert str(holds.sentence(found)) == (
        "Strongest parameters within 250 ms: “m=128 MiB, t=3, p=2” holds on 2 of 5 machine × stack pairs; "
        "elsewhere “m=64 MiB, t=4, p=1” (epyc · PHP 8.2 + OpenSSL 3.0; zen5 · PHP 8.2 + OpenSSL 3.0), "
        "“m=64 MiB, t=3, p=2” (xeon-b · PHP 8.2 + OpenSSL 3.0)."
    )


def test_a_pick_that_follows_a_factor_says_so():
    reference = pair("zen5", "3.5", pick("Ed25519"))
    others = [pair("xeon-a", "3.0", pick("Ed25519")), pair("xeon-b", "3.0", pick("ES256"), NO_VAES)]
    text = str(holds.sentence(holds.across(reference, others)))
    assert ": “Ed25519” holds on 2 of 3 machine × stack pairs; elsewhere “ES256” (xeon-b" in text
    assert text.endswith(
        " The pick splits by AVX-512F/VAES: “Ed25519” on AVX-512F + VAES; “ES256” on AVX-512F without VAES."
    )


def test_a_long_list_of_pairs_is_cut_short():
    reference = pair("ref", "3.0", pick("A"))
    others = [pair(f"m{i}", "3.0", pick("B")) for i in range(5)]
    assert "(m0 · PHP 8.2 + OpenSSL 3.0; m1 · PHP 8.2 + OpenSSL 3.0; m2 · PHP 8.2 + OpenSSL 3.0; and 2 more)" in str(
        holds.sentence(holds.across(reference, others))
    )


def time(value: float) -> Headline:
    return Headline("ec_keygen.keygen.Ed25519", "Ed25519 key generation", SECONDS, value, value * 0.9, value * 1.1, 20)


def test_an_absolute_number_gives_the_range_on_the_other_pairs():
    reference = pair("zen5", "3.5", time(11_800))
    others = [pair("zen5", "3.0", time(12_300)), pair("xeon", "3.0", time(22_300)), pair("epyc", "3.0", time(16_200))]
    found = holds.across(reference, others)
    assert found.kind == holds.NUMBER
    assert found.splits == ()
    assert str(holds.sentence(found)) == (
        "Ed25519 key generation: on the other 3 machine × stack pairs, 12.3 µs (zen5 · PHP 8.2 + OpenSSL 3.0) "
        "to 22.3 µs (xeon · PHP 8.2 + OpenSSL 3.0)."
    )
    one = holds.across(reference, others[:1])
    assert str(holds.sentence(one)) == (
        "Ed25519 key generation: on the other machine × stack, 12.3 µs (zen5 · PHP 8.2 + OpenSSL 3.0)."
    )
    alone = holds.across(reference, [])
    assert str(holds.sentence(alone)) == "Ed25519 key generation: measured on no other machine × stack."


def test_everything_from_data_is_escaped():
    evil = "*x*[a](javascript:alert(1))<b>"
    reference = holds.Pair(evil, "PHP 8.4 + OpenSSL 3.5", "3.5", FAST, Headline("k", evil, TIMES, 2, 1, 3, None, evil))
    other = holds.Pair("m", "PHP 8.2 + OpenSSL 3.0", "3.0", FAST, Headline("k", evil, TIMES, 2, 1, 3, None, "B"))
    text = str(holds.sentence(holds.across(reference, [other])))
    for raw in ("*x*", "[a]", "<b>"):
        assert raw not in text
    assert "&#42;x&#42;&#91;a&#93;(javascript:alert(1))&lt;b&gt;" in text


def test_a_pair_reads_its_machine_and_stack_from_the_manifest():
    manifest = json.loads((FIXTURE_RUN / "manifest.json").read_text(encoding="utf-8"))
    found = holds.Pair.of(manifest, ratio(2.0))
    machine = Machine.of(manifest)
    assert (found.machine, found.features) == (machine.name, machine.identity.features)
    assert found.stack == "PHP 8.2 + OpenSSL 3.0"
    assert found.openssl == "3.0"


# The built home page: every answer's ratios and picks say on how many pairs they hold, as many as the
# Machines page has rows for the question. Three runs: the fixtures' two machines, and a Zen 3 (no AVX-512,
# no VAES) with the PHP 8.2 fixture's measurements.
HOLDS = re.compile(r"holds on (\d+) of (\d+) machine × stack pairs?")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> site.GeneratedSite:
    root = project_with(tmp_path_factory.mktemp("holds"), *FIXTURE_RUNS)
    other = root / "data" / "runs" / "20260102T0000Z-zen3-php8.2"
    shutil.copytree(FIXTURE_RUN, other)
    manifest = json.loads((other / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(run_id=other.name, started_utc="2026-01-02T00:00:00Z")
    on_another_machine(manifest)
    write_manifest(other, manifest)
    return site.build(root)


def rows_on_the_machines_page(page: str, question: str) -> int:
    section = page.split(f"\n## {question}\n", 1)[1].split("\n## ", 1)[0]
    return sum(1 for line in section.splitlines() if line.startswith("| ") and "[`" in line)


def test_every_ratio_and_pick_on_the_home_page_says_on_how_many_pairs_it_holds(built):
    home, machines = built.pages["index.md"], built.pages["machines.md"]
    checked = 0
    for page in built.experiments:
        answer = page.answer
        assert answer is not None, f"{page.experiment.name}: the fixture runs answer every experiment"
        # The box right after the answer's card, before the next card.
        card = home.split(f'pcb-answer-{answer.experiment} "', 1)[1].split("\n!!! success", 1)[0]
        card = card.split(f'!!! info pcb-across pcb-across-{answer.experiment} "Across machines"', 1)[1]
        own = {h.key: h for h in page.experiment.headlines(page.context)}
        printed = [own[key] for key in answer.headlines if key in own]
        assert printed, f"{answer.experiment}: the answer prints at least one headline"
        for headline in printed:
            subject = str(markdown_text(holds.subject(headline.question)))
            if holds.kind_of(headline) == holds.NUMBER:
                assert re.search(re.escape(subject) + ": (on the other|measured on no other) machine", card), (
                    f"{answer.experiment}: no range on the other machines for {headline.key}"
                )
                continue
            pick = f"“{markdown_text(headline.choice)}” " if headline.choice is not None else ""
            found = re.search(re.escape(f"{subject}: {pick}") + HOLDS.pattern, card)
            assert found is not None, f"{answer.experiment}: no 'holds on N of M' for {headline.key}"
            held, measured = int(found.group(1)), int(found.group(2))
            assert 1 <= held <= measured == rows_on_the_machines_page(machines, headline.question)
            checked += 1
        for line in answer.holds:
            assert f"\n    - {line}\n" in card
            assert f"\n    - {line}\n" in page.text, "the experiment page says the same, beside its answer"
    assert checked >= len(built.experiments)


# What wording.margin and the answers print for a ratio: a measured one, or none measurable.
RATIO_WORDS = re.compile(r"\d× (?:faster|slower) than |no measurable difference from ")


def test_every_ratio_an_answer_prints_is_a_headline_set_against_the_other_machines(built):
    """The JWT answer printed Ed25519's margin over ES256 (1.15×) with no headline behind it, so no line
    said on how many machines it holds (1.15-1.67×, split by OpenSSL). Each "N× faster/slower than" or "no
    measurable difference from" of an answer's number is one ratio headline the answer declares it prints."""
    for page in built.experiments:
        answer = page.answer
        assert answer is not None
        own = {h.key: h for h in page.experiment.headlines(page.context)}
        ratios = [key for key in answer.headlines if key in own and holds.kind_of(own[key]) == holds.RATIO]
        said = len(RATIO_WORDS.findall(str(answer.number)))
        assert said <= len(ratios), f"{answer.experiment}: {said} ratios printed, {len(ratios)} set against others"


def test_more_than_three_pairs_where_a_ratio_does_not_hold_are_counted_not_named():
    reference = pair("ref", "3.0", ratio(19.0))
    others = [pair(f"m{i}", "3.0", ratio(0.5)) for i in range(4)]
    text = str(holds.sentence(holds.across(reference, others)))
    assert text.endswith(
        "It does not on m0 · PHP 8.2 + OpenSSL 3.0 (0.50×, the other way), m1 · PHP 8.2 + OpenSSL 3.0 (0.50×, the "
        "other way), m2 · PHP 8.2 + OpenSSL 3.0 (0.50×, the other way) and 1 more."
    )
    three = str(holds.sentence(holds.across(reference, others[:3])))
    assert three.endswith("m2 · PHP 8.2 + OpenSSL 3.0 (0.50×, the other way).")


def test_an_absolute_number_on_two_other_pairs_counts_them():
    reference = pair("zen5", "3.5", time(11_800))
    others = [pair("zen5", "3.0", time(12_300)), pair("xeon", "3.0", time(22_300))]
    assert str(holds.sentence(holds.across(reference, others))).startswith(
        "Ed25519 key generation: on the other 2 machine × stack pairs, 12.3 µs"
    )


def test_picks_found_on_as_many_pairs_each_are_listed_by_their_name():
    reference = pair("ref", "3.0", pick("M"))
    others = [pair("a", "3.0", pick("Z")), pair("z", "3.0", pick("A"))]
    assert str(holds.sentence(holds.across(reference, others))).endswith(
        "elsewhere “A” (z · PHP 8.2 + OpenSSL 3.0), “Z” (a · PHP 8.2 + OpenSSL 3.0)."
    )


def test_picks_apart_by_each_factor_and_by_both_are_one_split_by_both():
    reference = pair("zen5", "3.5", pick("Ed25519"))
    others = [pair("xeon", "3.0", pick("ES256"), NO_VAES)]
    (split,) = holds.across(reference, others).splits
    assert split.by == "the OpenSSL version and AVX-512F/VAES"
    assert [level.choices for level in split.levels] == [{"ES256"}, {"Ed25519"}], "as many pairs each: by their words"


def test_levels_whose_intervals_touch_are_not_apart():
    reference = pair("zen5", "3.5", ratio(3.0, 2.0, 4.0))
    others = [pair("xeon", "3.0", ratio(1.5, 1.2, 2.0))]
    assert holds.across(reference, others).splits == ()


@pytest.mark.parametrize(
    ("value", "words"),
    [(1.5, "1.50× faster"), (1.0, "1.00×"), (0.5, "2.00× slower")],
)
def test_a_speedup_between_one_and_two_is_faster_and_one_is_neither(value, words):
    assert holds.value_text(ratio(1.0, question=SIGN), value) == words


@pytest.mark.parametrize(
    ("low", "high", "words"),
    [
        (1.0, 2.0, "1.00–2.00× faster"),
        (0.5, 1.0, "2.00× slower to 1.00×"),
        (0.8, 1.5, "1.25× slower to 1.50× faster"),
    ],
)
def test_a_range_of_speedups_that_starts_or_ends_at_one(low, high, words):
    assert holds.range_text(ratio(1.0, question=SIGN), low, high) == words

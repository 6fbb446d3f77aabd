import re

import pytest

from phpcb.presentation import formatting, wording
from phpcb.statistics.stats import Ratio


def test_a_significant_speedup_is_stated_with_its_ci():
    assert wording.speedup("GCM", "CCM", Ratio(3.1, 2.9, 3.3)) == "GCM is 3.1× faster than CCM (95% CI 2.9–3.3×)"


def test_a_slower_subject_is_turned_around():
    assert wording.speedup("GCM", "CCM", Ratio(0.5, 0.4, 0.625)) == "CCM is 2.0× faster than GCM (95% CI 1.6–2.5×)"


def test_no_claim_without_significance():
    text = wording.speedup("GCM", "CCM", Ratio(1.01, 0.97, 1.05))
    assert text == "no measurable difference between GCM and CCM (ratio 1.01, 95% CI 0.97–1.05)"


def test_a_margin_cell_names_only_the_runner_up():
    assert wording.margin("P-384", Ratio(2.4, 2.3, 4.4)) == "2.4× faster than P-384 (95% CI 2.3–4.4×)"
    assert wording.margin("P-384", Ratio(0.5, 0.4, 0.625)) == "2.0× slower than P-384 (95% CI 1.6–2.5×)"
    assert wording.margin("P-384", Ratio(1.01, 0.97, 1.05)) == "no measurable difference from P-384"


@pytest.mark.parametrize(
    ("n_bytes", "text"),
    [(16, "16 B"), (1024, "1 KiB"), (16384, "16 KiB"), (10485760, "10 MiB"), (1000, "1000 B"), (1536, "1536 B")],
)
def test_sizes(n_bytes, text):
    assert formatting.size(n_bytes) == text


def test_rates_and_durations():
    assert formatting.rate(1638.4) == "1,638 MB/s"
    assert formatting.rate(15.94) == "15.9 MB/s"
    assert formatting.rate(1.234) == "1.23 MB/s"
    assert formatting.duration(10_000) == "10 µs"
    assert formatting.duration(1_500_000) == "1.5 ms"
    assert formatting.duration(999) == "999 ns"
    assert formatting.percent(0.8531) == "85.3 %"
    assert formatting.memory(24684096 * 1024) == "23.5 GiB"


def test_a_ratio_is_rounded_to_what_its_ci_supports():
    wide = Ratio(1464.4, 802.8, 4784.1)
    assert wording.speedup("OpenSSL", "mcrypt", wide) == "OpenSSL is ≈ 1,500× faster than mcrypt (95% CI 800–4,800×)"
    assert wording.speedup("A", "B", Ratio(18.73, 18.51, 18.94)) == "A is 18.7× faster than B (95% CI 18.5–18.9×)"
    assert wording.estimate(1.0213, 1.0201, 1.0225) == "1.021× (95% CI 1.020–1.022×)"
    assert wording.estimate(2.0, 2.0, 2.0) == "2.000× (95% CI 2.000–2.000×)", "a zero-width CI keeps 4 digits"
    assert wording.interval(802.8, 4784.1) == "95% CI 800–4,800×"


def test_an_interval_gets_the_digits_that_tell_its_ends_apart():
    assert formatting.duration_interval(1298, 1302, 1300) == "1.298 µs – 1.302 µs", "not 1.3 µs – 1.3 µs"
    assert formatting.duration_interval(12_710, 13_000, 12_700) == "12.71 µs – 13.00 µs", "one precision at both ends"
    assert formatting.duration_interval(987, 1_060, 1_030) == "987 ns – 1.06 µs"
    assert formatting.rate_interval(0.0431, 0.0437, 0.0434) == "0.0431 – 0.0437 MB/s", "not 0.04 – 0.04 MB/s"
    assert formatting.value_ci(0.1648, 0.1645, 0.1672, " %") == "0.1648 % (0.1645–0.1672 %)"
    assert formatting.value_ci(101.2, 98.8, 104.1, " %") == "101 % (98.8–104 %)", "no bare trailing point"
    assert formatting.value_ci(1782.4, 1738.4, 1826.3, " MB/s") == "1,782 MB/s (1,738–1,826 MB/s)", "no 1.78e+03"


def test_an_interval_narrower_than_five_digits_is_said_as_a_share():
    assert formatting.duration_interval(1_299.99, 1_300.01, 1_300) == "1.3 µs ±<0.1 %"
    assert formatting.rate_interval(100.0001, 100.0002, 100.00015) == "±<0.1 %"


def test_a_spread_is_written_with_plus_minus_only_when_its_two_sides_are_nearly_equal():
    """The issue's "687 ms ±133 %" was a CI of 331 ms – 1.6 s: its wider side passed for both."""
    assert formatting.spread(100, 97, 103) == "±3.0 %"
    assert formatting.spread(100, 97.6, 102.5) == "±2.5 %", "the wider side, where the two are within a fifth"
    assert formatting.spread(100, 98.1, 102.5) == "−1.9 % / +2.5 %", "more than a fifth apart"
    assert formatting.spread(100, 99.99, 100.01) == "±<0.1 %"
    assert formatting.spread(100, 99, 103) == "−1.0 % / +3.0 %"
    assert formatting.spread(1.0, 0.5, 1.2) == "−50 % / +20 %"
    assert formatting.spread(687, 331, 1600) == "−52 % / +133 %"
    assert formatting.spread(100, float("-inf"), float("inf")) == "CI unbounded (n < 6)"


def test_a_time_or_rate_with_an_asymmetric_ci_is_written_as_its_two_ends():
    from phpcb.statistics.stats import Summary

    def summary(median: float, low: float, high: float) -> Summary:
        return Summary(n=20, median_ns=median, ci_low_ns=low, ci_high_ns=high, q1_ns=low, q3_ns=high, min_ns=low, cv=0)

    assert formatting.time_spread(summary(687e6, 331e6, 1.6e9)) == "687 ms (331 ms – 1.6 s)"
    assert formatting.time_spread(summary(1_000, 990, 1_010)) == "1 µs ±1.0 %"
    assert formatting.rate_spread(100.0, (80.0, 130.0)) == "100 MB/s (80.0 – 130 MB/s)"
    assert formatting.rate_spread(100.0, (99.0, 101.0)) == "100 MB/s ±1.0 %"


def test_a_headline_over_many_cases_states_its_range_and_which_case_gives_each_end():
    low, high = Ratio(6.21, 6.12, 6.27), Ratio(53.9, 53.0, 54.1)
    assert wording.span("OpenSSL", "mcrypt", "36 cases", (low, "A"), (high, "B")) == (
        "Over the 36 cases, OpenSSL is 6.21× (A) to 53.9× faster (B) than mcrypt"
    )
    mixed = wording.span("GCM", "CCM", "20 cases", (Ratio(0.86, 0.85, 0.87), "16 B"), (high, "1 MiB"))
    assert mixed == "Over the 20 cases, GCM ranges from 1.16× slower (16 B) to 53.9× faster (1 MiB) compared with CCM"
    none = wording.span("A", "B", "4 cases", (Ratio(1.0, 0.99, 1.01), "x"), (Ratio(1.01, 0.99, 1.02), "y"))
    assert none == "Over the 4 cases, no case shows a measurable difference between A and B"


def test_a_share_of_native_speed_with_its_interval():
    from phpcb.presentation.wording import overhead, share
    from phpcb.statistics.stats import Ratio

    assert share(Ratio(0.873, 0.841, 0.902)) == "87.3 % (95% CI 84.1 %–90.2 %)"
    assert share(Ratio(0.9, 0.5, 1.7)) == "90 % (95% CI 50 %–170 %)"
    assert share(Ratio(0.9, 0.0, float("inf"))) == "90.0 % (no CI: too few rounds)"
    assert overhead(Ratio(1.042, 1.021, 1.063)) == "+4.2 % (95% CI +2.1 to +6.3 %)"
    assert overhead(Ratio(0.95, 0.9, 0.999)) == "−5.0 % (95% CI −10.0 to −0.1 %)"


def test_a_share_whose_ci_crosses_zero_or_lies_above_100_percent_is_a_model_that_does_not_fit():
    """The issue's "514.4 % (-1108.7 % – 790.6 %)" and "220 % (95% CI 121 %–398 %)"."""
    from phpcb.presentation.wording import share
    from phpcb.statistics.stats import Ratio

    assert share(Ratio(5.144, -11.087, 7.906)) == "the model does not fit: its 95% CI reaches below zero"
    assert share(Ratio(2.2, 1.21, 3.98)) == (
        "the model does not fit: its whole 95% CI lies above 100 % (a ratio of 2.2× (95% CI 1.2–4.0×))"
    )
    assert share(Ratio(1.07, 0.96, 1.21)) == "107 % (95% CI 96 %–121 %)", "a CI reaching 100 % still fits"


def test_a_signed_duration():
    from phpcb.presentation.formatting import signed_duration

    assert signed_duration(1840.0) == "+1.84 µs"
    assert signed_duration(-320.0) == "−320 ns"
    assert signed_duration(float("-inf")) == "−∞"


def test_php_outrunning_the_code_it_calls_is_withheld_not_a_share():
    """The issue's '122 % (118-125 %)': no share past 100 % of the same code doing the same work is printed
    (presentation/native.py; tests/test_native_figures.py has the rest)."""
    from phpcb.presentation import native

    withheld = native.native_share(Ratio(1.22, 1.18, 1.25))
    assert withheld.startswith("withheld: PHP measured 1.22")
    assert not re.search(r"\d %", withheld), "no percentage: a ratio, said to be impossible"
    assert native.native_share(Ratio(0.87, 0.84, 0.9)) == wording.share(Ratio(0.87, 0.84, 0.9))
    assert native.native_share(Ratio(0.97, 0.95, 1.02)) == (
        f"{wording.share(Ratio(0.97, 0.95, 1.02))}: no measurable difference from native"
    ), "a CI that reaches 100 % is a share PHP nearly matches, said so beside it"

"""scripts/jws-verify-overhead.php (issue 48): what a caller of CompactJws::verify pays over the raw
openssl_verify, and over a careful verifier written by hand, paired round by round, over all rounds and over
those a probe found at the run's fastest, and where it goes. Its figures are the machine's; what is checked
here is that each side verifies the same token and that every figure is printed (the rounds' choice:
FastestRoundsTest)."""

import re
import subprocess

from .conftest import ROOT

SIDES = ("raw openssl_verify", "CompactJws::verify", "by hand")
PAIRS = (
    "CompactJws::verify over raw openssl_verify",
    "by hand over raw openssl_verify",
    "CompactJws::verify over by hand",
)


def test_the_script_prints_each_side_and_each_pair_for_rs256_and_es256():
    result = subprocess.run(
        ["php", "scripts/jws-verify-overhead.php", "--rounds", "6", "--batch-ms", "0.2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    sections = re.split(r"^(RS256|ES256): ", result.stdout, flags=re.MULTILINE)
    by_alg = dict(zip(sections[1::2], sections[2::2], strict=True))
    assert sorted(by_alg) == ["ES256", "RS256"]
    for alg, text in by_alg.items():
        for side in SIDES:
            assert re.search(rf"^  {re.escape(side)} +\d+\.\d+ µs \(95 % CI", text, re.MULTILINE), (alg, side)
        for pair in PAIRS:
            for clock in ("CPU time", "wall clock"):
                assert re.search(rf"^  {re.escape(pair)}, {clock}: [+-]\d+\.\d+ µs", text, re.MULTILINE), (alg, pair)
        speed = re.search(r"^  host speed: .* (\d+) of 6 rounds at its fastest \(within 1\.05x of it\)$", text, re.M)
        assert speed, alg
        fastest = int(speed.group(1))
        # The fastest tenth is one of the rounds: at least that one is among the fastest.
        assert 1 <= fastest <= 6, alg
        for pair in PAIRS:
            line = re.search(rf"^  {re.escape(pair)}, CPU time in the fastest rounds: (.*)$", text, re.MULTILINE)
            assert line, (alg, pair)
            if fastest == 6:
                assert re.match(r"[+-]\d+\.\d+ µs \(95 % CI", line.group(1)), (alg, pair)
            else:
                assert line.group(1) == f"too few fastest rounds ({fastest} of 6; a 95 % CI needs 6)", (alg, pair)
        assert_where_it_goes(alg, text)


def assert_where_it_goes(alg: str, text: str) -> None:
    """The breakdown's three figures, or why there are none: its own rounds may find fewer than 6 fastest."""
    too_few = re.search(r"^  where it goes: too few fastest rounds \((\d) of 6; a 95 % CI needs 6\)$", text, re.M)
    if too_few:
        assert int(too_few.group(1)) < 6, alg
        return
    heading = r"^  where it goes, wall clock in the fastest rounds \(6 of 6, of 10 calls each\):$"
    assert re.search(heading, text, re.M), alg
    for figure in (
        r"CompactJws::verify's own work \(its signature check a known answer\): \d+\.\d+ µs",
        r"that work right after a raw openssl_verify: [+-]\d+\.\d+ µs",
        r"a raw openssl_verify right after a CompactJws::verify: [+-]\d+\.\d+ µs",
    ):
        assert re.search(rf"^    {figure} \(95 % CI", text, re.M), (alg, figure)


def test_too_few_rounds_is_refused_with_what_was_expected():
    result = subprocess.run(
        ["php", "scripts/jws-verify-overhead.php", "--rounds", "5"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "--rounds: expected at least 6" in result.stderr
    assert "got 5" in result.stderr

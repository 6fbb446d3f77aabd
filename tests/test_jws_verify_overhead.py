"""scripts/jws-verify-overhead.php (issue 48): what a caller of CompactJws::verify pays over the raw
openssl_verify, and over a careful verifier written by hand, paired round by round. Its figures are the
machine's; what is checked here is that each side verifies the same token and that every pair is printed."""

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


def test_too_few_rounds_is_refused_with_what_was_expected():
    result = subprocess.run(
        ["php", "scripts/jws-verify-overhead.php", "--rounds", "5"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "--rounds: expected at least 6" in result.stderr
    assert "got 5" in result.stderr

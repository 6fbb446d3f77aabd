"""`make bench-fidelity`'s check: PHP's share of openssl speed's throughput, its CI width and stability."""

import csv
from pathlib import Path

import pytest

from phpcb.compare import fidelity
from phpcb.errors import DataError

from .conftest import ROOT

PHP_COLUMNS = ["algorithm", "operation", "payload_bytes", "native", "round", "sample", "iterations", "elapsed_ns"]
NATIVE_COLUMNS = [
    "primitive",
    "operation",
    "block_bytes",
    "round",
    "iterations",
    "elapsed_ns",
    "command",
    "tool_version",
]


def write(directory: Path, php_ns: dict[str, list[float]], native_ns: dict[str, list[float]]) -> Path:
    """A directory as runners/fidelity.php writes it: per cipher, PHP's and openssl speed's time per round."""
    directory.mkdir(parents=True)
    with (directory / "aead_rounds.csv").open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(PHP_COLUMNS)
        for cipher, per_round in php_ns.items():
            for r, ns in enumerate(per_round):
                for s in range(7):
                    writer.writerow([cipher, "encrypt", 16384, cipher, r, r * 7 + s, 100, int(ns * 100)])
    with (directory / "aead_native.csv").open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(NATIVE_COLUMNS)
        for cipher, per_round in native_ns.items():
            for r, ns in enumerate(per_round):
                command = f"openssl speed -elapsed -mr -seconds 1 -evp {cipher} -bytes 16384"
                writer.writerow([cipher, "encrypt", 16384, r, 1000, int(ns * 1000), command, "OpenSSL 3.0.19"])
    return directory


STEADY_NATIVE = {"aes-256-gcm": [4000.0] * 10, "aes-256-ccm": [40000.0] * 10}


def steady(scale: float = 1.0) -> dict[str, list[float]]:
    wobble = [1.0, 1.01, 0.99, 1.005, 0.995, 1.0, 1.01, 0.99, 1.0, 1.0]
    return {"aes-256-gcm": [4400.0 * scale * w for w in wobble], "aes-256-ccm": [44000.0 * scale * w for w in wobble]}


def test_three_steady_runs_meet_the_goal(tmp_path):
    runs = [write(tmp_path / f"run-{i}", steady(), STEADY_NATIVE) for i in range(3)]
    checked = fidelity.check(ROOT, runs)
    assert checked.met, checked.text
    assert "aes-256-gcm  16 KiB: 90.9 %" in checked.text
    assert checked.text.endswith("goal met")


def test_a_noisy_run_is_too_wide(tmp_path):
    noisy = steady()
    noisy["aes-256-gcm"] = [4400.0 * w for w in [1.0, 1.4, 0.7, 1.3, 0.8, 1.0, 1.2, 0.9, 1.1, 1.0]]
    checked = fidelity.check(ROOT, [write(tmp_path / "run-1", noisy, STEADY_NATIVE)])
    assert not checked.met
    assert "TOO WIDE" in checked.text.splitlines()[2]


def test_runs_whose_intervals_do_not_overlap_miss_the_goal(tmp_path):
    runs = [write(tmp_path / "run-1", steady(), STEADY_NATIVE), write(tmp_path / "run-2", steady(1.2), STEADY_NATIVE)]
    checked = fidelity.check(ROOT, runs)
    assert not checked.met
    assert "aes-256-gcm: the 2 CIs DO NOT overlap" in checked.text


def test_a_directory_without_the_rounds_is_one_clear_error(tmp_path):
    with pytest.raises(DataError, match=r"aead_rounds\.csv: missing: expected the output of php runners/fidelity\.php"):
        fidelity.check(ROOT, [tmp_path])

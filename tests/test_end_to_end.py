"""Runner (fake clock) → CSV → build → page: the numbers on the page are the ones the fake clock implies."""

import os
import re
import shutil
import signal
import subprocess
import time
import zlib

import pytest

from phpcb import formatting, site, wording
from phpcb.loader import load_run
from phpcb.schema import load_schemas

from .conftest import ROOT
from .test_site_build import mkdocs_build

pytestmark = pytest.mark.slow

RUN_ID = "20260101T0000Z-e2e-php8.2"
MIB10 = 10 * 1024 * 1024


# FakeTimer::JITTER (runners/src/Harness/FakeTimer.php): per-mille offsets a case's timings take in turn.
JITTER = (0, 30, -20, 10, -30, 20, -10)


def fake_ns_per_op(algorithm: str, payload: int) -> int:
    """FakeTimer's model (runners/src/Harness/FakeTimer.php): 1 µs per call + 0.25 ns/byte × (1 + crc32 % 4)."""
    factor = 1 + zlib.crc32(algorithm.encode()) % 4
    return 1000 + payload * 250 * factor // 1000


def jittered(model: int) -> list[int]:
    """The seven quick-profile samples of one-iteration cases, sorted: the model moved by each offset once."""
    return sorted(model * (1000 + offset) // 1000 for offset in JITTER)


def fake_run(root, only):
    for name in ("schema", "policy", "reference"):
        shutil.copytree(ROOT / "data" / name, root / "data" / name)
    shutil.copytree(ROOT / "templates", root / "templates")
    out = root / "data" / "runs" / RUN_ID
    return out, subprocess.run(
        ["php", str(ROOT / "runners" / "bench.php"), "run", "--profile", "quick", "--only", only, "--out", str(out)],
        env={**os.environ, "PHPCB_FAKE_CLOCK": "1"},
        capture_output=True,
        text=True,
        check=False,
    )


def assert_speedup(sentence: str, subject: str, baseline: str, subject_ns: int, baseline_ns: int) -> None:
    """The sentence states the ratio of the models (the medians sit on them), whichever way round, and a CI
    that brackets it no wider than the ±3 % jitter allows."""
    value = baseline_ns / subject_ns
    if value == 1:
        found = re.fullmatch(
            rf"no measurable difference between {subject} and {baseline} \(ratio (\S+), 95% CI (\S+)–(\S+)\)", sentence
        )
        assert found is not None, sentence
        assert found.group(1) == "1.00"
    else:
        faster, slower = (subject, baseline) if value > 1 else (baseline, subject)
        value = max(value, 1 / value)
        found = re.fullmatch(rf"{faster} is (\S+)× faster than {slower} \(95% CI (\S+)–(\S+)×\)", sentence)
        assert found is not None, sentence
        assert found.group(1) == wording.times(value).removesuffix("×")
    low, high = float(found.group(2)), float(found.group(3))
    assert value * 0.97 / 1.03 - 0.01 <= low <= value <= high <= value * 1.03 / 0.97 + 0.01, (low, value, high)
    assert low < high, "the jittered samples give the ratio a real interval"


@pytest.fixture(scope="module")
def e2e_project(tmp_path_factory):
    root = tmp_path_factory.mktemp("e2e")
    out, result = fake_run(root, "aead")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{out}\n", "stdout carries only the result: the run directory"
    assert "ETA" in result.stderr
    return root


def test_the_run_is_valid_and_complete(e2e_project):
    run = load_run(e2e_project / "data" / "runs" / RUN_ID, load_schemas(ROOT / "data" / "schema"))
    assert run.manifest["timer"] == "fake"
    assert run.manifest["started_utc"] == "2026-01-01T00:00:00Z"
    assert run.experiment("aead")["status"] == "ok"
    assert run.experiment("aead")["verification"]["vectors_passed"] > 1800
    rows = run.tables["aead.csv"]
    assert len(rows) == 240 * 7
    case = [
        r
        for r in rows
        if (r["algorithm"], r["payload_bytes"], r["operation"], r["aad_bytes"]) == ("aes-256-gcm", 16384, "encrypt", 0)
    ]
    assert [r["iterations"] for r in case] == [1] * 7, "the fake clock takes one iteration per sample"
    assert sorted(r["elapsed_ns"] for r in case) == jittered(fake_ns_per_op("aes-256-gcm", 16384))


def test_the_page_shows_the_numbers_the_clock_implies(e2e_project):
    page = site.build(e2e_project).pages["experiments/aead.md"]
    for algorithm in ("aes-256-gcm", "aes-128-ccm", "chacha20-poly1305"):
        expected = formatting.rate(16384 * 1e3 / fake_ns_per_op(algorithm, 16384))
        row = next(line for line in page.splitlines() if line.startswith(f"| `{algorithm}` | "))
        assert expected in row, (algorithm, expected, row)

    gcm, ccm = fake_ns_per_op("aes-256-gcm", MIB10), fake_ns_per_op("aes-256-ccm", MIB10)
    headline = re.search(r"At 10 MiB, encrypting: \*\*(.+)\*\*", page)
    assert headline is not None
    assert_speedup(headline.group(1), "aes-256-gcm", "aes-256-ccm", gcm, ccm)


def test_the_built_html_shows_them_too(e2e_project, tmp_path):
    result = mkdocs_build(tmp_path / "site", phpcb_root=e2e_project)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "experiments" / "aead" / "index.html").read_text(encoding="utf-8")
    assert formatting.rate(16384 * 1e3 / fake_ns_per_op("aes-256-gcm", 16384)) in html
    assert RUN_ID in html


def run_until(command, done_marker, at_least):
    """Starts a run and SIGKILLs it once its progress shows `at_least` cases done out of `done_marker` ("/40 ")."""
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as process:
        assert process.stderr is not None
        for line in process.stderr:
            if done_marker in line and int(line.split(done_marker)[0].rsplit(" ", 1)[-1]) >= at_least:
                break
        process.send_signal(signal.SIGKILL)
        process.wait()


def test_a_killed_run_leaves_no_partial_csv_and_resume_finishes_it(tmp_path):
    out = tmp_path / RUN_ID
    command = ["php", str(ROOT / "runners" / "bench.php"), "run", "--fake-clock", "--only", "aead", "--out", str(out)]
    run_until(command, "/240 ", 20)
    visible = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert visible == ["manifest.json"], "only the manifest, rewritten whole, exists mid-run"
    manifest = (out / "manifest.json").read_text()
    assert '"finished_utc": null' in manifest

    started = time.monotonic()
    resumed = subprocess.run([*command, "--resume"], capture_output=True, text=True, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming " + RUN_ID + ": 1 experiment(s) left" in resumed.stderr
    run = load_run(out, load_schemas(ROOT / "data" / "schema"))
    assert run.experiment("aead")["status"] == "ok"
    assert len(run.tables["aead.csv"]) == 240 * 7
    assert time.monotonic() - started < 300


def test_a_killed_argon2_grid_resumes_from_its_last_cell_with_the_same_result(tmp_path):
    out = tmp_path / RUN_ID
    command = ["php", str(ROOT / "runners" / "bench.php"), "run", "--fake-clock", "--only", "argon2", "--out", str(out)]
    run_until(command, "/40 ", 12)
    checkpoint = out / ".argon2.checkpoint.csv"
    assert not (out / "argon2.csv").exists()
    measured = {tuple(line.split(",")[:5]) for line in checkpoint.read_text().splitlines()[1:]}
    assert len(measured) >= 12, "every cell reported done is in the checkpoint"

    resumed = subprocess.run([*command, "--resume"], capture_output=True, text=True, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert f"[argon2] resuming: {len(measured)} of 40 cells were measured before the run stopped" in resumed.stderr
    assert f"[argon2] {40 - len(measured)} cases, estimated " in resumed.stderr, "only the cells left are measured"
    assert not checkpoint.exists()
    uninterrupted = ROOT / "tests" / "fixtures" / "runs" / "20260101T0000Z-fixture-php8.2" / "argon2.csv"
    assert (out / "argon2.csv").read_text() == uninterrupted.read_text(), "same rows, same order, as a run never killed"


def test_symmetric_runs_in_a_legacy_provider_child_and_its_page_shows_the_numbers(tmp_path):
    out, result = fake_run(tmp_path, "symmetric")
    assert result.returncode == 0, result.stderr
    assert "running in a child process with OPENSSL_CONF=" in result.stderr
    run = load_run(out, load_schemas(ROOT / "data" / "schema"))
    entry = run.experiment("symmetric")
    assert entry["status"] == "ok", entry["reason"]
    assert entry["settings"]["environment"]["OPENSSL_CONF"].endswith("runners/openssl-legacy.cnf")
    inventory = {row["cipher"]: row for row in run.tables["cipher_inventory.csv"]}
    assert inventory["bf-cbc"]["provider"] == "legacy"
    assert inventory["aes-128-cbc"]["provider"] == "default"

    generated = site.build(tmp_path)
    assert "`OPENSSL_CONF=" in generated.pages["runs.md"], "the runs page says how the experiment's process was set up"
    page = generated.pages["experiments/symmetric.md"]
    mcrypt, openssl = fake_ns_per_op("rijndael-128", 2097152), fake_ns_per_op("aes-256-cbc", 2097152)
    headline = re.search(r"AES-256-CBC, decrypting 2 MiB: \*\*(.+)\*\*", page)
    assert headline is not None
    assert_speedup(headline.group(1), "OpenSSL", "mcrypt", openssl, mcrypt)

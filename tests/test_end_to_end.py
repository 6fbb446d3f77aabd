"""Runner (fake clock) → CSV → build → page: the numbers on the page are the ones the fake clock implies."""

import csv
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import zlib
from pathlib import Path

import pytest

from phpcb.data import run_checks, sampling
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.pages import build as site
from phpcb.pages import site_files
from phpcb.presentation import formatting

from .conftest import FIXTURE_RUN, ROOT, build_html, built_once, copy_inputs

pytestmark = pytest.mark.slow

RUN_ID = "20260101T0000Z-e2e-php8.2"
KIB512 = 512 * 1024
# The symmetric run tests the child process and the page, not the inventory (runners/tests/Symmetric/
# InventoryProbeTest classifies every cipher): a few ciphers of each kind, none of the slow CFB1 ones.
SMALL_INVENTORY = "aes-128-cbc,aes-128-ctr,aes-128-wrap,aes-128-gcm,bf-cbc,des-ede3-cbc"
# And its AES and Blowfish races up to 4 KiB (SymmetricExperiment::TEST_MAX_BYTES_VARIABLE): their real 200 KiB
# and 2 MiB operations, mcrypt's above all, were three quarters of the run's CPU; the page's headline compares
# the engines at the largest payload measured, whichever it is.
SMALL_PAYLOADS = "4096"


# JitterCycle::PER_MILLE (runners/src/Harness/JitterCycle.php): per-mille offsets a case's timings take in turn.
JITTER = (0, 24, -16, 8, -24, 16, -8)
BOUND_PER_MILLE = 24


def fake_ns_per_op(algorithm: str, payload: int) -> int:
    """FakeTimer's model (runners/src/Harness/FakeTimer.php): 1 µs per call + 0.25 ns/byte × (1 + crc32 % 4)."""
    factor = 1 + zlib.crc32(algorithm.encode()) % 4
    return 1000 + payload * 250 * factor // 1000


def fake_argon2_wall_ns(row: dict[str, str]) -> int:
    """ModelledCellCost (runners/src/Argon2/ModelledCellCost.php): 1 µs per KiB-pass, over at most 2 threads."""
    return int(row["memory_kib"]) * int(row["time_cost"]) * 1000 // min(int(row["threads"]), 2)


def jittered(model: int) -> list[int]:
    """The seven quick-profile samples of one-iteration cases, sorted: the model moved by each offset once."""
    return sorted(model * (1000 + offset) // 1000 for offset in JITTER)


def within_jitter(value: int, model: int) -> bool:
    """Whether a timing is its model moved by at most ±2.4 % (rounded down, as JitterCycle::apply does)."""
    return model * (1000 - BOUND_PER_MILLE) // 1000 <= value <= model * (1000 + BOUND_PER_MILLE) // 1000


def csv_rows(path: Path) -> list[dict[str, str]]:
    """The CSV as the runner wrote it, read without the build's loader: the page is checked against the file."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def case_rows(rows: list[dict[str, str]], **key: object) -> list[dict[str, str]]:
    """The samples of the one case whose key columns equal `key`: the quick profile's seven."""
    case = [r for r in rows if all(r[column] == str(value) for column, value in key.items())]
    assert len(case) == 7, (key, len(case))
    return case


def median_ns_per_op(rows: list[dict[str, str]], **key: object) -> float:
    """The median per-operation time of a case, from the CSV's samples."""
    return statistics.median(int(r["elapsed_ns"]) / int(r["iterations"]) for r in case_rows(rows, **key))


def fake_run(root, only, **env):
    copy_inputs(root)
    out = root / "data" / "runs" / RUN_ID
    return out, subprocess.run(
        ["php", str(ROOT / "runners" / "bench.php"), "run", "--profile", "quick", "--only", only, "--out", str(out)],
        env={**os.environ, "PHPCB_FAKE_CLOCK": "1", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def assert_speedup(sentence: str, subject: str, baseline: str, subject_ns: int, baseline_ns: int) -> None:
    """The sentence states the ratio of the models (the medians sit on them), whichever way round, and a CI
    that brackets it no wider than the ±2.4 % jitter allows. The two cases were sampled in rotation, each
    round moving both by the same offset: the paired ratio is the models' ratio, its CI only rounding wide."""
    value = baseline_ns / subject_ns
    digits = 2
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
        # As many digits as the CI supports (wording.estimate): the models' ratio, rounded to them.
        digits = len(found.group(1).split(".")[1])
        assert float(found.group(1)) == pytest.approx(value, abs=0.51 * 10**-digits)
    low, high = float(found.group(2)), float(found.group(3))
    bound, printed = BOUND_PER_MILLE / 1000, 0.51 * 10**-digits  # the CI as printed: rounded to those digits
    assert value * (1 - bound) / (1 + bound) - printed <= low <= value + printed
    assert value - printed <= high <= value * (1 + bound) / (1 - bound) + printed
    assert high - low <= 0.002 * value, "paired by round: the jitter cancels"


def measure_aead(root: Path) -> None:
    """The project at `root` with the runner's quick run of aead under the fake clock, up to 512 KiB
    (AeadExperiment::TEST_MAX_BYTES_VARIABLE): each sample is still encrypted and decrypted for real, and
    the 10 MiB ones were nine tenths of the run's CPU; the tests read 16 KiB and 512 KiB."""
    out, result = fake_run(root, "aead", PHPCB_TEST_AEAD_MAX_BYTES=str(KIB512))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{out}\n", "stdout carries only the result: the run directory"
    assert "ETA" in result.stderr


@pytest.fixture(scope="session")
def e2e_project(tmp_path_factory):
    """measure_aead's project, run once per session whichever pytest-xdist worker asks first (the tests read it)."""
    return built_once(tmp_path_factory, "e2e", measure_aead)


@pytest.fixture(scope="module")
def e2e_site(e2e_project):
    """The run's site generated once, in process: the page test reads its Markdown, the HTML test builds
    it with MkDocs (`python -m phpcb pages` in a process of its own generated the same pages again)."""
    return site.build(e2e_project)


def test_the_run_is_valid_and_complete(e2e_project):
    run = load_run(e2e_project / "data" / "runs" / RUN_ID, load_schemas(ROOT / "data" / "schema"))
    assert run.manifest["timer"] == "fake"
    assert run.manifest["started_utc"] == "2026-01-01T00:00:00Z"
    assert run.experiment("aead")["status"] == "ok"
    assert run.experiment("aead")["verification"]["vectors_passed"] > 1800
    assert len(run.tables["aead.csv"]) == 192 * 7, "12 AEADs × 4 payloads × 2 AAD sizes × 2 operations"
    assert max(int(r["payload_bytes"]) for r in run.tables["aead.csv"]) == KIB512

    rows = csv_rows(e2e_project / "data" / "runs" / RUN_ID / "aead.csv")
    assert {r["iterations"] for r in rows} == {"1"}, "the fake clock takes one iteration per sample"
    for row in rows:
        model = fake_ns_per_op(row["algorithm"], int(row["payload_bytes"]))
        assert within_jitter(int(row["elapsed_ns"]), model), row
    case = case_rows(rows, algorithm="aes-256-gcm", operation="encrypt", payload_bytes=16384, aad_bytes=0, tag_bytes=16)
    assert sorted(int(r["elapsed_ns"]) for r in case) == jittered(fake_ns_per_op("aes-256-gcm", 16384)), (
        "each of the seven offsets once: the samples spread, their median is the model"
    )


def test_the_page_shows_the_numbers_the_clock_implies(e2e_project, e2e_site):
    page = e2e_site.pages["experiments/aead.md"]
    rows = csv_rows(e2e_project / "data" / "runs" / RUN_ID / "aead.csv")
    for algorithm in ("aes-256-gcm", "aes-128-ccm", "chacha20-poly1305"):
        key = {"algorithm": algorithm, "operation": "encrypt", "payload_bytes": 16384, "aad_bytes": 0, "tag_bytes": 16}
        median = median_ns_per_op(rows, **key)
        assert median == fake_ns_per_op(algorithm, 16384), "a quick case's median sits on the model"
        throughput = formatting.rate(16384 * 1e3 / median)
        row = next(line for line in page.splitlines() if line.startswith(f"| `{algorithm}` | "))
        assert throughput in row, (algorithm, throughput, row)
        every_case = (line.strip() for line in page.splitlines())
        detail = next(line for line in every_case if line.startswith(f"| `{algorithm}` | encrypt | 16 KiB | 0 B | "))
        assert detail.split(" | ")[4] == formatting.duration(median), (algorithm, median, detail)

    gcm, ccm = fake_ns_per_op("aes-256-gcm", KIB512), fake_ns_per_op("aes-256-ccm", KIB512)
    headline = re.search(r"Encrypting 512 KiB with AES-256, the largest message\s+measured .+?:\s+\*\*(.+)\*\*", page)
    assert headline is not None
    assert_speedup(headline.group(1), "aes-256-gcm", "aes-256-ccm", gcm, ccm)


def test_the_built_html_shows_them_too(e2e_project, e2e_site, tmp_path):
    # What `python -m phpcb pages` writes (site_files.generate), from the pages already generated.
    site_files.write(tmp_path / "site.build", *site_files.assemble(e2e_project, e2e_site))
    result = build_html(tmp_path / "site.build", tmp_path / "site")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "experiments" / "aead" / "index.html").read_text(encoding="utf-8")
    assert formatting.rate(16384 * 1e3 / fake_ns_per_op("aes-256-gcm", 16384)) in html
    assert RUN_ID in html


def run_until(command, done_marker, at_least, env=None):
    """Starts a run and SIGKILLs it once its progress shows `at_least` cases done out of `done_marker` ("/40 ")."""
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env) as process:
        assert process.stderr is not None
        seen = False
        for line in process.stderr:
            if done_marker in line and int(line.split(done_marker)[0].rsplit(" ", 1)[-1]) >= at_least:
                seen = True
                break
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert seen, f"the run ended before its progress showed {at_least}{done_marker.rstrip()}: not killed mid-run"


def test_a_killed_run_leaves_no_partial_csv_and_resume_finishes_it(tmp_path):
    # pitfalls: the smallest experiment, its cases in rounds, its CSVs written when it ends.
    out = tmp_path / RUN_ID
    command = [
        "php",
        str(ROOT / "runners" / "bench.php"),
        "run",
        "--fake-clock",
        "--only",
        "pitfalls",
        "--out",
        str(out),
    ]
    uninterrupted = FIXTURE_RUN / "pitfalls.csv"
    run_until(command, "/26 ", 13)  # 13 cases in each of the quick profile's 2 rounds
    visible = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert visible == ["manifest.json"], "only the manifest, rewritten whole, exists mid-run"
    manifest = (out / "manifest.json").read_text()
    assert '"finished_utc": null' in manifest

    resumed = subprocess.run([*command, "--resume"], capture_output=True, text=True, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming " + RUN_ID + ": 1 experiment(s) left" in resumed.stderr
    run = load_run(out, load_schemas(ROOT / "data" / "schema"))
    assert run.experiment("pitfalls")["status"] == "ok"
    assert (out / "pitfalls.csv").read_text() == uninterrupted.read_text(), "the rows of a run never killed"


def rows_of_at_most(csv_text: str, max_kib: int) -> str:
    """The CSV's header and the rows of its cells of at most `max_kib` of memory, in the file's order."""
    header, *rows = csv_text.splitlines(keepends=True)
    return header + "".join(row for row in rows if int(row.split(",")[2]) <= max_kib)


def test_a_killed_argon2_grid_resumes_from_its_last_cell_with_the_same_result(tmp_path):
    out = tmp_path / RUN_ID
    command = ["php", str(ROOT / "runners" / "bench.php"), "run", "--fake-clock", "--only", "argon2", "--out", str(out)]
    # The 16 MiB cells only (Argon2Experiment::TEST_MAX_MIB_VARIABLE): each cell still hashes for real, and
    # a kill mid-grid and its resume need a grid, not the 64 MiB cells that make most of the whole one's CPU.
    # bcrypt's real check hashes at cost 4 (BcryptCosts::TEST_MAX_COST_VARIABLE): its rows are modelled anyway.
    small_grid = {**os.environ, "PHPCB_TEST_ARGON2_MAX_MIB": "16", "PHPCB_TEST_BCRYPT_MAX_COST": "4"}
    uninterrupted = rows_of_at_most((FIXTURE_RUN / "argon2.csv").read_text(), 16 * 1024)
    cells = len(
        {
            tuple(row[c] for c in ("interface", "variant", "memory_kib", "threads", "time_cost"))
            for row in csv.DictReader(uninterrupted.splitlines())
        }
    )
    assert cells > 2, "a grid with cells before and after the kill"
    killed_at = cells // 2
    run_until(command, f"/{cells} ", killed_at, env=small_grid)
    checkpoint = out / ".argon2.checkpoint.csv"
    assert not (out / "argon2.csv").exists()
    measured = {tuple(line.split(",")[:5]) for line in checkpoint.read_text().splitlines()[1:]}
    assert len(measured) >= killed_at, "every cell reported done is in the checkpoint"

    resumed = subprocess.run([*command, "--resume"], capture_output=True, text=True, check=False, env=small_grid)
    assert resumed.returncode == 0, resumed.stderr
    assert f"[argon2] resuming: {len(measured)} of {cells} cells were measured before the run stopped" in resumed.stderr
    assert f"[argon2] {cells - len(measured)} cases, estimated " in resumed.stderr, "only the cells left are measured"
    assert not checkpoint.exists()
    assert (out / "argon2.csv").read_text() == uninterrupted, "same rows, same order, as a run never killed"
    walls: dict[tuple[str, ...], set[str]] = {}
    for row in csv_rows(out / "argon2.csv"):
        if row["status"] == "ok":
            assert within_jitter(int(row["wall_ns"]), fake_argon2_wall_ns(row)), row
            cell = tuple(row[column] for column in ("interface", "variant", "memory_kib", "threads", "time_cost"))
            walls.setdefault(cell, set()).add(row["wall_ns"])
    assert walls, "some cells were measured"
    assert all(len(samples) > 1 for samples in walls.values()), "every measured cell's samples spread"


def test_argon2_without_the_native_tools_has_no_cli_cells_and_no_rounds(tmp_path):
    """make report's Argon2 (--no-native): without the CLI, rounds would time PHP at parameters the grid
    has, for nothing on the page; the run neither measures nor lists them, and loads as any run."""
    out = tmp_path / RUN_ID
    command = ["php", str(ROOT / "runners" / "bench.php"), "run", "--fake-clock", "--no-native", "--only", "argon2"]
    small_grid = {**os.environ, "PHPCB_TEST_ARGON2_MAX_MIB": "16", "PHPCB_TEST_BCRYPT_MAX_COST": "4"}
    result = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, check=False, env=small_grid)
    assert result.returncode == 0, result.stderr
    assert "rounds vs native" not in result.stderr
    assert not (out / "argon2_rounds.csv").exists()
    entry = json.loads((out / "manifest.json").read_text())["experiments"]["argon2"]
    assert "argon2_rounds.csv" not in entry["files"]
    assert sampling.native_left_out(entry)
    run = load_run(out, load_schemas(ROOT / "data" / "schema"))
    assert {row["interface"] for row in run.tables["argon2.csv"]} == {"password_hash", "sodium"}


def test_symmetric_runs_in_a_legacy_provider_child_and_its_page_shows_the_numbers(tmp_path):
    out, result = fake_run(
        tmp_path, "symmetric", PHPCB_TEST_CIPHERS=SMALL_INVENTORY, PHPCB_TEST_SYMMETRIC_MAX_BYTES=SMALL_PAYLOADS
    )
    assert result.returncode == 0, result.stderr
    assert "running in a child process with OPENSSL_CONF=" in result.stderr
    run = load_run(out, load_schemas(ROOT / "data" / "schema"))
    entry = run.experiment("symmetric")
    assert entry["status"] == "ok", entry["reason"]
    assert entry["settings"]["environment"]["OPENSSL_CONF"].endswith("runners/openssl-legacy.cnf")
    inventory = {row["cipher"]: row for row in run.tables["cipher_inventory.csv"]}
    assert sorted(inventory) == sorted(SMALL_INVENTORY.split(",")), "the test's inventory, under the fake clock"
    assert inventory["bf-cbc"]["provider"] == "legacy"
    assert inventory["aes-128-cbc"]["provider"] == "default"

    generated = site.build(tmp_path)
    assert "<code>OPENSSL_CONF=" in generated.pages["runs.md"], (
        "the runs page says how the experiment's process was set up"
    )
    page = generated.pages["experiments/symmetric.md"]
    largest = max(int(row["payload_bytes"]) for row in run.tables["symmetric.csv"] if row["suite"] == "aes_cbc")
    mcrypt, openssl = fake_ns_per_op("rijndael-128", largest), fake_ns_per_op("aes-256-cbc", largest)
    headline = re.search(rf"AES-256 decrypting\s+{re.escape(formatting.size(largest))}: \*\*(.+)\*\*", page)
    assert headline is not None
    assert_speedup(headline.group(1), "OpenSSL", "mcrypt", openssl, mcrypt)


def record_the_fixture_runs_ec_keygen(out: Path) -> None:
    """The fixture run's ec_keygen entry and files in the run `out` (which measured aead), unsealed again,
    as a killed run leaves it."""
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    entry = json.loads((FIXTURE_RUN / "manifest.json").read_text(encoding="utf-8"))["experiments"]["ec_keygen"]
    for name in entry["files"]:
        shutil.copyfile(FIXTURE_RUN / name, out / name)
    # Measured by this run's runner, as in a run of both: the fixture's process recorded other libraries.
    manifest["experiments"]["ec_keygen"] = {**entry, "measured_by": manifest["experiments"]["aead"]["measured_by"]}
    for sealed_at_the_end in ("seal", "finished_utc"):
        manifest.pop(sealed_at_the_end, None)
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def test_jwt_after_ec_keygen_times_only_the_hmac_keygen_and_its_page_quotes_the_others(e2e_project, tmp_path):
    """Issue 48: the JWT page quotes key generation from the curves page of the same run, so the runner no
    longer times it twice; the run still checks out, and the page still has every algorithm's keygen. The
    run's ec_keygen is the fixture run's (a fake-clock ec_keygen makes hundreds of real keys, RSA-3072 ones
    among them: 10 CPU-seconds): a killed run that recorded it, resumed for jwt, which a child process
    measures after it, as in a run of both. The killed run is a copy of the module's aead run: a run of its
    own (pitfalls, once) measured something first for nothing the test reads."""
    shutil.copytree(e2e_project, tmp_path, dirs_exist_ok=True)
    out = tmp_path / "data" / "runs" / RUN_ID
    record_the_fixture_runs_ec_keygen(out)
    result = subprocess.run(
        ["php", str(ROOT / "runners" / "bench.php"), "run", "--resume", "--out", str(out), "--only", "jwt"],
        env={**os.environ, "PHPCB_FAKE_CLOCK": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "1 experiment(s) left" in result.stderr
    assert "[jwt] key generation of prime256v1, secp384r1, secp521r1, RSA-2048, Ed25519: quoted" in result.stderr
    schemas = load_schemas(ROOT / "data" / "schema")
    run = load_run(out, schemas)
    keygen = {row["alg"] for row in run.tables["jwt.csv"] if row["operation"] == "keygen"}
    assert keygen == {"HS256", "HS384", "HS512"}, "an HMAC secret is the one key ec_keygen does not make"
    entry = run.experiment("jwt")
    measured = [name for name in entry["files"] if schemas.tables[name].measure is not None]
    counted = sum(run_checks.measured_cases(run.frames[name], schemas.tables[name].key) for name in measured)
    assert counted == entry["sampling"]["cases"] == 13 * 2 * 4 + 3 + 20, (
        "the manifest's sampling counts what was measured"
    )

    page = site.build(tmp_path).pages["experiments/jwt.md"]
    table = page.split("| algorithm | key | sign | verify | sign ÷ verify | keygen | security |", 1)[1].split(
        "\n\n", 1
    )[0]
    keygen_cells = {line.split("|")[1].strip(): line.split("|")[6].strip() for line in table.splitlines()[2:]}
    assert len(keygen_cells) == 13
    assert "–" not in keygen_cells.values(), keygen_cells
    assert "the keygen column quotes the [elliptic-curves page](ec_keygen.md)'s measurement" in " ".join(page.split())

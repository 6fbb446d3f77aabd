"""No number that looks broken without its reason beside it (issue 46.6): PHP's share of native speed above
100 % or a negative "PHP adds" is explained by what the two sides run (another implementation, other work:
which) or withheld with why; a JWS overhead never has a negative lower end; the AEAD native table says each
row's payload. Value tests of presentation/native.py, of the shared native table, and a scan of every page
the repository's committed runs build."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from phpcb.data import sampling
from phpcb.data.loader import run_directories
from phpcb.pages import build as site
from phpcb.presentation import native, wording
from phpcb.presentation.render import environment
from phpcb.statistics.rounds import Breakdown, NativeKey, Series, VsNative
from phpcb.statistics.stats import Estimate, Ratio

from .conftest import FIXTURE_RUN, ROOT, committed_run_dirs, copy_repository, project_with, write_manifest

TEMPLATES = ROOT / "templates"
ED25519 = native.sides("ed25519", "sign")
FAST_WAY = native.pitfall_sides("fast", "16-byte field")
SKEWED = native.sides("ML-DSA-65", "sign")


@pytest.mark.parametrize(
    ("primitive", "operation", "what", "provider", "kind"),
    [
        ("ed25519", "sign", "Ed25519 sign", None, native.OTHER_CODE),
        ("ed25519", "verify", "EdDSA verify", None, native.OTHER_CODE),
        ("ecdhx25519", "derive", "X25519 derive", None, native.OTHER_CODE),
        ("argon2-cli", "argon2id", "sodium argon2id", "standard", native.OTHER_CODE),
        ("argon2-cli", "argon2id", "password_hash argon2id", "standard", native.OTHER_WORK),
        ("argon2-cli", "argon2i", "password_hash argon2i", None, native.OTHER_WORK),
        ("argon2-cli", "argon2id", "password_hash argon2id", "sodium", native.OTHER_CODE),
        ("ML-DSA-44", "sign", "ML-DSA-44 sign", None, native.OTHER_WORK),
        ("ML-DSA-44", "verify", "ML-DSA-44 verify", None, native.SAME),
        ("ecdsap256", "sign", "prime256v1 sign", None, native.SAME),
        ("rsa2048", "sign", "RSA-2048 sign", None, native.SAME),
        ("aes-128-gcm", "encrypt", "aes-128-gcm", None, native.SAME),
    ],
)
def test_what_the_two_sides_run(primitive, operation, what, provider, kind):
    assert native.sides(primitive, operation, what, provider).kind == kind


def test_a_native_limit_of_another_openssl_release_is_another_implementation():
    mismatch = "the `openssl` command runs on OpenSSL 3.5.1, PHP on OpenSSL 3.0.19"
    found = native.sides("ecdsap256", "sign", "prime256v1 sign", mismatch=mismatch)
    assert (found.kind, found.short) == (native.OTHER_CODE, "another OpenSSL release than PHP's")
    assert mismatch in found.why
    assert native.sides("argon2-cli", "argon2id", "password_hash argon2id", mismatch=mismatch).kind == native.OTHER_WORK
    assert native.pitfall_sides("slow", "16-byte field", mismatch).kind == native.OTHER_CODE


@pytest.mark.parametrize(
    ("ratio", "found", "said"),
    [
        (Ratio(0.87, 0.84, 0.9), native.SAME_SIDES, "87.0 % (95% CI 84.0 %–90.0 %)"),
        (
            Ratio(0.995, 0.985, 1.005),
            native.SAME_SIDES,
            "99.5 % (95% CI 98.5 %–100.5 %): no measurable difference from native",
        ),
        (Ratio(1.03, 0.99, 1.08), native.SAME_SIDES, "no measurable difference from native (95% CI 99 %–108 %)"),
        # The one threshold of a difference (2 %) at its edge: a lower end of exactly 1.02 is no difference…
        (Ratio(1.025, 1.02, 1.03), native.SAME_SIDES, "no measurable difference from native (95% CI 102.0 %–103.0 %)"),
        # …and just past it, PHP measurably faster than the code it calls, doing the same work: withheld.
        (
            Ratio(1.025, 1.0201, 1.03),
            native.SAME_SIDES,
            "withheld: PHP measured 1.025× (95% CI 1.020–1.030×) the speed of the code it calls doing the same "
            "work, which it cannot be; the two timings disagree, and this run does not show why",
        ),
        (
            Ratio(0.97, 0.95, 1 / 1.02),
            native.SAME_SIDES,
            "97.0 % (95% CI 95.0 %–98.0 %): no measurable difference from native",
        ),
        (Ratio(0.97, 0.95, 0.9803), native.SAME_SIDES, "97.0 % (95% CI 95.0 %–98.0 %)"),
        (
            Ratio(1.71, 1.69, 1.74),
            ED25519,
            "not a share (libsodium's Ed25519 in PHP, OpenSSL's natively): PHP's side is 1.71× "
            "(95% CI 1.69–1.74×) as fast",
        ),
        (
            Ratio(0.8557, 0.8522, 0.8592),
            native.sides("ecdhx25519", "derive"),
            "not a share (libsodium's X25519 in PHP, OpenSSL's natively): PHP's side runs at 85.57 % "
            "(95% CI 85.22 %–85.92 %) of its speed",
        ),
        (
            Ratio(1.64, 1.60, 1.67),
            FAST_WAY,
            "not a share (one call for the whole record, where `openssl speed` sets up each 16-byte field): PHP's "
            "side is 1.64× (95% CI 1.60–1.67×) as fast",
        ),
        (Ratio(1.1, 1.05, 1.15), SKEWED, "withheld (a median against a mean of a skewed time)"),
        (
            Ratio(1.05, 0.99, 1.13),
            SKEWED,
            "no measurable difference from native (95% CI 99 %–113 %) (a median against a mean of a skewed time)",
        ),
        (Ratio(0.9, 0.0, float("inf")), native.SAME_SIDES, "90.0 % (no CI: too few rounds)"),
        (None, native.SAME_SIDES, "–"),
    ],
)
def test_a_share_of_native_as_the_two_sides_allow(ratio, found, said):
    assert native.native_share(ratio, found) == said


def series(per_op_ns: list[float]) -> Series:
    values = np.array(per_op_ns)
    return Series(values, {r: float(v) for r, v in enumerate(per_op_ns)})


def versus(
    php: list[float], native_ns: list[float], primitive: str = "ecdsap256", what: str = "P-256 sign"
) -> VsNative:
    a, b = series(php), series(native_ns)
    ratios = np.array(php) / np.array(native_ns)
    mean = float(np.exp(np.mean(np.log(ratios))))
    return VsNative(what, NativeKey(primitive, "sign", 0), a, b, Ratio(mean, float(ratios.min()), float(ratios.max())))


def test_what_php_adds_is_stated_only_where_php_is_measurably_slower_than_the_same_code():
    slower = versus([120.0, 121.0, 119.0, 120.0, 122.0], [100.0, 100.5, 99.5, 100.0, 100.2])
    assert native.php_adds(slower) == "+20 ns"
    assert native.adds(slower)
    faster = versus([95.0, 94.0, 95.5, 95.0, 94.5], [100.0, 100.5, 99.5, 100.0, 100.2])
    assert faster.extra_ns < 0
    assert native.php_adds(faster) == "withheld"
    alike = versus([100.0, 101.0, 99.0, 100.5, 99.5], [100.0, 100.5, 99.5, 100.0, 100.2])
    assert native.php_adds(alike) == "none measurable"
    assert native.php_adds(faster, ED25519) == "not PHP's cost: another implementation"
    assert native.php_adds(slower, ED25519) == "not PHP's cost: another implementation"
    assert not any(native.adds(c, ED25519) for c in (slower, faster, alike))


def test_a_skewed_time_is_explained_by_the_means_the_page_measured():
    """ML-DSA-44 signing of the reference run: PHP's median 416 µs, its mean 441 µs, openssl speed's 440 µs."""
    php = [400_000.0, 410_000.0, 416_000.0, 420_000.0, 559_000.0]
    comparison = versus(php, [440_000.0, 441_000.0, 439_000.0, 440_000.0, 440_000.0], "ML-DSA-44", "ML-DSA-44 sign")
    found = native.sides_of(comparison)
    assert found.kind == native.OTHER_WORK
    assert found.why.endswith("PHP's mean per signature here is 441 µs, `openssl speed`'s 440 µs")


@pytest.mark.parametrize(
    ("operations", "said"),
    [
        ((16,), "PHP's figure is the median of means of 16 signatures, within about 1.5 % of their mean; "),
        ((1, 2, 3), "PHP's figure is the median of batches of 1 to 3 signatures, `openssl speed`'s a count over a "),
        ((2,), "PHP's figure is the median of batches of 2 signatures"),
        ((1,), "PHP's figure is the median of single signatures, `openssl speed`'s a count"),
        ((), "PHP's figure is the median of batches of a few signatures"),
    ],
)
def test_a_skewed_time_says_how_many_signatures_a_sample_took(operations, said):
    """From the runner's 16 signatures a sample (Sampler::RANDOM_TIME_OPERATIONS) PHP's median is a mean's; the
    runs before it took 1 to 3, which a calibration drew."""
    comparison = versus([416_000.0] * 5, [440_000.0] * 5, "ML-DSA-44", "ML-DSA-44 sign")
    comparison = dataclasses.replace(comparison, php=dataclasses.replace(comparison.php, operations=operations))
    assert said in native.sides_of(comparison).why


def test_an_argon2_provider_in_the_manifest_decides_what_password_hash_runs():
    class RunWith:
        manifest: ClassVar[dict[str, dict[str, str]]] = {"libraries": {"argon2_provider": "sodium"}}

    comparison = VsNative(
        "password_hash argon2id",
        NativeKey("argon2-cli", "argon2id", 0),
        series([1.0]),
        series([1.0]),
        Ratio(1.0, 1.0, 1.0),
    )
    assert native.sides_of(comparison, RunWith()).kind == native.OTHER_CODE
    assert native.sides_of(comparison).kind == native.OTHER_WORK


def test_one_calls_fixed_cost_never_reads_as_more_than_all_php_adds():
    assert native.fixed_cost(0.929, 696.0) == "92.9 % of what PHP adds"
    assert native.fixed_cost(1.008, 1120.0) == "as much as all PHP adds (+1.12 µs)"


@pytest.mark.parametrize(
    ("ratio", "said"),
    [
        (Ratio(1.007, 0.99, 1.023), "none measurable (95% CI up to +2.3 %)"),
        (Ratio(1.005, 1.0, 1.019), "none measurable (95% CI up to +1.9 %)"),
        (Ratio(1.042, 1.021, 1.063), "+4.2 % (95% CI +2.1 to +6.3 %)"),
    ],
)
def test_an_outer_layer_never_adds_less_than_nothing(ratio, said):
    assert native.layer_overhead(ratio) == said


@pytest.mark.parametrize(
    ("estimate", "said"),
    [
        (Estimate(1420.0, -247.0, 2470.0), "none measurable (95% CI up to +2.47 µs)"),
        (Estimate(1940.0, 1620.0, 2230.0), "+1.94 µs (95% CI +1.62 µs to +2.23 µs)"),
        (Estimate(10.0, 0.0, 30.0), "none measurable (95% CI up to +30 ns)"),
    ],
)
def test_what_an_outer_layer_adds_per_operation(estimate, said):
    assert native.layer_added(estimate) == said


def breakdown(what: str, primitive: str, block_bytes: int, php: float, native_ns: float) -> Breakdown:
    a = series([php, php * 1.001, php * 0.999, php, php])
    b = series([native_ns] * 5)
    ratio = Ratio(php / native_ns, php / native_ns * 0.99, php / native_ns * 1.01)
    return Breakdown(VsNative(what, NativeKey(primitive, "encrypt", block_bytes), a, b, ratio), None)


def render_native_table(rows: list[Breakdown], mismatch: str | None = None) -> str:
    env = environment(TEMPLATES)
    template = env.from_string('{% include "_vs_native.md.j2" %}')
    return template.render(vs_native=rows, native_tool="OpenSSL 3.5.9", run=None, native_mismatch=mismatch)


def test_the_aead_native_table_says_each_rows_payload():
    text = render_native_table(
        [
            breakdown("aes-128-gcm", "aes-128-gcm", 1024, 854.0, 183.0),
            breakdown("aes-128-gcm", "aes-128-gcm", 16384, 1460.0, 744.0),
        ]
    )
    header = next(line for line in text.splitlines() if line.startswith("| operation |"))
    assert header.startswith("| operation | payload | PHP (median")
    rows = [line for line in text.splitlines() if line.startswith("| `aes-128-gcm`")]
    assert [row.split(" | ")[1] for row in rows] == ["1 KiB", "16 KiB"]
    assert all("| +" in row for row in rows), "PHP adds, measurably"


def test_the_native_table_says_why_a_row_is_not_a_share():
    text = render_native_table(
        [
            breakdown("Ed25519 sign", "ed25519", 0, 12_700.0, 21_400.0),
            breakdown("P-256 sign", "ecdsap256", 0, 15_900.0, 13_700.0),
        ]
    )
    assert "| payload |" not in text, "key operations have no payload"
    assert "Where the two sides are not the same code doing the same work:" in text
    assert (
        "- `Ed25519 sign`: PHP calls libsodium&#39;s Ed25519 (<code>sodium_crypto_sign_detached</code> and "
        "<code>sodium_crypto_sign_verify_detached</code>), <code>openssl speed</code> times OpenSSL&#39;s own: two "
        "implementations, so either can be the faster."
    ) in text
    assert "met another machine" not in text


def test_a_native_limit_of_another_release_states_no_share_and_nothing_php_adds():
    mismatch = "the `openssl` command runs on OpenSSL 3.5.1, PHP on OpenSSL 3.0.19: not the same library"
    text = render_native_table([breakdown("P-256 sign", "ecdsap256", 0, 15_900.0, 13_700.0)], mismatch)
    (row,) = [line for line in text.splitlines() if line.startswith("| `P-256 sign`")]
    assert "| not a share (another OpenSSL release than PHP&#39;s): PHP&#39;s side runs at " in row
    assert row.endswith("| not PHP&#39;s cost: another implementation |")
    assert "The native limit is another library" in text
    assert "states no share of native speed and nothing PHP adds" in text


# The site: every page the committed runs build, scanned once.
PERCENT = re.compile(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?) %")
EXPLAINED = ("no measurable difference", "not a share", "withheld")


def tables(text: str) -> Iterator[tuple[list[str], list[list[str]]]]:
    """Each Markdown table of a page: its header cells and its rows' cells."""
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append(line)
            continue
        if len(block) > 2:
            cells = [[cell.strip() for cell in row.strip().strip("|").split(" | ")] for row in block]
            yield cells[0], cells[2:]
        block = []


def share_column(header: str) -> bool:
    lowered = header.lower()
    return "share of" in lowered and ("native" in lowered or "openssl speed" in lowered)


def broken_numbers(pages: dict[str, str]) -> tuple[list[str], int]:
    """Every figure that could look broken without its reason beside it, and how many share cells there were."""
    found, shares = [], 0
    for name, text in pages.items():
        if "met another machine" in text:
            found.append(f"{name}: blames another machine")
        for line in text.splitlines():
            if "of what PHP adds" in line and any(float(p.replace(",", "")) > 100 for p in PERCENT.findall(line)):
                found.append(f"{name}: a fixed cost past all PHP adds: {line[:120]}")
        for header, rows in tables(text):
            for row in rows:
                for title, cell in zip(header, row, strict=False):
                    if share_column(title):
                        shares += 1
                        past = [p for p in PERCENT.findall(cell) if float(p.replace(",", "")) > 100]
                        if past and not any(reason in cell for reason in EXPLAINED):
                            found.append(f"{name}: {row[0]}: a share past 100 % without its reason: {cell}")
                    if title.startswith("PHP adds") and cell.startswith(("−", "-")):
                        found.append(f"{name}: {row[0]}: PHP adds less than nothing: {cell}")
                    if title.startswith("JWS") and re.search(r"CI [−-]|to [−-]", cell):
                        found.append(f"{name}: {row[0]}: an overhead's interval below zero: {cell}")
            if any(share_column(title) for title in header):
                named = [i for i, title in enumerate(header) if title in ("algorithm", "operation", "payload")]
                keys = [tuple(row[i] for i in named) for row in rows]
                if len(keys) != len(set(keys)):
                    found.append(f"{name}: two rows of a native table that say the same operation: {header}")
    return found, shares


@pytest.fixture(scope="module")
def committed_pages(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The pages of the committed runs (a run left in the checkout by a benchmark is not the project's). When
    every run under data/runs/ is committed, they are the pages of the session's build of the repository
    (conftest's repository_build: `python -m phpcb pages` writes each page the build makes as it makes it),
    without the hand-written ones of docs/; else a copy of the repository with only the committed runs."""
    if committed_run_dirs() == tuple(run_directories(ROOT / "data" / "runs")):
        docs = request.getfixturevalue("repository_build") / "docs"
        written = {path.relative_to(docs).as_posix(): path for path in sorted(docs.rglob("*.md"))}
        hand_written = {path.relative_to(ROOT / "docs").as_posix() for path in (ROOT / "docs").rglob("*.md")}
        return {name: path.read_text(encoding="utf-8") for name, path in written.items() if name not in hand_written}
    root = copy_repository(tmp_path_factory.mktemp("native") / "repo", tuple(d.name for d in committed_run_dirs()))
    shutil.copy(ROOT / "data" / "site.yaml", root / "data" / "site.yaml")
    return dict(site.build(root).pages)


def test_no_page_prints_a_number_that_looks_broken_without_its_reason(committed_pages):
    found, shares = broken_numbers(committed_pages)
    assert shares > 50, "the scan reads the native tables"
    assert not found, "\n".join(found)


def test_the_rows_of_other_implementations_name_them(committed_pages):
    rows = [line for text in committed_pages.values() for line in text.splitlines()]
    ed25519 = [line for line in rows if line.startswith("| `Ed25519 sign` |")]
    assert ed25519, "the curves page compares Ed25519 with openssl speed"
    assert all("not a share (libsodium&#39;s Ed25519 in PHP, OpenSSL&#39;s natively)" in line for line in ed25519)
    sodium = [line for line in rows if line.startswith("| `sodium argon2")]
    assert all("libsodium&#39;s Argon2 in PHP, the reference libargon2 in the CLI" in line for line in sodium)


def test_the_scan_finds_each_kind_of_broken_number():
    page = "\n".join(
        [
            "| operation | PHP's speed: share of native | PHP adds per operation |",
            "| --- | --- | ---: |",
            "| `a` | 103 % (95% CI 99 %–108 %) | −22.2 µs |",
            "| `a` | 99.5 % (95% CI 98.5 %–100.5 %): no measurable difference from native | none measurable |",
            "",
            "| algorithm | JWS over the primitive | JWS adds |",
            "| --- | --- | --- |",
            "| RS256 | +0.6 % (95% CI −1.3 to +2.5 %) | +1.25 µs (95% CI −1.34 µs to +3.47 µs) |",
            "",
            "- `x`: that fixed cost, 1.13 µs, is 100.8 % of what PHP adds.",
            "the native rounds met another machine than PHP's",
        ]
    )
    found, shares = broken_numbers({"p.md": page})
    assert shares == 2
    kinds = [
        "blames another machine",
        "a fixed cost past all PHP adds",
        "a share past 100 % without its reason",
        "PHP adds less than nothing",
        "two rows of a native table that say the same operation",
        "an overhead's interval below zero",
        "an overhead's interval below zero",
    ]
    assert len(found) == len(kinds), found
    assert all(kind in finding for kind, finding in zip(kinds, found, strict=True)), found
    assert wording.share_interval(Ratio(1.0, 0.99, 1.01)) == "95% CI 99 %–101 %"


# --- a run that left `openssl speed` out (bench.php run --no-native, make report's) -----------------------


def test_the_gap_a_run_without_native_records_is_the_runners_own_words():
    runner = (ROOT / "runners" / "src" / "Native" / "InterleavedRounds.php").read_text(encoding="utf-8")
    found = re.search(r"NATIVE_LEFT_OUT = '([^']+)';", runner)
    assert found is not None
    assert found.group(1) == sampling.NATIVE_LEFT_OUT


@pytest.mark.parametrize(
    ("reason", "left_out"),
    [
        (sampling.NATIVE_LEFT_OUT, True),
        (f"mcrypt is missing; {sampling.NATIVE_LEFT_OUT}", True),
        ("native aes-128-gcm: expected a result for encrypt, got none", False),
        (f"quoted: {sampling.NATIVE_LEFT_OUT} was not said", False),
        (None, False),
    ],
)
def test_a_run_left_native_out_only_where_its_entry_records_that_gap(reason, left_out):
    assert sampling.native_left_out({"status": "partial", "reason": reason}) is left_out


def test_an_experiment_with_no_entry_left_nothing_out():
    assert sampling.native_left_out(None) is False


# Per experiment, the native tables a run without them lacks (aead's single figures, native.csv, are no
# longer measured by any run).
NATIVE_TABLES = {
    "aead": ("native.csv", "aead_native.csv"),
    "ec_keygen": ("ec_keygen_native.csv",),
    "jwt": ("jwt_native.csv",),
    "symmetric": ("symmetric_native.csv",),
}


def pages_without_native(parent: Path, reason: str | None) -> dict[str, str]:
    """The fixture run's pages with its native tables gone, as a run with `reason` recorded would have them."""
    project = project_with(parent, FIXTURE_RUN)
    run = project / "data" / "runs" / FIXTURE_RUN.name
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    for experiment, tables in NATIVE_TABLES.items():
        entry = manifest["experiments"][experiment]
        for table in tables:
            (run / table).unlink()
            entry["files"].remove(table)
        entry.update(status="partial", reason=reason) if reason else entry.update(status="ok", reason=None)
    write_manifest(run, manifest)
    built = site.build(project)
    return {experiment: built.pages[f"experiments/{experiment}.md"] for experiment in NATIVE_TABLES}


def test_a_page_of_a_run_that_left_native_out_says_so_and_where_the_figures_are(tmp_path):
    for experiment, page in pages_without_native(tmp_path, sampling.NATIVE_LEFT_OUT).items():
        assert "This run left `openssl speed` out of its rounds, as `make report` does" in page, experiment
        assert "`make bench` measures them" in page, experiment
        assert "added after it was made" not in page, experiment


def test_a_page_of_a_run_made_before_native_figures_says_that_instead(tmp_path):
    pages = pages_without_native(tmp_path, None)
    for experiment, page in pages.items():
        assert "as `make report` does" not in page, experiment
    # JWT's note of an older run is about its layer table, which this run has: its native column is empty.
    assert "No native figures in this run." in pages["aead"]
    assert "This run has no native measurements (they were added after it was made)." in pages["ec_keygen"]
    assert "This run has no native measurements (they were added after it was made)." in pages["symmetric"]


def test_the_argon2_page_of_a_run_that_left_the_cli_out_says_so(tmp_path):
    # As bench.php run --no-native writes it: the grid without the CLI's cells, and no rounds at all.
    project = project_with(tmp_path, FIXTURE_RUN)
    run = project / "data" / "runs" / FIXTURE_RUN.name
    lines = (run / "argon2.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (run / "argon2.csv").write_text("".join(line for line in lines if not line.startswith("cli,")), encoding="utf-8")
    (run / "argon2_rounds.csv").unlink()
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    manifest["experiments"]["argon2"].update(status="partial", reason=sampling.NATIVE_LEFT_OUT)
    manifest["experiments"]["argon2"]["files"].remove("argon2_rounds.csv")
    write_manifest(run, manifest)

    page = site.build(project).pages["experiments/argon2.md"]

    assert "This run left the argon2 CLI out of its grid, and the rounds that set PHP against it, as" in page
    assert "against it, as `make report` does to end" in page
    assert "added after it was made" not in page

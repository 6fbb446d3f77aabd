"""Machine names and the Machines page."""

from __future__ import annotations

import json
import math
import subprocess

from phpcb.data.machines import cpu_slug
from phpcb.data.selection import View
from phpcb.data.upgrade import legacy_host
from phpcb.pages import build as site
from phpcb.pages import machines_page
from phpcb.presentation.headlines import SECONDS, TIMES, Headline

from .conftest import FIXTURE_RUN, ROOT, on_another_machine, write_manifest

MODELS = [
    "Intel(R) Xeon(R) Processor @ 2.50GHz",
    "AMD EPYC 7B13 64-Core Processor",
    "Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz",
    "AMD Ryzen 7 5800U with Radeon Graphics",
    "aarch64",
    "(R) Processor",
    "Some Very Long Vendor Name Model Number 1234567890",
]


def test_python_and_the_runner_slug_cpu_models_alike():
    """Upgraded runs are named in Python, new runs in PHP: one machine must get one name."""
    script = (
        "require 'runners/bootstrap.php';"
        "echo json_encode(array_map([PhpCryptoBench\\Environment\\MachineName::class, 'cpuSlug'],"
        " json_decode(stream_get_contents(STDIN), true)));"
    )
    result = subprocess.run(
        ["php", "-r", script], cwd=ROOT, input=json.dumps(MODELS), capture_output=True, text=True, check=True
    )
    assert json.loads(result.stdout) == [cpu_slug(model) for model in MODELS]


def test_a_legacy_run_id_gives_its_hostname():
    assert legacy_host("20261122T0506Z-vm-php8.2") == "vm"
    assert legacy_host("20261122T0506Z-build-box-7-php8.3") == "build-box-7"


def test_the_machines_page_sets_every_machine_beside_the_others(make_project):
    root = make_project(FIXTURE_RUN)
    other = root / "data" / "runs" / "20260102T0000Z-other-php8.3"
    other.mkdir()
    for path in FIXTURE_RUN.iterdir():
        (other / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["run_id"] = other.name
    manifest["started_utc"] = "2026-01-02T00:00:00Z"
    zen3 = on_another_machine(manifest)
    manifest["php"]["version"] = manifest["stack"]["php"] = "8.3.1"
    for entry in manifest["experiments"].values():  # the processes that measured were that PHP too
        entry["measured_by"]["php"]["version"] = "8.3.1"
    write_manifest(other, manifest)

    page = site.build(root).pages["machines.md"]
    fixture_machine = json.loads((FIXTURE_RUN / "manifest.json").read_text())["machine"]["name"]
    assert f"| {fixture_machine} · PHP 8.2 + OpenSSL 3.0 |" in page
    assert f"| {zen3} · PHP 8.3 + OpenSSL 3.0 |" in page
    assert "## P-256 (prime256v1) key generation" in page
    assert "## ES256 verification" in page
    assert page.count('class="pcb-chart"') == page.count("\n## ") - 1, "one chart per question"
    assert f"(runs.md#run-{other.name.lower().replace('.', '-')})" in page


def copied_run(root, run_id: str, started: str, elsewhere: bool = False, **changes) -> None:
    """The fixture run again under another id, its manifest changed as given."""
    target = root / "data" / "runs" / run_id
    target.mkdir()
    for path in FIXTURE_RUN.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update(run_id=run_id, started_utc=started, **changes)
    if elsewhere:
        on_another_machine(manifest)
    write_manifest(target, manifest)


def test_the_run_just_measured_stands_for_its_machine(make_project):
    root = make_project(FIXTURE_RUN)
    older = "20251231T0000Z-fixture-php8.2"  # the rule would show the newest run: the fixture's
    copied_run(root, older, "2025-12-31T00:00:00Z", git_commit="b" * 40)
    sources = site.load(root)  # one tree, two views of it: loaded and analysed once
    assert f"[`{older}`]" not in site.build(root, sources=sources).pages["machines.md"]
    page = site.build(root, view=View(show=older), sources=sources).pages["machines.md"]
    assert f"[`{older}`]" in page
    assert f"[`{FIXTURE_RUN.name}`]" not in page, "one row per machine × PHP: the run just measured"


def test_rows_from_different_runner_commits_are_named_as_such(make_project, fixture_run_site):
    # The fixture run alone: the session's site of it (conftest's fixture_run_site) is that build.
    assert "Not one harness" not in fixture_run_site.pages["machines.md"], "one run, one commit"
    root = make_project(FIXTURE_RUN)
    copied_run(root, "20260102T0000Z-other-php8.2", "2026-01-02T00:00:00Z", elsewhere=True, git_commit="b" * 40)
    page = site.build(root).pages["machines.md"]
    assert "| `bbbbbbb` |" in page
    assert "| `cc2c47d` |" in page
    assert "These rows were measured by 2 runner versions (`bbbbbbb`, `cc2c47d`)" in page


def test_a_machines_chart_keeps_each_pick_clear_of_its_error_bar_and_says_which_interval_it_draws():
    headlines = [
        Headline("argon2.budget", "Argon2id within 250 ms", SECONDS, 213e6, 203e6, 240e6, 6, "m=64 MiB, t=4, p=1"),
        Headline("argon2.budget", "Argon2id within 250 ms", SECONDS, 240e6, 214e6, math.inf, 3, "m=128 <MiB>, t=3"),
    ]
    stack = "PHP 8.2 + OpenSSL 3.0"
    rows = [machines_page.Row(machines_page.Group(f"box-{i}", stack), None, h) for i, h in enumerate(headlines)]
    figure = machines_page.figure("Argon2id within 250 ms", rows)
    (bars,) = figure["data"]
    assert "text" not in bars, "no label inside the bar, where its error bar ran through it"
    assert bars["y"] == [f"box-0 · {stack}<br>m=64 MiB, t=4, p=1", f"box-1 · {stack}<br>m=128 &lt;MiB&gt;, t=3"]
    assert bars["x"] == [213.0, 240.0]
    assert bars["error_x"]["array"] == [27.0, None], "an unbounded end draws no bar"
    assert bars["error_x"]["arrayminus"] == [10.0, 26.0]
    assert machines_page.MEDIAN_IN_ITS_RUN.text in figure["layout"]["title"]["text"]
    assert all(machines_page.MEDIAN_IN_ITS_RUN.text in hover for hover in bars["customdata"])


def test_a_speedup_chart_is_dots_on_a_log_axis_around_no_difference_in_the_rows_words():
    """ML-DSA-65 over ES256 was two bars of 0.02 and 0.03 on a 'times faster' axis from 0 to 0.03: nothing
    said they were 40× slower, or that 1 was far off to the right."""
    stack = "PHP 8.4 + OpenSSL 3.5"
    question = "ML-DSA-65 over ES256, sign (times faster)"
    rows = [
        machines_page.Row(
            machines_page.Group("zen4", stack), None, Headline("pq", question, TIMES, 1 / 40.3, 1 / 47.0, 1 / 34.1)
        ),
        machines_page.Row(
            machines_page.Group("zen5", stack), None, Headline("pq", question, TIMES, 1 / 43.7, 1 / 45.0, 1 / 42.0)
        ),
    ]
    figure = machines_page.figure(question, rows)
    (dots,) = figure["data"]
    assert (dots["type"], dots["mode"]) == ("scatter", "markers"), "a bar's length means nothing on a log axis"
    assert dots["customdata"][0].startswith("40.3× slower (34.1–47.0× slower)<br>")
    axis = figure["layout"]["xaxis"]
    assert axis["type"] == "log"
    assert axis["tickvals"] == [0.01, 0.1, 1.0], "1, no difference, is in range"
    assert axis["ticktext"] == ["100×<br>slower", "10×<br>slower", "same"]
    (line,) = figure["layout"]["shapes"]
    assert (line["x0"], line["x1"]) == (1.0, 1.0)

    faster = [
        machines_page.Row(machines_page.Group("zen5", stack), None, Headline("aead", question, TIMES, 19.0, 17.0, 21.0))
    ]
    axis = machines_page.figure(question, faster)["layout"]["xaxis"]
    assert axis["ticktext"] == ["same", "10×<br>faster", "100×<br>faster"]

    cost = [
        machines_page.Row(
            machines_page.Group("zen5", stack),
            None,
            Headline("pitfalls", "PEM over object (times)", TIMES, 2.4, 2.3, 2.5),
        )
    ]
    layout = machines_page.figure("PEM over object (times)", cost)["layout"]
    assert layout["xaxis"]["title"]["text"] == "times faster"
    assert "type" not in layout["xaxis"], "not a speedup: a linear axis, as before"


def test_a_speedup_row_says_how_many_times_slower_with_its_interval_and_a_cost_ratio_stays_a_ratio():
    """The rows of "ML-DSA-65 over ES256, sign (times faster)" printed 0.02× (95% CI 0.02× – 0.03×) for 40× and
    44× slower: two decimals of a small fraction, where the answers say "40.3× slower than ES256"."""
    group = machines_page.Group("zen4", "PHP 8.4 + OpenSSL 3.5")
    sign = Headline("pq.sign", "ML-DSA-65 over ES256, sign (times faster)", TIMES, 1 / 40.3, 1 / 47.0, 1 / 34.1)
    row = machines_page.Row(group, None, sign)
    assert (row.value_text, row.ci_text) == ("40.3× slower", "34.1–47.0× slower")
    same = Headline("jwt.margin", "ES256 over ES256 verification (times faster)", TIMES, 1.0, 0.999, 1.001)
    row = machines_page.Row(group, None, same)
    assert (row.value_text, row.ci_text) == ("1.00×", "1.00× – 1.00×"), "no way faster or slower to name"
    pitfall = Headline("pitfalls.pem", "PEM over object: slow way over fast way (times)", TIMES, 2.38, 2.34, 2.42)
    row = machines_page.Row(group, None, pitfall)
    assert (row.value_text, row.ci_text) == ("2.38×", "2.34× – 2.42×")

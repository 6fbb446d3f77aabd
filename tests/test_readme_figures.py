"""The figures the README and the docs state come from the code (issue 46.7): each budget, sample count,
precision target, Argon2 grid and bcrypt cost they quote is the runner's own, read from its source here;
and a figure that changes with every run (how many runs are committed, how long a run took, how large the
runs' files are) is not stated as prose at all: the Runs page computes it (a full run was "about 90
minutes" in the docs and took 37.7; "today's 18 runs" were 26)."""

import re
from pathlib import Path

import pytest

from .conftest import ROOT

README = ROOT / "README.md"
MAKEFILE = ROOT / "Makefile"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PROFILE = ROOT / "runners" / "src" / "Harness" / "Profile.php"
ARGON2 = ROOT / "runners" / "src" / "Argon2" / "Argon2Experiment.php"
BCRYPT = ROOT / "runners" / "src" / "Argon2" / "BcryptCosts.php"


def php_int(text: str) -> int:
    return int(text.replace("_", ""))


def php_constant(path: Path, name: str) -> str:
    found = re.search(rf"const {name} = ([^;]+);", path.read_text(encoding="utf-8"))
    assert found is not None, f"{path.name} defines {name}"
    return found.group(1).strip()


def budgets() -> dict[str, int]:
    """Each profile's time budget in seconds (Profile::QUICK_BUDGET_S, FULL_BUDGET_S)."""
    return {name: php_int(php_constant(PROFILE, f"{name.upper()}_BUDGET_S")) for name in ("quick", "full")}


def make_variable(name: str) -> int:
    """A number the Makefile sets with `NAME ?= N`."""
    found = re.search(rf"^{name} \?= (\d+)$", MAKEFILE.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None, f"the Makefile sets {name}"
    return int(found.group(1))


def profiles() -> dict[str, tuple[int, float, float]]:
    """Each profile's fewest samples, shortest sample (ms) and precision target (±%), from Profile::named."""
    text = PROFILE.read_text(encoding="utf-8")
    fewest = php_int(php_constant(PROFILE, "FEWEST_SAMPLES"))
    found = {}
    for name, least, _, target, sample_ns in re.findall(
        r"'(quick|full)' => new self\('\1', ([^,]+), ([^,]+), ([^,]+), ([^,]+),", text
    ):
        samples = fewest if least.strip() == "self::FEWEST_SAMPLES" else php_int(least)
        found[name] = (samples, php_int(sample_ns) / 1e6, float(target) * 100)
    assert set(found) == {"quick", "full"}, "Profile::named builds both profiles"
    return found


def grids() -> dict[str, tuple[int, int, int]]:
    """Each Argon2 grid's size, memory × threads × time cost (Argon2Experiment::GRID)."""
    pattern = r"'([\w-]+)' => \['memory_mib' => \[([^\]]*)\], 'threads' => \[([^\]]*)\], 'time_cost' => \[([^\]]*)\]\]"
    return {
        name: tuple(len(values.split(",")) for values in (memory, threads, time))  # type: ignore[misc]
        for name, memory, threads, time in re.findall(pattern, ARGON2.read_text(encoding="utf-8"))
    }


def bcrypt_costs() -> list[int]:
    return [php_int(c) for c in php_constant(BCRYPT, "COSTS").strip("[]").split(",")]


def text_of(path: Path) -> str:
    """The document with its lines joined: a figure's phrase may break across lines."""
    return re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))


def test_the_runners_figures_are_read_from_its_source():
    """The readers of the runner's source below find what they look for (a renamed constant fails here)."""
    assert budgets() == {"quick": 270, "full": 5400}
    assert make_variable("REPORT_BUDGET_SECONDS") == 195
    assert profiles()["quick"][0] == 7
    assert {"quick", "full", "full-other"} <= set(grids())
    assert bcrypt_costs()


def test_every_time_budget_the_readme_quotes_is_the_runners():
    text = text_of(README)
    stated = re.findall(r"quick (\d+), full (\d+)\)", text)
    assert stated, "the README gives the profiles' budgets in seconds"
    assert all({"quick": int(q), "full": int(f)} == budgets() for q, f in stated)
    minutes = re.findall(r"\(([\d.]+) minutes of experiments", text)
    assert minutes == [f"{make_variable('REPORT_BUDGET_SECONDS') / 60:g}"], "make report's budget, in minutes"
    assert f"the quick profile alone, `make bench`, takes {budgets()['quick'] / 60:g} minutes" in text


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda p: p.name)
def test_every_duration_in_minutes_the_docs_state_is_a_profiles_budget(path):
    """A run's duration is the Runs page's to give; the docs may quote only what the code fixes, the budgets
    (the profiles' and make report's)."""
    allowed = {f"{seconds / 60:g}" for seconds in [*budgets().values(), make_variable("REPORT_BUDGET_SECONDS")]}
    stated = re.findall(r"([\d.]+)(?:–[\d.]+)? minutes", text_of(path))
    assert set(stated) <= allowed, f"{path.name}: {stated} minutes, where the budgets are {sorted(allowed)}"


def test_the_readmes_samples_and_precision_targets_are_the_profiles():
    stated = re.findall(
        r"`(quick)` takes at least (\d+) samples of ≥ ([\d.]+) ms and aims at ±([\d.]+) %, "
        r"`(full)` at least (\d+) of ≥ ([\d.]+) ms and aims at ±([\d.]+) %",
        text_of(README),
    )
    assert len(stated) == 1, "the README states both profiles' sampling rules once"
    (row,) = stated
    for name, samples, sample_ms, target in (row[:4], row[4:]):
        assert (int(samples), float(sample_ms), float(target)) == profiles()[name], name


def test_the_readmes_argon2_grids_are_the_runners():
    text = text_of(README)
    expected = grids()
    for phrase, grid in (
        (r"The quick profile measures a (\d+) × (\d+) × (\d+) grid", "quick"),
        (r"the full profile the whole (\d+) × (\d+) × (\d+) grid", "full"),
        (r"a (\d+) × (\d+) × (\d+) grid for Argon2i", "full-other"),
    ):
        found = re.findall(phrase, text)
        assert found, f"the README gives the {grid} grid's size"
        assert all(tuple(map(int, f)) == expected[grid] for f in found), (grid, found, expected[grid])


def test_the_readmes_bcrypt_costs_are_the_runners():
    costs = bcrypt_costs()
    stated = re.findall(r"timed at costs (\d+)–(\d+)", text_of(README))
    assert stated == [(str(min(costs)), str(max(costs)))]
    assert costs == list(range(min(costs), max(costs) + 1)), "a range with no gap, as the README writes it"


@pytest.mark.parametrize("path", [README, ROOT / "docs" / "contributing.md"], ids=lambda p: p.name)
def test_no_figure_that_changes_with_every_run_is_stated_as_prose(path):
    """How many runs the repository has, how long one took, how large their files are: the Runs page and the
    published site compute those; a sentence stating them is out of date at the next run."""
    text = text_of(path)
    assert re.findall(r"\b\d+ (?:committed |published |repeated )?runs\b", text) == [], "a count of the runs"
    assert re.findall(r"\b\d+:\d\d\b", text) == [], "a duration measured once (m:ss)"
    assert re.findall(r"takes about [\d.]+ (?:minutes|hours)", text) == [], "a budget is at most, not about"
    # (GitHub Pages' 1 GB limit is GitHub's figure, not the runs'.)
    assert re.findall(r"\b\d+(?:\.\d+)? MB\b", text) == [], "a size of the runs' files"


def makefile_seconds(name: str) -> int:
    found = re.search(rf"^{name} \?= (\d+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None, f"the Makefile sets {name}"
    return int(found.group(1))


def test_the_report_deadline_the_readme_states_is_the_makefiles_and_the_rehearsals_goal():
    """`make report` ends its experiments REPORT_SITE_SECONDS before its goal (--ends-by), counted from its
    start: the README says when, and `make rehearse` times the command against the same goal."""
    goal, site = makefile_seconds("REPORT_SECONDS"), makefile_seconds("REPORT_SITE_SECONDS")
    text = text_of(README)
    assert f"they end by {goal - site} s after `make report` started" in text
    assert f"fits in the {goal} s the Makefile's `REPORT_SECONDS` gives it" in text
    rehearsal = (ROOT / "scripts" / "rehearse.sh").read_text(encoding="utf-8")
    assert re.search(rf"^step report {goal} \"\$apt_seconds\" report$", rehearsal, re.MULTILINE)
    assert 0 < site < goal - budgets()["quick"], "the quick profile's whole budget fits when the setup is quick"

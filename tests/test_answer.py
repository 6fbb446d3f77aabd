"""The one-minute answer (presentation/answer.py, templates/_answer.md.j2): every experiment page opens
with it, the home page shows the same answer for every experiment, and it names its run, profile, the
spread its numbers carry and the run's caveats. Read from the built site (MkDocs), as a reader gets it."""

import dataclasses
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest
from markupsafe import Markup

from phpcb.experiments import registry
from phpcb.pages import build as site
from phpcb.presentation.answer import shared_caveats, spread_words
from phpcb.presentation.precision import Precision, Reached
from phpcb.statistics.spread import UNKNOWN, RunSpread
from phpcb.statistics.stats import Outliers

from .browser_support import measured_experiments
from .conftest import FIXTURE_RUNS, project_with

EXPERIMENTS = registry.discover()
# The experiments the repository's runs have: the others' pages say that no run has them yet, and answer nothing.
MEASURED = measured_experiments()  # once: it reads every run's manifest
ANSWERED = [e for e in EXPERIMENTS if e.name in MEASURED]
SITE = "https://site.example/"  # any base: links are compared resolved


class Blocks(HTMLParser):
    """Each `.pcb-answer` block of a page: its text and its links (resolved against the page's URL),
    without its title and without the home page's "Read the report" line; and every id of the page."""

    SKIPPED = ("admonition-title", "pcb-answer-more")

    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.blocks: dict[str, dict[str, list[str]]] = {}
        self.ids: set[str] = set()
        self._block: str | None = None
        self._depth = 0
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if self._block is None and "pcb-answer" in classes:
            name = next(c.removeprefix("pcb-answer-") for c in classes if c.startswith("pcb-answer-"))
            self._block = name
            self.blocks[name] = {"text": [], "links": []}
        if self._block is not None:
            self._depth += 1
            if any(c in self.SKIPPED for c in classes) or self._skip:
                self._skip += 1
            elif tag == "a" and found.get("href"):
                self.blocks[self._block]["links"].append(urljoin(self.url, str(found["href"])))

    def handle_endtag(self, tag: str) -> None:
        if self._block is not None:
            self._depth -= 1
            if self._skip:
                self._skip -= 1
            if self._depth == 0:
                self._block = None

    def handle_data(self, data: str) -> None:
        if self._block is not None and not self._skip:
            self.blocks[self._block]["text"].append(data)


def read(built: Path, path: str) -> Blocks:
    parsed = Blocks(SITE + path)
    parsed.feed((built / path / "index.html").read_text(encoding="utf-8"))
    return parsed


def said(block: dict[str, list[str]]) -> tuple[str, list[str]]:
    return " ".join("".join(block["text"]).split()), block["links"]


@pytest.fixture(scope="module")
def home(built_site: Path) -> Blocks:
    return read(built_site, "")


@pytest.mark.parametrize("experiment", ANSWERED, ids=lambda e: e.name)
def test_the_home_page_and_the_experiment_page_give_the_same_answer(built_site, home, experiment):
    page = read(built_site, f"experiments/{experiment.name}/")
    assert list(page.blocks) == [experiment.name], "one answer on the page, its own"
    text, links = said(page.blocks[experiment.name])
    assert "Run 2" in text, "the answer names its run"
    assert " profile, on " in text, "and its profile"
    assert re.search(r" profile, on [a-z]+-[a-z]+-[a-z0-9]+-\d+c-[0-9a-f]{6}, ", text), "and its machine by name"
    assert "95% CI" in text, "and the spread of its number"
    assert (text, links) == said(home.blocks[experiment.name]), "the home page says what the page says"


@pytest.mark.parametrize("experiment", ANSWERED, ids=lambda e: e.name)
def test_the_page_opens_with_the_answer(built_site, experiment):
    html = (built_site / "experiments" / experiment.name / "index.html").read_text(encoding="utf-8")
    after_the_title = html.partition("</h1>")[2].lstrip()
    assert after_the_title.startswith(f'<div class="admonition success pcb-answer pcb-answer-{experiment.name}">')


@pytest.mark.parametrize("experiment", ANSWERED, ids=lambda e: e.name)
def test_every_link_of_the_answer_reaches_a_section_that_exists(built_site, experiment):
    links = read(built_site, f"experiments/{experiment.name}/").blocks[experiment.name]["links"]
    assert len(links) >= 3, "the run, and at least two sections of evidence"
    for link in links:
        path, _, anchor = link.removeprefix(SITE).partition("#")
        assert (built_site / path / "index.html").is_file(), link
        assert anchor == "" or anchor in read(built_site, path).ids, f"{link}: no such section"


def test_the_home_page_shows_an_answer_for_every_experiment_in_the_registrys_order(home):
    assert list(home.blocks) == [e.name for e in ANSWERED]


@pytest.mark.parametrize(
    "experiment", [e for e in EXPERIMENTS if e not in ANSWERED] or [None], ids=lambda e: e.name if e else "none"
)
def test_a_page_no_run_has_data_for_says_so_and_answers_nothing(built_site, experiment):
    if experiment is None:
        assert len(ANSWERED) == len(EXPERIMENTS), "every experiment has a run"
        return
    page = read(built_site, f"experiments/{experiment.name}/")
    assert page.blocks == {}, "no answer without a run"
    html = (built_site / "experiments" / experiment.name / "index.html").read_text(encoding="utf-8")
    assert f"php runners/bench.php run --only {experiment.name}" in html


def test_the_answer_carries_the_pages_stability_warning(built_site):
    """The run's warnings are the page's "may be unstable" box, word for word, in its answer and on the
    home page (the repository's runs have some: else this proves nothing)."""
    warned = 0
    for experiment in ANSWERED:
        html = (built_site / "experiments" / experiment.name / "index.html").read_text(encoding="utf-8")
        box = html.partition("numbers may be unstable</p>")[2].partition("</div>")[0]
        warnings = [" ".join(item.partition("</li>")[0].split()).rstrip(".") for item in box.split("<li>")[1:]]
        text = said(read(built_site, f"experiments/{experiment.name}/").blocks[experiment.name])[0]
        for warning in warnings:
            assert warning.replace("&#39;", "'") in text, f"{experiment.name}: {warning}"
        warned += bool(warnings)
    assert warned >= 2


def test_the_spread_and_the_caveats_are_said_from_the_run():
    assert spread_words(UNKNOWN) == "95% CIs within this one run (no repeated runs of this machine and stack)"
    across = RunSpread(0.05, runs=("a", "b", "c"), profile="quick", stand_in=True, ratio_log_sd=0.02)
    assert spread_words(across) == (
        "95% CIs across runs of this machine on one boot (3 quick-profile runs), times widened by a stated "
        "allowance of ±10% for another boot, not yet measured; ratios of two cases by their spread within the boot "
        "(a shift common to the boot cancels in them)"
    )
    of_php = RunSpread(0.05, runs=("20260101T0000Z-m-php8.2", "20260102T0000Z-m-php8.2"), profile="quick", boots=2)
    assert spread_words(of_php) == "95% CIs across runs and boots of this machine (2 runs of PHP 8.2 from 2 boots)"
    stacks = ("20260101T0000Z-m-php8.2", "20260101T0100Z-m-php8.4-debian13")
    assert "(2 runs of PHP 8.2 and 8.4 from 2 boots)" in spread_words(RunSpread(0.05, runs=stacks, boots=2))
    quiet = Precision(None, 100, Outliers(0, 0), None, Reached(10, 10, 0.03))
    assert shared_caveats(quiet, "full") == ()
    (quick,) = shared_caveats(quiet, "quick")
    assert "quick-profile run" in quick
    assert "±3 %" in quick
    noisy = Precision(None, 100, Outliers(30, 0), None, Reached(10, 2, 0.01))
    (unstable,) = shared_caveats(noisy, "full")
    assert unstable.startswith("This run's numbers may be unstable: 30 of its 100 samples")
    assert "only 2 of 10 cases reached ±1 %" in unstable


def test_each_answer_is_made_from_the_context_the_page_renders(tmp_path):
    built = site.build(project_with(tmp_path, *FIXTURE_RUNS))
    for page in built.experiments:
        assert page.answer is not None, page.experiment.name
        # The lines on how many machines × stacks it holds are the build's, from the Machines page's rows.
        assert dataclasses.replace(page.answer, holds=()) == page.experiment.answer(page.context)
        assert len(page.answer.holds) == len(page.answer.headlines) > 0
        assert page.run is not None
        assert page.run.has_results(page.experiment.name)
        assert (page.answer.run_id, page.answer.profile) == (page.run.run_id, "quick")
        assert page.run.run_id in {run.name for run in FIXTURE_RUNS}
        assert any("quick-profile run" in caveat for caveat in page.answer.caveats)
        assert page.text.index(f"pcb-answer-{page.experiment.name}") < page.text.index("!!! question")
    first = built.experiments[0]

    class WithItsOwnCaveat(type(first.experiment)):
        def finding(self, context):
            return dataclasses.replace(super().finding(context), caveats=(Markup("its own"),))

    caveats = WithItsOwnCaveat().answer(first.context).caveats
    assert caveats == (Markup("its own"), *first.answer.caveats), "an experiment's own caveat first, then the run's"

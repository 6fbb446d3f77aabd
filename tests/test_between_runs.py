"""Ratios widened by the spread between runs of a machine (between_runs.py, spread.RunSpread)."""

import math
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

import numpy as np
import pytest

from phpcb.compare import advice_changes
from phpcb.data import noise_model
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts, Project
from phpcb.pages import build as site
from phpcb.statistics.between_runs import widened
from phpcb.statistics.spread import UNKNOWN, Z_95, RunSpread
from phpcb.statistics.stats import Ratio

from .conftest import FIXTURE_RUN, ROOT, committed_run_dirs

SCHEMAS = load_schemas(ROOT / "data" / "schema")
SPREAD = RunSpread(0.05, ("a", "b", "c"), "quick", ratio_log_sd=0.03)


def test_a_ratio_gains_the_spread_between_runs_in_quadrature_with_its_own():
    ratio = Ratio(2.0, 1.9, 2.2)
    wider = SPREAD.widen_ratio(ratio)
    below = math.hypot(math.log(2.0 / 1.9), Z_95 * 0.03)
    above = math.hypot(math.log(2.2 / 2.0), Z_95 * 0.03)
    assert wider == Ratio(2.0, pytest.approx(2.0 * math.exp(-below)), pytest.approx(2.0 * math.exp(above)))
    assert wider.low < ratio.low
    assert wider.high > ratio.high


def test_a_close_ratio_that_was_significant_in_one_run_is_not_across_runs():
    ratio = Ratio(1.06, 1.05, 1.07)  # 6 % faster, a tight CI within the run
    assert ratio.significant
    assert not SPREAD.widen_ratio(ratio).significant, "±6 % between runs covers it"
    assert SPREAD.widen_ratio(Ratio(1.5, 1.45, 1.55)).significant


@pytest.mark.parametrize("ratio", [Ratio(2.0, 1.9, 2.2), Ratio(2.0, -math.inf, math.inf), Ratio(math.nan, 1, 2)])
def test_without_a_model_or_a_finite_ci_the_ratio_is_left_as_it_is(ratio):
    assert UNKNOWN.widen_ratio(Ratio(2.0, 1.9, 2.2)) == Ratio(2.0, 1.9, 2.2)
    if not (math.isfinite(ratio.value) and math.isfinite(ratio.high) and ratio.low > 0):
        assert SPREAD.widen_ratio(ratio) is ratio


@dataclass(frozen=True)
class Pick:
    name: str
    margin: Ratio


class Pair(NamedTuple):
    first: Ratio
    second: str


@dataclass(frozen=True)
class Overhead:
    WITHIN_RUN_ONLY: ClassVar[bool] = True
    ratio: Ratio


@dataclass(frozen=True)
class Analysis:
    picks: list[Pick]
    by_name: dict[str, Ratio]
    pair: Pair
    overhead: Overhead
    samples: np.ndarray
    plain: tuple[int, ...]


def test_every_ratio_inside_an_analysis_is_widened_except_checks_of_the_method():
    ratio = Ratio(2.0, 1.9, 2.1)
    analysis = Analysis([Pick("x", ratio)], {"y": ratio}, Pair(ratio, "z"), Overhead(ratio), np.ones(3), (1, 2))
    wider = SPREAD.widen_ratio(ratio)
    result = widened(analysis, SPREAD.widen_ratio)
    assert result.picks == [Pick("x", wider)]
    assert result.by_name == {"y": wider}
    assert result.pair == Pair(wider, "z")
    assert isinstance(result.pair, Pair)
    assert result.overhead is analysis.overhead, "a check of the method keeps its own CI"
    assert result.samples is analysis.samples
    assert result.plain is analysis.plain
    assert widened(analysis, lambda r: r) is analysis, "nothing changed: the same object"


def test_with_a_noise_model_the_site_states_close_picks_as_ties(make_project):
    """The fixture run's AEAD picks, under the fake clock's 1.2× to 2× margins, are decided within the run;
    a model of its machine that says cases move ±30 % between runs makes every one of them a tie,
    on the page and in the advice, and the page says which spread its ratios carry."""
    root = make_project(FIXTURE_RUN)
    (root / "data" / "site.yaml").write_text(
        "reference_machine: intel-xeon-unknown-2c-2e892e\npinned: {}\n", encoding="utf-8"
    )
    # The picks are the AEAD experiment's: its advice alone is read, with and without the model.
    before = {
        a.key: a for a in advice_changes.of_run(load_run(FIXTURE_RUN, SCHEMAS), Contexts(Project(root)), ["aead"])
    }
    classes = {"aead": {"all": noise_model.ClassNoise(cases=80, shift_log_sd=0.05, residual_log_sd=0.3)}}
    noise_model.save(root, "intel-xeon-unknown-2c-2e892e", noise_model.ProfileNoise("quick", ("a", "b", "c"), classes))
    sources = site.load(root)  # with the model: the advice after it and the page read one analysis
    (run,) = sources.runs
    after = {a.key: a for a in advice_changes.of_run(run, sources.contexts, ["aead"])}
    picks = [key for key in before if key.startswith("aead.fastest-recommended.")]
    decided = [key for key in picks if not before[key].tie]
    assert decided, "some picks are decided within the run"
    assert all(after[key].tie for key in decided), "and none across runs ±30 %"
    page = site.build(root, sources=sources).pages["experiments/aead.md"]
    assert "Ratios of two cases and the picks they decide: 95 % across runs" in page
    assert "no measurable difference" in page.split("## Recommendation", 1)[1].split("**Recommendation.**", 1)[0]
    assert (
        "95% CIs across runs of this machine on one boot (3 runs), times widened by a stated allowance of ±10% "
        "for another boot, not yet measured; ratios of two cases by their spread within the boot"
        in page.split("!!! question", 1)[0]
    ), "the answer says which spread its numbers carry"


def test_a_ratio_the_aead_page_prints_covers_the_ratio_of_its_tables_medians():
    """One quantity, one number: the GCM/CCM ratios (paired, across runs) against MB/s the throughput
    table prints for the same two cases, in every quick run of the reference machine."""
    contexts = Contexts(Project(ROOT))
    aead = next(e for e in registry.discover() if e.name == "aead")
    runs = [directory for directory in committed_run_dirs() if directory.name.endswith("-amd-epyc-fb7fc6-php8.2")]
    assert len(runs) >= 8
    for directory in runs:
        analysis = contexts.context(aead, load_run(directory, SCHEMAS))["analysis"]
        for comparison in analysis.gcm_vs_ccm:
            gcm = analysis.case(comparison.subject, comparison.operation, comparison.payload_bytes)
            ccm = analysis.case(comparison.baseline, comparison.operation, comparison.payload_bytes)
            pooled = ccm.summary.median_ns / gcm.summary.median_ns
            assert comparison.ratio.low <= pooled <= comparison.ratio.high, (directory.name, comparison)

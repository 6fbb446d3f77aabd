"""What a run would change in the site's advice: statements per experiment, diffed between runs."""

from __future__ import annotations

import functools
from pathlib import Path

from phpcb.compare import advice_changes
from phpcb.data.loader import Run, load_run
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts, Project
from phpcb.presentation.advice import Advice, AdviceChange, diff, direction, pick
from phpcb.statistics.contest import Contest
from phpcb.statistics.stats import Ratio

from .conftest import FIXTURE_RUNS, ROOT, committed_run_dirs

SCHEMAS = load_schemas(ROOT / "data" / "schema")
CONTEXTS = Contexts(Project(ROOT))
ARGON2_QUICK = "20261122T0342Z-vm-php8.2"
ARGON2_FULL = "20261122T0506Z-vm-php8.2"


@functools.cache
def loaded(directory: Path) -> Run:
    """One run, loaded once per test process and only when a test reads it: these tests read a few of the
    committed runs, not all of them."""
    return load_run(directory, SCHEMAS)


def committed(run_id: str) -> Run:
    return loaded(ROOT / "data" / "runs" / run_id)


def one_run_per_experiment() -> dict[str, tuple[Run, list[str]]]:
    """For each experiment, the newest committed run with its results, else a fixture run's (experiments
    added since, or only another stack runs): which experiments to read from which run, by run id.
    Analysing every experiment of every run cost most of this module's time; a real run per experiment
    proves each states its advice. The runs are loaded newest first until each experiment has its run."""
    chosen: dict[str, tuple[Run, list[str]]] = {}
    candidates = [*reversed(committed_run_dirs()), *FIXTURE_RUNS]
    for experiment in registry.discover():
        run = next((loaded(path) for path in candidates if loaded(path).has_results(experiment.name)), None)
        if run is not None:
            chosen.setdefault(run.run_id, (run, []))[1].append(experiment.name)
    return chosen


def a(key: str, value: str) -> Advice:
    return Advice("x", key, key.upper(), value)


def test_diff_lists_changed_added_and_dropped_statements_in_order():
    base = [a("one", "1"), a("two", "2"), a("gone", "g")]
    new = [a("two", "2"), a("one", "uno"), a("added", "+")]
    assert diff(base, new) == [
        AdviceChange("x", "one", "ONE", "1", "uno"),
        AdviceChange("x", "gone", "GONE", "g", None),
        AdviceChange("x", "added", "ADDED", None, "+"),
    ]
    assert diff(base, base) == []


def test_direction_and_pick_follow_the_pages_noise_rule():
    assert direction("A", "B", Ratio(1.5, 1.4, 1.6)) == "A faster than B"
    assert direction("A", "B", Ratio(0.5, 0.4, 0.6)) == "B faster than A"
    assert direction("A", "B", Ratio(1.01, 0.99, 1.03)) == "no measurable difference between A and B"
    assert pick("A", "B", Ratio(1.01, 0.99, 1.03)) == "A or B (no measurable difference)"
    assert pick("A", "B", Ratio(2.0, 1.9, 2.1)) == "A"
    assert pick(None, None, None) == "none"


def test_a_tie_reads_the_same_whichever_of_the_two_measured_faster():
    close = Ratio(1.01, 0.99, 1.03)
    assert pick("B", "A", close) == pick("A", "B", close)
    assert direction("B", "A", close) == direction("A", "B", close)
    tie = Advice.of_contest("x", "k", "K", Contest("B", (("A", close), ("C", Ratio(1.5, 1.4, 1.6)))))
    assert (tie.value, tie.options, tie.tie) == ("A or B (no measurable difference)", ("A", "B"), True)
    three = Advice.of_contest("x", "k", "K", Contest("B", (("C", close), ("A", close))))
    assert three.value == "A, B or C (no measurable difference)"
    decided = Advice.of_contest("x", "k", "K", Contest("B", (("A", Ratio(2.0, 1.9, 2.1)),)))
    assert (decided.value, decided.options, decided.tie) == ("B", ("B",), False)
    assert Advice.of_contest("x", "k", "K", None).value == "none"
    assert Advice.of_direction("x", "k", "K", "B", "A", close).options == ("A", "B")
    assert Advice.of_direction("x", "k", "K", "B", "A", Ratio(0.5, 0.4, 0.6)).options == ("A",), "A is faster"


def test_a_statement_that_moves_within_a_tie_is_marked_as_one():
    tie = Advice("x", "pick", "PICK", "A or B (no measurable difference)", ("A", "B"))
    (within,) = diff([tie], [Advice("x", "pick", "PICK", "B", ("B",))])
    assert within.tie, "B is one of the tie's options: not a change of the advice"
    (beyond,) = diff([tie], [Advice("x", "pick", "PICK", "C", ("C",))])
    assert not beyond.tie, "C was not among them"
    (decided,) = diff([Advice("x", "pick", "PICK", "A", ("A",))], [Advice("x", "pick", "PICK", "B", ("B",))])
    assert not decided.tie, "two decisive statements that differ are a change"
    (dropped,) = diff([tie], [])
    assert not dropped.tie
    (verdicts,) = diff([a("verdict", "acceptable")], [a("verdict", "recommended")])
    assert not verdicts.tie, "a statement without options is never a tie"


def test_an_order_that_only_swaps_neighbours_one_run_ties_is_not_a_change():
    def order(*groups):
        return Advice.of_order("x", "order", "ORDER", groups)

    assert order(("a",), ("b", "c"), ("d",)).value == "a < b ≈ c < d"
    assert diff([order(("a",), ("b", "c"), ("d",))], [order(("a",), ("c",), ("b",), ("d",))])[0].tie
    assert diff([order(("a",), ("b",), ("c",))], [order(("a",), ("b", "c"))])[0].tie
    swapped = diff([order(("a",), ("b",), ("c",))], [order(("b",), ("a",), ("c",))])
    assert not swapped[0].tie, "a < b in one run, b < a in the other, neither a tie: a change"
    assert not diff([order(("a",), ("b",))], [order(("a",), ("c",))])[0].tie, "other options"


def test_every_experiment_states_its_advice_from_a_real_run():
    """From a committed run of each experiment, or a fixture run for one no committed run has (added since,
    or only another stack runs it): one_run_per_experiment."""
    covered = set()
    for run, experiments in one_run_per_experiment().values():
        for statement in advice_changes.of_run(run, CONTEXTS, experiments):
            covered.add(statement.experiment)
            assert statement.key.startswith(statement.experiment + ".")
            assert statement.value
    assert covered == {e.name for e in registry.discover()}


def test_the_full_argon2_grid_changes_the_budget_picks_of_the_quick_one():
    changes = {c.key: c for c in advice_changes.changes(committed(ARGON2_QUICK), committed(ARGON2_FULL), CONTEXTS)}
    budget = changes["argon2.budget.1000"]
    assert budget.label == "Argon2 pick for 1000 ms"
    assert budget.base == "m=64 MiB, t=3, p=2"
    # The full grid's pick rests on 5 hashes, fewer than a 95 % CI needs: it says so (issue 37).
    assert budget.new == "m=256 MiB, t=3, p=2 (provisional: 5 hashes, fewer than the 6 a 95% CI needs)"
    assert not any(key.startswith("argon2.verdict.") for key in changes), "the policy did not change"


def test_a_run_compared_with_itself_changes_nothing():
    assert advice_changes.changes(committed(ARGON2_FULL), committed(ARGON2_FULL), CONTEXTS) == []

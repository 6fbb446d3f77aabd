"""The articles, checked: the claims page. It wires the judge (claims/judge.py) to the experiments,
each claim measured by its experiment's measure on the run the judge picks, and renders the verdicts
with the ledger's vocabulary (claims/vocabulary.py), which the template receives from the code."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from phpcb.claims import vocabulary
from phpcb.claims.judge import Checked, Judge, MeasureRun, Tally, by_source, left_out_by_source, runs_used
from phpcb.claims.ledger import Claim, Ledger, load_ledger
from phpcb.claims.results import Args, ArgumentError, Result
from phpcb.data.loader import Run
from phpcb.data.selection import Choice
from phpcb.errors import DataError
from phpcb.experiments.contexts import Contexts
from phpcb.experiments.experiment import Experiment
from phpcb.presentation.render import render

PAGE = "claims.md"
CLAIMS_FILE = ("data", "reference", "claims.yaml")


def measurer(experiments: dict[str, Experiment], contexts: Contexts, ledger: Ledger, path: Path) -> MeasureRun:
    """A claim's measure on a run: its experiment's function, given that experiment's page context for
    the run (so the numbers match that page), its inputs, and the claim's args with the ledger's facts."""

    def measure(claim: Claim, run: Run) -> Result:
        experiment = experiments[claim.experiment]
        function = experiment.measures().get(claim.measure or "")
        if function is None:
            known = sorted(experiment.measures())
            raise DataError(
                path, f"claims/{claim.id}: {experiment.name} has no measure {claim.measure!r} (it has {known})"
            )
        context = contexts.context(experiment, run)
        try:
            return function(context, contexts.inputs(experiment), Args(claim.args, ledger.facts))
        except ArgumentError as error:
            raise DataError(path, f"claims/{claim.id}: {error}") from None

    return measure


def check(
    root: Path, experiments: list[Experiment], runs: list[Run], choice: Choice, contexts: Contexts
) -> tuple[Ledger, list[Checked]]:
    """The ledger and every claim's verdict, in the file's order."""
    path = root.joinpath(*CLAIMS_FILE)
    ledger = load_ledger(path)
    by_name = {e.name: e for e in experiments}
    judge = Judge(set(by_name), runs, choice, measurer(by_name, contexts, ledger, path), path)
    return ledger, [judge.one(claim) for claim in ledger.claims]


def render_page(
    ledger: Ledger,
    checked: list[Checked],
    experiments: list[Experiment],
    runs: list[Run],
    templates: Any,
    anchor: Callable[[str], str],
) -> str:
    return render(
        templates,
        "claims.md.j2",
        criterion=ledger.criterion,
        verdicts=vocabulary.VERDICT_TERMS,
        tolerances=vocabulary.TOLERANCES,
        tally=Tally.of(checked),
        groups=by_source(checked),
        runs_used={key: runs_used(members) for key, members in by_source(checked)},
        left_out=left_out_by_source(ledger.left_out),
        titles={e.name: e.title for e in experiments},
        anchors={run.run_id: anchor(run.run_id) for run in runs},
    )

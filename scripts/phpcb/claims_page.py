"""The articles, checked: every claim of data/reference/claims.yaml judged against the run each
experiment page shows (selection.py's rule), with the measurement, its run and machine, and a verdict."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import environment as env_rows
from . import selection
from .claim_data import Claim, load_claims
from .claim_rules import VERDICTS, Args, ArgumentError, Decision, Result, Unavailable, decide, measured
from .errors import DataError
from .experiment import Experiment
from .loader import Run
from .machines import machine_name
from .render import render

if TYPE_CHECKING:
    from .site import Choice, Contexts

PAGE = "claims.md"
CLAIMS_FILE = ("data", "reference", "claims.yaml")


@dataclass(frozen=True)
class Checked:
    """One claim with its verdict, what was measured, and the run (and machine) that measured it."""

    claim: Claim
    decision: Decision
    measured: str
    run: Run | None
    machine: str

    @property
    def verdict(self) -> str:
        return self.decision.verdict


@dataclass(frozen=True)
class Tally:
    """How many claims got each verdict, in VERDICTS' order, e.g. "3 reproduced, 1 refuted"."""

    counts: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, checked: list[Checked]) -> Tally:
        found = Counter(c.verdict for c in checked)
        return cls(tuple((verdict, found[verdict]) for verdict in VERDICTS if found[verdict]))

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counts)

    def __str__(self) -> str:
        return ", ".join(f"{n} {verdict}" for verdict, n in self.counts)


def _measure(claim: Claim, experiment: Experiment, context: dict[str, Any], inputs: Any, path: Path) -> Result:
    function = experiment.measures().get(claim.measure)
    if function is None:
        known = sorted(experiment.measures())
        raise DataError(path, f"claims/{claim.id}: {experiment.name} has no measure {claim.measure!r} (it has {known})")
    try:
        return function(context, inputs, Args(claim.args))
    except ArgumentError as error:
        raise DataError(path, f"claims/{claim.id}: {error}") from None


def check_one(
    claim: Claim, experiments: dict[str, Experiment], runs: list[Run], choice: Choice, contexts: Contexts, path: Path
) -> Checked:
    for name in (claim.page, claim.experiment):
        if name not in experiments:
            raise DataError(path, f"claims/{claim.id}: no experiment {name!r} (known: {sorted(experiments)})")
    experiment = experiments[claim.experiment]
    chosen = selection.shown(runs, experiment.name, choice.config, choice.focus)
    if chosen is None:
        result: Result = Unavailable(f"no run has results for {experiment.name}")
        return Checked(claim, decide(claim.rule, result), measured(result, claim.rule), None, "")
    context = contexts.context(experiment, chosen.run)
    result = _measure(claim, experiment, context, contexts.inputs(experiment), path)
    machine = f"{machine_name(chosen.run.manifest)} ({env_rows.short(chosen.run.manifest)})"
    return Checked(claim, decide(claim.rule, result), measured(result, claim.rule), chosen.run, machine)


def check(
    root: Path, experiments: list[Experiment], runs: list[Run], choice: Choice, contexts: Contexts
) -> list[Checked]:
    """Every claim's verdict, in the file's order."""
    path = root.joinpath(*CLAIMS_FILE)
    by_name = {e.name: e for e in experiments}
    return [check_one(claim, by_name, runs, choice, contexts, path) for claim in load_claims(path)]


def by_page(checked: list[Checked]) -> dict[str, Tally]:
    """Each experiment page's one-line summary of the claims that belong to it."""
    pages: dict[str, list[Checked]] = {}
    for c in checked:
        pages.setdefault(c.claim.page, []).append(c)
    return {page: Tally.of(members) for page, members in pages.items()}


def by_source(checked: list[Checked]) -> list[tuple[str, list[Checked]]]:
    """The claims grouped by article, in the order the file lists them."""
    groups: dict[str, list[Checked]] = {}
    for c in checked:
        groups.setdefault(c.claim.source.key, []).append(c)
    return list(groups.items())


def render_page(
    checked: list[Checked], experiments: list[Experiment], runs: list[Run], templates: Any, anchor: Callable[[str], str]
) -> str:
    return render(
        templates,
        "claims.md.j2",
        tally=Tally.of(checked),
        groups=by_source(checked),
        titles={e.name: e.title for e in experiments},
        anchors={run.run_id: anchor(run.run_id) for run in runs},
    )

"""The articles, checked: every claim of data/reference/claims.yaml judged once, against the run each
experiment page shows (selection.py's rule), with the measurement, its run and machine, and a verdict.
The experiment pages and the home page read these verdicts; none judges a claim on its own.

When the page shows the run `make report` just measured (a quick run) and that run cannot decide a
claim (a payload only the full profile measures), the claim is judged from the run the rule picks
without it, and the entry says so."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phpcb.data import selection
from phpcb.data.loader import Run
from phpcb.data.machines import machine_name
from phpcb.data.selection import Choice
from phpcb.errors import DataError
from phpcb.experiments.contexts import Contexts
from phpcb.experiments.experiment import Experiment
from phpcb.presentation import environment as env_rows
from phpcb.presentation.claim_data import Claim, Ledger, LeftOut, load_ledger
from phpcb.presentation.claim_rules import (
    VERDICTS,
    Args,
    ArgumentError,
    Decision,
    Fact,
    Result,
    Unavailable,
    decide,
    measured,
    published,
)
from phpcb.presentation.render import render

PAGE = "claims.md"
CLAIMS_FILE = ("data", "reference", "claims.yaml")


@dataclass(frozen=True)
class Checked:
    """One claim with its verdict, what was measured, and the run (and machine) that measured it;
    `instead` says why that is not the run the claim's page shows, when it is not."""

    claim: Claim
    decision: Decision
    measured: str
    run: Run | None
    machine: str
    instead: str = ""

    @property
    def verdict(self) -> str:
        return self.decision.verdict

    @property
    def figure(self) -> str:
        """The claimed factor as the article printed it ("3x"), for a factor claim; else its quote."""
        return published(self.claim.rule) if self.claim.rule.kind == "factor" else self.claim.quote


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


@dataclass(frozen=True)
class Judge:
    """What judging a claim needs: the experiments, the runs, how pages pick runs, their contexts."""

    experiments: dict[str, Experiment]
    runs: list[Run]
    choice: Choice
    contexts: Contexts
    facts: dict[str, Fact]
    path: Path

    def measure(self, claim: Claim, run: Run) -> Result:
        experiment = self.experiments[claim.experiment]
        function = experiment.measures().get(claim.measure)
        if function is None:
            known = sorted(experiment.measures())
            raise DataError(
                self.path, f"claims/{claim.id}: {experiment.name} has no measure {claim.measure!r} (it has {known})"
            )
        context = self.contexts.context(experiment, run)
        try:
            return function(context, self.contexts.inputs(experiment), Args(claim.args, self.facts))
        except ArgumentError as error:
            raise DataError(self.path, f"claims/{claim.id}: {error}") from None

    def checked(self, claim: Claim, result: Result, run: Run | None, instead: str = "") -> Checked:
        machine = f"{machine_name(run.manifest)} ({env_rows.short(run.manifest)})" if run is not None else ""
        return Checked(claim, decide(claim.rule, result), measured(result, claim.rule), run, machine, instead)

    def one(self, claim: Claim) -> Checked:
        for name in (claim.page, claim.experiment):
            if name not in self.experiments:
                raise DataError(
                    self.path, f"claims/{claim.id}: no experiment {name!r} (known: {sorted(self.experiments)})"
                )
        name = claim.experiment
        shown = selection.shown(self.runs, name, self.choice.config, self.choice.focus)
        if shown is None:
            return self.checked(claim, Unavailable(f"no run has results for {name}"), None)
        result = self.measure(claim, shown.run)
        if isinstance(result, Unavailable) and shown.focus:
            published = selection.reference(self.runs, name, self.choice.config)
            if published is not None and published.run is not shown.run:
                fallback = self.measure(claim, published.run)
                if not isinstance(fallback, Unavailable):
                    instead = (
                        f"decided by {published.run.run_id} ({published.reason}): "
                        f"the run this page shows cannot ({result.why})"
                    )
                    return self.checked(claim, fallback, published.run, instead)
        return self.checked(claim, result, shown.run)


def check(
    root: Path, experiments: list[Experiment], runs: list[Run], choice: Choice, contexts: Contexts
) -> tuple[Ledger, list[Checked]]:
    """The ledger and every claim's verdict, in the file's order."""
    path = root.joinpath(*CLAIMS_FILE)
    ledger = load_ledger(path)
    judge = Judge({e.name: e for e in experiments}, runs, choice, contexts, ledger.facts, path)
    return ledger, [judge.one(claim) for claim in ledger.claims]


def on_page(checked: list[Checked], page: str) -> list[Checked]:
    """The claims an experiment page lists, in the ledger's order."""
    return [c for c in checked if c.claim.page == page]


def by_id(checked: list[Checked]) -> dict[str, Checked]:
    return {c.claim.id: c for c in checked}


def by_source(checked: list[Checked]) -> list[tuple[str, list[Checked]]]:
    """The claims grouped by article, in the order the file lists them."""
    groups: dict[str, list[Checked]] = {}
    for c in checked:
        groups.setdefault(c.claim.source.key, []).append(c)
    return list(groups.items())


@dataclass(frozen=True)
class RunUse:
    """A run that judged some of a group's claims: said once above the group's table. `pages` counts its
    claims per experiment page, in order; `instead`: the claims it decided in place of the run their
    page shows (each row names it too, with why)."""

    run: Run
    machine: str
    pages: tuple[tuple[str, int], ...]
    instead: bool

    @property
    def claims(self) -> int:
        return sum(n for _, n in self.pages)


def runs_used(members: list[Checked]) -> list[RunUse]:
    """The runs that judged these claims, in the order they first appear (claims no run judged left out)."""
    groups: dict[tuple[str, bool], tuple[Run, str, list[str]]] = {}
    for c in members:
        if c.run is not None:
            groups.setdefault((c.run.run_id, bool(c.instead)), (c.run, c.machine, []))[2].append(c.claim.page)
    return [
        RunUse(run, machine, tuple(Counter(pages).items()), instead)
        for (_, instead), (run, machine, pages) in groups.items()
    ]


def left_out_by_source(left_out: list[LeftOut]) -> dict[str, list[LeftOut]]:
    groups: dict[str, list[LeftOut]] = {}
    for item in left_out:
        groups.setdefault(item.source.key, []).append(item)
    return groups


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
        tally=Tally.of(checked),
        groups=by_source(checked),
        runs_used={key: runs_used(members) for key, members in by_source(checked)},
        left_out=left_out_by_source(ledger.left_out),
        titles={e.name: e.title for e in experiments},
        anchors={run.run_id: anchor(run.run_id) for run in runs},
    )

"""Every claim judged once, against the run each experiment page shows (data/selection.py's rule), with
the measurement, its run and machine, and a verdict. The experiment pages and the home page read these
verdicts; none judges a claim on its own.

When the page shows the run `make report` just measured (a quick run) and that run cannot decide a
claim (a payload only the full profile measures), the claim is judged from the run the rule picks
without it, and the entry says so. Likewise when the run the rule picks does not measure what a claim
needs (a cell a newer profile leaves out): the newest run that does, full-profile runs and the
reference machine first, decides it, named beside the verdict. The judge does not know the experiments:
it is given their names and a function that measures a claim on a run (the claims page wires it to each
experiment's measures)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from phpcb.claims.ledger import Claim, LeftOut
from phpcb.claims.results import Result, Unavailable
from phpcb.claims.rules import Decision, Untested, decide
from phpcb.claims.vocabulary import MISSING, UNTESTABLE, VERDICTS
from phpcb.claims.wording import measured, published, reason
from phpcb.data import selection
from phpcb.data.loader import Run
from phpcb.data.machines import machine_name
from phpcb.data.selection import Choice
from phpcb.errors import DataError
from phpcb.presentation import environment as env_rows

# Measures one claim on one run (a DataError naming the ledger when the claim's measure or args are wrong).
MeasureRun = Callable[[Claim, Run], Result]


@dataclass(frozen=True)
class Checked:
    """One claim with its verdict and why, what was measured, and the run (and machine) that measured it;
    `instead` says why that is not the run the claim's page shows, when it is not."""

    claim: Claim
    decision: Decision
    reason: str
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


def checked(claim: Claim, result: Result, run: Run | None, instead: str = "") -> Checked:
    """The claim's verdict from `result`, unless the ledger says nothing here can test it: then that,
    with the kind and why, and what the run measured beside it."""
    decision = decide(claim.rule, result)
    if claim.not_testable is not None:
        decision = Decision(UNTESTABLE, Untested(claim.not_testable.why, claim.not_testable.kind))
    machine = env_rows.short(run.manifest) if run is not None else ""
    return Checked(
        claim, decision, reason(decision, claim.rule, result), measured(result, claim.rule), run, machine, instead
    )


@dataclass(frozen=True)
class Judge:
    """What judging a claim needs: the experiments' names, the runs, how pages pick runs, and how to
    measure a claim on a run."""

    experiments: Collection[str]
    runs: list[Run]
    choice: Choice
    measure: MeasureRun
    path: Path

    def one(self, claim: Claim) -> Checked:
        for name in (claim.page, claim.experiment):
            if name not in self.experiments:
                raise DataError(
                    self.path, f"claims/{claim.id}: no experiment {name!r} (known: {sorted(self.experiments)})"
                )
        if claim.measure is None:
            assert claim.not_testable is not None  # the ledger refuses a claim with neither
            return checked(claim, Unavailable(claim.not_testable.why, kind=claim.not_testable.kind), None)
        name = claim.experiment
        shown = selection.shown(self.runs, name, self.choice.config, self.choice.focus)
        if shown is None:
            return checked(claim, Unavailable(f"no run has results for {name}"), None)
        result = self.measure(claim, shown.run)
        if not isinstance(result, Unavailable) or claim.not_testable is not None or not result.elsewhere:
            return checked(claim, result, shown.run)
        for run, because in self.stand_ins(name, shown, result):
            fallback = self.measure(claim, run)
            if not isinstance(fallback, Unavailable):
                instead = f"decided by {run.run_id} ({because}): the run this page shows cannot ({result.why})"
                return checked(claim, fallback, run, instead)
        return checked(claim, result, shown.run)

    def stand_ins(self, experiment: str, shown: selection.Selection, result: Unavailable) -> list[tuple[Run, str]]:
        """The runs that may decide a claim the shown run cannot, in turn, each with why it may: the run the
        rule picks when the page shows one of its own (make report's), then, when the shown run lacks what
        the claim needs, every other run of the experiment (measuring_first's order)."""
        found: list[tuple[Run, str]] = []
        if shown.focus:
            published_ = selection.reference(self.runs, experiment, self.choice.config)
            if published_ is not None and published_.run is not shown.run:
                found.append((published_.run, published_.reason))
        if result.kind == MISSING:
            because = "the newest run that measures it, full-profile runs and the reference machine first"
            found += [(run, because) for run in self.measuring_first(experiment, shown.run)]
        return found

    def measuring_first(self, experiment: str, shown: Run) -> list[Run]:
        """The other runs of `experiment` a claim may fall back to: full-profile before quick, the reference
        machine's before others', newest first within each."""
        reference = self.choice.config.reference_machine
        others = [run for run in self.runs if run is not shown and run.has_results(experiment)]
        return sorted(
            others,
            key=lambda run: (
                run.manifest["profile"] == selection.FULL,
                machine_name(run.manifest) == reference,
                str(run.manifest["started_utc"]),
            ),
            reverse=True,
        )


def on_page(checked_: list[Checked], page: str) -> list[Checked]:
    """The claims an experiment page lists, in the ledger's order."""
    return [c for c in checked_ if c.claim.page == page]


def by_id(checked_: list[Checked]) -> dict[str, Checked]:
    return {c.claim.id: c for c in checked_}


def by_source(checked_: list[Checked]) -> list[tuple[str, list[Checked]]]:
    """The claims grouped by article, in the order the file lists them."""
    groups: dict[str, list[Checked]] = {}
    for c in checked_:
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

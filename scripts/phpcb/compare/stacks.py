"""Two stacks on one machine (`make bench-stacks`): what got faster or slower from the older stack to the
newer, and what reads differently.

The runs of a set took turns in ABBA rounds on one machine, as `make ab` does for code: each round's
pair is compared, so what the machine did between runs minutes apart cancels. Cases decide, classes
summarise:

- each case's own newer/older time, the mean over rounds of its log ratio with a t CI, judged
  (Benjamini–Hochberg across every case of the set, and the one threshold of a difference) as `make ab`
  judges a class (ab.case_totals);
- each class's newer/older, the median of its cases' ratios (ab.py): a summary of the cases, not a
  verdict on them (a class can stand still while a third of its cases ran four times faster);
- each headline ratio of the pages (GCM over CCM, a PEM string over a key object: a ratio of two cases
  within a run, which no single case shows) on each stack, and its change (the same t CI over rounds);
- every statement the pages make (Experiment.advice: picks, recommendations, orders, verdicts) from
  each stack's run, round by round, diffed by the advice-change machinery (advice_changes.py): a
  statement reads differently on the newer stack when it does so in every round, beyond a tie; one that
  differs in some rounds only moved within the spread between runs. A statement both stacks make and
  read differently is a change of the advice; one only one stack makes is about what only it offers;
- what the newer stack offers or behaves differently in: ciphers PHP's OpenSSL lists (the symmetric
  experiment's inventory, whatever each can do), curves (ec_keygen's), and what the runner observed of
  PHP's openssl and sodium (each experiment's `verification.observed`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from phpcb.compare import ab, advice_changes
from phpcb.data.loader import Run
from phpcb.data.schema import Schemas
from phpcb.data.stacks import Stack, StackSet, stack_of
from phpcb.experiments.contexts import Contexts
from phpcb.experiments.experiment import Experiment
from phpcb.presentation.headlines import TIMES


@dataclass(frozen=True)
class StatementChange:
    """A statement whose value differs between the stacks' runs in `rounds` of the set's rounds."""

    experiment: str
    key: str
    label: str
    older: str | None  # its most common value on the older stack
    newer: str | None
    rounds: int  # the rounds in which it differs beyond a tie
    of_rounds: int

    @property
    def every_round(self) -> bool:
        return self.rounds == self.of_rounds

    @property
    def both_state(self) -> bool:
        """Both stacks make the statement (a change of the advice when it differs), rather than only one
        (what only that stack offers: a cipher only the newer OpenSSL lists)."""
        return self.older is not None and self.newer is not None


@dataclass(frozen=True)
class Offer:
    """An item one stack's run lists and the other's does not, with what the run says it does."""

    name: str
    status: str


@dataclass(frozen=True)
class Inventory:
    """What one stack offers that the other does not: every item its run lists (a cipher in
    openssl_get_cipher_methods(), a curve in openssl_get_curve_names()), whatever the run found it can do."""

    title: str
    experiment: str
    only_older: tuple[Offer, ...]
    only_newer: tuple[Offer, ...]
    both: int


@dataclass(frozen=True)
class ExperimentCases:
    """One experiment's cases, each its own newer/older time over the rounds (ab.case_totals), judged."""

    name: str
    title: str
    cases: tuple[ab.Effect, ...]

    @property
    def faster(self) -> int:
        return sum(1 for c in self.cases if c.verdict.value == "faster")

    @property
    def slower(self) -> int:
        return sum(1 for c in self.cases if c.verdict.value == "slower")

    def largest(self, count: int) -> tuple[ab.Effect, ...]:
        """Its cases that changed, the largest change first."""
        moved = sorted((c for c in self.cases if c.verdict.significant), key=lambda c: -abs(math.log(c.ratio)))
        return tuple(moved[:count])


@dataclass(frozen=True)
class HeadlineChange:
    """A headline ratio of the pages (how many times faster one case is than another, within a run) on
    each stack: each side the geometric mean over the rounds, `effect` the newer's over the older's with
    its t CI over the rounds, judged."""

    experiment: str
    key: str
    question: str
    older: float
    newer: float
    effect: ab.Effect


@dataclass(frozen=True)
class Observed:
    """A fact the runner observed of PHP that reads differently on the two stacks."""

    experiment: str
    fact: str
    older: str
    newer: str


@dataclass(frozen=True)
class StackComparison:
    stack_set: StackSet
    older: Stack
    newer: Stack
    report: ab.AbReport
    statements: tuple[StatementChange, ...]
    inventories: tuple[Inventory, ...]
    observed: tuple[Observed, ...]
    cases: tuple[ExperimentCases, ...] = ()
    headlines: tuple[HeadlineChange, ...] = ()

    @property
    def changed_statements(self) -> list[StatementChange]:
        return [s for s in self.statements if s.every_round]

    @property
    def unsteady_statements(self) -> list[StatementChange]:
        return [s for s in self.statements if not s.every_round]

    @property
    def advice_changes(self) -> list[StatementChange]:
        """What the advice says differently on the newer stack: statements both stacks make, differing in
        every round beyond a tie."""
        return [s for s in self.changed_statements if s.both_state]

    @property
    def only_one_states(self) -> list[StatementChange]:
        """Statements only one stack's run makes, in every round: about what only that stack offers."""
        return [s for s in self.changed_statements if not s.both_state]

    @property
    def changed_headlines(self) -> list[HeadlineChange]:
        """The headline ratios that changed, the largest change first."""
        moved = [h for h in self.headlines if h.effect.verdict.significant]
        return sorted(moved, key=lambda h: -abs(math.log(h.effect.ratio)))

    def largest_cases(self, count: int) -> list[tuple[ExperimentCases, ab.Effect]]:
        """The cases that changed most across every experiment, the largest change first."""
        moved = [(e, c) for e in self.cases for c in e.cases if c.verdict.significant]
        return sorted(moved, key=lambda pair: -abs(math.log(pair[1].ratio)))[:count]


def _most_common(values: list[str | None]) -> str | None:
    return Counter(values).most_common(1)[0][0] if values else None


def statement_changes(
    pairs: Sequence[tuple[Run, Run]], experiments: Sequence[Experiment], contexts: Contexts
) -> tuple[StatementChange, ...]:
    """The statements that differ between each round's two runs, beyond a tie, with how many rounds:
    what advice_changes.changes finds for each round's pair (the experiments both runs have)."""
    names = [experiment.name for experiment in experiments]
    seen: dict[tuple[str, str], list[Any]] = {}
    for older, newer in pairs:
        for change in advice_changes.changes(older, newer, contexts, names):
            if not change.tie:
                seen.setdefault((change.experiment, change.key), []).append(change)
    found = []
    for (experiment, key), changes in seen.items():
        found.append(
            StatementChange(
                experiment,
                key,
                changes[0].label,
                _most_common([c.base for c in changes]),
                _most_common([c.new for c in changes]),
                len(changes),
                len(pairs),
            )
        )
    return tuple(sorted(found, key=lambda s: (not s.every_round, s.experiment, s.key)))


def _offered(run: Run, table: str, column: str) -> dict[str, str] | None:
    """Every item the run lists, with its status (what the run found it can do)."""
    rows = run.tables[table] if table in run.frames else None
    if rows is None:
        return None
    return {str(row[column]): str(row.get("status", "")) for row in rows}


def inventories(older: Run, newer: Run, experiments: Sequence[Experiment]) -> tuple[Inventory, ...]:
    """What one stack offers and the other does not, from each experiment that declares what it lists."""
    found = []
    for experiment in experiments:
        offered = experiment.offered
        if offered is None or not (older.has_results(experiment.name) and newer.has_results(experiment.name)):
            continue
        a, b = _offered(older, offered.table, offered.column), _offered(newer, offered.table, offered.column)
        if a is None or b is None:
            continue
        found.append(
            Inventory(
                offered.title,
                experiment.name,
                tuple(Offer(name, a[name]) for name in sorted(a.keys() - b.keys())),
                tuple(Offer(name, b[name]) for name in sorted(b.keys() - a.keys())),
                len(a.keys() & b.keys()),
            )
        )
    return tuple(found)


def case_changes(
    pairs: Sequence[tuple[Run, Run]], report: ab.AbReport, schemas: Schemas, experiments: Sequence[Experiment]
) -> tuple[ExperimentCases, ...]:
    """Each experiment of the report's cases, newer over older, judged as one family."""
    compared = [e for e in experiments if any(found.name == e.name for found in report.experiments)]
    totals = [ab.case_totals(pairs, experiment, schemas) for experiment in compared]
    decided = ab.decide(totals)
    return tuple(
        ExperimentCases(experiment.name, experiment.title, tuple(cases))
        for experiment, cases in zip(compared, decided, strict=True)
    )


def headline_changes(
    pairs: Sequence[tuple[Run, Run]], experiments: Sequence[Experiment], contexts: Contexts
) -> tuple[HeadlineChange, ...]:
    """Each headline ratio (Headline.unit TIMES) both runs of every round state, on each stack and its change."""
    per_round: dict[tuple[str, str], list[tuple[float, float]]] = {}
    questions: dict[tuple[str, str], str] = {}
    for older, newer in pairs:
        for experiment in experiments:
            if not (older.has_results(experiment.name) and newer.has_results(experiment.name)):
                continue
            before = {h.key: h for h in experiment.headlines(contexts.context(experiment, older)) if h.unit == TIMES}
            after = {h.key: h for h in experiment.headlines(contexts.context(experiment, newer)) if h.unit == TIMES}
            for key in before.keys() & after.keys():
                a, b = before[key].value, after[key].value
                if a > 0 and b > 0 and math.isfinite(a) and math.isfinite(b):
                    per_round.setdefault((experiment.name, key), []).append((a, b))
                    questions[(experiment.name, key)] = after[key].question
    kept = {name: values for name, values in per_round.items() if len(values) == len(pairs)}
    effects = [
        ab.effect(questions[name], np.array([math.log(b / a) for a, b in values])) for name, values in kept.items()
    ]
    (decided,) = ab.decide([effects]) if effects else ([],)
    found = [
        HeadlineChange(
            name[0],
            name[1],
            questions[name],
            math.exp(float(np.mean([math.log(a) for a, _ in values]))),
            math.exp(float(np.mean([math.log(b) for _, b in values]))),
            effect,
        )
        for (name, values), effect in zip(kept.items(), decided, strict=True)
    ]
    order = {experiment.name: i for i, experiment in enumerate(experiments)}
    return tuple(sorted(found, key=lambda h: (order.get(h.experiment, len(order)), h.key)))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return "not recorded" if value is None else str(value)


def observed(older: Run, newer: Run) -> tuple[Observed, ...]:
    """Facts the runner observed of PHP (`verification.observed`), and the PHP extensions' and
    libraries' versions, where the stacks differ."""
    found = []
    for name, entry in older.manifest["experiments"].items():
        other = newer.experiment(name)
        before = ((entry.get("verification") or {}).get("observed")) or {}
        after = (((other or {}).get("verification") or {}).get("observed")) or {}
        for fact in [*before, *(k for k in after if k not in before)]:
            if before.get(fact) != after.get(fact):
                found.append(Observed(name, fact, _text(before.get(fact)), _text(after.get(fact))))
    return tuple(found)


def analyse(
    stack_set: StackSet, runs: dict[str, Run], schemas: Schemas, experiments: Sequence[Experiment], contexts: Contexts
) -> StackComparison:
    pairs = stack_set.pairs(runs)
    older, newer = stack_of(pairs[0][0].manifest), stack_of(pairs[0][1].manifest)
    report = ab.analyse(pairs, schemas, experiments, base=older.release, head=newer.release)
    last_older, last_newer = pairs[-1]
    return StackComparison(
        stack_set,
        older,
        newer,
        report,
        statement_changes(pairs, experiments, contexts),
        inventories(last_older, last_newer, experiments),
        observed(last_older, last_newer),
        case_changes(pairs, report, schemas, experiments),
        headline_changes(pairs, experiments, contexts),
    )


SHOWN_IN_A_CAVEAT = 3  # statements an experiment page's caveat names; the Versions page lists them all


def other_stack_caveat(comparison: StackComparison | None, experiment: str, shown_stack: str) -> str | None:
    """What an experiment page says where its answer reads differently on the set's other stack than on
    the stack of the run it shows: each statement both stacks make that differs in every round, on the
    other stack's side (None when nothing differs, or the page's run is of neither stack). A statement
    only one stack makes (a cipher only the newer OpenSSL offers) is what that stack offers, not a
    different answer: the Versions page lists those."""
    if comparison is None or shown_stack not in comparison.stack_set.stacks:
        return None
    changed = [c for c in comparison.advice_changes if c.experiment == experiment]
    if not changed:
        return None
    newer_shown = shown_stack == comparison.stack_set.stacks[1]
    other = comparison.older if newer_shown else comparison.newer
    said = "; ".join(f"{c.label}: {c.older if newer_shown else c.newer}" for c in changed[:SHOWN_IN_A_CAVEAT])
    more = len(changed) - SHOWN_IN_A_CAVEAT
    if more > 0:
        said += f"; and {more} more (the PHP and OpenSSL versions page lists them)"
    return (
        f"On {other.release} (stack {other.name}, measured beside this one in {len(comparison.stack_set.rounds)} "
        f"rounds on {comparison.stack_set.machine}), this page's statements read differently: {said}"
    )

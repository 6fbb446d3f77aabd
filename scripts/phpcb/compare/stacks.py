"""Two stacks on one machine (`make bench-stacks`): what got faster or slower from the older stack to the
newer, and what reads differently.

The runs of a set took turns in ABBA rounds on one machine, as `make ab` does for code: each round's
pair is compared (ab.py: per class the median log ratio newer/older, its mean over rounds with a t CI;
each case beyond its class's shift), so what the machine did between runs minutes apart cancels. Then:

- every statement the pages make (Experiment.advice: picks, recommendations, orders) from each stack's
  run, round by round: a statement reads differently on the newer stack when it does so in every round,
  beyond a tie; one that differs in some rounds only moved within the spread between runs;
- what the newer stack offers or behaves differently in: ciphers PHP's OpenSSL offers (the symmetric
  experiment's inventory), curves (ec_keygen's), and what the runner observed of PHP's openssl and sodium
  (each experiment's `verification.observed`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from phpcb.compare import ab
from phpcb.data.loader import Run
from phpcb.data.schema import Schemas
from phpcb.data.stacks import Stack, StackSet, stack_of
from phpcb.experiments.contexts import Contexts
from phpcb.experiments.experiment import Experiment
from phpcb.presentation.advice import diff

OK = "ok"  # the status of an offered item (Experiment.offered)


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


@dataclass(frozen=True)
class Inventory:
    """What one stack offers that the other does not."""

    title: str
    only_older: tuple[str, ...]
    only_newer: tuple[str, ...]
    both: int


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

    @property
    def changed_statements(self) -> list[StatementChange]:
        return [s for s in self.statements if s.every_round]

    @property
    def unsteady_statements(self) -> list[StatementChange]:
        return [s for s in self.statements if not s.every_round]


def _most_common(values: list[str | None]) -> str | None:
    return Counter(values).most_common(1)[0][0] if values else None


def statement_changes(
    pairs: Sequence[tuple[Run, Run]], experiments: Sequence[Experiment], contexts: Contexts
) -> tuple[StatementChange, ...]:
    """The statements that differ between each round's two runs, beyond a tie, with how many rounds."""
    seen: dict[tuple[str, str], list[Any]] = {}
    for older, newer in pairs:
        for experiment in experiments:
            if not (older.has_results(experiment.name) and newer.has_results(experiment.name)):
                continue
            before = experiment.advice(contexts.context(experiment, older))
            after = experiment.advice(contexts.context(experiment, newer))
            for change in diff(before, after):
                if not change.tie:
                    seen.setdefault((experiment.name, change.key), []).append(change)
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


def _offered(run: Run, table: str, column: str) -> set[str] | None:
    rows = run.tables[table] if table in run.frames else None
    if rows is None:
        return None
    return {str(row[column]) for row in rows if row.get("status") == OK}


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
        found.append(Inventory(offered.title, tuple(sorted(a - b)), tuple(sorted(b - a)), len(a & b)))
    return tuple(found)


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
    changed = [
        c
        for c in comparison.changed_statements
        if c.experiment == experiment and c.older is not None and c.newer is not None
    ]
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

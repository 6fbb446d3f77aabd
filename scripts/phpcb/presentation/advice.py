"""What the site advises, as comparable statements: each experiment's recommendations, findings and
security verdicts for one run, keyed so that two runs' advice can be diffed ("what would this run
change on the site if it were the reference?"). The vocabulary every experiment states its advice in;
compare/advice_changes.py collects and diffs it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from phpcb.statistics.contest import Contest
from phpcb.statistics.stats import Ratio


@dataclass(frozen=True)
class Advice:
    """One statement the site makes from a run: `label` names it, `value` is what it says."""

    experiment: str
    key: str  # stable across runs, e.g. "aead.fastest-recommended.16384"
    label: str  # e.g. "Fastest recommended AEAD at 16 KiB"
    value: str  # e.g. "chacha20-poly1305"
    # What it chose: one option when it decides, all it cannot tell apart when it is a tie (alphabetically);
    # () for a statement that chooses nothing (a verdict).
    options: tuple[str, ...] = ()
    # An order of options, as groups that cannot be told apart (fastest group first); () when not an order.
    order: tuple[tuple[str, ...], ...] = ()

    @property
    def tie(self) -> bool:
        return len(self.options) > 1 or any(len(group) > 1 for group in self.order)

    @classmethod
    def of_contest(cls, experiment: str, key: str, label: str, found: Contest | None) -> Advice:
        """The fastest option, or the options no measurement tells from it."""
        if found is None:
            return cls(experiment, key, label, "none")
        return cls(experiment, key, label, found.statement, found.tied)

    @classmethod
    def of_direction(cls, experiment: str, key: str, label: str, subject: str, baseline: str, ratio: Ratio) -> Advice:
        """Which of two is faster, or a tie of both."""
        if ratio.significant:
            options: tuple[str, ...] = (subject if ratio.value >= 1 else baseline,)
        else:
            options = tuple(sorted((subject, baseline)))
        return cls(experiment, key, label, direction(subject, baseline, ratio), options)

    @classmethod
    def of_order(cls, experiment: str, key: str, label: str, groups: Sequence[Sequence[str]]) -> Advice:
        """Options from fastest to slowest, those no measurement tells apart in one group: 'a < b ≈ c'."""
        order = tuple(tuple(group) for group in groups)
        return cls(experiment, key, label, " < ".join(" ≈ ".join(group) for group in order), order=order)


@dataclass(frozen=True)
class AdviceChange:
    """A statement that differs between two runs; None where one run does not make it."""

    experiment: str
    key: str
    label: str
    base: str | None
    new: str | None
    # Both runs state it, and one of them as a tie that includes the other's choice: a statement that
    # moved within the spread between runs, not a change of the advice.
    tie: bool = False


def _within_a_tie(before: Advice, after: Advice) -> bool:
    """Whether two statements differ only where one of them is a tie: a choice that the other run's tie
    includes, or an order whose every swapped pair one of the runs cannot tell apart."""
    if before.order and after.order:
        return _orders_agree_but_for_ties(before.order, after.order)
    if not (before.tie or after.tie) or not (before.options and after.options):
        return False
    return bool(set(before.options) & set(after.options))


def _rank(order: tuple[tuple[str, ...], ...]) -> dict[str, int]:
    return {name: position for position, group in enumerate(order) for name in group}


def _orders_agree_but_for_ties(a: tuple[tuple[str, ...], ...], b: tuple[tuple[str, ...], ...]) -> bool:
    first, second = _rank(a), _rank(b)
    if set(first) != set(second):
        return False
    for x, y in combinations(sorted(first), 2):
        one, other = first[x] - first[y], second[x] - second[y]
        if one * other < 0:  # ordered one way in one run, the other way in the other, neither a tie
            return False
    return True


def diff(base: list[Advice], new: list[Advice]) -> list[AdviceChange]:
    """Every statement whose value differs, or that only one run makes, in the base run's order; the
    changes within a tie are marked (AdviceChange.tie)."""
    old = {a.key: a for a in base}
    fresh = {a.key: a for a in new}
    changes = []
    for key in [*old, *(k for k in fresh if k not in old)]:
        before, after = old.get(key), fresh.get(key)
        if before is not None and after is not None and before.value == after.value:
            continue
        named = before or after
        assert named is not None
        changes.append(
            AdviceChange(
                named.experiment,
                key,
                named.label,
                before.value if before else None,
                after.value if after else None,
                tie=before is not None and after is not None and _within_a_tie(before, after),
            )
        )
    return changes


def direction(subject: str, baseline: str, ratio: Ratio) -> str:
    """Which of two is faster, as the pages decide it (a CI beyond the noise threshold), without the number.
    A tie names both in alphabetical order: the same words whichever measured faster."""
    if not ratio.significant:
        first, second = sorted((subject, baseline))
        return f"no measurable difference between {first} and {second}"
    faster, slower = (subject, baseline) if ratio.value >= 1 else (baseline, subject)
    return f"{faster} faster than {slower}"


def pick(name: str | None, runner_up: str | None, ratio: Ratio | None) -> str:
    """A choice as the pages state it: the pick alone, or tied with the runner-up when they cannot be told apart."""
    if name is None:
        return "none"
    if runner_up is not None and ratio is not None and not ratio.significant:
        first, second = sorted((name, runner_up))
        return f"{first} or {second} (no measurable difference)"
    return name

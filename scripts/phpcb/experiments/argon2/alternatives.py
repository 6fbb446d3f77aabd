"""The page's latency budgets for two other ways to hash a password: libsodium's `sodium_crypto_pwhash()`,
whose Argon2id has no threads parameter (its p is 1), for sodium users; and bcrypt (`password_hash()` with
PASSWORD_BCRYPT, PHP's PASSWORD_DEFAULT), the highest cost whose median fits. Both from the run's own
times, by the same rule as the Argon2id picks: by the median, and, where the machine's spread between runs
is known, by each end of the interval it gives."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from phpcb.data.policy import Argon2Policy
from phpcb.experiments.argon2.analysis import BUDGETS_MS, NONE_FITS, Argon2Analysis, budget_choices, interval_end
from phpcb.experiments.argon2.bcrypt import BcryptCost
from phpcb.presentation.wording import CI
from phpcb.statistics.spread import UNKNOWN, RunSpread
from phpcb.statistics.stats import MIN_PAIRS, Summary

SODIUM = "sodium"


@dataclass(frozen=True)
class BcryptChoice:
    """The highest bcrypt cost whose median fits the budget; where the machine's spread between runs is
    known, also the highest that fits in every run (`sure`) and in some (`possible`). `highest`: the
    highest cost the run measured."""

    budget_ms: int
    cost: BcryptCost | None
    sure: BcryptCost | None
    possible: BcryptCost | None
    highest: BcryptCost | None

    @property
    def beyond_grid(self) -> bool:
        """Even the highest cost measured fits: a higher one, not measured, may fit too."""
        return self.cost is not None and self.highest is not None and self.cost.cost == self.highest.cost

    @property
    def tied(self) -> bool:
        sure, possible = (None if c is None else c.cost for c in (self.sure, self.possible))
        return sure != possible

    @property
    def provisional(self) -> BcryptCost | None:
        """A cost the pick rests on with fewer hashes than a 95 % CI of its median needs (a slow cost stops
        at 3 once its time is spent): as for the Argon2id picks (BudgetChoice), the pick says so."""
        return next((c for c in (self.cost, self.sure, self.possible) if c is not None and c.wall.n < MIN_PAIRS), None)

    @property
    def statement(self) -> str:
        if self.tied:
            first, second = (c.label if c is not None else NONE_FITS for c in (self.sure, self.possible))
            said = f"{first} or {second} (which fits {self.budget_ms} ms depends on the run)"
        else:
            said = self.cost.label if self.cost is not None else NONE_FITS
        thin = self.provisional
        if thin is not None:
            said += (
                f" (provisional: {thin.label} rests on {thin.wall.n} hashes, fewer than the {MIN_PAIRS} a {CI} needs)"
            )
        return said


def highest_within(
    costs: list[BcryptCost], budget_ms: float, time: Callable[[Summary], float] | None = None
) -> BcryptCost | None:
    """The highest cost whose median (or `time`, an end of its interval between runs) fits the budget."""
    timed = time or (lambda wall: wall.median_ns)
    return max((c for c in costs if timed(c.wall) <= budget_ms * 1e6), key=lambda c: c.cost, default=None)


def bcrypt_choices(costs: list[BcryptCost], spread: RunSpread = UNKNOWN) -> list[BcryptChoice]:
    """Per latency budget of the page, the highest bcrypt cost that fits; none where bcrypt was not measured."""
    if not costs:
        return []
    highest = highest_within(costs, math.inf)
    choices = []
    for budget in BUDGETS_MS:
        cost = highest_within(costs, budget)
        if not spread.known:
            choices.append(BcryptChoice(budget, cost, cost, cost, highest))
            continue
        sure = highest_within(costs, budget, interval_end(spread, 1))
        possible = highest_within(costs, budget, interval_end(spread, 0))
        choices.append(BcryptChoice(budget, cost, sure, possible, highest))
    return choices


def context(analysis: Argon2Analysis, policy: Argon2Policy, spread: RunSpread = UNKNOWN) -> dict[str, Any]:
    sodium = budget_choices(analysis, policy.recommended_variants, spread, interface=SODIUM)
    return {
        # Only where the run timed a sodium cell of a recommended variant: an older or sodium-less run has none.
        "sodium_budgets": sodium if any(b.strongest is not None for b in sodium) else [],
        "bcrypt_budgets": bcrypt_choices(analysis.bcrypt, spread),
        "bcrypt_verdict": policy.verdict("bcrypt"),
    }

"""The page's latency budgets for two other ways to hash a password: libsodium's `sodium_crypto_pwhash()`,
whose Argon2id has no threads parameter (its p is 1), for sodium users; and bcrypt (`password_hash()` with
PASSWORD_BCRYPT, PHP's PASSWORD_DEFAULT), the highest cost that fits. Both from the run's own times, by
the rule of the Argon2id picks (picks.py): the strongest whose interval lies within the budget."""

from __future__ import annotations

from typing import Any

from phpcb.data.policy import Argon2Policy
from phpcb.experiments.argon2.analysis import BUDGETS_MS, Argon2Analysis, budget_choices
from phpcb.experiments.argon2.bcrypt import BcryptCost
from phpcb.experiments.argon2.picks import BudgetPick, Candidate, pick_within, timing
from phpcb.statistics.spread import UNKNOWN, RunSpread

SODIUM = "sodium"


def cost_strength(candidate: Candidate[BcryptCost]) -> tuple[float, ...]:
    return (candidate.option.cost,)


def bcrypt_choices(costs: list[BcryptCost], spread: RunSpread = UNKNOWN) -> list[BudgetPick[BcryptCost]]:
    """Per latency budget of the page, the one bcrypt cost it names, by the rule of the Argon2id picks
    (picks.pick_within: the highest cost whose interval lies within the budget), labelled by the cost
    whose time it quotes; none where bcrypt was not measured."""
    if not costs:
        return []
    found = [Candidate(c, c.label, timing(c.wall, spread)) for c in costs]
    return [pick_within(found, budget, cost_strength) for budget in BUDGETS_MS]


def context(analysis: Argon2Analysis, policy: Argon2Policy, spread: RunSpread = UNKNOWN) -> dict[str, Any]:
    sodium = budget_choices(analysis, policy.recommended_variants, spread, interface=SODIUM)
    return {
        # Only where the run timed a sodium cell of a recommended variant: an older or sodium-less run has none.
        "sodium_budgets": sodium if any(b.strongest is not None for b in sodium) else [],
        "bcrypt_budgets": bcrypt_choices(analysis.bcrypt, spread),
        "bcrypt_verdict": policy.verdict("bcrypt"),
    }

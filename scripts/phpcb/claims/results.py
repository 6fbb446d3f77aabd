"""What a measure gives a rule: the measured ratio, fact, ranking, share or choice, or why the run cannot
decide (`Unavailable`). A measure (scripts/phpcb/experiments/<name>/measures.py, or one of
claims/measures.py) turns an experiment's analysis of one run into one of these; `Args` is how it reads
the claim's arguments and the ledger's documented facts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from phpcb.claims.vocabulary import MISSING
from phpcb.statistics.stats import Ratio


@dataclass(frozen=True)
class Reference:
    title: str
    url: str


@dataclass(frozen=True)
class Fact:
    """A documented fact (data/reference/claims.yaml `facts:`): its value, what it says, and its sources."""

    key: str
    value: Any
    statement: str
    references: tuple[Reference, ...]


@dataclass(frozen=True)
class Unavailable:
    """The run cannot decide the claim; `why` says what is missing, `kind` which of
    vocabulary.UNTESTABLE_KINDS it is, `measured` what the run did measure, where that helps.
    `elsewhere` False: no run can decide it (what is missing no run records), so the judge measures
    no other run for it, each of which would cost that run's whole analysis to say the same."""

    why: str
    measured: str = ""
    kind: str = MISSING
    elsewhere: bool = True


@dataclass(frozen=True)
class RatioResult:
    """How many times faster `subject` is than `baseline` (baseline time / subject time), with its CI
    and how many samples each side had."""

    subject: str
    baseline: str
    ratio: Ratio
    where: str  # e.g. "AES-256-CBC encrypt, 4 KiB"
    samples: tuple[int, int]


@dataclass(frozen=True)
class Ratios:
    """One ratio at each of the conditions a claim is judged at (the sizes its page says to read, each
    pair of curves of equal strength): the claim holds only as it holds at every one. `missing` names
    the conditions this run did not measure."""

    parts: tuple[RatioResult, ...]
    missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class FactResult:
    """A fact about the software: what the runner observed, or a documented fact with its references."""

    value: Any
    text: str
    source: str  # "this run's verification", or what the references are
    references: tuple[Reference, ...] = ()


@dataclass(frozen=True)
class Ranked:
    name: str
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class RankResult:
    """Items best first (lowest value first), each with its 95 % CI. `groups`, where the page states its
    order as groups of items no measurement separates (best group first, e.g. the curves page's
    "c2tnb ≈ prime < secp ≈ …"), is that order: the rule reads places from it, not from the CIs."""

    items: tuple[Ranked, ...]
    what: str  # e.g. "curves by key-generation time per key bit (%)"
    unit: str = ""
    groups: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class ShareResult:
    """How many of the claim's parts hold: `matched` of `total` for certain, `uncertain` more that the
    data cannot decide, and which."""

    matched: int
    total: int
    details: tuple[str, ...]
    what: str
    uncertain: int = 0
    references: tuple[Reference, ...] = ()


@dataclass(frozen=True)
class ChoiceResult:
    """A recommendation: whether the claimed choice is allowed at all, and whether the site picks it."""

    admissible: bool
    picked: bool
    why: str
    references: tuple[Reference, ...] = ()


Result = Unavailable | RatioResult | Ratios | FactResult | RankResult | ShareResult | ChoiceResult


class ArgumentError(Exception):
    """A claim's `args` lack what its measure needs (reported as a DataError on data/reference/claims.yaml)."""


class Args:
    """A claim's `args`, read by its measure with a check of each one's type, and the ledger's facts."""

    def __init__(self, values: dict[str, Any], facts: dict[str, Fact] | None = None) -> None:
        self.values = values
        self.facts = facts or {}

    def _get(self, key: str, kind: type | tuple[type, ...], label: str) -> Any:
        value = self.values.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ArgumentError(f"expected args.{key} to be {label}, got {value!r}")
        return value

    def integer(self, key: str) -> int:
        return int(self._get(key, int, "an integer"))

    def number(self, key: str) -> float:
        return float(self._get(key, (int, float), "a number"))

    def text(self, key: str) -> str:
        return str(self._get(key, str, "text"))

    def optional_text(self, key: str) -> str | None:
        return self.text(key) if key in self.values else None

    def integers(self, key: str) -> list[int]:
        values = self._get(key, list, "a list of integers")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise ArgumentError(f"expected args.{key} to be a list of integers, got {values!r}")
        return [int(v) for v in values]

    def one_or_more_integers(self, key: str) -> list[int]:
        """args.<key> as a list: one integer, or a list of them (a claim judged at several conditions)."""
        return self.integers(key) if isinstance(self.values.get(key), list) else [self.integer(key)]

    def texts(self, key: str) -> list[str]:
        values = self._get(key, list, "a list of text")
        if not values or not all(isinstance(v, str) for v in values):
            raise ArgumentError(f"expected args.{key} to be a list of text, got {values!r}")
        return [str(v) for v in values]

    def fact(self, key: str = "fact") -> Fact:
        """The documented fact that args.<key> names."""
        name = self.text(key)
        if name not in self.facts:
            raise ArgumentError(f"args.{key} names no fact {name!r} under facts")
        return self.facts[name]


# A measure: (the experiment's page context for its shown run, the experiment's inputs, the claim's args).
Measure = Callable[[dict[str, Any], Any, Args], Result]

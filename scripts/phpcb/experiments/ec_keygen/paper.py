"""The article's own arithmetic (seed 003, tables 1, 3-8 and 11), as functions tested against its printed rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Bracket:
    """A key-length bracket of table 1 / table 11, in bits; `high` None means open-ended."""

    label: str
    low: int
    high: int | None

    def contains(self, bits: int) -> bool:
        return bits >= self.low and (self.high is None or bits <= self.high)


BRACKETS = (
    Bracket("160–223", 160, 223),
    Bracket("224–255", 224, 255),
    Bracket("256–383", 256, 383),
    Bracket("384–511", 384, 511),
    Bracket("512+", 512, None),
)


def ratio_percent(milliseconds: float, key_bits: int) -> float:
    """The article's performance ratio: generation time (ms) divided by key length (bits), in %."""
    if key_bits <= 0:
        raise ValueError(f"expected a positive key length, got {key_bits}")
    return milliseconds / key_bits * 100


def group_average(ratios: Sequence[float]) -> float:
    """The article's group figure: the mean of its curves' ratios."""
    if not ratios:
        raise ValueError("a group needs at least one curve")
    return sum(ratios) / len(ratios)


def key_length_ratio(rsa_bits: int, ecc_bits: int) -> float:
    """Table 1's last column: how many times longer the RSA key is than the shortest ECC key."""
    return rsa_bits / ecc_bits


def best_in_bracket(
    items: Sequence[T], bracket: Bracket, bits: Callable[[T], int], score: Callable[[T], float]
) -> list[T]:
    """The items in the bracket with the lowest score, ties included (the article lists ties together)."""
    inside = [item for item in items if bracket.contains(bits(item))]
    if not inside:
        return []
    lowest = min(score(item) for item in inside)
    return [item for item in inside if score(item) == lowest]

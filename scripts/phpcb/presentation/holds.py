"""On how many machines an answer holds (issue 45, item 5): a headline of the run a page shows, set
against the same headline on every other machine × stack (PHP and OpenSSL release) measured, as the
Machines page sets them side by side.

- A ratio holds on a pair where it goes the same way as the reference's and its CI says so beyond the
  noise threshold (stats.Ratio.significant), or, where the reference shows no measurable difference, where
  that pair shows none either.
- A pick (a headline with a `choice`: Argon2's parameters, the fastest curve) holds where the pick is the
  same.
- An absolute number (a time) does not hold or fail: the page prints the reference machine's, with that
  machine's spread, and this module the range over the other pairs beside it.

What a ratio or a pick depends on is said only where the data shows it: the pairs are split by the
OpenSSL series of their stack and by the AVX-512F/VAES features of their machine (alone, then both
together), and a split is named when its groups are apart: every group's CIs lie wholly above or below
every other group's (a pick: each group makes one pick, and no two groups the same). Everything from data
is escaped.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from phpcb.data.machines import FEATURE_LABELS, Machine
from phpcb.data.stacks import stack_of
from phpcb.presentation.formatting import duration
from phpcb.presentation.headlines import TIMES, Headline
from phpcb.presentation.render import markdown_text
from phpcb.presentation.wording import times
from phpcb.statistics.stats import Ratio

RATIO, PICK, NUMBER = "ratio", "pick", "number"
# A ratio's verdict on one pair, as stats.Ratio.significant decides it.
ABOVE, BELOW, NONE = "above", "below", "none"
# How many pairs a sentence names in one list before it says "and n more".
NAMED = 3
PAIR, PAIRS = "machine × stack pair", "machine × stack pairs"
AVX512, VAES = "avx512f", "vaes"


@dataclass(frozen=True)
class Pair:
    """One machine × stack and its value of a headline."""

    machine: str  # the machine's name (data/machines.py)
    stack: str  # the stack's release, "PHP 8.4 + OpenSSL 3.5"
    openssl: str  # the release's OpenSSL series, "3.5" (the header's where the library was not recorded)
    features: tuple[str, ...]  # the machine's watched instruction-set features
    headline: Headline

    @classmethod
    def of(cls, manifest: Mapping[str, Any], headline: Headline) -> Pair:
        machine = Machine.of(manifest)
        release = stack_of(dict(manifest)).release
        return cls(machine.name, release, release.rpartition("OpenSSL ")[2], machine.identity.features, headline)

    @property
    def label(self) -> str:
        return f"{self.machine} · {self.stack}"

    @property
    def group(self) -> tuple[str, str]:
        return self.machine, self.stack

    @property
    def hull(self) -> tuple[float, float]:
        """The pair's CI, or its value alone where it has none."""
        h = self.headline
        if math.isfinite(h.low) and math.isfinite(h.high) and h.low <= h.value <= h.high:
            return h.low, h.high
        return h.value, h.value


def kind_of(headline: Headline) -> str:
    if headline.choice is not None:
        return PICK
    return RATIO if headline.unit == TIMES else NUMBER


def verdict(headline: Headline) -> str:
    """Whether a ratio lies measurably above 1, below it, or neither (no CI: neither)."""
    ratio = Ratio(headline.value, headline.low, headline.high)
    if not ratio.significant:
        return NONE
    return ABOVE if headline.value > 1 else BELOW


def _holds(kind: str, reference: Headline, other: Headline) -> bool:
    if kind == PICK:
        return other.choice == reference.choice
    if kind == RATIO:
        return verdict(other) == verdict(reference)
    return False


# The factors a difference between machines × stacks may follow: each gives a pair's level, in words
# that follow the value ("19.0× with OpenSSL 3.5 on AVX-512F + VAES").
def _openssl(pair: Pair) -> str:
    return f"with OpenSSL {pair.openssl}"


def _vectors(pair: Pair) -> str:
    avx, vaes = (FEATURE_LABELS[AVX512], AVX512 in pair.features), (FEATURE_LABELS[VAES], VAES in pair.features)
    present = [name for name, has in (avx, vaes) if has]
    absent = [name for name, has in (avx, vaes) if not has]
    if not present:
        return f"without {' or '.join(absent)}"
    return f"on {' + '.join(present)}" + (f" without {absent[0]}" if absent else "")


@dataclass(frozen=True)
class Factor:
    name: str  # what the sentence says the values split by
    level: Callable[[Pair], str]


OPENSSL = Factor("the OpenSSL version", _openssl)
VECTORS = Factor(f"{FEATURE_LABELS[AVX512]}/{FEATURE_LABELS[VAES]}", _vectors)
FACTORS = (OPENSSL, VECTORS)


@dataclass(frozen=True)
class Level:
    """The pairs that share one level of the factors a split is by."""

    words: str  # "with OpenSSL 3.5 on AVX-512F + VAES"
    pairs: tuple[Pair, ...]

    @property
    def hull(self) -> tuple[float, float]:
        return min(p.hull[0] for p in self.pairs), max(p.hull[1] for p in self.pairs)

    @property
    def values(self) -> tuple[float, float]:
        found = [p.headline.value for p in self.pairs]
        return min(found), max(found)

    @property
    def choices(self) -> set[str | None]:
        return {p.headline.choice for p in self.pairs}


@dataclass(frozen=True)
class Split:
    """The pairs split by one or more factors into levels that are apart, highest value first (a pick's:
    the most pairs first)."""

    by: str  # "the OpenSSL version and AVX-512F/VAES"
    levels: tuple[Level, ...]


def _levels(pairs: Sequence[Pair], factors: Sequence[Factor]) -> list[Level]:
    grouped: dict[str, list[Pair]] = {}
    for pair in pairs:
        grouped.setdefault(" ".join(f.level(pair) for f in factors), []).append(pair)
    return [Level(words, tuple(members)) for words, members in grouped.items()]


def _apart(kind: str, levels: list[Level]) -> bool:
    if len(levels) < 2:
        return False
    if kind == PICK:
        picks = [level.choices for level in levels]
        return all(len(p) == 1 for p in picks) and len({next(iter(p)) for p in picks}) == len(picks)
    ordered = sorted(levels, key=lambda level: level.hull)
    return all(below.hull[1] < above.hull[0] for below, above in itertools.pairwise(ordered))


def _split(kind: str, pairs: Sequence[Pair], factors: Sequence[Factor]) -> Split | None:
    levels = _levels(pairs, factors)
    if not _apart(kind, levels):
        return None
    if kind == PICK:
        levels.sort(key=lambda level: (-len(level.pairs), level.words))
    else:
        levels.sort(key=lambda level: level.hull, reverse=True)
    return Split(" and ".join(f.name for f in factors), tuple(levels))


def splits(kind: str, pairs: Sequence[Pair]) -> tuple[Split, ...]:
    """What the values (a pick: the picks) follow, where the data shows it: each factor whose levels are
    apart; where both are, the two together when their joint levels are apart too (one split), else each."""
    if kind == NUMBER:
        return ()
    found = [(factor, split) for factor in FACTORS if (split := _split(kind, pairs, (factor,))) is not None]
    if len(found) > 1:
        joint = _split(kind, pairs, [factor for factor, _ in found])
        if joint is not None:
            return (joint,)
    return tuple(split for _, split in found)


@dataclass(frozen=True)
class Holds:
    """A headline of the reference run against the same headline on every other machine × stack."""

    kind: str
    reference: Pair
    others: tuple[Pair, ...]  # every other pair that measured it, by label
    splits: tuple[Split, ...]

    @property
    def pairs(self) -> tuple[Pair, ...]:
        return (self.reference, *self.others)

    @property
    def holding(self) -> tuple[Pair, ...]:
        return tuple(p for p in self.pairs if _holds(self.kind, self.reference.headline, p.headline))

    @property
    def failing(self) -> tuple[Pair, ...]:
        return tuple(p for p in self.pairs if p not in self.holding)


def across(reference: Pair, others: Sequence[Pair]) -> Holds:
    """The reference pair's headline against `others` (a pair of the reference's own machine × stack, or
    without a finite value, is left out)."""
    kept = sorted(
        (p for p in others if p.group != reference.group and math.isfinite(p.headline.value)),
        key=lambda p: p.label,
    )
    kind = kind_of(reference.headline)
    return Holds(kind, reference, tuple(kept), splits(kind, [reference, *kept]))


# Wording.


def subject(question: str) -> str:
    """The headline's question without the unit it ends with: 'aes-256-gcm over aes-256-ccm, encrypt at
    512 KiB (times faster)' → 'aes-256-gcm over aes-256-ccm, encrypt at 512 KiB'."""
    return re.sub(r"\s*\([^()]*\btimes\b[^()]*\)$", "", question)


def value_text(headline: Headline, value: float) -> str:
    """A pair's value as the sentence prints it. A speedup below 1 is the times slower it is ('43.9× slower',
    not '0.02×'): the answer beside it words it so, and two decimals of a small fraction would print one
    value for pairs 10 % apart."""
    if headline.unit != TIMES:
        return duration(value)
    if not headline.is_speedup or not 0 < value < math.inf:  # no times slower to say of 0 or of no bound
        return times(value)
    text = times(value) if value >= 1 else times(1 / value)
    if text == times(1.0):  # neither faster nor slower at the precision printed
        return text
    return f"{text} faster" if value >= 1 else f"{text} slower"


def range_text(headline: Headline, low: float, high: float) -> str:
    first, last = value_text(headline, low), value_text(headline, high)
    if first == last:
        return first
    if headline.unit != TIMES:
        return f"{first} – {last}"
    if not headline.is_speedup:
        return f"{first.removesuffix('×')}–{last}"
    if not 0 < low <= high < math.inf:
        return f"{first} to {last}"
    if low >= 1:  # '1.51–19.0× faster'
        return f"{times(low).removesuffix('×')}–{last}"
    if high < 1:  # '43.9–47.2× slower': a range of times slower, from the fewest
        return f"{times(1 / high).removesuffix('×')}–{times(1 / low)} slower"
    return f"{first} to {last}"


def _ends(pairs: Sequence[Pair]) -> Markup:
    """'1.51× (machine · stack) to 19.0× (machine · stack)', or the one value where they agree."""
    low = min(pairs, key=lambda p: (p.headline.value, p.label))
    high = max(pairs, key=lambda p: (p.headline.value, p.label))
    h = low.headline
    if value_text(h, low.headline.value) == value_text(h, high.headline.value):
        return Markup("{} ({})").format(value_text(h, h.value), _named([p.label for p in pairs]))
    return Markup("{} ({}) to {} ({})").format(
        value_text(h, low.headline.value),
        markdown_text(low.label),
        value_text(h, high.headline.value),
        markdown_text(high.label),
    )


def _named(labels: Sequence[str]) -> Markup:
    shown = [markdown_text(label) for label in labels[:NAMED]]
    more = len(labels) - len(shown)
    listed = Markup("; ").join(shown)
    return listed + Markup("; and {} more").format(more) if more else listed


def _verdict_words(headline: Headline) -> str:
    return "no measurable difference" if verdict(headline) == NONE else "a measurable difference the same way"


def _failing_words(reference: Headline, pair: Pair) -> Markup:
    if verdict(pair.headline) == NONE:
        said = "no measurable difference"
    elif verdict(reference) == NONE:
        said = "a measurable difference"
    else:
        said = "the other way"
    return Markup("{} ({}, {})").format(markdown_text(pair.label), value_text(pair.headline, pair.headline.value), said)


def _split_words(kind: str, split: Split) -> Markup:
    def level(entry: Level) -> Markup:
        if kind == PICK:
            return Markup("“{}” {}").format(markdown_text(next(iter(entry.choices))), markdown_text(entry.words))
        headline = entry.pairs[0].headline
        return Markup("{} {}").format(range_text(headline, *entry.values), markdown_text(entry.words))

    what = "The pick splits" if kind == PICK else "Its values split"
    return Markup("{} by {}: {}.").format(what, split.by, Markup("; ").join(level(e) for e in split.levels))


def _count(held: int, measured: int) -> str:
    return f"holds on {held} of {measured} {PAIRS if measured > 1 else PAIR}"


def sentence(holds: Holds) -> Markup:
    """What the answer says beside the headline: on how many pairs it holds, the range and which pair
    gives each end, and what it depends on where the data shows it; for an absolute number, the range on
    the other pairs."""
    reference = holds.reference.headline
    start = Markup("{}: ").format(markdown_text(subject(reference.question)))
    if holds.kind == NUMBER:
        if not holds.others:
            return start + Markup("measured on no other machine × stack.")
        where = f"on the other {len(holds.others)} {PAIRS}" if len(holds.others) > 1 else "on the other machine × stack"
        return start + Markup("{}, {}.").format(where, _ends(holds.others))
    count = _count(len(holds.holding), len(holds.pairs))
    if holds.kind == PICK:
        start += Markup("“{}” ").format(markdown_text(reference.choice))
    if not holds.others:
        return start + Markup("{}, the only one that has measured it.").format(count)
    if holds.kind == PICK:
        text = start + Markup(count)
        elsewhere: dict[str, list[str]] = {}
        for pair in holds.failing:
            elsewhere.setdefault(str(pair.headline.choice), []).append(pair.label)
        if elsewhere:
            text += Markup("; elsewhere {}").format(
                Markup(", ").join(
                    Markup("“{}” ({})").format(markdown_text(choice), _named(labels))
                    for choice, labels in sorted(elsewhere.items(), key=lambda item: (-len(item[1]), item[0]))
                )
            )
        text += Markup(".")
    else:
        text = start + Markup("{} ({}): {}.").format(count, _verdict_words(reference), _ends(holds.pairs))
        failing = holds.failing
        if failing:
            shown = Markup(", ").join(_failing_words(reference, p) for p in failing[:NAMED])
            more = len(failing) - NAMED
            text += Markup(" It does not on {}{}.").format(
                shown, Markup(" and {} more").format(more) if more > 0 else ""
            )
    for split in holds.splits:
        text += Markup(" ") + _split_words(holds.kind, split)
    return text

"""The fastest of several options, and the options no measurement tells from it.

A pick named from the fastest median alone flips between runs whenever two or three options are close:
the page would recommend one in one run and another in the next. A `Contest` keeps each other option's
ratio to the best (its time over the best's), so that once those ratios carry the spread between runs
(between_runs.py) the pick is stated as the set it cannot separate: one name when it is decided, all
the close ones, alphabetically, when it is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from phpcb.statistics.stats import Ratio, ratio_between

TIE_WORDS = "no measurable difference"


@dataclass(frozen=True)
class Contest:
    best: str
    # Each other option with its time over the best's (above 1: slower), nearest first.
    others: tuple[tuple[str, Ratio], ...] = ()

    @property
    def tied(self) -> tuple[str, ...]:
        """The best and every option whose ratio to it is not significant, alphabetically."""
        close = {name for name, ratio in self.others if not ratio.significant}
        return tuple(sorted({self.best, *close}))

    @property
    def decided(self) -> bool:
        return len(self.tied) == 1

    @property
    def runner_up(self) -> tuple[str, Ratio] | None:
        return self.others[0] if self.others else None

    @property
    def statement(self) -> str:
        """'aes-256-gcm', or 'aes-128-gcm, aes-256-gcm or chacha20-poly1305 (no measurable difference)'."""
        names = self.tied
        if len(names) == 1:
            return names[0]
        return f"{', '.join(names[:-1])} or {names[-1]} ({TIE_WORDS})"


def contest(options: Sequence[tuple[str, np.ndarray]], paired: Sequence[bool] | None = None) -> Contest | None:
    """`options` ranked fastest first, each with its per-operation times; `paired[i]` says whether option
    i + 1 was sampled in the same rounds as the best (its ratio then pairs them round by round)."""
    if not options:
        return None
    (best, best_times), rest = options[0], options[1:]
    pairs = paired if paired is not None else [False] * len(rest)
    others = tuple(
        (name, ratio_between(times, best_times, pair)) for (name, times), pair in zip(rest, pairs, strict=True)
    )
    return Contest(best, others)

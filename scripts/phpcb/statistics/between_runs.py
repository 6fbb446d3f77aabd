"""A run's analysis with every ratio's CI widened to what a second run of the machine would give.

A ratio of two cases measured in one run (GCM over CCM, the fastest AEAD over the runner-up) has a
within-run CI that describes that run's samples; another run of the same machine moves each case by its
residual beyond its class's shift (noise.py), so the ratio moves by √2 residual SDs. Where the machine
has a noise model, every `Ratio` an analysis holds is widened by that spread (noise.RunSpread.widen_ratio)
before any page, finding, pick, advice statement or claim verdict reads it: a pick whose margin lies
within the spread between runs is then a tie on every page and in every comparison, and a headline's
interval is its spread across the machine's runs. A dataclass that holds a check of the method rather
than a finding (the harness's overhead against a bare loop) sets `WITHIN_RUN_ONLY = True` and keeps its
own CI.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.statistics.stats import Ratio

WITHIN_RUN_ONLY = "WITHIN_RUN_ONLY"


# An analysis holds some ten thousand numbers, strings and arrays of samples for each (experiment, run):
# these exact types hold no Ratio, and are passed by without a call (what `widened` does with them, quicker).
_ATOMS = frozenset({str, bytes, int, float, bool, type(None), np.float64, np.ndarray})


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(kind))


def widened(value: Any, widen: Callable[[Ratio], Ratio]) -> Any:
    """`value` with every Ratio inside it (dataclass fields, lists, tuples, dicts) passed through `widen`."""
    return _widened(value, widen, {})


def _widened(value: Any, widen: Callable[[Ratio], Ratio], done: dict[int, Any]) -> Any:
    """widened, each object once: an analysis holds the same case, key or summary in many of its rows
    (a curve in its family, its bracket and its level), and most of its objects come twice or more.
    `done` maps an object's id to what it became; every object it names is held by the analysis
    being widened until the walk ends, so no id is reused meanwhile."""
    if type(value) in _ATOMS:
        return value
    if id(value) not in done:
        done[id(value)] = _widened_anew(value, widen, done)
    return done[id(value)]


def _widened_anew(value: Any, widen: Callable[[Ratio], Ratio], done: dict[int, Any]) -> Any:
    if isinstance(value, Ratio):
        return widen(value)
    if isinstance(value, Run | np.ndarray | str | bytes | int | float | type(None)):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if getattr(value, WITHIN_RUN_ONLY, False):
            return value
        changes = {}
        for name in _field_names(type(value)):
            before = getattr(value, name)
            after = before if type(before) in _ATOMS else _widened(before, widen, done)
            if after is not before:
                changes[name] = after
        return dataclasses.replace(value, **changes) if changes else value
    if isinstance(value, list):
        items = _each_widened(value, widen, done)
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if isinstance(value, tuple):
        items = _each_widened(value, widen, done)
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, dict):
        changed = {key: item if type(item) in _ATOMS else _widened(item, widen, done) for key, item in value.items()}
        return changed if any(changed[k] is not value[k] for k in value) else value
    return value


def _each_widened(
    items: list[Any] | tuple[Any, ...], widen: Callable[[Ratio], Ratio], done: dict[int, Any]
) -> list[Any]:
    return [item if type(item) in _ATOMS else _widened(item, widen, done) for item in items]

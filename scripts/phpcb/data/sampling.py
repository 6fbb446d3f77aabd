"""What the runner recorded of how it sampled an experiment and what else the machine did meanwhile
(the manifest's `sampling` and `system`), as the analyses and pages read them: which cases were
sampled in rotation (their sample r taken in the same round), the profile's target, the CPU the
hypervisor and other processes took; and the tables that hold timings, case by case."""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from phpcb.data import case_samples
from phpcb.data.loader import Run
from phpcb.data.schema import Schemas

# /proc/stat counts in USER_HZ clock ticks, 100 a second on every architecture Linux runs on.
CLOCK_TICKS_PER_SECOND = 100

Samples = dict[tuple[case_samples.KeyValue, ...], np.ndarray]


def measured_tables(run: Run, experiment: str, schemas: Schemas) -> list[tuple[str, Samples]]:
    """The experiment's tables that hold timings, each as its cases' per-operation times.

    Read once per run, experiment and schemas, and shared: the precision counts, the sample spread and the
    speed shifts of the Runs page each read every run's (1,461 reads of 559 tables in a build of the
    repository, 2026-12-01). The arrays are read-only, so that no reader can change another's."""
    entry = run.experiment(experiment) or {"files": []}
    frames = tuple(id(run.frames.get(name)) for name in entry["files"])
    known = _TABLES.setdefault(run, {})
    key = (experiment, id(schemas))
    if key not in known or known[key][1] != frames:
        known[key] = (schemas, frames, _read(run, entry, schemas))  # the schemas held beside: their id stays theirs
    return known[key][2]


def _read(run: Run, entry: Mapping[str, Any], schemas: Schemas) -> list[tuple[str, Samples]]:
    tables = []
    for name in entry["files"]:
        schema = schemas.tables.get(name)
        if schema is None or schema.measure is None or name not in run.frames:
            continue
        samples = case_samples.per_case(run.frames[name], schema.key, schema.measure)
        for times in samples.values():
            times.flags.writeable = False
        tables.append((name, samples))
    return tables


_TABLES: weakref.WeakKeyDictionary[
    Run, dict[tuple[str, int], tuple[Schemas, tuple[int, ...], list[tuple[str, Samples]]]]
] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Sampling:
    """The runner's record of one experiment's sampling (manifest: experiments.<name>.sampling)."""

    target: float
    minimum_samples: int
    cases: int
    within_target: int
    interleaved_by: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, entry: Mapping[str, Any] | None) -> Sampling | None:
        record = (entry or {}).get("sampling")
        if record is None:
            return None
        return cls(
            target=float(record["target"]),
            minimum_samples=int(record["minimum_samples"]),
            cases=int(record["cases"]),
            within_target=int(record["within_target"]),
            interleaved_by={table: tuple(columns) for table, columns in record["interleaved_by"].items()},
        )


@dataclass(frozen=True)
class Pairing:
    """Which cases of one table were sampled in rotation: those that agree on `columns` (None: none
    were, e.g. a run written before schema version 5). Their sample r was taken in the same round."""

    columns: tuple[str, ...] | None

    @classmethod
    def of(cls, run: Run, experiment: str, table: str) -> Pairing:
        sampling = Sampling.of(run.experiment(experiment))
        return cls(None if sampling is None else sampling.interleaved_by.get(table))

    def together(self, a: Any, b: Any) -> bool:
        """Whether cases `a` and `b` (mappings or objects with the key columns as attributes) were
        sampled in the same rounds."""
        if self.columns is None:
            return False
        return all(_value(a, column) == _value(b, column) for column in self.columns)


UNPAIRED = Pairing(None)  # no two cases sampled together


def _value(case: Any, column: str) -> Any:
    return case[column] if isinstance(case, Mapping) else getattr(case, column)


@dataclass(frozen=True)
class Load:
    """What else the machine did while an experiment (or a run) measured, from two readings."""

    steal_share: float | None  # of all CPU time, stolen by the hypervisor
    busy_share: float | None  # of all CPU time, not idle (this run's own process included)
    others_share: float | None  # of all CPU time, busy with other processes than the run's
    load_before: float | None  # the 1-minute load average
    load_after: float | None
    governor: str | None
    frequency_mhz: float | None

    @classmethod
    def of(cls, system: Mapping[str, Any] | None) -> Load | None:
        if not system or not system.get("before") or not system.get("after"):
            return None
        before, after = system["before"], system["after"]
        steal = busy = others = None
        if before["cpu_ticks"] and after["cpu_ticks"]:
            total = after["cpu_ticks"]["total"] - before["cpu_ticks"]["total"]
            if total > 0:
                steal = (after["cpu_ticks"]["steal"] - before["cpu_ticks"]["steal"]) / total
                busy = 1 - (after["cpu_ticks"]["idle"] - before["cpu_ticks"]["idle"]) / total
                if before["own_cpu_ns"] is not None and after["own_cpu_ns"] is not None:
                    own = (after["own_cpu_ns"] - before["own_cpu_ns"]) / 1e9 * CLOCK_TICKS_PER_SECOND / total
                    others = max(0.0, busy - own)
        return cls(
            steal_share=steal,
            busy_share=busy,
            others_share=others,
            load_before=before["load_average"][0] if before["load_average"] else None,
            load_after=after["load_average"][0] if after["load_average"] else None,
            governor=after["governor"],
            frequency_mhz=after["frequency_mhz"],
        )


# The gap the runner records for an experiment that left its native tools out, `openssl speed` in its rounds
# or the argon2 CLI (runners/src/Native/InterleavedRounds.php NATIVE_LEFT_OUT, `bench.php run --no-native`,
# which `make report` passes).
NATIVE_LEFT_OUT = (
    "native tools left out (--no-native: make report leaves `openssl speed` and the argon2 CLI out,"
    " make bench measures them)"
)


def native_left_out(entry: Mapping[str, Any] | None) -> bool:
    """Whether the run left `openssl speed` out of this experiment (its manifest entry), rather than being
    made before the experiment measured it: a page says which of the two a missing native table means."""
    return entry is not None and NATIVE_LEFT_OUT in str(entry.get("reason") or "").split("; ")

"""The experiments, found rather than listed: every subpackage of phpcb.experiments that exports
`EXPERIMENT` (and nothing else is scanned: no other layer is imported to find them)."""

from __future__ import annotations

import importlib
import pkgutil

from phpcb import experiments as experiments_package
from phpcb.data.loader import MANIFEST, Run
from phpcb.data.schema import Schemas
from phpcb.errors import BuildError, DataError
from phpcb.experiments.experiment import Experiment


class RegistryError(BuildError):
    """An experiment package is inconsistent with itself or with data/schema/."""


def discover() -> list[Experiment]:
    """Every experiment, in reading order (their `order`, then name)."""
    found: list[Experiment] = []
    for module in pkgutil.iter_modules(experiments_package.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{__package__}.{module.name}")
        experiment = getattr(package, "EXPERIMENT", None)
        if experiment is None:
            continue
        if not isinstance(experiment, Experiment):
            raise RegistryError(
                f"{__package__}.{module.name}.EXPERIMENT is a {type(experiment).__name__}, not an Experiment"
            )
        if experiment.name != module.name:
            raise RegistryError(
                f"{__package__}.{module.name}.EXPERIMENT is named {experiment.name!r}: expected {module.name!r}"
            )
        found.append(experiment)
    return sorted(found, key=lambda e: (e.order, e.name))


def check_tables(experiments: list[Experiment], schemas: Schemas) -> None:
    """The schema files and the experiments name each other: one data/schema/tables/<name>.json per
    experiment, whose first table holds its measurements (the tables are declared there only)."""
    names = {experiment.name for experiment in experiments}
    strays = sorted({table.experiment for table in schemas.tables.values()} - names)
    if strays:
        raise RegistryError(
            f"data/schema/tables/ declares tables of {strays}: no such experiment under phpcb.experiments"
        )
    for experiment in experiments:
        declared = schemas.of_experiment(experiment.name)
        if not declared or declared[0].measure is None:
            raise RegistryError(
                f"experiment {experiment.name}: expected data/schema/tables/{experiment.name}.json to declare "
                f"its measurements first (a table with a measure), got {[table.name for table in declared]}"
            )


def check_runs(experiments: list[Experiment], runs: list[Run], schemas: Schemas) -> None:
    """A run whose experiment is marked ok or partial lists that experiment's measurements (its first
    table): its page is built from them. Tables added later (e.g. native rounds) may be absent."""
    for run in runs:
        for experiment in experiments:
            entry = run.experiment(experiment.name)
            samples = experiment.measurements(schemas).name
            if entry is None or not run.has_results(experiment.name) or samples in entry["files"]:
                continue
            raise DataError(
                run.directory / MANIFEST,
                f"experiments.{experiment.name} is marked {entry['status']!r} but its files lack "
                f"{samples}, its samples: expected it among {entry['files']}",
            )

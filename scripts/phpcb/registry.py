"""The experiments, found rather than listed: every subpackage of phpcb that exports `EXPERIMENT`."""

from __future__ import annotations

import importlib
import pkgutil

from . import __path__ as package_path
from .errors import BuildError
from .experiment import Experiment
from .schema import Schemas


class RegistryError(BuildError):
    """An experiment package is inconsistent with itself or with data/schema/."""


def discover() -> list[Experiment]:
    """Every experiment, in reading order (their `order`, then name)."""
    found: list[Experiment] = []
    for module in pkgutil.iter_modules(package_path):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{__package__}.{module.name}")
        experiment = getattr(package, "EXPERIMENT", None)
        if experiment is None:
            continue
        if not isinstance(experiment, Experiment):
            raise RegistryError(f"phpcb.{module.name}.EXPERIMENT is a {type(experiment).__name__}, not an Experiment")
        if experiment.name != module.name:
            raise RegistryError(
                f"phpcb.{module.name}.EXPERIMENT is named {experiment.name!r}: expected {module.name!r}"
            )
        found.append(experiment)
    return sorted(found, key=lambda e: (e.order, e.name))


def check_tables(experiments: list[Experiment], schemas: Schemas) -> None:
    """Each experiment reads only tables that data/schema/ declares for it."""
    for experiment in experiments:
        declared = {table.name for table in schemas.of_experiment(experiment.name)}
        missing = [name for name in experiment.tables if name not in declared]
        if missing:
            raise RegistryError(
                f"experiment {experiment.name} reads {missing}, which data/schema/tables/{experiment.name}.json "
                f"does not declare (it declares {sorted(declared)})"
            )

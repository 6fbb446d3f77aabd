"""`python -m phpcb noise RUN...`: estimate the spread between repeated runs of one machine, profile and
stack (make bench-repeat), write it to data/noise/<machine>.json and say what it found."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.compare import comparison, noise
from phpcb.data import noise_model
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", type=Path, nargs="+", help="run directories of one machine, profile and stack")


def run(args: argparse.Namespace) -> int:
    schemas = load_schemas(args.root / "data" / "schema")
    runs = [comparison.load(directory, schemas, "RUN") for directory in args.runs]
    machine, profile = noise.estimate(runs, registry.discover(), schemas)
    path = noise_model.save(args.root, machine, profile)
    print(
        f"{path}: {machine}, {profile.profile} profile, stack {profile.stack}, from {len(profile.runs)} runs: "
        f"{', '.join(profile.runs)}"
    )
    for experiment, classes in profile.classes.items():
        for label, found in classes.items():
            print(
                f"  {experiment} [{label}] {found.cases} cases: shift ±{found.shift_log_sd:.1%}, "
                f"residual ±{found.residual_log_sd:.1%} (one SD between runs)"
            )
    return 0

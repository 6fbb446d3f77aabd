"""`python -m phpcb coverage RUN...`: whether the pages' intervals across runs hold on a boot the noise model
has not seen: each boot of the runs left out in turn, the model estimated from the others, and the share
of the left-out runs' headline numbers inside the intervals the other runs' pages print; then every pair of
runs of two boots compared with the model of the other runs, and the share of cases flagged (compare/coverage.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.compare import comparison, coverage
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry
from phpcb.experiments.contexts import Project


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "runs", type=Path, nargs="+", help="run directories of one machine and profile, of two boots or more"
    )


def run(args: argparse.Namespace) -> int:
    schemas = load_schemas(args.root / "data" / "schema")
    runs = [comparison.load(directory, schemas, "RUN") for directory in args.runs]
    contexts = coverage.WithinRun(Project(args.root), schemas)
    experiments = registry.discover()
    print(coverage.report(coverage.leave_one_boot_out(runs, experiments, schemas, contexts)))
    print(coverage.pairs_report(coverage.held_out_pairs(runs, experiments, schemas)))
    return 0

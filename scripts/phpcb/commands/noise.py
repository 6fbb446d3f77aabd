"""`python -m phpcb noise [RUN...]`: estimate the spread between repeated runs of one machine, profile and
stack, write it to data/noise/<machine>.json and say what it found. Without RUNs, from every run under
data/runs/: one model per machine, profile and stack that has enough quiet runs, so that the runs each boot
adds (one idle quick run per stack) widen the models as they accumulate; a run that measured on a busy
machine is left out, and named, and a machine whose identity is not recorded is left to REPEATED."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from phpcb.compare import comparison, noise
from phpcb.data import noise_model
from phpcb.data.loader import Run, load_runs
from phpcb.data.machines import RECORDED, Machine
from phpcb.data.noise_model import NoiseError, ProfileNoise
from phpcb.data.schema import Schemas, load_schemas
from phpcb.experiments import registry
from phpcb.experiments.experiment import Experiment


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "runs",
        type=Path,
        nargs="*",
        help="run directories of one machine, profile and stack (none: every run under data/runs/, by machine, "
        "profile and stack)",
    )


def run(args: argparse.Namespace) -> int:
    schemas = load_schemas(args.root / "data" / "schema")
    experiments = registry.discover()
    if not args.runs:
        return from_every_run(args.root, load_runs(args.root / "data" / "runs", schemas), experiments, schemas)
    runs = [comparison.load(directory, schemas, "RUN") for directory in args.runs]
    machine, profile = noise.estimate(runs, experiments, schemas)
    report(noise_model.save(args.root, machine, profile), machine, profile)
    return 0


def from_every_run(root: Path, runs: Sequence[Run], experiments: Sequence[Experiment], schemas: Schemas) -> int:
    """A model per machine, profile and stack from its quiet runs; 1 when no group could make one."""
    if not runs:
        print(f"no runs under {root / 'data' / 'runs'}: no model to make")
        return 1
    written = 0
    for (machine, profile, stack), group in sorted(noise.model_groups(runs).items()):
        if any(Machine.of(run.manifest).identity.source != RECORDED for run in group):
            # Runs of several days under a name no recorded identity backs may be of several CPUs (issue 45).
            print(
                f"{machine}, {profile} profile, stack {stack}: no model from every run: its identity is not "
                "recorded, so its runs may be of more than one CPU; name the runs of one host with REPEATED"
            )
            continue
        quiet = [run for run in group if not noise.busy_experiments(run, experiments)]
        for busy in (run for run in group if run not in quiet):
            print(f"{machine}, {profile} profile, stack {stack}: left out {busy.run_id}, measured on a busy machine")
        try:
            _, model = noise.estimate(quiet, experiments, schemas)
        except NoiseError as error:
            print(f"{machine}, {profile} profile, stack {stack}: no model from {len(quiet)} quiet run(s): {error}")
            continue
        report(noise_model.save(root, machine, model), machine, model)
        written += 1
    return 0 if written else 1


def report(path: Path, machine: str, profile: ProfileNoise) -> None:
    print(
        f"{path}: {machine}, {profile.profile} profile, stack {profile.stack}, from {len(profile.runs)} runs of "
        f"{profile.boot_count} boot(s): {', '.join(profile.runs)}"
    )
    for experiment, classes in profile.classes.items():
        for label, found in classes.items():
            print(
                f"  {experiment} [{label}] {found.cases} cases: shift ±{found.shift_log_sd:.1%}, "
                f"residual ±{found.residual_log_sd:.1%} (one SD between runs)"
            )

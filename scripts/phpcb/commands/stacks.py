"""`python -m phpcb stacks --record --stacks A,B RUN...`: the runs of `make bench-stacks` (A1 B1 B2 A2 ...
in the order they ran), recorded as a set in data/stacks/<set-id>.json and reported: each class's and
case's ratio B/A with its CI across the rounds. `python -m phpcb stacks SET.json` reports a recorded set."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.compare import ab, ab_export, comparison
from phpcb.data import stacks
from phpcb.data.datafile import read_json
from phpcb.data.loader import Run
from phpcb.data.machines import machine_name
from phpcb.data.schema import load_schemas
from phpcb.errors import BuildError
from phpcb.experiments import registry


class StacksError(BuildError):
    """Runs that cannot make a set of two stacks in rounds."""


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", type=Path, nargs="+", help="run directories as they ran (with --record), or a set file"
    )
    parser.add_argument("--record", action="store_true", help="write the runs as a set into data/stacks/")
    parser.add_argument(
        "--stacks", default=None, help="the two stacks, older first, e.g. host,debian13 (with --record)"
    )


def _in_rounds(loaded: list[Run], names: tuple[str, str]) -> list[tuple[str, str]]:
    """Pairs (A, B) per round from the runs in the order they ran, whichever stack ran first in a round."""
    if len(loaded) % 2 or len(loaded) < 2 * ab.MIN_ROUNDS:
        raise StacksError(f"expected at least {ab.MIN_ROUNDS} rounds of one run per stack, got {len(loaded)} runs")
    pairs = []
    for first, second in zip(loaded[0::2], loaded[1::2], strict=True):
        by_stack = {stacks.stack_of(first.manifest).name: first, stacks.stack_of(second.manifest).name: second}
        if set(by_stack) != set(names):
            found = [stacks.stack_of(r.manifest).name for r in (first, second)]
            raise StacksError(f"round {len(pairs) + 1}: runs of stacks {found}, expected one of each of {list(names)}")
        pairs.append((by_stack[names[0]].run_id, by_stack[names[1]].run_id))
    return pairs


def record(root: Path, paths: list[Path], names: tuple[str, str]) -> stacks.StackSet:
    schemas = load_schemas(root / "data" / "schema")
    loaded = [comparison.load(path, schemas, "RUN") for path in paths]
    runs_dir = (root / "data" / "runs").resolve()
    outside = [str(run.directory) for run in loaded if run.directory.parent != runs_dir]
    if outside:
        raise StacksError(f"a set records runs under data/runs/ only; not there: {', '.join(outside)}")
    machines = sorted({machine_name(run.manifest) for run in loaded})
    profiles = sorted({str(run.manifest["profile"]) for run in loaded})
    if len(machines) != 1 or len(profiles) != 1:
        raise StacksError(f"a set is of one machine and one profile; got machines {machines}, profiles {profiles}")
    set_id = f"{loaded[0].run_id[:14]}-{machines[0]}"
    found = stacks.StackSet(set_id, Path(), machines[0], profiles[0], names, tuple(_in_rounds(loaded, names)))
    stacks.check(found, {run.run_id: run for run in loaded})
    return found


def run(args: argparse.Namespace) -> int:
    schemas = load_schemas(args.root / "data" / "schema")
    if args.record:
        names = tuple((args.stacks or "").split(","))
        if len(names) != 2 or not all(names):
            raise StacksError(f"--stacks names two stacks, older first, e.g. host,debian13; got {args.stacks!r}")
        found = record(args.root, args.paths, (names[0], names[1]))
        path = stacks.save(args.root, found)
        print(f"{path}: {len(found.rounds)} rounds of {found.stacks[0]} and {found.stacks[1]} on {found.machine}")
        pairs = found.rounds
    else:
        if len(args.paths) != 1 or args.paths[0].suffix != ".json":
            raise StacksError("name one set file (data/stacks/<set-id>.json), or run directories with --record")
        found = stacks.parse(read_json(args.paths[0]), args.paths[0])
        pairs = found.rounds
    runs_dir = args.root / "data" / "runs"
    loaded = {run_id: comparison.load(runs_dir / run_id, schemas, "RUN") for pair in pairs for run_id in pair}
    stacks.check(found, loaded)
    run_pairs = found.pairs(loaded)
    older, newer = stacks.stack_of(run_pairs[0][0].manifest), stacks.stack_of(run_pairs[0][1].manifest)
    report = ab.analyse(run_pairs, schemas, registry.discover(), older.release, newer.release)
    print(ab_export.markdown(report, "The two stacks").rstrip("\n"))
    return 0

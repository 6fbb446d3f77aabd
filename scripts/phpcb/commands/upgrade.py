"""`python -m phpcb upgrade DIR...`: rewrite runs written under an older schema version (re-sealed).

Each run is upgraded alone: only the runs named are touched. A run that recorded no CPU family and model
takes the machine identity `machines.infer` finds for it among every run under data/runs/ and the runs
named (what it recorded matches exactly one recorded identity), else an unknown identity."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from phpcb.data import machines
from phpcb.data.loader import MANIFEST, run_directories
from phpcb.data.rewrite import upgrade_on_disk
from phpcb.data.schema import load_schemas


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", type=Path, nargs="+")


def _manifests(directories: list[Path]) -> list[dict[str, Any]]:
    found = []
    for directory in dict.fromkeys(d.resolve() for d in directories):
        try:
            manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # the upgrade itself names what is wrong with it
        if isinstance(manifest, dict):
            found.append(manifest)
    return found


def run(args: argparse.Namespace) -> int:
    schemas = load_schemas(args.root / "data" / "schema")
    inferred = machines.infer(_manifests([*run_directories(args.root / "data" / "runs"), *args.runs]))
    for directory in args.runs:
        manifest = _manifests([directory])
        identity = inferred.get(str(manifest[0].get("run_id"))) if manifest else None
        version = upgrade_on_disk(directory.resolve(), schemas, identity)
        state = "already current" if version is None else f"upgraded from schema version {version}"
        print(f"{directory}: {state} (version {schemas.version})")
    return 0

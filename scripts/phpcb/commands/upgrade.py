"""`python -m phpcb upgrade DIR...`: rewrite runs written under an older schema version (re-sealed)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.data.rewrite import upgrade_on_disk
from phpcb.data.schema import load_schemas


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", type=Path, nargs="+")


def run(args: argparse.Namespace) -> int:
    schemas = load_schemas(args.root / "data" / "schema")
    for directory in args.runs:
        version = upgrade_on_disk(directory.resolve(), schemas)
        state = "already current" if version is None else f"upgraded from schema version {version}"
        print(f"{directory}: {state} (version {schemas.version})")
    return 0

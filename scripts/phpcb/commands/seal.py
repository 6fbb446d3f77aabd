"""`python -m phpcb seal RUN --reason TEXT`: re-seal a run whose files were changed on purpose,
recording when and why (docs/contributing.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.data.rewrite import reseal_on_disk
from phpcb.data.schema import load_schemas


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", type=Path)
    parser.add_argument("--reason", required=True, help="what changed in the run's files, and why")


def run(args: argparse.Namespace) -> int:
    print(reseal_on_disk(args.run.resolve(), load_schemas(args.root / "data" / "schema"), args.reason))
    return 0

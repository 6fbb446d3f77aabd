"""`python -m phpcb fidelity DIR...`: PHP's AES-GCM/CCM speed over `openssl speed`'s; exit 1 when a
CI is wider than ±5 % or the runs' CIs do not overlap."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.compare import fidelity


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("runs", type=Path, nargs="+", help="runners/fidelity.php directories (or aead runs)")


def run(args: argparse.Namespace) -> int:
    checked = fidelity.check(args.root, [directory.resolve() for directory in args.runs])
    print(checked.text)
    return 0 if checked.met else 1

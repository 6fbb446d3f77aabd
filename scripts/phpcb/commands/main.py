"""`python -m phpcb [--root DIR] VERB ...`: finds the verb's module, parses its arguments, runs it.

A BuildError is caught once here and printed as one line; any other exception is a bug and keeps
its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from phpcb.commands import VERBS
from phpcb.errors import BuildError


def _parser() -> argparse.ArgumentParser:
    verbs = "\n".join(f"  {verb:<16} {text}" for verb, (_, text) in VERBS.items())
    parser = argparse.ArgumentParser(
        prog="python -m phpcb",
        description="phpcrypto-bench: validate runs, build the report's pages, compare runs, publish.",
        epilog=f"verbs:\n{verbs}\n\n`python -m phpcb VERB --help` describes one.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(os.environ.get("PHPCB_ROOT", Path.cwd())),
        help="repository root (default: $PHPCB_ROOT, else .)",
    )
    parser.add_argument("verb", choices=tuple(VERBS), metavar="VERB")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    top = _parser().parse_args(argv)
    module_name, text = VERBS[top.verb]
    # Imported by name, and only this verb's module: see the package's docstring.
    module = importlib.import_module(f"phpcb.commands.{module_name}")
    parser = argparse.ArgumentParser(prog=f"python -m phpcb {top.verb}", description=text)
    module.arguments(parser)
    args = parser.parse_args(top.rest)
    args.root = top.root.resolve()
    try:
        return int(module.run(args))
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1

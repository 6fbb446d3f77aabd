"""`python -m phpcb pages OUT`: write the generated pages to a directory, for inspection."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.pages import build


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", type=Path)


def run(args: argparse.Namespace) -> int:
    generated = build.build(args.root)
    for name, text in generated.pages.items():
        target = args.out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    print(f"ok: {len(generated.pages)} pages, {len(generated.files)} data files")
    return 0

"""`python -m phpcb check`: validate every run under data/runs/ and render every page in memory."""

from __future__ import annotations

import argparse

from phpcb.pages import build


def arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no arguments beyond --root


def run(args: argparse.Namespace) -> int:
    generated = build.build(args.root)
    print(f"ok: {len(generated.pages)} pages, {len(generated.files)} data files")
    return 0

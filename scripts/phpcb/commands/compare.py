"""`python -m phpcb compare BASE NEW [--format markdown|json] [--out FILE]`: one run against another."""

from __future__ import annotations

import argparse
from pathlib import Path

from phpcb.compare import advice_changes, comparison
from phpcb.compare.exporters import exporter
from phpcb.data import noise_model
from phpcb.data.machines import machine_name
from phpcb.data.schema import load_schemas
from phpcb.experiments.contexts import Contexts, Project


def report(root: Path, base_dir: Path, new_dir: Path, format_name: str = "markdown", out: Path | None = None) -> str:
    """`python -m phpcb compare BASE NEW`: the comparison in one format, printed or written to `out`."""
    chosen = exporter(format_name)
    schemas = load_schemas(root / "data" / "schema")
    base, new = comparison.load(base_dir, schemas, "BASE"), comparison.load(new_dir, schemas, "NEW")
    changes = advice_changes.changes(base, new, Contexts(Project(root), schemas))
    model = noise_model.load(root, machine_name(new.manifest))
    text = chosen.serialize(comparison.compare(base, new, schemas, advice_changes=changes, model=model))
    if out is None:
        return text.rstrip("\n")
    out.write_text(text, encoding="utf-8")
    return f"{out}: {format_name} comparison of {base.run_id} → {new.run_id} ({len(text):,} characters)"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("base", type=Path, help="the BASE run directory, e.g. data/runs/<run-id>")
    parser.add_argument("new", type=Path, help="the NEW run directory")
    parser.add_argument("--format", choices=("markdown", "json"), default="markdown")
    parser.add_argument("--out", type=Path, default=None, help="write to this file instead of standard output")


def run(args: argparse.Namespace) -> int:
    print(report(args.root, args.base, args.new, args.format, args.out))
    return 0

"""`python -m phpcb check|pages|fidelity|precision|upgrade|seal|synthesize|compare|noise|ab|preview-comment`:
validate data and render the pages, write the generated pages for inspection, compare PHP with
`openssl speed`, say how precise and quiet a run was, rewrite
old runs under the current schema, make synthetic runs for benchmarking the build, compare one run
with another, measure a code change A/B, or write a pull request's comment (its runs beside their baselines).

A BuildError is caught once here and printed as one line; any other exception is a bug and
keeps its traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import ab_export, baselines, comparison, fidelity, noise, precision_report, registry, site
from .errors import BuildError
from .rewrite import reseal_on_disk, upgrade_on_disk
from .schema import load_schemas
from .synthetic import synthesize


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m phpcb", description=__doc__)
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(os.environ.get("PHPCB_ROOT", Path.cwd())),
        help="repository root (default: $PHPCB_ROOT, else .)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="validate every run under data/runs/ and render the pages in memory")
    pages = commands.add_parser("pages", help="write the generated Markdown pages to a directory")
    pages.add_argument("out", type=Path)
    fidelity_ = commands.add_parser(
        "fidelity",
        help="PHP's AES-GCM/CCM speed over openssl speed's, from runners/fidelity.php directories (or aead runs); "
        "exit 1 when a CI is wider than ±5 %% or the runs' CIs do not overlap",
    )
    fidelity_.add_argument("runs", type=Path, nargs="+")
    precision = commands.add_parser("precision", help="how precise and how quiet one run directory's measurement was")
    precision.add_argument("run", type=Path)
    upgrade = commands.add_parser(
        "upgrade", help="rewrite run directories written under an older schema version (this re-seals them)"
    )
    upgrade.add_argument("runs", type=Path, nargs="+")
    reseal = commands.add_parser(
        "seal", help="re-seal a run whose files were changed on purpose, recording when and why (docs/contributing.md)"
    )
    reseal.add_argument("run", type=Path)
    reseal.add_argument("--reason", required=True, help="what changed in the run's files, and why")
    synthesize = commands.add_parser(
        "synthesize", help="make COUNT valid synthetic runs from the committed ones, in OUT/data/runs/ (for benchmarks)"
    )
    synthesize.add_argument("count", type=int)
    synthesize.add_argument("out", type=Path)
    compare = commands.add_parser(
        "compare", help="one run against another, case by case with significance (Markdown for a PR comment, or JSON)"
    )
    compare.add_argument("base", type=Path, help="the BASE run directory, e.g. data/runs/<run-id>")
    compare.add_argument("new", type=Path, help="the NEW run directory")
    compare.add_argument("--format", choices=("markdown", "json"), default="markdown")
    compare.add_argument("--out", type=Path, default=None, help="write to this file instead of standard output")
    noise_ = commands.add_parser(
        "noise",
        help="estimate the spread between repeated runs of one machine and profile (make bench-repeat), and "
        "write it to data/noise/<machine>.json",
    )
    noise_.add_argument("runs", type=Path, nargs="+", help="run directories of one machine and profile")
    ab = commands.add_parser(
        "ab",
        help="a code change measured A/B in one job (make ab): the rounds' base and head runs, compared round by round",
    )
    ab.add_argument("runs", type=Path, nargs="+", help="run directories in rounds: BASE1 HEAD1 BASE2 HEAD2 ...")
    ab.add_argument("--base-ref", default="base", help="the git ref the base runs measured")
    ab.add_argument("--head-ref", default="head", help="the git ref the head runs measured")
    ab.add_argument("--format", choices=tuple(ab_export.FORMATS), default="markdown")
    ab.add_argument("--out", type=Path, default=None, help="write to this file instead of standard output")
    comment = commands.add_parser(
        "preview-comment", help="the pull-request comment: each named run beside its baseline (Markdown)"
    )
    comment.add_argument("--runs", required=True, help="run ids under data/runs/, comma-separated")
    comment.add_argument("--out", type=Path, default=None, help="write to this file instead of standard output")
    return parser


def upgrade_runs(root: Path, runs: list[Path]) -> str:
    schemas = load_schemas(root / "data" / "schema")
    lines = []
    for run in runs:
        version = upgrade_on_disk(run.resolve(), schemas)
        state = "already current" if version is None else f"upgraded from schema version {version}"
        lines.append(f"{run}: {state} (version {schemas.version})")
    return "\n".join(lines)


def build_pages(root: Path, out: Path | None) -> str:
    generated = site.build(root)
    if out is not None:
        for name, text in generated.pages.items():
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    return f"ok: {len(generated.pages)} pages, {len(generated.files)} data files"


def noise_report(root: Path, directories: list[Path]) -> str:
    """Estimates the model from the runs, writes it, and says what it found, class by class."""
    schemas = load_schemas(root / "data" / "schema")
    runs = [comparison.load(directory, schemas, "RUN") for directory in directories]
    machine, profile = noise.estimate(runs, registry.discover(), schemas)
    path = noise.save(root, machine, profile)
    lines = [f"{path}: {machine}, {profile.profile} profile, from {len(profile.runs)} runs: {', '.join(profile.runs)}"]
    for experiment, classes in profile.classes.items():
        for label, found in classes.items():
            lines.append(
                f"  {experiment} [{label}] {found.cases} cases: shift ±{found.shift_log_sd:.1%}, "
                f"residual ±{found.residual_log_sd:.1%} (one SD between runs)"
            )
    return "\n".join(lines)


def _ids(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    root = args.root.resolve()
    commands = {
        "check": lambda: build_pages(root, None),
        "pages": lambda: build_pages(root, args.out),
        "precision": lambda: precision_report.report(root, args.run),
        "upgrade": lambda: upgrade_runs(root, args.runs),
        "seal": lambda: reseal_on_disk(args.run.resolve(), load_schemas(root / "data" / "schema"), args.reason),
        "synthesize": lambda: synthesize(root, args.count, args.out),
        "compare": lambda: comparison.report(root, args.base, args.new, args.format, args.out),
        "noise": lambda: noise_report(root, args.runs),
        "ab": lambda: ab_export.report(root, args.base_ref, args.head_ref, args.runs, args.format, args.out),
        "preview-comment": lambda: baselines.preview_comment(root, _ids(args.runs), args.out),
    }
    try:
        if args.command == "fidelity":
            checked = fidelity.check(root, [run.resolve() for run in args.runs])
            print(checked.text)
            return 0 if checked.met else 1
        print(commands[args.command]())
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0

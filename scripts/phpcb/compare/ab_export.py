"""`python -m phpcb ab`: an A/B job's report (ab.py) as Markdown, for a pull request's comment, or JSON."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from phpcb.compare import comparison
from phpcb.compare.ab import AbError, AbReport, Effect, ExperimentEffects, analyse
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry
from phpcb.presentation.render import Thresholds
from phpcb.presentation.render import markdown_text as md_cell

FORMAT_VERSION = 1
LISTED_CASES = 15  # per experiment: the flagged ones first, largest first


def _row(effect: Effect) -> str:
    return (
        f"| {md_cell(effect.label)} | {effect.ratio:.3f} ({effect.low:.3f}–{effect.high:.3f}) | {effect.change} "
        f"| {effect.p_adjusted:.3g} | {effect.verdict.value} |"
    )


def _experiment(e: ExperimentEffects) -> list[str]:
    confidence = Thresholds.current().confidence
    lines = [f"### {md_cell(e.title)}", ""]
    lines += [
        f"| class | head / base ({confidence} % CI over the rounds) | change | adjusted p | verdict |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    lines += [_row(effect) for effect in e.classes]
    flagged = sorted((c for c in e.cases if c.verdict.significant), key=lambda c: -abs(c.ratio - 1))
    lines += ["", f"{len(flagged)} of {len(e.cases)} cases changed beyond their class's shift."]
    if flagged:
        lines += ["", f"| case, beyond its class | head / base ({confidence} % CI) | change | adjusted p | verdict |"]
        lines += ["| --- | ---: | ---: | ---: | --- |"]
        lines += [_row(effect) for effect in flagged[:LISTED_CASES]]
        if len(flagged) > LISTED_CASES:
            lines.append(f"\n_{len(flagged) - LISTED_CASES} more in the JSON report._")
    return [*lines, ""]


def markdown(report: AbReport, sides: str = "Both checkouts' runners") -> str:
    """The report; `sides` names what took turns (two checkouts' runners, or two stacks)."""
    flagged = report.flagged
    thresholds = Thresholds.current()
    lines = [
        f"## A/B: {md_cell(report.head)} against {md_cell(report.base)}, {len(report.rounds)} rounds on one machine",
        "",
        f"{sides} took turns (ABBA order), so what the machine did between runs moved both sides "
        "of a round alike; the effect is the mean over rounds of head/base, its CI from how far rounds disagree "
        "(Student's t). `faster`/`slower`: Benjamini–Hochberg adjusted p < "
        f"{thresholds.alpha} and a change beyond {thresholds.difference} %.",
        "",
    ]
    if flagged:
        lines.append(
            f"**{len(flagged)} change{'s' if len(flagged) > 1 else ''} beyond the noise:** "
            + "; ".join(f"{md_cell(e.title)} · {md_cell(effect.label)} {effect.change}" for e, effect in flagged[:10])
            + ("; …" if len(flagged) > 10 else "")
            + "."
        )
    else:
        lines.append(f"**No class or case changed beyond {thresholds.difference} % and the noise of the rounds.**")
    lines += ["", "Rounds (base run, head run): " + "; ".join(f"`{b}` / `{h}`" for b, h in report.rounds), ""]
    for e in report.experiments:
        lines += _experiment(e)
    return "\n".join(lines).rstrip("\n") + "\n"


def as_json(report: AbReport) -> str:
    return json.dumps({"format_version": FORMAT_VERSION, **asdict(report)}, indent=2, default=str) + "\n"


FORMATS = {"markdown": markdown, "json": as_json}


def report(root: Path, base_ref: str, head_ref: str, runs: list[Path], format_name: str, out: Path | None) -> str:
    """Rounds given as base and head run directories, alternately: B1 H1 B2 H2 …"""
    if len(runs) % 2:
        raise AbError(f"expected base and head run directories in pairs, got {len(runs)} directories")
    try:
        render = FORMATS[format_name]
    except KeyError:
        raise AbError(f"unknown format {format_name!r}: expected one of {', '.join(FORMATS)}") from None
    schemas = load_schemas(root / "data" / "schema")
    loaded = [comparison.load(path, schemas, "RUN") for path in runs]
    pairs = list(zip(loaded[0::2], loaded[1::2], strict=True))
    text = render(analyse(pairs, schemas, registry.discover(), base_ref, head_ref))
    if out is None:
        return text.rstrip("\n")
    out.write_text(text, encoding="utf-8")
    return f"{out}: {format_name} A/B report, {len(pairs)} rounds"

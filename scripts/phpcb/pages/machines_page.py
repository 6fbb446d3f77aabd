"""The Machines page: each experiment's headline numbers for every machine × stack (PHP and OpenSSL
release) under data/runs/, one chart per question, and the environment of each machine.

Each machine × stack is represented, per experiment, by the run the site's own rule would
pick if that machine were the reference (full profile before quick, newest first), except that the
run `make report` just measured (the focus) stands for its own machine. Each row names the runner's
git commit, and a question whose rows come from different commits says so: a difference between
two rows may then be the harness's, not the machines'.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from phpcb.data.loader import Run
from phpcb.data.machines import Machine, machine_name
from phpcb.data.selection import SiteConfig, reference
from phpcb.data.stacks import stack_of
from phpcb.experiments.experiment import Experiment
from phpcb.presentation import holds
from phpcb.presentation.headlines import SECONDS, Headline
from phpcb.presentation.plotting import (
    INTERVAL_HOVER,
    Point,
    Spread,
    figure_data,
    interval_points,
    label,
    ms,
    speedup_ticks,
    vertical_line,
)
from phpcb.statistics.speed_shifts import SpeedShifts


@dataclass(frozen=True)
class Group:
    """One machine with one stack release (PHP and OpenSSL, major.minor: data/stacks.py)."""

    machine: str
    stack: str  # e.g. "PHP 8.4 + OpenSSL 3.5"

    @property
    def label(self) -> str:
        return f"{self.machine} · {self.stack}"


@dataclass(frozen=True)
class Row:
    group: Group
    run: Run
    headline: Headline

    @property
    def value_text(self) -> str:
        return _format(self.headline, self.headline.value)

    @property
    def runner(self) -> str:
        commit = self.run.manifest.get("git_commit")
        return commit[:7] if isinstance(commit, str) and commit else "not recorded"

    @property
    def ci_text(self) -> str:
        h = self.headline
        if not (math.isfinite(h.low) and math.isfinite(h.high)):
            return f"n = {h.n}, too few samples for a CI" if h.n is not None else "no CI"
        if h.is_speedup and _format(h, h.low) != _format(h, h.high):  # '34.1–47.0× slower', not '0.02× – 0.03×'
            return holds.range_text(h, h.low, h.high)
        return f"{_format(h, h.low)} – {_format(h, h.high)}"


@dataclass(frozen=True)
class Question:
    key: str
    text: str
    experiment: str
    rows: list[Row]
    figure: dict[str, Any]

    @property
    def runners(self) -> list[str]:
        """The runner commits its rows were measured with, when more than one: not one harness."""
        found = sorted({row.runner for row in self.rows})
        return found if len(found) > 1 else []


@dataclass(frozen=True)
class MachineSummary:
    name: str
    cpu: str
    identity: str  # machines.Identity.label: what sets the speed
    source: str  # recorded, inferred (with why) or unknown
    cores: int
    boots: int
    os: str
    stacks: list[str]  # each stack's short label (data/stacks.py)
    runs: list[str]
    shifting: int = 0  # of its runs, those taken while the host's speed shifted (statistics/speed_shifts.py)


def _format(headline: Headline, value: float) -> str:
    return holds.value_text(headline, value)


def groups(runs: list[Run]) -> dict[Group, list[Run]]:
    grouped: dict[Group, list[Run]] = defaultdict(list)
    for run in runs:
        grouped[Group(machine_name(run.manifest), stack_of(run.manifest).release)].append(run)
    return dict(sorted(grouped.items(), key=lambda item: (item[0].machine, item[0].stack)))


# Each row's interval is its own run's: a time headline is a median, a ratio one a ratio of medians.
MEDIAN_IN_ITS_RUN = Spread("the median", "within each row's run")
RATIO_IN_ITS_RUN = Spread("the ratio", "within each row's run")


def row_label(row: Row) -> str:
    """A row's name on the chart: the machine and stack, and the pick (Argon2's parameters) on a
    line of its own, clear of the bar and its error bar."""
    name = label(row.group.label)
    return f"{name}<br>{label(row.headline.choice)}" if row.headline.choice else name


def figure(question: str, rows: list[Row]) -> dict[str, Any]:
    seconds = rows[0].headline.unit == SECONDS
    speedup = rows[0].headline.is_speedup
    if seconds:
        points = [Point(ms(r.headline.value), ms(r.headline.low), ms(r.headline.high)) for r in rows]
    else:
        points = [Point(r.headline.value, r.headline.low, r.headline.high) for r in rows]
    spread = MEDIAN_IN_ITS_RUN if seconds else RATIO_IN_ITS_RUN
    values = interval_points("x", points, spread, " ms" if seconds else "×")
    layout: dict[str, Any] = {
        "title": f"{question} (error bars: {spread.text})",
        "xaxis": {"title": "ms per operation" if seconds else "times faster", "rangemode": "tozero"},
        "yaxis": {"type": "category", "automargin": True},
        "height": max(260, 120 + (64 if any(r.headline.choice for r in rows) else 48) * len(rows)),
        "showlegend": False,
    }
    if speedup:
        # The hover in the rows' words ('40.3× slower (34.1–47.0× slower)'), on a log axis around 1 (no
        # difference), where the bars become dots: 40× slower and 40× faster are as far from 1.
        values["customdata"] = [f"{row.value_text} ({row.ci_text})<br>{spread.text}" for row in rows]
        ends = [end for p in points for end in (p.value, p.low, p.high)]
        layout["xaxis"] = {"title": "times faster or slower (log scale)", **speedup_ticks(ends)}
        layout["shapes"] = [vertical_line(1.0, "dot")]
    return figure_data(
        [
            go.Bar(
                y=[row_label(r) for r in rows],
                **values,
                orientation="h",
                name=label(question),
                hovertemplate=f"%{{y}}: {INTERVAL_HOVER}<extra></extra>",
            )
        ],
        layout,
        legend_below=False,
    )


def shown_for_group(
    members: list[Run], experiment: str, group: Group, config: SiteConfig, focus: str | None
) -> Run | None:
    """The run that stands for a machine × stack: the focus run where it is one of them."""
    focused = next((run for run in members if run.run_id == focus and run.has_results(experiment)), None)
    if focused is not None:
        return focused
    chosen = reference(members, experiment, SiteConfig(config.path, group.machine, {}))
    return chosen.run if chosen is not None else None


def questions(
    experiments: list[Experiment],
    runs: list[Run],
    config: SiteConfig,
    context_of: Callable[[Experiment, Run], dict[str, Any]],
    focus: str | None = None,
) -> list[Question]:
    found: dict[str, Question] = {}
    by_group = groups(runs)
    for experiment in experiments:
        for group, members in by_group.items():
            run = shown_for_group(members, experiment.name, group, config, focus)
            if run is None:
                continue
            for headline in experiment.headlines(context_of(experiment, run)):
                question = found.setdefault(
                    headline.key, Question(headline.key, headline.question, experiment.name, [], {})
                )
                question.rows.append(Row(group, run, headline))
    return [Question(q.key, q.text, q.experiment, q.rows, figure(q.text, q.rows)) for q in found.values()]


def _shifting(found: SpeedShifts | None) -> bool:
    return found is not None and not found.steady


def summaries(runs: list[Run], shifts: Mapping[str, SpeedShifts | None] | None = None) -> list[MachineSummary]:
    """Each machine under its name, with how many of its runs were taken while the host's speed shifted
    (`shifts`, by run id: statistics/speed_shifts.of_runs; none counted without it)."""
    by_machine: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        by_machine[machine_name(run.manifest)].append(run)
    result = []
    for name, members in sorted(by_machine.items()):
        newest = members[-1].manifest
        machine = Machine.of(newest)
        sources = sorted({Machine.of(r.manifest).identity.source for r in members})
        result.append(
            MachineSummary(
                name=name,
                cpu=str(newest["cpu"]["model"]),
                identity=machine.identity.label,
                source=" and ".join(sources),
                cores=machine.identity.cores,
                boots=len({Machine.of(r.manifest).boot for r in members}),
                os=str(newest["stack"]["host_os"]),
                stacks=sorted({stack_of(r.manifest).short_label for r in members}),
                runs=[r.run_id for r in members],
                shifting=sum(1 for r in members if _shifting((shifts or {}).get(r.run_id))),
            )
        )
    return result
